// The second page builder: libxml2's own HTML parser (see PageBuilder in
// page.h). Internal to vertex_html: Parser::Parse calls it after decoding
// the page to UTF-8 and the nesting pre-scan.
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
  _xmlDoc* doc = nullptr;  // owned by the caller (xmlFreeDoc)
  size_t node_count = 0;   // elements plus text nodes
  int depth = 0;           // of the deepest element; the root is at 1
};

// Builds the document of `utf8` (already decoded) with libxml2's HTML
// parser, in the node model of page.h, feeding `sink` (may be null) the
// element sequence. `url` is for error messages only.
absl::StatusOr<BuiltDocument> BuildWithLibxml2(std::string_view utf8, const std::string& url,
                                               const ParseOptions& options, TagSink* sink);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_LIBXML_BUILDER_H_
