// The ordered key-value engine under the rule store: named families of
// byte-string keys and values, consistent read views, and atomic batches of
// writes. RocksDbKv (rocksdb_kv.h) is the real engine, one RocksDB column
// family per Family; MemoryKv (memory_kv.h) is the in-memory fake with fault
// injection. The rule store's logic (rule_store.cc) runs unchanged on both,
// so the key layout (keys.h) and every read go through one code path.
//
// Tests may also write raw bytes through Write() to simulate corruption, and
// scan families to check what a store left behind.
//
// Thread-safety: a KvEngine is safe for concurrent use: readers from any
// thread, Write() from any thread (batches are applied one at a time). A
// KvReader may be used from several threads but must not outlive its engine.
#ifndef VERTEX_COMMON_STORE_KV_ENGINE_H_
#define VERTEX_COMMON_STORE_KV_ENGINE_H_

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace vertex::store {

// The families of the rule store; keys.h documents each one's layout.
enum class Family {
  kMeta,         // "default": the format marker
  kSites,        // site -> SiteRecord
  kClusters,     // site \0 cluster -> ClusterRecord
  kRoutes,       // site \0 cluster -> ClusterRecord with routing fields only
  kBySignature,  // signature \0 site \0 cluster -> ""
  kRules,        // site \0 cluster \0 version -> Rule
  kSnapshots,    // site \0 cluster \0 version index -> PageSnapshot
  kGolden,       // site \0 cluster \0 version index -> GoldenExtraction
  kSampleState,  // site -> SampleState
  kSamplePages,  // site \0 index -> SamplePage
  kHistory,      // site \0 started_ms sequence -> MonitorRun
};

inline constexpr std::array<Family, 11> kAllFamilies = {
    Family::kMeta,        Family::kSites,       Family::kClusters,  Family::kRoutes,
    Family::kBySignature, Family::kRules,       Family::kSnapshots, Family::kGolden,
    Family::kSampleState, Family::kSamplePages, Family::kHistory};

// The family's name, which is also its RocksDB column family name ("default"
// for kMeta, RocksDB's mandatory family).
std::string_view FamilyName(Family family);

// Writes to apply atomically, in order (a later write to the same key wins).
class KvBatch {
 public:
  struct Op {
    Family family;
    std::string key;
    std::optional<std::string> value;  // nullopt: delete the key
  };

  void Put(Family family, std::string key, std::string value) {
    ops_.push_back({family, std::move(key), std::move(value)});
  }
  void Delete(Family family, std::string key) {
    ops_.push_back({family, std::move(key), std::nullopt});
  }
  // Appends `other`'s writes after this batch's (they win on equal keys).
  void Append(KvBatch other) {
    for (Op& op : other.ops_) ops_.push_back(std::move(op));
  }
  const std::vector<Op>& ops() const { return ops_; }
  bool empty() const { return ops_.empty(); }

 private:
  std::vector<Op> ops_;
};

// Called with each entry of a scan, in increasing key order; returns false to
// stop the scan early. The views are valid only during the call.
using KvVisitor = std::function<bool(std::string_view key, std::string_view value)>;

// A consistent view of the engine: every read through one reader sees the
// state after the same batch, whatever is written meanwhile.
class KvReader {
 public:
  virtual ~KvReader() = default;

  // The value stored under `key`, or nullopt when there is none. A non-OK
  // status is an engine failure (I/O error, injected fault).
  virtual absl::StatusOr<std::optional<std::string>> Get(Family family,
                                                         std::string_view key) const = 0;

  // Visits the entries whose key starts with `prefix` ("" : all of the
  // family) in increasing key order (bytewise, unsigned).
  virtual absl::Status Scan(Family family, std::string_view prefix,
                            const KvVisitor& visit) const = 0;
};

class KvEngine {
 public:
  virtual ~KvEngine() = default;

  // A view of the current state. Never null.
  virtual std::unique_ptr<KvReader> NewReader() const = 0;

  // Applies `batch` atomically: after a crash either all of it or none of it
  // is visible. When OK is returned the batch is durable if the engine was
  // opened with synchronous writes. FailedPrecondition on a read-only
  // engine.
  virtual absl::Status Write(const KvBatch& batch) = 0;
};

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_KV_ENGINE_H_
