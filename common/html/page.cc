#include "common/html/page.h"

#include <gumbo.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>

#include <array>
#include <cstring>
#include <mutex>
#include <vector>

#include "absl/strings/ascii.h"
#include "common/html/charset.h"
#include "common/html/libxml_builder.h"
#include "common/html/nesting.h"
#include "common/html/text.h"

namespace vertex::html {
namespace {

void InitLibxml2Once() {
  static std::once_flag once;
  std::call_once(once, [] { xmlInitParser(); });
}

struct KnownTags {
  std::array<uint32_t, GUMBO_TAG_LAST + 1> tokens;
  KnownTags() {
    for (int t = 0; t <= GUMBO_TAG_LAST; ++t) {
      tokens[t] = TagToken(gumbo_normalized_tagname(static_cast<GumboTag>(t)));
    }
  }
};

const KnownTags& Known() {
  static const KnownTags* known = new KnownTags();
  return *known;
}

// The lowercase name of an element, in `scratch` when it must be built.
std::string_view ElementName(const GumboElement& e, std::string* scratch) {
  if (e.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(e.tag);
  GumboStringPiece piece = e.original_tag;
  if (piece.length == 0) return "unknown";
  gumbo_tag_from_original_text(&piece);
  scratch->assign(piece.data, piece.length);
  absl::AsciiStrToLower(scratch);
  if (scratch->empty()) *scratch = "unknown";
  return *scratch;
}

// A text node whose content is interned in the document's dictionary:
// whitespace between tags repeats ("\n", "\n  ", ...), so interning saves
// an allocation and a free per node. xmlFreeNode leaves dictionary strings
// alone.
xmlNodePtr NewInternedText(xmlDocPtr doc, const char* text) {
  auto* node = static_cast<xmlNodePtr>(xmlMalloc(sizeof(xmlNode)));
  std::memset(node, 0, sizeof(xmlNode));
  node->type = XML_TEXT_NODE;
  node->name = xmlStringText;
  node->doc = doc;
  node->content = const_cast<xmlChar*>(
      xmlDictLookup(doc->dict, BAD_CAST text, static_cast<int>(std::strlen(text))));
  return node;
}

// An attribute named `name` (interned in the document's dictionary, which
// xmlFreeProp leaves alone) whose value is one text node holding `value`
// verbatim (no entity parsing, unlike xmlNewDocProp). Unlinked; null when
// out of memory.
xmlAttrPtr NewAttribute(xmlDocPtr doc, const char* name, const char* value) {
  const xmlChar* interned = xmlDictLookup(doc->dict, BAD_CAST name, -1);
  if (interned == nullptr) return nullptr;
  auto* prop = static_cast<xmlAttrPtr>(xmlMalloc(sizeof(xmlAttr)));
  if (prop == nullptr) return nullptr;
  std::memset(prop, 0, sizeof(xmlAttr));
  prop->type = XML_ATTRIBUTE_NODE;
  prop->name = interned;
  prop->doc = doc;
  xmlNodePtr text = xmlNewDocText(doc, BAD_CAST value);
  if (text == nullptr) {
    xmlFree(prop);
    return nullptr;
  }
  text->parent = reinterpret_cast<xmlNodePtr>(prop);
  prop->children = prop->last = text;
  return prop;
}

// Gives `node` the attributes `attributes`, in order. Linear: xmlNewProp
// with a node walks the node's attribute list to append to it, so n
// attributes cost n^2 / 2 steps; here each is created unlinked and linked
// after the last one.
void LinkAttributes(const GumboVector& attributes, xmlDocPtr doc, xmlNodePtr node) {
  xmlAttrPtr last = nullptr;
  for (unsigned i = 0; i < attributes.length; ++i) {
    const auto* a = static_cast<const GumboAttribute*>(attributes.data[i]);
    xmlAttrPtr prop = NewAttribute(doc, a->name, a->value);
    if (prop == nullptr) continue;  // out of memory: the attribute is dropped, as xmlNewProp would
    prop->parent = node;
    if (last == nullptr) {
      node->properties = prop;
    } else {
      last->next = prop;
      prop->prev = last;
    }
    last = prop;
  }
}

struct Frame {
  const GumboVector* children;
  unsigned next;
  xmlNodePtr parent;
  uint32_t end_token;  // 0 for the document frame
};

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};

}  // namespace

// FNV-1a: a stable 32-bit token for a tag name, the same in every process
// and for every Gumbo version.
uint32_t TagToken(std::string_view name) {
  uint32_t h = 2166136261u;
  for (unsigned char c : name) {
    h ^= c;
    h *= 16777619u;
  }
  return h & ~TagSink::kEndTag;
}

std::string_view PageBuilderName(PageBuilder builder) {
  switch (builder) {
    case PageBuilder::kGumbo:
      return "gumbo";
    case PageBuilder::kLibxml2:
      return "libxml2";
  }
  return "gumbo";
}

absl::StatusOr<PageBuilder> PageBuilderFromName(std::string_view name) {
  if (name == "gumbo") return PageBuilder::kGumbo;
  if (name == "libxml2") return PageBuilder::kLibxml2;
  return absl::InvalidArgumentError("unknown page builder '" + std::string(name) +
                                    "': expected gumbo or libxml2");
}

// ---- Node ----



namespace {
xmlAttrPtr FindAttr(xmlNodePtr node, std::string_view name) {
  if (node == nullptr || node->type != XML_ELEMENT_NODE) return nullptr;
  for (xmlAttrPtr a = node->properties; a != nullptr; a = a->next) {
    if (name == reinterpret_cast<const char*>(a->name)) return a;
  }
  return nullptr;
}
}  // namespace

std::string Node::attribute(std::string_view name) const {
  xmlAttrPtr a = FindAttr(node_, name);
  if (a == nullptr || a->children == nullptr || a->children->content == nullptr) return {};
  return reinterpret_cast<const char*>(a->children->content);
}

bool Node::has_attribute(std::string_view name) const { return FindAttr(node_, name) != nullptr; }

std::string_view Node::attribute_view(std::string_view name) const {
  xmlAttrPtr a = FindAttr(node_, name);
  if (a == nullptr || a->children == nullptr || a->children->content == nullptr) return {};
  return reinterpret_cast<const char*>(a->children->content);
}



std::string Node::RawText() const {
  if (!node_) return {};
  if (node_->type == XML_TEXT_NODE) {
    return node_->content ? reinterpret_cast<const char*>(node_->content) : "";
  }
  xmlChar* content = xmlNodeGetContent(node_);
  if (content == nullptr) return {};
  std::string s(reinterpret_cast<const char*>(content));
  xmlFree(content);
  return s;
}

std::string Node::Text() const { return NormalizeSpace(RawText()); }

// ---- Page ----

Page::Page(Page&& other) noexcept { *this = std::move(other); }

Page& Page::operator=(Page&& other) noexcept {
  if (this != &other) {
    FreeDocument(doc_);
    doc_ = other.doc_;
    other.doc_ = nullptr;
    url_ = std::move(other.url_);
    encoding_ = std::move(other.encoding_);
    replacements_ = other.replacements_;
    node_count_ = other.node_count_;
    depth_ = other.depth_;
  }
  return *this;
}

Page::~Page() {
  FreeDocument(doc_);
}

Node Page::root() const { return Node(doc_ ? xmlDocGetRootElement(doc_) : nullptr); }

// ---- Parser ----

Parser::Parser(ParseOptions options) : options_(options) { InitLibxml2Once(); }

namespace {

// Element names interned in one document's dictionary, by Gumbo tag: one
// lookup per tag name and page instead of one per element.
class InternedNames {
 public:
  explicit InternedNames(xmlDocPtr doc) : doc_(doc) { names_.fill(nullptr); }
  // The interned lowercase name of `e`; null when out of memory.
  const xmlChar* Of(const GumboElement& e, std::string_view name) {
    if (e.tag == GUMBO_TAG_UNKNOWN) return Lookup(name);
    const xmlChar*& known = names_[e.tag];
    if (known == nullptr) known = Lookup(name);
    return known;
  }

