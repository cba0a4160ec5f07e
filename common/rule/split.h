// Splitting one source text into several values (issue 12): "Lynn A.
// Coleman, Rachel Hauck" → "Lynn A. Coleman", "Rachel Hauck" at the
// separator ",". The separators come from a rule's ValueSplit, learnt by
// learn/split_learner.h.
//
// A separator matches ASCII-case-insensitively; a space in it matches a
// space or a line break (so " and " cuts "Ann Lee\nand Bo Chen" too); "\n"
// matches a line break. The text is cut at every occurrence of any
// separator, scanning left to right (at one position the longest separator
// wins); each part is NormalizeSpace'd ("\n" inside a part becomes a space)
// and empty parts are dropped.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_RULE_SPLIT_H_
#define VERTEX_COMMON_RULE_SPLIT_H_

#include <string>
#include <string_view>
#include <vector>

#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

// The separators a split may use, in the order a learnt split lists them:
// ",", ";", " and ", "&", "/", "|", "\n".
const std::vector<std::string>& KnownSeparators();

// The parts of `text` (a NormalizeLines result, rule/text_range.h) cut at
// `split`'s separators; {text} normalised when it has none. Empty
// separators are ignored. Empty when the text holds nothing but separators.
std::vector<std::string> SplitValues(const v1::ValueSplit& split, std::string_view text);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_SPLIT_H_
