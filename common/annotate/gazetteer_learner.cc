#include "common/annotate/gazetteer_learner.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::annotate {
namespace {

constexpr size_t kMaxTermBytes = 200;
// A typed node's components come from its first this many bytes of text:
// an attribute value is short (AMBER's A2), and a node typed by inference
// may be a whole block.
constexpr size_t kMaxComponentText = 1000;

bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

// An ASCII letter, or the lead byte of a non-ASCII character outside
// U+0080..U+00BF and U+2000..U+2FFF (currency signs, punctuation, symbols).
bool IsLetterByte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= 0xC3 && c <= 0xE1) || c >= 0xE3;
}

bool IsSegmentBreak(char c) {
  return c == ',' || c == ';' || c == '|' || c == '/' || c == '(' || c == ')';
}

// Lower-case words that may join the capitalised words of one name.
bool IsJoiningWord(std::string_view w) {
  static constexpr std::string_view kWords[] = {"upon", "on",  "in",  "under", "le",  "la",  "de",   "the",
                                                "of",   "and", "by",  "next",  "sub", "en",  "cum", "super",
                                                "&",    "am",  "over"};
  return std::find(std::begin(kWords), std::end(kWords), w) != std::end(kWords);
}

bool StartsCapitalised(std::string_view w) {
  const unsigned char c = static_cast<unsigned char>(w[0]);
  return (c >= 'A' && c <= 'Z') || (c >= 0xC3 && c <= 0xE1) || c >= 0xE3;
}

