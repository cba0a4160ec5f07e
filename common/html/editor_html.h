// The page an editor annotates, as HTML rendered from the server's own tree
// (page.h: the site's page builder's, Gumbo or libxml2) rather than from the
// bytes the page came in: a browser builds its own tree from bytes (implied
// <tbody>, misnesting repaired differently), so an XPath computed from the
// browser's DOM need not select anything here. Every element rendered
// carries `data-vx`, the XPath of the server's node (NodeXPath), so a click
// in the browser names the server's node exactly.
//
// RenderEditorHtml writes a complete HTML document:
//   - a first <meta http-equiv="Content-Security-Policy"> in <head>
//     (default-src 'none'; inline styles and data: images only), so nothing
//     the page refers to is fetched and no script runs even where the
//     frame's sandbox would allow it;
//   - elements left out with their content: script, noscript, template,
//     iframe, frame, frameset, object, embed, applet, base, link, and <meta>
//     with http-equiv (a refresh would navigate the frame); their XPaths
//     still count them, so the other elements' data-vx are the server's;
//   - attributes left out: event handlers (on*), srcdoc, formaction, the
//     page's own data-vx, and names that are not plain HTML attribute names
//     (anything but ASCII letters, digits, '-', '_', ':', '.');
//   - elements whose name is not a plain HTML name (anything but ASCII
//     letters, digits, '-', ':') are written as <span>, with their data-vx;
//   - text and attribute values escaped; <style> text written raw with any
//     "</" broken ("<\/"), so it cannot close the element early.
// No step recurses on the tree.
//
// Thread-safety: pure functions over an immutable Page's nodes.
#ifndef VERTEX_COMMON_HTML_EDITOR_HTML_H_
#define VERTEX_COMMON_HTML_EDITOR_HTML_H_

#include <string>

#include "common/html/page.h"

namespace vertex::html {

// The attribute RenderEditorHtml gives each element: its NodeXPath.
inline constexpr char kEditorXPathAttribute[] = "data-vx";

// An absolute XPath 1.0 expression selecting exactly `node` (an element or
// a text node) on its page, one positional step per level from the root:
// "/html[1]/body[1]/div[3]/text()[2]". A step names the element
// ("div[3]": the third <div> child) when its name is a plain lowercase HTML
// name in no namespace, else counts elements ("*[4]"). "" for a null Node.
std::string NodeXPath(Node node);

// Statistics of one rendering.
struct EditorHtml {
  std::string html;
  // Elements written with a data-vx attribute.
  size_t elements = 0;
  // Elements left out (with their subtrees: each counted once).
  size_t dropped_elements = 0;
};

// The page rendered for the editor (see above).
EditorHtml RenderEditorHtml(const Page& page);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_EDITOR_HTML_H_
