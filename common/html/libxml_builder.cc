// The libxml2 page builder: htmlCtxtReadMemory on the decoded UTF-8, then
// one iterative walk that brings libxml2's tree to the node model of the
// Gumbo mirror (page.h) and reports the element sequence to the TagSink.
//
// libxml2 2.9.14 (Debian 12) behaviours this relies on or corrects:
// - Element and attribute names come out lowercase (htmlParseHTMLName);
//   the walk lowercases any element name that does not, through the
//   document dictionary.
// - htmlCtxtReadMemory copies the page into an input buffer (7% of an
//   extraction in the profile, nearly all of it malloc consolidating the
//   previous page's frees on that large request). Reading in place
//   (htmlCtxtReadDoc over a reused NUL-terminated copy) measured no faster
//   in the paired benchmark: the consolidation moves to the next large
//   allocation. A static input buffer (xmlParserInputBufferCreateStatic)
//   made 2.9.14 read parts of a page twice.
// - Without XML_PARSE_HUGE the tree builder halts the parse at 256 open
//   elements (nodePush, xmlParserMaxDepth), silently truncating the page;
//   with it there is no depth limit, so ParseOptions.max_depth (checked by
//   the pre-scan before, and by this walk after) is the only one. HUGE also
//   lifts the 10 MB text-node limit, above the 8 MB page limit anyway.
// - <script> and <style> content arrives as CDATA section nodes: the walk
//   turns them into text nodes, as Gumbo's text.
// - Comments, processing instructions and the DTD node are unlinked and
//   freed; an element libxml2 put beside <html> (after </html>) is moved
//   to the end of <html>.
// - A valueless attribute (`<input disabled>`) has no text child in
//   libxml2; the walk gives it an empty one, as the mirror's xmlNewProp.
// - HTML_PARSE_IGNORE_ENC: the bytes are UTF-8 already; a <meta charset>
//   must not make libxml2 decode them again.
#include "common/html/libxml_builder.h"

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/dict.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "absl/strings/ascii.h"