 private:
  const xmlChar* Lookup(std::string_view name) {
    return xmlDictLookup(doc_->dict, BAD_CAST name.data(), static_cast<int>(name.size()));
  }
  xmlDocPtr doc_;
  std::array<const xmlChar*, GUMBO_TAG_LAST + 1> names_;
};

// An element named `name` (interned: xmlFreeNode leaves it alone); null
// when out of memory.
xmlNodePtr NewElement(xmlDocPtr doc, const xmlChar* name) {
  if (name == nullptr) return nullptr;
  return xmlNewDocNodeEatName(doc, nullptr, const_cast<xmlChar*>(name), nullptr);
}

// Mirrors Gumbo's tree into `doc` without recursion, feeding `sink`.
// Returns false when the tree is deeper than `max_depth`.
bool Mirror(const GumboNode* document, xmlDocPtr doc, int max_depth, TagSink* sink,
            size_t* node_count, int* depth_out) {
  const KnownTags& known = Known();
  InternedNames names(doc);
  std::vector<Frame> stack;
  stack.reserve(64);
  stack.push_back({&document->v.document.children, 0, reinterpret_cast<xmlNodePtr>(doc), 0});
  std::string scratch;
  size_t count = 0;
  int max_seen = 0;
  while (!stack.empty()) {
    Frame& top = stack.back();
    if (top.next >= top.children->length) {
      if (sink && top.end_token) sink->OnTag(top.end_token | TagSink::kEndTag);
      stack.pop_back();
      continue;
    }
    const GumboNode* child = static_cast<const GumboNode*>(top.children->data[top.next++]);
    xmlNodePtr parent = top.parent;
    switch (child->type) {
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        const GumboElement& e = child->v.element;
        const std::string_view name = ElementName(e, &scratch);
        const uint32_t token =
            e.tag != GUMBO_TAG_UNKNOWN ? known.tokens[e.tag] : TagToken(name);
        xmlNodePtr node = NewElement(doc, names.Of(e, name));
        if (node == nullptr) break;  // out of memory: the element is dropped
        LinkAttributes(e.attributes, doc, node);
        LinkLastChild(parent, node);
        ++count;
        const int depth = static_cast<int>(stack.size());
        if (depth > max_depth) return false;
        if (depth > max_seen) max_seen = depth;
        if (sink) sink->OnTag(token);
        stack.push_back({&e.children, 0, node, token});
        break;
      }
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA: {
        if (parent == reinterpret_cast<xmlNodePtr>(doc)) break;
        const char* text = child->v.text.text;
        LinkLastChild(parent, xmlNewDocTextLen(doc, BAD_CAST text, static_cast<int>(std::strlen(text))));
        ++count;
        break;
      }
      case GUMBO_NODE_WHITESPACE: {
        if (parent == reinterpret_cast<xmlNodePtr>(doc)) break;
        LinkLastChild(parent, NewInternedText(doc, child->v.text.text));
        ++count;
        break;
      }
      default:  // comments, and the document node itself
        break;
    }
  }
  *node_count = count;
  *depth_out = max_seen;
  return true;
}

}  // namespace

