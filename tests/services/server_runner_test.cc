// ServerRunner, bearer tokens, TLS and health checks through real servers on
// 127.0.0.1:0 (and in-process channels), with a small Echo service.
#include "services/common/server_runner.h"

#include <signal.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "common/util/file.h"
#include "echo_test.grpc.pb.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "gtest/gtest.h"
#include "services/common/auth.h"
#include "services/common/credentials.h"
#include "services/common/health_client.h"
#include "services/common/server_config.h"
#include "tests/testing/temp_dir.h"

namespace vertex::rpc {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using test_support::TempDir;

// As main must: block SIGTERM/SIGINT before gRPC creates any thread (this
// runs before main), so a test can send SIGTERM to the process.
const bool kSignalsBlocked = BlockShutdownSignals().ok();

std::chrono::system_clock::time_point In(milliseconds ms) { return std::chrono::system_clock::now() + ms; }

// Echo::Say behind CheckBearerToken; counts calls that got past it.
class EchoService final : public test::Echo::Service {
 public:
  explicit EchoService(std::string token = "") : token_(std::move(token)) {}

  grpc::Status Say(grpc::ServerContext* context, const test::EchoRequest* request, test::EchoReply* reply) override {
    if (grpc::Status status = CheckBearerToken(*context, token_); !status.ok()) return status;
    started_.fetch_add(1);
    if (request->until_cancelled()) {
      while (!context->IsCancelled()) std::this_thread::sleep_for(milliseconds(5));
      return grpc::Status(grpc::StatusCode::CANCELLED, "cancelled");
    }
    std::this_thread::sleep_for(milliseconds(request->hold_ms()));
    reply->set_text(request->text());
    finished_.fetch_add(1);
    return grpc::Status::OK;
  }

  // Calls that passed the token check / that replied OK.
  int started() const { return started_.load(); }
  int finished() const { return finished_.load(); }

 private:
  const std::string token_;
  std::atomic<int> started_{0};
  std::atomic<int> finished_{0};
};

ServerConfig LoopbackConfig() {
  ServerConfig config;
  config.listen = "127.0.0.1:0";
  return config;
}

std::unique_ptr<ServerRunner> StartOrDie(const ServerConfig& config, grpc::Service* service) {
  absl::StatusOr<std::unique_ptr<ServerRunner>> runner = ServerRunner::Start(config, {service});
  EXPECT_TRUE(runner.ok()) << runner.status();
  return runner.ok() ? std::move(runner).value() : nullptr;
}

std::shared_ptr<grpc::Channel> InsecureChannel(const ServerRunner& runner) {
  return MakeChannel(runner.address(), MakeChannelCredentials(ClientTls{}).value());
}

// Echo::Say with `token` (none when empty): the call's status.
grpc::Status Say(const std::shared_ptr<grpc::Channel>& channel, const std::string& token,
                 const test::EchoRequest& request = {}) {
  auto stub = test::Echo::NewStub(channel);
  grpc::ClientContext context;
  context.set_deadline(In(seconds(10)));
  AddBearerToken(&context, token);
  test::EchoReply reply;
  grpc::Status status = stub->Say(&context, request, &reply);
  if (status.ok()) {
    EXPECT_EQ(reply.text(), request.text());
  }
  return status;
}

TEST(ServerRunner, SignalsAreBlockedBeforeMain) { EXPECT_TRUE(kSignalsBlocked); }

TEST(ServerRunner, WritesTheBoundPortToThePortFile) {
  TempDir dir;
  ServerConfig config = LoopbackConfig();
  config.port_file = dir.path() + "/sub/port";
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(config, &echo);
  ASSERT_NE(runner, nullptr);
  EXPECT_GT(runner->port(), 0);
  EXPECT_EQ(runner->address(), "127.0.0.1:" + std::to_string(runner->port()));
  EXPECT_EQ(util::ReadFile(config.port_file).value_or("?"), std::to_string(runner->port()) + "\n");
  EXPECT_TRUE(Say(InsecureChannel(*runner), "").ok());
}

TEST(ServerRunner, PortInUseIsUnavailableNamingTheAddress) {
  EchoService echo;
  std::unique_ptr<ServerRunner> first = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(first, nullptr);
  ServerConfig config = LoopbackConfig();
  config.listen = first->address();
  EchoService other;
  const absl::Status status = ServerRunner::Start(config, {&other}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
  EXPECT_NE(status.message().find(first->address()), std::string::npos) << status;
}

TEST(ServerRunner, UnwritablePortFileFailsStart) {
  TempDir dir;
  ServerConfig config = LoopbackConfig();
  config.port_file = dir.path();  // a directory
  EchoService echo;
  const absl::Status status = ServerRunner::Start(config, {&echo}).status();
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("--port-file"), std::string::npos) << status;
}

TEST(ServerRunner, NullServiceIsInvalid) {
  EXPECT_EQ(ServerRunner::Start(LoopbackConfig(), {nullptr}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ServerRunner, HealthServesTheServerAndEachService) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  auto channel = InsecureChannel(*runner);
  EXPECT_EQ(CheckHealth(channel, "", In(seconds(10))).value_or("?"), "SERVING");
  EXPECT_EQ(CheckHealth(channel, "vertex.test.Echo", In(seconds(10))).value_or("?"), "SERVING");
  EXPECT_EQ(CheckHealth(channel, "no.Such", In(seconds(10))).status().code(), absl::StatusCode::kNotFound);
  runner->SetServingStatus("vertex.test.Echo", false);
  EXPECT_EQ(CheckHealth(channel, "vertex.test.Echo", In(seconds(10))).value_or("?"), "NOT_SERVING");
  EXPECT_EQ(CheckHealth(runner->InProcessChannel(), "", In(seconds(10))).value_or("?"), "SERVING");
  const std::vector<std::string>& names = runner->service_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "vertex.test.Echo"), names.end());
}

