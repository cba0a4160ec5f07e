// The static files of the HTTP face (services/http/web/), embedded in the
// binary at build time: services/http/embed_files.cmake turns every file
// under web/ into a byte array, so adding a page, script or image there
// needs no code change (re-run the build; CMake's glob notices the file).
// Nothing is read from disk or the network at run time.
//
// Thread-safety: immutable data and pure functions.
#ifndef VERTEX_SERVICES_HTTP_STATIC_FILES_H_
#define VERTEX_SERVICES_HTTP_STATIC_FILES_H_

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace vertex::http {

struct EmbeddedFile {
  const char* path;  // relative to web/, '/'-separated: "index.html", "editor/app.js"
  const unsigned char* data;
  size_t size;
};

// Every embedded file, sorted by path (generated).
std::span<const EmbeddedFile> EmbeddedFiles();

// The Content-Type of `path` by its extension (html, css, js, mjs, json,
// svg, png, jpg/jpeg, gif, ico, webp, woff2, txt, map);
// "application/octet-stream" for any other. Text types carry
// "; charset=utf-8".
std::string ContentTypeOf(std::string_view path);

// The file an URL path names: "/" is "index.html"; "/static/X" is X, and
// "/static/D/" (a trailing slash) is "D/index.html". nullopt for any other
// path, one with a "." or ".." segment or an empty segment, and a file not
// embedded.
std::optional<EmbeddedFile> FindStaticFile(std::string_view url_path);

}  // namespace vertex::http

#endif  // VERTEX_SERVICES_HTTP_STATIC_FILES_H_
