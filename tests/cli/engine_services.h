// Test doubles of the Vertex servers: LearningService, ExtractionService
// and MonitoringService as thin gRPC adapters over the engines of
// common/workflow on one in-memory store, served on 127.0.0.1 (an ephemeral
// port) with gRPC's default health service. Write RPCs check the bearer
// token (rpc::CheckBearerToken) as the real servers do. A request whose
// site is kSlowSite is answered after kSlowDelay, to test deadlines.
//
// Thread-safety: the server's handlers run on gRPC's threads; the engines
// are safe for that. Start() and destruction belong to one thread.
#ifndef VERTEX_TESTS_CLI_ENGINE_SERVICES_H_
#define VERTEX_TESTS_CLI_ENGINE_SERVICES_H_

#include <grpcpp/server.h>

#include <chrono>
#include <memory>
#include <string>

#include "common/monitor/monitor_engine.h"
#include "common/store/rule_store.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"

namespace vertex::testing {

inline constexpr char kSlowSite[] = "slow-site";
inline constexpr std::chrono::milliseconds kSlowDelay{1500};

// The engines on one in-memory store, wired as vertexd wires them: every
// acknowledged learning write refreshes the extraction engine; the monitor
// engine records its runs through the learning engine (no fetcher: a
// Monitor call without pages is FAILED_PRECONDITION).
struct EngineStack {
  EngineStack();
  std::unique_ptr<store::RuleStore> store;
  std::unique_ptr<workflow::ExtractionEngine> extraction;
  std::unique_ptr<workflow::LearningEngine> learning;
  std::unique_ptr<monitor::MonitorEngine> monitor;
};

class EngineServer {
 public:
  // Serves a fresh EngineStack; write RPCs need `token` when it is not
  // empty; messages up to `max_message_bytes` are accepted. Null (with a
  // test failure) when the server cannot start.
  static std::unique_ptr<EngineServer> Start(const std::string& token, int max_message_bytes = 64 << 20);
  ~EngineServer();

  // "127.0.0.1:PORT".
  const std::string& address() const { return address_; }
  EngineStack& engines() { return *engines_; }

 private:
  struct Services;
  EngineServer() = default;

  std::unique_ptr<EngineStack> engines_;
  std::unique_ptr<Services> services_;
  std::unique_ptr<grpc::Server> server_;
  std::string address_;
};

}  // namespace vertex::testing

#endif  // VERTEX_TESTS_CLI_ENGINE_SERVICES_H_
