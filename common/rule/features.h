// Structural and textual features of a node (Vertex paper, III-C.1), each
// both a predicate evaluated natively on the DOM and an XPath fragment.
//
// A feature is (kind, level, values): a test on the node's ancestor at
// distance `level` (0: the node itself), e.g. ("tag", 3, {div}) or
// ("class", 1, {price, sale}) — a disjunction of up to three values — or,
// with no values, the presence of the attribute ("id", 1, any). Sibling
// kinds test the index-th preceding/following sibling element of that
// ancestor. Anchor kinds (level 0 only) test the nearest non-blank text
// before/after the node ("out"), or the node's own text ("in"): its whole
// text or its boundary word. Out-anchors never hold on a blank text node
// (whitespace only; never a value either).
//
// Native evaluation and the XPath rendering agree by construction: text
// comparisons use XPath's normalize-space semantics (NormalizeXmlSpace).
// The learner still checks the final XPath with libxml2, and
// tests/rule/feature_selector_test.cc checks random feature sets.
//
// Thread-safety: values; Candidate holds Nodes of a Page that must outlive it
// and caches lazily (one Candidate per thread).
#ifndef VERTEX_COMMON_RULE_FEATURES_H_
#define VERTEX_COMMON_RULE_FEATURES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/html/page.h"

namespace vertex::rule {

enum class Kind : uint8_t {
  kTag,
  kId,
  kClass,
  kPrecedingTag,
  kPrecedingId,
  kPrecedingClass,
  kFollowingTag,
  kFollowingId,
  kFollowingClass,
  kOutLeftText,   // nearest non-blank text before the node equals a value
  kOutLeftWord,   // ... ends with a value (its last word)
  kOutRightText,  // nearest non-blank text after the node equals a value
  kOutRightWord,  // ... starts with a value (its first word)
  kInLeftText,    // the node's text starts with a value
  kInRightText,   // the node's text ends with a value
};

// The most levels features look up from a node.
inline constexpr int kMaxLevel = 12;
// Sibling features look at the 1st to 3rd sibling.
inline constexpr int kMaxSibling = 3;
// At most this many values in a disjunction (the paper: 3).
inline constexpr int kMaxDisjunction = 3;

struct Feature {
  Kind kind = Kind::kTag;
  int level = 0;
  int index = 0;  // sibling kinds: 1..kMaxSibling
  // Sorted; empty means "the attribute is present" (id and class kinds).
  std::vector<std::string> values;

  bool operator==(const Feature& o) const {
    return kind == o.kind && level == o.level && index == o.index && values == o.values;
  }
  // "class@1=price|sale", for diagnostics.
  std::string DebugString() const;
};

// The nearest non-blank text node before and after nodes of one page (as
// XPath's preceding:: and following:: axes order them), memoised for a pass
// over many nodes of that page. Each walk records the answer for every node
// it crosses, so a pass crosses each node at most once per direction: linear
// in the page, where walking afresh from every node costs the square of the
// longest run of text-less nodes (nested <template>s or <svg> groups,
// empty table cells: 30 s for a 1 MB page). Normalised anchor texts are
// kept too, so a huge text node that anchors many nodes is normalised once.
//
// Thread-safety: not thread-safe; one per pass (and thread) over a page,
// which must outlive it.
class AnchorMemo {
 public:
  // normalize-space() of the nearest non-blank text before (or after) `n`,
  // excluding n's ancestors and descendants; "" when there is none. Valid
  // while the memo lives.
  const std::string& Text(html::Node n, bool before);

 private:
  _xmlNode* Nearest(html::Node n, bool before);

  std::unordered_map<_xmlNode*, _xmlNode*> nearest_[2];  // by `before`
  std::unordered_map<_xmlNode*, std::string> normalized_;
  std::vector<_xmlNode*> crossed_;  // scratch
};

// What a feature of a given slot looks at, precomputed for one node.
class Candidate {
 public:
  // `node` is an element or a text node of a live Page. `memo`, when not
  // null, is shared with the other Candidates of a pass over the page (see
  // AnchorMemo) and must outlive this Candidate.
  explicit Candidate(html::Node node, AnchorMemo* memo = nullptr);

  html::Node node() const { return node_; }
  // The slot's value for this node; false when the slot does not exist (no
  // ancestor at that level, no such sibling, no such attribute).
  bool Value(Kind kind, int level, int index, std::string* value) const;
  bool Holds(const Feature& f) const;
  // normalize-space(.) of the node, and the nearest non-blank text before
  // and after it (normalised; "" when none). Computed on first use.
  const std::string& text() const;
  const std::string& left() const;
  const std::string& right() const;

 private:
  AnchorMemo& Memo() const;

  html::Node node_;
  std::vector<html::Node> ancestors_;  // [0] = node itself
  mutable std::optional<std::string> text_;
  AnchorMemo* memo_;
  mutable std::unique_ptr<AnchorMemo> own_memo_;  // when none is shared
  mutable const std::string* left_ = nullptr;     // in a memo
  mutable const std::string* right_ = nullptr;
};

// XPath 1.0 string literal for `s` ('...', "..." or concat(...)).
std::string XPathLiteral(const std::string& s);

// The XPath selecting nodes that satisfy every feature of `features`.
//
// XPaths with an out-anchor (a label) are rendered label-first, with
// forward steps from the label's occurrences. A text node's:
//   //text()[normalize-space()='ISBN-13:']
//       /following::text()[normalize-space()][1][parent::td/parent::tr][...]
// (preceding:: from a right label): a non-blank text N has label L as its nearest non-blank text
// before it exactly when N is the nearest non-blank text after L, so this
// selects the same nodes as testing the anchor on each candidate,
// "//tr/td/text()[preceding::text()[normalize-space(.)!=''][1]
// [normalize-space(.)='ISBN-13:']]", which libxml2 evaluates by collecting
// the whole preceding:: axis of every candidate (quadratic: ~0.5 s on a
// 95 KB page). The ancestors' steps become one parent:: predicate, the other
// features predicates on the node. An element's candidates are the
// following siblings (and their descendants) of the label's ancestors up to
// the first with a following sibling holding text (see ElementLabelFirst in
// features.cc), narrowed by the anchor's exact test. Every anchor tested as
// a predicate (a second anchor, or the element's) uses the local steps too,
// never the whole preceding::/following:: axis.
//
// XPaths without an anchor are rendered top down: "//" then one step per
// level from the highest down to the node, each `*` or a tag name with the
// predicates of its features; the last step is text() for text nodes, else
// * (or the tag).
std::string RenderXPath(const std::vector<Feature>& features, bool text_nodes);

// The top-down form of any feature set, anchors as predicates of the node's
// step testing the whole preceding:: (following::) axis, as every XPath was
// rendered before label-first ones: libxml2 collects that axis for every
// candidate, so it costs time quadratic in the page. Selects what RenderXPath selects
// except blank text nodes after a label. For comparisons
// (bench/xpath_export_bench.cc); rules use RenderXPath.
std::string RenderTopDownXPath(const std::vector<Feature>& features, bool text_nodes);

// RenderXPath keeping only the nodes that are the n-th (n >= 1) among the
// nodes it selects under their parent, blank text nodes not counted
// (Position STEP): "X[normalize-space()][n]" on the top-down form; on the
// label-first form, whose last step counts along following::, a count of
// the preceding siblings the top-down step selects.
std::string RenderStepXPath(const std::vector<Feature>& features, bool text_nodes, int n);

}  // namespace vertex::rule

#endif  // VERTEX_COMMON_RULE_FEATURES_H_