TEST(ServerRunner, RequestShutdownStopsTheServerAndDrainsOnce) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  auto channel = InsecureChannel(*runner);
  ASSERT_EQ(CheckHealth(channel, "", In(seconds(10))).value_or("?"), "SERVING");
  std::atomic<int> drained{0};
  std::future<absl::Status> waited = std::async(std::launch::async, [&] {
    return runner->Wait([&] {
      drained.fetch_add(1);
      return absl::OkStatus();
    });
  });
  runner->RequestShutdown();
  runner->RequestShutdown();
  ASSERT_EQ(waited.wait_for(seconds(30)), std::future_status::ready);
  EXPECT_TRUE(waited.get().ok());
  EXPECT_EQ(drained.load(), 1);
  EXPECT_FALSE(CheckHealth(channel, "", In(seconds(2))).ok());
  EXPECT_EQ(runner->Wait([&] { return absl::OkStatus(); }).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(drained.load(), 1);
}

TEST(ServerRunner, RequestBeforeWaitAndOnDrainedErrorIsReturned) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  runner->RequestShutdown();
  const absl::Status status = runner->Wait([] { return absl::DataLossError("flush failed"); });
  EXPECT_EQ(status, absl::DataLossError("flush failed"));
}

TEST(ServerRunner, OnShutdownRunsOnceBeforeTheDrainAndOnDrained) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  auto channel = InsecureChannel(*runner);
  std::vector<std::string> events;
  runner->OnShutdown([&] {
    // Health already says NOT_SERVING; the server still answers.
    events.push_back("on_shutdown:" + CheckHealth(channel, "", In(seconds(10))).value_or("error"));
  });
  runner->RequestShutdown();
  EXPECT_TRUE(runner
                  ->Wait([&] {
                    events.push_back("on_drained");
                    return absl::OkStatus();
                  })
                  .ok());
  EXPECT_EQ(events, (std::vector<std::string>{"on_shutdown:NOT_SERVING", "on_drained"}));
}

