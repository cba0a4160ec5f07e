// The corpus replay of a fuzz target, for builds without libFuzzer (the
// normal g++ build): feeds every file under the directories (or the files)
// given on the command line to LLVMFuzzerTestOneInput, in sorted order, so
// the seed corpus and every crash reproducer are checked on every build.
// A crash or a broken invariant aborts, which fails the ctest test.
//
// Usage: <target>_replay PATH...   (a PATH that does not exist is skipped;
// no input at all is an error, so a lost corpus does not pass silently)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);
// Defined by the targets with start-up work (as libFuzzer allows).
extern "C" __attribute__((weak)) int LLVMFuzzerInitialize(int* argc, char*** argv);

namespace {

std::vector<std::filesystem::path> InputsUnder(const std::filesystem::path& path) {
  std::vector<std::filesystem::path> inputs;
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    inputs.push_back(path);
  } else if (std::filesystem::is_directory(path, ec)) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize != nullptr) LLVMFuzzerInitialize(&argc, &argv);
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    for (auto& p : InputsUnder(argv[i])) inputs.push_back(std::move(p));
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "%s: no input files under the given paths\n", argv[0]);
    return 2;
  }
  for (const std::filesystem::path& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    if (!in) {
      std::fprintf(stderr, "%s: cannot read %s\n", argv[0], path.c_str());
      return 2;
    }
    const std::string data = bytes.str();
    std::fprintf(stderr, "replay %s (%zu bytes)\n", path.c_str(), data.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(data.data()), data.size());
  }
  std::printf("%zu inputs replayed without a crash\n", inputs.size());
  return 0;
}
