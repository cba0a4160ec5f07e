// The libxml2 page builder: htmlCtxtReadMemory on the decoded UTF-8, its
// tree built by this file's SAX callbacks (see "The tree builder" below),
// then one iterative walk that brings the tree to the node model of the
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
// - Without XML_PARSE_HUGE nodePush halts the parse at 256 open elements
//   (xmlParserMaxDepth), silently truncating the page; with it there is no
//   depth limit, so ParseOptions.max_depth (checked by the start-element
//   callback while parsing, and by this walk after) is the only one. HUGE
//   also lifts the 10 MB text-node limit, above the 8 MB page limit anyway.
// - <script> and <style> content arrives through the cdataBlock callback
//   (xmlSAX2 makes CDATA section nodes of it, which the walk turns into
//   text nodes, as Gumbo's text).
// - Comments, processing instructions and the DTD node are unlinked and
//   freed (the own callbacks make no comment or PI nodes); an element
//   libxml2 put beside <html> (after </html>) is moved to the end of <html>.
// - A valueless attribute (`<div hidden>`) has no text child in xmlSAX2's
//   tree; the walk gives it an empty one, as the mirror's xmlNewProp (the
//   own callbacks make it so). A valueless boolean one (`<input disabled>`,
//   htmlIsBooleanAttr) is valued with its name.
// - HTML_PARSE_IGNORE_ENC: the bytes are UTF-8 already; a <meta charset>
//   must not make libxml2 decode them again. HTML_PARSE_NODEFDTD: no DTD
//   node added at the end of the parse (the walk would free it).
#include "common/html/libxml_builder.h"

#include <libxml/HTMLparser.h>
#include <libxml/HTMLtree.h>
#include <libxml/SAX2.h>
#include <libxml/dict.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "common/html/arena.h"

