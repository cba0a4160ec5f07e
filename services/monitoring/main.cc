// vertex-monitoring: the monitoring service, a reader of the rule store.
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "common/monitor/monitor_engine.h"
#include "common/util/status_macros.h"
#include "services/client/remote_api.h"
#include "services/common/engine_flags.h"
#include "services/common/server_runner.h"
#include "services/monitoring/monitoring_service.h"
#include "services/server/server_main.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

// The usage text; the default threshold from the engine's options.
std::string Usage() {
  return absl::StrCat(
      "The monitoring service of Vertex (vertex.v1.MonitoringService): a scheduler calls Monitor per site to\n"
      "learn whether its templates changed since its rules were learnt (Vertex IV-B). Each cluster with a\n"
      "rule is tested on fresh versions of its bellwether pages, supplied in the request or else fetched\n"
      "here (the --fetch-* flags; robots.txt obeyed unless --ignore-robots, one request at a time per\n"
      "host): the shingle test (the cluster's signature covers the page) and the field test (mandatory\n"
      "attributes extracted, constant attributes equal to their golden values). A cluster where more than\n"
      "the request's threshold (default ",
      monitor::MonitorEngineOptions().threshold,
      ") of its pages fail is CHANGED (shingle) or BROKEN (field);\n"
      "UNREACHABLE when fewer than half its pages could be fetched. It reads the learning service's rule\n"
      "store (--store) as a RocksDB secondary, like the extraction service, and stores each run in the\n"
      "site's history (GetHistory) through the learning service's RecordMonitorRun at --learning-server,\n"
      "with the token of --learning-token (default: --auth-token); without --learning-server no history\n"
      "is kept. A Monitor call may give the site's feed (feed_url or feed_xml: the feed test) and ask\n"
      "feed_repair: the learning service at --learning-server then relearns the site from the run's\n"
      "pages and learns the failed clusters from the feed (Relearn, AnnotateFromFeed); such a call needs\n"
      "this server's --auth-token. SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n");
}

// How long recording one run at the learning service may take.
constexpr double kRecordTimeoutSeconds = 30;
// How long feed_repair's Relearn and AnnotateFromFeed may take (they learn,
// and AnnotateFromFeed may fetch pages).
constexpr double kRepairTimeoutSeconds = 3600;

std::vector<cli::FlagSpec> MonitoringFlags() {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : ReaderFlagSpecs()) flags.push_back(f);
  flags.push_back({"learning-token", "TOKEN",
                   "bearer token for RecordMonitorRun at --learning-server (default: this server's --auth-token)"});
  for (const cli::FlagSpec& f : cli::FetchFlagSpecs()) flags.push_back(f);
  return flags;
}

// The token RecordMonitorRun is sent with: --learning-token, else the
// server's own --auth-token ("" when neither).
absl::StatusOr<std::string> LearningToken(const ServerArgs& parsed) {
  if (!parsed.args.Has("learning-token")) return parsed.config.auth_token;
  const std::string token = parsed.args.String("learning-token", "");
  if (token.empty()) return absl::InvalidArgumentError(parsed.args.Label("learning-token") + ": the token is empty");
  for (unsigned char c : token) {
    if (c < 0x21 || c > 0x7e) {
      return absl::InvalidArgumentError(parsed.args.Label("learning-token") +
                                        ": the token must be printable ASCII without spaces");
    }
  }
  return token;
}

// A client of the learning service at --learning-server whose calls get
// `timeout_seconds`.
absl::StatusOr<std::shared_ptr<workflow::LearningApi>> LearningClient(const ServerArgs& parsed,
                                                                       double timeout_seconds) {
  client::ConnectOptions options;
  options.server = parsed.args.String("learning-server", "");
  VERTEX_ASSIGN_OR_RETURN(options.token, LearningToken(parsed));
  VERTEX_ASSIGN_OR_RETURN(options.tls, rpc::ReadClientTls(parsed.args.String("learning-tls-ca", ""), "", ""));
  options.timeout_seconds = timeout_seconds;
  options.fetch_timeout_seconds = std::max(timeout_seconds, options.fetch_timeout_seconds);
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<workflow::LearningApi> learning, client::ConnectLearning(options));
  return learning;
}

// The engine's `record` (RecordMonitorRun) and `learning` (feed_repair) at
// --learning-server; both null (and a log line) without it.
absl::Status ReachLearning(const ServerArgs& parsed, monitor::MonitorEngineOptions* options) {
  if (!parsed.args.Has("learning-server")) {
    spdlog::warn("no --learning-server: monitoring runs are not stored (GetHistory shows none) and feed_repair "
                 "is refused");
    return absl::OkStatus();
  }
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<workflow::LearningApi> learning,
                          LearningClient(parsed, kRecordTimeoutSeconds));
  VERTEX_ASSIGN_OR_RETURN(options->learning, LearningClient(parsed, kRepairTimeoutSeconds));
  spdlog::info("monitoring runs are stored, and feed repairs learnt, through the learning service at {}",
               parsed.args.String("learning-server", ""));
  options->record = [learning](const v1::MonitorRun& run) {
    v1::RecordMonitorRunRequest request;
    *request.mutable_run() = run;
    return learning->RecordMonitorRun(request).status();
  };
  return absl::OkStatus();
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed, ParseServerArgs(argc, argv, "vertex-monitoring", Usage(),
                                                                            "127.0.0.1:7073", MonitoringFlags()));
  if (!parsed) return absl::OkStatus();
  monitor::MonitorEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, cli::FetchOptionsFromArgs(parsed->args));
  VERTEX_RETURN_IF_ERROR(ReachLearning(*parsed, &options));
  options.fetcher = fetch::NewCurlFetcher(fetch_options);
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<StoreReader> reader, StoreReader::Open(parsed->args, 60));
  monitor::MonitorEngine engine(reader->store(), options);
  // Monitor reads the rules afresh on every call: catching up is enough.
  VERTEX_RETURN_IF_ERROR(reader->Follow(parsed->args, [] {}));
  MonitoringServiceImpl service(&engine, parsed->config.auth_token);
  return Serve(
      parsed->config, {&service}, nullptr, [&] { reader->Close(); },
      [&](rpc::ServerRunner& runner) { reader->PublishReadiness(runner, v1::MonitoringService::service_full_name()); },
      reader->Collectors());
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-monitoring", [&] { return vertex::server::Run(argc, argv); });
}
