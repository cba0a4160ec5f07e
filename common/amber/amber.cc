#include "common/amber/amber.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/amber/stages.h"
#include "common/amber/ted.h"
#include "common/html/text.h"

namespace vertex::amber {
namespace {

constexpr int kInf = std::numeric_limits<int>::max();

using RawNode = const _xmlNode*;

// A closed integer interval; [kInf, -1] is empty, an upper end of kInf is
// unbounded (the sentinel's).
struct Interval {
  int lo = kInf;
  int hi = -1;

  static Interval Point(int v) { return {v, v}; }
  bool empty() const { return lo > hi; }
  // Empty intervals have width 0: a single node constrains nothing.
  int64_t width() const {
    if (empty()) return 0;
    if (hi == kInf) return kInf;
    return static_cast<int64_t>(hi) - lo;
  }
  Interval Merge(const Interval& o) const { return {std::min(lo, o.lo), std::max(hi, o.hi)}; }
};

// The lowest common ancestor of `a` (at depth da) and `b` (at depth db),
// and its depth.
std::pair<html::Node, int> Lca(html::Node a, int da, html::Node b, int db) {
  while (da > db) a = a.parent(), --da;
  while (db > da) b = b.parent(), --db;
  while (!(a == b)) a = a.parent(), b = b.parent(), --da;
  return {a, da};
}

// The element an annotation types: a text node's parent, else the node
// (an <a> or <img> for url/image attributes).
html::Node TypedElement(html::Node n) { return n.is_text() ? n.parent() : n; }

bool ValidAnnotation(const annotate::Annotation& a, size_t attributes) {
  return a.node && a.attribute >= 0 && static_cast<size_t>(a.attribute) < attributes;
}

// Document order and depth of the annotated nodes, from one iterative walk
// of the page (the root element at depth 1).
class NodeFacts {
 public:
  NodeFacts(const html::Page& page, const std::vector<annotate::Annotation>& annotations) {
    for (const annotate::Annotation& a : annotations) {
      if (a.node) facts_.try_emplace(a.node.raw(), Fact{});
    }
    if (facts_.empty()) return;
    const html::Node root = page.root();
    int order = 0;
    int depth = 1;
    for (html::Node n = root; n;) {
      if (auto it = facts_.find(n.raw()); it != facts_.end()) it->second = Fact{order, depth};
      ++order;
      if (html::Node child = n.first_child()) {
        n = child, ++depth;
        continue;
      }
      html::Node next;
      for (html::Node up = n; up && !(up == root); up = up.parent(), --depth) {
        if ((next = up.next_sibling())) break;
      }
      n = next;
    }
  }
  // -1 for nodes not of the page (or not annotated).
  int order(html::Node n) const { return Get(n).order; }
  int depth(html::Node n) const { return Get(n).depth; }

 private:
  struct Fact {
    int order = -1;
    int depth = -1;
  };
  Fact Get(html::Node n) const {
    auto it = facts_.find(n.raw());
    return it == facts_.end() ? Fact{} : it->second;
  }
  absl::flat_hash_map<RawNode, Fact> facts_;
};

// An absolute XPath of `n` for messages: /html/body/div[2]/ul/li[3].
std::string NodePath(html::Node n) {
  std::vector<std::string> steps;
  for (; n; n = n.parent()) {
    if (!n.is_element()) {
      steps.push_back("text()");
      continue;
    }
    int index = 1;
    bool more = false;
    for (html::Node s = n.previous_sibling(); s; s = s.previous_sibling()) {
      if (s.is_element() && s.tag() == n.tag()) ++index;
    }
    for (html::Node s = n.next_sibling(); s && !more; s = s.next_sibling()) {
      more = s.is_element() && s.tag() == n.tag();
    }
    std::string step(n.tag());
    if (index > 1 || more) absl::StrAppend(&step, "[", index, "]");
    steps.push_back(std::move(step));
  }
  std::string path;
  for (auto it = steps.rbegin(); it != steps.rend(); ++it) absl::StrAppend(&path, "/", *it);
  return path;
}

}  // namespace

// ---------------------------------------------------------------------------
// identify (Alg. 2)
// ---------------------------------------------------------------------------
namespace {

struct Pivot {
  html::Node node;
  int order = 0;
  int depth = 0;
};

// The pivot annotations' nodes, deduplicated, in document order.
std::vector<Pivot> PivotNodes(const std::vector<annotate::Annotation>& annotations, int pivot,
                              const NodeFacts& facts) {
  std::vector<Pivot> pivots;
  absl::flat_hash_set<RawNode> seen;
  for (const annotate::Annotation& a : annotations) {
    if (a.attribute != pivot || !a.node || facts.order(a.node) < 0) continue;
    if (!seen.insert(a.node.raw()).second) continue;
    pivots.push_back({a.node, facts.order(a.node), facts.depth(a.node)});
  }
  std::sort(pivots.begin(), pivots.end(),
            [](const Pivot& a, const Pivot& b) { return a.order < b.order; });
  return pivots;
}

// The growing cluster LastDA. pathLengths(Last, n) needs |path(a, n)| =
// depth(a) + depth(n) - 2 depth(lca(a, n)) for every member a. In document
// order depth(lca(a_i, n)) = min(depth(lca(a_i, a_i+1)), ...,
// depth(lca(a_k, n))), so the members are kept as groups of equal suffix
// minimum m (a stack, m increasing) with their depth range: the interval
// costs O(groups) <= O(page depth) per candidate instead of O(|Last|).
class Cluster {
 public:
  void Reset(int index, const Pivot& p) {
    members_.assign(1, index);
    groups_.assign(1, Group{kInf, p.depth, p.depth});
    depth_ = Interval::Point(p.depth);
    dist_ = Interval();
    last_ = p;
  }
  void Clear() {
    members_.clear();
    groups_.clear();
    depth_ = dist_ = Interval();
  }

