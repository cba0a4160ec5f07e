#include "common/store/keys.h"

#include <algorithm>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace vertex::store {
namespace {

constexpr char kSep = '\0';

// Debian's absl::string_view is not std::string_view.
absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }
constexpr size_t kVersionBytes = 8;
constexpr size_t kIndexBytes = 4;

void AppendBigEndian(std::string* out, uint64_t value, size_t bytes) {
  for (size_t i = bytes; i > 0; --i) out->push_back(static_cast<char>(value >> (8 * (i - 1))));
}

uint64_t ReadBigEndian(std::string_view bytes) {
  uint64_t value = 0;
  for (char c : bytes) value = (value << 8) | static_cast<unsigned char>(c);
  return value;
}

std::string Quoted(std::string_view s) { return absl::StrCat("\"", absl::CEscape(Av(s)), "\""); }

// Splits the leading `ids` NUL-terminated components off `key` (the last
// one is terminated by the end of the key when `last_open`). Returns the
// components and leaves the rest in `*rest`, or nullopt when malformed.
std::optional<std::vector<std::string_view>> SplitIds(std::string_view key, int ids, bool last_open,
                                                      std::string_view* rest) {
  std::vector<std::string_view> parts;
  for (int i = 0; i < ids; ++i) {
    const size_t end = key.find(kSep);
    if (end == std::string_view::npos) {
      if (!(last_open && i == ids - 1)) return std::nullopt;
      parts.push_back(key);
      key = {};
      break;
    }
    if (last_open && i == ids - 1) return std::nullopt;
    parts.push_back(key.substr(0, end));
    key.remove_prefix(end + 1);
  }
  for (std::string_view p : parts) {
    if (p.empty()) return std::nullopt;
  }
  *rest = key;
  return parts;
}

// Components of a key in `family`, printable, or nullopt when malformed.
std::optional<std::vector<std::string>> DescribeParts(Family family, std::string_view key) {
  std::string_view rest;
  if (family == Family::kSamplePages) {
    const std::optional<std::vector<std::string_view>> site = SplitIds(key, 1, false, &rest);
    if (!site.has_value() || rest.size() != kIndexBytes) return std::nullopt;
    return std::vector<std::string>{Quoted((*site)[0]), absl::StrCat("#", ReadBigEndian(rest))};
  }
  if (family == Family::kHistory) {
    const std::optional<std::vector<std::string_view>> site = SplitIds(key, 1, false, &rest);
    if (!site.has_value() || rest.size() != kVersionBytes + kIndexBytes) return std::nullopt;
    return std::vector<std::string>{Quoted((*site)[0]), absl::StrCat("t", ReadBigEndian(rest.substr(0, 8))),
                                    absl::StrCat("#", ReadBigEndian(rest.substr(8)))};
  }
  const bool versioned =
      family == Family::kRules || family == Family::kSnapshots || family == Family::kGolden;
  const int ids = family == Family::kSites || family == Family::kMeta || family == Family::kSampleState ? 1
                  : family == Family::kBySignature                                                      ? 3
                                                                                                        : 2;
  const std::optional<std::vector<std::string_view>> parts =
      SplitIds(key, ids, /*last_open=*/!versioned, &rest);
  if (!parts.has_value()) return std::nullopt;
  std::vector<std::string> out;
  for (std::string_view p : *parts) out.push_back(Quoted(p));
  if (!versioned) return out;
  const size_t tail = family == Family::kRules ? kVersionBytes : kVersionBytes + kIndexBytes;
  if (rest.size() != tail) return std::nullopt;
  out.push_back(absl::StrCat("v", ReadBigEndian(rest.substr(0, kVersionBytes))));
  if (family != Family::kRules) out.push_back(absl::StrCat("#", ReadBigEndian(rest.substr(8))));
  return out;
}

}  // namespace

absl::Status ValidateId(std::string_view field, std::string_view value) {
  if (value.empty()) return absl::InvalidArgumentError(absl::StrCat(Av(field), " is empty"));
  if (value.find(kSep) != std::string_view::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(Av(field), " ", Quoted(value), " contains a NUL byte"));
  }
  if (value.size() > kMaxIdBytes) {
    return absl::InvalidArgumentError(absl::StrCat(Av(field), " ", Quoted(value.substr(0, 40)),
                                                   "... is ", value.size(), " bytes long; at most ",
                                                   kMaxIdBytes));
  }
  return absl::OkStatus();
}

