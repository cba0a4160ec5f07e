#include "common/rule/text_range.h"

#include <vector>

#include "common/html/text.h"

namespace vertex::rule {

std::optional<std::string> ApplyTextRange(const v1::TextRange& range, std::string_view text) {
  const std::string normalized = html::NormalizeSpace(text);
  std::vector<std::string_view> words;
  for (size_t start = 0; start < normalized.size();) {
    size_t end = normalized.find(' ', start);
    if (end == std::string::npos) end = normalized.size();
    words.push_back(std::string_view(normalized).substr(start, end - start));
    start = end + 1;
  }
  const int n = static_cast<int>(words.size());
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
  std::string out(words[first]);
  for (int i = first + 1; i < last; ++i) {
    out += ' ';
    out += words[i];
  }
  return out;
}

}  // namespace vertex::rule
