#include "common/learn/split_learner.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/text.h"
#include "common/rule/split.h"
#include "common/rule/text_range.h"

namespace vertex::learn {
namespace {

struct Span {
  size_t begin = 0;
  size_t end = 0;
};

// An example's text as the rule sees it and where each value sits in it, in
// text order.
struct Placed {
  std::string text;  // rule::NormalizeLines
  std::vector<Span> spans;
};

std::string Key(std::string_view s) {
  std::string key = absl::AsciiStrToLower(absl::string_view(s.data(), s.size()));
  std::replace(key.begin(), key.end(), '\n', ' ');
  return key;
}

absl::StatusOr<Placed> Place(const ListExample& e) {
  Placed out{rule::NormalizeLines(e.text), {}};
  const std::string text = Key(out.text);
  std::vector<std::string> values;
  for (const std::string& v : e.values) {
    values.push_back(Key(html::NormalizeSpace(v)));
    if (values.back().empty()) return absl::InvalidArgumentError(absl::StrCat("list \"", e.text, "\": empty value"));
  }
  // Left to right: the value that occurs next (the longest on a tie) takes
  // its place, then the rest are looked for after it.
  size_t from = 0;
  while (!values.empty()) {
    size_t best = values.size(), best_at = std::string::npos;
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t at = text.find(values[i], from);
      if (at == std::string::npos) continue;
      if (best == values.size() || at < best_at || (at == best_at && values[i].size() > values[best].size())) {
        best = i;
        best_at = at;
      }
    }
    if (best == values.size()) {
      return absl::InvalidArgumentError(absl::StrCat("list \"", e.text, "\": value \"", values[0],
                                                     "\" is not in the text", from > 0 ? " after the values before it" : ""));
    }
    out.spans.push_back({best_at, best_at + values[best].size()});
    from = best_at + values[best].size();
    values.erase(values.begin() + best);
  }
  return out;
}

// The separators `between` (the text between two values) is made of:
// punctuation separators and the word "and", or else only a line break.
absl::StatusOr<std::vector<std::string>> SeparatorsIn(std::string_view between) {
  std::vector<std::string> out;
  bool line_break = false;
  for (size_t i = 0; i < between.size();) {
    const char c = between[i];
    if (c == ' ' || c == '\n') {
      line_break |= c == '\n';
      ++i;
    } else if (std::string_view(",;&/|").find(c) != std::string_view::npos) {
      out.emplace_back(1, c);
      ++i;
    } else {
      size_t j = i;
      while (j < between.size() && between[j] != ' ' && between[j] != '\n' &&
             std::string_view(",;&/|").find(between[j]) == std::string_view::npos) {
        ++j;
      }
      if (absl::AsciiStrToLower(absl::string_view(between.data() + i, j - i)) != "and") {
        return absl::InvalidArgumentError(
            absl::StrCat("\"", std::string(between), "\" between two values is not a separator (known: , ; and & / | line break)"));
      }
      out.emplace_back(" and ");
      i = j;
    }
  }
  if (out.empty() && line_break) out.emplace_back("\n");
  if (out.empty()) return absl::InvalidArgumentError(absl::StrCat("no separator between two values (\"", std::string(between), "\")"));
  return out;
}

std::string SpanText(const Placed& p) {
  return p.text.substr(p.spans.front().begin, p.spans.back().end - p.spans.front().begin);
}

// FailedPrecondition unless `split` gives back the example's values.
absl::Status Check(const v1::ValueSplit& split, const ListExample& e, const Placed& p) {
  std::vector<std::string> got;
  for (const std::string& v : rule::SplitValues(split, SpanText(p))) got.push_back(html::FoldText(v));
  std::vector<std::string> want;
  for (const std::string& v : e.values) want.push_back(html::FoldText(v));
  std::vector<std::string> sorted_got = got, sorted_want = want;
  std::sort(sorted_got.begin(), sorted_got.end());
  std::sort(sorted_want.begin(), sorted_want.end());
  if (sorted_got == sorted_want) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      "splitting \"", SpanText(p), "\" at [", absl::StrJoin(split.separators(), " "), "] gives [",
      absl::StrJoin(got, " | "), "] where the annotation says [", absl::StrJoin(want, " | "), "]"));
}

}  // namespace

absl::StatusOr<std::optional<v1::ValueSplit>> LearnSplit(const std::vector<ListExample>& examples) {
  std::vector<Placed> placed;
  std::vector<std::string> seen;
  for (const ListExample& e : examples) {
    absl::StatusOr<Placed> p = Place(e);
    if (!p.ok()) return p.status();
    for (size_t k = 1; k < p->spans.size(); ++k) {
      const std::string_view between =
          std::string_view(p->text).substr(p->spans[k - 1].end, p->spans[k].begin - p->spans[k - 1].end);
      absl::StatusOr<std::vector<std::string>> separators = SeparatorsIn(between);
      if (!separators.ok()) {
        return absl::InvalidArgumentError(absl::StrCat("list \"", e.text, "\": ", separators.status().message()));
      }
      seen.insert(seen.end(), separators->begin(), separators->end());
    }
    placed.push_back(*std::move(p));
  }
  if (seen.empty()) return std::optional<v1::ValueSplit>();
  v1::ValueSplit split;
  for (const std::string& s : rule::KnownSeparators()) {
    if (std::find(seen.begin(), seen.end(), s) != seen.end()) split.add_separators(s);
  }
  for (size_t i = 0; i < examples.size(); ++i) {
    if (absl::Status s = Check(split, examples[i], placed[i]); !s.ok()) return s;
  }
  // Beyond the separators seen: a site may join one list with "," on one
  // page and ";" or " / " on another, and two or three annotated pages
  // cannot show them all. Once the text is known to be a list, the other
  // punctuation separators (not line breaks: those are layout) are admitted
  // too, unless one of them occurs inside an annotated value ("Smith &
  // Sons", "AC/DC"), and provided every example still splits exactly.
  v1::ValueSplit wider;
  for (const std::string& sep : rule::KnownSeparators()) {
    const bool was_seen = std::find(seen.begin(), seen.end(), sep) != seen.end();
    if (!was_seen) {
      if (sep == "\n") continue;
      v1::ValueSplit only;
      only.add_separators(sep);
      bool inside_value = false;
      for (const ListExample& e : examples) {
        for (const std::string& v : e.values) inside_value = inside_value || rule::SplitValues(only, v).size() != 1;
      }
      if (inside_value) continue;
    }
    wider.add_separators(sep);
  }
  for (size_t i = 0; i < examples.size(); ++i) {
    if (!Check(wider, examples[i], placed[i]).ok()) return std::optional<v1::ValueSplit>(split);
  }
  return std::optional<v1::ValueSplit>(wider);
}

absl::StatusOr<RangeExample> ListSpan(const ListExample& example) {
  absl::StatusOr<Placed> p = Place(example);
  if (!p.ok()) return p.status();
  if (p->spans.empty()) return absl::InvalidArgumentError(absl::StrCat("list \"", example.text, "\": no value"));
  return RangeExample{example.text, SpanText(*p)};
}

}  // namespace vertex::learn
