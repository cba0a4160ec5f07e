#include "common/eval/ground_truth.h"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <optional>
#include <system_error>
#include <tuple>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/entities.h"
#include "common/html/text.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"

namespace vertex::eval {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNull = "<NULL>";
constexpr std::string_view kBom = "\xEF\xBB\xBF";

// A ground-truth file of the wanted site.
struct TruthFile {
  std::string path;
  std::string vertical;
  std::string attribute;
};

// Page id -> values of one attribute.
using AttributeValues = absl::flat_hash_map<std::string, std::vector<std::string>>;

// Parses "<vertical>-<site>-<attribute>.txt"; nullopt for files of other sites.
std::optional<TruthFile> ParseFileName(const fs::path& path, const std::string& site) {
  const std::string name = path.filename().string();
  constexpr std::string_view kExtension = ".txt";
  if (name.size() <= kExtension.size() || !name.ends_with(kExtension)) return std::nullopt;
  const std::string stem = name.substr(0, name.size() - kExtension.size());
  const std::string infix = absl::StrCat("-", site, "-");
  const size_t pos = stem.find(infix, 1);
  if (pos == std::string::npos || pos + infix.size() >= stem.size()) return std::nullopt;
  return TruthFile{path.string(), stem.substr(0, pos), stem.substr(pos + infix.size())};
}

absl::StatusOr<std::vector<TruthFile>> FindTruthFiles(const std::string& dir,
                                                      const std::string& site) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return absl::NotFoundError(
        absl::StrCat("ground truth of site '", site, "': '", dir, "' is not a directory"));
  }
  std::vector<TruthFile> files;
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    std::error_code type_ec;
    if (!it->is_regular_file(type_ec)) continue;
    std::optional<TruthFile> file = ParseFileName(it->path(), site);
    if (file.has_value()) files.push_back(*std::move(file));
  }
  if (ec) {
    return absl::PermissionDeniedError(absl::StrCat("cannot list '", dir, "': ", ec.message()));
  }
  if (files.empty()) {
    return absl::NotFoundError(absl::StrCat("no ground-truth file <vertical>-", site,
                                            "-<attribute>.txt under '", dir, "'"));
  }
  std::sort(files.begin(), files.end(), [](const TruthFile& a, const TruthFile& b) {
    return std::tie(a.vertical, a.attribute, a.path) < std::tie(b.vertical, b.attribute, b.path);
  });
  return files;
}

// One vertical and one file per attribute; `files` sorted as FindTruthFiles does.
absl::Status CheckConsistent(const std::vector<TruthFile>& files, const std::string& site) {
  if (files.back().vertical != files.front().vertical) {
    return absl::InvalidArgumentError(absl::StrCat(
        "ground truth of site '", site, "' for several verticals ('", files.front().path, "', '",
        files.back().path, "'): pass the directory of one vertical"));
  }
  for (size_t i = 1; i < files.size(); ++i) {
    if (files[i].attribute == files[i - 1].attribute) {
      return absl::InvalidArgumentError(absl::StrCat("two ground-truth files for attribute '",
                                                     files[i].attribute, "': '", files[i - 1].path,
                                                     "' and '", files[i].path, "'"));
    }
  }
  return absl::OkStatus();
}

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  for (size_t tab; (tab = line.find('\t', start)) != std::string_view::npos; start = tab + 1) {
    fields.push_back(line.substr(start, tab - start));
  }
  fields.push_back(line.substr(start));
  return fields;
}

std::optional<size_t> ParseCount(std::string_view field) {
  size_t count = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, count);
  if (field.empty() || ec != std::errc() || ptr != end) return std::nullopt;
  return count;
}

absl::Status LineError(std::string_view where, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(std::string(where), ": ", std::string(what)));
}

// Parses "<page id>\t<N>\t<value 1>...\t<value N>"; `where` is "<file>:<line>".
absl::StatusOr<std::pair<std::string, std::vector<std::string>>> ParseLine(std::string_view line,
                                                                           std::string_view where) {
  const std::vector<std::string_view> fields = SplitTabs(line);
  if (fields.size() < 2 || fields[0].empty()) {
    return LineError(where, "expected \"<page id>\\t<count>\\t<values>...\"");
  }
  const std::optional<size_t> count = ParseCount(fields[1]);
  if (!count.has_value()) {
    return LineError(where, absl::StrCat("count '", std::string(fields[1]), "' is not a number"));
  }
  if (fields.size() - 2 < *count) {
    return LineError(
        where, absl::StrCat("count says ", *count, " values, the line has ", fields.size() - 2));
  }
  std::vector<std::string> values;
  for (size_t i = 2; i < fields.size(); ++i) {
    if (fields[i] == kNull || (i >= 2 + *count && fields[i].empty())) continue;
    if (i >= 2 + *count) {
      return LineError(where, absl::StrCat("more values than the count ", *count));
    }
    values.push_back(html::DecodeHtmlEntities(fields[i]));
  }
  return std::make_pair(std::string(fields[0]), std::move(values));
}

absl::StatusOr<AttributeValues> ParseTruthFile(const std::string& path, std::string_view text) {
  if (text.starts_with(kBom)) text.remove_prefix(kBom.size());
  AttributeValues pages;
  size_t line_number = 0;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.ends_with('\r')) line.remove_suffix(1);
    if (line_number <= 2 || html::IsBlank(line)) continue;
    const std::string where = absl::StrCat(path, ":", line_number);
    VERTEX_ASSIGN_OR_RETURN(auto page, ParseLine(line, where));
    if (!pages.emplace(page.first, std::move(page.second)).second) {
      return LineError(where, absl::StrCat("page '", page.first, "' listed twice"));
    }
  }
  if (line_number < 2) {
    return LineError(absl::StrCat(path, ":", line_number + 1), "missing header line");
  }
  return pages;
}

}  // namespace

absl::StatusOr<GroundTruth> LoadGroundTruth(const std::string& dir, const std::string& site) {
  if (site.empty()) return absl::InvalidArgumentError("ground truth: the site name is empty");
  VERTEX_ASSIGN_OR_RETURN(const std::vector<TruthFile> files, FindTruthFiles(dir, site));
  VERTEX_RETURN_IF_ERROR(CheckConsistent(files, site));
  GroundTruth truth;
  truth.vertical = files[0].vertical;
  truth.site = site;
  for (const TruthFile& file : files) {
    VERTEX_ASSIGN_OR_RETURN(const std::string text, util::ReadFile(file.path));
    VERTEX_ASSIGN_OR_RETURN(AttributeValues values, ParseTruthFile(file.path, text));
    truth.attributes.push_back(file.attribute);
    for (auto& [page_id, page_values] : values) {
      truth.pages[page_id][file.attribute] = std::move(page_values);
    }
  }
  return truth;
}

std::string PageIdOfFile(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  const size_t dot = base.rfind('.');
  if (dot != std::string_view::npos && dot > 0) base = base.substr(0, dot);
  return std::string(base);
}

}  // namespace vertex::eval
