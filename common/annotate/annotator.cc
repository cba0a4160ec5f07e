#include "common/annotate/annotator.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/annotate/builtin_gazetteers.h"
#include "common/html/text.h"
#include "common/rule/url.h"
#include "re2/re2.h"

namespace vertex::annotate {
namespace {

constexpr size_t kMaxTermBytes = 200;

// A word character: an ASCII letter or digit, or any byte of a multi-byte
// UTF-8 sequence (so "Bath" does not match inside "Bathé" either).
bool IsWordByte(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

unsigned char FoldByte(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }

}  // namespace

// ---- Gazetteer ---------------------------------------------------------------

// A byte trie over the folded terms. Each state keeps its children sorted
// by byte in a small vector (below the root nearly every state has one or
// two), and the root a dense table: a step costs a compare or two, not a
// hash, which is what bounds the walk at every word start.
struct Gazetteer::State {
  struct TrieNode {
    // The index in `spellings` of the term ending here, or -1.
    int32_t term = -1;
    std::vector<std::pair<unsigned char, int32_t>> children;
  };
  std::vector<TrieNode> nodes{1};
  std::array<int32_t, 256> root_children = MakeEmptyRoot();
  // Canonical spellings by term index (a removed term's entry stays,
  // unreferenced).
  std::vector<std::string> spellings;
  // Folded term -> index in `spellings`.
  std::map<std::string, int32_t, std::less<>> terms;
  // The longest folded term ever added: how far a match attempt may walk.
  size_t max_length = 0;

  static std::array<int32_t, 256> MakeEmptyRoot() {
    std::array<int32_t, 256> root;
    root.fill(-1);
    return root;
  }

  int32_t Child(int32_t state, unsigned char c) const {
    if (state == 0) return root_children[c];
    for (const auto& [byte, child] : nodes[state].children) {
      if (byte == c) return child;
      if (byte > c) break;
    }
    return -1;
  }

