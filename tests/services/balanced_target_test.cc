#include "services/common/balanced_target.h"

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "echo_test.grpc.pb.h"

namespace vertex::rpc {
namespace {

struct Accepted {
  std::string text;
  std::string channel_target;
  std::vector<std::string> addresses;
};

TEST(ParseBalancedTarget, AcceptsNamesAndStaticLists) {
  const std::vector<Accepted> cases = {
      {"dns:///vertex-extraction:7072", "dns:///vertex-extraction:7072", {}},
      {"localhost:7072", "localhost:7072", {}},
      {"127.0.0.1:7001", "127.0.0.1:7001", {}},
      {"ipv4:127.0.0.1:7001,127.0.0.1:7002", "ipv4:127.0.0.1:7001,127.0.0.1:7002", {"127.0.0.1:7001", "127.0.0.1:7002"}},
      {"127.0.0.1:7001,10.0.0.2:7002", "ipv4:127.0.0.1:7001,10.0.0.2:7002", {"127.0.0.1:7001", "10.0.0.2:7002"}},
      {" 127.0.0.1:7001, 127.0.0.1:7002 ", "ipv4:127.0.0.1:7001,127.0.0.1:7002", {"127.0.0.1:7001", "127.0.0.1:7002"}},
      {"[::1]:7001,[::1]:7002", "ipv6:[::1]:7001,[::1]:7002", {"[::1]:7001", "[::1]:7002"}},
      {"ipv6:[::1]:7001", "ipv6:[::1]:7001", {"[::1]:7001"}},
  };
  for (const Accepted& c : cases) {
    absl::StatusOr<BalancedTarget> t = ParseBalancedTarget(c.text);
    ASSERT_TRUE(t.ok()) << c.text << ": " << t.status();
    EXPECT_EQ(t->channel_target, c.channel_target) << c.text;
    EXPECT_EQ(t->addresses, c.addresses) << c.text;
  }
}

TEST(ParseBalancedTarget, RejectsBadTargetsNamingThePart) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "empty target"},
      {"127.0.0.1:7001,", "empty item"},
      {"127.0.0.1,127.0.0.1:7002", "'127.0.0.1' has no port"},
      {"127.0.0.1:0,127.0.0.1:7002", "'127.0.0.1:0' has no port in 1-65535"},
      {"127.0.0.1:7001,127.0.0.1:99999", "'127.0.0.1:99999' has no port in 1-65535"},
      {"a.example:7001,b.example:7002", "'a.example:7001' is not an IP address"},
      {"ipv4:[::1]:7001", "mixes IPv4 and IPv6"},
      {"127.0.0.1:7001,[::1]:7002", "mixes IPv4 and IPv6"},
      {"[::1:7001,[::1]:7002", "opens '['"},
  };
  for (const auto& [text, message] : cases) {
    absl::StatusOr<BalancedTarget> t = ParseBalancedTarget(text);
    ASSERT_FALSE(t.ok()) << "accepted: " << text;
    EXPECT_EQ(t.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(std::string(t.status().message()).find(message), std::string::npos)
        << text << " -> " << t.status() << " (expected to mention: " << message << ")";
  }
}

TEST(PeerAddress, StripsTheSchemeOfGrpcPeers) {
  EXPECT_EQ(PeerAddress("ipv4:127.0.0.1:7001"), "127.0.0.1:7001");
  EXPECT_EQ(PeerAddress("ipv6:[::1]:7001"), "[::1]:7001");
  EXPECT_EQ(PeerAddress("ipv6:%5B::1%5D:7001"), "[::1]:7001");
  EXPECT_EQ(PeerAddress("unix:/tmp/s"), "unix:/tmp/s");
}

class Echo final : public test::Echo::Service {
  grpc::Status Say(grpc::ServerContext*, const test::EchoRequest* request, test::EchoReply* reply) override {
    reply->set_text(request->text());
    return grpc::Status::OK;
  }
};

// A static list with the round_robin service config spreads calls over
// every server of the list (pick_first, gRPC's default, would send them all
// to the first): 30 unary calls over 3 loopback servers, 10 each.
TEST(BalancedTarget, RoundRobinSpreadsCallsOverTheList) {
  Echo echo;
  std::vector<std::unique_ptr<grpc::Server>> servers;
  std::vector<std::string> list;
  for (int i = 0; i < 3; ++i) {
    int port = 0;
    grpc::ServerBuilder builder;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&echo);
    servers.push_back(builder.BuildAndStart());
    ASSERT_NE(servers.back(), nullptr);
    list.push_back("127.0.0.1:" + std::to_string(port));
  }
  absl::StatusOr<BalancedTarget> target = ParseBalancedTarget(list[0] + "," + list[1] + "," + list[2]);
  ASSERT_TRUE(target.ok()) << target.status();
  grpc::ChannelArguments args;
  args.SetServiceConfigJSON(kRoundRobinServiceConfig);
  auto channel = grpc::CreateCustomChannel(target->channel_target, grpc::InsecureChannelCredentials(), args);
  // Round robin picks among the connected servers: connect all first.
  auto stub = test::Echo::NewStub(channel);
  std::map<std::string, int> calls;
  for (int warm = 0; warm < 300 && calls.size() < 3; ++warm) {
    grpc::ClientContext context;
    test::EchoRequest request;
    test::EchoReply reply;
    ASSERT_TRUE(stub->Say(&context, request, &reply).ok());
    ++calls[PeerAddress(context.peer())];
  }
  ASSERT_EQ(calls.size(), 3u) << "round robin never reached every server";
  calls.clear();
  for (int i = 0; i < 30; ++i) {
    grpc::ClientContext context;
    test::EchoRequest request;
    test::EchoReply reply;
    ASSERT_TRUE(stub->Say(&context, request, &reply).ok());
    ++calls[PeerAddress(context.peer())];
  }
  for (const std::string& address : list) EXPECT_EQ(calls[address], 10) << address;
  for (auto& server : servers) server->Shutdown();
}

}  // namespace
}  // namespace vertex::rpc
