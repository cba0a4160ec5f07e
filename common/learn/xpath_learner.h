// Robust XPath generation (Vertex paper, III-C.2, Algorithm 3).
//
// Given sample pages of one cluster, some annotated (their nodes holding the
// attribute's value are "positive"), finds the feature set whose XPath
//  1. selects every positive node (recall 1),
//  2. has maximum precision on the annotated pages,
//  3. then maximum support (fraction of unannotated pages where it selects
//     a node that can hold a value: see XPathLearnOptions::value_filter),
//  4. then (partial list labels, ExamplePage::partial; those nodes are not
//     judged for precision) the fewest nodes selected past the last labelled
//     value of the partial pages outside the labelled values' lowest common
//     ancestor (the list's container) or inside it at a place no labelled
//     value has in its record (its tag path below the container differs:
//     a pager's "« Newer" after a blog's entries), then the most inside it
//     at a labelled value's place: the list goes on there and ends where
//     its container does (a page with one labelled node shows no container
//     and does not count here),
//  5. then minimum distance (the farthest feature's level),
// by Apriori-style enumeration: candidate sets of k+1 features are built
// from k-sets that are still imprecise and not dominated by the best found.
// Features hold for every positive by construction, so every conjunction
// keeps recall 1.
//
// Criteria 3 and 5 are swapped with respect to the paper, which prefers
// distance to support. With one annotated page the paper's order picks a
// neighbouring content value as anchor (distance 0, found on no other page)
// over the class of the value's element (distance 1, found on every page).
// Pruning stays sound: adding a feature only lowers support and raises
// distance. Feature sets are evaluated natively as bitsets over all
// candidate nodes; the winner is then evaluated on every page by
// FeatureSelector (the engine's native evaluator) and must select exactly
// the same nodes. (LearnRule checks the XPath with libxml2.)
//
// Thread-safety: pure function of its inputs.
#ifndef VERTEX_COMMON_LEARN_XPATH_LEARNER_H_
#define VERTEX_COMMON_LEARN_XPATH_LEARNER_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/rule/features.h"