  // Depth' and pathLengths(Last, {p}) merged with Dist_Last, and the
  // depth of lca(last member, p) the merge needs.
  struct Trial {
    Interval depth;
    Interval dist;
    int lca_depth = 0;
  };
  Trial Try(const Pivot& p) const {
    Trial t{depth_.Merge(Interval::Point(p.depth)), dist_, 0};
    if (members_.empty()) return t;
    t.lca_depth = Lca(last_.node, last_.depth, p.node, p.depth).second;
    for (const Group& g : groups_) {
      const int e = std::min(g.m, t.lca_depth);
      t.dist = t.dist.Merge({g.dmin + p.depth - 2 * e, g.dmax + p.depth - 2 * e});
    }
    return t;
  }
  void Add(int index, const Pivot& p, const Trial& t) {
    Group merged{t.lca_depth, kInf, -1};
    while (!groups_.empty() && groups_.back().m >= t.lca_depth) {
      merged.dmin = std::min(merged.dmin, groups_.back().dmin);
      merged.dmax = std::max(merged.dmax, groups_.back().dmax);
      groups_.pop_back();
    }
    if (merged.dmax >= 0) groups_.push_back(merged);
    groups_.push_back(Group{kInf, p.depth, p.depth});
    members_.push_back(index);
    depth_ = t.depth;
    dist_ = t.dist;
    last_ = p;
  }

  const std::vector<int>& members() const { return members_; }
  const Interval& depth() const { return depth_; }
  const Interval& dist() const { return dist_; }

 private:
  struct Group {
    int m;
    int dmin;
    int dmax;
  };
  std::vector<int> members_;
  std::vector<Group> groups_;
  Interval depth_;
  Interval dist_;
  Pivot last_;
};

// A data area as identify found it: pivots(d) for its root d.
struct Draft {
  html::Node root;
  int root_depth = 0;
  std::vector<int> pivots;  // indices into the sorted pivots
  Interval depth;
  Interval dist;
  bool kept = true;
};

// Alg. 2's loop: clusters flushed into pivots(d), a larger set replacing a
// smaller one at the same root.
std::vector<Draft> ClusterPivots(const std::vector<Pivot>& pivots, const Options& options) {
  std::vector<Draft> drafts;
  absl::flat_hash_map<RawNode, size_t> by_root;
  Cluster last;
  auto flush = [&]() {
    const std::vector<int>& nodes = last.members();
    if (nodes.size() < 2) return;
    const Pivot& first = pivots[nodes.front()];
    const Pivot& final = pivots[nodes.back()];
    auto [root, root_depth] = Lca(first.node, first.depth, final.node, final.depth);
    Draft draft{root, root_depth, nodes, last.depth(), last.dist(), true};
    auto [it, inserted] = by_root.try_emplace(root.raw(), drafts.size());
    if (inserted) {
      drafts.push_back(std::move(draft));
    } else if (drafts[it->second].pivots.size() < nodes.size()) {
      drafts[it->second] = std::move(draft);
    }
  };
  for (size_t i = 0; i <= pivots.size(); ++i) {
    if (i == pivots.size()) {  // the sentinel (∅, [0,∞], [0,∞]) always flushes
      flush();
      break;
    }
    const Cluster::Trial t = last.Try(pivots[i]);
    if (t.depth.width() <= options.theta_depth && t.dist.width() <= options.theta_dist) {
      last.Add(static_cast<int>(i), pivots[i], t);
    } else {
      flush();
      last.Reset(static_cast<int>(i), pivots[i]);
    }
  }
  return drafts;
}

// The children of a draft's root that hold its pivots (its leading nodes).
absl::flat_hash_set<RawNode> LeadingSet(const Draft& d, const std::vector<Pivot>& pivots) {
  absl::flat_hash_set<RawNode> leading;
  for (int p : d.pivots) leading.insert(pivots[p].node.ChildOfAncestor(d.root).raw());
  return leading;
}

// Def. 2: data areas do not nest. Alg. 2's greedy scan can pair an outlier
// (the average price above a list) with the first pivot of the next area:
// the pair's root then holds that area inside one of its leading nodes.
// Such conflicts keep the area with more pivots (ties: the inner one).
// Returns the conflicting (outer, inner) pairs.
std::vector<std::pair<size_t, size_t>> Conflicts(const std::vector<Draft>& drafts,
                                                 const std::vector<Pivot>& pivots) {
  absl::flat_hash_map<RawNode, size_t> by_root;
  for (size_t i = 0; i < drafts.size(); ++i) by_root[drafts[i].root.raw()] = i;
  std::vector<absl::flat_hash_set<RawNode>> leading;
  leading.reserve(drafts.size());
  for (const Draft& d : drafts) leading.push_back(LeadingSet(d, pivots));
  std::vector<std::pair<size_t, size_t>> conflicts;
  for (size_t inner = 0; inner < drafts.size(); ++inner) {
    html::Node below = drafts[inner].root;
    for (html::Node up = below.parent(); up; below = up, up = up.parent()) {
      auto it = by_root.find(up.raw());
      if (it != by_root.end() && leading[it->second].contains(below.raw())) {
        conflicts.emplace_back(it->second, inner);
      }
    }
  }
  return conflicts;
}

// Pivot depths below each node of an area, as counts per depth over the
// depths a consistent pivot can have: [hi - theta, lo + theta] of the
// area's depth interval lies within [lo - theta, hi + theta].
class DepthCounts {
 public:
  DepthCounts(const Draft& d, const std::vector<Pivot>& pivots, int theta_depth)
      : root_(d.root), base_(d.depth.lo - theta_depth), width_(d.depth.hi - d.depth.lo + 2 * theta_depth + 1) {
    for (int p : d.pivots) Add(pivots[p]);
  }
  void Add(const Pivot& p) {
    for (html::Node up = p.node.parent(); up; up = up.parent()) {
      std::vector<int>& c = counts_[up.raw()];
      if (c.empty()) c.assign(width_, 0);
      ++c[p.depth - base_];
      if (up == root_) break;
    }
  }
  // [min, max] of |path(p, a)| over the area's pivots a: the pivots whose
  // lca with p is the ancestor x are counted at x but not at its child
  // towards p.
  Interval PathLengths(const Pivot& p) const {
    Interval lengths;
    int x_depth = p.depth;
    const std::vector<int>* below = nullptr;
    for (html::Node x = p.node.parent(); x; x = x.parent()) {
      --x_depth;
      auto it = counts_.find(x.raw());
      if (it != counts_.end()) {
        for (int i = 0; i < width_; ++i) {
          if (it->second[i] - (below ? (*below)[i] : 0) == 0) continue;
          lengths = lengths.Merge(Interval::Point(p.depth + base_ + i - 2 * x_depth));
        }
        below = &it->second;
      } else {
        below = nullptr;
      }
      if (x == root_) break;
    }
    return lengths;
  }

