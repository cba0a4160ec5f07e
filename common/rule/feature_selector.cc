#include "common/rule/feature_selector.h"

#include <algorithm>
#include <map>
#include <optional>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::rule {
namespace {

constexpr std::pair<Kind, const char*> kKindNames[] = {
    {Kind::kTag, "tag"},
    {Kind::kId, "id"},
    {Kind::kClass, "class"},
    {Kind::kPrecedingTag, "prec-tag"},
    {Kind::kPrecedingId, "prec-id"},
    {Kind::kPrecedingClass, "prec-class"},
    {Kind::kFollowingTag, "foll-tag"},
    {Kind::kFollowingId, "foll-id"},
    {Kind::kFollowingClass, "foll-class"},
    {Kind::kOutLeftText, "out-left-text"},
    {Kind::kOutLeftWord, "out-left-word"},
    {Kind::kOutRightText, "out-right-text"},
    {Kind::kOutRightWord, "out-right-word"},
    {Kind::kInLeftText, "in-left-text"},
    {Kind::kInRightText, "in-right-text"},
};

bool IsSiblingKind(Kind k) { return k >= Kind::kPrecedingTag && k <= Kind::kFollowingClass; }
bool IsPresenceKind(Kind k) {
  return k == Kind::kId || k == Kind::kClass || k == Kind::kPrecedingId || k == Kind::kPrecedingClass ||
         k == Kind::kFollowingId || k == Kind::kFollowingClass;
}

// Relative cost of testing a feature: structure first, texts last.
int Cost(const Feature& f, bool text_nodes) {
  if (f.kind == Kind::kTag || f.kind == Kind::kId || f.kind == Kind::kClass) return 0;
  if (IsSiblingKind(f.kind)) return 1;
  if (f.kind == Kind::kInLeftText || f.kind == Kind::kInRightText) return text_nodes ? 2 : 4;
  return 3;
}

}  // namespace

v1::XPathFeature FeatureToProto(const Feature& feature) {
  v1::XPathFeature p;
  for (const auto& [kind, name] : kKindNames) {
    if (kind == feature.kind) p.set_kind(name);
  }
  p.set_level(feature.level);
  p.set_index(feature.index);
  for (const std::string& v : feature.values) p.add_values(v);
  return p;
}

absl::StatusOr<Feature> FeatureFromProto(const v1::XPathFeature& proto) {
  Feature f;
  const auto it = std::find_if(std::begin(kKindNames), std::end(kKindNames),
                               [&](const auto& e) { return proto.kind() == e.second; });
  if (it == std::end(kKindNames)) return absl::InvalidArgumentError("feature kind \"" + proto.kind() + "\" is unknown");
  f.kind = it->first;
  f.level = proto.level();
  f.index = proto.index();
  f.values.assign(proto.values().begin(), proto.values().end());
  if (f.level < 0 || f.level > kMaxLevel) {
    return absl::InvalidArgumentError(absl::StrCat("feature level ", f.level, " is outside 0..", kMaxLevel));
  }
  const bool sibling = IsSiblingKind(f.kind);
  if (sibling ? (f.index < 1 || f.index > kMaxSibling) : f.index != 0) {
    return absl::InvalidArgumentError(absl::StrCat("feature index ", f.index, " is invalid for kind ", proto.kind()));
  }
  if (f.values.empty() && !IsPresenceKind(f.kind)) {
    return absl::InvalidArgumentError("feature of kind " + proto.kind() + " has no value");
  }
  if (f.kind >= Kind::kOutLeftText && f.level != 0) {
    // Natively an anchor tests the node's own text, whatever the level.
    return absl::InvalidArgumentError(
        absl::StrCat("feature of kind ", proto.kind(), " has level ", f.level, "; anchors are at level 0"));
  }
  return f;
}

std::string RenderPositionalXPath(const std::vector<Feature>& features, bool text_nodes,
                                  const v1::Position& position) {
  const std::string x = RenderXPath(features, text_nodes);
  if (position.kind() == v1::Position::NONE) return x;
  const std::string base = x + (text_nodes ? "[normalize-space()]" : "");
  switch (position.kind()) {
    case v1::Position::FROM_START:
      return absl::StrCat("(", base, ")[", position.n(), "]");
    case v1::Position::FROM_END:
      return position.n() == 0 ? absl::StrCat("(", base, ")[last()]")
                               : absl::StrCat("(", base, ")[last()-", position.n(), "]");
    case v1::Position::STEP:
      return RenderStepXPath(features, text_nodes, position.n());
    default:
      return x;
  }
}

absl::StatusOr<FeatureSelector> FeatureSelector::Create(const v1::AttributeRule& rule) {
  if (rule.features_size() == 0) return absl::InvalidArgumentError("the rule has no features");
  std::vector<Feature> features;
  for (const v1::XPathFeature& p : rule.features()) {
    absl::StatusOr<Feature> f = FeatureFromProto(p);
    if (!f.ok()) return f.status();
    if (rule.text_nodes() && f->kind == Kind::kTag && f->level == 0) {
      // Natively it never holds on a text node; the XPath would ignore it.
      return absl::InvalidArgumentError("a tag feature at level 0 cannot select text nodes");
    }
    features.push_back(*std::move(f));
  }
  return FeatureSelector(std::move(features), rule.text_nodes(), rule.position());
}