// `s` without non-word bytes at either end.
std::string_view TrimNonWord(std::string_view s) {
  while (!s.empty() && !IsWordByte(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && !IsWordByte(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Words(std::string_view segment) {
  std::vector<std::string_view> words;
  size_t start = 0;
  for (size_t i = 0; i <= segment.size(); ++i) {
    if (i == segment.size() || segment[i] == ' ') {
      if (i > start) words.push_back(segment.substr(start, i - start));
      start = i + 1;
    }
  }
  return words;
}

// Every word capitalised, or a joining word between capitalised ones.
bool IsCapitalisedName(const std::vector<std::string_view>& words) {
  for (size_t i = 0; i < words.size(); ++i) {
    const std::string_view w = TrimNonWord(words[i]);
    const bool inner = i > 0 && i + 1 < words.size();
    if (w.empty()) {
      if (!(inner && IsJoiningWord(words[i]))) return false;
      continue;
    }
    if (!StartsCapitalised(w) && !(inner && IsJoiningWord(w))) return false;
  }
  return true;
}

// The text's segments: split at ", ; | / ( )" and " - ".
std::vector<std::string_view> Segments(std::string_view text) {
  std::vector<std::string_view> segments;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    const bool end = i == text.size();
    const bool dash = !end && text[i] == '-' && i > 0 && text[i - 1] == ' ' && i + 1 < text.size() && text[i + 1] == ' ';
    if (end || IsSegmentBreak(text[i]) || dash) {
      segments.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  return segments;
}

// TermComponents on normalised `text`, as [begin, end) spans of it.
std::vector<std::pair<size_t, size_t>> ComponentSpans(std::string_view text) {
  std::vector<std::pair<size_t, size_t>> out;
  std::set<std::string> seen;
  const auto add = [&](std::string_view c) {
    c = TrimNonWord(c);
    // One character ("A" of "Council tax band A") is no name.
    if (c.size() < 2 || c.size() > kMaxTermBytes) return;
    if (std::none_of(c.begin(), c.end(), [](char b) { return IsLetterByte(static_cast<unsigned char>(b)); })) return;
    if (!seen.insert(html::FoldText(c)).second) return;
    const size_t begin = static_cast<size_t>(c.data() - text.data());
    out.emplace_back(begin, begin + c.size());
  };
  for (std::string_view segment : Segments(text)) {
    std::vector<std::string_view> words = Words(segment);
    // A leading house number ("12 Green Lane") is not part of the name.
    size_t skip = 0;
    while (skip < words.size() && std::none_of(words[skip].begin(), words[skip].end(), [](char b) {
             return IsLetterByte(static_cast<unsigned char>(b));
           })) {
      ++skip;
    }
    words.erase(words.begin(), words.begin() + static_cast<std::ptrdiff_t>(skip));
    if (words.size() >= 2 && IsCapitalisedName(words)) {
      add(std::string_view(words.front().data(), words.back().data() + words.back().size() - words.front().data()));
    } else {
      for (std::string_view w : words) add(w);
    }
  }
  return out;
}

// A typed node, the gazetteer annotations of the attribute inside it, and
// the other attributes' text annotations inside it.
struct TypedNode {
  html::Node node;
  std::vector<const Annotation*> annotations;
  std::vector<const Annotation*> foreign;
};

// The components of `typed.node`'s text (a text node, or an element's
// descendant text nodes while they total at most kMaxComponentText bytes),
// except those inside one of its annotations' spans: an annotated term is a
// component as a whole ("Newport Pagnell" gives neither "Newport" nor
// "Pagnell"), while a longer name around an annotated term stays one
// ("Great Holmmouth" around "Holmmouth"); and except those overlapping
// another attribute's annotation (the "TN23 4AB" of "Marbury, TN23 4AB" is
// a postcode, so neither "TN23" nor "4AB" is a place).
std::vector<std::string> NodeComponents(const TypedNode& typed) {
  std::vector<std::string> out;
  size_t budget = kMaxComponentText;
  for (html::Node t = typed.node; t && budget > 0; t = t.NextInDocument(typed.node)) {
    if (!t.is_text()) continue;
    const std::string text = t.Text();
    if (text.size() > budget) break;
    budget -= text.size();
    for (const std::pair<size_t, size_t>& span : ComponentSpans(text)) {
      // Plain copies: clang before 16 cannot capture structured bindings.
      const size_t begin = span.first;
      const size_t end = span.second;
      const bool inside = std::any_of(typed.annotations.begin(), typed.annotations.end(), [&](const Annotation* a) {
        return a->node == t && a->begin <= begin && end <= a->end && !(a->begin == begin && a->end == end);
      });
      const bool foreign = std::any_of(typed.foreign.begin(), typed.foreign.end(), [&](const Annotation* a) {
        return a->node == t && a->begin < end && begin < a->end;
      });
      if (!inside && !foreign) out.push_back(text.substr(begin, end - begin));
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> TermComponents(std::string_view raw) {
  const std::string text = html::NormalizeSpace(raw);
  std::vector<std::string> out;
  for (const auto& [begin, end] : ComponentSpans(text)) out.push_back(text.substr(begin, end - begin));
  return out;
}

GazetteerLearner::GazetteerLearner(int attribute, double theta)
    : GazetteerLearner(attribute, GazetteerLearnerOptions{.theta = theta}) {}

GazetteerLearner::GazetteerLearner(int attribute, const GazetteerLearnerOptions& options)
    : attribute_(attribute), options_(options) {}

bool GazetteerLearner::IsBlacklisted(const std::string& folded) const {
  const auto it = terms_.find(folded);
  return it != terms_.end() && it->second.state.blacklisted;
}

GazetteerLearner::Term& GazetteerLearner::FindOrAdd(const std::string& folded, const std::string& spelling,
                                                    bool* added) {
  auto [it, inserted] = terms_.try_emplace(folded);
  if (inserted) it->second.spelling = spelling;
  if (added != nullptr) *added = inserted;
  return it->second;
}

void GazetteerLearner::Seed(const Gazetteer& gazetteer) {
  for (const std::string& term : gazetteer.Terms()) FindOrAdd(html::FoldText(term), term, nullptr);
}

void GazetteerLearner::SeedNoise(const Gazetteer& gazetteer) {
  for (const std::string& term : gazetteer.Terms()) FindOrAdd(html::FoldText(term), term, nullptr).state.blacklisted = true;
}

absl::Status GazetteerLearner::Restore(const std::map<std::string, GazetteerTermState>& terms) {
  std::map<std::string, Term> restored;
  for (const auto& [spelling, state] : terms) {
    const std::string normal = html::NormalizeSpace(spelling);
    if (normal.empty() || normal.size() > kMaxTermBytes) {
      return absl::InvalidArgumentError(absl::StrCat("gazetteer term \"", spelling, "\" of attribute ", attribute_,
                                                     " is empty or longer than ", kMaxTermBytes, " bytes"));
    }
    for (double ev : {state.ev_pos, state.ev_neg}) {
      if (!std::isfinite(ev) || ev < 0) {
        return absl::InvalidArgumentError(absl::StrCat("gazetteer term \"", spelling, "\" of attribute ", attribute_,
                                                       ": evidence ", ev, " is not a finite number >= 0"));
      }
    }
    restored[html::FoldText(normal)] = Term{normal, state};
  }
  terms_ = std::move(restored);
  return absl::OkStatus();
}

void GazetteerLearner::Observe(const amber::Typing& typing, const std::vector<Annotation>& annotations) {
  // The nodes typed with the attribute, by libxml2 node.
  std::vector<TypedNode> typed;
  absl::flat_hash_map<const void*, size_t> index;
  for (const amber::DataArea& area : typing.areas) {
    for (const amber::Record& record : area.records) {
      for (const amber::AttributeMatch& m : record.attributes) {
        if (m.attribute != attribute_ || !m.node) continue;
        if (index.emplace(m.node.raw(), typed.size()).second) typed.push_back(TypedNode{m.node, {}});
      }
    }
  }
  // The records' elements: noise is what the gazetteer annotates inside a
  // record but not in the record's typed node.
  absl::flat_hash_set<const void*> record_nodes;
  for (const amber::DataArea& area : typing.areas) {
    for (const amber::Record& record : area.records) {
      for (const html::Node& n : record.nodes) record_nodes.insert(n.raw());
    }
  }
  // Each gazetteer annotation goes to the typed node holding it, or is
  // noise (term cleaning), once per node and term.
  std::set<std::pair<const void*, std::string>> noise_seen;
  for (const Annotation& a : annotations) {
    if (a.attribute != attribute_ || !a.from_gazetteer) {
      // Another attribute's value inside a typed node is no term of this one.
      if (a.attribute == attribute_ || !a.node.is_text()) continue;
      html::Node holder = a.node;
      while (holder && !index.contains(holder.raw())) holder = holder.parent();
      if (holder) typed[index.at(holder.raw())].foreign.push_back(&a);
      continue;
    }
    html::Node holder = a.node;
    bool in_record = false;
    while (holder && !index.contains(holder.raw())) {
      in_record = in_record || record_nodes.contains(holder.raw());
      holder = holder.parent();
    }
    if (holder) {
      typed[index.at(holder.raw())].annotations.push_back(&a);
      continue;
    }
    if (!in_record && !options_.noise_outside_records) continue;
    const std::string folded = html::FoldText(a.value);
    if (noise_seen.emplace(a.node.raw(), folded).second) {
      Count& c = round_neg_[folded];
      if (c.spelling.empty()) c.spelling = a.value;
      c.count += 1;
    }
  }
  // Term extraction and validation: each typed node's annotated terms and
  // components, once per node.
  for (const TypedNode& t : typed) {
    ++round_typed_;
    if (!t.annotations.empty()) ++round_annotated_typed_;
    std::set<std::string> node_terms;
    std::vector<std::string> values;
    for (const Annotation* a : t.annotations) values.push_back(a->value);
    for (std::string& c : NodeComponents(t)) values.push_back(std::move(c));
    for (const std::string& v : values) {
      const std::string folded = html::FoldText(v);
      if (IsBlacklisted(folded) || !node_terms.insert(folded).second) continue;
      Count& c = round_pos_[folded];
      if (c.spelling.empty()) c.spelling = v;
      c.count += 1;
    }
  }
}

RoundResult GazetteerLearner::EndRound() {
  RoundResult result;
  for (const auto& [folded, c] : round_pos_) {
    bool added = false;
    Term& term = FindOrAdd(folded, c.spelling, &added);
    if (added) result.added.push_back(term.spelling);
    term.state.ev_pos += c.count;
  }
  for (const auto& [folded, c] : round_neg_) {
    Term& term = FindOrAdd(folded, c.spelling, nullptr);
    term.state.ev_neg += c.count;
    if (!term.state.blacklisted && term.state.ev_neg >= options_.theta * term.state.ev_pos) {
      term.state.blacklisted = true;
      result.blacklisted.push_back(term.spelling);
    }
  }
  std::sort(result.added.begin(), result.added.end());
  std::sort(result.blacklisted.begin(), result.blacklisted.end());
  result.typed_nodes = round_typed_;
  result.annotated_typed_nodes = round_annotated_typed_;
  round_pos_.clear();
  round_neg_.clear();
  round_typed_ = 0;
  round_annotated_typed_ = 0;
  for (const auto& [folded, term] : terms_) result.gazetteer_size += term.state.blacklisted ? 0 : 1;
  return result;
}

Gazetteer GazetteerLearner::gazetteer() const {
  Gazetteer g;
  for (const auto& [folded, term] : terms_) {
    if (!term.state.blacklisted) g.Add(term.spelling);
  }
  return g;
}

std::map<std::string, GazetteerTermState> GazetteerLearner::terms() const {
  std::map<std::string, GazetteerTermState> out;
  for (const auto& [folded, term] : terms_) out.emplace(term.spelling, term.state);
  return out;
}

}  // namespace vertex::annotate