 private:
  html::Node root_;
  int base_;
  int width_;
  absl::flat_hash_map<RawNode, std::vector<int>> counts_;
};

// Def. 4 asks for a maximal pivot set; Alg. 2's scan keeps only the largest
// run per root (a second, struck-through price in a record breaks the run:
// its distance to its sibling price is smaller). Every pivot left out is
// offered, in document order, to the kept area whose root is the nearest
// above it, and joins when the area stays depth- and distance-consistent.
void Rehome(std::vector<Draft>& drafts, const std::vector<Pivot>& pivots, const Options& options,
            std::vector<std::string>& notes) {
  std::vector<bool> placed(pivots.size(), false);
  absl::flat_hash_map<RawNode, size_t> by_root;
  for (size_t i = 0; i < drafts.size(); ++i) {
    by_root[drafts[i].root.raw()] = i;
    for (int p : drafts[i].pivots) placed[p] = true;
  }
  std::vector<std::unique_ptr<DepthCounts>> counts(drafts.size());
  std::vector<std::vector<int>> joined(drafts.size());
  int total = 0;
  for (size_t o = 0; o < pivots.size(); ++o) {
    if (placed[o]) continue;
    const Pivot& p = pivots[o];
    size_t home = drafts.size();
    for (html::Node up = p.node.parent(); up && home == drafts.size(); up = up.parent()) {
      if (auto it = by_root.find(up.raw()); it != by_root.end()) home = it->second;
    }
    if (home == drafts.size()) continue;
    Draft& d = drafts[home];
    if (!counts[home]) counts[home] = std::make_unique<DepthCounts>(d, pivots, options.theta_depth);
    const Interval depth = d.depth.Merge(Interval::Point(p.depth));
    if (depth.width() > options.theta_depth) continue;
    const Interval dist = d.dist.Merge(counts[home]->PathLengths(p));
    if (dist.width() > options.theta_dist) continue;
    d.depth = depth;
    d.dist = dist;
    counts[home]->Add(p);
    joined[home].push_back(static_cast<int>(o));
    ++total;
  }
  for (size_t i = 0; i < drafts.size(); ++i) {
    if (joined[i].empty()) continue;
    std::vector<int> merged;
    std::merge(drafts[i].pivots.begin(), drafts[i].pivots.end(), joined[i].begin(), joined[i].end(),
               std::back_inserter(merged));
    drafts[i].pivots = std::move(merged);
  }
  if (total > 0) {
    notes.push_back(absl::StrCat(total, " pivots outside the scan's runs joined the area above them they are "
                                        "consistent with (maximal pivot sets, Def. 4)"));
  }
}

// An area lying inside a child of another area's root that holds none of
// that area's pivots, whose pivots each fit the other area (depth and
// distance), is a record of the other area that the scan cut off: two
// prices in one record (an old and a new) are closer to each other than to
// the other records' and form a 2-pivot "area" there. It is dissolved, and
// Rehome offers its pivots to the enclosing area. A nested list of another
// shape (Fig. 6's E under D1, deeper) does not fit and stays an area.
void DissolveCutOffRecords(std::vector<Draft>& drafts, const std::vector<Pivot>& pivots, const Options& options,
                           std::vector<std::string>& notes) {
  absl::flat_hash_map<RawNode, size_t> by_root;
  for (size_t i = 0; i < drafts.size(); ++i) by_root[drafts[i].root.raw()] = i;
  std::vector<std::unique_ptr<DepthCounts>> counts(drafts.size());
  for (Draft& inner : drafts) {
    size_t outer = drafts.size();
    for (html::Node up = inner.root.parent(); up && outer == drafts.size(); up = up.parent()) {
      if (auto it = by_root.find(up.raw()); it != by_root.end()) outer = it->second;
    }
    if (outer == drafts.size() || !drafts[outer].kept) continue;
    const Draft& o = drafts[outer];
    if (!counts[outer]) counts[outer] = std::make_unique<DepthCounts>(o, pivots, options.theta_depth);
    bool fits = true;
    for (int p : inner.pivots) {
      fits = fits && o.depth.Merge(Interval::Point(pivots[p].depth)).width() <= options.theta_depth &&
             o.dist.Merge(counts[outer]->PathLengths(pivots[p])).width() <= options.theta_dist;
    }
    if (!fits) continue;
    inner.kept = false;
    notes.push_back(absl::StrCat(inner.pivots.size(), " pivots under ", NodePath(inner.root),
                                 " lie in one record of the area at ", NodePath(o.root),
                                 " and fit it: offered to it, not an area of their own"));
  }
  drafts.erase(std::remove_if(drafts.begin(), drafts.end(), [](const Draft& d) { return !d.kept; }),
               drafts.end());
}

void ResolveNesting(std::vector<Draft>& drafts, const std::vector<Pivot>& pivots,
                    std::vector<std::string>& notes) {
  const std::vector<std::pair<size_t, size_t>> conflicts = Conflicts(drafts, pivots);
  if (conflicts.empty()) return;
  // Greedy by priority: more pivots, then the deeper root.
  std::vector<size_t> order(drafts.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (drafts[a].pivots.size() != drafts[b].pivots.size()) {
      return drafts[a].pivots.size() > drafts[b].pivots.size();
    }
    return drafts[a].root_depth > drafts[b].root_depth;
  });
  std::vector<std::vector<size_t>> rivals(drafts.size());
  for (auto [outer, inner] : conflicts) {
    rivals[outer].push_back(inner);
    rivals[inner].push_back(outer);
  }
  std::vector<bool> decided(drafts.size(), false);
  for (size_t i : order) {
    decided[i] = true;
    for (size_t r : rivals[i]) {
      if (decided[r] && drafts[r].kept) drafts[i].kept = false;
    }
    if (drafts[i].kept) continue;
    notes.push_back(absl::StrCat(drafts[i].pivots.size(), " pivots under ", NodePath(drafts[i].root),
                                 " form no data area: it would hold another area in one of its records, "
                                 "or lie in one, and the other has more pivots (or is the inner of two "
                                 "equal); data areas do not nest"));
  }
  drafts.erase(std::remove_if(drafts.begin(), drafts.end(), [](const Draft& d) { return !d.kept; }),
               drafts.end());
}

Typing IdentifyWith(const std::vector<annotate::Annotation>& annotations, int pivot, const NodeFacts& facts,
                    const std::string& pivot_name, const Options& options) {
  Typing typing;
  const std::vector<Pivot> pivots = PivotNodes(annotations, pivot, facts);
  if (pivots.empty()) {
    typing.notes.push_back(absl::StrCat("no pivot (", pivot_name, ") annotated on the page"));
    return typing;
  }
  if (pivots.size() == 1) {
    typing.notes.push_back(absl::StrCat("one pivot (", pivot_name,
                                        ") annotated on the page: a data area needs two"));
    return typing;
  }
  std::vector<Draft> drafts = ClusterPivots(pivots, options);
  ResolveNesting(drafts, pivots, typing.notes);
  DissolveCutOffRecords(drafts, pivots, options, typing.notes);
  Rehome(drafts, pivots, options, typing.notes);
  if (drafts.empty()) {
    typing.notes.push_back(absl::StrCat("the ", pivots.size(), " pivot (", pivot_name,
                                        ") annotations form no data area: no two are within depth ",
                                        options.theta_depth, " and distance ", options.theta_dist,
                                        " of each other"));
  }
  // Areas in document order of their first pivot.
  std::sort(drafts.begin(), drafts.end(),
            [](const Draft& a, const Draft& b) { return a.pivots.front() < b.pivots.front(); });
  for (const Draft& d : drafts) {
    DataArea area;
    area.root = d.root;
    for (int p : d.pivots) area.pivots.push_back(pivots[p].node);
    typing.areas.push_back(std::move(area));
  }
  return typing;
}

}  // namespace

