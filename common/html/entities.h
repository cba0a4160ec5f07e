// Decoding of HTML character references (&amp;, &eacute;, &#233;, &#xE9;) in
// text taken out of a page or a ground-truth file.
//
// Rules, kept deliberately simpler than the HTML5 tokenizer:
//   - Named references are the HTML 4 set (libxml2's table) plus &apos;. Names
//     are case-sensitive (&Eacute; differs from &eacute;).
//   - A reference must end with ';', except the legacy forms &amp &lt &gt
//     &quot &nbsp, which browsers also accept without it; those must then be
//     followed by a character that is not a letter or digit (or the end of
//     the text), so "&ampfoo" is left as it is.
//   - Numeric references (&#NNN; decimal, &#xHHH; or &#XHHH; hex) need at
//     least one digit and the ';'. NUL, surrogates and code points above
//     U+10FFFF become U+FFFD; 0x80-0x9F are read as Windows-1252, as
//     browsers do (&#146; is a right single quote).
//   - Anything else (an unknown name, a missing ';', "&" alone) is left as it
//     is. Decoding is one pass: "&amp;lt;" becomes "&lt;".
// The output is UTF-8; bytes outside references are copied unchanged.
//
// Thread-safety: pure function.
#ifndef VERTEX_COMMON_HTML_ENTITIES_H_
#define VERTEX_COMMON_HTML_ENTITIES_H_

#include <string>
#include <string_view>

namespace vertex::html {

// `text` with every character reference decoded as described above.
std::string DecodeHtmlEntities(std::string_view text);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_ENTITIES_H_
