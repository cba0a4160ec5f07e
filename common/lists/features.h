// The list finder's node features (Cohen & Fan §2.3; digest §2.2 "Features"
// and "Repetition features"), computed for every element of a page in one
// linear pass plus one bottom-up pass, with no recursion on the tree (pages
// may nest 512 deep).
//
// The paper's 19 features, in FeatureSpecs() order:
//   numeric  textLength, nonWhiteTextLength      text directly in the element
//                                                (its text-node children), in
//                                                characters; nonWhite ignores
//                                                blanks, tabs and line returns
//            recursiveTextLength, recursiveNonWhiteTextLength   whole subtree
//            depth                               the <html> element is 1
//            numChildren                         element children
//            numSiblings                         the other element children of
//                                                the parent (0 for the root)
//            normalizedNodePrefixCount           p_count / #leaves
//            normalizedNodeSuffixCount           s_count / #leaves
//            prefixCount, suffixCount            raw p_count, s_count
//            numChildrenByMaxDegree              numChildren / max numChildren
//            numSiblingsByMaxDegree              numSiblings / max numChildren
//            numDescendantsByTotalNodes          element descendants / elements
//   symbol   tagName, parentTagName ("" for the root)
//   set      ancestorTagNames, childTagNames, descendantTagNames
// kPaperAndMarkup adds: set classTokens, parentClassTokens; symbol id,
// parentId ("" when absent).
//
// p_count(n) is the number of leaves l (elements without element children)
// whose root-to-leaf tag sequence p(l) has p(n) as a prefix; s_count(n) the
// number with p(n) as a proper prefix. This is prefix of the *tag sequence*,
// not ancestry: every html/body/ul/li leaf of the page counts towards every
// html/body/ul element. Both come from a trie of the elements' tag sequences
// holding, at each trie node, the leaves at or below it.
//
// Thread-safety: pure functions; PageFeatures holds string_views into the
// page (tag names, attribute values) and is valid while the Page lives.
#ifndef VERTEX_COMMON_LISTS_FEATURES_H_
#define VERTEX_COMMON_LISTS_FEATURES_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/html/page.h"
#include "common/lists/list_finder.h"

namespace vertex::lists {

enum class FeatureKind { kNumeric, kSymbol, kSet };

struct FeatureSpec {
  const char* name;
  FeatureKind kind;
  // Index into the PageFeatures column of its kind.
  int column;
};

// The features of `set`, in the order a model's feature_names lists them.
const std::vector<FeatureSpec>& FeatureSpecs(FeatureSet set);
// Names only, in the same order.
std::vector<std::string> FeatureNames(FeatureSet set);
// The feature set a ListModel.feature_set names; false when unknown.
bool ParseFeatureSet(std::string_view name, FeatureSet* set);

// The features of every element of a page, in document order, by column:
// numeric[c][i] is numeric column c of element i, and so on.
struct PageFeatures {
  FeatureSet set = FeatureSet::kPaper;
  std::vector<html::Node> elements;
  std::vector<std::vector<double>> numeric;
  std::vector<std::vector<std::string_view>> symbol;
  // Each set sorted and without duplicates.
  std::vector<std::vector<std::vector<std::string_view>>> sets;

  size_t size() const { return elements.size(); }
};

PageFeatures ComputeFeatures(const html::Page& page, FeatureSet set);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_FEATURES_H_