  // The state reached by `folded`, created when `create`; -1 when absent.
  int32_t Walk(std::string_view folded, bool create) {
    int32_t state = 0;
    for (unsigned char c : folded) {
      int32_t next = Child(state, c);
      if (next < 0) {
        if (!create) return -1;
        next = static_cast<int32_t>(nodes.size());
        nodes.emplace_back();
        if (state == 0) {
          root_children[c] = next;
        } else {
          auto& children = nodes[state].children;
          const auto at = std::lower_bound(children.begin(), children.end(), std::make_pair(c, int32_t{-1}));
          children.insert(at, {c, next});
        }
      }
      state = next;
    }
    return state;
  }
};

Gazetteer::Gazetteer() : state_(std::make_unique<State>()) {}
Gazetteer::~Gazetteer() = default;
Gazetteer::Gazetteer(Gazetteer&&) noexcept = default;
Gazetteer& Gazetteer::operator=(Gazetteer&&) noexcept = default;

bool Gazetteer::Add(std::string_view term) {
  const std::string spelling = html::NormalizeSpace(term);
  if (spelling.empty() || spelling.size() > kMaxTermBytes) return false;
  const std::string folded = html::FoldText(spelling);
  if (state_->terms.count(folded) > 0) return true;
  const int32_t id = static_cast<int32_t>(state_->spellings.size());
  state_->spellings.push_back(spelling);
  state_->terms.emplace(folded, id);
  state_->nodes[state_->Walk(folded, /*create=*/true)].term = id;
  state_->max_length = std::max(state_->max_length, folded.size());
  return true;
}

bool Gazetteer::Remove(std::string_view term) {
  const auto it = state_->terms.find(html::FoldText(term));
  if (it == state_->terms.end()) return false;
  state_->nodes[state_->Walk(it->first, /*create=*/false)].term = -1;
  state_->terms.erase(it);
  return true;
}

bool Gazetteer::Contains(std::string_view term) const {
  return state_->terms.count(html::FoldText(term)) > 0;
}

size_t Gazetteer::size() const { return state_->terms.size(); }

std::vector<std::string> Gazetteer::Terms() const {
  std::vector<std::string> out;
  out.reserve(state_->terms.size());
  for (const auto& [folded, id] : state_->terms) out.push_back(state_->spellings[id]);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Gazetteer::Match> Gazetteer::Find(std::string_view text) const {
  std::vector<Match> out;
  const State& s = *state_;
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    // A match starts only after a non-word character (or at the start).
    if (i > 0 && IsWordByte(static_cast<unsigned char>(text[i - 1]))) {
      ++i;
      continue;
    }
    // Walk the trie at most max_length bytes: the longest term ending at a
    // word boundary wins.
    int32_t state = 0;
    size_t best_end = 0;
    int32_t best_id = -1;
    for (size_t j = i; j < n && j - i < s.max_length; ++j) {
      state = s.Child(state, FoldByte(static_cast<unsigned char>(text[j])));
      if (state < 0) break;
      const int32_t id = s.nodes[state].term;
      if (id >= 0 && (j + 1 == n || !IsWordByte(static_cast<unsigned char>(text[j + 1])))) {
        best_end = j + 1;
        best_id = id;
      }
    }
    if (best_id < 0) {
      ++i;
      continue;
    }
    out.push_back(Match{i, best_end, s.spellings[best_id]});
    i = best_end;
  }
  return out;
}

absl::StatusOr<std::shared_ptr<const Gazetteer>> BuiltinGazetteer(std::string_view name) {
  for (const BuiltinList& list : BuiltinLists()) {
    if (list.name != name) continue;
    auto gazetteer = std::make_shared<Gazetteer>();
    for (const char* term : list.terms) gazetteer->Add(term);
    return std::shared_ptr<const Gazetteer>(std::move(gazetteer));
  }
  std::vector<std::string> names;
  for (const BuiltinList& list : BuiltinLists()) names.emplace_back(list.name);
  return absl::NotFoundError(absl::StrCat("no built-in gazetteer \"", std::string(name),
                                          "\"; built-in gazetteers: ", absl::StrJoin(names, ", ")));
}

// ---- Annotator -----------------------------------------------------------------

namespace {

// How an attribute is annotated.
enum class Kind {
  kText,   // gazetteer and/or value regex over text nodes
  kUrl,    // <a href> elements
  kImage,  // <img src> elements
};

struct AttributeAnnotator {
  Kind kind = Kind::kText;
  std::shared_ptr<const Gazetteer> gazetteer;  // null: none
  const RE2* regex = nullptr;                  // owned by the schema; null: none
};

// Subtrees whose text is not page content.
bool IsSkippedElement(std::string_view tag) {
  return tag == "script" || tag == "style" || tag == "noscript" || tag == "head" || tag == "template";
}

// The next node in document order after `node`'s subtree, within `root`.
html::Node NextAfterSubtree(html::Node node, html::Node root) {
  for (html::Node n = node; n && !(n == root); n = n.parent()) {
    if (html::Node sibling = n.next_sibling()) return sibling;
  }
  return html::Node();
}

// A link target that names no page: a fragment of this page or a script.
bool IsNonPageReference(std::string_view raw) {
  const std::string ref = absl::AsciiStrToLower(absl::StripAsciiWhitespace(absl::string_view(raw.data(), raw.size())));
  return ref.empty() || ref[0] == '#' || absl::StartsWith(ref, "javascript:") ||
         absl::StartsWith(ref, "mailto:") || absl::StartsWith(ref, "tel:") || absl::StartsWith(ref, "data:");
}

// The start of the UTF-8 character after byte `i` of `text`.
size_t NextCharBoundary(std::string_view text, size_t i) {
  ++i;
  while (i < text.size() && (static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) ++i;
  return i;
}

// Every match of `re` in `text`, left to right and non-overlapping; the
// value (and span) is the first capturing group that took part (ValueOfMatch),
// else the whole match, trimmed of ASCII whitespace as
// CompiledSchema::SelectValue trims it. Empty values are skipped.
void AddRegexMatches(int attribute, const RE2& re, html::Node node, std::string_view text,
                     std::vector<Annotation>* out) {
  const re2::StringPiece input(text.data(), text.size());
  re2::StringPiece m[schema::kMaxValueRegexGroups + 1];
  size_t pos = 0;
  while (pos <= text.size() &&
         re.Match(input, pos, input.size(), RE2::UNANCHORED, m, re.NumberOfCapturingGroups() + 1)) {
    const size_t match_end = static_cast<size_t>(m[0].data() - input.data()) + m[0].size();
    const re2::StringPiece value = schema::ValueOfMatch(re, m);
    if (value.data() != nullptr) {
      size_t begin = static_cast<size_t>(value.data() - input.data());
      size_t end = begin + value.size();
      while (begin < end && absl::ascii_isspace(static_cast<unsigned char>(text[begin]))) ++begin;
      while (end > begin && absl::ascii_isspace(static_cast<unsigned char>(text[end - 1]))) --end;
      if (end > begin) {
        out->push_back(Annotation{attribute, node, begin, end, std::string(text.substr(begin, end - begin)), false});
      }
    }
    // An empty match would be found again at the same place: step over a
    // character.
    pos = m[0].empty() ? NextCharBoundary(text, match_end) : match_end;
  }
}

}  // namespace

struct Annotator::State {
  schema::CompiledSchema schema;
  GazetteerSet gazetteers;
  std::vector<AttributeAnnotator> attributes;

  State(schema::CompiledSchema s, GazetteerSet g) : schema(std::move(s)), gazetteers(std::move(g)) {}

