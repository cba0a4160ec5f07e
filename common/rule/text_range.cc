#include "common/rule/text_range.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/ascii.h"
#include "absl/strings/str_split.h"
#include "common/html/text.h"
#include "common/schema/schema.h"

namespace vertex::rule {
namespace {

bool IsContinuationByte(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The code point index of every byte offset of `s` (size s.size() + 1): a
// byte inside a code point gets the index of the code point it belongs to.
std::vector<size_t> CodePointIndex(std::string_view s) {
  std::vector<size_t> index(s.size() + 1);
  size_t cp = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if (i > 0 && !IsContinuationByte(s[i])) ++cp;
    index[i] = cp;
  }
  index[s.size()] = s.empty() ? 0 : cp + 1;
  return index;
}

// The byte offset where `range`'s nearest match is measured from, and
// whether match ends (not starts) are compared with it.
size_t TargetOffset(const v1::TextRange& range, const std::vector<TextUnit>& units, size_t size) {
  const int n = static_cast<int>(units.size());
  if (range.anchor_end()) {
    const int k = n - std::max(range.skip_end(), 0);  // units up to the value's end
    return k <= 0 ? 0 : units[k - 1].end;
  }
  const int k = std::max(range.skip_start(), 0);
  return k >= n ? size : units[k].begin;
}

// The value a match gives: its first group when the regex has one, trimmed.
std::optional<std::string_view> MatchValue(const RE2& regex, const re2::StringPiece* m) {
  const re2::StringPiece g = schema::ValueOfMatch(regex, m);
  if (g.data() == nullptr) return std::nullopt;
  std::string_view v(g.data(), g.size());
  while (!v.empty() && absl::ascii_isspace(static_cast<unsigned char>(v.front()))) v.remove_prefix(1);
  while (!v.empty() && absl::ascii_isspace(static_cast<unsigned char>(v.back()))) v.remove_suffix(1);
  if (v.empty()) return std::nullopt;
  return v;
}

}  // namespace

std::string NormalizeLines(std::string_view text) {
  if (text.find('\n') == std::string_view::npos) return html::NormalizeSpace(text);
  std::string out;
  for (absl::string_view line : absl::StrSplit(absl::string_view(text.data(), text.size()), '\n')) {
    std::string normalized = html::NormalizeSpace(std::string_view(line.data(), line.size()));
    if (normalized.empty()) continue;
    if (!out.empty()) out += '\n';
    out += normalized;
  }
  return out;
}

std::vector<TextUnit> TextUnits(std::string_view normalized, v1::TextRange::Unit unit) {
  std::vector<TextUnit> out;
  if (unit == v1::TextRange::CHARACTERS) {
    for (size_t i = 0; i < normalized.size(); ++i) {
      if (i > 0 && IsContinuationByte(normalized[i]) && !out.empty()) {
        out.back().end = i + 1;
      } else {
        out.push_back({i, i + 1});
      }
    }
    return out;
  }
  for (size_t start = 0; start < normalized.size();) {
    size_t end = normalized.find_first_of(" \n", start);
    if (end == std::string_view::npos) end = normalized.size();
    if (end > start) out.push_back({start, end});
    start = end + 1;
  }
  return out;
}

std::optional<std::string> ApplyTextRange(const v1::TextRange& range, std::string_view text) {
  const std::string normalized = NormalizeLines(text);
  const std::vector<TextUnit> units = TextUnits(normalized, range.unit());
  const int n = static_cast<int>(units.size());
  int first = range.skip_start();
  int last = n - range.skip_end();  // exclusive
  if (range.skip_start() < 0 || range.skip_end() < 0 || first >= last) return std::nullopt;
  if (range.length() > 0) {
    if (last - first < range.length()) return std::nullopt;
    if (range.anchor_end()) {
      first = last - range.length();
    } else {
      last = first + range.length();
    }
  }
  return normalized.substr(units[first].begin, units[last - 1].end - units[first].begin);
}

std::optional<std::string> NearestMatch(const v1::TextRange& range, const RE2& regex, std::string_view text) {
  std::string normalized = NormalizeLines(text);
  std::replace(normalized.begin(), normalized.end(), '\n', ' ');
  const std::vector<size_t> cp = CodePointIndex(normalized);
  const size_t target_byte = TargetOffset(range, TextUnits(normalized, range.unit()), normalized.size());
  const size_t target = cp[target_byte];
  const int groups = std::min(regex.NumberOfCapturingGroups(), schema::kMaxValueRegexGroups);
  const re2::StringPiece input(normalized.data(), normalized.size());
  re2::StringPiece m[schema::kMaxValueRegexGroups + 1];
  std::optional<std::string_view> best;
  size_t best_distance = 0;
  // Only matches starting within kNearestMatchWindow bytes of the target and
  // at most kNearestMatchMaxBytes long count: a search from every start
  // would cost the text's length times the match's (a regex like [0-9,.]+
  // on a megabyte of digits matches at every start, to the end), so the
  // work is bounded by the window, whatever the text's size.
  size_t lo = target_byte > kNearestMatchWindow ? target_byte - kNearestMatchWindow : 0;
  while (lo < normalized.size() && IsContinuationByte(normalized[lo])) ++lo;
  const size_t last_start = std::min(normalized.size(), target_byte + kNearestMatchWindow);
  const size_t limit = std::min(normalized.size(), last_start + kNearestMatchMaxBytes);
  // Every start position with a match, each found by one unanchored search
  // (no start between p and the match's start has one).
  for (size_t p = lo; p <= last_start;) {
    if (!regex.Match(input, p, limit, RE2::UNANCHORED, m, groups + 1)) break;
    const size_t start = m[0].data() - normalized.data();
    if (start > last_start) break;
    const size_t end = start + m[0].size();
    if (end == limit && limit < normalized.size()) {  // cut by the limit: its true end is unknown
      p = start + 1;
      while (p < normalized.size() && IsContinuationByte(normalized[p])) ++p;
      continue;
    }
    const size_t at = cp[range.anchor_end() ? start + m[0].size() : start];
    // Later matches start (and so end) further away.
    if (best && cp[start] > target && cp[start] - target > best_distance) break;
    const size_t distance = at > target ? at - target : target - at;
    std::optional<std::string_view> value = MatchValue(regex, m);
    // A tie goes to the earlier start, or with anchor_end to the later (two
    // matches may end at one place: "£7.49" and "7.49").
    if (value && (!best || distance < best_distance || (range.anchor_end() && distance == best_distance))) {
      best = value;
      best_distance = distance;
    }
    p = start + 1;
    while (p < normalized.size() && IsContinuationByte(normalized[p])) ++p;
  }
  if (!best) return std::nullopt;
  return std::string(*best);
}

}  // namespace vertex::rule
