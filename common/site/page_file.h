// Reading pages stored as files.
//
// A page file may begin with a line `<base href="URL"/>` (after an optional
// UTF-8 byte-order mark) giving the URL it was fetched from: the SWDE
// convention, also used by the demo site generator. Otherwise its URL is
// file:// plus its absolute path.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_SITE_PAGE_FILE_H_
#define VERTEX_COMMON_SITE_PAGE_FILE_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace vertex::site {

struct PageFile {
  std::string path;
  std::string url;
  std::string bytes;
};

// The URL of a `<base href="...">` on the first line of `bytes`, or "".
std::string BaseUrlOnFirstLine(std::string_view bytes);

// Reads `path` (at most `max_bytes`; ResourceExhausted past it, NotFound
// when missing) and determines its URL: `url` when not empty (the URL the
// user gave, whatever the first line says), else as above.
absl::StatusOr<PageFile> ReadPageFile(const std::string& path, size_t max_bytes, const std::string& url = "");

// Whether `url` is an absolute URL: a scheme ([A-Za-z][A-Za-z0-9+.-]*),
// "://", then at least one character, and no space or control character.
bool IsAbsoluteUrl(std::string_view url);

// Expands command-line arguments into page files: a directory contributes
// its *.htm and *.html files (sorted, not recursive), a file itself.
// NotFound naming the argument when it does not exist; InvalidArgument when
// nothing at all is found.
absl::StatusOr<std::vector<std::string>> ExpandPagePaths(const std::vector<std::string>& args);

}  // namespace vertex::site

#endif  // VERTEX_COMMON_SITE_PAGE_FILE_H_
