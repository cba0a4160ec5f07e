// vertex-extraction: the extraction service, a reader of the rule store.
#include "common/util/status_macros.h"
#include "common/workflow/extraction_engine.h"
#include "services/common/server_runner.h"
#include "services/extraction/extraction_service.h"
#include "services/server/server_main.h"
#include "services/server/store_follower.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

constexpr char kUsage[] =
    "The extraction service of Vertex (vertex.v1.ExtractionService): the record of each crawled page from\n"
    "the current rules of its site. It reads the learning service's rule store (--store, a shared\n"
    "directory) as a RocksDB secondary, catching up every --catch-up-ms and at once when the learning\n"
    "service (--learning-server) reports a write, so a learnt rule is used within a second.\n"
    "SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n";

absl::Status Run(int argc, char** argv) {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : ReaderFlagSpecs()) flags.push_back(f);
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertex-extraction", kUsage, "127.0.0.1:7072", flags));
  if (!parsed) return absl::OkStatus();
  workflow::ExtractionEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(int64_t catch_up_ms, parsed->args.Int("catch-up-ms", 500, 10, 3600000));
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<store::RocksDbKv> kv, OpenReader(parsed->args, 60));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::NewRuleStore(kv));
  workflow::ExtractionEngine engine(store.get(), options);
  auto follower = std::make_unique<StoreFollower>(kv, std::chrono::milliseconds(catch_up_ms), [&engine] {
    absl::StatusOr<size_t> changed = engine.Refresh();
    if (!changed.ok()) spdlog::warn("reloading rules failed: {}", changed.status().ToString());
    if (changed.ok() && *changed > 0) spdlog::info("rules of {} site(s) reloaded", *changed);
  });
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<ChangeWatcher> watcher, WatchLearningServer(parsed->args, follower.get()));
  ExtractionServiceImpl service(&engine);
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<rpc::ServerRunner> runner, rpc::ServerRunner::Start(parsed->config, {&service}));
  return runner->Wait([&] {
    watcher.reset();
    follower.reset();
    store.reset();
    kv.reset();
    spdlog::info("rule store closed");
    return absl::OkStatus();
  });
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-extraction", [&] { return vertex::server::Run(argc, argv); });
}