// ---------------------------------------------------------------------------
// segment (Alg. 3)
// ---------------------------------------------------------------------------
namespace {

bool HasText(html::Node n) {
  for (html::Node d = n; d; d = d.NextInDocument(n)) {
    if (d.is_text() && !html::IsBlank(d.RawText())) return true;
  }
  return false;
}

bool HoldsAnnotation(html::Node n, const absl::flat_hash_set<RawNode>& annotated) {
  for (html::Node d = n; d; d = d.NextInDocument(n)) {
    if (annotated.contains(d.raw())) return true;
  }
  return false;
}

// The children records are made of: element children, "empty" ones (no
// text, no annotation: <br>, spacer images) collapsed as separators.
std::vector<html::Node> RecordChildren(html::Node root, const absl::flat_hash_set<RawNode>& annotated) {
  std::vector<html::Node> children;
  for (html::Node c = root.first_child(); c; c = c.next_sibling()) {
    if (c.is_element() && (HasText(c) || HoldsAnnotation(c, annotated))) children.push_back(c);
  }
  return children;
}

// The tag trees of an area's children, built on first use, and the
// normalised distances between them, memoised across shifts.
class TreeCache {
 public:
  TreeCache(const std::vector<html::Node>& children, int max_nodes)
      : children_(children), trees_(children.size()), built_(children.size(), false), max_nodes_(max_nodes) {}

  double Distance(int a, int b) {
    if (a > b) std::swap(a, b);
    const uint64_t key = (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b);
    if (auto it = memo_.find(key); it != memo_.end()) return it->second;
    const TagTree& ta = Tree(a);
    const TagTree& tb = Tree(b);
    const double d = static_cast<double>(TreeEditDistance(ta, tb)) / (ta.size() + tb.size());
    memo_.emplace(key, d);
    return d;
  }
  int truncated() const { return truncated_; }

 private:
  const TagTree& Tree(int i) {
    if (!built_[i]) {
      trees_[i] = TagTree::FromNode(children_[i], max_nodes_);
      built_[i] = true;
      if (trees_[i].truncated()) ++truncated_;
    }
    return trees_[i];
  }
  const std::vector<html::Node>& children_;
  std::vector<TagTree> trees_;
  std::vector<bool> built_;
  int max_nodes_;
  int truncated_ = 0;
  absl::flat_hash_map<uint64_t, double> memo_;
};

// irregularity(R): over pairs of records, Σ_j TED(r_a[j], r_b[j]) /
// (|T(r_a[j])| + |T(r_b[j])|). With more than max_pairs + 1 records each
// record meets its max_pairs / 2 nearest on either side.
double Irregularity(const std::vector<int>& starts, int len, int max_pairs, TreeCache& cache) {
  const int n = static_cast<int>(starts.size());
  const int window = n - 1 <= max_pairs ? n - 1 : std::max(1, max_pairs / 2);
  double sum = 0;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n && b - a <= window; ++b) {
      for (int j = 0; j < len; ++j) sum += cache.Distance(starts[a] + j, starts[b] + j);
    }
  }
  return sum;
}

// Len: the most frequent finite lspace, ties to the smallest; 0 when none.
int RecordLength(const std::vector<int>& leading) {
  absl::flat_hash_map<int, int> frequency;
  for (size_t i = 0; i + 1 < leading.size(); ++i) ++frequency[leading[i + 1] - leading[i]];
  int len = 0;
  int best = 0;
  for (auto [space, count] : frequency) {
    if (count > best || (count == best && space < len)) len = space, best = count;
  }
  return len;
}

// Drops the noise prefix (lspace < Len) and, after each kept leading node,
// the ones following it closer than Len (delete-skip). The last leading
// node's lspace is infinite.
std::vector<int> FrameLeading(const std::vector<int>& leading, int len) {
  size_t first = 0;
  while (first + 1 < leading.size() && leading[first + 1] - leading[first] < len) ++first;
  std::vector<int> kept;
  for (size_t i = first; i < leading.size(); ++i) {
    if (kept.empty() || leading[i] - kept.back() >= len) kept.push_back(leading[i]);
  }
  return kept;
}

struct AreaWork {
  DataArea area;
  int number = 0;  // for notes, 1-based in document order
};

class Segmenter {
 public:
  Segmenter(const std::vector<annotate::Annotation>& annotations, const Options& options,
            std::vector<std::string>& notes)
      : options_(options), notes_(notes) {
    for (const annotate::Annotation& a : annotations) {
      if (a.node) annotated_.insert(a.node.raw());
    }
  }

  // Segments `work`; returns false (with a note) when it yields no records,
  // and pushes row areas to `grid_rows` instead when it is a grid.
  bool Segment(AreaWork& work, std::vector<AreaWork>& grid_rows);

