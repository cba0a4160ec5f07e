#include "common/lists/features.h"

#include <algorithm>
#include <utility>

#include <libxml/tree.h>

#include "absl/container/flat_hash_map.h"

namespace vertex::lists {
namespace {

// Numeric columns.
enum : int {
  kTextLength,
  kNonWhiteTextLength,
  kRecursiveTextLength,
  kRecursiveNonWhiteTextLength,
  kDepth,
  kNumChildren,
  kNumSiblings,
  kNormalizedPrefixCount,
  kNormalizedSuffixCount,
  kPrefixCount,
  kSuffixCount,
  kNumChildrenByMaxDegree,
  kNumSiblingsByMaxDegree,
  kNumDescendantsByTotalNodes,
  kNumericColumns,
};
// Symbol columns.
enum : int { kTagName, kParentTagName, kId, kParentId };
// Set columns.
enum : int { kAncestorTagNames, kChildTagNames, kDescendantTagNames, kClassTokens, kParentClassTokens };

std::vector<FeatureSpec> PaperSpecs() {
  using K = FeatureKind;
  return {
      {"tagName", K::kSymbol, kTagName},
      {"textLength", K::kNumeric, kTextLength},
      {"nonWhiteTextLength", K::kNumeric, kNonWhiteTextLength},
      {"recursiveTextLength", K::kNumeric, kRecursiveTextLength},
      {"recursiveNonWhiteTextLength", K::kNumeric, kRecursiveNonWhiteTextLength},
      {"ancestorTagNames", K::kSet, kAncestorTagNames},
      {"depth", K::kNumeric, kDepth},
      {"numChildren", K::kNumeric, kNumChildren},
      {"numSiblings", K::kNumeric, kNumSiblings},
      {"parentTagName", K::kSymbol, kParentTagName},
      {"childTagNames", K::kSet, kChildTagNames},
      {"descendantTagNames", K::kSet, kDescendantTagNames},
      {"normalizedNodePrefixCount", K::kNumeric, kNormalizedPrefixCount},
      {"normalizedNodeSuffixCount", K::kNumeric, kNormalizedSuffixCount},
      {"prefixCount", K::kNumeric, kPrefixCount},
      {"suffixCount", K::kNumeric, kSuffixCount},
      {"numChildrenByMaxDegree", K::kNumeric, kNumChildrenByMaxDegree},
      {"numSiblingsByMaxDegree", K::kNumeric, kNumSiblingsByMaxDegree},
      {"numDescendantsByTotalNodes", K::kNumeric, kNumDescendantsByTotalNodes},
  };
}

std::vector<FeatureSpec> MarkupSpecs() {
  std::vector<FeatureSpec> specs = PaperSpecs();
  specs.push_back({"classTokens", FeatureKind::kSet, kClassTokens});
  specs.push_back({"id", FeatureKind::kSymbol, kId});
  specs.push_back({"parentClassTokens", FeatureKind::kSet, kParentClassTokens});
  specs.push_back({"parentId", FeatureKind::kSymbol, kParentId});
  return specs;
}

// Characters (UTF-8 lead bytes) of `text`, and those that are not blanks,
// tabs or line returns.
void CountText(const char* text, size_t* all, size_t* non_white) {
  if (text == nullptr) return;
  for (const char* p = text; *p; ++p) {
    const unsigned char c = static_cast<unsigned char>(*p);
    if ((c & 0xC0) == 0x80) continue;  // continuation byte
    ++*all;
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') ++*non_white;
  }
}

void InsertSorted(std::vector<std::string_view>* set, std::string_view value) {
  auto it = std::lower_bound(set->begin(), set->end(), value);
  if (it == set->end() || *it != value) set->insert(it, value);
}

// `into` |= `from` (both sorted).
void MergeSorted(std::vector<std::string_view>* into, const std::vector<std::string_view>& from) {
  if (from.empty()) return;
  std::vector<std::string_view> merged;
  merged.reserve(into->size() + from.size());
  std::set_union(into->begin(), into->end(), from.begin(), from.end(), std::back_inserter(merged));
  *into = std::move(merged);
}

std::vector<std::string_view> ClassTokens(html::Node element) {
  std::vector<std::string_view> tokens;
  const std::string_view value = element.attribute_view("class");
  size_t i = 0;
  while (i < value.size()) {
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == '\n' ||
                                value[i] == '\r' || value[i] == '\f')) {
      ++i;
    }
    size_t j = i;
    while (j < value.size() && !(value[j] == ' ' || value[j] == '\t' || value[j] == '\n' ||
                                 value[j] == '\r' || value[j] == '\f')) {
      ++j;
    }
    if (j > i) InsertSorted(&tokens, value.substr(i, j - i));
    i = j;
  }
  return tokens;
}

