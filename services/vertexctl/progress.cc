#include "services/vertexctl/progress.h"

#include <unistd.h>

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace vertex::cli {

std::vector<FlagSpec> ProgressFlags() {
  return {
      {"progress", "", "draw progress on stderr even when it is not a terminal"},
      {"no-progress", "", "no progress on stderr (default: drawn when stderr is a terminal)"},
  };
}

absl::StatusOr<bool> ProgressEnabled(const ParsedArgs& args) {
  if (args.Has("progress") && args.Has("no-progress")) {
    return absl::InvalidArgumentError("--progress and --no-progress exclude each other");
  }
  if (args.Has("progress")) return true;
  if (args.Has("no-progress")) return false;
  return isatty(STDERR_FILENO) == 1;
}

namespace {

// "m:ss", or "h:mm:ss" from an hour.
std::string Duration(double seconds) {
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return absl::StrFormat("%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  return absl::StrFormat("%ld:%02ld", s / 60, s % 60);
}

}  // namespace

std::string ProgressLine(const std::string& what, size_t done, size_t total, double seconds) {
  const size_t percent = total == 0 ? 100 : done * 100 / total;
  std::string line = absl::StrCat(what, ": ", done, "/", total, " pages (", percent, "%)");
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  absl::StrAppend(&line, ", ", absl::StrFormat("%.1f", rate), " pages/s, ETA ");
  if (done >= total) return line + "0:00";
  if (rate <= 0) return line + "?";
  return line + Duration(static_cast<double>(total - done) / rate);
}

Progress::Progress(std::string what, size_t total, bool enabled, std::FILE* out, Clock clock)
    : what_(std::move(what)), total_(total), enabled_(enabled), out_(out), clock_(std::move(clock)) {
  if (!clock_) clock_ = [] { return std::chrono::steady_clock::now(); };
  start_ = last_draw_ = clock_();
  if (enabled_) Draw();
}

Progress::~Progress() { Finish(); }

void Progress::Add(size_t pages) {
  done_ = std::min(total_, done_ + pages);
  if (!enabled_) return;
  const auto now = clock_();
  if (done_ >= total_ || now - last_draw_ >= std::chrono::milliseconds(100)) Draw();
}

void Progress::Finish() {
  if (finished_) return;
  finished_ = true;
  if (!enabled_ || !drawn_) return;
  Draw();
  std::fputc('\n', out_);
  std::fflush(out_);
}

void Progress::Draw() {
  const auto now = clock_();
  last_draw_ = now;
  const double seconds = std::chrono::duration<double>(now - start_).count();
  std::string line = ProgressLine(what_, done_, total_, seconds);
  const size_t width = line.size();
  if (width < width_) line.append(width_ - width, ' ');  // wipe the longer line before
  width_ = width;
  std::fputs(("\r" + line).c_str(), out_);
  std::fflush(out_);
  drawn_ = true;
}

}  // namespace vertex::cli
