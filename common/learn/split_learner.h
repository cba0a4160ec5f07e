// Learning how one text holds several values of a multi-valued attribute
// (issue 12): "By: Lynn A. Coleman, Rachel Hauck" annotated with "Lynn A.
// Coleman" and "Rachel Hauck" gives the separator ","; the label "By:" is
// cut by a range (range_learner.h) learnt on ListSpan, the stretch from the
// first value's start to the last value's end. rule/split.h applies it.
//
// Values are found in their text as range_learner.h finds them (ASCII-case-
// insensitively, "\n" read as a space), each at its first occurrence after
// the values before it in the text, whatever the order they were annotated
// in.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_LEARN_SPLIT_LEARNER_H_
#define VERTEX_COMMON_LEARN_SPLIT_LEARNER_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/learn/range_learner.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::learn {

struct ListExample {
  std::string text;                 // one source text (rule::SourceTexts)
  std::vector<std::string> values;  // the annotated values found in it
};

// The split that cuts every example's values apart: the separators seen
// between consecutive values, each of rule::KnownSeparators() (the text
// between two values, trimmed of spaces, must be a sequence of them: ",",
// ";", "and", "&", "/", "|", or only a line break; "," then "and" in "A, B,
// and C" counts as both), widened by the other known separators except the
// line break (a site may vary its list punctuation from page to page) that
// occur in no annotated value and keep every example's split exact. nullopt
// when no example has two values. The split of the seen separators must give
// back exactly each example's values from its ListSpan, else
// FailedPrecondition saying what it gave. InvalidArgument naming the example
// when a value is empty or not in its text, or when the text between two
// values is not made of separators.
absl::StatusOr<std::optional<v1::ValueSplit>> LearnSplit(const std::vector<ListExample>& examples);

// The range example of a list: its text and the stretch of it from the
// first value to the last (the value itself for one value). InvalidArgument
// as LearnSplit.
absl::StatusOr<RangeExample> ListSpan(const ListExample& example);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_SPLIT_LEARNER_H_
