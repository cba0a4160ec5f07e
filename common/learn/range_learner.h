// Learning the range pruner's range (Vertex paper, III-C.4): from annotated
// examples, the offset of the value in its source text that is the same on
// every example — from the start, from the end, or both —, in words or, when
// no word range fits, in characters. rule/text_range.h applies it and says
// how texts are normalised and units counted.
//
// A word range needs the value to be a run of whole words of its text; a
// character range needs it to occur in the text (both compared ASCII-case-
// insensitively, "\n" read as a space). The first occurrence is used.
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
  std::string node_text;  // the annotated source text (rule::SourceTexts)
  std::string value;      // the value annotated in it
};

// The range consistent across `examples`, in this order of preference:
//  - nullopt when every value is its text's whole text (no range needed);
//  - in words, then (unit CHARACTERS) in characters, the first of:
//    - skip_start and skip_end both constant (the value's length varies with
//      the text, e.g. "By: <any number of words>");
//    - skip_start and the length constant ("Price: $25.99 (save 10%)");
//    - skip_end and the length constant, anchored at the end.
// InvalidArgument naming the example when a value is empty or does not occur
// in its text; FailedPrecondition when no form is consistent across the
// examples (the message gives each example's offsets in words, where the
// value is whole words, and in characters).
absl::StatusOr<std::optional<v1::TextRange>> LearnTextRange(const std::vector<RangeExample>& examples);

// The value selections worth trying on `examples`, most preferred first; the
// rule learner keeps the first with which the rule reproduces every
// annotated value. nullopt stands for no range. In order, each once:
//  1. LearnTextRange's word range (or no range), when one is consistent;
//  2. its character range, when one is consistent; with a typed regex,
//     preceded by its anchor alone (skip_start, or skip_end when anchored at
//     the end; no length): the regex finds where the value ends, as a
//     constant length or trailing count in characters is most often the
//     annotated values' coincidence;
//  and when the attribute has a typed regex (`typed`):
//  3. nearest_match ranges (rule/text_range.h NearestMatch) at the offset
//     that is constant across the examples: from the start, then from the
//     end, in words, then in characters — the regex picks the value where
//     its length or its surroundings vary ("Price: £340.00 (inc VAT)");
//  4. no range: the regex alone.
// InvalidArgument as LearnTextRange; FailedPrecondition when the list would
// be empty (no consistent range and no regex).
absl::StatusOr<std::vector<std::optional<v1::TextRange>>> RangeCandidates(const std::vector<RangeExample>& examples,
                                                                          bool typed);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_RANGE_LEARNER_H_
