#include "services/common/server_runner.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/impl/server_builder_option.h>
#include <grpcpp/impl/server_builder_plugin.h>
#include <grpcpp/impl/server_initializer.h>
#include <grpcpp/resource_quota.h>
#include <grpcpp/server_builder.h>
#include <grpcpp/support/channel_arguments.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spdlog/spdlog.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <thread>

#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/common/credentials.h"

namespace vertex::rpc {
namespace {

sigset_t ShutdownSignals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  return set;
}

bool ShutdownSignalsBlocked() {
  sigset_t current;
  sigemptyset(&current);
  pthread_sigmask(SIG_BLOCK, nullptr, &current);
  return sigismember(&current, SIGTERM) == 1 && sigismember(&current, SIGINT) == 1;
}

// gRPC's default health service and server reflection for every server
// built from now on (process-wide settings, so set once).
void EnableServerPlugins() {
  static std::once_flag once;
  std::call_once(once, [] {
    grpc::EnableDefaultHealthCheckService(true);
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
  });
}

bool IsUnixAddress(const std::string& listen) { return listen.rfind("unix:", 0) == 0; }

// `listen` with its port replaced by `port`.
std::string BoundAddress(const std::string& listen, int port) {
  if (IsUnixAddress(listen)) return listen;
  return listen.substr(0, listen.rfind(':') + 1) + std::to_string(port);
}

int MessageLimit(const ServerConfig& config) {
  return static_cast<int>(std::min<int64_t>(config.max_message_bytes, std::numeric_limits<int32_t>::max()));
}

// Records the names of the services a server registered, as server
// reflection learns them (gRPC's plugin interface is the only way).
class ServiceNamesPlugin final : public grpc::ServerBuilderPlugin {
 public:
  explicit ServiceNamesPlugin(std::vector<std::string>* names) : names_(names) {}
  std::string name() override { return "vertex_service_names"; }
  void InitServer(grpc::ServerInitializer*) override {}
  void Finish(grpc::ServerInitializer* initializer) override { *names_ = *initializer->GetServiceList(); }
  void ChangeArguments(const std::string&, void*) override {}

 private:
  std::vector<std::string>* names_;
};

class ServiceNamesOption final : public grpc::ServerBuilderOption {
 public:
  explicit ServiceNamesOption(std::vector<std::string>* names) : names_(names) {}
  void UpdateArguments(grpc::ChannelArguments*) override {}
  void UpdatePlugins(std::vector<std::unique_ptr<grpc::ServerBuilderPlugin>>* plugins) override {
    plugins->push_back(std::make_unique<ServiceNamesPlugin>(names_));
  }

 private:
  std::vector<std::string>* names_;
};

struct BuiltServer {
  std::unique_ptr<grpc::Server> server;
  int port = 0;                       // as bound; 0 for a unix: address
  std::vector<std::string> services;  // full names, gRPC's own included
};

absl::StatusOr<BuiltServer> BuildServer(const ServerConfig& config, const std::vector<grpc::Service*>& services,
                                        ServerRunner::Interceptors interceptors) {
  VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<grpc::ServerCredentials> credentials, MakeServerCredentials(config));
  EnableServerPlugins();
  BuiltServer built;
  grpc::ServerBuilder builder;
  builder.AddListeningPort(config.listen, credentials, &built.port);
  // Without this, Linux lets a second server bind the same port silently.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(MessageLimit(config));
  builder.SetMaxSendMessageSize(MessageLimit(config));
  // Keep enough threads polling for calls that a burst of unary calls does
  // not make gRPC's synchronous server create and retire a thread per call
  // (its defaults, 1 and 2 pollers, did: hundreds of threads in 3 s).
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, cores);
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 4 * cores);
  // Bounds on what clients can make the server hold (issue 18, 5): gRPC's
  // buffers (messages received but not yet read, responses not yet sent)
  // count against the memory quota, whose pressure shrinks the flow-control
  // windows clients may fill; a sync server runs a thread per call being
  // handled, and beyond the thread quota a call gets RESOURCE_EXHAUSTED
  // at once instead of another thread.
  grpc::ResourceQuota quota("vertex-server");
  quota.Resize(static_cast<size_t>(config.max_memory_bytes));
  quota.SetMaxThreads(config.max_threads);
  builder.SetResourceQuota(quota);
  builder.SetOption(std::make_unique<ServiceNamesOption>(&built.services));
  if (!interceptors.empty()) builder.experimental().SetInterceptorCreators(std::move(interceptors));
  for (grpc::Service* service : services) {
    if (service == nullptr) return absl::InvalidArgumentError("ServerRunner::Start: a service is null");
    builder.RegisterService(service);
  }
  built.server = builder.BuildAndStart();
  if (built.server == nullptr || (built.port <= 0 && !IsUnixAddress(config.listen))) {
    return absl::UnavailableError("cannot listen on '" + config.listen +
                                  "' (address in use or not local, or TLS certificate/key rejected)");
  }
  if (IsUnixAddress(config.listen)) built.port = 0;
  return built;
}

}  // namespace