TEST(ServerRunner, SigtermShutsDown) {
  ASSERT_TRUE(kSignalsBlocked);
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  std::future<absl::Status> waited =
      std::async(std::launch::async, [&] { return runner->Wait([] { return absl::OkStatus(); }); });
  ASSERT_EQ(kill(getpid(), SIGTERM), 0);
  ASSERT_EQ(waited.wait_for(seconds(30)), std::future_status::ready);
  EXPECT_TRUE(waited.get().ok());
}

TEST(ServerRunner, WaitNeedsBlockedSignals) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  std::thread unblocked([&] {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    EXPECT_EQ(runner->Wait(nullptr).code(), absl::StatusCode::kFailedPrecondition);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
  });
  unblocked.join();
}

TEST(ServerRunner, DrainLetsInFlightCallsFinishAndReportsNotServing) {
  ServerConfig config = LoopbackConfig();
  config.drain_seconds = 20;
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(config, &echo);
  ASSERT_NE(runner, nullptr);
  auto channel = InsecureChannel(*runner);
  // A health watcher sees SERVING, then NOT_SERVING once shutdown begins.
  auto health = grpc::health::v1::Health::NewStub(channel);
  grpc::ClientContext watch_context;
  auto watch = health->Watch(&watch_context, grpc::health::v1::HealthCheckRequest());
  grpc::health::v1::HealthCheckResponse seen;
  ASSERT_TRUE(watch->Read(&seen));
  EXPECT_EQ(seen.status(), grpc::health::v1::HealthCheckResponse::SERVING);

  test::EchoRequest slow;
  slow.set_text("slow");
  slow.set_hold_ms(500);
  std::future<grpc::Status> call = std::async(std::launch::async, [&] { return Say(channel, "", slow); });
  while (echo.started() == 0) std::this_thread::sleep_for(milliseconds(5));
  std::atomic<int> finished_when_drained{-1};
  std::future<absl::Status> waited = std::async(std::launch::async, [&] {
    return runner->Wait([&] {
      finished_when_drained = echo.finished();
      return absl::OkStatus();
    });
  });
  runner->RequestShutdown();
  ASSERT_TRUE(watch->Read(&seen));
  EXPECT_EQ(seen.status(), grpc::health::v1::HealthCheckResponse::NOT_SERVING);
  watch_context.TryCancel();
  EXPECT_TRUE(call.get().ok());
  ASSERT_EQ(waited.wait_for(seconds(30)), std::future_status::ready);
  EXPECT_TRUE(waited.get().ok());
  EXPECT_EQ(finished_when_drained.load(), 1);
}

TEST(ServerRunner, DrainCancelsCallsAfterTheDeadline) {
  ServerConfig config = LoopbackConfig();
  config.drain_seconds = 1;
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(config, &echo);
  ASSERT_NE(runner, nullptr);
  test::EchoRequest forever;
  forever.set_until_cancelled(true);
  auto channel = InsecureChannel(*runner);
  std::future<grpc::Status> call = std::async(std::launch::async, [&] { return Say(channel, "", forever); });
  while (echo.started() == 0) std::this_thread::sleep_for(milliseconds(5));
  const auto start = std::chrono::steady_clock::now();
  runner->RequestShutdown();
  EXPECT_TRUE(runner->Wait(nullptr).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(8));
  EXPECT_FALSE(call.get().ok());
}

