// Command-line flag parsing for vertexctl and the servers: `--name value`,
// `--name=value`, boolean `--name`, and `--` to end flags. A flag given
// twice keeps its last value in `flags`; every value is in `values` (for
// repeatable flags: ParsedArgs::List). Unknown flags and
// malformed values are errors naming the flag. ApplyEnvironment() lets
// environment variables (VERTEX_CATCH_UP_MS for --catch-up-ms) fill in the
// flags the command line left out.
//
// Thread-safety: values; no shared state. ApplyEnvironment() reads the
// process environment (std::getenv) unless given a lookup function.
#ifndef VERTEX_SERVICES_COMMON_FLAGS_H_
#define VERTEX_SERVICES_COMMON_FLAGS_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace vertex::cli {

struct FlagSpec {
  std::string name;        // without the leading dashes
  std::string value_name;  // "" for a boolean flag
  std::string help;
};

struct ParsedArgs {
  // Flag name -> value; a boolean flag that is on has the value "true".
  std::map<std::string, std::string> flags;
  std::vector<std::string> positional;
  // Flag name -> every value given on the command line, in order.
  std::map<std::string, std::vector<std::string>> values;
  // Flag name -> the environment variable that set it (ApplyEnvironment);
  // error messages about such a flag name the variable too.
  std::map<std::string, std::string> from_env;

  bool Has(const std::string& name) const { return flags.count(name) > 0; }
  // The flag's integer value in [min, max]; `default_value` when absent.
  // InvalidArgument naming the flag when it is not such an integer.
  absl::StatusOr<int64_t> Int(const std::string& name, int64_t default_value, int64_t min, int64_t max) const;
  // The flag's number in [min, max]; `default_value` when absent.
  // InvalidArgument naming the flag when it is not such a number.
  absl::StatusOr<double> Double(const std::string& name, double default_value, double min, double max) const;
  // The flag's value; `default_value` when absent.
  std::string String(const std::string& name, const std::string& default_value) const;
  // A repeatable flag's values: each value given (or the environment's,
  // when the command line gave none) split at commas, in order, empty items
  // dropped. Empty when absent.
  std::vector<std::string> List(const std::string& name) const;
  // "--name", or "--name (from $VERTEX_NAME)" when the environment set it:
  // how error messages should name the flag.
  std::string Label(const std::string& name) const;
};

// Parses `args` (after the subcommand) against `specs`.
absl::StatusOr<ParsedArgs> ParseArgs(const std::vector<std::string>& args, const std::vector<FlagSpec>& specs);

// Looks up an environment variable: its value, or nullopt when it is unset.
using EnvLookup = std::function<std::optional<std::string>(const std::string& variable)>;

// The environment variable for flag `flag_name`: `prefix` followed by the
// name upper-cased with '-' turned into '_' ("VERTEX_", "catch-up-ms" ->
// "VERTEX_CATCH_UP_MS").
std::string EnvVarName(const std::string& prefix, const std::string& flag_name);

// For every spec the command line did not give, takes the value of its
// environment variable (EnvVarName(prefix, name)) when that is set and not
// empty, and records it in args->from_env: the command line wins. Boolean
// flags accept 1/true (on) and 0/false (off, the flag stays absent).
// `lookup` defaults to std::getenv. InvalidArgument naming the variable for
// any other boolean value; `args` may then be partly updated.
absl::Status ApplyEnvironment(const std::vector<FlagSpec>& specs, const std::string& prefix, ParsedArgs* args,
                              const EnvLookup& lookup = nullptr);

// "  --name VALUE   help" lines for a usage message.
std::string FlagHelp(const std::vector<FlagSpec>& specs);

// As above, each line ending with " [env PREFIX_NAME]" when `env_prefix` is
// not empty.
std::string FlagHelp(const std::vector<FlagSpec>& specs, const std::string& env_prefix);

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_COMMON_FLAGS_H_
