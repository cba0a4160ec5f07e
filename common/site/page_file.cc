#include "common/site/page_file.h"

#include <cctype>
#include <filesystem>
#include <system_error>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"

namespace vertex::site {

std::string BaseUrlOnFirstLine(std::string_view bytes) {
  if (absl::StartsWith(std::string(bytes.substr(0, 3)), "\xEF\xBB\xBF")) bytes.remove_prefix(3);
  const size_t eol = bytes.find('\n');
  const std::string line = absl::AsciiStrToLower(std::string(bytes.substr(0, eol)));
  const std::string_view raw = bytes.substr(0, eol);
  const size_t start = line.find_first_not_of(" \t\r");
  if (start == std::string::npos || line.compare(start, 5, "<base") != 0) return "";
  const size_t href = line.find("href", start);
  if (href == std::string::npos) return "";
  size_t pos = line.find('=', href);
  if (pos == std::string::npos) return "";
  pos = line.find_first_not_of(" \t", pos + 1);
  if (pos == std::string::npos) return "";
  const char quote = line[pos];
  if (quote != '"' && quote != '\'') {
    const size_t end = line.find_first_of(" \t>\r", pos);
    return std::string(raw.substr(pos, end == std::string::npos ? std::string::npos : end - pos));
  }
  const size_t end = line.find(quote, pos + 1);
  if (end == std::string::npos) return "";
  return std::string(raw.substr(pos + 1, end - pos - 1));
}

absl::StatusOr<PageFile> ReadPageFile(const std::string& path, size_t max_bytes, const std::string& url) {
  PageFile page;
  page.path = path;
  VERTEX_ASSIGN_OR_RETURN(page.bytes, util::ReadFile(path, max_bytes));
  page.url = url.empty() ? BaseUrlOnFirstLine(page.bytes) : url;
  if (page.url.empty()) {
    std::error_code ec;
    const std::filesystem::path abs = std::filesystem::absolute(path, ec);
    page.url = "file://" + (ec ? path : abs.lexically_normal().string());
  }
  return page;
}

bool IsAbsoluteUrl(std::string_view url) {
  const size_t colon = url.find("://");
  if (colon == 0 || colon == std::string_view::npos || colon + 3 >= url.size()) return false;
  if (!std::isalpha(static_cast<unsigned char>(url[0]))) return false;
  for (size_t i = 1; i < colon; ++i) {
    const char c = url[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '.' && c != '-') return false;
  }
  for (const char c : url) {
    if (static_cast<unsigned char>(c) <= ' ' || c == 0x7f) return false;
  }
  return true;
}

absl::StatusOr<std::vector<std::string>> ExpandPagePaths(const std::vector<std::string>& args) {
  std::vector<std::string> files;
  for (const std::string& arg : args) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> listed, util::ListFiles(arg, {".htm", ".html"}));
      files.insert(files.end(), listed.begin(), listed.end());
    } else if (std::filesystem::exists(arg, ec)) {
      files.push_back(arg);
    } else {
      return absl::NotFoundError("page path '" + arg + "' does not exist");
    }
  }
  if (files.empty()) return absl::InvalidArgumentError("no .htm or .html pages found in the given paths");
  return files;
}

}  // namespace vertex::site
