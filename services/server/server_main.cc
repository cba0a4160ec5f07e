#include "services/server/server_main.h"

#include <sched.h>
#include <signal.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"
#include "services/common/credentials.h"
#include "services/common/server_runner.h"
#include "services/common/logging.h"
#include "services/http/http_server.h"
#include "services/server/call_observer.h"
#include "services/server/server_metrics.h"
#include "spdlog/spdlog.h"

namespace vertex::server {

std::vector<cli::FlagSpec> StoreFlagSpecs() {
  return {
      {"store", "DIR", "the RocksDB rule store directory (default vertex-store)"},
      {"max-page-bytes", "N", "refuse pages larger than N bytes: RESOURCE_EXHAUSTED (default 8388608)"},
      {"max-depth", "N", "refuse pages nesting deeper than N elements (default 512)"},
      {"max-attributes", "N", "refuse pages with a tag of more than N attributes (default 1000)"},
      {"page-builder", "NAME",
       "the HTML parser of sites registered without one: gumbo (HTML5) or libxml2 (default " +
           std::string(html::PageBuilderName(html::ParseOptions{}.builder)) +
           "); a site keeps the builder it was registered with, and every service parses its pages with it"},
  };
}

std::vector<cli::FlagSpec> ReaderFlagSpecs() {
  return {
      {"secondary-dir", "DIR", "this reader's own RocksDB secondary files (default: a new temporary directory)"},
      {"learning-server", "ADDR", "the learning service (the store's writer): follow its store changes"},
      {"learning-tls-ca", "FILE", "CA certificate of the learning service, when it serves TLS"},
      {"catch-up-ms", "N", "catch up with the writer at least every N ms (default 500)"},
      {"max-lag-ms", "N",
       "health NOT_SERVING until the first catch-up with the writer and while the last successful one began more "
       "than N ms ago (default 10000)"},
  };
}

std::vector<cli::FlagSpec> ExtractionFlagSpecs() {
  return {
      {"max-concurrent-extractions", "N",
       "extract at most N pages at once, queueing the other Extract calls and stream pages first come, first "
       "served (a call whose deadline passes or that is cancelled while queued ends with DEADLINE_EXCEEDED or "
       "CANCELLED); 0: no limit (the default: on a quiet 2-core machine a cap of one per core lowered p99 at 4 "
       "callers in flight but raised it at 16; see README). " +
           std::to_string(UsableCores()) + " is the cores this process may run on"},
  };
}

int UsableCores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

absl::StatusOr<size_t> MaxConcurrentExtractionsFromArgs(const cli::ParsedArgs& args) {
  VERTEX_ASSIGN_OR_RETURN(int64_t n, args.Int("max-concurrent-extractions", 0, 0, 65536));
  return static_cast<size_t>(n);
}

absl::StatusOr<std::optional<ServerArgs>> ParseServerArgs(int argc, char** argv, const std::string& name,
                                                          const std::string& usage,
                                                          const std::string& default_listen,
                                                          const std::vector<cli::FlagSpec>& extra) {
  std::vector<cli::FlagSpec> specs = rpc::ServerFlagSpecs(default_listen);
  specs.insert(specs.end(), extra.begin(), extra.end());
  std::vector<cli::FlagSpec> with_help = specs;
  with_help.push_back({"help", "", "show this help"});
  VERTEX_ASSIGN_OR_RETURN(cli::ParsedArgs args,
                          cli::ParseArgs(std::vector<std::string>(argv + 1, argv + argc), with_help));
  if (args.Has("help")) {
    std::cout << "usage: " << name << " [flags]\n\n"
              << usage << "\nflags (each also read from the environment variable shown):\n"
              << cli::FlagHelp(specs, "VERTEX_") << cli::FlagHelp({with_help.back()});
    return std::nullopt;
  }
  if (!args.positional.empty()) return absl::InvalidArgumentError("unexpected argument " + args.positional[0]);
  VERTEX_RETURN_IF_ERROR(cli::ApplyEnvironment(specs, "VERTEX_", &args));
  ServerArgs out;
  VERTEX_ASSIGN_OR_RETURN(out.config, rpc::ServerConfigFromArgs(args, default_listen));
  VERTEX_RETURN_IF_ERROR(rpc::SetUpLogging(out.config.log_format, out.config.log_level, name));
  out.args = std::move(args);
  return out;
}

absl::StatusOr<html::ParseOptions> ParseOptionsFromArgs(const cli::ParsedArgs& args) {
  html::ParseOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t bytes, args.Int("max-page-bytes", static_cast<int64_t>(o.max_page_bytes), 1,
                                                  int64_t{1} << 30));
  VERTEX_ASSIGN_OR_RETURN(int64_t depth, args.Int("max-depth", o.max_depth, 1, 100000));
  o.max_page_bytes = static_cast<size_t>(bytes);
  o.max_depth = static_cast<int>(depth);
  VERTEX_ASSIGN_OR_RETURN(int64_t attributes, args.Int("max-attributes", o.max_attributes, 1, 1000000));
  o.max_attributes = static_cast<int>(attributes);
  if (args.Has("page-builder")) {
    absl::StatusOr<html::PageBuilder> builder = html::PageBuilderFromName(args.String("page-builder", ""));
    if (!builder.ok()) return absl::InvalidArgumentError("--page-builder: " + std::string(builder.status().message()));
    o.builder = *builder;
  }
  return o;
}

