// XHTML serialisation of a Page: its libxml2 document mirror (page.h) written
// as a well-formed XML 1.0 document in UTF-8, so that XML tools (xsltproc,
// any XSLT 1.0 processor; see extract/xslt_export.h) see the same element
// and text tree that the rule engine's XPaths run on.
//
// The output is "<?xml version="1.0" encoding="UTF-8"?>" followed by the
// <html> element. Elements are in no namespace (an XPath written for the
// mirror, "/html/body/div", runs unchanged); text and attribute values are
// escaped by libxml2's XML serialiser (never its HTML mode), so script and
// style text with '<' and '&' survive. To keep the tree the same once
// parsed back, where XML cannot express the mirror as it is:
//   - adjacent text nodes (the mirror drops comments, so "a<!--c-->b" leaves
//     two) are separated by an empty comment "<!---->": XML parsers keep
//     them as two text nodes (XPaths using node() see the comment);
//   - characters XML 1.0 forbids are replaced: U+000C and U+000B (which
//     NormalizeSpace treats as whitespace) by a space, other C0 controls,
//     U+FFFE and U+FFFF by U+FFFD, so normalised text is unchanged unless it
//     held such a control or noncharacter;
//   - element and attribute names that are not XML names (Gumbo keeps
//     "a\"b", "1x"), and "xmlns" / "xmlns:*" attributes (which would declare
//     namespaces and move every element out of the null namespace), are
//     renamed: "_" followed by the name with each character other than an
//     ASCII letter, digit, '-', '.' or '_' replaced by '_' ("xmlns:fb" ->
//     "_xmlns_fb"), plus more "_" if an attribute of that name exists. An
//     XPath that tests such a name matches nothing in the serialisation.
// Names with an undeclared prefix ("o:p", "xlink:href") are kept: libxml2
// parses them back with that same name and no namespace (with a namespace
// warning on stderr), as in the mirror.
//
// Thread-safety: SerializeXhtml only reads the page; it may run on one page
// from many threads at once.
#ifndef VERTEX_COMMON_HTML_SERIALIZE_H_
#define VERTEX_COMMON_HTML_SERIALIZE_H_

#include <string>

#include "absl/status/statusor.h"
#include "common/html/page.h"

namespace vertex::html {

// The page as an XHTML document (see above). Internal, naming the page's URL,
// when libxml2 fails to build or write the document (out of memory);
// FailedPrecondition for a moved-from page without a document.
absl::StatusOr<std::string> SerializeXhtml(const Page& page);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_SERIALIZE_H_
