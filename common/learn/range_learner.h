// Learning the range pruner's range (Vertex paper, III-C.4): from annotated
// examples, the offset of the value in its node's text that is the same on
// every example — from the start, from the end, or both. rule/text_range.h
// applies it.
//
// Words are the space-separated tokens of the NormalizeSpace'd text. A value
// must be a run of whole words of its node's text (compared ASCII-case-
// insensitively); otherwise no range can express it and LearnTextRange says
// so (the attribute's typed regex may still select it).
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_LEARN_RANGE_LEARNER_H_
#define VERTEX_COMMON_LEARN_RANGE_LEARNER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::learn {

struct RangeExample {
  std::string node_text;  // the annotated node's text
  std::string value;      // the value annotated in it
};

// The range consistent across `examples`, in this order of preference:
//  - nullopt when every value is its node's whole text (no range needed);
//  - skip_start and skip_end both constant (the value's length varies with
//    the text, e.g. "By: <any number of words>");
//  - skip_start and the length constant ("Price: $25.99 (save 10%)");
//  - skip_end and the length constant, anchored at the end.
// InvalidArgument naming the example when a value is not a run of whole
// words of its text ("ISBN:978..." glued to its label) or is not in it at
// all; FailedPrecondition when no form is consistent across the examples
// (the message gives each example's offsets). With several occurrences of
// the value in one text, the first is used.
absl::StatusOr<std::optional<v1::TextRange>> LearnTextRange(const std::vector<RangeExample>& examples);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_RANGE_LEARNER_H_
