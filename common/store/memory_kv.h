// MemoryKv: an in-memory KvEngine, the fake under NewInMemoryStore() and
// the rule store tests, with fault injection: failing writes (nothing of the
// batch is applied, as with a crash before the write) and failing reads.
// Nothing is durable.
//
// Readers are snapshots: each holds the state current when it was created
// (copy-on-write tables whose values are shared, so a write costs a copy of
// the keys, not of the pages).
//
// Thread-safety: safe for concurrent use, including the ForTesting methods.
#ifndef VERTEX_COMMON_STORE_MEMORY_KV_H_
#define VERTEX_COMMON_STORE_MEMORY_KV_H_

#include <cstdint>
#include <memory>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "common/store/kv_engine.h"

namespace vertex::store {

struct MemoryTables;  // defined in memory_kv.cc

class MemoryKv final : public KvEngine {
 public:
  MemoryKv();
  ~MemoryKv() override;

  std::unique_ptr<KvReader> NewReader() const override;
  absl::Status Write(const KvBatch& batch) override;

  // After `successes` more successful writes, every write fails with `status`
  // and applies nothing, until ClearFaultsForTesting().
  void FailWritesAfterForTesting(int64_t successes, absl::Status status);
  // Every read through readers created from now on fails with `status`,
  // until ClearFaultsForTesting().
  void FailReadsForTesting(absl::Status status);
  void ClearFaultsForTesting();
  // Batches applied so far.
  int64_t WritesForTesting() const;

 private:
  mutable absl::Mutex mu_;
  std::shared_ptr<const MemoryTables> tables_ ABSL_GUARDED_BY(mu_);
  int64_t writes_ ABSL_GUARDED_BY(mu_) = 0;
  int64_t writes_before_fault_ ABSL_GUARDED_BY(mu_) = -1;  // -1: no write fault
  absl::Status write_fault_ ABSL_GUARDED_BY(mu_);
  absl::Status read_fault_ ABSL_GUARDED_BY(mu_);
};

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_MEMORY_KV_H_