TEST(ServerRunner, MessageLimitApplies) {
  ServerConfig config = LoopbackConfig();
  config.max_message_bytes = 2048;
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(config, &echo);
  ASSERT_NE(runner, nullptr);
  test::EchoRequest big;
  big.set_text(std::string(4096, 'x'));
  EXPECT_EQ(Say(InsecureChannel(*runner), "", big).error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
  test::EchoRequest small;
  small.set_text(std::string(1000, 'x'));
  EXPECT_TRUE(Say(InsecureChannel(*runner), "", small).ok());
}

// --- Bearer tokens ---

TEST(BearerToken, MissingWrongAndRight) {
  ServerConfig config = LoopbackConfig();
  config.auth_token = "s3cret";
  EchoService echo(config.auth_token);
  std::unique_ptr<ServerRunner> runner = StartOrDie(config, &echo);
  ASSERT_NE(runner, nullptr);
  auto channel = InsecureChannel(*runner);

  const grpc::Status missing = Say(channel, "");
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_EQ(missing.error_message(),
            "missing bearer token: this server requires `authorization: Bearer <token>` on write RPCs");
  for (const std::string wrong : {"s3cre", "s3cret!", "S3CRET", "x"}) {
    const grpc::Status status = Say(channel, wrong);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::UNAUTHENTICATED) << wrong;
    EXPECT_EQ(status.error_message(), "invalid bearer token") << wrong;
  }
  EXPECT_TRUE(Say(channel, "s3cret").ok());
  EXPECT_EQ(echo.started(), 1);
  // Health checks need no token.
  EXPECT_EQ(CheckHealth(channel, "", In(seconds(10))).value_or("?"), "SERVING");
}

TEST(BearerToken, SchemeAndMalformedHeaders) {
  EchoService echo("s3cret");
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  auto stub = test::Echo::NewStub(InsecureChannel(*runner));
  const std::vector<std::pair<std::string, bool>> cases = {{"Bearer s3cret", true}, {"bearer s3cret", true},
                                                           {"Basic s3cret", false}, {"Bearer", false},
                                                           {"s3cret", false},       {"Bearer  s3cret", false}};
  for (const auto& [header, ok] : cases) {
    grpc::ClientContext context;
    context.AddMetadata("authorization", header);
    test::EchoReply reply;
    EXPECT_EQ(stub->Say(&context, test::EchoRequest(), &reply).ok(), ok) << header;
  }
}

TEST(BearerToken, NoTokenConfiguredAcceptsAll) {
  EchoService echo;
  std::unique_ptr<ServerRunner> runner = StartOrDie(LoopbackConfig(), &echo);
  ASSERT_NE(runner, nullptr);
  EXPECT_TRUE(Say(InsecureChannel(*runner), "").ok());
  EXPECT_TRUE(Say(InsecureChannel(*runner), "anything").ok());
}

// --- TLS with certificates made by the openssl CLI ---

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("openssl version >/dev/null 2>&1") != 0) GTEST_SKIP() << "the openssl CLI is not installed";
    ASSERT_FALSE(dir_.path().empty());
    ASSERT_TRUE(MakeCa("ca"));
    ASSERT_TRUE(MakeCa("other_ca"));
    ASSERT_TRUE(MakeCert("server", "ca", "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth"));
    ASSERT_TRUE(MakeCert("client", "ca", "extendedKeyUsage=clientAuth"));
    ASSERT_TRUE(MakeCert("stranger", "other_ca", "extendedKeyUsage=clientAuth"));
  }

  std::string Path(const std::string& name) const { return dir_.path() + "/" + name; }
  std::string Pem(const std::string& name) const { return util::ReadFile(Path(name)).value_or(""); }

  bool Run(const std::string& command) {
    return std::system(("cd '" + dir_.path() + "' && " + command + " >openssl.log 2>&1").c_str()) == 0;
  }

  bool MakeCa(const std::string& name) {
    return Run("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 -subj /CN=" + name +
               " -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign -keyout " +
               name + ".key -out " + name + ".pem");
  }

  bool MakeCert(const std::string& name, const std::string& ca, const std::string& extensions) {
    return util::WriteFile(Path(name + ".ext"), extensions + "\n").ok() &&
           Run("openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj /CN=" + name + " -keyout " +
               name + ".key -out " + name + ".csr") &&
           Run("openssl x509 -req -in " + name + ".csr -CA " + ca + ".pem -CAkey " + ca +
               ".key -set_serial 7 -days 2 " + "-extfile " + name + ".ext -out " + name + ".pem");
  }

  ServerConfig TlsConfig(bool require_client_cert) {
    ServerConfig config = LoopbackConfig();
    config.tls_cert = Pem("server.pem");
    config.tls_key = Pem("server.key");
    if (require_client_cert) config.tls_ca = Pem("ca.pem");
    return config;
  }

  // CheckHealth over a channel with `tls`: the status name or the error code.
  std::string Health(const ServerRunner& runner, const ClientTls& tls) {
    absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials = MakeChannelCredentials(tls);
    if (!credentials.ok()) return credentials.status().ToString();
    absl::StatusOr<std::string> health = CheckHealth(MakeChannel(runner.address(), *credentials), "", In(seconds(5)));
    return health.ok() ? *health : absl::StatusCodeToString(health.status().code());
  }

  TempDir dir_;
  EchoService echo_;
};

