// File helpers that report errors as absl::Status naming the path.
//
// Thread-safety: pure functions over the file system.
#ifndef VERTEX_COMMON_UTIL_FILE_H_
#define VERTEX_COMMON_UTIL_FILE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace vertex::util {

// Reads the whole file. NotFound when it does not exist; ResourceExhausted
// when it is larger than `max_bytes` (nothing past the limit is read).
absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     size_t max_bytes = SIZE_MAX);

// Writes `contents` to `path` atomically (a temporary file renamed over it),
// creating parent directories.
absl::Status WriteFile(const std::string& path, const std::string& contents);

// The regular files directly in `dir` whose names end with one of
// `extensions` (all files when empty), sorted by name.
absl::StatusOr<std::vector<std::string>> ListFiles(
    const std::string& dir, const std::vector<std::string>& extensions);

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_FILE_H_