namespace vertex::learn {

struct ExamplePage {
  const html::Page* page = nullptr;
  // The annotated nodes (all text nodes, or all elements); empty for an
  // unannotated page.
  std::vector<html::Node> positives;
  bool annotated = false;
  // The positives are the first values of the page's list only (a partial
  // label, issue 14): candidates after the last positive in document order
  // are not judged (neither right nor wrong for precision).
  bool partial = false;
};

// The nodes of `nodes` that `page` judges: all of them, or on a partial page
// those not after its last positive in document order (preorder).
std::vector<html::Node> JudgedNodes(const ExamplePage& page, std::vector<html::Node> nodes);

struct XPathLearnOptions {
  // Feature sets examined per Apriori level at most; past it the level is
  // cut (and the result says so).
  size_t max_candidates_per_level = 20000;
  // Largest feature set tried.
  int max_features = 4;
  // Multi-valued attributes may select several nodes per unannotated page.
  bool multi_valued = false;
  // Runner-up precise feature sets kept (see LearnedXPath::alternatives).
  size_t max_alternatives = 3;
  // Whether a node of a page can hold a value (a typed attribute's regex
  // finds one in its text, an element has the attribute the rule reads).
  // On unannotated pages only such nodes count: for support (a rule
  // anchored where the value is absent selects a node that holds none) and
  // for ambiguity. Null: every node can.
  std::function<bool(const html::Page&, html::Node)> value_filter;
  // Texts that never become anchors (label features): the values annotated
  // on the sample pages, for every attribute of the rule, not only the one
  // learnt. A value of the annotated page beside the annotated node ("$80"
  // before a category) is data, not a label: on another page it differs.
  // An anchor is refused when its text equals one of these or holds one as
  // whole words (compared folded: html::FoldText). Empty: none refused.
  std::vector<std::string> refused_anchor_texts;
};

struct LearnedXPath {
  std::vector<rule::Feature> features;
  std::string xpath;
  double precision = 0;  // on annotated pages
  double support = 0;    // on unannotated pages
  int distance = 0;
  // Precision 1 and (single-valued) at most one node per unannotated page.
  bool precise = false;
  // A level was cut at max_candidates_per_level.
  bool cap_hit = false;
  size_t feature_count = 0;     // features generated from the positives
  size_t sets_evaluated = 0;
  // Other precise feature sets, best first, that select something else than
  // the winner on some unannotated page: where they disagree, the annotated
  // pages did not tell which structure holds the value (the editor loop asks
  // for such a page).
  std::vector<std::vector<rule::Feature>> alternatives;
};

// Generates the features that hold for every positive node: per slot, its
// value when all positives share it, a disjunction of 2-3 values, and
// attribute presence. Empty when `positives` is. With `uniform_per_page`
// (multi-valued attributes), a slot whose value differs between positives
// of one page is skipped: it tells list items apart (a neighbour's text, a
// sibling at a position), which is not what makes them values.
// `page_of[i]` is the page of positives[i].
std::vector<rule::Feature> GenerateFeatures(const std::vector<rule::Candidate>& positives,
                                      const std::vector<size_t>& page_of, bool uniform_per_page);

// Anchors. An anchor feature (kOutLeftText ... kInRightText) is generated
// only when none of its values is, or holds as whole words, a value
// annotated on the sample pages (XPathLearnOptions::refused_anchor_texts).
// Template anchors first (issue 12, 5): LearnXPath learns with the anchors
// whose every value is template text, on at least half of the sample pages
// (annotated or not) and on 2 or more; one sample page admits every anchor.
// When template anchors give no precise rule (a minority layout's label:
// "Published:" on list pages beside "Publication date" on table pages) the
// other anchors are allowed, and their rule wins if it is precise. When the
// template rule is precise, the other anchors' precise sets stay among its
// alternatives (the editor loop asks for a page where they disagree).
// Among anchors a short label (<= kMaxLabelWords words) wins ties over a
// long sentence (see Fragility in the .cc).
inline constexpr int kMaxLabelWords = 6;

// What Algorithm 3 derives from the sample pages alone, whatever the
// attribute: each page's candidate nodes (non-blank text nodes; elements)
// with their texts and nearest texts before and after, the texts the pages
// share, and each feature's truth on every candidate. LearnRule builds one
// for its pages and learns every attribute with it, so this is computed
// once per call rather than twice per attribute (the passes with template
// anchors and with all anchors). Built lazily: the candidates of a node
// type when an attribute first needs them, a feature's bitset when a
// feature set first holds it. The answers are those of a fresh index.
//
// Thread-safety: thread-safe (attributes are learnt on several threads at
// once); the pages must outlive it.
class SampleIndex {
 public:
  explicit SampleIndex(std::vector<const html::Page*> pages);
  ~SampleIndex();
  SampleIndex(const SampleIndex&) = delete;
  SampleIndex& operator=(const SampleIndex&) = delete;

  // Whether `pages` are the index's pages, in its order.
  bool Indexes(const std::vector<ExamplePage>& pages) const;

  // Test-only: the candidates of a node type (non-blank text nodes not in
  // script/style, or elements), page by page in document order, and
  // whether feature `f` holds on each, as the index computes it.
  std::vector<html::Node> CandidatesForTesting(bool text_nodes) const;
  std::vector<bool> FeatureForTesting(bool text_nodes, const rule::Feature& f) const;

  struct Impl;  // in the .cc

 private:
  friend absl::StatusOr<LearnedXPath> LearnXPath(const std::vector<ExamplePage>& pages,
                                                 const XPathLearnOptions& options, const SampleIndex* index);
  std::unique_ptr<Impl> impl_;
};

// Algorithm 3. `index`, when given, must index the pages of `pages` in
// their order (InvalidArgument otherwise); null: one is built for this
// call. InvalidArgument when no page has a positive node, or
// positives mix text nodes and elements; FailedPrecondition when no feature
// holds for all positives; Internal when FeatureSelector disagrees with the
// bitsets (a bug, reported rather than hidden).
absl::StatusOr<LearnedXPath> LearnXPath(const std::vector<ExamplePage>& pages,
                                        const XPathLearnOptions& options = {}, const SampleIndex* index = nullptr);

}  // namespace vertex::learn

#endif  // VERTEX_COMMON_LEARN_XPATH_LEARNER_H_
