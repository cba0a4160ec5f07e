#include "common/feed/match_text.h"

#include <algorithm>
#include <cstdint>

#include "re2/re2.h"

namespace vertex::feed {
namespace {

// Decodes one UTF-8 character at s[i]; an invalid byte reads as itself.
char32_t Decode(std::string_view s, size_t i, size_t* len) {
  const auto b = static_cast<unsigned char>(s[i]);
  int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 1;
  if (i + n > s.size()) n = 1;
  char32_t c = n == 1 ? b : n == 2 ? (b & 0x1f) : n == 3 ? (b & 0x0f) : (b & 0x07);
  for (int k = 1; k < n; ++k) c = (c << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3f);
  *len = n;
  return c;
}

bool IsSpace(char32_t c) {
  return c == ' ' || (c >= 0x09 && c <= 0x0d) || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
         c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

bool IsZeroWidth(char32_t c) { return c == 0x200b || c == 0x200c || c == 0x200d || c == 0xfeff || c == 0xad; }

// The ASCII a typographic character folds to, or "" when it is none.
std::string_view Fold(char32_t c) {
  switch (c) {
    case 0x2018: case 0x2019: case 0x201a: case 0x201b: case 0x2032: case 0x02bc:
      return "'";
    case 0x201c: case 0x201d: case 0x201e: case 0x201f: case 0x2033:
      return "\"";
    case 0x2010: case 0x2011: case 0x2012: case 0x2013: case 0x2014: case 0x2015: case 0x2212:
      return "-";
    case 0x2026:
      return "...";
    default:
      return "";
  }
}

bool IsWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::string_view MatchText::Original(std::string_view original, size_t begin, size_t end) const {
  if (offsets.empty()) return original;
  if (begin >= end || end > text.size()) return {};
  // The end: the original offset of the character after the last byte.
  size_t stop = offsets[end];
  size_t last = offsets[end - 1];
  if (stop <= last) stop = last + 1;  // a folded character's bytes share one offset
  while (stop < original.size() && (static_cast<unsigned char>(original[stop]) & 0xc0) == 0x80) ++stop;
  return original.substr(offsets[begin], std::min(stop, original.size()) - offsets[begin]);
}

MatchText NormalizeForMatch(std::string_view s, bool with_offsets) {
  MatchText m;
  m.text.reserve(s.size());
  if (with_offsets) m.offsets.reserve(s.size() + 1);
  bool pending_space = false;
  for (size_t i = 0, len = 1; i < s.size(); i += len) {
    const char32_t c = Decode(s, i, &len);
    if (IsSpace(c)) {
      pending_space = !m.text.empty();
      continue;
    }
    if (IsZeroWidth(c)) continue;
    if (pending_space) {
      m.text.push_back(' ');
      if (with_offsets) m.offsets.push_back(i);
      pending_space = false;
    }
    std::string_view folded = Fold(c);
    if (!folded.empty()) m.typographic = true;
    std::string_view out = folded.empty() ? s.substr(i, len) : folded;
    for (char b : out) {
      m.text.push_back(b);
      if (with_offsets) m.offsets.push_back(i);
    }
  }
  if (with_offsets) m.offsets.push_back(s.size());
  // Trailing spaces were never written; offsets stay parallel.
  m.folded = m.text;
  for (char& c : m.folded) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return m;
}

bool WordBounded(std::string_view text, size_t pos, size_t len) {
  if (len == 0 || pos + len > text.size()) return false;
  const bool left = pos == 0 || !IsWordByte(text[pos - 1]) || !IsWordByte(text[pos]);
  const bool right = pos + len == text.size() || !IsWordByte(text[pos + len]) || !IsWordByte(text[pos + len - 1]);
  return left && right;
}

size_t FindWord(std::string_view hay, std::string_view needle, size_t from) {
  if (needle.empty()) return std::string_view::npos;
  for (size_t p = hay.find(needle, from); p != std::string_view::npos; p = hay.find(needle, p + 1)) {
    if (WordBounded(hay, p, needle.size())) return p;
  }
  return std::string_view::npos;
}

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

std::string_view TrimAscii(std::string_view s) {
  auto space = [](char c) { return c == ' ' || (c >= 0x09 && c <= 0x0d); };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> Words(std::string_view text) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

size_t CommonWordsInOrder(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

std::string StripMarkupRemnants(std::string_view text, bool* removed) {
  static const RE2* const kRemnant = new RE2(R"(</?[A-Za-z][A-Za-z0-9]*(?:\s[^<>]*)?/?>|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});)");
  std::string out(text);
  *removed = RE2::GlobalReplace(&out, *kRemnant, " ") > 0;
  return *removed ? NormalizeForMatch(out).text : out;
}

bool StripTrailingEllipsis(std::string* text) {
  std::string& t = *text;
  while (!t.empty() && t.back() == ' ') t.pop_back();
  size_t cut = std::string::npos;
  for (std::string_view marker : {"[...]", "(...)", "..."}) {
    if (t.size() >= marker.size() && t.compare(t.size() - marker.size(), marker.size(), marker) == 0) {
      cut = t.size() - marker.size();
      break;
    }
  }
  if (cut == std::string::npos) return false;
  t.resize(cut);
  while (!t.empty() && t.back() == ' ') t.pop_back();
  // The word before the marker may be cut short: drop it.
  const size_t space = t.rfind(' ');
  t.resize(space == std::string::npos ? 0 : space);
  while (!t.empty() && (t.back() == ' ' || t.back() == ',' || t.back() == ';')) t.pop_back();
  return true;
}

}  // namespace vertex::feed
