// The page-independent list finder (Cohen & Fan, "Learning Page-Independent
// Heuristics for Extracting Data from Web Pages"; issue 14, digest §2).
//
// Every element of a page is described by the paper's 19 features (tag,
// direct and recursive text lengths, ancestor/parent/child/descendant tags,
// depth, children, siblings, the normalised tag-sequence prefix and suffix
// counts, ...) plus, optionally, class/id features for modern markup. A
// CART tree (Gini, cost-complexity pruning; cart.h) learnt from labelled
// pages says which elements are list items (and, for hot-lists, anchors);
// the positives are decoded into a list or hot-list.
//
// Thread-safety: pure functions of their inputs.
#ifndef VERTEX_COMMON_LISTS_LIST_FINDER_H_
#define VERTEX_COMMON_LISTS_LIST_FINDER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/lists/problem.h"
#include "vertex/v1/list_model.pb.h"

namespace vertex::lists {

enum class FeatureSet {
  // The paper's 19 features, so its results can be reproduced.
  kPaper,
  // Plus the class and id tokens of the node and of its parent.
  kPaperAndMarkup,
};

// "paper" / "paper+markup" (ListModel.feature_set).
const char* FeatureSetName(FeatureSet set);

// One page's labels. Nodes are elements of `page`.
struct LabelledPage {
  const html::Page* page = nullptr;
  // The positive elements (the paper's encoding, see problem.h).
  std::vector<html::Node> positives;
  // Partial labels (intra-page learning, the editor's "first K values"):
  // when set, only elements up to and including this one in document order
  // (preorder) are labelled; later elements are left out of training rather
  // than taken as negatives. Null: the whole page is labelled.
  html::Node labelled_until;
  // Identifies the page in messages ("birds-017", a URL).
  std::string name;
};

struct TrainOptions {
  FeatureSet features = FeatureSet::kPaperAndMarkup;
  // CART: a split must leave at least this many training nodes on each side.
  uint32_t min_leaf = 2;
  // Deepest tree grown before pruning.
  int max_depth = 20;
  // Cost-complexity pruning: a negative value chooses alpha by k-fold
  // cross-validation over pages (pruning_folds); >= 0 uses it as given.
  // Alpha is the training error rate (class-weighted) one more leaf must
  // save: the tree minimises error rate + alpha x leaves.
  double pruning_alpha = -1;
  int pruning_folds = 5;
  // Positive examples are weighted so that both classes weigh the same
  // (lists are a few percent of a page's elements).
  bool balance_classes = true;
};

// Learns a model from labelled pages. InvalidArgument when there is no page,
// a positive is not an element of its page, or no page has a positive.
absl::StatusOr<v1::ListModel> TrainListModel(const std::vector<LabelledPage>& pages,
                                             const TrainOptions& options = {});

// P(positive) for every element of `page` in document order (as
// `for (Node n = root; n; n = n.NextInDocument(root))` visits elements).
// InvalidArgument for a model that does not load (bad node indexes, unknown
// feature names).
absl::StatusOr<std::vector<double>> ScoreElements(const v1::ListModel& model,
                                                  const html::Page& page);

// The elements the model labels positive (P >= 0.5), in document order.
absl::StatusOr<std::vector<html::Node>> PredictPositives(const v1::ListModel& model,
                                                         const html::Page& page);

// The paper's decoding (§2.2) of positive nodes into rows: list, every
// outermost positive gives its text; hot-list, every outermost positive
// gives (its text, href) per positive anchor inside it, or itself when it is
// an anchor (skipped when it has no href). URLs are resolved against the
// page's URL.
std::vector<ListRow> Decode(ListKind kind, const std::vector<html::Node>& positives,
                            const html::Page& page);

// The lists the model finds on a page, best first (at most `max`): the
// predicted positives grouped by the structure that repeats them (outermost
// positives sharing a parent's tag path), each decoded as a hot-list when
// its items hold positive anchors with hrefs, else as a list.
absl::StatusOr<std::vector<v1::ListSuggestion>> SuggestLists(const v1::ListModel& model,
                                                             const html::Page& page,
                                                             size_t max = 5);

// The paper's per-page measures (§3.1) on node labels.
struct PageScore {
  double precision = 1;  // 1 when nothing is predicted
  double recall = 1;     // 1 when nothing is to be found
  size_t predicted = 0;
  size_t expected = 0;
  size_t correct = 0;
  // R = P = 1.
  bool perfect() const;
  // (R >= 1-eps and P >= 1-eps) or (P >= 1-eps and R >= 1/2 - eps).
  bool good(double eps = 0.05) const;
};
PageScore ScorePage(const std::vector<html::Node>& predicted,
                    const std::vector<html::Node>& expected);

// The elements `xpaths` select on `page` (each must select exactly one
// element; InvalidArgument naming the XPath otherwise), for a problem's
// positive_xpaths.
absl::StatusOr<std::vector<html::Node>> NodesOfXPaths(const html::Page& page,
                                                      const std::vector<std::string>& xpaths);

// The absolute XPath (/html[1]/body[1]/ul[1]/li[3]) of an element: html::NodeXPath,
// whose steps are *[k] for a name that is no XPath name test (e.g. a prefixed tag).
std::string AbsoluteXPath(html::Node element);

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_LIST_FINDER_H_
