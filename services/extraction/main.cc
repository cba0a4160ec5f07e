// vertex-extraction: the extraction service, a reader of the rule store.
#include "common/util/status_macros.h"
#include "common/workflow/extraction_engine.h"
#include "services/common/server_runner.h"
#include "services/extraction/extraction_service.h"
#include "services/server/server_main.h"
#include "services/server/server_metrics.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

constexpr char kUsage[] =
    "The extraction service of Vertex (vertex.v1.ExtractionService): the record of each crawled page from\n"
    "the current rules of its site. It reads the learning service's rule store (--store, a shared\n"
    "directory) as a RocksDB secondary, catching up every --catch-up-ms and at once when the learning\n"
    "service (--learning-server) reports a write, so a learnt rule is used within a second. Its health\n"
    "(grpc.health.v1, the readiness probe) is NOT_SERVING until the first catch-up succeeds and while the\n"
    "last successful one is older than --max-lag-ms. With --max-concurrent-extractions N, at most N pages\n"
    "are extracted at once and further calls queue, first come, first served (default: no limit).\n"
    "SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n";

absl::Status Run(int argc, char** argv) {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : ReaderFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : ExtractionFlagSpecs()) flags.push_back(f);
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertex-extraction", kUsage, "127.0.0.1:7072", flags));
  if (!parsed) return absl::OkStatus();
  workflow::ExtractionEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(const size_t max_extractions, MaxConcurrentExtractionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<StoreReader> reader, StoreReader::Open(parsed->args, 60));
  workflow::ExtractionEngine engine(reader->store(), options);
  VERTEX_RETURN_IF_ERROR(reader->Follow(parsed->args, [&engine] {
    absl::StatusOr<size_t> changed = engine.Refresh();
    if (!changed.ok()) spdlog::warn("reloading rules failed: {}", changed.status().ToString());
    if (changed.ok() && *changed > 0) spdlog::info("rules of {} site(s) reloaded", *changed);
  }));
  util::FifoSemaphore extractions(max_extractions);
  ExtractionServiceImpl service(&engine, &extractions);
  std::vector<rpc::Collector> collectors = reader->Collectors();
  collectors.push_back(AdmissionCollector(&extractions));
  absl::Status served = Serve(
      parsed->config, {&service}, nullptr, [&] { reader->Close(); },
      [&](rpc::ServerRunner& runner) { reader->PublishReadiness(runner, v1::ExtractionService::service_full_name()); },
      collectors);
  if (served.ok()) spdlog::info("{}", DescribeAdmission(extractions));
  return served;
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-extraction", [&] { return vertex::server::Run(argc, argv); });
}