  void ReportCaps() {
    if (truncated_ > 0) {
      notes_.push_back(absl::StrCat("edit distance capped at ", options_.ted_max_nodes, " nodes in ",
                                    truncated_, " subtrees"));
    }
    if (pair_capped_ > 0) {
      notes_.push_back(absl::StrCat("irregularity compared each record with at most ",
                                    options_.ted_max_pairs, " others in ", pair_capped_,
                                    " areas (up to ", most_records_, " records)"));
    }
  }

 private:
  std::string Name(const AreaWork& w) const {
    return absl::StrCat("area ", w.number, " (", NodePath(w.area.root), ")");
  }
  bool SplitGrid(AreaWork& work, const absl::flat_hash_map<RawNode, std::vector<html::Node>>& by_leading,
                 std::vector<AreaWork>& grid_rows);
  bool ChooseShift(AreaWork& work, const std::vector<html::Node>& children, const std::vector<int>& leading);

  const Options& options_;
  std::vector<std::string>& notes_;
  absl::flat_hash_set<RawNode> annotated_;
  int truncated_ = 0;
  int pair_capped_ = 0;
  size_t most_records_ = 0;
};

// The digest's grid resolution: when most leading nodes hold several
// pivots, each such leading node becomes an area root (a grid's rows).
// Whether a leading node holds several records, grid-like: its pivots lie
// in two or more of its children, all of one tag (cells: td, li, div). An
// old and a new price (<del> and <span>) in one record are not cells.
bool HoldsCells(html::Node leading, const std::vector<html::Node>& pivots) {
  if (pivots.size() < 2) return false;
  absl::flat_hash_set<RawNode> cells;
  std::string_view tag;
  for (html::Node p : pivots) {
    html::Node cell = p.ChildOfAncestor(leading);
    if (!cell.is_element()) return false;
    if (tag.empty()) tag = cell.tag();
    if (cell.tag() != tag) return false;
    cells.insert(cell.raw());
  }
  return cells.size() >= 2;
}

bool Segmenter::SplitGrid(AreaWork& work,
                          const absl::flat_hash_map<RawNode, std::vector<html::Node>>& by_leading,
                          std::vector<AreaWork>& grid_rows) {
  size_t several = 0;
  for (html::Node c = work.area.root.first_child(); c; c = c.next_sibling()) {
    auto it = by_leading.find(c.raw());
    if (it != by_leading.end() && HoldsCells(c, it->second)) ++several;
  }
  if (several * 2 <= by_leading.size()) return false;
  size_t rows = 0;
  for (html::Node c = work.area.root.first_child(); c; c = c.next_sibling()) {
    auto it = by_leading.find(c.raw());
    if (it == by_leading.end() || !HoldsCells(c, it->second)) continue;
    AreaWork row;
    row.area.root = c;
    row.area.pivots = it->second;
    row.number = work.number;
    grid_rows.push_back(std::move(row));
    ++rows;
  }
  notes_.push_back(absl::StrCat(Name(work), ": a grid (", several, " of ", by_leading.size(),
                                " leading nodes hold pivots in several cells of one tag): segmented as ", rows,
                                " rows"));
  return true;
}

bool Segmenter::Segment(AreaWork& work, std::vector<AreaWork>& grid_rows) {
  DataArea& area = work.area;
  const std::vector<html::Node> children = RecordChildren(area.root, annotated_);
  absl::flat_hash_map<RawNode, int> index;
  for (size_t i = 0; i < children.size(); ++i) index[children[i].raw()] = static_cast<int>(i);
  absl::flat_hash_map<RawNode, std::vector<html::Node>> by_leading;
  for (html::Node p : area.pivots) {
    html::Node leading = p.ChildOfAncestor(area.root);
    if (index.contains(leading.raw())) by_leading[leading.raw()].push_back(p);
  }
  if (SplitGrid(work, by_leading, grid_rows)) return false;
  std::vector<int> leading;
  for (const auto& [node, pivots] : by_leading) leading.push_back(index[node]);
  std::sort(leading.begin(), leading.end());
  const int len = RecordLength(leading);
  if (len > 0) leading = FrameLeading(leading, len);
  if (leading.size() < 2) {
    notes_.push_back(absl::StrCat(Name(work), ": one record only, dropped"));
    return false;
  }
  area.record_length = len;
  return ChooseShift(work, children, leading);
}

bool Segmenter::ChooseShift(AreaWork& work, const std::vector<html::Node>& children,
                            const std::vector<int>& leading) {
  DataArea& area = work.area;
  const int len = area.record_length;
  const int count = static_cast<int>(children.size());
  TreeCache cache(children, options_.ted_max_nodes);
  int best = -1;
  for (int shift = 0; shift < len; ++shift) {
    std::vector<int> starts(leading);
    for (int& s : starts) s -= shift;
    if (starts.front() < 0 || starts.back() + len > count) {  // runs off the children
      area.shift_irregularity.push_back(HUGE_VAL);
      continue;
    }
    area.shift_irregularity.push_back(Irregularity(starts, len, options_.ted_max_pairs, cache));
    if (best < 0 || area.shift_irregularity[shift] < area.shift_irregularity[best]) best = shift;
  }
  truncated_ += cache.truncated();
  if (static_cast<int>(leading.size()) - 1 > options_.ted_max_pairs) {
    ++pair_capped_;
    most_records_ = std::max(most_records_, leading.size());
  }
  if (best < 0) {
    notes_.push_back(absl::StrCat(Name(work), ": ", leading.size(), " records of length ", len,
                                  " run off the area's children at every start shift, dropped"));
    return false;
  }
  area.shift = best;
  for (int s : leading) {
    Record record;
    for (int j = 0; j < len; ++j) record.nodes.push_back(children[s - best + j]);
    area.records.push_back(std::move(record));
  }
  return true;
}

}  // namespace

// ---------------------------------------------------------------------------
// align (Alg. 4)
// ---------------------------------------------------------------------------
namespace {

// A Def. 6 tag path as steps: the record start's tag, then first-child /
// next-sibling steps each with the tag stepped onto (text nodes skipped).
enum StepKind : uint64_t { kSelf = 0, kFirstChild = 1, kNextSibling = 2 };
using TagPath = std::vector<uint64_t>;

uint64_t Step(StepKind kind, html::Node n) {
  return (static_cast<uint64_t>(kind) << 32) | html::TagToken(n.tag());
}
StepKind KindOf(uint64_t step) { return static_cast<StepKind>(step >> 32); }
uint32_t TokenOf(uint64_t step) { return static_cast<uint32_t>(step); }

// Where an element lies in its record: its tag path from the record start
// and, for document order within the record, its position (sibling steps
// per level).
struct Located {
  int record = -1;
  TagPath path;
  std::vector<int> position;
};

class AreaAligner {
 public:
  AreaAligner(DataArea& area) : area_(area) {
    for (size_t r = 0; r < area.records.size(); ++r) {
      for (html::Node n : area.records[r].nodes) top_[n.raw()] = static_cast<int>(r);
    }
  }

