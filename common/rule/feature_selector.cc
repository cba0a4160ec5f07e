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

// Blank as XPath's normalize-space() sees it (space, tab, CR, LF), for a
// text node: what Candidate and ApplyPosition decide by normalising it.
bool IsBlankText(html::Node text) {
  const unsigned char* c = text.raw()->content;
  if (c == nullptr) return true;
  for (; *c; ++c) {
    if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r') return false;
  }
  return true;
}

// What structural features read of an element, read once per page.
struct ElementFacts {
  html::Node node;
  std::string_view tag;  // "" for a node that is not an element
  bool has_id = false, has_class = false;
  std::string_view id, klass;  // "" when absent or without a value
  // On the walk's path: how many entries up to this one, from it up, are
  // elements (its ancestors as Node::parent() finds them).
  int elements_up = 0;
};

// The value of an attribute node as Node::attribute_view reads it.
std::string_view AttributeValue(const _xmlAttr* a) {
  if (a->children == nullptr || a->children->content == nullptr) return {};
  return reinterpret_cast<const char*>(a->children->content);
}

// One pass over the attributes; the first "id" and "class" count, as
// Node::attribute_view finds them.
ElementFacts FactsOf(html::Node n) {
  ElementFacts f;
  f.node = n;
  f.tag = n.tag();
  if (!n.is_element()) return f;
  for (const _xmlAttr* a = n.raw()->properties; a != nullptr; a = a->next) {
    const std::string_view name = reinterpret_cast<const char*>(a->name);
    if (!f.has_id && name == "id") {
      f.has_id = true;
      f.id = AttributeValue(a);
    } else if (!f.has_class && name == "class") {
      f.has_class = true;
      f.klass = AttributeValue(a);
    }
  }
  return f;
}

// The slot a non-sibling structural kind reads of `n`; nullopt when `n`
// has none (no such attribute).
std::optional<std::string_view> FactsSlot(const ElementFacts& n, Kind kind) {
  if (kind == Kind::kTag) return n.tag;
  if (kind == Kind::kId) return n.has_id ? std::optional(n.id) : std::nullopt;
  return n.has_class ? std::optional(n.klass) : std::nullopt;
}

// A structural feature's test on facts read once (StructuralHolds, for a
// node that is not a sibling's).
bool FactsHold(const ElementFacts& n, const Feature& f) {
  const std::optional<std::string_view> v = FactsSlot(n, f.kind);
  if (!v) return false;
  return (f.values.empty() && f.kind != Kind::kTag) || AnyEquals(*v, f.values);
}

// The own test of a sibling kind (tag, id or class).
Kind SiblingOwnKind(Kind k) {
  if (k == Kind::kPrecedingTag || k == Kind::kFollowingTag) return Kind::kTag;
  if (k == Kind::kPrecedingId || k == Kind::kFollowingId) return Kind::kId;
  return Kind::kClass;
}

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
bool EndsWith(std::string_view s, std::string_view p) {
  return s.size() >= p.size() && s.substr(s.size() - p.size()) == p;
}

// normalize-space() of `s` into `out`, reusing its buffer (NormalizeXmlSpace).
void NormalizeXmlSpaceInto(std::string_view s, std::string* out) {
  out->clear();
  bool pending_space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pending_space = !out->empty();
      continue;
    }
    if (pending_space) out->push_back(' ');
    pending_space = false;
    out->push_back(c);
  }
}

// The equality test a selector is keyed by (see SelectorSet): the level-0
// tag of an element rule, else its first tag, id or class feature with
// values, else its left anchor text; null when it has none.
const Feature* KeyFeature(const std::vector<Feature>& features) {
  for (const Feature& f : features) {
    if ((f.kind == Kind::kTag || f.kind == Kind::kId || f.kind == Kind::kClass) && !f.values.empty()) return &f;
  }
  for (const Feature& f : features) {
    if (f.kind == Kind::kOutLeftText) return &f;
  }
  return nullptr;
}

}  // namespace

SelectorSet::SelectorSet(std::vector<const FeatureSelector*> selectors) : selectors_(std::move(selectors)) {
  for (size_t i = 0; i < selectors_.size(); ++i) {
    if (selectors_[i] != nullptr) Index(i);
  }
}

