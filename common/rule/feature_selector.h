// Native evaluation of a learnt XPath: the feature set it was rendered from
// (features.h) plus an optional positional predicate, evaluated in one walk
// of the DOM instead of by libxml2. Selects exactly the nodes the rendered
// XPath selects, in document order; the learner checks this on every page
// it learns from, and tests check it on whole sites. Learnt XPaths test
// anchor texts through the preceding:: and following:: axes, which libxml2
// evaluates by walking the whole axis for every candidate; here features are
// checked cheapest first and anchor texts found by short local walks.
//
// Thread-safety: immutable after construction; Select() may be called from
// many threads at once.
#ifndef VERTEX_COMMON_RULE_FEATURE_SELECTOR_H_
#define VERTEX_COMMON_RULE_FEATURE_SELECTOR_H_

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/rule/features.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::rule {

v1::XPathFeature FeatureToProto(const Feature& feature);
// InvalidArgument naming the field for an unknown kind, a level outside
// 0..kMaxLevel (an anchor kind at a level other than 0), a sibling index
// outside 1..kMaxSibling (0 for other kinds), or values on a kind that needs
// them missing.
absl::StatusOr<Feature> FeatureFromProto(const v1::XPathFeature& proto);

// The XPath of `features` (RenderXPath) with `position` applied:
// FROM_START (B)[n], FROM_END (B)[last()-n], where B is the XPath with
// [normalize-space()] added to its last step for text nodes; STEP
// RenderStepXPath (B[n] on the top-down form).
std::string RenderPositionalXPath(const std::vector<Feature>& features, bool text_nodes,
                                  const v1::Position& position);

class FeatureSelector {
 public:
  // From an attribute rule's features, text_nodes and position.
  // InvalidArgument when it has no features, one does not convert, or a
  // text-node rule has a tag feature at level 0.
  static absl::StatusOr<FeatureSelector> Create(const v1::AttributeRule& rule);

  FeatureSelector(std::vector<Feature> features, bool text_nodes, v1::Position position);

  // The nodes the rendered XPath selects on `page`, in document order.
  std::vector<html::Node> Select(const html::Page& page) const;

  // Select() of every selector, in one walk of the page:
  // SelectorSet(selectors).SelectAll(page). Null selectors give an empty
  // list.
  static std::vector<std::vector<html::Node>> SelectAll(const std::vector<const FeatureSelector*>& selectors,
                                                        const html::Page& page);

  // SelectAll as it was before the shared walk: every selector tests every
  // node through a Candidate (features.h) and an AnchorMemo. The same nodes
  // by contract; kept as the reference that differential tests and
  // bench/extract_bench --check-selectors compare SelectAll with.
  static std::vector<std::vector<html::Node>> SelectAllReferenceForTesting(
      const std::vector<const FeatureSelector*>& selectors, const html::Page& page);

 private:
  friend class SelectorSet;
  friend class SelectionPass;  // feature_selector.cc: SelectorSet's walk

  // `candidate` caches the node's texts across selectors.
  bool Matches(html::Node node, std::optional<Candidate>* candidate, AnchorMemo* memo = nullptr) const;
  std::vector<html::Node> ApplyPosition(std::vector<html::Node> nodes) const;

  std::vector<Feature> features_;  // cheapest test first
  bool text_nodes_;
  v1::Position position_;
  std::vector<std::string> tags_;  // level-0 tag test of element rules, if any
};

// Selectors evaluated together on pages (an extraction rule's attributes),
// indexed once. SelectAll gives what each selector's Select() gives, in one
// walk of the page, computing what features test once per node for all
// selectors: the tag, id and class of the node and of each ancestor (read
// once, when the walk enters the element), the nearest non-blank text
// before the node (carried along the walk: the last non-blank text passed,
// normalised once), its own text and the nearest text after it (on first
// use, shared). Each selector is keyed by one equality test it makes (its
// tag, id or class at some level, or its left anchor text); per node, a
// key's slot is read once and only the selectors keyed by its value are
// tried, with those that have no such test. A FROM_START selector stops
// being tried once it has its n-th node, and the walk stops when no
// selector is left.
//
// Thread-safety: immutable after construction; SelectAll() may be called
// from many threads at once.
class SelectorSet {
 public:
  // `selectors` (null entries allowed) must outlive the set and not move.
  explicit SelectorSet(std::vector<const FeatureSelector*> selectors);

  // One list per selector, in the constructor's order: its nodes on
  // `page`, in document order; empty for a null selector.
  std::vector<std::vector<html::Node>> SelectAll(const html::Page& page) const;

 private:
  friend class SelectionPass;
  // Selectors keyed by one (kind, level) test, by the value it wants.
  struct Slot {
    Kind kind;
    int level;
    std::unordered_map<std::string_view, std::vector<size_t>> by_value;
  };
  void Index(size_t i);

  std::vector<const FeatureSelector*> selectors_;
  // By node kind: [0] elements, [1] text nodes.
  std::vector<Slot> slots_[2];
  std::vector<size_t> unkeyed_[2];
};

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_FEATURE_SELECTOR_H_