namespace keys {

std::string Site(std::string_view site) { return std::string(site); }

std::string SitePrefix(std::string_view site) {
  std::string key(site);
  key.push_back(kSep);
  return key;
}

std::string Cluster(std::string_view site, std::string_view cluster) {
  return SitePrefix(site).append(cluster);
}

std::string ClusterPrefix(std::string_view site, std::string_view cluster) {
  std::string key = Cluster(site, cluster);
  key.push_back(kSep);
  return key;
}

std::string Rule(std::string_view site, std::string_view cluster, int64_t version) {
  std::string key = ClusterPrefix(site, cluster);
  AppendBigEndian(&key, static_cast<uint64_t>(version), kVersionBytes);
  return key;
}

std::string VersionPrefix(std::string_view site, std::string_view cluster, int64_t version) {
  return Rule(site, cluster, version);
}

std::string HistoryRun(std::string_view site, int64_t started_unix_ms, uint32_t sequence) {
  std::string key = SitePrefix(site);
  AppendBigEndian(&key, static_cast<uint64_t>(std::max<int64_t>(started_unix_ms, 0)), kVersionBytes);
  AppendBigEndian(&key, sequence, kIndexBytes);
  return key;
}

std::string SamplePage(std::string_view site, uint32_t index) {
  std::string key = SitePrefix(site);
  AppendBigEndian(&key, index, kIndexBytes);
  return key;
}

std::string Page(std::string_view site, std::string_view cluster, int64_t version, uint32_t index) {
  std::string key = VersionPrefix(site, cluster, version);
  AppendBigEndian(&key, index, kIndexBytes);
  return key;
}

std::string SignaturePrefix(std::string_view signature) { return SitePrefix(signature); }

std::string Signature(std::string_view signature, std::string_view site, std::string_view cluster) {
  return SignaturePrefix(signature).append(Cluster(site, cluster));
}

std::optional<SignatureEntry> ParseSignature(std::string_view key) {
  std::string_view rest;
  const auto parts = SplitIds(key, 3, /*last_open=*/true, &rest);
  if (!parts.has_value()) return std::nullopt;
  return SignatureEntry{std::string((*parts)[0]), std::string((*parts)[1]),
                        std::string((*parts)[2])};
}

std::optional<int64_t> ParseRuleVersion(std::string_view key) {
  if (key.size() < kVersionBytes + 1 || key[key.size() - kVersionBytes - 1] != kSep) {
    return std::nullopt;
  }
  return static_cast<int64_t>(ReadBigEndian(key.substr(key.size() - kVersionBytes)));
}

}  // namespace keys

std::string DescribeKey(Family family, std::string_view key) {
  const std::optional<std::vector<std::string>> parts = DescribeParts(family, key);
  if (!parts.has_value()) return absl::StrCat(Av(FamilyName(family)), "[", Quoted(key), "]");
  return absl::StrCat(Av(FamilyName(family)), "[", absl::StrJoin(*parts, ", "), "]");
}

v1::ClusterRecord RouteOf(const v1::ClusterRecord& cluster) {
  v1::ClusterRecord route;
  route.set_site(cluster.site());
  route.set_cluster_id(cluster.cluster_id());
  route.set_signature(cluster.signature());
  route.set_url_regex(cluster.url_regex());
  route.set_importance(cluster.importance());
  route.set_current_version(cluster.current_version());
  route.set_latest_version(cluster.latest_version());
  return route;
}

std::string_view FamilyName(Family family) {
  switch (family) {
    case Family::kMeta:
      return "default";
    case Family::kSites:
      return "sites";
    case Family::kClusters:
      return "clusters";
    case Family::kRoutes:
      return "routes";
    case Family::kBySignature:
      return "by_signature";
    case Family::kRules:
      return "rules";
    case Family::kSnapshots:
      return "snapshots";
    case Family::kGolden:
      return "golden";
    case Family::kSampleState:
      return "sample_state";
    case Family::kSamplePages:
      return "sample_pages";
    case Family::kHistory:
      return "history";
  }
  return "unknown";
}

}  // namespace vertex::store
