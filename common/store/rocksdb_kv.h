// RocksDbKv: the KvEngine of the rule store on disk, one RocksDB database
// with one column family per Family (see keys.h for the layout).
//
// RocksDB admits one read-write process per directory (its LOCK file): the
// owner opens it with Open(); other processes read it with OpenSecondary(),
// a read-only instance that sees the owner's writes after
// CatchUpWithPrimary(). Batches are RocksDB WriteBatches, atomic across
// column families; with StoreOptions::sync_writes an acknowledged write
// survives a crash of the process or of the machine.
//
// Every rocksdb::Status is converted to an absl::Status here, naming the
// directory. A (nearly) full disk makes writes fail with ResourceExhausted
// ("No space left on device", see StoreOptions::reserve_bytes) while reads
// go on; once space is freed writes succeed again. After any failed write
// the next one first resumes the database (RocksDB stops all writes after
// a failed log or flush write until DB::Resume()).
//
// Thread-safety: safe for concurrent use (RocksDB's DB is). On a secondary,
// CatchUpWithPrimary() waits for live readers and blocks new ones while it
// runs, so a reader sees one consistent state; such a reader must be
// destroyed on the thread that created it.
#ifndef VERTEX_COMMON_STORE_ROCKSDB_KV_H_
#define VERTEX_COMMON_STORE_ROCKSDB_KV_H_

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/store/kv_engine.h"

namespace rocksdb {
class Status;
}  // namespace rocksdb

namespace vertex::store {

struct StoreOptions {
  // Create the directory (and its parents) and the database when missing;
  // otherwise a missing store is NotFound.
  bool create_if_missing = true;
  // fsync the write-ahead log before a write returns.
  bool sync_writes = true;
  // Writes are refused (ResourceExhausted) while the file system of the
  // store has less than this many bytes free, plus the batch's size: room
  // for the log and for flushing memtables. RocksDB must not meet a full
  // disk itself: Debian's build (7.8, assertions on) aborts the process on
  // the first log write that fails for lack of space.
  uint64_t reserve_bytes = uint64_t{64} << 20;
};

// `status` as an absl::Status whose message starts with `context`.
// Corruption -> DataLoss, NotFound -> NotFound, InvalidArgument ->
// InvalidArgument, NotSupported -> Unimplemented, no space ->
// ResourceExhausted, Busy/TimedOut/TryAgain/ShutdownInProgress ->
// Unavailable, Aborted -> Aborted, anything else (I/O errors) -> Internal.
absl::Status FromRocksDbStatus(const rocksdb::Status& status, const std::string& context);

class RocksDbKv final : public KvEngine {
 public:
  // Opens the store in `dir` for reading and writing, creating the column
  // families that are missing. Errors, each naming `dir`:
  //   NotFound            `dir` or the database in it is missing and
  //                       !options.create_if_missing;
  //   FailedPrecondition  `dir` is not a directory, or it is in use by
  //                       another process (RocksDB's LOCK; a second Open in
  //                       the same process reports the same);
  //   DataLoss            RocksDB found corruption;
  //   other codes         as FromRocksDbStatus.
  static absl::StatusOr<std::unique_ptr<RocksDbKv>> Open(const std::string& dir,
                                                         const StoreOptions& options);

  // Opens a read-only secondary instance of the store that a primary (maybe
  // another process) has open in `dir`; `secondary_dir` (created when
  // missing) receives the secondary's own log files. Write() fails with
  // FailedPrecondition. NotFound when there is no store in `dir`.
  static absl::StatusOr<std::unique_ptr<RocksDbKv>> OpenSecondary(const std::string& dir,
                                                                  const std::string& secondary_dir);

  // Closes the database (flushing nothing that is not already durable).
  ~RocksDbKv() override;

  std::unique_ptr<KvReader> NewReader() const override;
  absl::Status Write(const KvBatch& batch) override;

  // On a secondary instance: makes visible what the primary has written
  // since the last catch-up. FailedPrecondition on a primary.
  absl::Status CatchUpWithPrimary();

  const std::string& dir() const;
  bool is_secondary() const;

  // RocksDB's integer property `name` (e.g. "rocksdb.total-sst-files-size",
  // "rocksdb.estimate-live-data-size") summed over the column families.
  // NotFound naming it when RocksDB does not know the property.
  absl::StatusOr<uint64_t> IntProperty(const std::string& name) const;

 private:
  struct Rep;
  explicit RocksDbKv(std::unique_ptr<Rep> rep);

  std::unique_ptr<Rep> rep_;
};

}  // namespace vertex::store

#endif  // VERTEX_COMMON_STORE_ROCKSDB_KV_H_
