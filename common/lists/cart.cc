#include "common/lists/cart.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "absl/strings/str_cat.h"

namespace vertex::lists {

CartData::CartData(FeatureSet set) : set_(set), specs_(FeatureSpecs(set)) {
  numeric_.resize(specs_.size());
  symbol_.resize(specs_.size());
  set_offsets_.resize(specs_.size());
  set_ids_.resize(specs_.size());
  for (size_t s = 0; s < specs_.size(); ++s) {
    if (specs_[s].kind == FeatureKind::kSet) set_offsets_[s].push_back(0);
  }
}

int32_t CartData::Intern(std::string_view s) {
  auto [it, inserted] = ids_.try_emplace(s, static_cast<int32_t>(dictionary_.size()));
  if (inserted) dictionary_.push_back(s);
  return it->second;
}

absl::StatusOr<int32_t> CartData::AddPage(const PageFeatures& features, const std::vector<uint8_t>& labels,
                                          size_t labelled, int32_t group) {
  if (labels.size() != features.size() || labelled > features.size()) {
    return absl::InvalidArgumentError(absl::StrCat("CART data: ", labels.size(), " labels and ", labelled,
                                                   " labelled elements for a page of ", features.size()));
  }
  if (set_ == FeatureSet::kPaperAndMarkup && features.set != set_) {
    return absl::InvalidArgumentError("CART data: page features lack the markup columns (computed with \"paper\")");
  }
  const int32_t first = static_cast<int32_t>(label_.size());
  for (size_t i = 0; i < labelled; ++i) {
    label_.push_back(labels[i] ? 1 : 0);
    group_.push_back(group);
  }
  for (size_t s = 0; s < specs_.size(); ++s) {
    const FeatureSpec& spec = specs_[s];
    for (size_t i = 0; i < labelled; ++i) {
      switch (spec.kind) {
        case FeatureKind::kNumeric:
          numeric_[s].push_back(features.numeric[spec.column][i]);
          break;
        case FeatureKind::kSymbol:
          symbol_[s].push_back(Intern(features.symbol[spec.column][i]));
          break;
        case FeatureKind::kSet:
          for (std::string_view v : features.sets[spec.column][i]) set_ids_[s].push_back(Intern(v));
          set_offsets_[s].push_back(static_cast<uint32_t>(set_ids_[s].size()));
          break;
      }
    }
  }
  return first;
}

namespace {

// Gini impurity of a node times its weight: W (1 - p^2 - n^2) with p, n the
// class fractions.
double WeightedGini(double pos, double neg) {
  const double w = pos + neg;
  return w <= 0 ? 0 : w - (pos * pos + neg * neg) / w;
}

struct TreeNode {
  v1::ListModelNode::Test test = v1::ListModelNode::LEAF;
  int feature = 0;  // spec index
  double threshold = 0;
  int32_t symbol = -1;
  int32_t if_true = -1, if_false = -1;
  uint64_t count = 0;
  double pos = 0, neg = 0;  // class weights reaching the node
  double Error() const { return pos >= neg ? neg : pos; }
};
using Tree = std::vector<TreeNode>;

struct Split {
  double gain = 0;
  v1::ListModelNode::Test test = v1::ListModelNode::LEAF;
  int feature = 0;
  double threshold = 0;
  int32_t symbol = -1;
};

}  // namespace

// Grows trees on row subsets of one CartData and evaluates them on rows.
class CartTrainer {
 public:
  CartTrainer(const CartData& data, const TrainOptions& options, double positive_weight)
      : d_(data), options_(options), positive_weight_(positive_weight) {
    pos_scratch_.assign(d_.dictionary_.size(), 0);
    neg_scratch_.assign(d_.dictionary_.size(), 0);
    count_scratch_.assign(d_.dictionary_.size(), 0);
    side_.assign(d_.rows(), 0);
  }

  double Weight(int32_t row) const { return d_.label_[row] ? positive_weight_ : 1.0; }

  Tree Grow(const std::vector<int32_t>& rows);
  bool Test(const TreeNode& node, int32_t row) const;
  // The leaf `row` reaches.
  const TreeNode& Leaf(const Tree& tree, int32_t row) const {
    int32_t n = 0;
    while (tree[n].test != v1::ListModelNode::LEAF) n = Test(tree[n], row) ? tree[n].if_true : tree[n].if_false;
    return tree[n];
  }