void SelectorSet::Index(size_t i) {
  const FeatureSelector& s = *selectors_[i];
  const int kind = s.text_nodes_ ? 1 : 0;
  Kind key_kind = Kind::kTag;
  int key_level = 0;
  const std::vector<std::string>* values = &s.tags_;
  if (s.tags_.empty()) {
    const Feature* key = KeyFeature(s.features_);
    if (key == nullptr) {
      unkeyed_[kind].push_back(i);
      return;
    }
    key_kind = key->kind, key_level = key->level, values = &key->values;
  }
  auto slot = std::find_if(slots_[kind].begin(), slots_[kind].end(),
                           [&](const Slot& o) { return o.kind == key_kind && o.level == key_level; });
  if (slot == slots_[kind].end()) slot = slots_[kind].insert(slot, Slot{key_kind, key_level, {}});
  for (const std::string& v : *values) {
    std::vector<size_t>& keyed = slot->by_value[v];
    if (keyed.empty() || keyed.back() != i) keyed.push_back(i);
  }
}

// SelectorSet::SelectAll's walk (see the header): one preorder pass over
// the page with the path of ancestors' facts, the last non-blank text
// passed, and the current node's texts computed on first use.
class SelectionPass {
 public:
  SelectionPass(const SelectorSet& set, const html::Page& page);
  std::vector<std::vector<html::Node>> Run();

 private:
  void Visit(html::Node n);
  // Tries selector `i` on the current node.
  void Try(size_t i);
  bool Matches(const FeatureSelector& s);
  bool Holds(const Feature& f);
  bool StructuralHolds(const Feature& f);
  bool TextHolds(const Feature& f);
  // The value of `slot` for the current node; nullopt when it has none.
  std::optional<std::string_view> SlotValue(const SelectorSet::Slot& slot);
  // The ancestor-or-self at `level` as Node::parent() finds it; null when
  // there is none (past the root element, or a parent that is no element).
  const ElementFacts* Ancestor(int level) const;
  const std::string& Left();
  const std::string& Right();
  const std::string& OwnText();
  bool Blank();

  const SelectorSet& set_;
  const html::Page& page_;
  std::vector<std::vector<html::Node>> out_;
  std::vector<size_t> counted_;  // FROM_START: nodes ApplyPosition counts
  std::vector<bool> done_;       // has every node it keeps
  size_t left_to_do_ = 0;
  std::vector<ElementFacts> path_;  // the current node's ancestors, root first
  AnchorMemo memo_;                 // right anchors, and the text before the root
  // The current node and what was computed of it.
  html::Node node_;
  ElementFacts self_;
  std::optional<bool> blank_;
  std::optional<std::string> own_text_;
  const std::string* right_ = nullptr;
  // The last non-blank text node passed, and its normalised text once asked.
  html::Node last_text_;
  bool left_ready_ = false;
  std::string left_;
};

SelectionPass::SelectionPass(const SelectorSet& set, const html::Page& page)
    : set_(set), page_(page), out_(set.selectors_.size()), counted_(out_.size()), done_(out_.size(), true) {
  for (size_t i = 0; i < out_.size(); ++i) {
    const FeatureSelector* s = set.selectors_[i];
    // FROM_START n < 1 selects nothing, whatever the walk finds.
    if (s == nullptr || (s->position_.kind() == v1::Position::FROM_START && s->position_.n() < 1)) continue;
    done_[i] = false;
    ++left_to_do_;
  }
  path_.reserve(64);
}

std::vector<std::vector<html::Node>> SelectionPass::Run() {
  // Preorder as Node::NextInDocument(root), keeping the path.
  const html::Node root = page_.root();
  for (html::Node n = root; n && left_to_do_ > 0;) {
    Visit(n);
    if (html::Node child = n.first_child()) {
      ElementFacts& top = path_.emplace_back(n == node_ && n.is_element() ? self_ : FactsOf(n));
      top.elements_up = !n.is_element() ? 0 : path_.size() == 1 ? 1 : path_[path_.size() - 2].elements_up + 1;
      n = child;
      continue;
    }
    html::Node up = n;
    n = html::Node();
    while (up && !(up == root)) {
      if (html::Node sibling = up.next_sibling()) {
        n = sibling;
        break;
      }
      up = up.parent();
      if (up) path_.pop_back();
    }
  }
  for (size_t i = 0; i < out_.size(); ++i) {
    const FeatureSelector* s = set_.selectors_[i];
    if (s != nullptr && s->position_.kind() != v1::Position::NONE) out_[i] = s->ApplyPosition(std::move(out_[i]));
  }
  return std::move(out_);
}

void SelectionPass::Visit(html::Node n) {
  const bool text = n.is_text();
  if (!text && !n.is_element()) return;
  node_ = n;
  blank_.reset();
  own_text_.reset();
  right_ = nullptr;
  if (!text) self_ = FactsOf(n);
  for (size_t i : set_.unkeyed_[text]) Try(i);
  for (const SelectorSet::Slot& slot : set_.slots_[text]) {
    const std::optional<std::string_view> v = SlotValue(slot);
    if (!v) continue;
    if (auto it = slot.by_value.find(*v); it != slot.by_value.end()) {
      for (size_t i : it->second) Try(i);
    }
  }
  if (text && !Blank()) {  // the left anchor of the nodes after it
    last_text_ = n;
    left_ready_ = false;
  }
}

