// What a reader sees of a node: an element's attributes by name, and its
// rendered text as lines (line breaks where <br> and block-level elements
// break the text), for values that sit in attributes or across several
// text nodes.
//
// Thread-safety: pure functions over an immutable Page's nodes.
#ifndef VERTEX_COMMON_HTML_RENDERED_TEXT_H_
#define VERTEX_COMMON_HTML_RENDERED_TEXT_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/html/page.h"

namespace vertex::html {

// The names of `node`'s attributes (lowercase, as parsed) in source order;
// empty for a text node or a null Node. Valid while the Page lives.
std::vector<std::string_view> AttributeNames(Node node);

// The rendered text of `node` as lines, each whitespace-normalised
// (NormalizeSpace), empty lines dropped. A text node gives its text as one
// line. An element gives its descendants' text in document order, broken
// into lines at <br> and at the start and end of block-level elements (p,
// div, li, tr, h1-h6, ...); table cells (td, th) are separated by a space;
// the content of head, title, script, style, noscript and template
// descendants is skipped (not rendered); such an element asked for itself
// gives its own text. No recursion: the walk is iterative.
std::vector<std::string> RenderedLines(Node node);

// Whether elements named `tag` break the rendered text into lines.
bool IsBlockTag(std::string_view tag);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_RENDERED_TEXT_H_
