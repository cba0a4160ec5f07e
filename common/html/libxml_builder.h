// The second page builder: libxml2's own HTML parser (see PageBuilder in
// page.h). Internal to vertex_html: Parser::Parse calls it after decoding
// the page to UTF-8 and the attributes pre-scan (nesting.h).
#ifndef VERTEX_COMMON_HTML_LIBXML_BUILDER_H_
#define VERTEX_COMMON_HTML_LIBXML_BUILDER_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <libxml/tree.h>

#include "absl/status/statusor.h"
#include "common/html/page.h"

namespace vertex::html {

struct BuiltDocument {
  _xmlDoc* doc = nullptr;  // owned by the caller (FreeDocument)
  size_t node_count = 0;   // elements plus text nodes
  int depth = 0;           // of the deepest element; the root is at 1
};

// The SAX callbacks that build libxml2's tree: the builder's own (cheaper,
// and stopping the parse at ParseOptions.max_depth), or libxml2's default
// xmlSAX2 ones, which build the same node model (kept for the differential
// test that shows it; they find a too-deep page only after building it).
enum class TreeCallbacks { kOwn, kXmlSax2 };

// Builds the document of `utf8` (already decoded) with libxml2's HTML
// parser, in the node model of page.h, feeding `sink` (may be null) the
// element sequence. `url` is for error messages only. ResourceExhausted
// for a page nesting elements deeper than options.max_depth, naming the
// element, its line and byte offset. (The attributes-per-tag limit is the
// pre-scan's, page.cc: libxml2 compares each attribute name with every
// earlier one of its tag before any callback sees the tag.)
absl::StatusOr<BuiltDocument> BuildWithLibxml2(std::string_view utf8, const std::string& url,
                                               const ParseOptions& options, TagSink* sink,
                                               TreeCallbacks callbacks = TreeCallbacks::kOwn);

// Frees a document of either builder: one built by the own callbacks keeps
// its nodes in an arena (reached through doc->_private) and must not go to
// xmlFreeDoc; any other document does. Null is ignored.
void FreeDocument(_xmlDoc* doc);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_LIBXML_BUILDER_H_
