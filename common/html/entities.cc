#include "common/html/entities.h"

#include <libxml/HTMLparser.h>

#include <array>
#include <cctype>
#include <optional>

#include "common/util/utf8.h"

namespace vertex::html {
namespace {

// A decoded reference: its code point and how many bytes of the text it spans.
struct Reference {
  char32_t code_point;
  size_t length;
};

// Longer names are not looked up (the longest HTML 4 name has 8 letters).
constexpr size_t kMaxNameLength = 32;
constexpr char32_t kReplacement = 0xFFFD;

// What browsers make of &#128; .. &#159;: the Windows-1252 characters; 0 where
// Windows-1252 leaves the byte undefined (the code point is then kept).
constexpr std::array<char32_t, 32> kWindows1252 = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

char32_t FixNumeric(char32_t value) {
  if (value == 0) return kReplacement;
  if (value >= 0x80 && value <= 0x9F && kWindows1252[value - 0x80] != 0) {
    return kWindows1252[value - 0x80];
  }
  return value;  // AppendUtf8 replaces surrogates and values above U+10FFFF.
}

int DigitValue(char c, bool hex) {
  if (c >= '0' && c <= '9') return c - '0';
  if (!hex) return -1;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// `s` starts with "&#". Needs at least one digit and the closing ';'.
std::optional<Reference> ParseNumeric(std::string_view s) {
  size_t i = 2;
  const bool hex = i < s.size() && (s[i] == 'x' || s[i] == 'X');
  if (hex) ++i;
  const size_t first_digit = i;
  char32_t value = 0;
  for (int d; i < s.size() && (d = DigitValue(s[i], hex)) >= 0; ++i) {
    value = value * (hex ? 16 : 10) + d;
    if (value > 0x10FFFF) value = 0x110000;  // saturate: stays invalid
  }
  if (i == first_digit || i >= s.size() || s[i] != ';') return std::nullopt;
  return Reference{FixNumeric(value), i + 1};
}

bool IsLegacyName(std::string_view name) {
  return name == "amp" || name == "lt" || name == "gt" || name == "quot" || name == "nbsp";
}

std::optional<char32_t> LookupName(const std::string& name) {
  if (name == "apos") return U'\'';
  const htmlEntityDesc* entity = htmlEntityLookup(reinterpret_cast<const xmlChar*>(name.c_str()));
  if (entity == nullptr) return std::nullopt;
  return static_cast<char32_t>(entity->value);
}

// `s` starts with '&' followed by a letter or digit.
std::optional<Reference> ParseNamed(std::string_view s) {
  size_t end = 1;
  while (end < s.size() && std::isalnum(static_cast<unsigned char>(s[end]))) ++end;
  const std::string_view name = s.substr(1, end - 1);
  if (name.empty() || name.size() > kMaxNameLength) return std::nullopt;
  const bool has_semicolon = end < s.size() && s[end] == ';';
  if (!has_semicolon && !IsLegacyName(name)) return std::nullopt;
  const std::optional<char32_t> code_point = LookupName(std::string(name));
  if (!code_point.has_value()) return std::nullopt;
  return Reference{*code_point, has_semicolon ? end + 1 : end};
}

std::optional<Reference> ParseReference(std::string_view s) {
  if (s.size() < 2) return std::nullopt;
  if (s[1] == '#') return ParseNumeric(s);
  return ParseNamed(s);
}

}  // namespace

std::string DecodeHtmlEntities(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const size_t amp = text.find('&', i);
    if (amp == std::string_view::npos) break;
    out.append(text.substr(i, amp - i));
    const std::optional<Reference> ref = ParseReference(text.substr(amp));
    if (ref.has_value()) {
      util::AppendUtf8(ref->code_point, &out);
      i = amp + ref->length;
    } else {
      out.push_back('&');
      i = amp + 1;
    }
  }
  if (i < text.size()) out.append(text.substr(i));
  return out;
}

}  // namespace vertex::html
