#include "common/rule/features.h"

#include <algorithm>

#include "common/html/text.h"

namespace vertex::rule {
namespace {

html::Node SiblingElement(html::Node n, int index, bool preceding) {
  int seen = 0;
  for (html::Node s = preceding ? n.previous_sibling() : n.next_sibling(); s;
       s = preceding ? s.previous_sibling() : s.next_sibling()) {
    if (s.is_element() && ++seen == index) return s;
  }
  return html::Node();
}

bool IsOutAnchorKind(Kind k) { return k >= Kind::kOutLeftText && k <= Kind::kOutRightWord; }

bool IsAttributeKind(Kind k) {
  return k == Kind::kId || k == Kind::kClass || k == Kind::kPrecedingId || k == Kind::kPrecedingClass ||
         k == Kind::kFollowingId || k == Kind::kFollowingClass;
}

const char* KindName(Kind k) {
  switch (k) {
    case Kind::kTag: return "tag";
    case Kind::kId: return "id";
    case Kind::kClass: return "class";
    case Kind::kPrecedingTag: return "prec-tag";
    case Kind::kPrecedingId: return "prec-id";
    case Kind::kPrecedingClass: return "prec-class";
    case Kind::kFollowingTag: return "foll-tag";
    case Kind::kFollowingId: return "foll-id";
    case Kind::kFollowingClass: return "foll-class";
    case Kind::kOutLeftText: return "out-left-text";
    case Kind::kOutLeftWord: return "out-left-word";
    case Kind::kOutRightText: return "out-right-text";
    case Kind::kOutRightWord: return "out-right-word";
    case Kind::kInLeftText: return "in-left-text";
    case Kind::kInRightText: return "in-right-text";
  }
  return "?";
}

std::string LastWord(const std::string& s) {
  const size_t sp = s.rfind(' ');
  return sp == std::string::npos ? s : s.substr(sp + 1);
}

std::string FirstWord(const std::string& s) { return s.substr(0, s.find(' ')); }

}  // namespace

std::string Feature::DebugString() const {
  std::string out = std::string(KindName(kind)) + (index ? std::to_string(index) : "") + "@" +
                    std::to_string(level) + "=";
  if (values.empty()) return out + "*";
  for (size_t i = 0; i < values.size(); ++i) out += (i ? "|" : "") + values[i];
  return out;
}

namespace {

// Blank as XPath's normalize-space() sees it (space, tab, CR, LF).
bool IsXmlBlank(const _xmlNode* text) {
  if (text->content == nullptr) return true;
  for (const unsigned char* c = text->content; *c; ++c) {
    if (*c != ' ' && *c != '\t' && *c != '\n' && *c != '\r') return false;
  }
  return true;
}

// The node before `n` in reverse document order (its previous sibling's
// deepest last descendant, else its parent); null at the root.
html::Node Backward(html::Node n) {
  html::Node s = n.previous_sibling();
  if (!s) return n.parent();
  while (html::Node last = s.last_child()) s = last;
  return s;
}

// The first node after `n`'s subtree in document order.
html::Node PastSubtree(html::Node n) {
  for (; n; n = n.parent()) {
    if (html::Node s = n.next_sibling()) return s;
  }
  return html::Node();
}

}  // namespace

// The walk visits the nodes before n in reverse document order (or those
// after n's subtree in document order). Ancestors met on the way back are
// elements, never the answer; descendants are never met. So every node
// crossed before the answer has that same answer, and it is recorded.
_xmlNode* AnchorMemo::Nearest(html::Node n, bool before) {
  std::unordered_map<_xmlNode*, _xmlNode*>& memo = nearest_[before];
  crossed_.clear();
  _xmlNode* answer = nullptr;
  for (html::Node cur = before ? Backward(n) : PastSubtree(n); cur;
       cur = before ? Backward(cur) : cur.NextInDocument(html::Node())) {
    if (auto it = memo.find(cur.raw()); it != memo.end()) {
      answer = it->second;
      break;
    }
    if (cur.is_text() && !IsXmlBlank(cur.raw())) {
      answer = cur.raw();
      break;
    }
    crossed_.push_back(cur.raw());
  }
  for (_xmlNode* c : crossed_) memo.emplace(c, answer);
  return answer;
}

const std::string& AnchorMemo::Text(html::Node n, bool before) {
  static const std::string* const kEmpty = new std::string();
  _xmlNode* text = Nearest(n, before);
  if (text == nullptr) return *kEmpty;
  auto [it, added] = normalized_.try_emplace(text);
  if (added) it->second = html::NormalizeXmlSpace(html::Node(text).RawText());
  return it->second;
}

Candidate::Candidate(html::Node node, AnchorMemo* memo) : node_(node), memo_(memo) {
  for (html::Node n = node; n && static_cast<int>(ancestors_.size()) <= kMaxLevel; n = n.parent()) {
    ancestors_.push_back(n);
  }
}

const std::string& Candidate::text() const {
  if (!text_) text_ = html::NormalizeXmlSpace(node_.RawText());
  return *text_;
}

const std::string& Candidate::left() const {
  if (left_ == nullptr) left_ = &Memo().Text(node_, true);
  return *left_;
}

const std::string& Candidate::right() const {
  if (right_ == nullptr) right_ = &Memo().Text(node_, false);
  return *right_;
}

AnchorMemo& Candidate::Memo() const {
  if (memo_ != nullptr) return *memo_;
  if (own_memo_ == nullptr) own_memo_ = std::make_unique<AnchorMemo>();
  return *own_memo_;
}

bool Candidate::Value(Kind kind, int level, int index, std::string* value) const {
  if (level >= static_cast<int>(ancestors_.size())) return false;
  html::Node n = ancestors_[level];
  switch (kind) {
    case Kind::kPrecedingTag: case Kind::kPrecedingId: case Kind::kPrecedingClass:
      n = SiblingElement(n, index, true);
      break;
    case Kind::kFollowingTag: case Kind::kFollowingId: case Kind::kFollowingClass:
      n = SiblingElement(n, index, false);
      break;
    default:
      break;
  }
  if (!n) return false;
  switch (kind) {
    case Kind::kTag: case Kind::kPrecedingTag: case Kind::kFollowingTag:
      if (!n.is_element()) return false;
      *value = std::string(n.tag());
      return true;
    case Kind::kId: case Kind::kPrecedingId: case Kind::kFollowingId:
      if (!n.has_attribute("id")) return false;
      *value = n.attribute("id");
      return true;
    case Kind::kClass: case Kind::kPrecedingClass: case Kind::kFollowingClass:
      if (!n.has_attribute("class")) return false;
      *value = n.attribute("class");
      return true;
    case Kind::kOutLeftText: *value = left(); return !value->empty();
    case Kind::kOutLeftWord: *value = LastWord(left()); return !left().empty();
    case Kind::kOutRightText: *value = right(); return !value->empty();
    case Kind::kOutRightWord: *value = FirstWord(right()); return !right().empty();
    case Kind::kInLeftText: case Kind::kInRightText: *value = text(); return !value->empty();
  }
  return false;
}

namespace {

bool StartsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }
bool EndsWith(const std::string& s, const std::string& p) {
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

}  // namespace

bool Candidate::Holds(const Feature& f) const {
  // The text kinds compare the cached texts in place (no copy): the native
  // evaluator runs this on every candidate of every page.
  const std::string* text = nullptr;
  bool (*test)(const std::string&, const std::string&) = nullptr;
  switch (f.kind) {
    case Kind::kOutLeftText: text = &left(); break;
    case Kind::kOutLeftWord: text = &left(), test = EndsWith; break;
    case Kind::kOutRightText: text = &right(); break;
    case Kind::kOutRightWord: text = &right(), test = StartsWith; break;
    case Kind::kInLeftText: text = &this->text(), test = StartsWith; break;
    case Kind::kInRightText: text = &this->text(), test = EndsWith; break;
    default: break;
  }
  if (text != nullptr) {
    if (text->empty()) return false;
    // A blank text node has no anchor: the label-first XPath (RenderXPath)
    // steps from a label to the nearest non-blank text only.
    if (IsOutAnchorKind(f.kind) && node_.is_text() && this->text().empty()) return false;
    for (const std::string& want : f.values) {
      if (test ? test(*text, want) : *text == want) return true;
    }
    return false;
  }
  std::string v;
  if (!Value(f.kind, f.level, f.index, &v)) return false;
  if (f.values.empty()) return IsAttributeKind(f.kind);
  return std::find(f.values.begin(), f.values.end(), v) != f.values.end();
}

std::string XPathLiteral(const std::string& s) {
  if (s.find('\'') == std::string::npos) return "'" + s + "'";
  if (s.find('"') == std::string::npos) return "\"" + s + "\"";
  std::string out = "concat(";
  size_t start = 0;
  bool first = true;
  while (start <= s.size()) {
    const size_t q = s.find('\'', start);
    const std::string part = s.substr(start, q == std::string::npos ? std::string::npos : q - start);
    if (!part.empty()) out += (first ? "" : ",") + ("'" + part + "'"), first = false;
    if (q == std::string::npos) break;
    out += (first ? "" : ",") + std::string("\"'\"");
    first = false;
    start = q + 1;
  }
  return out + ")";
}

namespace {

// "a or b or c" over the feature's values with `test(literal)`.
template <typename Test>
std::string AnyOf(const Feature& f, Test test) {
  std::string out;
  for (size_t i = 0; i < f.values.size(); ++i) out += (i ? " or " : "") + test(XPathLiteral(f.values[i]));
  return out;
}

std::string AttributeTest(const Feature& f, const char* attr) {
  if (f.values.empty()) return std::string("@") + attr;
  return AnyOf(f, [&](const std::string& lit) { return std::string("@") + attr + "=" + lit; });
}

bool IsLeftAnchor(Kind k) { return k == Kind::kOutLeftText || k == Kind::kOutLeftWord; }

// normalize-space() rather than normalize-space(.): libxml2 then takes the
// context node's text without building a node-set for "." (a third less
// per text node tested).
constexpr char kNonBlank[] = "[normalize-space()]";
// The nearest non-blank text before (after) the context node: as rendered
// before label-first XPaths (kBefore, kAfter: RenderTopDownXPath), and from
// a label's occurrences (kPrevious, kNext).
constexpr char kBefore[] = "preceding::text()[normalize-space(.)!=''][1]";
constexpr char kAfter[] = "following::text()[normalize-space(.)!=''][1]";
constexpr char kPrevious[] = "preceding::text()[normalize-space()][1]";
constexpr char kNext[] = "following::text()[normalize-space()][1]";

// A node holding non-blank text (itself, or a descendant), as a predicate;
// [1] lets libxml2 stop at the first such text.
constexpr char kHasText[] = "[descendant-or-self::text()[normalize-space()][1]]";

// The nearest non-blank text before (after) the context node, as kBefore
// (kAfter) selects it, by local steps: the nearest ancestor-or-self with a
// preceding (following) sibling holding non-blank text, that sibling, its
// last (first) non-blank text. libxml2 evaluates preceding::/following::
// by collecting the whole axis before taking its first node, so kBefore
// tested on every candidate is quadratic in the page (an element rule
// `//*[preceding::...]` cost 76x a parse of a demo page); these steps
// visit the ancestors and the siblings up to the first one with text.
std::string LocalAnchor(bool before) {
  const std::string axis = before ? "preceding-sibling::node()" : "following-sibling::node()";
  return "ancestor-or-self::node()[" + axis + kHasText + "[1]][1]/" + axis + kHasText +
         "[1]/descendant-or-self::text()" + kNonBlank + (before ? "[last()]" : "[1]");
}

// The test an anchor feature makes on the anchor text (the context node):
// equal to a value (text kinds), ending with one (left word) or starting
// with one (right word).
std::string AnchorTextTest(const Feature& f) {
  const std::string ns = "normalize-space()";
  switch (f.kind) {
    case Kind::kOutLeftWord:
      return AnyOf(f, [&](const std::string& l) { return "ends-with(" + ns + "," + l + ")"; });
    case Kind::kOutRightWord:
      return AnyOf(f, [&](const std::string& l) { return "starts-with(" + ns + "," + l + ")"; });
    default:
      return AnyOf(f, [&](const std::string& l) { return ns + "=" + l; });
  }
}

// `legacy`: anchors as kBefore/kAfter (RenderTopDownXPath), else LocalAnchor.
std::string Predicate(const Feature& f, bool legacy) {
  const std::string ns = "normalize-space()";
  const std::string sib = "-sibling::*[" + std::to_string(f.index) + "]";
  const auto self_tag = [](const std::string& l) { return "self::" + l.substr(1, l.size() - 2); };
  switch (f.kind) {
    case Kind::kTag: return "";  // rendered as the step's name
    case Kind::kId: return "[" + AttributeTest(f, "id") + "]";
    case Kind::kClass: return "[" + AttributeTest(f, "class") + "]";
    case Kind::kPrecedingTag: return "[preceding" + sib + "[" + AnyOf(f, self_tag) + "]]";
    case Kind::kFollowingTag: return "[following" + sib + "[" + AnyOf(f, self_tag) + "]]";
    case Kind::kPrecedingId: return "[preceding" + sib + "[" + AttributeTest(f, "id") + "]]";
    case Kind::kPrecedingClass: return "[preceding" + sib + "[" + AttributeTest(f, "class") + "]]";
    case Kind::kFollowingId: return "[following" + sib + "[" + AttributeTest(f, "id") + "]]";
    case Kind::kFollowingClass: return "[following" + sib + "[" + AttributeTest(f, "class") + "]]";
    case Kind::kOutLeftText: case Kind::kOutLeftWord:
      return "[" + (legacy ? std::string(kBefore) : LocalAnchor(true)) + "[" + AnchorTextTest(f) + "]]";
    case Kind::kOutRightText: case Kind::kOutRightWord:
      return "[" + (legacy ? std::string(kAfter) : LocalAnchor(false)) + "[" + AnchorTextTest(f) + "]]";
    case Kind::kInLeftText: return "[" + AnyOf(f, [&](const std::string& l) { return "starts-with(" + ns + "," + l + ")"; }) + "]";
    case Kind::kInRightText: return "[" + AnyOf(f, [&](const std::string& l) { return "ends-with(" + ns + "," + l + ")"; }) + "]";
  }
  return "";
}

struct StepParts {
  std::string name;  // the node test
  std::string predicates;
};

// One location step: the node test and predicates of the features at
// `level` (all but `skip`). A tag feature is the step's name, a disjunction
// of tags a self:: test; text() for the text nodes at level 0.
StepParts Step(const std::vector<Feature>& features, int level, bool text_nodes, const Feature* skip = nullptr,
               bool legacy = false) {
  std::string name = (level == 0 && text_nodes) ? "text()" : "*";
  std::string predicates;
  for (const Feature& f : features) {
    if (f.level != level || &f == skip) continue;
    if (f.kind == Kind::kTag && !(level == 0 && text_nodes)) {
      if (f.values.size() == 1) {
        name = f.values[0];
      } else {
        predicates += "[" + AnyOf(f, [](const std::string& l) { return "self::" + l.substr(1, l.size() - 2); }) + "]";
      }
      continue;
    }
    predicates += Predicate(f, legacy);
  }
  return {name, predicates};
}

std::string StepText(const StepParts& step) { return step.name + step.predicates; }

int TopLevel(const std::vector<Feature>& features) {
  int top = 0;
  for (const Feature& f : features) top = std::max(top, f.level);
  return top;
}

// The anchor an XPath starts from (see RenderXPath): the first out-anchor
// in the features; null when they have none.
const Feature* LeadAnchor(const std::vector<Feature>& features) {
  for (const Feature& f : features) {
    if (IsOutAnchorKind(f.kind)) return &f;
  }
  return nullptr;
}

// The label's occurrences: the non-blank text nodes the anchor's test
// holds for. A test against a non-empty value holds for non-blank texts
// only, so the blank test is left out then (each predicate costs a pass
// over every text node of the page).
std::string Labels(const Feature& lead) {
  const bool any_empty = std::find(lead.values.begin(), lead.values.end(), "") != lead.values.end();
  return "//text()" + std::string(any_empty || lead.values.empty() ? kNonBlank : "") + "[" + AnchorTextTest(lead) + "]";
}

// The ancestors' steps as one predicate, "[parent::A/parent::B]"; empty
// when the features test no ancestor.
std::string ParentChain(const std::vector<Feature>& features) {
  std::string chain;
  for (int level = 1; level <= TopLevel(features); ++level) {
    chain += (level > 1 ? "/parent::" : "parent::") + StepText(Step(features, level, false));
  }
  return chain.empty() ? "" : "[" + chain + "]";
}

// The label-first form of a text-node XPath: the label's text nodes, then
// the nearest non-blank text after (before) each, then the ancestors' steps
// as one parent:: predicate and the node's other predicates. `last` is
// appended to the node's step.
std::string LabelFirst(const std::vector<Feature>& features, const Feature& lead, const std::string& last) {
  // From the few label occurrences the whole axis is cheap: one pass over
  // node pointers each, normalising texts only up to the first non-blank
  // one (measured on demo pages: no slower than LocalAnchor, and faster
  // for a label whose neighbouring block is large). And it reads as what a
  // user would write.
  const std::string out = Labels(lead) + "/" + (IsLeftAnchor(lead.kind) ? kNext : kPrevious);
  return out + ParentChain(features) + Step(features, 0, true, &lead).predicates + last;
}

// The label-first form of an element XPath. The elements whose nearest
// non-blank text before them is a label L start between L and the next
// non-blank text T: elements without text, and T's ancestors that do not
// hold L. Let A_0 = L, A_1, ... be L's ancestors-or-self and A_k the first
// with a following sibling holding text (K, which holds T): every such
// element lies in a following sibling of some A_i with i < k (all of
// them without text) or in a following sibling of A_k up to K (K included:
// T's ancestors below L's are K and its descendants). So the candidates
// are the following siblings, and their descendants, of the A_i that
// have no following sibling holding text, and of the nearest one that
// has. Two passes over the page's texts for the labels, then steps local
// to L; the candidates hold more than the answer (siblings after K, K's
// descendants after T), so the anchor's own exact test (LocalAnchor) stays
// a predicate with the element's tag, ancestors and other features.
// Mirrored for a right anchor (the label after the element). `last` is
// appended to the element's step.
std::string ElementLabelFirst(const std::vector<Feature>& features, const Feature& lead, const std::string& last) {
  const std::string fwd = IsLeftAnchor(lead.kind) ? "following-sibling::" : "preceding-sibling::";
  const std::string labels = Labels(lead) + "/ancestor-or-self::node()";
  const std::string text_sibling = fwd + "node()" + kHasText + "[1]";
  const std::string candidates = "(" + labels + "[not(" + text_sibling + ")]/" + fwd + "*/descendant-or-self::* | " +
                                 labels + "[" + text_sibling + "][1]/" + fwd + "*/descendant-or-self::*)";
  const StepParts step = Step(features, 0, false);
  std::string self;
  if (step.name != "*") self = "[self::" + step.name + "]";
  return candidates + self + ParentChain(features) + step.predicates + last;
}

std::string LeadFirst(const std::vector<Feature>& features, bool text_nodes, const Feature& lead,
                      const std::string& last) {
  return text_nodes ? LabelFirst(features, lead, last) : ElementLabelFirst(features, lead, last);
}

// The classic form: one step per level from the highest down, `last`
// appended to the node's step.
std::string TopDown(const std::vector<Feature>& features, bool text_nodes, const std::string& last,
                    bool legacy = false) {
  std::string out = "/";
  for (int level = TopLevel(features); level >= 0; --level) {
    out += "/" + StepText(Step(features, level, text_nodes, nullptr, legacy));
  }
  return out + last;
}

}  // namespace

std::string RenderXPath(const std::vector<Feature>& features, bool text_nodes) {
  const Feature* lead = LeadAnchor(features);
  return lead ? LeadFirst(features, text_nodes, *lead, "") : TopDown(features, text_nodes, "");
}

std::string RenderTopDownXPath(const std::vector<Feature>& features, bool text_nodes) {
  return TopDown(features, text_nodes, "", /*legacy=*/true);
}

std::string RenderStepXPath(const std::vector<Feature>& features, bool text_nodes, int n) {
  const std::string non_blank = text_nodes ? "[normalize-space()]" : "";
  const Feature* lead = LeadAnchor(features);
  if (!lead) return TopDown(features, text_nodes, non_blank + "[" + std::to_string(n) + "]");
  // The label-first step's positions count along following:: (or in the
  // candidate set), not among siblings: count the siblings the classic step
  // would select instead (they share the node's ancestors, so only its own
  // predicates matter).
  const std::string sibling = "preceding-sibling::" + StepText(Step(features, 0, text_nodes)) + non_blank;
  return LeadFirst(features, text_nodes, *lead, non_blank + "[count(" + sibling + ")=" + std::to_string(n - 1) + "]");
}

}  // namespace vertex::rule