  // The record `element` lies in, with its tag path; record -1 outside.
  Located Locate(html::Node element) {
    Located where;
    std::vector<html::Node> chain;  // element up to its record node
    html::Node n = element;
    for (; n && !(n == area_.root); n = n.parent()) {
      chain.push_back(n);
      if (top_.contains(n.raw())) break;
    }
    if (!n || n == area_.root) return where;
    where.record = top_[n.raw()];
    html::Node at = area_.records[where.record].nodes.front();
    Remember(at);
    where.path.push_back(Step(kSelf, at));
    where.position.push_back(0);
    for (; !(at == chain.back()); at = at.next_element_sibling()) {
      where.path.push_back(Step(kNextSibling, at.next_element_sibling()));
      ++where.position.back();
      Remember(at.next_element_sibling());
    }
    for (size_t level = chain.size() - 1; level-- > 0;) {
      html::Node c = chain[level + 1].first_element_child();
      where.path.push_back(Step(kFirstChild, c));
      where.position.push_back(0);
      Remember(c);
      for (; !(c == chain[level]); c = c.next_element_sibling()) {
        where.path.push_back(Step(kNextSibling, c.next_element_sibling()));
        ++where.position.back();
        Remember(c.next_element_sibling());
      }
    }
    return where;
  }

  // The element at `path` in record `r`, or null; a path leaving the record
  // at the top level finds nothing.
  html::Node Resolve(const TagPath& path, int r) const {
    html::Node n = area_.records[r].nodes.front();
    if (TokenOf(path[0]) != html::TagToken(n.tag())) return html::Node();
    bool top = true;
    for (size_t i = 1; i < path.size() && n; ++i) {
      if (KindOf(path[i]) == kFirstChild) {
        if (top) {
          auto it = top_.find(n.raw());
          if (it == top_.end() || it->second != r) return html::Node();
          top = false;
        }
        n = n.first_element_child();
      } else {
        n = n.next_element_sibling();
      }
      if (n && TokenOf(path[i]) != html::TagToken(n.tag())) return html::Node();
    }
    if (n && top) {
      auto it = top_.find(n.raw());
      if (it == top_.end() || it->second != r) return html::Node();
    }
    return n;
  }

  // The path as relative XPath 1.0 from the record start.
  std::string Render(const TagPath& path) const {
    std::string xpath;
    for (size_t i = 0; i < path.size(); ++i) {
      const std::string test = NameTest(TokenOf(path[i]));
      switch (KindOf(path[i])) {
        case kSelf:
          xpath = test.empty() ? "self::*" : absl::StrCat("self::", test);
          break;
        case kFirstChild:
          absl::StrAppend(&xpath, "/*[1]", test.empty() ? "" : absl::StrCat("[self::", test, "]"));
          break;
        case kNextSibling:
          absl::StrAppend(&xpath, "/following-sibling::*[1]",
                          test.empty() ? "" : absl::StrCat("[self::", test, "]"));
          break;
      }
    }
    return xpath;
  }

 private:
  void Remember(html::Node n) { names_.try_emplace(html::TagToken(n.tag()), n.tag()); }

  // The tag as an XPath name test, "" when it is not an NCName XPath could
  // read (Gumbo keeps names like "a:b"); the step then tests position only.
  std::string NameTest(uint32_t token) const {
    auto it = names_.find(token);
    if (it == names_.end() || it->second.empty()) return "";
    const std::string_view name = it->second;
    auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; };
    if (!letter(name[0])) return "";
    for (char c : name) {
      if (!letter(c) && !(c >= '0' && c <= '9') && c != '-' && c != '.') return "";
    }
    return std::string(name);
  }

  DataArea& area_;
  absl::flat_hash_map<RawNode, int> top_;
  absl::flat_hash_map<uint32_t, std::string_view> names_;
};

struct Typed {
  html::Node node;
  const annotate::Annotation* annotation = nullptr;  // the first on the node
  Located where;
  std::string inferred_value;  // when not annotated
};

// An inferred node's value: its whole normalised text (the digest's
// reading of section 3.5, for gazetteer and free-text attributes), or for an
// attribute with a value regex what the regex selects in it; nullopt when
// the regex finds nothing (a path that holds a postcode in most records
// does not make the others' text a postcode).
std::optional<std::string> InferredValue(const schema::CompiledSchema& schema, int attribute, html::Node n) {
  std::string text = n.Text();
  if (schema.ValueRegex(attribute) == nullptr) {
    if (text.empty()) return std::nullopt;
    return text;
  }
  return schema.SelectValue(attribute, text);
}

struct Thresholds {
  double infer;
  double keep;
  bool keep_by_sibling_runs;
};

// The path with runs of same-tag next-sibling steps below the top level
// collapsed into their first step (Options::keep_by_sibling_runs).
TagPath CollapseSiblingRuns(const TagPath& path) {
  TagPath out;
  bool below_top = false;
  for (uint64_t step : path) {
    below_top = below_top || KindOf(step) == kFirstChild;
    if (below_top && KindOf(step) == kNextSibling && !out.empty() && TokenOf(out.back()) == TokenOf(step)) continue;
    out.push_back(step);
  }
  return out;
}

