// Invariant checks for the fuzz targets: a broken invariant aborts, so
// libFuzzer records the input as a crash and the corpus replay test fails;
// and cutting an input into lines.
//
// Thread-safety: pure functions (Fail() aborts the process).
#ifndef VERTEX_TESTS_FUZZ_FUZZ_CHECK_H_
#define VERTEX_TESTS_FUZZ_FUZZ_CHECK_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"

namespace vertex::fuzz {

// Aborts with `what`: a broken invariant is a bug even when nothing crashed.
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "vertex fuzz: invariant failed: %s\n", what.c_str());
  std::abort();
}

inline void Check(bool ok, const std::string& what) {
  if (!ok) Fail(what);
}

// Aborts when `status` is Internal or Unknown: the documented error codes of
// the code under test are for bad input; Internal means a bug.
inline void CheckNotInternal(const absl::Status& status, const std::string& where) {
  if (status.code() == absl::StatusCode::kInternal || status.code() == absl::StatusCode::kUnknown) {
    Fail(where + ": " + status.ToString());
  }
}

inline std::string_view AsView(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// `text` cut at '\n' (a final line without '\n' included; no empty tail).
inline std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The first line of `text` and the rest after its '\n' (rest empty when
// there is none).
inline std::pair<std::string_view, std::string_view> CutLine(std::string_view text) {
  const size_t end = text.find('\n');
  if (end == std::string_view::npos) return {text, {}};
  return {text.substr(0, end), text.substr(end + 1)};
}

}  // namespace vertex::fuzz

#endif  // VERTEX_TESTS_FUZZ_FUZZ_CHECK_H_
