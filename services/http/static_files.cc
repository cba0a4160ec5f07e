#include "services/http/static_files.h"

#include <algorithm>
#include <utility>

#include "absl/strings/match.h"

namespace vertex::http {
namespace {

// Extension -> Content-Type.
constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
    {"html", "text/html; charset=utf-8"},
    {"css", "text/css; charset=utf-8"},
    {"js", "text/javascript; charset=utf-8"},
    {"mjs", "text/javascript; charset=utf-8"},
    {"json", "application/json"},
    {"map", "application/json"},
    {"txt", "text/plain; charset=utf-8"},
    {"svg", "image/svg+xml"},
    {"png", "image/png"},
    {"jpg", "image/jpeg"},
    {"jpeg", "image/jpeg"},
    {"gif", "image/gif"},
    {"ico", "image/x-icon"},
    {"webp", "image/webp"},
    {"woff2", "font/woff2"},
};

std::optional<EmbeddedFile> FindEmbedded(std::string_view path) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path == path) return f;
  }
  return std::nullopt;
}

bool SafeRelativePath(std::string_view path) {
  if (path.empty()) return false;
  for (size_t start = 0; start <= path.size();) {
    size_t slash = path.find('/', start);
    if (slash == std::string_view::npos) slash = path.size();
    const std::string_view segment = path.substr(start, slash - start);
    if (segment.empty() || segment == "." || segment == "..") return false;
    start = slash + 1;
  }
  return true;
}

}  // namespace

std::string ContentTypeOf(std::string_view path) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  if (dot != std::string_view::npos && (slash == std::string_view::npos || dot > slash)) {
    const std::string_view ext = path.substr(dot + 1);
    for (const auto& [e, type] : kTypes) {
      if (absl::EqualsIgnoreCase(absl::string_view(e.data(), e.size()), absl::string_view(ext.data(), ext.size()))) {
        return std::string(type);
      }
    }
  }
  return "application/octet-stream";
}

std::optional<EmbeddedFile> FindStaticFile(std::string_view url_path) {
  if (url_path == "/") return FindEmbedded("index.html");
  constexpr std::string_view kPrefix = "/static/";
  if (url_path.substr(0, kPrefix.size()) != kPrefix) return std::nullopt;
  std::string path(url_path.substr(kPrefix.size()));
  if (!path.empty() && path.back() == '/') path += "index.html";
  if (!SafeRelativePath(path)) return std::nullopt;
  return FindEmbedded(path);
}

}  // namespace vertex::http
