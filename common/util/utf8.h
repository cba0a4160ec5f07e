// UTF-8 validation and repair.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_UTIL_UTF8_H_
#define VERTEX_COMMON_UTIL_UTF8_H_

#include <string>
#include <string_view>

namespace vertex::util {

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points
// above U+10FFFF).
bool IsValidUtf8(std::string_view s);

// `s` with every maximal ill-formed subsequence replaced by U+FFFD (the
// WHATWG decoder's behaviour). Returns `s` unchanged when it is valid.
std::string ToValidUtf8(std::string_view s);

// Appends the UTF-8 encoding of `code_point` (replaced by U+FFFD when it is
// not a Unicode scalar value).
void AppendUtf8(char32_t code_point, std::string* out);

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_UTF8_H_
