// Character-set detection and conversion of page bytes to UTF-8.
//
// Detection follows the HTML5 order, simplified: a byte-order mark, then the
// charset parameter of the HTTP Content-Type, then a <meta charset> or
// <meta http-equiv="Content-Type"> in the first 8 KB, then a guess: UTF-8
// when the bytes are valid UTF-8, else windows-1252 (the web's default).
// WHATWG aliases apply (latin1 and ascii mean windows-1252, shift_jis means
// windows-31j, ...). Conversion uses glibc's iconv; bytes that cannot be
// decoded become U+FFFD, so the result is always valid UTF-8.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_HTML_CHARSET_H_
#define VERTEX_COMMON_HTML_CHARSET_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace vertex::html {

enum class CharsetSource { kBom, kHttpHeader, kMetaTag, kDefault };

struct DecodedText {
  // The page as UTF-8: a view of the input when it already was valid UTF-8
  // (after any BOM), else of the converted copy. Valid while the input is.
  std::string_view utf8() const { return converted ? std::string_view(storage) : input; }

  bool converted = false;
  std::string storage;     // the converted text, when converted
  std::string_view input;  // the part of the input that was valid UTF-8
  // The canonical name of the encoding used (e.g. "UTF-8", "windows-1252").
  std::string encoding;
  CharsetSource source = CharsetSource::kDefault;
  // Number of byte sequences replaced by U+FFFD.
  size_t replacements = 0;
};

// The charset named by a Content-Type value ("text/html; charset=Shift_JIS"),
// lowercased, or "" when there is none.
std::string CharsetFromContentType(std::string_view content_type);

// The charset declared by a <meta> tag in the first 8 KB of `bytes`,
// lowercased, or "".
std::string CharsetFromMeta(std::string_view bytes);

// Decodes `bytes` to UTF-8. `http_content_type` may be empty. Never fails on
// malformed bytes (they are replaced); an unknown declared charset falls back
// to the guess.
DecodedText DecodeToUtf8(std::string_view bytes, std::string_view http_content_type);

}  // namespace vertex::html

#endif  // VERTEX_COMMON_HTML_CHARSET_H_
