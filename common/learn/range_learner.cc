#include "common/learn/range_learner.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/text.h"

namespace vertex::learn {
namespace {

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  const std::string normalized = html::NormalizeSpace(text);
  size_t start = 0;
  while (start < normalized.size()) {
    size_t end = normalized.find(' ', start);
    if (end == std::string::npos) end = normalized.size();
    out.push_back(absl::AsciiStrToLower(normalized.substr(start, end - start)));
    start = end + 1;
  }
  return out;
}

struct Offsets {
  int start = 0;   // words before the value
  int end = 0;     // words after the value
  int length = 0;  // words of the value
};

absl::StatusOr<Offsets> Locate(const RangeExample& e, size_t index) {
  const std::vector<std::string> text = Words(e.node_text);
  const std::vector<std::string> value = Words(e.value);
  if (value.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("range example ", index, ": empty value"));
  }
  auto it = std::search(text.begin(), text.end(), value.begin(), value.end());
  if (it == text.end()) {
    const bool inside = html::FoldText(e.node_text).find(html::FoldText(e.value)) != std::string::npos;
    return absl::InvalidArgumentError(absl::StrCat(
        "range example ", index, ": value \"", e.value, "\" ",
        inside ? "is not a run of whole words of" : "does not occur in", " the node text \"", e.node_text, "\""));
  }
  Offsets o;
  o.start = static_cast<int>(it - text.begin());
  o.length = static_cast<int>(value.size());
  o.end = static_cast<int>(text.size()) - o.start - o.length;
  return o;
}

template <typename F>
bool AllEqual(const std::vector<Offsets>& v, F field) {
  return std::all_of(v.begin(), v.end(), [&](const Offsets& o) { return field(o) == field(v[0]); });
}

}  // namespace

absl::StatusOr<std::optional<v1::TextRange>> LearnTextRange(const std::vector<RangeExample>& examples) {
  if (examples.empty()) return absl::InvalidArgumentError("no range example");
  std::vector<Offsets> offsets;
  for (size_t i = 0; i < examples.size(); ++i) {
    absl::StatusOr<Offsets> o = Locate(examples[i], i);
    if (!o.ok()) return o.status();
    offsets.push_back(*o);
  }
  const auto start = [](const Offsets& o) { return o.start; };
  const auto end = [](const Offsets& o) { return o.end; };
  const auto length = [](const Offsets& o) { return o.length; };
  v1::TextRange range;
  if (AllEqual(offsets, start) && AllEqual(offsets, end)) {
    if (offsets[0].start == 0 && offsets[0].end == 0) return std::optional<v1::TextRange>();
    range.set_skip_start(offsets[0].start);
    range.set_skip_end(offsets[0].end);
  } else if (AllEqual(offsets, start) && AllEqual(offsets, length)) {
    range.set_skip_start(offsets[0].start);
    range.set_length(offsets[0].length);
  } else if (AllEqual(offsets, end) && AllEqual(offsets, length)) {
    range.set_skip_end(offsets[0].end);
    range.set_length(offsets[0].length);
    range.set_anchor_end(true);
  } else {
    std::vector<std::string> parts;
    for (const Offsets& o : offsets) parts.push_back(absl::StrCat(o.start, "+", o.length, "+", o.end));
    return absl::FailedPreconditionError(absl::StrCat(
        "no word range is consistent across the examples (words before+value+after: ",
        absl::StrJoin(parts, ", "), ")"));
  }
  return std::optional<v1::TextRange>(range);
}

}  // namespace vertex::learn
