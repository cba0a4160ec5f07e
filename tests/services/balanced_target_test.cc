#include "services/common/balanced_target.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

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

}  // namespace
}  // namespace vertex::rpc
