#include "common/annotate/gazetteer_file.h"

#include <memory>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"
#include "re2/re2.h"

namespace vertex::annotate {

absl::StatusOr<Gazetteer> ReadGazetteerFile(const std::string& path) {
  VERTEX_ASSIGN_OR_RETURN(std::string text, util::ReadFile(path, kMaxGazetteerFileBytes));
  Gazetteer out;
  size_t line_number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line);
    if (line.empty() || line[0] == '#') continue;
    if (!util::IsValidUtf8(std::string_view(line.data(), line.size()))) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": the term is not UTF-8"));
    }
    if (!out.Add(std::string_view(line.data(), line.size()))) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": the term is refused (empty, or longer than 200 bytes)"));
    }
  }
  return out;
}

absl::StatusOr<GazetteerSet> ReadGazetteerSpecs(const std::vector<std::string>& specs) {
  GazetteerSet out;
  static const LazyRE2 kName = {"[a-z][a-z0-9_]*"};
  for (const std::string& spec : specs) {
    const size_t eq = spec.find('=');
    if (eq == std::string::npos) {
      return absl::InvalidArgumentError("gazetteer \"" + spec + "\": give NAME=FILE, e.g. uk_places=places.txt");
    }
    const std::string name = spec.substr(0, eq);
    if (!RE2::FullMatch(name, *kName)) {
      return absl::InvalidArgumentError("gazetteer \"" + spec + "\": the name must match [a-z][a-z0-9_]*");
    }
    if (out.count(name)) return absl::InvalidArgumentError("gazetteer \"" + name + "\" given twice");
    VERTEX_ASSIGN_OR_RETURN(Gazetteer g, ReadGazetteerFile(spec.substr(eq + 1)));
    out.emplace(name, std::make_shared<const Gazetteer>(std::move(g)));
  }
  return out;
}

std::string GazetteerText(const Gazetteer& gazetteer) {
  std::string out;
  for (const std::string& t : gazetteer.Terms()) absl::StrAppend(&out, t, "\n");
  return out;
}

}  // namespace vertex::annotate
