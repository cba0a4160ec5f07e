#include "services/common/engine_flags.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"

namespace vertex::cli {
namespace {

constexpr int64_t kMaxTimeoutMs = 3600000;
constexpr int64_t kMaxDelayMs = 600000;
constexpr int64_t kMaxFetchBytes = int64_t{1} << 30;
constexpr int64_t kMaxRedirects = 20;
constexpr size_t kMaxUserAgentBytes = 512;
constexpr int64_t kMaxPruneThreshold = 1000000000;

std::string Default(int64_t value) { return absl::StrCat(" (default ", value, ")"); }

absl::Status CheckUserAgent(const ParsedArgs& args, const std::string& agent) {
  if (agent.empty()) return absl::InvalidArgumentError(args.Label("user-agent") + ": must not be empty");
  if (agent.size() > kMaxUserAgentBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat(args.Label("user-agent"), ": longer than ", kMaxUserAgentBytes, " bytes"));
  }
  for (unsigned char c : agent) {
    if (c < 0x20 || c > 0x7e) {
      return absl::InvalidArgumentError(args.Label("user-agent") + ": must be printable ASCII (no control characters)");
    }
  }
  return absl::OkStatus();
}

}  // namespace

std::vector<FlagSpec> FetchFlagSpecs() {
  const fetch::FetchOptions d;
  return {
      {"fetch-timeout-ms", "MS", "fetching pages: the whole of one request, in ms" + Default(d.total_timeout_ms)},
      {"fetch-connect-timeout-ms", "MS", "fetching pages: connecting, in ms" + Default(d.connect_timeout_ms)},
      {"fetch-max-bytes", "N", "fetching pages: refuse a page larger than N bytes" + Default(d.max_bytes)},
      {"fetch-max-redirects", "N", "fetching pages: follow at most N redirects" + Default(d.max_redirects)},
      {"fetch-delay-ms", "MS",
       "fetching pages: wait MS between two requests to one host (one at a time per host)" +
           Default(d.per_host_delay_ms)},
      {"user-agent", "UA", "fetching pages: the User-Agent sent (default \"" + d.user_agent + "\")"},
      {"ignore-robots", "", "fetching pages: do not read or obey robots.txt (default: obey it)"},
  };
}

absl::StatusOr<fetch::FetchOptions> FetchOptionsFromArgs(const ParsedArgs& args) {
  fetch::FetchOptions o;
  VERTEX_ASSIGN_OR_RETURN(const int64_t total, args.Int("fetch-timeout-ms", o.total_timeout_ms, 1, kMaxTimeoutMs));
  VERTEX_ASSIGN_OR_RETURN(const int64_t connect,
                          args.Int("fetch-connect-timeout-ms", o.connect_timeout_ms, 1, kMaxTimeoutMs));
  if (connect > total) {
    return absl::InvalidArgumentError(absl::StrCat(args.Label("fetch-connect-timeout-ms"), " (", connect,
                                                   ") must not exceed ", args.Label("fetch-timeout-ms"), " (", total,
                                                   ")"));
  }
  VERTEX_ASSIGN_OR_RETURN(const int64_t bytes,
                          args.Int("fetch-max-bytes", static_cast<int64_t>(o.max_bytes), 1, kMaxFetchBytes));
  VERTEX_ASSIGN_OR_RETURN(const int64_t redirects, args.Int("fetch-max-redirects", o.max_redirects, 0, kMaxRedirects));
  VERTEX_ASSIGN_OR_RETURN(const int64_t delay, args.Int("fetch-delay-ms", o.per_host_delay_ms, 0, kMaxDelayMs));
  o.user_agent = args.String("user-agent", o.user_agent);
  VERTEX_RETURN_IF_ERROR(CheckUserAgent(args, o.user_agent));
  o.total_timeout_ms = static_cast<int>(total);
  o.connect_timeout_ms = static_cast<int>(connect);
  o.max_bytes = static_cast<size_t>(bytes);
  o.max_redirects = static_cast<int>(redirects);
  o.per_host_delay_ms = static_cast<int>(delay);
  o.robots = !args.Has("ignore-robots");
  return o;
}

std::vector<FlagSpec> RelearnFlagSpecs() {
  const workflow::LearningEngineOptions d;
  return {
      {"bellwethers", "N",
       "bellwether pages chosen per cluster when a rule is learnt (monitoring fetches them)" +
           Default(static_cast<int64_t>(d.bellwethers))},
      {"relearn-pages", "N",
       "pages Relearn fetches again when a request gives none" + Default(static_cast<int64_t>(d.relearn_pages))},
      {"history-keep", "N",
       "monitoring runs kept per site, the oldest dropped; 0 keeps all" +
           Default(static_cast<int64_t>(d.history_keep))},
  };
}

absl::StatusOr<workflow::LearningEngineOptions> WithRelearnFlags(const ParsedArgs& args,
                                                                 workflow::LearningEngineOptions options) {
  VERTEX_ASSIGN_OR_RETURN(const int64_t bellwethers,
                          args.Int("bellwethers", static_cast<int64_t>(options.bellwethers), 1, 1000));
  VERTEX_ASSIGN_OR_RETURN(const int64_t pages,
                          args.Int("relearn-pages", static_cast<int64_t>(options.relearn_pages), 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(const int64_t keep,
                          args.Int("history-keep", static_cast<int64_t>(options.history_keep), 0, 10000000));
  options.bellwethers = static_cast<size_t>(bellwethers);
  options.relearn_pages = static_cast<size_t>(pages);
  options.history_keep = static_cast<size_t>(keep);
  return options;
}

std::vector<FlagSpec> ClusterDefaultFlagSpecs() {
  const workflow::LearningEngineOptions d;
  return {
      {"prune-threshold", "N",
       "clustering a site without settings: prune masked vectors counted by fewer than N sample pages; 0: adaptive, "
       "clamp(sample pages / 50, 1, 20) (default " +
           (d.cluster.cluster.prune_threshold > 0 ? std::to_string(d.cluster.cluster.prune_threshold)
                                                  : std::string("0: adaptive")) +
           "; a site's settings win)"},
      {"sample-rate", "R",
       absl::StrCat("clustering a site without settings (or sample_rate 0): fraction of its sample pages to cluster, "
                    "0 < R <= 1, at least 1,000 or all (default ",
                    d.cluster.sample.rate, ")")},
  };
}

absl::StatusOr<workflow::LearningEngineOptions> WithClusterDefaultFlags(const ParsedArgs& args,
                                                                        workflow::LearningEngineOptions options) {
  VERTEX_ASSIGN_OR_RETURN(options.cluster.cluster.prune_threshold,
                          args.Int("prune-threshold", options.cluster.cluster.prune_threshold, 0, kMaxPruneThreshold));
  VERTEX_ASSIGN_OR_RETURN(options.cluster.sample.rate, args.Double("sample-rate", options.cluster.sample.rate, 1e-9, 1));
  return options;
}

}  // namespace vertex::cli