  void AnnotateText(html::Node node, std::vector<Annotation>* out) const;
  void AnnotateElement(html::Node node, const std::string& base_url, std::vector<Annotation>* out) const;
};

// One text node: every attribute's matches, one per (attribute, span), with
// the spans disjoint attributes both annotate removed, sorted by span then
// attribute.
void Annotator::State::AnnotateText(html::Node node, std::vector<Annotation>* out) const {
  const std::string text = node.Text();
  if (text.empty()) return;
  std::vector<Annotation> found;
  for (size_t i = 0; i < attributes.size(); ++i) {
    const AttributeAnnotator& a = attributes[i];
    if (a.kind != Kind::kText) continue;
    if (a.gazetteer != nullptr) {
      for (Gazetteer::Match& m : a.gazetteer->Find(text)) {
        found.push_back(Annotation{static_cast<int>(i), node, m.begin, m.end, std::move(m.term), true});
      }
    }
    if (a.regex != nullptr) AddRegexMatches(static_cast<int>(i), *a.regex, node, text, &found);
  }
  if (found.empty()) return;
  // Gazetteer matches sort before a regex match of the same attribute and
  // span, and win the dedup.
  const auto key = [](const Annotation& a) { return std::make_tuple(a.begin, a.end, a.attribute, !a.from_gazetteer); };
  std::stable_sort(found.begin(), found.end(), [&](const Annotation& x, const Annotation& y) { return key(x) < key(y); });
  found.erase(std::unique(found.begin(), found.end(),
                          [](const Annotation& x, const Annotation& y) {
                            return x.begin == y.begin && x.end == y.end && x.attribute == y.attribute;
                          }),
              found.end());
  // Disjoint attributes on one span: neither holds.
  std::vector<bool> drop(found.size(), false);
  for (size_t g = 0; g < found.size();) {
    size_t h = g;
    while (h < found.size() && found[h].begin == found[g].begin && found[h].end == found[g].end) ++h;
    for (size_t x = g; x < h; ++x) {
      for (size_t y = x + 1; y < h; ++y) {
        if (schema.Disjoint(found[x].attribute, found[y].attribute)) drop[x] = drop[y] = true;
      }
    }
    g = h;
  }
  for (size_t k = 0; k < found.size(); ++k) {
    if (!drop[k]) out->push_back(std::move(found[k]));
  }
}

// An <a href> or <img src>: the url / image attributes, with the resolved
// URL as the value (an explicit regex of the attribute selects from it).
void Annotator::State::AnnotateElement(html::Node node, const std::string& base_url,
                                       std::vector<Annotation>* out) const {
  const std::string_view tag = node.tag();
  const Kind kind = tag == "a" ? Kind::kUrl : tag == "img" ? Kind::kImage : Kind::kText;
  if (kind == Kind::kText) return;
  const std::string_view name = kind == Kind::kUrl ? "href" : (node.has_attribute("src") ? "src" : "srcset");
  if (IsNonPageReference(node.attribute_view(name))) return;
  const std::string url = rule::AttributeSourceText(node, name, base_url);
  if (url.empty()) return;
  for (size_t i = 0; i < attributes.size(); ++i) {
    if (attributes[i].kind != kind) continue;
    std::string value = url;
    if (!schema.attribute(i).regex().empty()) {
      std::optional<std::string> selected = schema.SelectValue(i, url);
      if (!selected.has_value()) continue;
      value = *std::move(selected);
    }
    out->push_back(Annotation{static_cast<int>(i), node, 0, 0, std::move(value), false});
  }
}

Annotator::Annotator(std::shared_ptr<const State> state) : state_(std::move(state)) {}

absl::StatusOr<Annotator> Annotator::Create(const schema::CompiledSchema& schema, GazetteerSet gazetteers) {
  auto state = std::make_shared<State>(schema, std::move(gazetteers));
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& attr = schema.attribute(i);
    AttributeAnnotator a;
    a.kind = attr.type() == "url" ? Kind::kUrl : attr.type() == "image" ? Kind::kImage : Kind::kText;
    if (a.kind == Kind::kText) a.regex = schema.ValueRegex(i);
    if (!attr.gazetteer().empty()) {
      auto it = state->gazetteers.find(attr.gazetteer());
      if (it == state->gazetteers.end()) {
        absl::StatusOr<std::shared_ptr<const Gazetteer>> builtin = BuiltinGazetteer(attr.gazetteer());
        if (!builtin.ok()) {
          return absl::InvalidArgumentError(absl::StrCat(
              "schema \"", schema.vertical(), "\": attribute ", i, " (\"", attr.name(), "\"): gazetteer \"",
              attr.gazetteer(), "\" is neither given nor built in (", std::string(builtin.status().message()), ")"));
        }
        it = state->gazetteers.emplace(attr.gazetteer(), *std::move(builtin)).first;
      }
      a.gazetteer = it->second;
    }
    state->attributes.push_back(std::move(a));
  }
  return Annotator(std::move(state));
}

std::vector<Annotation> Annotator::Annotate(const html::Page& page) const {
  std::vector<Annotation> out;
  const html::Node root = page.root();
  const std::string base_url = rule::PageBaseUrl(page);
  html::Node n = root;
  while (n) {
    if (n.is_element() && IsSkippedElement(n.tag())) {
      n = NextAfterSubtree(n, root);
      continue;
    }
    if (n.is_text()) {
      state_->AnnotateText(n, &out);
    } else if (n.is_element()) {
      state_->AnnotateElement(n, base_url, &out);
    }
    n = n.NextInDocument(root);
  }
  return out;
}

const schema::CompiledSchema& Annotator::schema() const { return state_->schema; }

const GazetteerSet& Annotator::gazetteers() const { return state_->gazetteers; }

}  // namespace vertex::annotate
