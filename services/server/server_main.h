// What the mains of vertex-learning, vertex-extraction, vertex-monitoring
// and vertexd share: flags (the common server flags of services/common plus
// each binary's own, every one also read from VERTEX_<NAME>), --help,
// logging, the page limits, and opening the rule store as its writer or as
// a RocksDB secondary.
//
// Thread-safety: called from main's thread.
#ifndef VERTEX_SERVICES_SERVER_SERVER_MAIN_H_
#define VERTEX_SERVICES_SERVER_SERVER_MAIN_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/store/rocksdb_kv.h"
#include "common/store/rule_store.h"
#include "services/common/flags.h"
#include "services/common/metrics.h"
#include "services/common/server_config.h"
#include "services/common/server_runner.h"
#include "services/server/readiness.h"
#include "services/server/store_follower.h"

namespace vertex::server {

struct ServerArgs {
  rpc::ServerConfig config;
  cli::ParsedArgs args;
};

// The flags every server with a store takes: --store, --max-page-bytes,
// --max-depth, --max-attributes.
std::vector<cli::FlagSpec> StoreFlagSpecs();
// The flags of a reader of the store: --secondary-dir, --learning-server,
// --learning-tls-ca, --catch-up-ms, --max-lag-ms.
std::vector<cli::FlagSpec> ReaderFlagSpecs();

// The flag of a server with an ExtractionService:
// --max-concurrent-extractions N.
std::vector<cli::FlagSpec> ExtractionFlagSpecs();

// The cores this process may run on (its CPU affinity; at least 1), named
// in --max-concurrent-extractions' help.
int UsableCores();

// --max-concurrent-extractions: at most N pages extracted at once, the
// other calls queued first come, first served (ExtractionServiceImpl); 0
// for no limit, the default. InvalidArgument naming the flag
// outside 0..65536.
absl::StatusOr<size_t> MaxConcurrentExtractionsFromArgs(const cli::ParsedArgs& args);

// Parses argv against the server flags and `extra`, environment included,
// and sets up logging for `name`. nullopt when --help was printed (exit 0).
// Errors name the flag.
absl::StatusOr<std::optional<ServerArgs>> ParseServerArgs(int argc, char** argv, const std::string& name,
                                                          const std::string& usage,
                                                          const std::string& default_listen,
                                                          const std::vector<cli::FlagSpec>& extra);

// --max-page-bytes, --max-depth, --max-attributes and --page-builder (the
// builder of sites registered without one; InvalidArgument naming the flag
// for an unknown name).
absl::StatusOr<html::ParseOptions> ParseOptionsFromArgs(const cli::ParsedArgs& args);

// The store directory (--store, default "vertex-store").
std::string StoreDir(const cli::ParsedArgs& args);

// The store as its writer holds it: the RocksDB engine (for its size in
// /metrics) and the rule store over it.
struct WriterStore {
  std::shared_ptr<store::RocksDbKv> kv;
  std::unique_ptr<store::RuleStore> store;
  // The /metrics collectors of the store (server_metrics.h).
  std::vector<rpc::Collector> Collectors() const;
};
// Opens (creating it when missing) --store for writing: OpenRocksDbStore's
// errors.
absl::StatusOr<WriterStore> OpenWriterStore(const cli::ParsedArgs& args);

// Opens --store as the reader of another process's store: a RocksDB
// secondary in --secondary-dir (default: a new temporary directory),
// waiting up to `wait_seconds` for the writer to create the store.
absl::StatusOr<std::shared_ptr<store::RocksDbKv>> OpenReader(const cli::ParsedArgs& args, int wait_seconds);

// Follows the learning service's store changes when --learning-server is
// given (nullptr otherwise), poking `follower` on each.
absl::StatusOr<std::unique_ptr<ChangeWatcher>> WatchLearningServer(const cli::ParsedArgs& args,
                                                                   StoreFollower* follower);

// The store as a reader process holds it: a RocksDB secondary of --store,
// the rule store over it, and, once Follow() is called, the follower that
// catches it up (every --catch-up-ms, and on the learning service's change
// notifications when --learning-server is given).
class StoreReader {
 public:
  // Opens the secondary (OpenReader, waiting up to `wait_seconds`).
  static absl::StatusOr<std::unique_ptr<StoreReader>> Open(const cli::ParsedArgs& args, int wait_seconds);
  ~StoreReader();

  // Starts following the writer; `on_caught_up` runs after each catch-up.
  // InvalidArgument naming the flag for a bad --catch-up-ms or --max-lag-ms.
  absl::Status Follow(const cli::ParsedArgs& args, std::function<void()> on_caught_up);
  // After Follow(): keeps the health status of the server ("") and of
  // `service` (a full name) on `runner` SERVING only while the store is
  // caught up (readiness.h; --max-lag-ms, checked every 250 ms), logging
  // each change. `runner` must outlive Close().
  void PublishReadiness(rpc::ServerRunner& runner, const std::string& service);
  const store::RuleStore* store() const { return store_.get(); }
  const store::RocksDbKv* kv() const { return kv_.get(); }
  // The /metrics collectors of the store (server_metrics.h).
  std::vector<rpc::Collector> Collectors() const;
  // Stops following and closes the store.
  void Close();

 private:
  std::shared_ptr<store::RocksDbKv> kv_;
  std::unique_ptr<store::RuleStore> store_;
  std::unique_ptr<StoreFollower> follower_;
  std::unique_ptr<ChangeWatcher> watcher_;
  absl::Duration max_lag_ = absl::Seconds(10);
  std::unique_ptr<ReadinessPublisher> readiness_;
};

// Serves `services` as `config` says (and HTTP, services/http, when
// config.http_port >= 0) until SIGTERM or SIGINT, then drains;
// `on_started` (may be empty) runs once the server is up (e.g.
// StoreReader::PublishReadiness), `on_shutdown` (may be empty) when
// shutdown begins, `close` after the drain (close the store there).
// Every call is observed (call_observer.h: metrics, --access-log); GET
// /metrics on the HTTP port shows those metrics, the process' RSS and what
// `collectors` write at each scrape (the store's size, rules, admission).
// Start()'s errors.
absl::Status Serve(const rpc::ServerConfig& config, const std::vector<grpc::Service*>& services,
                   const std::function<void()>& on_shutdown, const std::function<void()>& close,
                   const std::function<void(rpc::ServerRunner&)>& on_started = {},
                   const std::vector<rpc::Collector>& collectors = {});

// Runs `main_body` and turns an error into a logged message and exit code 1.
int Main(const std::string& name, const std::function<absl::Status()>& main_body);

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_SERVER_MAIN_H_