// The elements in document order with their parents' indexes (-1 for the
// root), and the direct text counts gathered on the way.
struct Skeleton {
  std::vector<html::Node> elements;
  std::vector<int32_t> parent;
  std::vector<size_t> text, non_white;
};

Skeleton Walk(const html::Page& page) {
  Skeleton s;
  absl::flat_hash_map<const _xmlNode*, int32_t> index;
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    const html::Node parent = n.parent();
    auto it = parent ? index.find(parent.raw()) : index.end();
    const int32_t parent_index = it == index.end() ? -1 : it->second;
    if (n.is_element()) {
      index.emplace(n.raw(), static_cast<int32_t>(s.elements.size()));
      s.elements.push_back(n);
      s.parent.push_back(parent_index);
      s.text.push_back(0);
      s.non_white.push_back(0);
    } else if (n.is_text() && parent_index >= 0) {
      CountText(reinterpret_cast<const char*>(n.raw()->content), &s.text[parent_index],
                &s.non_white[parent_index]);
    }
  }
  return s;
}

}  // namespace

const std::vector<FeatureSpec>& FeatureSpecs(FeatureSet set) {
  static const std::vector<FeatureSpec>* const paper = new std::vector<FeatureSpec>(PaperSpecs());
  static const std::vector<FeatureSpec>* const markup = new std::vector<FeatureSpec>(MarkupSpecs());
  return set == FeatureSet::kPaper ? *paper : *markup;
}

std::vector<std::string> FeatureNames(FeatureSet set) {
  std::vector<std::string> names;
  for (const FeatureSpec& spec : FeatureSpecs(set)) names.push_back(spec.name);
  return names;
}

const char* FeatureSetName(FeatureSet set) {
  return set == FeatureSet::kPaper ? "paper" : "paper+markup";
}

bool ParseFeatureSet(std::string_view name, FeatureSet* set) {
  if (name == "paper") {
    *set = FeatureSet::kPaper;
  } else if (name == "paper+markup") {
    *set = FeatureSet::kPaperAndMarkup;
  } else {
    return false;
  }
  return true;
}

