// The page model: page bytes and URL -> UTF-8 -> Gumbo (HTML5 parsing) -> a
// libxml2 document mirror on which compiled XPath 1.0 runs (see xpath.h).
//
// The mirror keeps elements (lowercase names, attributes) and text; it drops
// comments, the doctype, and whitespace-only text outside <pre>/<textarea>.
// While the mirror is built, each element's start and end are reported to an
// optional TagSink, so structural signatures (shingle/) are computed in the
// same walk, never by a second parse or traversal.
//
// Limits (ParseOptions): page size (default 8 MB), nesting depth (default
// 512, as in Blink's parser) and attributes per tag (default 1,000). Past
// them Parse() returns an error naming the limit and, for depth and
// attributes, the tag, its line and byte offset (found by a linear
// pre-scan, nesting.h, before Gumbo runs; the libxml2 builder pre-scans
// attributes only and stops its parser at the depth limit,
// libxml_builder.h); no step anywhere recurses on the tree.
//
// Thread-safety: a Parser is not thread-safe (it owns a reusable arena): use
// one per thread. A Page is immutable after parsing; const methods and Node
// reads may be used from many threads at once.
#ifndef VERTEX_COMMON_HTML_PAGE_H_
#define VERTEX_COMMON_HTML_PAGE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include <libxml/tree.h>

#include "absl/status/statusor.h"
#include "common/html/arena.h"

namespace vertex::html {

// Receives the element sequence of a page in document order.
class TagSink {
 public:
  // Token bit set for end tags.
  static constexpr uint32_t kEndTag = 0x80000000u;

  virtual ~TagSink() = default;
  // `token` identifies the tag name (equal names give equal tokens, across
  // pages and processes); kEndTag is set for the element's end.
  virtual void OnTag(uint32_t token) = 0;
};

// The token TagSink::OnTag reports for elements named `lowercase_name`
// (FNV-1a of the name, without the kEndTag bit).
uint32_t TagToken(std::string_view lowercase_name);

// A read-only handle to a node of a Page's document: an element or a text
// node. Cheap to copy; valid while its Page lives. A default-constructed
// Node is null (operator bool is false) and every accessor returns the
// null/empty value.
class Node {
 public:
  Node() = default;
  explicit Node(_xmlNode* node) : node_(node) {}

  explicit operator bool() const { return node_ != nullptr; }
  bool operator==(const Node& other) const { return node_ == other.node_; }

  bool is_element() const;
  bool is_text() const;
  // Lowercase element name; "" for text nodes.
  std::string_view tag() const;
  // The attribute's value, or "" when absent; see has_attribute().
  std::string attribute(std::string_view name) const;
  bool has_attribute(std::string_view name) const;
  // The attribute's value without a copy ("" when absent): valid while the
  // Page lives.
  std::string_view attribute_view(std::string_view name) const;

  Node parent() const;  // null for the root element
  Node first_child() const;
  Node last_child() const;
  Node next_sibling() const;
  Node previous_sibling() const;

  // The text of a text node, or the concatenated descendant text of an
  // element (the XPath string-value), entities decoded, not normalised.
  std::string RawText() const;
  // RawText() with whitespace normalised (see NormalizeSpace in text.h).
  std::string Text() const;

  // The first element child / the next element sibling, skipping text;
  // null when there is none.
  Node first_element_child() const;
  Node next_element_sibling() const;
  // The ancestor-or-self of this node whose parent is `ancestor`; null when
  // this node is not below `ancestor`.
  Node ChildOfAncestor(Node ancestor) const;
  // The next node in document order (preorder) within the subtree of
  // `root`, or null after its last node. Iterative: walk a whole page with
  // `for (Node n = root; n; n = n.NextInDocument(root))`.
  Node NextInDocument(Node root) const;

  _xmlNode* raw() const { return node_; }

