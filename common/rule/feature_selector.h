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

  // Select() of every selector, in one walk of the page; a node's texts
  // (anchors) are computed once for all selectors. Null selectors give an
  // empty list.
  static std::vector<std::vector<html::Node>> SelectAll(const std::vector<const FeatureSelector*>& selectors,
                                                        const html::Page& page);

 private:
  // `candidate` caches the node's texts across selectors.
  bool Matches(html::Node node, std::optional<Candidate>* candidate, AnchorMemo* memo = nullptr) const;
  std::vector<html::Node> ApplyPosition(std::vector<html::Node> nodes) const;

  std::vector<Feature> features_;  // cheapest test first
  bool text_nodes_;
  v1::Position position_;
  std::vector<std::string> tags_;  // level-0 tag test of element rules, if any
};

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_FEATURE_SELECTOR_H_
