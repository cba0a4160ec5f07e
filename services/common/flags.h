// Command-line flag parsing for vertexctl and the servers: `--name value`,
// `--name=value`, boolean `--name`, and `--` to end flags. Unknown flags and
// malformed values are errors naming the flag.
//
// Thread-safety: values; no shared state.
#ifndef VERTEX_SERVICES_COMMON_FLAGS_H_
#define VERTEX_SERVICES_COMMON_FLAGS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace vertex::cli {

struct FlagSpec {
  std::string name;  // without the leading dashes
  std::string value_name;  // "" for a boolean flag
  std::string help;
};

struct ParsedArgs {
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;

  bool Has(const std::string& name) const { return flags.count(name) > 0; }
  absl::StatusOr<int64_t> Int(const std::string& name, int64_t default_value, int64_t min,
                              int64_t max) const;
  absl::StatusOr<double> Double(const std::string& name, double default_value, double min,
                                double max) const;
  std::string String(const std::string& name, const std::string& default_value) const;
};

// Parses `args` (after the subcommand) against `specs`.
absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args,
                                     const std::vector<FlagSpec>& specs);

// "  --name VALUE   help" lines for a usage message.
std::string FlagHelp(const std::vector<FlagSpec>& specs);

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_COMMON_FLAGS_H_
