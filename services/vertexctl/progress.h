// Progress of a long vertexctl command (add-pages, extract, learn, monitor,
// relearn) on stderr: one line rewritten in place with "\r",
//   "extract: 512/1100 pages (46%), 230.4 pages/s, ETA 0:03"
// drawn when stderr is a terminal (isatty), or always with --progress,
// never with --no-progress. The last line is kept, ended by a newline.
//
// Thread-safety: a Progress is used from one thread.
#ifndef VERTEX_SERVICES_VERTEXCTL_PROGRESS_H_
#define VERTEX_SERVICES_VERTEXCTL_PROGRESS_H_

#include <chrono>
#include <cstddef>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "services/common/flags.h"

namespace vertex::cli {

// --progress and --no-progress.
std::vector<FlagSpec> ProgressFlags();

// Whether to draw progress: --progress true, --no-progress false, else
// whether stderr is a terminal. InvalidArgument when both are given.
absl::StatusOr<bool> ProgressEnabled(const ParsedArgs& args);

// One progress line (no "\r"): `what`, done/total pages and the percentage,
// the rate over `seconds` and the time left at that rate ("ETA ?" before
// any page, "ETA 0:00" when done), e.g. "extract: 3/4 pages (75%), 1.5
// pages/s, ETA 0:01".
std::string ProgressLine(const std::string& what, size_t done, size_t total, double seconds);

class Progress {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // Progress of `total` pages. Nothing is written unless `enabled`.
  // `out` (not owned) defaults to stderr; `clock` to steady_clock::now.
  Progress(std::string what, size_t total, bool enabled, std::FILE* out = stderr, Clock clock = nullptr);
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;
  // Calls Finish().
  ~Progress();

  // `pages` more done: the line is redrawn when 100 ms passed since the
  // last one, or when all are done.
  void Add(size_t pages);
  // Draws the final line and a newline (once; nothing if never drawn).
  void Finish();

 private:
  void Draw();

  std::string what_;
  size_t total_;
  bool enabled_;
  std::FILE* out_;
  Clock clock_;
  std::chrono::steady_clock::time_point start_, last_draw_;
  size_t done_ = 0;
  size_t width_ = 0;  // of the last line drawn
  bool drawn_ = false;
  bool finished_ = false;
};

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_VERTEXCTL_PROGRESS_H_