// Alg. 4 for one attribute of one area: supports of the annotated tag paths
// (Def. 7, the record start counted, annotations lifted to their element),
// the Def. 8 test, the first typed node per record.
void AlignAttribute(const schema::CompiledSchema& schema, int attribute, const std::vector<Typed>& annotated,
                    Thresholds t, AreaAligner& aligner, DataArea& area) {
  const size_t records = area.records.size();
  absl::flat_hash_map<TagPath, absl::flat_hash_set<int>> holders;
  for (const Typed& a : annotated) holders[a.where.path].insert(a.where.record);
  auto support = [&](const TagPath& p) {
    auto it = holders.find(p);
    return it == holders.end() ? 0.0 : static_cast<double>(it->second.size()) / records;
  };
  std::vector<Typed> best(records);
  auto consider = [&](Typed candidate) {
    Typed& b = best[candidate.where.record];
    if (!b.node || candidate.where.position < b.where.position) b = std::move(candidate);
  };
  absl::flat_hash_map<TagPath, absl::flat_hash_set<int>> run_holders;
  if (t.keep_by_sibling_runs) {
    for (const Typed& a : annotated) run_holders[CollapseSiblingRuns(a.where.path)].insert(a.where.record);
  }
  auto run_support = [&](const TagPath& p) {
    if (!t.keep_by_sibling_runs) return 0.0;
    return static_cast<double>(run_holders[CollapseSiblingRuns(p)].size()) / records;
  };
  absl::flat_hash_map<RawNode, const Typed*> by_node;
  for (const Typed& a : annotated) {
    by_node.try_emplace(a.node.raw(), &a);
    if (support(a.where.path) > t.keep || run_support(a.where.path) > t.keep) consider(a);
  }
  for (const auto& [path, holding] : holders) {
    if (static_cast<double>(holding.size()) / records <= t.infer) continue;
    for (size_t r = 0; r < records; ++r) {
      html::Node n = aligner.Resolve(path, static_cast<int>(r));
      if (!n || by_node.contains(n.raw())) continue;  // annotated ones are in already
      std::optional<std::string> value = InferredValue(schema, attribute, n);
      if (!value) continue;
      consider(Typed{n, nullptr, aligner.Locate(n), *std::move(value)});
    }
  }
  for (size_t r = 0; r < records; ++r) {
    if (!best[r].node) continue;
    AttributeMatch match;
    match.attribute = attribute;
    match.node = best[r].node;
    match.annotated = best[r].annotation != nullptr;
    match.value = match.annotated ? best[r].annotation->value : best[r].inferred_value;
    match.support = support(best[r].where.path);
    match.tag_path = aligner.Render(best[r].where.path);
    area.records[r].attributes.push_back(std::move(match));
  }
}

void AlignArea(DataArea& area, const std::vector<std::vector<Typed>>& by_attribute, AreaAligner& aligner,
               const schema::CompiledSchema& schema, const Options& options);

// Aligns the attributes of every area. Each annotation is located once: in
// the nearest area above it whose records hold it.
void AlignAreas(std::vector<DataArea>& areas, const std::vector<annotate::Annotation>& annotations,
                const schema::CompiledSchema& schema, const Options& options) {
  absl::flat_hash_map<RawNode, size_t> by_root;
  std::vector<AreaAligner> aligners;
  aligners.reserve(areas.size());
  for (size_t i = 0; i < areas.size(); ++i) {
    by_root[areas[i].root.raw()] = i;
    aligners.emplace_back(areas[i]);
  }
  std::vector<std::vector<std::vector<Typed>>> typed(areas.size(),
                                                     std::vector<std::vector<Typed>>(schema.size()));
  absl::flat_hash_set<std::pair<RawNode, int>> seen;
  for (const annotate::Annotation& a : annotations) {
    if (!ValidAnnotation(a, schema.size())) continue;
    html::Node element = TypedElement(a.node);
    if (!element || !seen.insert({element.raw(), a.attribute}).second) continue;
    for (html::Node up = element.parent(); up; up = up.parent()) {
      auto it = by_root.find(up.raw());
      if (it == by_root.end()) continue;
      Located where = aligners[it->second].Locate(element);
      if (where.record < 0) continue;
      typed[it->second][a.attribute].push_back(Typed{element, &a, std::move(where)});
      break;
    }
  }
  for (size_t i = 0; i < areas.size(); ++i) {
    if (!areas[i].records.empty()) AlignArea(areas[i], typed[i], aligners[i], schema, options);
  }
}

void AlignArea(DataArea& area, const std::vector<std::vector<Typed>>& by_attribute, AreaAligner& aligner,
               const schema::CompiledSchema& schema, const Options& options) {
  for (size_t i = 0; i < schema.size(); ++i) {
    const bool regular = schema.IsRegular(i);
    const Thresholds t{regular ? options.infer_regular : options.infer_optional,
                       regular ? options.keep_regular : options.keep_optional, options.keep_by_sibling_runs};
    AlignAttribute(schema, static_cast<int>(i), by_attribute[i], t, aligner, area);
  }
}

}  // namespace

// ---------------------------------------------------------------------------
// The stages and Run
// ---------------------------------------------------------------------------

