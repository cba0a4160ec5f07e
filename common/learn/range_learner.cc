#include "common/learn/range_learner.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/html/text.h"
#include "common/rule/text_range.h"

namespace vertex::learn {
namespace {

using Unit = v1::TextRange::Unit;

struct Offsets {
  int start = 0;   // units before the value
  int end = 0;     // units after the value
  int length = 0;  // units of the value
};

// How values are compared with texts: lower-cased, "\n" read as a space.
// Keeps byte offsets, so that positions in the key are positions in `text`.
std::string Key(std::string_view normalized) {
  std::string key = absl::AsciiStrToLower(absl::string_view(normalized.data(), normalized.size()));
  std::replace(key.begin(), key.end(), '\n', ' ');
  return key;
}

// The value's offsets in characters; InvalidArgument when it is empty or
// does not occur in the text.
absl::StatusOr<Offsets> LocateCharacters(const RangeExample& e, size_t index) {
  const std::string value = Key(html::NormalizeSpace(e.value));
  if (value.empty()) return absl::InvalidArgumentError(absl::StrCat("range example ", index, ": empty value"));
  const std::string text = rule::NormalizeLines(e.node_text);
  const size_t at = Key(text).find(value);
  if (at == std::string::npos) {
    return absl::InvalidArgumentError(absl::StrCat("range example ", index, ": value \"", e.value,
                                                   "\" does not occur in the text \"", e.node_text, "\""));
  }
  const std::vector<rule::TextUnit> units = rule::TextUnits(text, v1::TextRange::CHARACTERS);
  Offsets o;
  for (const rule::TextUnit& u : units) {
    if (u.begin < at) {
      ++o.start;
    } else if (u.begin < at + value.size()) {
      ++o.length;
    }
  }
  o.end = static_cast<int>(units.size()) - o.start - o.length;
  return o;
}

// The value's offsets in words; nullopt when it is not a run of whole words
// of its text (LocateCharacters found it).
std::optional<Offsets> LocateWords(const RangeExample& e) {
  const std::string text = Key(rule::NormalizeLines(e.node_text));
  std::vector<std::string_view> words;
  for (const rule::TextUnit& u : rule::TextUnits(text, v1::TextRange::WORDS)) {
    words.push_back(std::string_view(text).substr(u.begin, u.end - u.begin));
  }
  const std::string value = Key(html::NormalizeSpace(e.value));
  std::vector<std::string_view> value_words;
  for (absl::string_view w : absl::StrSplit(value, ' ')) value_words.emplace_back(w.data(), w.size());
  auto it = std::search(words.begin(), words.end(), value_words.begin(), value_words.end());
  if (it == words.end()) return std::nullopt;
  Offsets o;
  o.start = static_cast<int>(it - words.begin());
  o.length = static_cast<int>(value_words.size());
  o.end = static_cast<int>(words.size()) - o.start - o.length;
  return o;
}

template <typename F>
bool AllEqual(const std::vector<Offsets>& v, F field) {
  return std::all_of(v.begin(), v.end(), [&](const Offsets& o) { return field(o) == field(v[0]); });
}

int Start(const Offsets& o) { return o.start; }
int End(const Offsets& o) { return o.end; }
int Length(const Offsets& o) { return o.length; }

std::string Describe(const std::vector<Offsets>& offsets) {
  std::vector<std::string> parts;
  for (const Offsets& o : offsets) parts.push_back(absl::StrCat(o.start, "+", o.length, "+", o.end));
  return absl::StrJoin(parts, ", ");
}

// The first consistent form (see LearnTextRange) in `unit`; nullopt inside
// when the values are their whole texts; FailedPrecondition when none.
absl::StatusOr<std::optional<v1::TextRange>> Consistent(const std::vector<Offsets>& offsets, Unit unit) {
  v1::TextRange range;
  range.set_unit(unit);
  if (AllEqual(offsets, Start) && AllEqual(offsets, End)) {
    if (offsets[0].start == 0 && offsets[0].end == 0) return std::optional<v1::TextRange>();
    range.set_skip_start(offsets[0].start);
    range.set_skip_end(offsets[0].end);
  } else if (AllEqual(offsets, Start) && AllEqual(offsets, Length)) {
    range.set_skip_start(offsets[0].start);
    range.set_length(offsets[0].length);
  } else if (AllEqual(offsets, End) && AllEqual(offsets, Length)) {
    range.set_skip_end(offsets[0].end);
    range.set_length(offsets[0].length);
    range.set_anchor_end(true);
  } else {
    return absl::FailedPreconditionError("no consistent form");
  }
  return std::optional<v1::TextRange>(range);
}

// nearest_match ranges at the offsets constant across the examples.
std::vector<v1::TextRange> NearestForms(const std::vector<Offsets>& offsets, Unit unit) {
  std::vector<v1::TextRange> out;
  if (AllEqual(offsets, Start)) {
    v1::TextRange& r = out.emplace_back();
    r.set_skip_start(offsets[0].start);
  }
  if (AllEqual(offsets, End)) {
    v1::TextRange& r = out.emplace_back();
    r.set_skip_end(offsets[0].end);
    r.set_anchor_end(true);
  }
  for (v1::TextRange& r : out) {
    r.set_unit(unit);
    r.set_nearest_match(true);
  }
  return out;
}

// Both units' offsets of every example; `words` empty when a value is not
// whole words (then `words_problem` says where).
struct Located {
  std::vector<Offsets> characters;
  std::vector<Offsets> words;
  std::string words_problem;
};

absl::StatusOr<Located> LocateAll(const std::vector<RangeExample>& examples) {
  if (examples.empty()) return absl::InvalidArgumentError("no range example");
  Located out;
  for (size_t i = 0; i < examples.size(); ++i) {
    absl::StatusOr<Offsets> c = LocateCharacters(examples[i], i);
    if (!c.ok()) return c.status();
    out.characters.push_back(*c);
    std::optional<Offsets> w = LocateWords(examples[i]);
    if (w && out.words_problem.empty()) {
      out.words.push_back(*w);
    } else if (!w && out.words_problem.empty()) {
      out.words_problem = absl::StrCat("value \"", examples[i].value, "\" is not a run of whole words of \"",
                                       examples[i].node_text, "\"");
    }
  }
  if (!out.words_problem.empty()) out.words.clear();
  return out;
}

absl::Status NoConsistentRange(const Located& l) {
  return absl::FailedPreconditionError(absl::StrCat(
      "no word or character range is consistent across the examples (words before+value+after: ",
      l.words.empty() ? l.words_problem : Describe(l.words), "; characters: ", Describe(l.characters), ")"));
}

}  // namespace

absl::StatusOr<std::optional<v1::TextRange>> LearnTextRange(const std::vector<RangeExample>& examples) {
  absl::StatusOr<Located> located = LocateAll(examples);
  if (!located.ok()) return located.status();
  if (!located->words.empty()) {
    absl::StatusOr<std::optional<v1::TextRange>> words = Consistent(located->words, v1::TextRange::WORDS);
    if (words.ok()) return words;
  }
  absl::StatusOr<std::optional<v1::TextRange>> characters = Consistent(located->characters, v1::TextRange::CHARACTERS);
  if (characters.ok()) return characters;
  return NoConsistentRange(*located);
}

absl::StatusOr<std::vector<std::optional<v1::TextRange>>> RangeCandidates(const std::vector<RangeExample>& examples,
                                                                          bool typed) {
  absl::StatusOr<Located> located = LocateAll(examples);
  if (!located.ok()) return located.status();
  std::vector<std::optional<v1::TextRange>> out;
  const auto add = [&out](const std::optional<v1::TextRange>& r) {
    const auto same = [&r](const std::optional<v1::TextRange>& o) {
      return o.has_value() == r.has_value() && (!r || o->SerializeAsString() == r->SerializeAsString());
    };
    if (std::none_of(out.begin(), out.end(), same)) out.push_back(r);
  };
  if (!located->words.empty()) {
    absl::StatusOr<std::optional<v1::TextRange>> words = Consistent(located->words, v1::TextRange::WORDS);
    if (words.ok()) add(*words);
  }
  absl::StatusOr<std::optional<v1::TextRange>> characters = Consistent(located->characters, v1::TextRange::CHARACTERS);
  if (characters.ok() && *characters && typed) {
    // A constant length in characters, or a constant count of characters
    // after the value, is most often the annotated values' coincidence
    // ("£12.00 (inc VAT)", "£47.82 (inc VAT)"; then "€4.99" or "$1,234.56
    // each" on other pages). With a typed regex, the same anchor alone lets
    // the regex find where the value ends: tried first.
    v1::TextRange open = **characters;
    open.set_length(0);
    if (open.anchor_end()) {
      open.set_anchor_end(false);
      open.set_skip_start(0);
    } else {
      open.set_skip_end(0);
    }
    add(open);
  }
  if (characters.ok()) add(*characters);
  if (typed) {
    if (!located->words.empty()) {
      for (const v1::TextRange& r : NearestForms(located->words, v1::TextRange::WORDS)) add(r);
    }
    for (const v1::TextRange& r : NearestForms(located->characters, v1::TextRange::CHARACTERS)) add(r);
    add(std::nullopt);
  }
  if (out.empty()) return NoConsistentRange(*located);
  return out;
}

}  // namespace vertex::learn
