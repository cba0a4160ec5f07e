// vertex-learning: the learning service, the one writer of the rule store.
#include "common/util/status_macros.h"
#include "common/workflow/learning_engine.h"
#include "services/common/engine_flags.h"
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
    "secondaries and follow its changes through WatchStore. Relearn re-clusters a changed site's fresh\n"
    "sample, reusing or repairing its rules (Vertex IV-C); without pages in the request it fetches the\n"
    "stored sample's URLs again (the --fetch-* flags; robots.txt obeyed unless --ignore-robots, one\n"
    "request at a time per host), which may take minutes. RecordMonitorRun stores the monitoring\n"
    "service's runs. Write RPCs need `authorization: Bearer TOKEN` when --auth-token is set.\n"
    "Sites are clustered with their own settings (RegisterSite, AddSamplePages: pruning threshold,\n"
    "sample rate); --prune-threshold and --sample-rate are the defaults for sites without.\n"
    "SIGTERM or SIGINT: stop accepting calls, drain, close the store.\n";

std::vector<cli::FlagSpec> LearningFlags() {
  std::vector<cli::FlagSpec> flags = StoreFlagSpecs();
  for (const cli::FlagSpec& f : cli::RelearnFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : cli::ClusterDefaultFlagSpecs()) flags.push_back(f);
  for (const cli::FlagSpec& f : cli::FetchFlagSpecs()) flags.push_back(f);
  return flags;
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(std::optional<ServerArgs> parsed,
                          ParseServerArgs(argc, argv, "vertex-learning", kUsage, "127.0.0.1:7071", LearningFlags()));
  if (!parsed) return absl::OkStatus();
  VERTEX_ASSIGN_OR_RETURN(workflow::LearningEngineOptions options, cli::WithRelearnFlags(parsed->args, {}));
  VERTEX_ASSIGN_OR_RETURN(options, cli::WithClusterDefaultFlags(parsed->args, std::move(options)));
  VERTEX_ASSIGN_OR_RETURN(options.cluster.parse, ParseOptionsFromArgs(parsed->args));
  VERTEX_ASSIGN_OR_RETURN(const fetch::FetchOptions fetch_options, cli::FetchOptionsFromArgs(parsed->args));
  options.fetcher = fetch::NewCurlFetcher(fetch_options);
  VERTEX_ASSIGN_OR_RETURN(WriterStore writer, OpenWriterStore(parsed->args));
  std::unique_ptr<store::RuleStore>& store = writer.store;
  spdlog::info("rule store {} opened for writing", StoreDir(parsed->args));
  ChangeHub hub;
  workflow::LearningEngine engine(store.get(), options, [&hub](const std::string& site) { hub.Publish(site); });
  LearningServiceImpl service(&engine, &hub, parsed->config.auth_token);
  return Serve(
      parsed->config, {&service}, [&hub] { hub.Close(); },
      [&] {
        store.reset();
        writer.kv.reset();
        spdlog::info("rule store closed");
      },
      {}, writer.Collectors());
}

}  // namespace
}  // namespace vertex::server

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  return vertex::server::Main("vertex-learning", [&] { return vertex::server::Run(argc, argv); });
}