void SelectionPass::Try(size_t i) {
  const FeatureSelector& s = *set_.selectors_[i];
  if (done_[i] || !Matches(s)) return;
  out_[i].push_back(node_);
  if (s.position_.kind() == v1::Position::FROM_START && (!s.text_nodes_ || !Blank()) &&
      ++counted_[i] >= static_cast<size_t>(s.position_.n())) {
    done_[i] = true;  // it has its n-th node
    --left_to_do_;
  }
}

std::optional<std::string_view> SelectionPass::SlotValue(const SelectorSet::Slot& slot) {
  if (slot.kind == Kind::kOutLeftText) return Left();
  const ElementFacts* n = Ancestor(slot.level);
  if (n == nullptr) return std::nullopt;
  return FactsSlot(*n, slot.kind);
}

bool SelectionPass::Matches(const FeatureSelector& s) {
  if (!s.tags_.empty() && !AnyEquals(self_.tag, s.tags_)) return false;
  for (const Feature& f : s.features_) {  // cheapest first
    if (!Holds(f)) return false;
  }
  return true;
}

bool SelectionPass::Holds(const Feature& f) {
  return f.kind >= Kind::kOutLeftText ? TextHolds(f) : StructuralHolds(f);
}

const ElementFacts* SelectionPass::Ancestor(int level) const {
  if (level == 0) return node_.is_element() ? &self_ : nullptr;
  if (path_.empty() || path_.back().elements_up < level) return nullptr;
  return &path_[path_.size() - level];
}

bool SelectionPass::StructuralHolds(const Feature& f) {
  if (!IsSiblingKind(f.kind)) {
    const ElementFacts* n = Ancestor(f.level);
    return n != nullptr && FactsHold(*n, f);
  }
  html::Node base = node_;
  if (f.level > 0) {
    const ElementFacts* a = Ancestor(f.level);
    if (a == nullptr) return false;
    base = a->node;
  }
  const html::Node s = Sibling(base, f.index, f.kind <= Kind::kPrecedingClass);
  if (!s || !s.is_element()) return false;
  const Kind own = SiblingOwnKind(f.kind);  // the sibling's own test
  if (own == Kind::kTag) return AnyEquals(s.tag(), f.values);
  const std::string_view name = own == Kind::kId ? "id" : "class";
  if (!s.has_attribute(name)) return false;
  return f.values.empty() || AnyEquals(s.attribute_view(name), f.values);
}

bool SelectionPass::TextHolds(const Feature& f) {
  const std::string* text = nullptr;
  bool (*test)(std::string_view, std::string_view) = nullptr;
  switch (f.kind) {
    case Kind::kOutLeftText: text = &Left(); break;
    case Kind::kOutLeftWord: text = &Left(), test = EndsWith; break;
    case Kind::kOutRightText: text = &Right(); break;
    case Kind::kOutRightWord: text = &Right(), test = StartsWith; break;
    case Kind::kInLeftText: text = &OwnText(), test = StartsWith; break;
    default: text = &OwnText(), test = EndsWith; break;  // kInRightText
  }
  if (text->empty()) return false;
  // A blank text node has no anchor (Candidate::Holds).
  if (f.kind <= Kind::kOutRightWord && node_.is_text() && Blank()) return false;
  for (const std::string& want : f.values) {
    if (test ? test(*text, want) : *text == want) return true;
  }
  return false;
}

const std::string& SelectionPass::Left() {
  if (!last_text_) return memo_.Text(page_.root(), true);  // before the root, if anything
  if (!left_ready_) {
    const unsigned char* content = last_text_.raw()->content;  // non-blank: not null
    NormalizeXmlSpaceInto(reinterpret_cast<const char*>(content), &left_);
    left_ready_ = true;
  }
  return left_;
}

const std::string& SelectionPass::Right() {
  if (right_ == nullptr) right_ = &memo_.Text(node_, false);
  return *right_;
}

const std::string& SelectionPass::OwnText() {
  if (!own_text_) own_text_ = html::NormalizeXmlSpace(node_.RawText());
  return *own_text_;
}

bool SelectionPass::Blank() {
  if (!blank_) blank_ = node_.is_text() && IsBlankText(node_);
  return *blank_;
}

std::vector<std::vector<html::Node>> SelectorSet::SelectAll(const html::Page& page) const {
  return SelectionPass(*this, page).Run();
}

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
  return SelectorSet(selectors).SelectAll(page);
}

std::vector<std::vector<html::Node>> FeatureSelector::SelectAllReferenceForTesting(
    const std::vector<const FeatureSelector*>& selectors, const html::Page& page) {
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
