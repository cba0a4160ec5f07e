// ServerRunner: the life of a Vertex gRPC server. Start() builds and starts
// a server for the caller's services as a ServerConfig says (credentials,
// message size limit, gRPC's default health service, server reflection),
// listens, writes the bound port to --port-file, and logs
// "listening on ADDR (tls: none|tls|mtls, auth token: on|off)". Wait() then
// blocks until SIGTERM or SIGINT (or RequestShutdown()) and shuts down in
// order: every health status NOT_SERVING; no new calls, in-flight calls get
// drain_seconds to finish and are then cancelled; finally the caller's
// on_drained callback (flush and close the store there).
//
// Signals: main must call BlockShutdownSignals() first thing, before any
// thread exists, so that every thread (gRPC's included) inherits the blocked
// mask and SIGTERM/SIGINT reach Wait() instead of killing the process.
// Typical main:
//
//   int main(int argc, char** argv) {
//     if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
//     ... parse flags, SetUpLogging, open the store, make the service ...
//     auto runner = vertex::rpc::ServerRunner::Start(config, {&service});
//     if (!runner.ok()) { spdlog::error("{}", runner.status().ToString()); return 1; }
//     absl::Status closed = (*runner)->Wait([&] { return store->Close(); });
//     return closed.ok() ? 0 : 1;
//   }
//
// Thread-safety: Start(), Wait() and the destructor belong to one owning
// thread; RequestShutdown(), SetServingStatus() and the accessors may be
// called from any thread, including service handlers.
#ifndef VERTEX_SERVICES_COMMON_SERVER_RUNNER_H_
#define VERTEX_SERVICES_COMMON_SERVER_RUNNER_H_

#include <grpcpp/channel.h>
#include <grpcpp/health_check_service_interface.h>
#include <grpcpp/impl/service_type.h>
#include <grpcpp/server.h>
#include <grpcpp/support/server_interceptor.h>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "services/common/server_config.h"

namespace vertex::rpc {

// Blocks SIGTERM and SIGINT in the calling thread; threads created later
// inherit the mask. Call first thing in main (tests: before any server).
// Internal when the mask cannot be changed.
absl::Status BlockShutdownSignals();

class ServerRunner {
 public:
  // Starts a server for `services` (not owned: they must outlive the
  // runner) as `config` says; the health status of the server ("") and of
  // each service (by full name) starts SERVING. Errors:
  // InvalidArgument for inconsistent TLS settings or a null service;
  // Unavailable naming the address when it cannot be listened on (in use,
  // not local, or a certificate/key gRPC rejects); the error of writing
  // config.port_file (the server is then stopped again). `interceptors`
  // (may be empty) see every call, in-process ones included.
  using Interceptors = std::vector<std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface>>;
  static absl::StatusOr<std::unique_ptr<ServerRunner>> Start(const ServerConfig& config,
                                                             const std::vector<grpc::Service*>& services,
                                                             Interceptors interceptors = {});

  ServerRunner(const ServerRunner&) = delete;
  ServerRunner& operator=(const ServerRunner&) = delete;
  // When Wait() never ran: stops the server at once, cancelling in-flight
  // calls, without calling any on_drained.
  ~ServerRunner();

  // The bound port (the chosen one for port 0); 0 for a unix: address.
  int port() const { return port_; }
  // The listen address with the bound port ("127.0.0.1:40123").
  const std::string& address() const { return address_; }
  // The running server (owned by the runner).
  grpc::Server* server() const { return server_.get(); }
  // The full names of the services the server serves, gRPC's own
  // (grpc.health.v1.Health, reflection) included.
  const std::vector<std::string>& service_names() const { return service_names_; }
  // An in-process channel to the server, with the configured message limit.
  std::shared_ptr<grpc::Channel> InProcessChannel() const;

  // Sets the health status of `service` (a full name such as
  // "vertex.v1.LearningService"; "" is the whole server). Ignored once
  // shutdown has begun.
  void SetServingStatus(const std::string& service, bool serving);
  // gRPC's health service of this server.
  grpc::HealthCheckServiceInterface* health() const;

  // Blocks until SIGTERM, SIGINT or RequestShutdown(), then shuts down as
  // the file comment says, logging each phase, and runs `on_drained` (may be
  // empty) once. Returns on_drained's status (OK without one).
  // FailedPrecondition, without waiting, when SIGTERM/SIGINT are not blocked
  // in this thread (see BlockShutdownSignals()) or Wait() already ran.
  absl::Status Wait(const std::function<absl::Status()>& on_drained);

  // Runs `hook` on Wait()'s thread when shutdown begins, right after the
  // health statuses turn NOT_SERVING and before draining: the place to end
  // long-lived streaming calls (which would otherwise wait out the drain
  // time). Call before Wait(), from the owning thread.
  void OnShutdown(std::function<void()> hook) { on_shutdown_ = std::move(hook); }

  // Makes Wait() shut down as if SIGTERM had come: from any thread, before
  // or during Wait(); repeated calls do nothing more. The test hook, and the
  // way for a service to stop its own server.
  void RequestShutdown();

 private:
  ServerRunner(const ServerConfig& config, std::unique_ptr<grpc::Server> server, int port,
               std::vector<std::string> service_names, int wake_fd);

  // Blocks until a shutdown signal or request; describes which came.
  absl::StatusOr<std::string> AwaitShutdown();
  void Drain(const std::string& reason);

  const ServerConfig config_;
  const std::unique_ptr<grpc::Server> server_;
  const int port_;
  const std::string address_;
  const std::vector<std::string> service_names_;
  const int wake_fd_;  // eventfd written by RequestShutdown()
  std::atomic<bool> waited_{false};
  std::function<void()> on_shutdown_;
};

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_SERVER_RUNNER_H_