FeatureSelector::FeatureSelector(std::vector<Feature> features, bool text_nodes, v1::Position position)
    : features_(std::move(features)), text_nodes_(text_nodes), position_(std::move(position)) {
  std::stable_sort(features_.begin(), features_.end(), [&](const Feature& a, const Feature& b) {
    return Cost(a, text_nodes_) < Cost(b, text_nodes_);
  });
  for (const Feature& f : features_) {
    if (f.kind == Kind::kTag && f.level == 0 && !text_nodes_) tags_ = f.values;
  }
}

namespace {

html::Node Ancestor(html::Node n, int level) {
  for (int i = 0; i < level && n; ++i) n = n.parent();
  return n;
}

html::Node Sibling(html::Node n, int index, bool preceding) {
  int seen = 0;
  for (html::Node s = preceding ? n.previous_sibling() : n.next_sibling(); s;
       s = preceding ? s.previous_sibling() : s.next_sibling()) {
    if (s.is_element() && ++seen == index) return s;
  }
  return html::Node();
}

bool AnyEquals(std::string_view v, const std::vector<std::string>& values) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

// Candidate::Holds for the structural kinds, without copies or allocation.
// nullopt for the text kinds, which need a Candidate.
std::optional<bool> StructuralHolds(html::Node node, const Feature& f) {
  if (f.kind >= Kind::kOutLeftText) return std::nullopt;
  html::Node n = Ancestor(node, f.level);
  if (!n) return false;
  if (IsSiblingKind(f.kind)) n = Sibling(n, f.index, f.kind <= Kind::kPrecedingClass);
  if (!n || !n.is_element()) return false;
  switch (f.kind) {
    case Kind::kTag:
    case Kind::kPrecedingTag:
    case Kind::kFollowingTag:
      return AnyEquals(n.tag(), f.values);
    default: {
      const bool id = f.kind == Kind::kId || f.kind == Kind::kPrecedingId || f.kind == Kind::kFollowingId;
      const std::string_view name = id ? "id" : "class";
      if (!n.has_attribute(name)) return false;
      return f.values.empty() || AnyEquals(n.attribute_view(name), f.values);
    }
  }
}

}  // namespace

bool FeatureSelector::Matches(html::Node node, std::optional<Candidate>* candidate, AnchorMemo* memo) const {
  if (text_nodes_ ? !node.is_text() : !node.is_element()) return false;
  if (!tags_.empty() && !AnyEquals(node.tag(), tags_)) return false;
  for (const Feature& f : features_) {  // cheapest first; texts only when needed
    std::optional<bool> holds = StructuralHolds(node, f);
    if (!holds) {
      if (!*candidate) candidate->emplace(node, memo);
      holds = (*candidate)->Holds(f);
    }
    if (!*holds) return false;
  }
  return true;
}

std::vector<html::Node> FeatureSelector::Select(const html::Page& page) const {
  return std::move(SelectAll({this}, page)[0]);
}

std::vector<std::vector<html::Node>> FeatureSelector::SelectAll(const std::vector<const FeatureSelector*>& selectors,
                                                                const html::Page& page) {
  std::vector<std::vector<html::Node>> out(selectors.size());
  const html::Node root = page.root();
  AnchorMemo memo;  // one pass over the page: anchor walks stay linear in it
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    std::optional<Candidate> candidate;
    for (size_t i = 0; i < selectors.size(); ++i) {
      if (selectors[i] != nullptr && selectors[i]->Matches(n, &candidate, &memo)) out[i].push_back(n);
    }
  }
  for (size_t i = 0; i < selectors.size(); ++i) {
    if (selectors[i] != nullptr && selectors[i]->position_.kind() != v1::Position::NONE) {
      out[i] = selectors[i]->ApplyPosition(std::move(out[i]));
    }
  }
  return out;
}

std::vector<html::Node> FeatureSelector::ApplyPosition(std::vector<html::Node> nodes) const {
  if (text_nodes_) {
    std::erase_if(nodes, [](html::Node n) { return html::NormalizeXmlSpace(n.RawText()).empty(); });
  }
  const int n = position_.n();
  const int size = static_cast<int>(nodes.size());
  switch (position_.kind()) {
    case v1::Position::FROM_START:
      if (n >= 1 && n <= size) return {nodes[n - 1]};
      return {};
    case v1::Position::FROM_END:
      if (n >= 0 && n < size) return {nodes[size - 1 - n]};
      return {};
    case v1::Position::STEP: {
      std::vector<html::Node> out;
      std::map<void*, int> rank;  // per parent
      for (html::Node node : nodes) {
        if (++rank[node.parent().raw()] == n) out.push_back(node);
      }
      return out;
    }
    default:
      return nodes;
  }
}

}  // namespace vertex::rule
