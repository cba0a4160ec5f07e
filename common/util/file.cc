#include "common/util/file.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace vertex::util {

absl::StatusOr<std::string> ReadFile(const std::string& path, size_t max_bytes) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError("'" + path + "' is a directory, not a file");
  }
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    const int err = errno;
    const std::string msg = "cannot open '" + path + "': " + std::strerror(err);
    return err == ENOENT ? absl::NotFoundError(msg) : absl::PermissionDeniedError(msg);
  }
  std::string data;
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0) {
    if (data.size() + n > max_bytes) {
      std::fclose(f);
      return absl::ResourceExhaustedError("'" + path + "' is larger than the limit of " +
                                          std::to_string(max_bytes) + " bytes");
    }
    data.append(buf, n);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return absl::DataLossError("error while reading '" + path + "'");
  return data;
}

absl::Status WriteFile(const std::string& path, const std::string& contents) {
  std::error_code ec;
  const std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path(), ec);
  if (ec) return absl::PermissionDeniedError("cannot create directory for '" + path + "': " + ec.message());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return absl::PermissionDeniedError("cannot write '" + tmp + "'");
    out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    if (!out) return absl::DataLossError("error while writing '" + tmp + "'");
  }
  std::filesystem::rename(tmp, p, ec);
  if (ec) return absl::DataLossError("cannot rename '" + tmp + "' to '" + path + "': " + ec.message());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> ListFiles(
    const std::string& dir, const std::vector<std::string>& extensions) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    return absl::NotFoundError("'" + dir + "' is not a directory");
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    const bool wanted = extensions.empty() ||
        std::any_of(extensions.begin(), extensions.end(), [&](const std::string& ext) {
          return name.size() >= ext.size() &&
                 name.compare(name.size() - ext.size(), ext.size(), ext) == 0;
        });
    if (wanted) files.push_back(entry.path().string());
  }
  if (ec) return absl::PermissionDeniedError("cannot list '" + dir + "': " + ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace vertex::util
