// CART (Breiman et al.) for the list finder: a binary decision tree grown
// by Gini impurity with tests on numeric thresholds (midpoints between
// consecutive values), symbol equality and set membership, class weights,
// a minimum leaf size and depth, and cost-complexity pruning with alpha
// given or chosen by k-fold cross-validation over pages (folds group a
// page's nodes, so no page is on both sides).
//
// Written here: Debian 12 has no C++ decision-tree package (mlpack ships
// only as an R binding there; the digest §2.2 notes the same), and the
// learner is small. Numeric features are sorted once per training; each
// split stable-partitions the sorted orders, so a level of the tree costs
// O(rows x features) rather than a sort per node.
//
// Thread-safety: CartData is immutable once built and may be trained from
// many threads; CartModel is immutable after Load().
#ifndef VERTEX_COMMON_LISTS_CART_H_
#define VERTEX_COMMON_LISTS_CART_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "common/lists/features.h"
#include "common/lists/list_finder.h"
#include "vertex/v1/list_model.pb.h"

namespace vertex::lists {

// Training rows: labelled elements of pages, their features interned.
// Holds string_views into the pages' features: valid while they live.
class CartData {
 public:
  explicit CartData(FeatureSet set);

  // Adds elements [0, labelled) of `features` with `labels` (one per
  // element, 0 or 1) as rows of `group` (the page, for the pruning folds).
  // Returns the index of the first row added. InvalidArgument when the
  // features lack the columns of this data's set, or labels do not match.
  absl::StatusOr<int32_t> AddPage(const PageFeatures& features, const std::vector<uint8_t>& labels,
                                  size_t labelled, int32_t group);

  FeatureSet set() const { return set_; }
  size_t rows() const { return label_.size(); }
  const std::vector<FeatureSpec>& specs() const { return specs_; }
  const std::vector<uint8_t>& labels() const { return label_; }
  const std::vector<int32_t>& groups() const { return group_; }
  std::string_view symbol_name(int32_t id) const { return dictionary_[id]; }

 private:
  friend class CartTrainer;
  int32_t Intern(std::string_view s);

  FeatureSet set_;
  std::vector<FeatureSpec> specs_;
  std::vector<uint8_t> label_;
  std::vector<int32_t> group_;
  // Per spec: numeric values, symbol ids, or set members (CSR: offsets
  // into ids, rows()+1 of them).
  std::vector<std::vector<double>> numeric_;
  std::vector<std::vector<int32_t>> symbol_;
  std::vector<std::vector<uint32_t>> set_offsets_;
  std::vector<std::vector<int32_t>> set_ids_;
  std::vector<std::string_view> dictionary_;
  absl::flat_hash_map<std::string_view, int32_t> ids_;
};

// Grows (and prunes) a tree on `rows` of `data` (all rows when empty).
// InvalidArgument when there are no rows, or no positive among them.
// The model's trained_from, training_pages and created_unix_ms are left to
// the caller.
absl::StatusOr<v1::ListModel> TrainCart(const CartData& data, const std::vector<int32_t>& rows,
                                        const TrainOptions& options);

// A validated model, ready to score pages' features.
class CartModel {
 public:
  // InvalidArgument, naming the problem, for an unknown feature set or
  // feature name, a node test of the wrong kind for its feature, child
  // indexes that are out of range or do not come after their node (the tree
  // must be acyclic), or a non-finite number.
  static absl::StatusOr<CartModel> Load(const v1::ListModel& model);

  FeatureSet feature_set() const { return set_; }
  // P(positive) of element `i` of `features`, computed with a feature set
  // holding this model's (kPaperAndMarkup holds kPaper's columns).
  double Score(const PageFeatures& features, size_t i) const;
  size_t size() const { return nodes_.size(); }

 private:
  struct Node {
    v1::ListModelNode::Test test = v1::ListModelNode::LEAF;
    int column = 0;
    double threshold = 0;
    std::string symbol;
    int32_t if_true = 0, if_false = 0;
    double positive = 0;
  };
  FeatureSet set_ = FeatureSet::kPaper;
  std::vector<Node> nodes_;
};

}  // namespace vertex::lists

#endif  // VERTEX_COMMON_LISTS_CART_H_
