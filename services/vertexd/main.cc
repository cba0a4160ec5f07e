// vertexd: the embedded default. The learning, extraction and monitoring
// services in one process, over one rule store, on one port.
#include "common/monitor/monitor_engine.h"
#include "common/util/status_macros.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "services/common/engine_flags.h"
#include "services/common/server_runner.h"
#include "services/extraction/extraction_service.h"
#include "services/learning/learning_service.h"
#include "services/monitoring/monitoring_service.h"
#include "services/server/server_main.h"
#include "services/server/server_metrics.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

constexpr char kUsage[] =
    "vertexd, the embedded default of Vertex: the learning, extraction and monitoring services\n"
    "(vertex.v1.LearningService, ExtractionService, MonitoringService) in one process, over one RocksDB\n"
    "rule store (--store; created when missing), on one port. A rule Learn stores is used by the next\n"
    "Extract call. Monitor stores its runs in the site's history (GetHistory), tests the site's feed when\n"
    "given one, and with feed_repair relearns the failed clusters from the feed; it and Relearn fetch\n"
    "pages when the request supplies none (the --fetch-* flags; robots.txt obeyed unless\n"
    "--ignore-robots, one request at a time per host). Write RPCs need `authorization: Bearer TOKEN`\n"
    "when --auth-token is set. With --max-concurrent-extractions N, at most N pages are extracted at\n"
    "once and further Extract calls and stream pages queue, first come, first served (default: no limit).\n"
    "With --http-port N (default: no HTTP), the same RPCs as HTTP/JSON (GET /v1 lists the routes), GET /metrics\n"
    "(Prometheus) and the web pages on port N; --access-log text|json|off (default text) logs one line per call.\n"
    "SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n"
    "Sites are clustered with their own settings (RegisterSite, AddSamplePages: pruning threshold,\n"
    "sample rate); --prune-threshold and --sample-rate are the defaults for sites without.\n";

std::vector<cli::FlagSpec> VertexdFlags() {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : cli::RelearnFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : cli::ClusterDefaultFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : cli::FetchFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : ExtractionFlagSpecs()) flags.push_back(f);
  return flags;
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertexd", kUsage, "127.0.0.1:7070", VertexdFlags()));
  if (!parsed) return absl::OkStatus();
  VERTEX_ASSIGN_OR_RETURN(html::ParseOptions parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(const size_t max_extractions, MaxConcurrentExtractionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, cli::WithRelearnFlags(parsed->args, {}));
  VERTEX_ASSIGN_OR_RETURN(options, cli::WithClusterDefaultFlags(parsed->args, std::move(options)));
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, cli::FetchOptionsFromArgs(parsed->args));
  // One fetcher, so its per-host politeness holds across Relearn and Monitor.
  const std::shared_ptr<fetch::Fetcher> fetcher = fetch::NewCurlFetcher(fetch_options);
  VERTEX_ASSIGN_OR_RETURN(WriterStore writer, OpenWriterStore(parsed->args));
  std::unique_ptr<store::RuleStore>& store = writer.store;
  spdlog::info("rule store {} opened for writing", StoreDir(parsed->args));
  workflow::ExtractionEngine extraction(store.get(), {parse});
  ChangeHub hub;
  options.cluster.parse = parse;
  options.fetcher = fetcher;
  workflow::LearningEngine learning(store.get(), options, [&](const std::string& site) {
    if (absl::StatusOr<size_t> r = extraction.Refresh(); !r.ok()) {
      spdlog::warn("reloading rules after a write to {} failed: {}", site, r.status().ToString());
    }
    hub.Publish(site);
  });
  // Runs are stored through the learning engine: its lock, --history-keep
  // and the change notification of any other write.
  monitor::MonitorEngineOptions monitor_options;
  monitor_options.parse = parse;
  monitor_options.fetcher = fetcher;
  monitor_options.record = [&learning](const v1::MonitorRun& run) {
    v1::RecordMonitorRunRequest request;
    *request.mutable_run() = run;
    return learning.RecordMonitorRun(request).status();
  };
  // feed_repair's Relearn and AnnotateFromFeed: the engine in process (not
  // owned: it outlives the monitor engine).
  monitor_options.learning = std::shared_ptr<workflow::LearningApi>(std::shared_ptr<void>(), &learning);
  monitor::MonitorEngine monitor_engine(store.get(), monitor_options);
  LearningServiceImpl learning_service(&learning, &hub, parsed->config.auth_token);
  util::FifoSemaphore extractions(max_extractions);
  ExtractionServiceImpl extraction_service(&extraction, &extractions);
  MonitoringServiceImpl monitoring_service(&monitor_engine, parsed->config.auth_token);
  const std::vector<grpc::Service*> services = {&learning_service, &extraction_service, &monitoring_service};
  std::vector<rpc::Collector> collectors = writer.Collectors();
  collectors.push_back(AdmissionCollector(&extractions));
  absl::Status served = Serve(
      parsed->config, services, [&hub] { hub.Close(); },
      [&] {
        store.reset();
        writer.kv.reset();
        spdlog::info("rule store closed");
      },
      {}, collectors);
  if (served.ok()) spdlog::info("{}", DescribeAdmission(extractions));
  return served;
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertexd", [&] { return vertex::server::Run(argc, argv); });
}
