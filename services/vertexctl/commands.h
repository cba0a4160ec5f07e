// vertexctl subcommands. Each takes the arguments after its name, writes
// its result to stdout and errors to stderr, and returns the exit code:
// 0 success, 1 failure, 2 usage error.
//
// Thread-safety: run from main only.
#ifndef VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_
#define VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/schema/schema.h"
#include "common/site/site_clusterer.h"
#include "services/common/flags.h"

namespace vertex::cli {

int RunCluster(const std::vector<std::string>& args);
int RunDemo(const std::vector<std::string>& args);
int RunGenDemo(const std::vector<std::string>& args);
int RunLearn(const std::vector<std::string>& args);
int RunExtract(const std::vector<std::string>& args);
int RunRules(const std::vector<std::string>& args);
int RunEvalSwde(const std::vector<std::string>& args);

// Learns the rules of the site in `pages_dir` with an editor simulated from
// the ground truth in `truth_dir` (eval-swde's method), extracts every page
// and prints a per-attribute precision/recall table to stdout.
absl::Status PrintTruthEvaluation(const std::string& pages_dir, const std::string& truth_dir,
                                  const std::string& site, const schema::CompiledSchema& schema);

// The clustering flags (`vertexctl cluster --help`), shared by the commands
// that cluster a sample, and the options they give ("help" not included).
const std::vector<FlagSpec>& ClusterFlags();
absl::StatusOr<site::SiteClusterOptions> ClusterOptionsFromFlags(const ParsedArgs& args);

// Prints "vertexctl <command>: <message>" to stderr and returns the exit
// code for `status` (2 for InvalidArgument, else 1).
int ReportError(const std::string& command, const absl::Status& status);

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_