TEST_F(TlsTest, ServerTls) {
  std::unique_ptr<ServerRunner> runner = StartOrDie(TlsConfig(false), &echo_);
  ASSERT_NE(runner, nullptr);
  EXPECT_EQ(TlsMode(TlsConfig(false)), "tls");
  EXPECT_EQ(Health(*runner, {Pem("ca.pem"), "", ""}), "SERVING");
  EXPECT_EQ(Health(*runner, {}), "UNAVAILABLE");                             // plaintext client
  EXPECT_EQ(Health(*runner, {Pem("other_ca.pem"), "", ""}), "UNAVAILABLE");  // does not trust the server
}

TEST_F(TlsTest, MutualTls) {
  std::unique_ptr<ServerRunner> runner = StartOrDie(TlsConfig(true), &echo_);
  ASSERT_NE(runner, nullptr);
  EXPECT_EQ(TlsMode(TlsConfig(true)), "mtls");
  EXPECT_EQ(Health(*runner, {Pem("ca.pem"), "", ""}), "UNAVAILABLE");  // no client certificate
  EXPECT_EQ(Health(*runner, {Pem("ca.pem"), Pem("stranger.pem"), Pem("stranger.key")}), "UNAVAILABLE");
  EXPECT_EQ(Health(*runner, {Pem("ca.pem"), Pem("client.pem"), Pem("client.key")}), "SERVING");
  EXPECT_EQ(Health(*runner, {}), "UNAVAILABLE");
}

TEST_F(TlsTest, FromFlagsAndFiles) {
  absl::StatusOr<cli::ParsedArgs> args =
      cli::ParseArgs({"--listen", "127.0.0.1:0", "--tls-cert", Path("server.pem"), "--tls-key", Path("server.key"),
                      "--tls-ca", Path("ca.pem"), "--auth-token", "t0ken"},
                     ServerFlagSpecs("127.0.0.1:0"));
  ASSERT_TRUE(args.ok()) << args.status();
  absl::StatusOr<ServerConfig> config = ServerConfigFromArgs(*args, "127.0.0.1:0");
  ASSERT_TRUE(config.ok()) << config.status();
  EchoService echo(config->auth_token);
  std::unique_ptr<ServerRunner> runner = StartOrDie(*config, &echo);
  ASSERT_NE(runner, nullptr);
  absl::StatusOr<ClientTls> tls = ReadClientTls(Path("ca.pem"), Path("client.pem"), Path("client.key"));
  ASSERT_TRUE(tls.ok()) << tls.status();
  auto channel = MakeChannel(runner->address(), MakeChannelCredentials(*tls).value());
  EXPECT_TRUE(Say(channel, "t0ken").ok());
  EXPECT_EQ(Say(channel, "").error_code(), grpc::StatusCode::UNAUTHENTICATED);
}

TEST_F(TlsTest, KeyThatDoesNotMatchTheCertificateFailsStart) {
  ServerConfig config = TlsConfig(false);
  config.tls_key = Pem("client.key");
  const absl::Status status = ServerRunner::Start(config, {&echo_}).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
}

}  // namespace
}  // namespace vertex::rpc
