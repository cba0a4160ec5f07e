#include "common/learn/feature_selector.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/html/text.h"

namespace vertex::learn {
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
      return absl::StrCat(base, "[", position.n(), "]");
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

bool FeatureSelector::Matches(html::Node node) const {
  if (text_nodes_ ? !node.is_text() : !node.is_element()) return false;
  if (!tags_.empty() && std::find(tags_.begin(), tags_.end(), node.tag()) == tags_.end()) return false;
  const Candidate c(node);
  return std::all_of(features_.begin(), features_.end(), [&](const Feature& f) { return c.Holds(f); });
}

std::vector<html::Node> FeatureSelector::Select(const html::Page& page) const {
  std::vector<html::Node> out;
  const html::Node root = page.root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (Matches(n)) out.push_back(n);
  }
  if (position_.kind() == v1::Position::NONE) return out;
  return ApplyPosition(std::move(out));
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

}  // namespace vertex::learn
