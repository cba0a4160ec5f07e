// The flags that set the engines' page fetching and relearning options,
// shared by vertex-learning, vertex-monitoring, vertexd and vertexctl
// (offline, --store): one definition of each flag, its help (defaults
// printed from the option structs, so --help tells the truth) and its
// validation. The servers also read each from VERTEX_<NAME>
// (cli::ApplyEnvironment).
//
//   fetch     --fetch-timeout-ms, --fetch-connect-timeout-ms,
//             --fetch-max-bytes, --fetch-max-redirects, --fetch-delay-ms,
//             --user-agent, --ignore-robots       -> fetch::FetchOptions
//   relearn   --bellwethers, --relearn-pages, --history-keep
//                                                  -> LearningEngineOptions
//   cluster   --prune-threshold, --sample-rate     -> LearningEngineOptions
//             .cluster: the defaults for sites without settings
//
// Thread-safety: pure functions of their arguments.
#ifndef VERTEX_SERVICES_COMMON_ENGINE_FLAGS_H_
#define VERTEX_SERVICES_COMMON_ENGINE_FLAGS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "common/fetch/fetcher.h"
#include "common/workflow/learning_engine.h"
#include "services/common/flags.h"

namespace vertex::cli {

// The fetch flags.
std::vector<FlagSpec> FetchFlagSpecs();

// The FetchOptions the fetch flags in `args` give (FetchOptions' defaults
// for those absent). InvalidArgument naming the flag (args.Label) for a
// value out of range, a connect timeout above the total timeout, or a user
// agent that is empty, longer than 512 bytes or not printable ASCII.
absl::StatusOr<fetch::FetchOptions> FetchOptionsFromArgs(const ParsedArgs& args);

// The relearn flags: --bellwethers, --relearn-pages, --history-keep.
std::vector<FlagSpec> RelearnFlagSpecs();

// `options` with the relearn flags in `args` applied (the others kept).
// InvalidArgument naming the flag for a value out of range.
absl::StatusOr<workflow::LearningEngineOptions> WithRelearnFlags(const ParsedArgs& args,
                                                                 workflow::LearningEngineOptions options);

// The servers' clustering defaults, for sites without settings
// (SiteRecord.settings): --prune-threshold N (0, the default: adaptive,
// clamp(sample pages / 50, 1, 20)) and --sample-rate R (0 < R <= 1,
// default 0.2).
std::vector<FlagSpec> ClusterDefaultFlagSpecs();

// `options` with the clustering default flags in `args` applied (the
// others kept). InvalidArgument naming the flag: --prune-threshold an
// integer from 0 to 1000000000, --sample-rate a number above 0 and at
// most 1.
absl::StatusOr<workflow::LearningEngineOptions> WithClusterDefaultFlags(const ParsedArgs& args,
                                                                        workflow::LearningEngineOptions options);

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_COMMON_ENGINE_FLAGS_H_
