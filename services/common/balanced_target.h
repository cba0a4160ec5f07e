// BalancedTarget: a gRPC client target that spreads calls over several
// servers (extraction replicas) with gRPC's round_robin policy, from what a
// user types:
//
//   dns:///vertex-extraction:7072           every address DNS returns (a
//                                           Kubernetes headless Service)
//   ipv4:127.0.0.1:7001,127.0.0.1:7002      gRPC's static-list syntax
//   ipv6:[::1]:7001,[::1]:7002
//   127.0.0.1:7001,127.0.0.1:7002           a comma list of IP:PORT, turned
//                                           into the ipv4:/ipv6: form above
//   localhost:7072                          one server (round_robin over the
//                                           addresses it resolves to)
//
// The channel gets kRoundRobinServiceConfig as its service config: without
// it gRPC uses pick_first, which sends every call to the first address.
// Round robin picks a server per call: every unary call, and every stream
// when it starts (a stream stays on its server, so long-lived streams are
// spread only as they are opened).
//
// Pure parsing, no gRPC. Thread-safety: free functions on values.
#ifndef VERTEX_SERVICES_COMMON_BALANCED_TARGET_H_
#define VERTEX_SERVICES_COMMON_BALANCED_TARGET_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace vertex::rpc {

// gRPC's service config selecting the round_robin policy.
inline constexpr char kRoundRobinServiceConfig[] = R"({"loadBalancingConfig":[{"round_robin":{}}]})";

struct BalancedTarget {
  // What grpc::CreateCustomChannel takes ("dns:///h:p", "ipv4:a:p,b:p", "h:p").
  std::string channel_target;
  // The servers of a static list ("127.0.0.1:7001"; "[::1]:7001" for IPv6),
  // in the given order; empty for a name that a resolver looks up.
  std::vector<std::string> addresses;
};

// Parses `text` (forms in the file comment). InvalidArgument naming the
// offending part for an empty target or list item, a list item without a
// port or with a port outside 1-65535, a list item that is not an IP literal
// (a static list cannot hold names: use dns:///NAME:PORT), or a mix of IPv4
// and IPv6 items.
absl::StatusOr<BalancedTarget> ParseBalancedTarget(absl::string_view text);

// The "IP:PORT" form of a peer as grpc::ClientContext::peer() gives it
// ("ipv4:127.0.0.1:7001" -> "127.0.0.1:7001", "ipv6:[::1]:7001" ->
// "[::1]:7001"); other text is returned unchanged.
std::string PeerAddress(absl::string_view peer);

}  // namespace vertex::rpc

#endif  // VERTEX_SERVICES_COMMON_BALANCED_TARGET_H_