PageFeatures ComputeFeatures(const html::Page& page, FeatureSet set) {
  Skeleton s = Walk(page);
  const size_t n = s.elements.size();
  const bool markup = set == FeatureSet::kPaperAndMarkup;
  PageFeatures f;
  f.set = set;
  f.numeric.assign(kNumericColumns, std::vector<double>(n, 0.0));
  f.symbol.assign(markup ? 4 : 2, std::vector<std::string_view>(n));
  f.sets.assign(markup ? 5 : 3, std::vector<std::vector<std::string_view>>(n));
  auto& num = f.numeric;

  // Top-down (parents come first in document order): tags, depth,
  // ancestors, children counts, the trie position of each tag sequence.
  std::vector<int32_t> trie_node(n), trie_parent{-1};
  absl::flat_hash_map<std::pair<int32_t, std::string_view>, int32_t> trie_child;
  std::vector<size_t> children(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const std::string_view tag = s.elements[i].tag();
    const int32_t p = s.parent[i];
    f.symbol[kTagName][i] = tag;
    if (markup) {
      f.symbol[kId][i] = s.elements[i].attribute_view("id");
      f.sets[kClassTokens][i] = ClassTokens(s.elements[i]);
    }
    const int32_t trie_base = p < 0 ? 0 : trie_node[p];
    auto [it, inserted] = trie_child.try_emplace({trie_base, tag}, static_cast<int32_t>(trie_parent.size()));
    if (inserted) trie_parent.push_back(trie_base);
    trie_node[i] = it->second;
    if (p < 0) {
      num[kDepth][i] = 1;
      continue;
    }
    num[kDepth][i] = num[kDepth][p] + 1;
    ++children[p];
    f.symbol[kParentTagName][i] = f.symbol[kTagName][p];
    f.sets[kAncestorTagNames][i] = f.sets[kAncestorTagNames][p];
    InsertSorted(&f.sets[kAncestorTagNames][i], f.symbol[kTagName][p]);
    if (markup) {
      f.symbol[kParentId][i] = f.symbol[kId][p];
      f.sets[kParentClassTokens][i] = f.sets[kClassTokens][p];
    }
  }

  // Bottom-up (reverse document order: children before parents): subtree
  // text, descendants, child and descendant tags, leaves into the trie.
  std::vector<size_t> rec_text(s.text), rec_non_white(s.non_white), descendants(n, 0);
  std::vector<size_t> leaves_at(trie_parent.size(), 0);
  size_t leaves = 0;
  for (size_t i = n; i-- > 0;) {
    if (children[i] == 0) {
      ++leaves_at[trie_node[i]];
      ++leaves;
    }
    const int32_t p = s.parent[i];
    if (p < 0) continue;
    rec_text[p] += rec_text[i];
    rec_non_white[p] += rec_non_white[i];
    descendants[p] += descendants[i] + 1;
    InsertSorted(&f.sets[kChildTagNames][p], f.symbol[kTagName][i]);
    MergeSorted(&f.sets[kDescendantTagNames][p], f.sets[kDescendantTagNames][i]);
    InsertSorted(&f.sets[kDescendantTagNames][p], f.symbol[kTagName][i]);
  }
  // Leaves at or below each trie node (trie parents precede their children).
  std::vector<size_t> leaves_below(leaves_at);
  for (size_t t = trie_parent.size(); t-- > 1;) leaves_below[trie_parent[t]] += leaves_below[t];

  size_t max_degree = 0;
  for (size_t c : children) max_degree = std::max(max_degree, c);
  const double degree = max_degree == 0 ? 1.0 : static_cast<double>(max_degree);
  const double paths = leaves == 0 ? 1.0 : static_cast<double>(leaves);
  for (size_t i = 0; i < n; ++i) {
    const int32_t p = s.parent[i];
    const double siblings = p < 0 ? 0.0 : static_cast<double>(children[p] - 1);
    const double p_count = static_cast<double>(leaves_below[trie_node[i]]);
    const double s_count = p_count - static_cast<double>(leaves_at[trie_node[i]]);
    num[kTextLength][i] = static_cast<double>(s.text[i]);
    num[kNonWhiteTextLength][i] = static_cast<double>(s.non_white[i]);
    num[kRecursiveTextLength][i] = static_cast<double>(rec_text[i]);
    num[kRecursiveNonWhiteTextLength][i] = static_cast<double>(rec_non_white[i]);
    num[kNumChildren][i] = static_cast<double>(children[i]);
    num[kNumSiblings][i] = siblings;
    num[kPrefixCount][i] = p_count;
    num[kSuffixCount][i] = s_count;
    num[kNormalizedPrefixCount][i] = p_count / paths;
    num[kNormalizedSuffixCount][i] = s_count / paths;
    num[kNumChildrenByMaxDegree][i] = static_cast<double>(children[i]) / degree;
    num[kNumSiblingsByMaxDegree][i] = siblings / degree;
    num[kNumDescendantsByTotalNodes][i] = static_cast<double>(descendants[i]) / static_cast<double>(n);
  }
  f.elements = std::move(s.elements);
  return f;
}

}  // namespace vertex::lists
