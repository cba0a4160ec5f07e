// A fresh temporary directory for a test, removed with its files at the end
// of scope. path() is empty when it could not be created.
//
// Thread-safety: one per test; not shared.
#ifndef VERTEX_TESTS_TESTING_TEMP_DIR_H_
#define VERTEX_TESTS_TESTING_TEMP_DIR_H_

#include <stdlib.h>

#include <filesystem>
#include <string>

namespace vertex::test_support {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "vertex") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "_XXXXXX")).string();
    if (mkdtemp(pattern.data()) != nullptr) path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_TESTING_TEMP_DIR_H_