namespace vertex::html {
namespace {

constexpr int kHtmlOptions = HTML_PARSE_RECOVER | HTML_PARSE_NONET | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                             HTML_PARSE_COMPACT | HTML_PARSE_IGNORE_ENC | HTML_PARSE_NODEFDTD | XML_PARSE_HUGE;

struct CtxtDeleter {
  void operator()(htmlParserCtxt* c) const { htmlFreeParserCtxt(c); }
};
struct DocDeleter {
  void operator()(xmlDoc* d) const { FreeDocument(d); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

// The memory of a document the own callbacks built: its elements,
// attributes and text nodes come from `arena` (marked, _private ==
// ArenaMark()), freed at once by FreeDocument; `foreign` is false when the
// walk found no node made by libxml2 itself under the root (those are
// freed one by one).
struct TreeMemory {
  Arena arena{64 * 1024};  // below glibc's mmap threshold: blocks come from the heap
  bool foreign = true;
};

void* ArenaMark() {
  static char mark;
  return &mark;
}

bool InArena(const xmlNode* node) { return node->_private == ArenaMark(); }

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
  if (InArena(node)) return;  // freed with its document's arena
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
  bool foreign = false;  // a node or attribute not from the arena
};

bool HasForeignAttribute(const xmlNode* element) {
  for (const xmlAttr* a = element->properties; a != nullptr; a = a->next) {
    if (a->_private != ArenaMark()) return true;
  }
  return false;
}

// Visits `node` on entering it: normalises it, counts it, reports an
// element's start. Returns false when `node` was removed (the caller has
// already taken its next sibling).
bool Enter(xmlDocPtr doc, xmlNodePtr node, int depth, const ParseOptions& options, TagSink* sink,
           WalkResult& out) {
  switch (node->type) {
    case XML_ELEMENT_NODE:
      LowercaseNodeName(doc, &node->name);
      NormaliseAttributes(doc, node);
      if (!InArena(node) || HasForeignAttribute(node)) out.foreign = true;
      ++out.node_count;
      if (depth > options.max_depth) out.too_deep = true;
      if (depth > out.depth) out.depth = depth;
      if (sink) sink->OnTag(TagToken(reinterpret_cast<const char*>(node->name)));
      return true;
    case XML_CDATA_SECTION_NODE:
      node->type = XML_TEXT_NODE;
      node->name = xmlStringText;
      out.foreign = true;
      ++out.node_count;
      return true;
    case XML_TEXT_NODE:
      if (!InArena(node)) out.foreign = true;
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

// ---- The tree builder: SAX callbacks in place of xmlSAX2's ----
//
// libxml2's HTML parser builds its tree through SAX callbacks; its default
// ones (xmlSAX2StartElement, xmlSAX2Characters, ...) do work the node model
// never uses: a copy of every element and attribute name (HTML contexts do
// not share names with the document), the walk of an element's attribute
// list to append each attribute (n^2 / 2 steps for n attributes), ID
// registration in a hash table, DTD attribute-normalisation lookups, line
// numbers, comment and processing-instruction nodes the walk then removes,
// and text grown by repeated reallocation, 100 bytes at a time. These
// callbacks build the same tree (a differential test compares the node
// model of both on the demo site and the SWDE pages): names shared with
// the document's dictionary, attributes appended in constant time, the
// text of a run of character callbacks copied once, no comment or
// processing-instruction nodes, and every element, attribute, text node
// and text in one arena per document (TreeMemory), freed at once by
// FreeDocument instead of one free() per piece: the allocations and frees
// were a quarter of the build. They also enforce ParseOptions.max_depth
// while parsing, so a deep page stops the parser at the limit instead of
// being built to the end.
//
// What they keep from xmlSAX2: the document (xmlSAX2StartDocument), the
// DTD node of a DOCTYPE (the parser's whitespace rules read it), the
// handling of an element name with a ':' (xmlSAX2StartElement: prefix
// split), where an element goes when no element is open, valueless boolean
// attributes valued with their name (htmlIsBooleanAttr), and which
// character runs are merged into one node (calls of one kind, characters
// or cdataBlock, with no node between them, comments included: xmlSAX2
// makes a node of a comment).

// The state of one parse, for the callbacks (the context is per thread,
// ThreadContext, so the state is too).
struct SaxState {
  const ParseOptions* options = nullptr;
  Arena* arena = nullptr;  // where the tree's nodes go
  xmlNodePtr pending = nullptr;  // the text node the current character run goes to
  bool pending_cdata = false;    // that run is of cdataBlock calls
  std::string text;              // that run so far
  bool too_deep = false;
  std::string deep_tag;  // the element that passed the depth limit
  int deep_line = 0;
  size_t deep_byte = 0;
};
thread_local SaxState* t_sax = nullptr;

// Sets a text node's content to a copy of `text` in the arena.
void SetContent(Arena& arena, xmlNodePtr node, const char* text, size_t len) {
  auto* copy = static_cast<xmlChar*>(arena.Allocate(len + 1));
  std::memcpy(copy, text, len);
  copy[len] = 0;
  node->content = copy;
}

// Gives the pending text node its content, ending the run.
void EndTextRun(SaxState& s) {
  if (s.pending == nullptr) return;
  SetContent(*s.arena, s.pending, s.text.data(), s.text.size());
  s.pending = nullptr;
  s.text.clear();
}

// A node of `type` in the arena, marked, with no content yet.
xmlNodePtr NewNode(Arena& arena, xmlDocPtr doc, xmlElementType type, const xmlChar* name) {
  auto* node = static_cast<xmlNodePtr>(arena.Allocate(sizeof(xmlNode)));
  std::memset(node, 0, sizeof(xmlNode));
  node->_private = ArenaMark();
  node->type = type;
  node->name = name;
  node->doc = doc;
  return node;
}

// A text node holding `text` (unlinked).
xmlNodePtr NewTextNode(Arena& arena, xmlDocPtr doc, const xmlChar* text, size_t len) {
  xmlNodePtr node = NewNode(arena, doc, XML_TEXT_NODE, xmlStringText);
  SetContent(arena, node, reinterpret_cast<const char*>(text), len);
  return node;
}

// `name` in the document's dictionary: the parser's names are in it
// already (the context's dictionary, shared with the document by
// OnStartDocument); a few it passes are string constants ("p", "html").
const xmlChar* Interned(xmlDocPtr doc, const xmlChar* name) {
  if (xmlDictOwns(doc->dict, name) == 1) return name;
  return xmlDictLookup(doc->dict, name, -1);
}

// Appends the attributes `atts` (name, value pairs, null-terminated) to
// `element`, each with one text child holding its value.
void AddAttributes(Arena& arena, xmlDocPtr doc, xmlNodePtr element, const xmlChar** atts) {
  xmlAttrPtr last = nullptr;
  for (size_t i = 0; atts != nullptr && atts[i] != nullptr; i += 2) {
    const xmlChar* name = Interned(doc, atts[i]);
    const xmlChar* value = atts[i + 1];
    if (value == nullptr && htmlIsBooleanAttr(name)) value = name;  // as xmlSAX2
    if (value == nullptr) value = BAD_CAST "";  // as the walk made it (NormaliseAttributes)
    if (name == nullptr) continue;  // out of memory: the attribute is dropped
    auto* prop = static_cast<xmlAttrPtr>(arena.Allocate(sizeof(xmlAttr)));
    xmlNodePtr text = NewTextNode(arena, doc, value, std::strlen(reinterpret_cast<const char*>(value)));
    std::memset(prop, 0, sizeof(xmlAttr));
    prop->_private = ArenaMark();
    prop->type = XML_ATTRIBUTE_NODE;
    prop->name = name;
    prop->doc = doc;
    prop->parent = element;
    prop->children = prop->last = text;
    text->parent = reinterpret_cast<xmlNodePtr>(prop);
    if (last == nullptr) {
      element->properties = prop;
    } else {
      last->next = prop;
      prop->prev = last;
    }
    last = prop;
  }
}

// Records where the parse passed the depth limit and stops it.
void StopTooDeep(htmlParserCtxtPtr ctxt, SaxState& s, const xmlChar* name) {
  s.too_deep = true;
  s.deep_tag = reinterpret_cast<const char*>(name);
  if (ctxt->input != nullptr && ctxt->input->base != nullptr && ctxt->input->cur != nullptr) {
    s.deep_line = ctxt->input->line;
    // The parser is past the start tag's '>': back to its '<'.
    size_t at = static_cast<size_t>(ctxt->input->cur - ctxt->input->base);
    if (at > 0) --at;
    while (at > 0 && ctxt->input->base[at] != '<') --at;
    s.deep_byte = at;
  }
  xmlStopParser(ctxt);
}

void OnStartDocument(void* ctx) {
  auto* ctxt = static_cast<htmlParserCtxtPtr>(ctx);
  xmlSAX2StartDocument(ctx);
  // HTML contexts give the document no dictionary (dictNames is off):
  // share the context's (one per page, ThreadContext), where the parser
  // keeps its names.
  if (ctxt->myDoc != nullptr && ctxt->myDoc->dict == nullptr && ctxt->dict != nullptr) {
    ctxt->myDoc->dict = ctxt->dict;
    xmlDictReference(ctxt->dict);
  }
}

void OnStartElement(void* ctx, const xmlChar* name, const xmlChar** atts) {
  auto* ctxt = static_cast<htmlParserCtxtPtr>(ctx);
  SaxState& s = *t_sax;
  EndTextRun(s);
  xmlDocPtr doc = ctxt->myDoc;
  if (doc == nullptr || name == nullptr) return;
  if (ctxt->nodeNr >= s.options->max_depth) return StopTooDeep(ctxt, s, name);
  if (doc->dict == nullptr || std::strchr(reinterpret_cast<const char*>(name), ':') != nullptr) {
    xmlSAX2StartElement(ctx, name, atts);  // a prefixed name: xmlSAX2 splits it
    return;
  }
  const xmlChar* interned = Interned(doc, name);
  if (interned == nullptr) return xmlStopParser(ctxt);  // out of memory
  xmlNodePtr element = NewNode(*s.arena, doc, XML_ELEMENT_NODE, interned);
  AddAttributes(*s.arena, doc, element, atts);
  // Where xmlSAX2StartElement links it: the open element, else the first
  // top-level node (the <html> element or the DTD), else the document.
  xmlNodePtr parent = ctxt->node;
  if (doc->children == nullptr) {
    LinkLastChild(reinterpret_cast<xmlNodePtr>(doc), element);
  } else if (parent == nullptr) {
    parent = doc->children;
  }
  if (nodePush(ctxt, element) < 0) return;  // out of memory (the element stays in the arena)
  if (parent == nullptr) return;
  if (parent->type == XML_ELEMENT_NODE) {
    LinkLastChild(parent, element);
  } else {
    xmlAddSibling(parent, element);
  }
}

void OnEndElement(void* ctx, const xmlChar* /*name*/) {
  EndTextRun(*t_sax);
  nodePop(static_cast<htmlParserCtxtPtr>(ctx));
}

// Appends to the current run of `cdata` (<script>/<style> content) or
// other text, starting a node when the run is of the other kind or none.
void AddText(htmlParserCtxtPtr ctxt, const xmlChar* ch, int len, bool cdata) {
  SaxState& s = *t_sax;
  if (ctxt->node == nullptr || len < 0) return;  // outside any element: dropped, as by xmlSAX2
  if (s.pending != nullptr && s.pending_cdata != cdata) EndTextRun(s);
  if (s.pending == nullptr) {
    s.pending = NewNode(*s.arena, ctxt->myDoc, XML_TEXT_NODE, xmlStringText);
    s.pending_cdata = cdata;
    LinkLastChild(ctxt->node, s.pending);
  }
  s.text.append(reinterpret_cast<const char*>(ch), static_cast<size_t>(len));
}

void OnCharacters(void* ctx, const xmlChar* ch, int len) {
  AddText(static_cast<htmlParserCtxtPtr>(ctx), ch, len, false);
}

// <script> and <style> content, a call per 1,000 bytes: xmlSAX2 merges the
// calls into one CDATA node (the walk made it text), apart from the text
// of other calls before or after.
void OnCdataBlock(void* ctx, const xmlChar* value, int len) {
  AddText(static_cast<htmlParserCtxtPtr>(ctx), value, len, true);
}

// A comment or processing instruction: no node, but it ends a text run
// (xmlSAX2 puts a node between the runs, which the walk removed).
void OnComment(void* /*ctx*/, const xmlChar* /*value*/) { EndTextRun(*t_sax); }
void OnProcessingInstruction(void* /*ctx*/, const xmlChar* /*target*/, const xmlChar* /*data*/) {
  EndTextRun(*t_sax);
}

void UseOwnCallbacks(htmlParserCtxtPtr ctxt) {
  xmlSAXHandler* sax = ctxt->sax;
  sax->startDocument = OnStartDocument;
  sax->startElement = OnStartElement;
  sax->endElement = OnEndElement;
  sax->characters = OnCharacters;
  sax->cdataBlock = OnCdataBlock;
  sax->comment = OnComment;
  sax->processingInstruction = OnProcessingInstruction;
}

void UseXmlSax2Callbacks(htmlParserCtxtPtr ctxt) {
  xmlSAXHandler* sax = ctxt->sax;
  sax->startDocument = xmlSAX2StartDocument;
  sax->startElement = xmlSAX2StartElement;
  sax->endElement = xmlSAX2EndElement;
  sax->characters = xmlSAX2Characters;
  sax->cdataBlock = xmlSAX2CDataBlock;
  sax->comment = xmlSAX2Comment;
  sax->processingInstruction = xmlSAX2ProcessingInstruction;
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

// Frees the nodes of `doc` that libxml2 made (not from the arena), each
// alone: the arena's nodes among them are left to the arena. The DTD is
// left to xmlFreeDoc.
void FreeForeignNodes(xmlDocPtr doc) {
  std::vector<xmlNodePtr> stack;
  for (xmlNodePtr n = doc->children; n != nullptr; n = n->next) stack.push_back(n);
  while (!stack.empty()) {
    xmlNodePtr n = stack.back();
    stack.pop_back();
    if (n->type == XML_DTD_NODE) continue;
    if (n->type == XML_ELEMENT_NODE) {
      for (xmlNodePtr c = n->children; c != nullptr; c = c->next) stack.push_back(c);
    }
    if (InArena(n)) continue;
    n->children = n->last = nullptr;
    xmlFreeNode(n);  // its name, attributes and content
  }
}

}  // namespace

void FreeDocument(_xmlDoc* doc) {
  if (doc == nullptr) return;
  auto* memory = static_cast<TreeMemory*>(doc->_private);
  if (memory == nullptr) return xmlFreeDoc(doc);
  doc->_private = nullptr;
  if (memory->foreign) FreeForeignNodes(doc);
  doc->children = doc->last = nullptr;  // the DTD, if any, is doc->intSubset: xmlFreeDoc frees it
  xmlFreeDoc(doc);
  delete memory;
}

absl::StatusOr<BuiltDocument> BuildWithLibxml2(std::string_view utf8, const std::string& url,
                                               const ParseOptions& options, TagSink* sink,
                                               TreeCallbacks callbacks) {
  if (utf8.size() > static_cast<size_t>(std::numeric_limits<int>::max())) {
    return absl::ResourceExhaustedError("page '" + url + "' is too large for libxml2's HTML parser");
  }
  htmlParserCtxtPtr ctxt = ThreadContext();
  if (ctxt == nullptr) return absl::ResourceExhaustedError("page '" + url + "': no libxml2 parser context");
  if (callbacks == TreeCallbacks::kOwn) {
    UseOwnCallbacks(ctxt);
  } else {
    UseXmlSax2Callbacks(ctxt);
  }
  auto memory = std::make_unique<TreeMemory>();
  SaxState state;
  state.options = &options;
  state.arena = &memory->arena;
  t_sax = &state;
  DocPtr doc(htmlCtxtReadMemory(ctxt, utf8.data(), static_cast<int>(utf8.size()), nullptr, "UTF-8",
                                kHtmlOptions));
  EndTextRun(state);
  t_sax = nullptr;
  TreeMemory* tree_memory = memory.get();
  if (doc != nullptr) doc->_private = memory.release();  // FreeDocument frees it
  htmlCtxtReset(ctxt);  // releases the page's input copy now, not at the next page
  if (state.too_deep) {
    return absl::ResourceExhaustedError("page '" + url + "' nests elements deeper than the depth limit of " +
                                        std::to_string(options.max_depth) + " (<" + state.deep_tag +
                                        "> at line " + std::to_string(state.deep_line) + ", byte " +
                                        std::to_string(state.deep_byte) + ")");
  }
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
  if (doc->_private == tree_memory) tree_memory->foreign = walk.foreign || walk.too_deep;
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
