// Byte-level checks and rewriting of a feed before libxml2 reads it
// (internal to the feed parser; feed.cc is the only caller).
//
//   - CheckFeedProlog refuses a DOCTYPE whose internal subset declares an
//     entity (general or parameter): billion laughs, quadratic blowup and
//     external entities never reach the parser. The parser keeps a second
//     guard (an entityDecl SAX callback that stops it) for encodings this
//     byte scan cannot read (UTF-16, EBCDIC).
//   - ReplaceHtmlEntities turns the HTML named references an RSS 0.91 feed
//     uses (&nbsp; &eacute; ...) into numeric ones, outside CDATA sections,
//     comments and processing instructions, so that libxml2, which knows
//     only XML's five, reads them as their characters.
//   - LooksLikeHtml says whether a document that libxml2 refused starts like
//     an HTML page, to name it as such.
// All three work on ASCII-compatible encodings (UTF-8, ISO-8859-*,
// windows-125x); IsAsciiCompatible says when that holds.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_FEED_FEED_INPUT_H_
#define VERTEX_COMMON_FEED_FEED_INPUT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace vertex::feed {

// False when `xml` starts with a UTF-16 or UTF-32 byte-order mark or the
// UTF-16/UTF-32/EBCDIC form of "<?" (XML 1.0 appendix F).
bool IsAsciiCompatible(std::string_view xml);

// OK, or InvalidArgument("feed declares entities in its DTD: refused") when
// the DOCTYPE's internal subset holds an <!ENTITY declaration (counted even
// inside a quoted string: refusing is the safe side).
absl::Status CheckFeedProlog(std::string_view xml);

// `xml` with each &name; that is an HTML 4 named reference (and not one of
// amp lt gt quot apos) written as &#N;. Untouched inside <![CDATA[...]]>,
// <!--...--> and <?...?>.
std::string ReplaceHtmlEntities(std::string_view xml);

// `s` without leading and trailing ASCII white space (absl's takes an
// absl::string_view, which Debian's absl keeps distinct from std's).
std::string_view StripSpace(std::string_view s);

// True when the first markup of `xml` after the prolog's comments and PIs
// is "<!DOCTYPE html" or "<html" (ASCII case-insensitive).
bool LooksLikeHtml(std::string_view xml);

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_FEED_INPUT_H_
