// vertex-monitoring: the monitoring service, a reader of the rule store.
#include "common/util/status_macros.h"
#include "common/workflow/monitor_engine.h"
#include "services/common/server_runner.h"
#include "services/monitoring/monitoring_service.h"
#include "services/server/server_main.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

constexpr char kUsage[] =
    "The monitoring service of Vertex (vertex.v1.MonitoringService): a scheduler calls Monitor per site\n"
    "with fresh versions of its pages; each page is routed to its cluster by URL and put to the shingle\n"
    "test (the cluster's signature covers it) and the field test (every mandatory attribute extracted);\n"
    "a cluster where more than the request's threshold (default 0.2) of its pages fail is CHANGED. It reads the learning service's\n"
    "rule store (--store) as a RocksDB secondary, like the extraction service.\n"
    "SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n";

absl::Status Run(int argc, char** argv) {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : ReaderFlagSpecs()) flags.push_back(f);
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertex-monitoring", kUsage, "127.0.0.1:7073", flags));
  if (!parsed) return absl::OkStatus();
  workflow::MonitorEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<StoreReader> reader, StoreReader::Open(parsed->args, 60));
  workflow::MonitorEngine engine(reader->store(), options);
  // Monitor reads the rules afresh on every call: catching up is enough.
  VERTEX_RETURN_IF_ERROR(reader->Follow(parsed->args, [] {}));
  MonitoringServiceImpl service(&engine);
  return Serve(parsed->config, {&service}, nullptr, [&] { reader->Close(); });
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-monitoring", [&] { return vertex::server::Run(argc, argv); });
}
