#include "common/html/nesting.h"

#include <cstring>

#include "absl/strings/ascii.h"

namespace vertex::html {
namespace {

// Elements that never hold children, or whose end tag the tree builder
// supplies by itself (so unclosed ones do not deepen the tree).
bool DoesNotNest(std::string_view name) {
  static constexpr std::string_view kNames[] = {
      "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
      "param", "source", "track", "wbr", "keygen", "basefont", "bgsound", "frame",
      "p", "li", "dt", "dd", "rt", "rp", "option", "optgroup", "tr", "td", "th",
      "tbody", "thead", "tfoot", "colgroup", "caption", "html", "head", "body", "!doctype"};
  for (std::string_view n : kNames) {
    if (n == name) return true;
  }
  return false;
}

bool IsRawText(std::string_view name) {
  return name == "script" || name == "style" || name == "textarea" || name == "title" ||
         name == "xmp" || name == "iframe" || name == "noembed" || name == "noframes" ||
         name == "plaintext";
}

// Lowercase tag name starting at s[pos] (at most 16 chars kept).
std::string_view TagName(std::string_view s, size_t pos, char* buf) {
  size_t n = 0;
  while (pos + n < s.size() && n < 16) {
    const char c = s[pos + n];
    if (!(absl::ascii_isalnum(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '!')) break;
    buf[n] = absl::ascii_tolower(static_cast<unsigned char>(c));
    ++n;
  }
  return std::string_view(buf, n);
}

// Position just past the '>' ending the tag that starts at `pos`, honouring
// quoted attribute values.
size_t SkipTag(std::string_view s, size_t pos) {
  char quote = 0;
  for (size_t i = pos; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '>') {
      return i + 1;
    }
  }
  return s.size();
}

// Finds the case-insensitive end tag "</name" at or after pos.
size_t FindEndTag(std::string_view s, size_t pos, std::string_view name) {
  while (true) {
    const void* p = std::memchr(s.data() + pos, '<', s.size() - pos);
    if (p == nullptr) return s.size();
    pos = static_cast<const char*>(p) - s.data();
    if (pos + 1 + name.size() < s.size() && s[pos + 1] == '/') {
      char buf[16];
      if (TagName(s, pos + 2, buf) == name) return pos;
    }
    ++pos;
  }
}

}  // namespace

NestingEstimate EstimateNestingDepth(std::string_view s, int limit) {
  NestingEstimate est;
  int depth = 0;
  size_t pos = 0;
  char buf[16];
  while (pos < s.size()) {
    const void* p = std::memchr(s.data() + pos, '<', s.size() - pos);
    if (p == nullptr) break;
    pos = static_cast<const char*>(p) - s.data();
    if (s.compare(pos, 4, "<!--") == 0) {
      const size_t end = s.find("-->", pos + 4);
      pos = end == std::string_view::npos ? s.size() : end + 3;
      continue;
    }
    const bool is_end = pos + 1 < s.size() && s[pos + 1] == '/';
    const std::string_view name = TagName(s, pos + (is_end ? 2 : 1), buf);
    if (name.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(name[0]))) {
      ++pos;
      continue;
    }
    const size_t tag_start = pos;
    pos = SkipTag(s, pos);
    if (DoesNotNest(name)) continue;
    if (is_end) {
      if (depth > 0) --depth;
      continue;
    }
    if (IsRawText(name)) {
      pos = FindEndTag(s, pos, name);
      if (pos < s.size()) pos = SkipTag(s, pos);  // the end tag itself
      continue;
    }
    ++depth;
    if (depth > est.max_depth) est.max_depth = depth;
    if (depth > limit) {
      est.offset_over_limit = tag_start;
      return est;
    }
  }
  return est;
}

}  // namespace vertex::html