namespace {

Typing SegmentAreas(const std::vector<annotate::Annotation>& annotations, Typing typing,
                    const Options& options) {
  Segmenter segmenter(annotations, options, typing.notes);
  std::vector<AreaWork> queue;
  for (size_t i = 0; i < typing.areas.size(); ++i) {
    queue.push_back(AreaWork{std::move(typing.areas[i]), static_cast<int>(i) + 1});
  }
  typing.areas.clear();
  // A grid's rows are segmented in their turn (each one level deeper, so
  // the queue drains within the page's depth).
  for (size_t next = 0; next < queue.size(); ++next) {
    std::vector<AreaWork> rows;
    AreaWork work = std::move(queue[next]);
    if (segmenter.Segment(work, rows)) typing.areas.push_back(std::move(work.area));
    for (AreaWork& row : rows) queue.push_back(std::move(row));
  }
  segmenter.ReportCaps();
  return typing;
}

// Whether the record's text is nothing but pivot annotations' text (an
// <option> of a price filter, a bar of a price histogram).
bool BareRecord(const Record& r, const absl::flat_hash_set<RawNode>& pivots) {
  for (html::Node top : r.nodes) {
    for (html::Node n = top; n; n = n.NextInDocument(top)) {
      if (n.is_text() && !pivots.contains(n.raw()) && !html::IsBlank(n.RawText())) return false;
    }
  }
  return true;
}

// Records hold several attributes (a multi-attribute vertical): an area
// most of whose records hold nothing but their pivot's text (a price
// filter's <option>s) is not a list of records: dropped with a note. The
// test reads text, not annotations, so it holds at any gazetteer coverage.
void DropAreasOfBarePivots(Typing& typing, const std::vector<annotate::Annotation>& annotations,
                           const schema::CompiledSchema& schema) {
  absl::flat_hash_set<RawNode> pivots;
  for (const annotate::Annotation& a : annotations) {
    if (a.attribute == schema.pivot()) pivots.insert(a.node.raw());
  }
  std::vector<DataArea> kept;
  for (DataArea& area : typing.areas) {
    size_t bare = 0;
    for (const Record& r : area.records) bare += BareRecord(r, pivots) ? 1 : 0;
    if (bare * 2 <= area.records.size()) {
      kept.push_back(std::move(area));
      continue;
    }
    typing.notes.push_back(absl::StrCat("the area at ", NodePath(area.root), " dropped: ", bare, " of its ",
                                        area.records.size(), " records hold nothing but the pivot (",
                                        schema.attribute(schema.pivot()).name(), ")"));
  }
  typing.areas = std::move(kept);
}

absl::Status CheckOptions(const Options& o) {
  if (o.theta_depth < 0 || o.theta_dist < 0) {
    return absl::InvalidArgumentError(absl::StrCat("AMBER options: theta_depth (", o.theta_depth,
                                                   ") and theta_dist (", o.theta_dist, ") must be >= 0"));
  }
  if (o.ted_max_nodes < 1 || o.ted_max_pairs < 1) {
    return absl::InvalidArgumentError(absl::StrCat("AMBER options: ted_max_nodes (", o.ted_max_nodes,
                                                   ") and ted_max_pairs (", o.ted_max_pairs,
                                                   ") must be >= 1"));
  }
  for (double t : {o.infer_regular, o.infer_optional, o.keep_regular, o.keep_optional}) {
    if (!(t >= 0 && t <= 1)) {
      return absl::InvalidArgumentError(
          absl::StrCat("AMBER options: support thresholds must lie in [0, 1], got ", t));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckAnnotations(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
                              const schema::CompiledSchema& schema) {
  for (size_t i = 0; i < annotations.size(); ++i) {
    const annotate::Annotation& a = annotations[i];
    if (a.attribute < 0 || static_cast<size_t>(a.attribute) >= schema.size()) {
      return absl::InvalidArgumentError(absl::StrCat("annotation ", i, " names attribute ", a.attribute,
                                                     "; schema '", schema.vertical(), "' has ",
                                                     schema.size()));
    }
    if (!a.node || a.node.raw()->doc != page.doc()) {
      return absl::InvalidArgumentError(absl::StrCat("annotation ", i, " (", schema.attribute(a.attribute).name(),
                                                     ") has no node of page ", page.url()));
    }
  }
  return absl::OkStatus();
}

}  // namespace

Typing Identify(const html::Page& page, const std::vector<annotate::Annotation>& annotations, int pivot,
                const Options& options) {
  const NodeFacts facts(page, annotations);
  return IdentifyWith(annotations, pivot, facts, absl::StrCat("attribute ", pivot), options);
}

Typing Segment(const html::Page& page, const std::vector<annotate::Annotation>& annotations, Typing identified,
               const Options& options) {
  (void)page;
  return SegmentAreas(annotations, std::move(identified), options);
}

Typing Align(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
             const schema::CompiledSchema& schema, Typing segmented, const Options& options) {
  (void)page;
  AlignAreas(segmented.areas, annotations, schema, options);
  return segmented;
}

absl::StatusOr<Typing> Run(const html::Page& page, const std::vector<annotate::Annotation>& annotations,
                           const schema::CompiledSchema& schema, const Options& options) {
  if (!schema.record_level()) {
    return absl::InvalidArgumentError(
        absl::StrCat("schema '", schema.vertical(), "' is not record-level: AMBER needs record_level"));
  }
  const int pivot = schema.pivot();
  if (pivot < 0) {
    return absl::InvalidArgumentError(absl::StrCat("schema '", schema.vertical(), "' has no pivot attribute"));
  }
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  if (absl::Status s = CheckAnnotations(page, annotations, schema); !s.ok()) return s;
  const NodeFacts facts(page, annotations);
  Typing typing = IdentifyWith(annotations, pivot, facts, schema.attribute(pivot).name(), options);
  typing = SegmentAreas(annotations, std::move(typing), options);
  AlignAreas(typing.areas, annotations, schema, options);
  DropAreasOfBarePivots(typing, annotations, schema);
  return typing;
}

namespace {

std::string Irregularities(const std::vector<double>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    absl::StrAppend(&out, i == 0 ? "" : ", ", i, ": ");
    if (std::isinf(values[i])) {
      absl::StrAppend(&out, "refused (runs off the children)");
    } else {
      absl::StrAppend(&out, absl::SixDigits(values[i]));
    }
  }
  return out;
}

void ExplainRecord(const Record& record, size_t number, const schema::CompiledSchema& schema, std::string& out) {
  absl::StrAppend(&out, "    record ", number, ":");
  for (html::Node n : record.nodes) absl::StrAppend(&out, " ", NodePath(n));
  absl::StrAppend(&out, "\n");
  for (const AttributeMatch& m : record.attributes) {
    const std::string name = m.attribute >= 0 && static_cast<size_t>(m.attribute) < schema.size()
                                 ? schema.attribute(m.attribute).name()
                                 : absl::StrCat("attribute ", m.attribute);
    absl::StrAppend(&out, "      ", name, " = \"", m.value, "\" (", m.annotated ? "annotated" : "inferred",
                    ", support ", absl::SixDigits(m.support), ") at ", m.tag_path, "\n");
  }
}

}  // namespace

std::string ExplainTyping(const Typing& typing, const html::Page& page, const schema::CompiledSchema& schema) {
  std::string out = absl::StrCat("page ", page.url(), ": ", typing.areas.size(), " data area",
                                 typing.areas.size() == 1 ? "" : "s", "\n");
  for (size_t a = 0; a < typing.areas.size(); ++a) {
    const DataArea& area = typing.areas[a];
    absl::StrAppend(&out, "  area ", a + 1, " at ", NodePath(area.root), ": ", area.pivots.size(),
                    " pivots, record length ", area.record_length, ", start shift ", area.shift, " of ",
                    area.shift_irregularity.size(), " (irregularity ", Irregularities(area.shift_irregularity),
                    "), ", area.records.size(), " records\n");
    for (size_t r = 0; r < area.records.size(); ++r) ExplainRecord(area.records[r], r + 1, schema, out);
  }
  for (const std::string& note : typing.notes) absl::StrAppend(&out, "  note: ", note, "\n");
  return out;
}

}  // namespace vertex::amber