std::string StoreDir(const cli::ParsedArgs& args) { return args.String("store", "vertex-store"); }

absl::StatusOr<WriterStore> OpenWriterStore(const cli::ParsedArgs& args) {
  WriterStore out;
  VERTEX_ASSIGN_OR_RETURN(out.kv, store::RocksDbKv::Open(StoreDir(args), store::StoreOptions{}));
  VERTEX_ASSIGN_OR_RETURN(out.store, store::NewWritableRuleStore(out.kv));
  return out;
}

std::vector<rpc::Collector> WriterStore::Collectors() const {
  return {RuleStoreCollector(store.get()), RocksDbCollector(kv.get())};
}

std::vector<rpc::Collector> StoreReader::Collectors() const {
  return {RuleStoreCollector(store_.get()), RocksDbCollector(kv_.get())};
}

absl::StatusOr<std::shared_ptr<store::RocksDbKv>> OpenReader(const cli::ParsedArgs& args, int wait_seconds) {
  std::string secondary = args.String("secondary-dir", "");
  if (secondary.empty()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "vertex-secondary-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) return absl::InternalError("cannot create a temporary --secondary-dir");
    secondary = pattern;
  }
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(wait_seconds);
  for (bool logged = false;;) {
    absl::StatusOr<std::unique_ptr<store::RocksDbKv>> kv = store::RocksDbKv::OpenSecondary(StoreDir(args), secondary);
    if (kv.ok()) {
      spdlog::info("reading the rule store {} as a RocksDB secondary (files in {})", StoreDir(args), secondary);
      return std::shared_ptr<store::RocksDbKv>(*std::move(kv));
    }
    if (!absl::IsNotFound(kv.status()) || std::chrono::steady_clock::now() > until) return kv.status();
    if (!logged) spdlog::info("waiting up to {} s for the learning service to create the store {}", wait_seconds,
                              StoreDir(args));
    logged = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
}

absl::StatusOr<std::unique_ptr<ChangeWatcher>> WatchLearningServer(const cli::ParsedArgs& args,
                                                                   StoreFollower* follower) {
  if (!args.Has("learning-server")) return nullptr;
  VERTEX_ASSIGN_OR_RETURN(rpc::ClientTls tls, rpc::ReadClientTls(args.String("learning-tls-ca", ""), "", ""));
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ChannelCredentials> creds, rpc::MakeChannelCredentials(tls));
  auto channel = rpc::MakeChannel(args.String("learning-server", ""), creds, 4 << 20);
  spdlog::info("following the store changes of the learning service at {}", args.String("learning-server", ""));
  return std::make_unique<ChangeWatcher>(channel, [follower] { follower->Poke(); });
}

absl::StatusOr<std::unique_ptr<StoreReader>> StoreReader::Open(const cli::ParsedArgs& args, int wait_seconds) {
  auto reader = std::make_unique<StoreReader>();
  VERTEX_ASSIGN_OR_RETURN(reader->kv_, OpenReader(args, wait_seconds));
  VERTEX_ASSIGN_OR_RETURN(reader->store_, store::NewRuleStore(reader->kv_));
  return reader;
}

StoreReader::~StoreReader() { Close(); }

