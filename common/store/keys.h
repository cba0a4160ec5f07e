// Key layout of the rule store, and validation of the ids that go into keys.
//
// Site ids, cluster ids and signatures are arbitrary byte strings except that
// they are non-empty, hold no NUL byte and are at most kMaxIdBytes long. NUL
// is therefore an unambiguous separator: no escaping is needed, and the
// prefix "ab\0" never matches a key of site "abc". Versions are 8-byte
// big-endian and page indices 4-byte big-endian, so bytewise key order is
// numeric order.
//
//   family        key                                  value
//   default       "format"                             kFormatMarker
//   sites         site                                 SiteRecord
//   clusters      site \0 cluster                      ClusterRecord
//   routes        site \0 cluster                      ClusterRecord, routing fields
//                                                      only (RouteOf)
//   by_signature  signature \0 site \0 cluster         "" (index entry)
//   rules         site \0 cluster \0 version           Rule
//   snapshots     site \0 cluster \0 version index     PageSnapshot
//   golden        site \0 cluster \0 version index     GoldenExtraction
//   sample_state  site                                 SampleState
//   sample_pages  site \0 index                        SamplePage
//   history       site \0 started_ms sequence           MonitorRun (8 + 4
//                                                      bytes big-endian)
//
// The three lookups of the design: "cluster by id" is a point read of
// clusters; "rules of site S whose URL regex may match" is a prefix scan of
// routes under S \0 (small records, no other site touched); "clusters by
// masked signature" is a prefix scan of by_signature under signature \0.
// Everything of a site sits under the prefix site \0 of every family except
// sites (one key) and by_signature (one key per cluster, found through the
// cluster's record).
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_STORE_KEYS_H_
#define VERTEX_COMMON_STORE_KEYS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "common/store/kv_engine.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::store {

inline constexpr size_t kMaxIdBytes = 200;
inline constexpr std::string_view kFormatKey = "format";
inline constexpr std::string_view kFormatMarker = "vertex.rule_store.v1";

// OK when `value` may be used as an id; otherwise InvalidArgument naming
// `field` (e.g. "site", "cluster_id", "signature") and the value.
absl::Status ValidateId(std::string_view field, std::string_view value);

namespace keys {

std::string Site(std::string_view site);
// The prefix of everything of `site` in clusters, routes, rules, snapshots
// and golden.
std::string SitePrefix(std::string_view site);
std::string Cluster(std::string_view site, std::string_view cluster);
// The prefix of a cluster's rules, snapshots and golden extractions.
std::string ClusterPrefix(std::string_view site, std::string_view cluster);
std::string Rule(std::string_view site, std::string_view cluster, int64_t version);
// The prefix of one version's snapshots or golden extractions.
std::string VersionPrefix(std::string_view site, std::string_view cluster, int64_t version);
std::string Page(std::string_view site, std::string_view cluster, int64_t version, uint32_t index);
// A page of the site's sample, by its index in SampleState.urls.
std::string SamplePage(std::string_view site, uint32_t index);
// A monitoring run of the site: by start time, then a sequence number that
// tells runs of the same millisecond apart.
std::string HistoryRun(std::string_view site, int64_t started_unix_ms, uint32_t sequence);
std::string SignaturePrefix(std::string_view signature);
std::string Signature(std::string_view signature, std::string_view site, std::string_view cluster);

// The parts of a by_signature key, or nullopt when malformed.
struct SignatureEntry {
  std::string signature;
  std::string site;
  std::string cluster;
};
std::optional<SignatureEntry> ParseSignature(std::string_view key);

// The version of a rules key (its last 8 bytes), or nullopt when malformed.
std::optional<int64_t> ParseRuleVersion(std::string_view key);

}  // namespace keys

// A printable form of a key for error messages, e.g.
// rules["booksamillion", "c0", v3] or snapshots["s", "c", v3, #0]; a key that
// does not fit its family's layout is printed C-escaped.
std::string DescribeKey(Family family, std::string_view key);

// The fields of `cluster` that rule matching needs (site, cluster_id,
// signature, url_regex, importance, current_version, latest_version): the
// value of its routes entry.
v1::ClusterRecord RouteOf(const v1::ClusterRecord& cluster);

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_KEYS_H_