absl::Status BlockShutdownSignals() {
  const sigset_t set = ShutdownSignals();
  const int err = pthread_sigmask(SIG_BLOCK, &set, nullptr);
  if (err != 0) return absl::InternalError(std::string("cannot block SIGTERM/SIGINT: ") + std::strerror(err));
  return absl::OkStatus();
}

absl::StatusOr<std::unique_ptr<ServerRunner>> ServerRunner::Start(const ServerConfig& config,
                                                                  const std::vector<grpc::Service*>& services,
                                                                  Interceptors interceptors) {
  const int wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (wake_fd < 0) return absl::InternalError(std::string("eventfd: ") + std::strerror(errno));
  absl::StatusOr<BuiltServer> built = BuildServer(config, services, std::move(interceptors));
  if (!built.ok()) {
    close(wake_fd);
    return built.status();
  }
  std::unique_ptr<ServerRunner> runner(
      new ServerRunner(config, std::move(built->server), built->port, std::move(built->services), wake_fd));
  for (const std::string& name : runner->service_names_) runner->SetServingStatus(name, true);
  if (!config.port_file.empty()) {
    absl::Status written = util::WriteFile(config.port_file, std::to_string(runner->port()) + "\n");
    if (!written.ok()) return absl::Status(written.code(), "--port-file: " + std::string(written.message()));
  }
  spdlog::info("listening on {} (tls: {}, auth token: {})", runner->address(), TlsMode(config),
               config.auth_token.empty() ? "off" : "on");
  return runner;
}

ServerRunner::ServerRunner(const ServerConfig& config, std::unique_ptr<grpc::Server> server, int port,
                           std::vector<std::string> service_names, int wake_fd)
    : config_(config),
      server_(std::move(server)),
      port_(port),
      address_(BoundAddress(config.listen, port)),
      service_names_(std::move(service_names)),
      wake_fd_(wake_fd) {}

ServerRunner::~ServerRunner() {
  if (!waited_.load()) {
    server_->Shutdown(std::chrono::system_clock::now());
    server_->Wait();
  }
  close(wake_fd_);
}

std::shared_ptr<grpc::Channel> ServerRunner::InProcessChannel() const {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(MessageLimit(config_));
  args.SetMaxSendMessageSize(MessageLimit(config_));
  return server_->InProcessChannel(args);
}

void ServerRunner::SetServingStatus(const std::string& service, bool serving) {
  if (grpc::HealthCheckServiceInterface* h = health(); h != nullptr) h->SetServingStatus(service, serving);
}

grpc::HealthCheckServiceInterface* ServerRunner::health() const { return server_->GetHealthCheckService(); }

void ServerRunner::RequestShutdown() {
  const uint64_t one = 1;
  // Cannot fail short of a closed descriptor: the counter does not overflow.
  [[maybe_unused]] const ssize_t n = write(wake_fd_, &one, sizeof(one));
}

absl::Status ServerRunner::Wait(const std::function<absl::Status()>& on_drained) {
  if (!ShutdownSignalsBlocked()) {
    return absl::FailedPreconditionError(
        "ServerRunner::Wait: SIGTERM and SIGINT are not blocked; call BlockShutdownSignals() first thing in main");
  }
  if (waited_.exchange(true)) return absl::FailedPreconditionError("ServerRunner::Wait: already ran");
  absl::StatusOr<std::string> reason = AwaitShutdown();
  if (!reason.ok()) spdlog::error("waiting for a shutdown signal failed: {}", reason.status().ToString());
  Drain(reason.ok() ? *reason : "error");
  spdlog::info("drained; closing");
  const absl::Status closed = on_drained ? on_drained() : absl::OkStatus();
  if (!closed.ok()) spdlog::error("closing failed: {}", closed.ToString());
  spdlog::info("stopped");
  return closed;
}

absl::StatusOr<std::string> ServerRunner::AwaitShutdown() {
  const sigset_t set = ShutdownSignals();
  const int signal_fd = signalfd(-1, &set, SFD_CLOEXEC);
  if (signal_fd < 0) return absl::InternalError(std::string("signalfd: ") + std::strerror(errno));
  pollfd fds[2] = {{signal_fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  int ready;
  do {
    ready = poll(fds, 2, -1);
  } while (ready < 0 && errno == EINTR);
  const int poll_errno = errno;
  std::string reason = "shutdown requested";
  signalfd_siginfo info;
  if (ready > 0 && (fds[0].revents & POLLIN) != 0 && read(signal_fd, &info, sizeof(info)) == sizeof(info)) {
    reason = info.ssi_signo == SIGINT ? "SIGINT" : "SIGTERM";
  }
  close(signal_fd);
  if (ready < 0) return absl::InternalError(std::string("poll: ") + std::strerror(poll_errno));
  return reason;
}

void ServerRunner::Drain(const std::string& reason) {
  spdlog::info("shutting down ({}): health NOT_SERVING", reason);
  if (grpc::HealthCheckServiceInterface* h = health(); h != nullptr) h->Shutdown();
  if (on_shutdown_) on_shutdown_();
  spdlog::info("refusing new calls; draining in-flight calls for up to {} s", config_.drain_seconds);
  server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(config_.drain_seconds));
  server_->Wait();
}

}  // namespace vertex::rpc