absl::Status StoreReader::Follow(const cli::ParsedArgs& args, std::function<void()> on_caught_up) {
  VERTEX_ASSIGN_OR_RETURN(int64_t catch_up_ms, args.Int("catch-up-ms", 500, 10, 3600000));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_lag_ms, args.Int("max-lag-ms", 10000, 100, 86400000));
  max_lag_ = absl::Milliseconds(max_lag_ms);
  follower_ = std::make_unique<StoreFollower>(kv_, std::chrono::milliseconds(catch_up_ms), std::move(on_caught_up));
  VERTEX_ASSIGN_OR_RETURN(watcher_, WatchLearningServer(args, follower_.get()));
  return absl::OkStatus();
}

void StoreReader::PublishReadiness(rpc::ServerRunner& runner, const std::string& service) {
  StoreFollower* follower = follower_.get();
  readiness_ = std::make_unique<ReadinessPublisher>(
      [follower] { return follower != nullptr ? follower->last_catch_up() : absl::InfinitePast(); }, max_lag_,
      absl::Milliseconds(250), [&runner, service](bool ready, const std::string& why) {
        runner.SetServingStatus("", ready);
        runner.SetServingStatus(service, ready);
        if (ready) {
          spdlog::info("health SERVING: caught up with the store's primary ({})", why);
        } else {
          spdlog::warn("health NOT_SERVING: {}", why);
        }
      });
}

void StoreReader::Close() {
  readiness_.reset();
  if (kv_ == nullptr) return;
  watcher_.reset();
  follower_.reset();
  store_.reset();
  kv_.reset();
  spdlog::info("rule store closed");
}

absl::StatusOr<std::unique_ptr<http::HttpServer>> StartHttp(const rpc::ServerConfig& config,
                                                             const rpc::ServerRunner& runner,
                                                             const rpc::MetricRegistry& metrics) {
  if (config.http_port < 0) return nullptr;
  // A client that hangs up while its HTTPS response is written would
  // otherwise kill the process: OpenSSL writes with write(2), which raises
  // SIGPIPE (gRPC and httplib's plain sockets use MSG_NOSIGNAL).
  signal(SIGPIPE, SIG_IGN);
  http::HttpServerOptions options;
  options.host = config.http_address;
  options.port = config.http_port;
  options.port_file = config.http_port_file;
  options.tls_cert = config.tls_cert;
  options.tls_key = config.tls_key;
  options.tls_ca = config.tls_ca;
  options.max_body_bytes = static_cast<size_t>(config.max_message_bytes);
  options.metrics = [&metrics] { return metrics.Exposition(); };
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> server,
                          http::HttpServer::Start(options, runner.InProcessChannel(), runner.service_names()));
  spdlog::info("HTTP listening on {}/ (JSON API: {}/v1; tls: {}, auth token: {})", server->url(), server->url(),
               rpc::TlsMode(config), config.auth_token.empty() ? "off" : "on");
  return server;
}

absl::Status Serve(const rpc::ServerConfig& config, const std::vector<grpc::Service*>& services,
                   const std::function<void()>& on_shutdown, const std::function<void()>& close,
                   const std::function<void(rpc::ServerRunner&)>& on_started,
                   const std::vector<rpc::Collector>& collectors) {
  rpc::MetricRegistry metrics;
  CallMetrics calls(metrics, config.access_log == "off"    ? AccessLog::kOff
                             : config.access_log == "json" ? AccessLog::kJson
                                                           : AccessLog::kText);
  metrics.AddCollector([](rpc::MetricWriter& w) {
    w.Gauge("process_resident_memory_bytes", "Resident memory size in bytes.", {},
            static_cast<double>(rpc::ResidentBytes()));
  });
  for (const rpc::Collector& c : collectors) metrics.AddCollector(c);
  rpc::ServerRunner::Interceptors interceptors;
  interceptors.push_back(NewCallObserverFactory(&calls));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<rpc::ServerRunner> runner,
                          rpc::ServerRunner::Start(config, services, std::move(interceptors)));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<http::HttpServer> http, StartHttp(config, *runner, metrics));
  if (on_started) on_started(*runner);
  // HTTP stops accepting when shutdown begins; its requests in flight are
  // gRPC calls, drained (or cancelled) with the others.
  runner->OnShutdown([&] {
    if (http != nullptr) http->Stop();
    if (on_shutdown) on_shutdown();
  });
  return runner->Wait([&] {
    http.reset();
    close();
    return absl::OkStatus();
  });
}

int Main(const std::string& name, const std::function<absl::Status()>& main_body) {
  const absl::Status s = main_body();
  if (s.ok()) return 0;
  spdlog::error("{}: {}", name, s.ToString());
  return 1;
}

}  // namespace vertex::server
