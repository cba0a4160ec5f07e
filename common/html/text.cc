#include "common/html/text.h"

namespace vertex::html {
namespace {

// Length of the whitespace character at s[i], or 0.
size_t SpaceLength(std::string_view s, size_t i) {
  const char c = s[i];
  if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') return 1;
  if (c == '\xC2' && i + 1 < s.size() && s[i + 1] == '\xA0') return 2;
  return 0;
}

}  // namespace

std::string NormalizeSpace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  size_t i = 0;
  while (i < s.size()) {
    const size_t n = SpaceLength(s, i);
    if (n > 0) {
      pending_space = !out.empty();
      i += n;
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(s[i]);
    ++i;
  }
  return out;
}

std::string NormalizeXmlSpace(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  bool pending_space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out.push_back(' ');
    pending_space = false;
    out.push_back(c);
  }
  return out;
}

bool IsBlank(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    const size_t n = SpaceLength(s, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string FoldText(std::string_view s) {
  std::string out = NormalizeSpace(s);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

}  // namespace vertex::html
