// Text normalisation shared by every module that compares page text.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_HTML_TEXT_H_
#define VERTEX_COMMON_HTML_TEXT_H_

#include <string>
#include <string_view>

namespace vertex::html {

// Collapses each run of whitespace (ASCII whitespace and U+00A0 NO-BREAK
// SPACE) to one ASCII space and trims both ends.
std::string NormalizeSpace(std::string_view s);

// XPath 1.0's normalize-space(): collapses runs of space, tab, CR and LF
// only (not U+00A0) and trims. Used where a native computation must agree
// with an XPath evaluated by libxml2.
std::string NormalizeXmlSpace(std::string_view s);

// NormalizeSpace, then ASCII letters lower-cased: how annotated values are
// compared with page text.
std::string FoldText(std::string_view s);

// True when `s` holds only whitespace as NormalizeSpace defines it.
bool IsBlank(std::string_view s);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_TEXT_H_
