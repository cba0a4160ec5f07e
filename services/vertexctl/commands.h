// vertexctl subcommands. Each takes the arguments after its name, writes
// its result to stdout and errors to stderr, and returns the exit code:
// 0 success, 1 failure, 2 usage error (monitor: 0 OK or NO_PAGES,
// 2 CHANGED or BROKEN, 3 UNREACHABLE, 1 any error).
// The commands over the rule store run offline (--store) or online
// (--server) through the same workflow APIs (backend.h).
//
// Thread-safety: run from main only.
#ifndef VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_
#define VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/lists/list_finder.h"
#include "common/schema/schema.h"
#include "common/site/site_clusterer.h"
#include "common/workflow/api.h"
#include "common/workflow/learning_engine.h"
#include "services/common/flags.h"
#include "services/vertexctl/progress.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::cli {

int RunCluster(const std::vector<std::string>& args);
int RunDemo(const std::vector<std::string>& args);
int RunGenDemo(const std::vector<std::string>& args);
int RunLearn(const std::vector<std::string>& args);
int RunExtract(const std::vector<std::string>& args);
int RunRules(const std::vector<std::string>& args);
int RunEvalSwde(const std::vector<std::string>& args);
int RunSite(const std::vector<std::string>& args);
int RunTasks(const std::vector<std::string>& args);
int RunHealth(const std::vector<std::string>& args);
int RunMonitor(const std::vector<std::string>& args);
int RunHistory(const std::vector<std::string>& args);
int RunRelearn(const std::vector<std::string>& args);
int RunXhtml(const std::vector<std::string>& args);
int RunAmber(const std::vector<std::string>& args);
int RunEvalListings(const std::vector<std::string>& args);
int RunGazetteer(const std::vector<std::string>& args);
// list-model train|show|eval (list_eval_commands.cc dispatches; train and
// show in list_model_commands.cc) and lists (list_model_commands.cc).
int RunListModel(const std::vector<std::string>& args);
int RunListModelEval(const std::vector<std::string>& args);
int RunListModelTrain(const std::vector<std::string>& args);
int RunListModelShow(const std::vector<std::string>& args);
int RunLists(const std::vector<std::string>& args);
// The list finder's feature set --features names (list-model train and
// eval): paper+markup when absent; InvalidArgument naming the value when it
// is neither paper nor paper+markup.
absl::StatusOr<lists::FeatureSet> FeatureSetFlag(const ParsedArgs& args);
// discover-links (discover_links_commands.cc).
int RunDiscoverLinks(const std::vector<std::string>& args);
// feed annotate (feed_commands.cc).
int RunFeed(const std::vector<std::string>& args);

// What AddSamplePagesInBatches sent and got back.
struct AddedPages {
  // The calls' responses merged: pages_added summed, errors concatenated,
  // the rest (sample size, clusters) from the last call.
  v1::AddSamplePagesResponse response;
  // (path, URL) of every page file sent, in order.
  std::vector<std::pair<std::string, std::string>> files;
};

// Adds the page `files` to the sample of `site` in batches of at most 200
// pages and about 32 MB, every call but the last with defer_clustering (the
// last too with `defer_all`), the first with `settings` when given (they
// replace the site's stored settings). `url` and `progress` as in
// BatchLimits (the other limits are the defaults). Errors: a file's read
// error (naming it), or the first failed call's.
absl::StatusOr<AddedPages> AddSamplePagesInBatches(workflow::LearningApi& api, const std::string& site,
                                                   const std::vector<std::string>& files, bool defer_all,
                                                   const std::optional<v1::SiteSettings>& settings = std::nullopt,
                                                   const std::string& url = "", Progress* progress = nullptr);

// Learns the rules of the site in `pages_dir` with an editor simulated from
// the ground truth in `truth_dir` (eval-swde's method), extracts every page
// and prints a per-attribute precision/recall table to stdout.
absl::Status PrintTruthEvaluation(const std::string& pages_dir, const std::string& truth_dir, const std::string& site,
                                  const schema::CompiledSchema& schema);

// The clustering flags (`vertexctl cluster --help`): ThresholdFlags(),
// OtherClusterFlags(), --page-builder and help; the options they give (help
// not included).
const std::vector<FlagSpec>& ClusterFlags();
absl::StatusOr<site::SiteClusterOptions> ClusterOptionsFromFlags(const ParsedArgs& args);

// --threshold N (0, the default: adaptive) and --sample-rate R as
// clustering options of the engine (vertexctl cluster; relearn --store),
// and `options` with them applied. InvalidArgument naming the flag.
std::vector<FlagSpec> ThresholdFlags();
absl::StatusOr<site::SiteClusterOptions> WithThresholdFlags(const ParsedArgs& args, site::SiteClusterOptions options);

// The other clustering flags (--max-sample, --min-sample, --seed,
// --annotation-size, --threads, --max-page-bytes, --max-depth, --max-attributes) and the
// options they give (threshold adaptive, sample rate 0.2).
std::vector<FlagSpec> OtherClusterFlags();
absl::StatusOr<site::SiteClusterOptions> OtherClusterOptionsFromFlags(const ParsedArgs& args);

// --threshold N, --sample-rate R and --rule-transfer as a site's settings (site register,
// site add-pages, learn; online and offline alike), and the SiteSettings
// they give: nullopt when neither is given (the stored settings are kept);
// given one, the other takes its default (threshold 0: adaptive; sample
// rate 0: the server's). InvalidArgument naming the flag: --threshold an
// integer from 0 to 1e9, --sample-rate a number from 0 to 1.
// --page-builder NAME is a site setting too: alone, the settings hold only
// the builder (the server keeps the stored clustering settings); a site
// with pages keeps its builder (FAILED_PRECONDITION for another one).
std::vector<FlagSpec> SiteSettingsFlags();
absl::StatusOr<std::optional<v1::SiteSettings>> SiteSettingsFromFlags(const ParsedArgs& args);

// --page-builder gumbo|libxml2 for commands that parse pages of no stored
// site (`help` says which pages), and the builder it names, else the
// default (ParseOptions{}.builder). InvalidArgument naming the flag.
FlagSpec PageBuilderFlag(const std::string& help);
absl::StatusOr<html::PageBuilder> PageBuilderFromFlags(const ParsedArgs& args);

// The flags that set an in-process LearningEngine's options (--store only):
// OtherClusterFlags() and --unannotated. Their options.
std::vector<FlagSpec> OfflineLearningFlags();
absl::StatusOr<workflow::LearningEngineOptions> LearningOptionsFromFlags(const ParsedArgs& args);

// The message and exit code of a command whose AddSamplePages clustered the
// sample into no cluster (every page pruned): prints "vertexctl <command>:
// <NoClusterMessage>" to stderr and returns kNoClusterExit. Returns 0 (and
// prints nothing) when `added` has a cluster or was not clustered.
inline constexpr int kNoClusterExit = 3;
int ReportNoCluster(const std::string& command, const std::string& site, const v1::AddSamplePagesResponse& added);

// Prints "vertexctl <command>: <message>" to stderr and returns the exit
// code for `status` (2 for InvalidArgument, else 1).
int ReportError(const std::string& command, const absl::Status& status);

}  // namespace vertex::cli

#endif  // VERTEX_SERVICES_VERTEXCTL_COMMANDS_H_