namespace vertex::html {
namespace {

constexpr int kHtmlOptions = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                             HTML_PARSE_COMPACT | HTML_PARSE_IGNORE_ENC | XML_PARSE_HUGE;

struct CtxtDeleter {
  void operator()(htmlParserCtxt* c) const { htmlFreeParserCtxt(c); }
};
struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

bool HasUpper(const xmlChar* s) {
  for (; *s; ++s) {
    if (*s >= 'A' && *s <= 'Z') return true;
  }
  return false;
}

// `name` lowercased and interned in the document's dictionary (names in a
// dictionary are shared, never written in place).
const xmlChar* LowercaseName(xmlDocPtr doc, const xmlChar* name) {
  const std::string lower = absl::AsciiStrToLower(reinterpret_cast<const char*>(name));
  return xmlDictLookup(doc->dict, BAD_CAST lower.c_str(), static_cast<int>(lower.size()));
}

// Sets an element's name to its lowercase form.
void LowercaseNodeName(xmlDocPtr doc, const xmlChar** name) {
  if (*name == nullptr || !HasUpper(*name)) return;
  const xmlChar* lower = LowercaseName(doc, *name);
  if (lower == nullptr) return;
  if (doc->dict == nullptr || !xmlDictOwns(doc->dict, *name)) xmlFree(const_cast<xmlChar*>(*name));
  *name = lower;
}

// Gives valueless attributes an empty text child. (Attribute names need no
// lowercasing: htmlParseHTMLName lowercases them; a test checks it.)
void NormaliseAttributes(xmlDocPtr doc, xmlNodePtr element) {
  for (xmlAttrPtr a = element->properties; a != nullptr; a = a->next) {
    if (a->children == nullptr) {
      xmlNodePtr text = xmlNewDocText(doc, BAD_CAST "");
      if (text == nullptr) continue;
      text->parent = reinterpret_cast<xmlNodePtr>(a);
      a->children = a->last = text;
    }
  }
}

void UnlinkAndFree(xmlNodePtr node) {
  xmlUnlinkNode(node);
  if (node->type == XML_DTD_NODE) {
    xmlFreeDtd(reinterpret_cast<xmlDtdPtr>(node));
  } else {
    xmlFreeNode(node);
  }
}

bool IsElementNamed(const xmlNode* n, const char* name) {
  return n->type == XML_ELEMENT_NODE && xmlStrEqual(n->name, BAD_CAST name);
}

// Moves the children of `from` to the end of `to` (unwrapping a <body>
// among them), then frees `from`.
void MoveChildrenAndFree(xmlNodePtr from, xmlNodePtr to) {
  for (xmlNodePtr c = from->children, next; c != nullptr; c = next) {
    next = c->next;
    if (IsElementNamed(c, "body") && c != to) {
      MoveChildrenAndFree(c, to);  // one level: libxml2 nests no <body> in <body>
      continue;
    }
    xmlUnlinkNode(c);
    LinkLastChild(to, c);
  }
  UnlinkAndFree(from);
}

// Content after </html>: libxml2 opens a second <html> for it, inside the
// first (or beside it, moved inside by KeepOneRoot). Its content goes to
// the end of <body>, as HTML5 puts it.
void MergeLateHtml(xmlNodePtr root) {
  xmlNodePtr body = nullptr;
  for (xmlNodePtr c = root->children; c != nullptr; c = c->next) {
    if (IsElementNamed(c, "body")) body = c;
  }
  for (xmlNodePtr c = root->children, next; c != nullptr; c = next) {
    next = c->next;
    if (IsElementNamed(c, "html")) MoveChildrenAndFree(c, body != nullptr ? body : root);
  }
}

// Leaves exactly one node under the document, its <html> element: other
// node kinds are dropped, further top-level elements moved into the first.
// Creates <html><head/><body/></html> (what Gumbo gives an empty page) when
// libxml2 built no element at all.
absl::Status KeepOneRoot(xmlDocPtr doc) {
  xmlNodePtr root = nullptr;
  for (xmlNodePtr n = doc->children, next; n != nullptr; n = next) {
    next = n->next;
    if (n->type != XML_ELEMENT_NODE) {
      UnlinkAndFree(n);
    } else if (root == nullptr) {
      root = n;
    } else {
      xmlUnlinkNode(n);
      LinkLastChild(root, n);
    }
  }
  if (root != nullptr) {
    MergeLateHtml(root);
    return absl::OkStatus();
  }
  root = xmlNewDocNode(doc, nullptr, BAD_CAST "html", nullptr);
  if (root == nullptr) return absl::ResourceExhaustedError("out of memory");
  xmlDocSetRootElement(doc, root);
  xmlNewChild(root, nullptr, BAD_CAST "head", nullptr);
  xmlNewChild(root, nullptr, BAD_CAST "body", nullptr);
  return absl::OkStatus();
}

struct WalkResult {
  size_t node_count = 0;
  int depth = 0;
  bool too_deep = false;
};

// Visits `node` on entering it: normalises it, counts it, reports an
// element's start. Returns false when `node` was removed (the caller has
// already taken its next sibling).
bool Enter(xmlDocPtr doc, xmlNodePtr node, int depth, const ParseOptions& options, TagSink* sink,
           WalkResult& out) {
  switch (node->type) {
    case XML_ELEMENT_NODE:
      LowercaseNodeName(doc, &node->name);
      NormaliseAttributes(doc, node);
      ++out.node_count;
      if (depth > options.max_depth) out.too_deep = true;
      if (depth > out.depth) out.depth = depth;
      if (sink) sink->OnTag(TagToken(reinterpret_cast<const char*>(node->name)));
      return true;
    case XML_CDATA_SECTION_NODE:
      node->type = XML_TEXT_NODE;
      node->name = xmlStringText;
      ++out.node_count;
      return true;
    case XML_TEXT_NODE:
      ++out.node_count;
      return true;
    default:  // comments, processing instructions, entity references
      UnlinkAndFree(node);
      return false;
  }
}

void ReportEnd(const xmlNode* element, TagSink* sink) {
  if (sink) sink->OnTag(TagToken(reinterpret_cast<const char*>(element->name)) | TagSink::kEndTag);
}

// One preorder walk of the tree under the root element, without recursion:
// every node entered once (Enter), every element's end reported after its
// subtree. Stops at the first element deeper than options.max_depth.
WalkResult Walk(xmlDocPtr doc, const ParseOptions& options, TagSink* sink) {
  WalkResult out;
  const xmlNodePtr top = reinterpret_cast<xmlNodePtr>(doc);
  xmlNodePtr node = xmlDocGetRootElement(doc);
  int depth = 1;
  while (node != nullptr) {
    xmlNodePtr parent = node->parent;  // taken first: Enter may free `node`
    xmlNodePtr next = node->next;
    if (Enter(doc, node, depth, options, sink, out)) {
      if (out.too_deep) return out;
      if (node->type == XML_ELEMENT_NODE && node->children != nullptr) {
        node = node->children;
        ++depth;
        continue;
      }
      if (node->type == XML_ELEMENT_NODE) ReportEnd(node, sink);
    }
    // Climb to the next sibling, ending the elements finished on the way.
    while (next == nullptr) {
      if (parent == top || parent == nullptr) return out;
      ReportEnd(parent, sink);
      --depth;
      next = parent->next;
      parent = parent->parent;
    }
    node = next;
  }
  return out;
}

// A parser context per thread, reset for every page: its name and node
// stacks and buffers are reused (a Parser is one per thread, page.h).
// Each document gets a dictionary of its own (as the Gumbo mirror's):
// libxml2's dictionaries are not thread-safe, and a Page may be freed on
// another thread (xmlFreeDoc reads its dictionary) while this one parses.
// The context takes the new one before htmlCtxtReadMemory, whose reset
// interns its own strings in it again.
htmlParserCtxtPtr ThreadContext() {
  thread_local std::unique_ptr<htmlParserCtxt, CtxtDeleter> ctxt;
  if (ctxt == nullptr) ctxt.reset(htmlNewParserCtxt());
  if (ctxt == nullptr) return nullptr;
  xmlDictPtr dict = xmlDictCreate();
  if (dict == nullptr) return nullptr;
  xmlDictFree(ctxt->dict);  // documents parsed before keep their references
  ctxt->dict = dict;
  return ctxt.get();
}

}  // namespace

absl::StatusOr<BuiltDocument> BuildWithLibxml2(std::string_view utf8, const std::string& url,
                                               const ParseOptions& options, TagSink* sink) {
  if (utf8.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return absl::ResourceExhaustedError("page '" + url + "' is too large for libxml2's HTML parser");
  }
  htmlParserCtxtPtr ctxt = ThreadContext();
  if (ctxt == nullptr) return absl::ResourceExhaustedError("page '" + url + "': no libxml2 parser context");
  DocPtr doc(htmlCtxtReadMemory(ctxt, utf8.data(), static_cast<int>(utf8.size()), nullptr, "UTF-8",
                                kHtmlOptions));
  htmlCtxtReset(ctxt);  // releases the page's input copy now, not at the next page
  if (doc == nullptr) {
    // libxml2 builds no document for input with no markup at all (e.g.
    // only whitespace): the page is empty, as Gumbo gives it.
    doc.reset(htmlNewDocNoDtD(nullptr, nullptr));
    if (doc == nullptr) return absl::ResourceExhaustedError("page '" + url + "': out of memory");
  }
  if (doc->dict == nullptr) doc->dict = xmlDictCreate();
  if (absl::Status s = KeepOneRoot(doc.get()); !s.ok()) {
    return absl::ResourceExhaustedError("page '" + url + "': " + std::string(s.message()));
  }
  const WalkResult walk = Walk(doc.get(), options, sink);
  if (walk.too_deep) {
    return absl::ResourceExhaustedError("page '" + url + "' nests elements deeper than the depth limit of " +
                                        std::to_string(options.max_depth));
  }
  BuiltDocument out;
  out.doc = doc.release();
  out.node_count = walk.node_count;
  out.depth = walk.depth;
  return out;
}

}  // namespace vertex::html
