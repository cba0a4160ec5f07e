// Applying a learnt text range (Vertex paper, III-C.4): which words of a
// node's text are the value. "Our Price: $25.99" holds "$25.99" at offset 3
// from the start and 0 words before the end. The range is learnt by
// learn/range_learner.h.
//
// Words are the space-separated tokens of the NormalizeSpace'd text.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_TEXT_RANGE_H_
#define VERTEX_COMMON_RULE_TEXT_RANGE_H_

#include <optional>
#include <string>
#include <string_view>

#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// The value `range` selects from `text` (normalised here); nullopt when the
// text has too few words for the range.
std::optional<std::string> ApplyTextRange(const v1::TextRange& range, std::string_view text);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_TEXT_RANGE_H_
