// vertex-learning: the learning service, the one writer of the rule store.
#include "common/util/status_macros.h"
#include "common/workflow/learning_engine.h"
#include "services/common/server_runner.h"
#include "services/learning/learning_service.h"
#include "services/server/server_main.h"
#include "spdlog/spdlog.h"

namespace vertex::server {
namespace {

constexpr char kUsage[] =
    "The learning service of Vertex (vertex.v1.LearningService): registers sites, clusters their sample\n"
    "pages, hands out annotation tasks and learns extraction rules from annotations. It owns the RocksDB\n"
    "rule store (--store; created when missing): the extraction and monitoring services read it as\n"
    "secondaries and follow its changes through WatchStore. Write RPCs need `authorization: Bearer TOKEN`\n"
    "when --auth-token is set. SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n";

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertex-learning", kUsage, "127.0.0.1:7071", StoreFlagSpecs()));
  if (!parsed) return absl::OkStatus();
  workflow::LearningEngineOptions options;
  VERTEX_ASSIGN_OR_RETURN(options.cluster.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(StoreDir(parsed->args)));
  spdlog::info("rule store {} opened for writing", StoreDir(parsed->args));
  ChangeHub hub;
  workflow::LearningEngine engine(store.get(), options, [&hub](const std::string& site) { hub.Publish(site); });
  LearningServiceImpl service(&engine, &hub, parsed->config.auth_token);
  return Serve(parsed->config, {&service}, [&hub] { hub.Close(); }, [&] {
    store.reset();
    spdlog::info("rule store closed");
  });
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-learning", [&] { return vertex::server::Run(argc, argv); });
}