 private:
  Split BestSplit(size_t begin, size_t end, const TreeNode& node);
  void NumericSplit(int f, size_t begin, size_t end, const TreeNode& node, Split* best);
  void SymbolSplit(int f, size_t begin, size_t end, const TreeNode& node, Split* best);
  // Stable-partitions [begin, end) of every order by side_, true side first.
  size_t Partition(size_t begin, size_t end);

  const CartData& d_;
  const TrainOptions& options_;
  double positive_weight_;
  // members_ and, per numeric spec, orders_[f]: the rows of each tree node
  // as one contiguous segment (orders_[f] sorted by feature f).
  std::vector<int32_t> members_;
  std::vector<std::vector<int32_t>> orders_;
  std::vector<double> pos_scratch_, neg_scratch_;
  std::vector<uint32_t> count_scratch_;
  std::vector<int32_t> touched_;
  std::vector<uint8_t> side_;
  std::vector<int32_t> buffer_;
};

bool CartTrainer::Test(const TreeNode& node, int32_t row) const {
  switch (node.test) {
    case v1::ListModelNode::NUMERIC_LE:
      return d_.numeric_[node.feature][row] <= node.threshold;
    case v1::ListModelNode::SYMBOL_EQ:
      return d_.symbol_[node.feature][row] == node.symbol;
    case v1::ListModelNode::SET_CONTAINS: {
      const auto& off = d_.set_offsets_[node.feature];
      const auto& ids = d_.set_ids_[node.feature];
      for (uint32_t k = off[row]; k < off[row + 1]; ++k) {
        if (ids[k] == node.symbol) return true;
      }
      return false;
    }
    default:
      return false;
  }
}

void CartTrainer::NumericSplit(int f, size_t begin, size_t end, const TreeNode& node, Split* best) {
  const std::vector<int32_t>& order = orders_[f];
  const std::vector<double>& value = d_.numeric_[f];
  const double parent = WeightedGini(node.pos, node.neg);
  double lp = 0, ln = 0;
  const size_t m = end - begin;
  for (size_t k = begin; k + 1 < end; ++k) {
    const int32_t r = order[k];
    (d_.label_[r] ? lp : ln) += Weight(r);
    const size_t left = k + 1 - begin;
    if (left < options_.min_leaf || m - left < options_.min_leaf) continue;
    const double v = value[r], next = value[order[k + 1]];
    if (!(v < next)) continue;
    const double gain = parent - WeightedGini(lp, ln) - WeightedGini(node.pos - lp, node.neg - ln);
    if (gain > best->gain + 1e-12) {
      *best = {gain, v1::ListModelNode::NUMERIC_LE, f, v + (next - v) / 2, -1};
    }
  }
}

void CartTrainer::SymbolSplit(int f, size_t begin, size_t end, const TreeNode& node, Split* best) {
  const bool is_set = d_.specs_[f].kind == FeatureKind::kSet;
  touched_.clear();
  auto add = [&](int32_t id, int32_t r) {
    if (count_scratch_[id] == 0) touched_.push_back(id);
    ++count_scratch_[id];
    (d_.label_[r] ? pos_scratch_[id] : neg_scratch_[id]) += Weight(r);
  };
  for (size_t k = begin; k < end; ++k) {
    const int32_t r = members_[k];
    if (!is_set) {
      add(d_.symbol_[f][r], r);
      continue;
    }
    const auto& off = d_.set_offsets_[f];
    for (uint32_t j = off[r]; j < off[r + 1]; ++j) add(d_.set_ids_[f][j], r);
  }
  const double parent = WeightedGini(node.pos, node.neg);
  const size_t m = end - begin;
  for (int32_t id : touched_) {
    const size_t in = count_scratch_[id];
    // Only symbols seen at least min_leaf times on each side are candidates.
    if (in >= options_.min_leaf && m - in >= options_.min_leaf) {
      const double p = pos_scratch_[id], n = neg_scratch_[id];
      const double gain = parent - WeightedGini(p, n) - WeightedGini(node.pos - p, node.neg - n);
      if (gain > best->gain + 1e-12) {
        *best = {gain, is_set ? v1::ListModelNode::SET_CONTAINS : v1::ListModelNode::SYMBOL_EQ, f, 0, id};
      }
    }
    count_scratch_[id] = 0;
    pos_scratch_[id] = neg_scratch_[id] = 0;
  }
}

Split CartTrainer::BestSplit(size_t begin, size_t end, const TreeNode& node) {
  Split best;
  for (size_t f = 0; f < d_.specs_.size(); ++f) {
    if (d_.specs_[f].kind == FeatureKind::kNumeric) {
      NumericSplit(static_cast<int>(f), begin, end, node, &best);
    } else {
      SymbolSplit(static_cast<int>(f), begin, end, node, &best);
    }
  }
  return best;
}

size_t CartTrainer::Partition(size_t begin, size_t end) {
  auto partition = [&](std::vector<int32_t>* v) {
    buffer_.clear();
    size_t out = begin;
    for (size_t k = begin; k < end; ++k) {
      const int32_t r = (*v)[k];
      if (side_[r]) {
        (*v)[out++] = r;
      } else {
        buffer_.push_back(r);
      }
    }
    std::copy(buffer_.begin(), buffer_.end(), v->begin() + static_cast<std::ptrdiff_t>(out));
    return out;
  };
  const size_t mid = partition(&members_);
  for (auto& order : orders_) {
    if (!order.empty()) partition(&order);
  }
  return mid;
}

Tree CartTrainer::Grow(const std::vector<int32_t>& rows) {
  members_ = rows;
  orders_.assign(d_.specs_.size(), {});
  for (size_t f = 0; f < d_.specs_.size(); ++f) {
    if (d_.specs_[f].kind != FeatureKind::kNumeric) continue;
    orders_[f] = rows;
    const std::vector<double>& value = d_.numeric_[f];
    std::stable_sort(orders_[f].begin(), orders_[f].end(),
                     [&](int32_t a, int32_t b) { return value[a] < value[b]; });
  }
  Tree tree(1);
  for (int32_t r : rows) (d_.label_[r] ? tree[0].pos : tree[0].neg) += Weight(r);
  tree[0].count = rows.size();
  struct Work {
    int32_t node;
    size_t begin, end;
    int depth;
  };
  std::vector<Work> stack{{0, 0, rows.size(), 0}};
  while (!stack.empty()) {
    const Work w = stack.back();
    stack.pop_back();
    TreeNode node = tree[w.node];
    if (w.depth >= options_.max_depth || node.pos <= 0 || node.neg <= 0 ||
        w.end - w.begin < 2 * static_cast<size_t>(std::max<uint32_t>(options_.min_leaf, 1))) {
      continue;
    }
    const Split split = BestSplit(w.begin, w.end, node);
    if (split.test == v1::ListModelNode::LEAF) continue;
    node.test = split.test;
    node.feature = split.feature;
    node.threshold = split.threshold;
    node.symbol = split.symbol;
    TreeNode yes, no;
    for (size_t k = w.begin; k < w.end; ++k) {
      const int32_t r = members_[k];
      side_[r] = Test(node, r) ? 1 : 0;
      TreeNode& child = side_[r] ? yes : no;
      (d_.label_[r] ? child.pos : child.neg) += Weight(r);
      ++child.count;
    }
    const size_t mid = Partition(w.begin, w.end);
    node.if_true = static_cast<int32_t>(tree.size());
    node.if_false = node.if_true + 1;
    tree[w.node] = node;
    tree.push_back(yes);
    tree.push_back(no);
    stack.push_back({node.if_false, mid, w.end, w.depth + 1});
    stack.push_back({node.if_true, w.begin, mid, w.depth + 1});
  }
  return tree;
}

namespace {

// Children always come after their parent, so reverse index order visits
// children before parents (no recursion).
//
// Costs are error rates: a node's misclassified weight over the root's
// weight, so alpha means the same whatever the data's size and weights.
double Rate(const Tree& tree, const TreeNode& n) {
  const double total = tree[0].pos + tree[0].neg;
  return total > 0 ? n.Error() / total : 0;
}

// `tree` with the nodes `collapse` marks turned into leaves, unreachable
// nodes dropped, renumbered breadth-first.
Tree Collapse(const Tree& tree, const std::vector<uint8_t>& collapse) {
  Tree out;
  out.reserve(tree.size());
  std::vector<int32_t> queue{0};
  for (size_t q = 0; q < queue.size(); ++q) {
    TreeNode n = tree[queue[q]];
    if (collapse[queue[q]]) {
      n.test = v1::ListModelNode::LEAF;
      n.if_true = n.if_false = -1;
    }
    out.push_back(n);
    if (n.test != v1::ListModelNode::LEAF) {
      queue.push_back(n.if_true);
      queue.push_back(n.if_false);
    }
  }
  // Breadth-first: the children of the k-th internal node in visiting order
  // sit at the next two free slots.
  int32_t next = 1;
  for (TreeNode& n : out) {
    if (n.test == v1::ListModelNode::LEAF) continue;
    n.if_true = next++;
    n.if_false = next++;
  }
  return out;
}

// Ties within rounding (weights are sums of many doubles).
bool AtMost(double a, double b) { return a <= b + 1e-9 * std::max(1.0, std::fabs(b)); }

// The smallest subtree minimising error rate + alpha x leaves (Breiman's
// T(alpha)).
Tree Prune(const Tree& tree, double alpha) {
  std::vector<double> cost(tree.size());
  std::vector<uint8_t> collapse(tree.size(), 0);
  for (size_t i = tree.size(); i-- > 0;) {
    const TreeNode& n = tree[i];
    const double as_leaf = Rate(tree, n) + alpha;
    if (n.test == v1::ListModelNode::LEAF) {
      cost[i] = as_leaf;
      continue;
    }
    const double below = cost[n.if_true] + cost[n.if_false];
    collapse[i] = AtMost(as_leaf, below) ? 1 : 0;
    cost[i] = std::min(as_leaf, below);
  }
  return Collapse(tree, collapse);
}

// The alphas at which weakest-link pruning collapses nodes, ascending
// (Breiman's alpha_1 < alpha_2 < ...; after the last the root is a leaf).
// Every round collapses at least the weakest link, so it ends.
std::vector<double> PruningAlphas(Tree tree) {
  std::vector<double> alphas;
  while (tree[0].test != v1::ListModelNode::LEAF) {
    std::vector<double> sub_error(tree.size()), g(tree.size(), std::numeric_limits<double>::infinity());
    std::vector<size_t> leaves(tree.size());
    double weakest = std::numeric_limits<double>::infinity();
    for (size_t i = tree.size(); i-- > 0;) {
      const TreeNode& n = tree[i];
      if (n.test == v1::ListModelNode::LEAF) {
        sub_error[i] = Rate(tree, n);
        leaves[i] = 1;
        continue;
      }
      sub_error[i] = sub_error[n.if_true] + sub_error[n.if_false];
      leaves[i] = leaves[n.if_true] + leaves[n.if_false];
      g[i] = std::max(0.0, (Rate(tree, n) - sub_error[i]) / static_cast<double>(leaves[i] - 1));
      weakest = std::min(weakest, g[i]);
    }
    alphas.push_back(weakest);
    std::vector<uint8_t> collapse(tree.size(), 0);
    for (size_t i = 0; i < tree.size(); ++i) collapse[i] = AtMost(g[i], weakest) ? 1 : 0;
    tree = Collapse(tree, collapse);
  }
  return alphas;
}

// The weighted error of `tree` on `rows`.
double TestError(const CartTrainer& trainer, const Tree& tree, const std::vector<int32_t>& rows,
                 const std::vector<uint8_t>& labels) {
  double error = 0;
  for (int32_t r : rows) {
    const TreeNode& leaf = trainer.Leaf(tree, r);
    const bool positive = leaf.pos >= leaf.neg;
    if (positive != (labels[r] != 0)) error += trainer.Weight(r);
  }
  return error;
}

}  // namespace

namespace {

// Alpha by k-fold cross-validation: candidates are the geometric means of
// consecutive alphas of the full tree's sequence (Breiman §3.4); folds
// group rows by page. With one page (intra-page learning) rows are dealt
// to the folds in turn: a page's positives sit together in document order,
// so contiguous blocks would leave most folds without one.
double ChooseAlpha(CartTrainer& trainer, const Tree& full, const std::vector<int32_t>& rows,
                   const std::vector<int32_t>& groups, const std::vector<uint8_t>& labels, int folds) {
  const std::vector<double> seq = PruningAlphas(full);
  if (seq.empty()) return 0;
  std::vector<double> candidates{0};
  for (size_t k = 0; k < seq.size(); ++k) {
    candidates.push_back(k + 1 < seq.size() ? std::sqrt(seq[k] * seq[k + 1]) : seq[k]);
  }
  std::vector<int32_t> distinct;
  for (int32_t r : rows) distinct.push_back(groups[r]);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const bool by_page = distinct.size() >= 2;
  const int k = std::max(2, std::min<int>(folds, by_page ? static_cast<int>(distinct.size())
                                                          : static_cast<int>(rows.size())));
  std::vector<double> error(candidates.size(), 0);
  for (int fold = 0; fold < k; ++fold) {
    std::vector<int32_t> train, test;
    for (size_t j = 0; j < rows.size(); ++j) {
      const int32_t r = rows[j];
      const size_t g = by_page ? static_cast<size_t>(std::lower_bound(distinct.begin(), distinct.end(), groups[r]) -
                                                     distinct.begin())
                               : j;
      (static_cast<int>(g % static_cast<size_t>(k)) == fold ? test : train).push_back(r);
    }
    if (train.empty() || test.empty()) continue;
    const Tree grown = trainer.Grow(train);
    for (size_t c = 0; c < candidates.size(); ++c) {
      error[c] += TestError(trainer, Prune(grown, candidates[c]), test, labels);
    }
  }
  // The least error; among equals the largest alpha (the smaller tree).
  size_t best = 0;
  for (size_t c = 1; c < candidates.size(); ++c) {
    if (error[c] <= error[best] + 1e-9) best = c;
  }
  return candidates[best];
}

}  // namespace

absl::StatusOr<v1::ListModel> TrainCart(const CartData& data, const std::vector<int32_t>& rows_in,
                                        const TrainOptions& options) {
  std::vector<int32_t> rows = rows_in;
  if (rows.empty()) {
    rows.resize(data.rows());
    std::iota(rows.begin(), rows.end(), 0);
  }
  if (rows.empty()) return absl::InvalidArgumentError("CART: no training rows");
  size_t positives = 0;
  for (int32_t r : rows) {
    if (r < 0 || static_cast<size_t>(r) >= data.rows()) {
      return absl::InvalidArgumentError(absl::StrCat("CART: row ", r, " out of range (", data.rows(), " rows)"));
    }
    positives += data.labels()[r];
  }
  if (positives == 0) return absl::InvalidArgumentError("CART: no positive example among the training rows");
  // Balanced: the positives together weigh as much as the negatives.
  const double positive_weight =
      options.balance_classes && positives < rows.size()
          ? static_cast<double>(rows.size() - positives) / static_cast<double>(positives)
          : 1.0;
  CartTrainer trainer(data, options, positive_weight);
  Tree tree = trainer.Grow(rows);
  double alpha = options.pruning_alpha;
  if (alpha < 0) alpha = ChooseAlpha(trainer, tree, rows, data.groups(), data.labels(), options.pruning_folds);
  tree = Prune(tree, alpha);

  v1::ListModel model;
  model.set_feature_set(FeatureSetName(data.set()));
  for (const FeatureSpec& spec : data.specs()) model.add_feature_names(spec.name);
  for (const TreeNode& n : tree) {
    v1::ListModelNode* out = model.add_nodes();
    out->set_test(n.test);
    out->set_count(n.count);
    out->set_positive_fraction(n.pos + n.neg > 0 ? n.pos / (n.pos + n.neg) : 0);
    if (n.test == v1::ListModelNode::LEAF) continue;
    out->set_feature(n.feature);
    out->set_if_true(n.if_true);
    out->set_if_false(n.if_false);
    if (n.test == v1::ListModelNode::NUMERIC_LE) {
      out->set_threshold(n.threshold);
    } else {
      out->set_symbol(std::string(data.symbol_name(n.symbol)));
    }
  }
  model.set_training_nodes(rows.size());
  model.set_training_positives(positives);
  model.set_pruning_alpha(alpha);
  model.set_min_leaf(options.min_leaf);
  return model;
}

absl::StatusOr<CartModel> CartModel::Load(const v1::ListModel& model) {
  CartModel out;
  if (!ParseFeatureSet(model.feature_set(), &out.set_)) {
    return absl::InvalidArgumentError(absl::StrCat("list model: unknown feature set \"", model.feature_set(), "\""));
  }
  const std::vector<FeatureSpec>& specs = FeatureSpecs(out.set_);
  std::vector<const FeatureSpec*> features;
  for (const std::string& name : model.feature_names()) {
    auto it = std::find_if(specs.begin(), specs.end(), [&](const FeatureSpec& s) { return name == s.name; });
    if (it == specs.end()) {
      return absl::InvalidArgumentError(absl::StrCat("list model: unknown feature \"", name, "\" for feature set \"",
                                                     model.feature_set(), "\""));
    }
    features.push_back(&*it);
  }
  const int size = model.nodes_size();
  if (size == 0) return absl::InvalidArgumentError("list model: no tree nodes");
  for (int i = 0; i < size; ++i) {
    const v1::ListModelNode& in = model.nodes(i);
    Node n;
    n.test = in.test();
    n.positive = in.positive_fraction();
    if (!std::isfinite(n.positive)) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": positive_fraction is not finite"));
    }
    if (n.test == v1::ListModelNode::LEAF) {
      out.nodes_.push_back(std::move(n));
      continue;
    }
    if (in.feature() < 0 || in.feature() >= static_cast<int>(features.size())) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": feature index ", in.feature(),
                                                     " out of range (", features.size(), " features)"));
    }
    const FeatureSpec& spec = *features[in.feature()];
    const FeatureKind want = n.test == v1::ListModelNode::NUMERIC_LE  ? FeatureKind::kNumeric
                             : n.test == v1::ListModelNode::SYMBOL_EQ ? FeatureKind::kSymbol
                             : n.test == v1::ListModelNode::SET_CONTAINS ? FeatureKind::kSet
                                                                         : FeatureKind::kNumeric;
    if (n.test != v1::ListModelNode::NUMERIC_LE && n.test != v1::ListModelNode::SYMBOL_EQ &&
        n.test != v1::ListModelNode::SET_CONTAINS) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": unknown test ", in.test()));
    }
    if (spec.kind != want) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": test ",
                                                     v1::ListModelNode::Test_Name(n.test), " on feature ", spec.name,
                                                     " of another kind"));
    }
    if (in.if_true() <= i || in.if_true() >= size || in.if_false() <= i || in.if_false() >= size) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": children ", in.if_true(), ", ",
                                                     in.if_false(), " must lie after it and below ", size));
    }
    if (n.test == v1::ListModelNode::NUMERIC_LE && std::isnan(in.threshold())) {
      return absl::InvalidArgumentError(absl::StrCat("list model: node ", i, ": threshold is NaN"));
    }
    n.column = spec.column;
    n.threshold = in.threshold();
    n.symbol = in.symbol();
    n.if_true = in.if_true();
    n.if_false = in.if_false();
    out.nodes_.push_back(std::move(n));
  }
  return out;
}

double CartModel::Score(const PageFeatures& f, size_t i) const {
  size_t k = 0;
  while (nodes_[k].test != v1::ListModelNode::LEAF) {
    const Node& n = nodes_[k];
    bool yes = false;
    if (n.test == v1::ListModelNode::NUMERIC_LE) {
      yes = f.numeric[n.column][i] <= n.threshold;
    } else if (n.test == v1::ListModelNode::SYMBOL_EQ) {
      yes = static_cast<size_t>(n.column) < f.symbol.size() && f.symbol[n.column][i] == n.symbol;
    } else {
      yes = static_cast<size_t>(n.column) < f.sets.size() &&
            std::binary_search(f.sets[n.column][i].begin(), f.sets[n.column][i].end(), std::string_view(n.symbol));
    }
    k = static_cast<size_t>(yes ? n.if_true : n.if_false);
  }
  return nodes_[k].positive;
}

}  // namespace vertex::lists
