#include "common/html/nesting.h"

#include <algorithm>
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

// Position just past the '>' ending the tag whose name ends at `pos`, as
// the HTML tokenizer reads it (attribute names, "=", quoted or unquoted
// values); `*attributes` receives the number of attributes.
size_t SkipTag(std::string_view s, size_t pos, int* attributes) {
  enum { kBeforeName, kName, kAfterName, kBeforeValue, kQuoted, kUnquoted } state = kBeforeName;
  char quote = 0;
  int count = 0;
  for (size_t i = pos; i < s.size(); ++i) {
    const char c = s[i];
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
    switch (state) {
      case kBeforeName:
        if (c == '>') return *attributes = count, i + 1;
        if (!space && c != '/') ++count, state = kName;
        break;
      case kName:
        if (c == '>') return *attributes = count, i + 1;
        if (space) state = kAfterName;
        else if (c == '=') state = kBeforeValue;
        else if (c == '/') state = kBeforeName;
        break;
      case kAfterName:
        if (c == '>') return *attributes = count, i + 1;
        if (c == '=') state = kBeforeValue;
        else if (c == '/') state = kBeforeName;
        else if (!space) ++count, state = kName;
        break;
      case kBeforeValue:
        if (c == '>') return *attributes = count, i + 1;
        if (c == '"' || c == '\'') quote = c, state = kQuoted;
        else if (!space) state = kUnquoted;
        break;
      case kQuoted: {  // jump to the closing quote: values (URLs, styles) are the long part of tags
        const void* end = std::memchr(s.data() + i, quote, s.size() - i);
        if (end == nullptr) return *attributes = count, s.size();
        i = static_cast<const char*>(end) - s.data();
        state = kBeforeName;
        break;
      }
      case kUnquoted:
        if (c == '>') return *attributes = count, i + 1;
        if (space) state = kBeforeName;
        break;
    }
  }
  *attributes = count;
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


// Advances `pos` past the tag name at s[pos] (the whole name, however long).
size_t SkipName(std::string_view s, size_t pos) {
  while (pos < s.size()) {
    const char c = s[pos];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '/' || c == '>') break;
    ++pos;
  }
  return pos;
}

}  // namespace

PreScanResult PreScanStructure(std::string_view s, const PreScanLimits& limits) {
  PreScanResult result;
  int depth = 0;
  size_t pos = 0;
  char buf[16];
  const auto over = [&](PreScanResult::Over what, size_t tag_start, std::string_view name) {
    result.over = what;
    result.offset_over_limit = tag_start;
    result.tag = std::string(name);
    return result;
  };
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
    const size_t name_start = pos + (is_end ? 2 : 1);
    const std::string_view name = TagName(s, name_start, buf);
    if (name.empty() || !absl::ascii_isalpha(static_cast<unsigned char>(name[0]))) {
      ++pos;
      continue;
    }
    const size_t tag_start = pos;
    int attributes = 0;
    pos = SkipTag(s, SkipName(s, name_start), &attributes);
    if (attributes > result.max_attributes) result.max_attributes = attributes;
    if (attributes > limits.max_attributes) return over(PreScanResult::Over::kAttributes, tag_start, name);
    if (limits.libxml2) {
      if (!is_end && (name == "script" || name == "style")) {
        pos = FindEndTag(s, pos, name);
        if (pos < s.size()) pos = SkipTag(s, SkipName(s, pos + 2), &attributes);  // the end tag itself
      }
      continue;
    }
    if (DoesNotNest(name)) continue;
    if (is_end) {
      if (depth > 0) --depth;
      continue;
    }
    if (IsRawText(name)) {
      pos = FindEndTag(s, pos, name);
      if (pos < s.size()) pos = SkipTag(s, SkipName(s, pos + 2), &attributes);  // the end tag itself
      continue;
    }
    ++depth;
    if (depth > result.max_depth) result.max_depth = depth;
    if (depth > limits.max_depth) return over(PreScanResult::Over::kDepth, tag_start, name);
  }
  return result;
}

size_t LineAt(std::string_view s, size_t offset) {
  offset = std::min(offset, s.size());
  size_t line = 1;
  for (size_t i = 0; i < offset; ++i) line += s[i] == '\n';
  return line;
}

}  // namespace vertex::html