absl::Status Parser::PreScan(std::string_view utf8, const std::string& url) const {
  // The libxml2 builder checks depth while it parses (libxml_builder.h).
  const PreScanResult scan = PreScanStructure(utf8, {.max_depth = options_.max_depth,
                                                     .max_attributes = options_.max_attributes,
                                                     .libxml2 = options_.builder == PageBuilder::kLibxml2});
  if (scan.over == PreScanResult::Over::kNone) return absl::OkStatus();
  // Only for the error: LineAt counts the lines up to the offset.
  const std::string where = "<" + scan.tag + "> at line " + std::to_string(LineAt(utf8, scan.offset_over_limit)) +
                            ", byte " + std::to_string(scan.offset_over_limit);
  switch (scan.over) {
    case PreScanResult::Over::kNone:
      return absl::OkStatus();
    case PreScanResult::Over::kDepth:
      return absl::ResourceExhaustedError("page '" + url + "' nests elements deeper than the depth limit of " +
                                          std::to_string(options_.max_depth) + " (" + where + ")");
    case PreScanResult::Over::kAttributes:
      return absl::ResourceExhaustedError("page '" + url + "' has a tag with more than " +
                                          std::to_string(options_.max_attributes) +
                                          " attributes, the attributes-per-element limit (" + where + ")");
  }
  return absl::OkStatus();
}

absl::StatusOr<Page> Parser::Parse(std::string_view bytes, std::string url,
                                   std::string_view http_content_type, TagSink* sink) {
  if (bytes.empty()) return absl::InvalidArgumentError("page '" + url + "' is empty");
  if (bytes.size() > options_.max_page_bytes) {
    return absl::ResourceExhaustedError(
        "page '" + url + "' is " + std::to_string(bytes.size()) +
        " bytes, over the page size limit of " + std::to_string(options_.max_page_bytes));
  }
  DecodedText text = DecodeToUtf8(bytes, http_content_type);
  if (absl::Status s = PreScan(text.utf8(), url); !s.ok()) return s;
  if (options_.builder == PageBuilder::kLibxml2) {
    Page page;
    absl::StatusOr<BuiltDocument> built = BuildWithLibxml2(text.utf8(), url, options_, sink);
    if (!built.ok()) return built.status();
    page.doc_ = built->doc;
    page.node_count_ = built->node_count;
    page.depth_ = built->depth;
    page.url_ = std::move(url);
    page.encoding_ = std::move(text.encoding);
    page.replacements_ = text.replacements;
    return page;
  }

  const GumboOptions gumbo_options = GumboOptionsFor(&arena_);
  GumboOutput* output =
      gumbo_parse_with_options(&gumbo_options, text.utf8().data(), text.utf8().size());
  // The whole Gumbo tree lives in the arena: reset it instead of calling the
  // (recursive) gumbo_destroy_output.
  struct ArenaReset {
    Arena* arena;
    ~ArenaReset() { arena->Reset(); }
  } arena_reset{&arena_};

  std::unique_ptr<xmlDoc, DocDeleter> doc(xmlNewDoc(BAD_CAST "1.0"));
  doc->dict = xmlDictCreate();
  Page page;
  if (!Mirror(output->document, doc.get(), options_.max_depth, sink, &page.node_count_,
              &page.depth_)) {
    return absl::ResourceExhaustedError("page '" + url +
                                        "' nests elements deeper than the depth limit of " +
                                        std::to_string(options_.max_depth));
  }
  page.doc_ = doc.release();
  page.url_ = std::move(url);
  page.encoding_ = std::move(text.encoding);
  page.replacements_ = text.replacements;
  return page;
}

}  // namespace vertex::html
