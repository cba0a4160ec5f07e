#include "common/rule/split.h"

#include "absl/strings/ascii.h"
#include "common/html/text.h"

namespace vertex::rule {
namespace {

// Whether `separator` occurs in `text` at `pos`.
bool SeparatorAt(std::string_view text, size_t pos, std::string_view separator) {
  if (separator.empty() || text.size() - pos < separator.size()) return false;
  for (size_t i = 0; i < separator.size(); ++i) {
    const char t = text[pos + i], s = separator[i];
    if (s == ' ' ? (t != ' ' && t != '\n') : absl::ascii_tolower(t) != absl::ascii_tolower(s)) return false;
  }
  return true;
}

void AddPart(std::string_view part, std::vector<std::string>* out) {
  std::string normalized = html::NormalizeSpace(part);
  if (!normalized.empty()) out->push_back(std::move(normalized));
}

}  // namespace

const std::vector<std::string>& KnownSeparators() {
  static const std::vector<std::string>* const kSeparators =
      new std::vector<std::string>{",", ";", " and ", "&", "/", "|", "\n"};
  return *kSeparators;
}

std::vector<std::string> SplitValues(const v1::ValueSplit& split, std::string_view text) {
  std::vector<std::string> out;
  size_t part_start = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t longest = 0;
    for (const std::string& s : split.separators()) {
      if (s.size() > longest && SeparatorAt(text, pos, s)) longest = s.size();
    }
    if (longest == 0) {
      ++pos;
      continue;
    }
    AddPart(text.substr(part_start, pos - part_start), &out);
    pos += longest;
    part_start = pos;
  }
  AddPart(text.substr(part_start), &out);
  return out;
}

}  // namespace vertex::rule
