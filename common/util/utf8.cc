#include "common/util/utf8.h"

#include <cstdint>
#include <cstring>

namespace vertex::util {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when the bytes
// there are ill-formed. On 0, *bad_len is the length of the maximal ill-formed
// prefix to replace (always >= 1).
size_t ValidSequenceLength(std::string_view s, size_t i, size_t* bad_len) {
  const auto b = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  const uint8_t c = b(i);
  *bad_len = 1;
  if (c < 0x80) return 1;
  size_t need;
  uint8_t lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF) {
    need = 1;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 2;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 3;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (size_t k = 1; k <= need; ++k) {
    if (i + k >= s.size()) return 0;
    const uint8_t t = b(i + k);
    const uint8_t l = (k == 1) ? lo : 0x80;
    const uint8_t h = (k == 1) ? hi : 0xBF;
    if (t < l || t > h) return 0;
    *bad_len = k + 1;
  }
  return need + 1;
}

// True when the 8 bytes at p are all ASCII.
bool AsciiWord(const char* p) {
  uint64_t word;
  std::memcpy(&word, p, sizeof(word));
  return (word & 0x8080808080808080ull) == 0;
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    // Pages are mostly ASCII: skip it 8 bytes at a time.
    while (i + 8 <= s.size() && AsciiWord(s.data() + i)) i += 8;
    if (i >= s.size()) break;
    if (static_cast<uint8_t>(s[i]) < 0x80) {
      ++i;
      continue;
    }
    size_t bad;
    const size_t n = ValidSequenceLength(s, i, &bad);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string ToValidUtf8(std::string_view s) {
  if (IsValidUtf8(s)) return std::string(s);
  std::string out;
  out.reserve(s.size() + 16);
  size_t i = 0;
  while (i < s.size()) {
    size_t bad;
    const size_t n = ValidSequenceLength(s, i, &bad);
    if (n == 0) {
      out.append("\xEF\xBF\xBD");
      i += bad;
    } else {
      out.append(s.substr(i, n));
      i += n;
    }
  }
  return out;
}

void AppendUtf8(char32_t cp, std::string* out) {
  if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = 0xFFFD;
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace vertex::util
