// Running the vertexctl binary from a test: its exit code, stdout and
// stderr, with VERTEX_AUTH_TOKEN set; temporary paths unique to the test
// process; and the output with its timestamps masked, so that runs offline
// and online (or at different times) compare equal.
//
// Thread-safety: Vertexctl uses one stderr file per process: call it from
// one thread at a time.
#ifndef VERTEX_TESTS_CLI_VERTEXCTL_RUNNER_H_
#define VERTEX_TESTS_CLI_VERTEXCTL_RUNNER_H_

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "common/util/file.h"

namespace vertex::test_support {

struct VertexctlResult {
  int exit_code = -1;
  std::string out, err;
};

// `name` made unique to this process, in the temporary directory.
inline std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + "_" + std::to_string(getpid()))).string();
}

// Runs `vertexctl` (its path) with `args` (a shell word list) and
// VERTEX_AUTH_TOKEN=`token`.
inline VertexctlResult RunVertexctl(const std::string& vertexctl, const std::string& token, const std::string& args) {
  const std::string err_file = TempPath("vertexctl_stderr");
  const std::string cmd = "env VERTEX_AUTH_TOKEN=" + token + " " + vertexctl + " " + args + " 2>" + err_file;
  FILE* p = popen(cmd.c_str(), "r");
  VertexctlResult r;
  if (p == nullptr) return r;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = util::ReadFile(err_file).value_or("");
  return r;
}

// `out` with every "..._unix_ms" and "elapsed_ms" JSON value as "T".
inline std::string MaskTimes(const std::string& out) {
  static const std::regex kTime("\"(\\w+_unix_ms|elapsed_ms)\": ?\"\\d+\"");
  return std::regex_replace(out, kTime, "\"$1\":\"T\"");
}

}  // namespace vertex::test_support

#endif  // VERTEX_TESTS_CLI_VERTEXCTL_RUNNER_H_
