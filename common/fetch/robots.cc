#include "common/fetch/robots.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vertex::fetch {
namespace {

bool IsTokenChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

char Lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (Lower(a[i]) != Lower(b[i])) return false;
  }
  return true;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool IsHex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

char Upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

// Puts a path or pattern in one form so that they compare octet by octet:
// bytes outside ASCII are percent-encoded and the hex digits of existing
// %XX escapes upper-cased (RFC 9309 2.2.2).
std::string NormalizePercent(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x80) {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    } else if (c == '%' && i + 2 < s.size() && IsHex(s[i + 1]) && IsHex(s[i + 2])) {
      out += '%';
      out += Upper(s[i + 1]);
      out += Upper(s[i + 2]);
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Whether `pattern` matches `path`: `*` matches any run of octets, a final
// `$` anchors the match at the end of `path`, else a prefix of `path` is
// enough. The classic two-pointer glob: on a mismatch it resumes after the
// last `*`, one octet further into `path`; no recursion.
bool PatternMatches(std::string_view pattern, std::string_view path) {
  const bool anchored = !pattern.empty() && pattern.back() == '$';
  if (anchored) pattern.remove_suffix(1);
  constexpr size_t kNone = std::string_view::npos;
  size_t i = 0, j = 0, star = kNone, mark = 0;
  while (true) {
    if (!anchored && j == pattern.size()) return true;
    if (i == path.size()) break;
    if (j < pattern.size() && pattern[j] == '*') {
      star = j++;
      mark = i;
    } else if (j < pattern.size() && pattern[j] == path[i]) {
      ++i;
      ++j;
    } else if (star != kNone) {
      j = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (j < pattern.size() && pattern[j] == '*') ++j;
  return j == pattern.size();
}

// One `key: value` line, comment removed; key lower-cased. Empty key when the
// line is blank or has no colon.
struct Line {
  std::string key;
  std::string_view value;
};

Line SplitLine(std::string_view line) {
  const size_t hash = line.find('#');
  if (hash != std::string_view::npos) line = line.substr(0, hash);
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return {};
  Line out;
  for (char c : Trim(line.substr(0, colon))) out.key += Lower(c);
  out.value = Trim(line.substr(colon + 1));
  return out;
}

// Splits on LF, CR and CRLF; empty lines are returned too (they are harmless).
std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || text[i] == '\r') {
      lines.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  if (start < text.size()) lines.push_back(text.substr(start));
  return lines;
}

}  // namespace

std::string ProductToken(std::string_view user_agent) {
  user_agent = Trim(user_agent);
  size_t n = 0;
  while (n < user_agent.size() && IsTokenChar(user_agent[n])) ++n;
  return std::string(user_agent.substr(0, n));
}

// Phases: cut to kMaxBytes and strip a BOM; then one pass over the lines
// keeping the current group's membership (ours, `*`, both or neither), which
// a `User-agent` line after a rule resets; rules go to the specific and/or
// the global list; at the end the specific list wins if any group named us.
Robots Robots::Parse(std::string_view text, std::string_view user_agent_token) {
  if (text.size() > kMaxBytes) text = text.substr(0, kMaxBytes);
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);

  std::vector<Rule> specific, global;
  bool specific_seen = false;  // some group names our token
  bool in_group = false;       // a User-agent line was seen
  bool after_rule = true;      // the next User-agent line starts a new group
  bool group_specific = false, group_global = false;
  for (std::string_view raw : SplitLines(text)) {
    const Line line = SplitLine(raw);
    if (line.key == "user-agent") {
      if (after_rule) group_specific = group_global = false;
      after_rule = false;
      in_group = true;
      if (line.value == "*") {
        group_global = true;
      } else if (!user_agent_token.empty() &&
                 EqualsIgnoreCase(ProductToken(line.value), user_agent_token)) {
        group_specific = specific_seen = true;
      }
    } else if (line.key == "allow" || line.key == "disallow") {
      after_rule = true;
      if (!in_group || line.value.empty()) continue;  // empty: allows everything
      Rule rule{line.key == "allow", NormalizePercent(line.value)};
      if (group_specific) specific.push_back(rule);
      if (group_global) global.push_back(std::move(rule));
    }
  }
  Robots robots;
  robots.rules_ = specific_seen ? std::move(specific) : std::move(global);
  return robots;
}

Robots Robots::AllowAll() { return Robots(); }

Robots Robots::DisallowAll() {
  Robots robots;
  robots.disallow_all_ = true;
  return robots;
}

bool Robots::Allowed(std::string_view path_and_query) const {
  if (path_and_query == "/robots.txt") return true;
  if (disallow_all_) return false;
  const std::string path = NormalizePercent(path_and_query);
  size_t best_length = 0;
  bool best_allow = true;
  bool matched = false;
  for (const Rule& rule : rules_) {
    if (matched && rule.pattern.size() < best_length) continue;
    if (!PatternMatches(rule.pattern, path)) continue;
    if (!matched || rule.pattern.size() > best_length ||
        (rule.pattern.size() == best_length && rule.allow)) {
      best_length = rule.pattern.size();
      best_allow = rule.allow;
      matched = true;
    }
  }
  return best_allow;
}

}  // namespace vertex::fetch
