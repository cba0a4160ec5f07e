#include "services/common/balanced_target.h"

#include <arpa/inet.h>

#include <optional>
#include <string>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace vertex::rpc {
namespace {

enum class Family { kV4, kV6 };

struct Endpoint {
  Family family;
  std::string address;  // "1.2.3.4:80" or "[::1]:80"
};

absl::Status BadItem(absl::string_view item, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("target item '", item, "' ", why));
}

// One "IP:PORT" (IPv6 in brackets) of a static list.
absl::StatusOr<Endpoint> ParseEndpoint(absl::string_view item) {
  if (item.empty()) return absl::InvalidArgumentError("empty item in the target list");
  const size_t colon = item.rfind(':');
  if (colon == absl::string_view::npos) return BadItem(item, "has no port (IP:PORT)");
  int port = 0;
  if (!absl::SimpleAtoi(item.substr(colon + 1), &port) || port < 1 || port > 65535) {
    return BadItem(item, "has no port in 1-65535");
  }
  absl::string_view host = item.substr(0, colon);
  Family family = Family::kV4;
  if (absl::ConsumePrefix(&host, "[")) {
    if (!absl::ConsumeSuffix(&host, "]")) return BadItem(item, "opens '[' without ']'");
    family = Family::kV6;
  }
  unsigned char buffer[sizeof(in6_addr)];
  const std::string ip(host);
  if (inet_pton(family == Family::kV4 ? AF_INET : AF_INET6, ip.c_str(), buffer) != 1) {
    return BadItem(item, "is not an IP address and port (a static list takes IPs; for a name use dns:///NAME:PORT)");
  }
  return Endpoint{family, std::string(item)};
}

// A comma list of IP:PORT, with or without gRPC's ipv4:/ipv6: scheme.
absl::StatusOr<BalancedTarget> ParseStaticList(absl::string_view list, absl::string_view scheme) {
  BalancedTarget out;
  std::optional<Family> family;
  if (scheme == "ipv4") family = Family::kV4;
  if (scheme == "ipv6") family = Family::kV6;
  for (absl::string_view item : absl::StrSplit(list, ',')) {
    absl::StatusOr<Endpoint> e = ParseEndpoint(absl::StripAsciiWhitespace(item));
    if (!e.ok()) return e.status();
    if (family && *family != e->family) return BadItem(item, "mixes IPv4 and IPv6 addresses in one list");
    family = e->family;
    out.addresses.push_back(e->address);
  }
  out.channel_target = absl::StrCat(*family == Family::kV4 ? "ipv4:" : "ipv6:", absl::StrJoin(out.addresses, ","));
  return out;
}

}  // namespace

absl::StatusOr<BalancedTarget> ParseBalancedTarget(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  if (text.empty()) return absl::InvalidArgumentError("empty target");
  for (absl::string_view scheme : {"ipv4", "ipv6"}) {
    absl::string_view rest = text;
    if (absl::ConsumePrefix(&rest, absl::StrCat(scheme, ":"))) return ParseStaticList(rest, scheme);
  }
  if (absl::StartsWith(text, "dns:") || absl::StartsWith(text, "unix:")) {
    return BalancedTarget{std::string(text), {}};
  }
  if (absl::StrContains(text, ',')) return ParseStaticList(text, "");
  return BalancedTarget{std::string(text), {}};
}

std::string PeerAddress(absl::string_view peer) {
  std::string out(peer);
  for (absl::string_view scheme : {"ipv4:", "ipv6:"}) {
    if (absl::StartsWith(out, scheme)) {
      out = out.substr(scheme.size());
      break;
    }
  }
  return absl::StrReplaceAll(out, {{"%5B", "["}, {"%5D", "]"}, {"%5b", "["}, {"%5d", "]"}});
}

}  // namespace vertex::rpc