 private:
  _xmlNode* node_ = nullptr;
};

// Which HTML parser builds a Page. Both give the same node model (lowercase
// element names, attributes, text; no comments, doctype or processing
// instructions) but may shape a malformed page differently (Gumbo follows
// HTML5's tree construction: implied <tbody>, adoption agency; libxml2's
// HTML parser is HTML4-era), so rules and signatures learnt with one builder
// are applied with the same one: a site's builder is stored with it
// (SiteSettings.page_builder).
enum class PageBuilder {
  kGumbo,    // Gumbo (HTML5) -> libxml2 mirror
  kLibxml2,  // libxml2's own HTML parser (htmlCtxtReadMemory), no mirror
};

// "gumbo" / "libxml2".
std::string_view PageBuilderName(PageBuilder builder);
// The inverse of PageBuilderName; InvalidArgument naming the choices
// otherwise.
absl::StatusOr<PageBuilder> PageBuilderFromName(std::string_view name);

struct ParseOptions {
  // The parser that builds the page (see PageBuilder): libxml2's by default
  // (the same P/R as Gumbo on every site measured, full extraction 1.7x
  // faster and about half the memory per page; README "Page model"). Gumbo
  // where HTML5 fidelity matters; a stored site keeps its own builder.
  PageBuilder builder = PageBuilder::kLibxml2;
  // Pages larger than this many bytes are refused (ResourceExhausted).
  size_t max_page_bytes = 8 * 1024 * 1024;
  // Documents nesting deeper than this are refused (ResourceExhausted).
  int max_depth = 512;
  // Documents with a tag of more attributes than this are refused
  // (ResourceExhausted): Gumbo's duplicate-attribute check is quadratic in
  // a tag's attributes. Real pages stay far below (the SWDE book pages: at
  // most 13 on one element).
  int max_attributes = 1000;
};

class Page {
 public:
  Page(Page&&) noexcept;
  Page& operator=(Page&&) noexcept;
  ~Page();

  const std::string& url() const { return url_; }
  // The encoding the bytes were decoded from ("UTF-8", "windows-1252", ...).
  const std::string& encoding() const { return encoding_; }
  // How many undecodable byte sequences were replaced by U+FFFD.
  size_t replacements() const { return replacements_; }
  // Elements plus text nodes in the mirror.
  size_t node_count() const { return node_count_; }
  // Depth of the deepest node (the root element is at depth 1).
  int depth() const { return depth_; }

  // The <html> element.
  Node root() const;
  _xmlDoc* doc() const { return doc_; }

 private:
  friend class Parser;
  Page() = default;

  _xmlDoc* doc_ = nullptr;
  std::string url_;
  std::string encoding_;
  size_t replacements_ = 0;
  size_t node_count_ = 0;
  int depth_ = 0;
};

class Parser {
 public:
  explicit Parser(ParseOptions options = {});
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // Parses `bytes` (any encoding; see charset.h) fetched from `url`.
  // `http_content_type` may be empty. `sink`, when not null, receives the tag
  // sequence. Errors: InvalidArgument for an empty page, ResourceExhausted
  // for a page over the size, depth or attributes-per-tag limit (the
  // message names the limit and where the page passes it).
  absl::StatusOr<Page> Parse(std::string_view bytes, std::string url,
                             std::string_view http_content_type = "",
                             TagSink* sink = nullptr);

  const ParseOptions& options() const { return options_; }

 private:
  // The pre-scan's verdict on the decoded page (nesting.h).
  absl::Status PreScan(std::string_view utf8, const std::string& url) const;

  ParseOptions options_;
  Arena arena_;
};

// Node's navigation, inline: the native rule evaluator calls these for every
// node of every page.
inline bool Node::is_element() const { return node_ && node_->type == XML_ELEMENT_NODE; }
inline bool Node::is_text() const { return node_ && node_->type == XML_TEXT_NODE; }
inline std::string_view Node::tag() const {
  if (!is_element()) return {};
  return reinterpret_cast<const char*>(node_->name);
}
inline Node Node::parent() const {
  if (!node_ || !node_->parent || node_->parent->type != XML_ELEMENT_NODE) return Node();
  return Node(node_->parent);
}
inline Node Node::first_child() const { return Node(node_ ? node_->children : nullptr); }
inline Node Node::last_child() const { return Node(node_ ? node_->last : nullptr); }
inline Node Node::next_sibling() const { return Node(node_ ? node_->next : nullptr); }
inline Node Node::previous_sibling() const { return Node(node_ ? node_->prev : nullptr); }
// Appends `child` (unlinked, of parent's document) as the last child of
// `parent`, as xmlAddChild does but without merging adjacent text nodes.
inline void LinkLastChild(_xmlNode* parent, _xmlNode* child) {
  child->parent = parent;
  if (parent->last == nullptr) {
    parent->children = child;
  } else {
    child->prev = parent->last;
    parent->last->next = child;
  }
  parent->last = child;
}

inline Node Node::first_element_child() const {
  Node c = first_child();
  while (c && !c.is_element()) c = c.next_sibling();
  return c;
}
inline Node Node::next_element_sibling() const {
  Node c = next_sibling();
  while (c && !c.is_element()) c = c.next_sibling();
  return c;
}
inline Node Node::ChildOfAncestor(Node ancestor) const {
  for (Node n = *this; n; n = n.parent()) {
    if (n.parent() == ancestor) return n;
  }
  return Node();
}
inline Node Node::NextInDocument(Node root) const {
  if (Node child = first_child()) return child;
  for (Node n = *this; n && !(n == root); n = n.parent()) {
    if (Node sibling = n.next_sibling()) return sibling;
  }
  return Node();
}

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_PAGE_H_
