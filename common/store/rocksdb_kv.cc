#include "common/store/rocksdb_kv.h"

#include <sys/statvfs.h>

#include <filesystem>
#include <system_error>
#include <utility>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "rocksdb/db.h"
#include "rocksdb/options.h"
#include "rocksdb/write_batch.h"

namespace vertex::store {

namespace fs = std::filesystem;

absl::Status FromRocksDbStatus(const rocksdb::Status& status, const std::string& context) {
  if (status.ok()) return absl::OkStatus();
  const std::string message = absl::StrCat(context, ": ", status.ToString());
  if (status.IsCorruption()) return absl::DataLossError(message);
  if (status.IsNotFound() || status.IsPathNotFound()) return absl::NotFoundError(message);
  if (status.IsInvalidArgument()) return absl::InvalidArgumentError(message);
  if (status.IsNotSupported()) return absl::UnimplementedError(message);
  if (status.IsNoSpace()) return absl::ResourceExhaustedError(message);
  if (status.IsBusy() || status.IsTimedOut() || status.IsTryAgain() ||
      status.IsShutdownInProgress()) {
    return absl::UnavailableError(message);
  }
  if (status.IsAborted()) return absl::AbortedError(message);
  return absl::InternalError(message);
}

struct RocksDbKv::Rep {
  std::string dir;
  bool secondary = false;
  rocksdb::WriteOptions write_options;
  uint64_t reserve_bytes = 0;
  std::unique_ptr<rocksdb::DB> db;
  // Handles of every column family opened: first those of kAllFamilies, in
  // order, then any unknown family the database holds (RocksDB requires
  // opening them all).
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  // Secondary only: readers hold it shared, catch-up exclusively (RocksDB
  // secondaries have no snapshots).
  mutable absl::Mutex catch_up_mu;
  // Primary only: whether a write failed since the last Resume(), and one
  // Resume() at a time.
  absl::Mutex resume_mu;
  bool failed_write ABSL_GUARDED_BY(resume_mu) = false;

  rocksdb::ColumnFamilyHandle* handle(Family family) const {
    return handles[static_cast<size_t>(family)];
  }

  ~Rep() {
    if (db == nullptr) return;
    for (rocksdb::ColumnFamilyHandle* h : handles)
      db->DestroyColumnFamilyHandle(h).PermitUncheckedError();
    db->Close().PermitUncheckedError();
  }
};

namespace {

// The smallest key greater than every key starting with `prefix`, or
// nullopt when there is none ("" or all 0xff bytes).
std::optional<std::string> PrefixSuccessor(std::string_view prefix) {
  std::string upper(prefix);
  while (!upper.empty() && static_cast<unsigned char>(upper.back()) == 0xff) upper.pop_back();
  if (upper.empty()) return std::nullopt;
  upper.back() = static_cast<char>(static_cast<unsigned char>(upper.back()) + 1);
  return upper;
}

class RocksDbReader final : public KvReader {
 public:
  RocksDbReader(const rocksdb::DB* db, std::vector<rocksdb::ColumnFamilyHandle*> handles,
                const std::string& dir, absl::Mutex* secondary_mu)
      : db_(const_cast<rocksdb::DB*>(db)),
        handles_(std::move(handles)),
        dir_(dir),
        secondary_mu_(secondary_mu) {
    if (secondary_mu_ != nullptr) {
      secondary_mu_->ReaderLock();
    } else {
      snapshot_ = db_->GetSnapshot();
      options_.snapshot = snapshot_;
    }
  }

  ~RocksDbReader() override {
    if (snapshot_ != nullptr) db_->ReleaseSnapshot(snapshot_);
    if (secondary_mu_ != nullptr) secondary_mu_->ReaderUnlock();
  }

  absl::StatusOr<std::optional<std::string>> Get(Family family,
                                                 std::string_view key) const override {
    std::string value;
    const rocksdb::Status s = db_->Get(options_, Handle(family), rocksdb::Slice(key), &value);
    if (s.IsNotFound()) return std::nullopt;
    if (!s.ok()) return FromRocksDbStatus(s, Context(family));
    return std::optional<std::string>(std::move(value));
  }

  absl::Status Scan(Family family, std::string_view prefix, const KvVisitor& visit) const override {
    // The bound lets RocksDB stop at the end of the prefix instead of
    // skipping deletion tombstones past it (e.g. those of a deleted site).
    const std::optional<std::string> upper = PrefixSuccessor(prefix);
    rocksdb::Slice upper_slice;
    rocksdb::ReadOptions options = options_;
    if (upper.has_value()) {
      upper_slice = rocksdb::Slice(*upper);
      options.iterate_upper_bound = &upper_slice;
    }
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(options, Handle(family)));
    for (it->Seek(rocksdb::Slice(prefix)); it->Valid(); it->Next()) {
      const std::string_view key(it->key().data(), it->key().size());
      if (key.substr(0, prefix.size()) != prefix) break;
      if (!visit(key, std::string_view(it->value().data(), it->value().size()))) break;
    }
    return FromRocksDbStatus(it->status(), Context(family));
  }

 private:
  rocksdb::ColumnFamilyHandle* Handle(Family family) const {
    return handles_[static_cast<size_t>(family)];
  }
  std::string Context(Family family) const {
    return "reading " + std::string(FamilyName(family)) + " of rule store " + dir_;
  }

  rocksdb::DB* db_;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  const std::string& dir_;
  absl::Mutex* secondary_mu_;
  const rocksdb::Snapshot* snapshot_ = nullptr;
  rocksdb::ReadOptions options_;
};

// Checks `dir` before RocksDB sees it, for clear errors.
absl::Status PrepareDir(const std::string& dir, bool create_if_missing) {
  std::error_code ec;
  const fs::file_status st = fs::status(dir, ec);
  if (fs::exists(st)) {
    if (fs::is_directory(st)) return absl::OkStatus();
    return absl::FailedPreconditionError(
        absl::StrCat("rule store path ", dir, " exists and is not a directory"));
  }
  if (ec && ec != std::errc::no_such_file_or_directory) {
    return absl::FailedPreconditionError(
        absl::StrCat("rule store path ", dir, " cannot be examined: ", ec.message()));
  }
  if (!create_if_missing) {
    return absl::NotFoundError(absl::StrCat("rule store ", dir, " does not exist"));
  }
  fs::create_directories(dir, ec);
  if (ec) {
    return absl::FailedPreconditionError(
        absl::StrCat("cannot create rule store directory ", dir, ": ", ec.message()));
  }
  return absl::OkStatus();
}

bool IsLockError(const rocksdb::Status& status) {
  return status.IsIOError() && absl::StrContains(status.ToString(), "LOCK");
}

// The column families to open: ours, then any other the database holds.
std::vector<rocksdb::ColumnFamilyDescriptor> FamiliesToOpen(const std::string& dir) {
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (Family f : kAllFamilies) {
    families.emplace_back(std::string(FamilyName(f)), rocksdb::ColumnFamilyOptions());
  }
  std::vector<std::string> existing;
  // Fails for a new database: then there is nothing more to open.
  if (!rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &existing).ok()) return families;
  for (const std::string& name : existing) {
    bool known = false;
    for (Family f : kAllFamilies) known = known || name == FamilyName(f);
    if (!known) families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  return families;
}

}  // namespace

RocksDbKv::RocksDbKv(std::unique_ptr<Rep> rep) : rep_(std::move(rep)) {}

RocksDbKv::~RocksDbKv() = default;

absl::StatusOr<std::unique_ptr<RocksDbKv>> RocksDbKv::Open(const std::string& dir,
                                                           const StoreOptions& options) {
  if (absl::Status s = PrepareDir(dir, options.create_if_missing); !s.ok()) return s;
  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.create_missing_column_families = true;
  auto rep = std::make_unique<Rep>();
  rep->dir = dir;
  rep->write_options.sync = options.sync_writes;
  rep->reserve_bytes = options.reserve_bytes;
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s =
      rocksdb::DB::Open(db_options, dir, FamiliesToOpen(dir), &rep->handles, &db);
  if (IsLockError(s)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "rule store ", dir,
        " is in use by another process (or is already open in this one): ", s.ToString()));
  }
  if (s.IsInvalidArgument() && absl::StrContains(s.ToString(), "does not exist")) {
    return absl::NotFoundError(
        absl::StrCat("rule store ", dir, " holds no database: ", s.ToString()));
  }
  if (!s.ok()) return FromRocksDbStatus(s, absl::StrCat("opening rule store ", dir));
  rep->db.reset(db);
  return std::unique_ptr<RocksDbKv>(new RocksDbKv(std::move(rep)));
}

absl::StatusOr<std::unique_ptr<RocksDbKv>> RocksDbKv::OpenSecondary(
    const std::string& dir, const std::string& secondary_dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) || !fs::exists(fs::path(dir) / "CURRENT", ec)) {
    return absl::NotFoundError(absl::StrCat("no rule store in ", dir));
  }
  if (absl::Status s = PrepareDir(secondary_dir, /*create_if_missing=*/true); !s.ok()) return s;
  rocksdb::DBOptions db_options;
  db_options.max_open_files = -1;  // required of secondaries
  auto rep = std::make_unique<Rep>();
  rep->dir = dir;
  rep->secondary = true;
  rocksdb::DB* db = nullptr;
  const rocksdb::Status s = rocksdb::DB::OpenAsSecondary(db_options, dir, secondary_dir,
                                                         FamiliesToOpen(dir), &rep->handles, &db);
  if (!s.ok())
    return FromRocksDbStatus(s, absl::StrCat("opening rule store ", dir, " as secondary"));
  rep->db.reset(db);
  return std::unique_ptr<RocksDbKv>(new RocksDbKv(std::move(rep)));
}

std::unique_ptr<KvReader> RocksDbKv::NewReader() const {
  return std::make_unique<RocksDbReader>(rep_->db.get(), rep_->handles, rep_->dir,
                                         rep_->secondary ? &rep_->catch_up_mu : nullptr);
}

absl::Status RocksDbKv::Write(const KvBatch& batch) {
  if (rep_->secondary) {
    return absl::FailedPreconditionError(
        absl::StrCat("rule store ", rep_->dir, " is open read-only (secondary instance)"));
  }
  rocksdb::WriteBatch wb;
  for (const KvBatch::Op& op : batch.ops()) {
    const rocksdb::Status s = op.value.has_value()
                                  ? wb.Put(rep_->handle(op.family), op.key, *op.value)
                                  : wb.Delete(rep_->handle(op.family), op.key);
    if (!s.ok()) return FromRocksDbStatus(s, absl::StrCat("batching a write to ", rep_->dir));
  }
  uint64_t bytes = 0;
  for (const KvBatch::Op& op : batch.ops()) bytes += op.key.size() + (op.value.has_value() ? op.value->size() : 0);
  struct statvfs fs_stat;
  if (statvfs(rep_->dir.c_str(), &fs_stat) == 0) {
    const uint64_t free_bytes = static_cast<uint64_t>(fs_stat.f_bavail) * fs_stat.f_frsize;
    if (free_bytes < rep_->reserve_bytes + bytes) {
      return absl::ResourceExhaustedError(
          absl::StrCat("writing to rule store ", rep_->dir, ": No space left on device: ", free_bytes,
                       " bytes free, a write of ", bytes, " bytes needs ", rep_->reserve_bytes,
                       " more in reserve (log, memtable flushes); free space on that disk"));
    }
  }
  {
    // A failed log or flush write (a full disk) puts RocksDB in a
    // background error state in which every later write fails with that
    // error, even once space is back, until Resume(). Resume before the
    // next write: when the cause is gone the store takes writes again; when
    // it is not, Resume() fails and its error is the write's.
    absl::MutexLock lock(&rep_->resume_mu);
    if (rep_->failed_write) {
      const rocksdb::Status resumed = rep_->db->Resume();
      if (!resumed.ok()) return FromRocksDbStatus(resumed, absl::StrCat("writing to rule store ", rep_->dir));
      rep_->failed_write = false;
    }
  }
  const rocksdb::Status s = rep_->db->Write(rep_->write_options, &wb);
  if (!s.ok() && !s.IsBusy() && !s.IsTryAgain() && !s.IsIncomplete()) {
    absl::MutexLock lock(&rep_->resume_mu);
    rep_->failed_write = true;
  }
  return FromRocksDbStatus(s, absl::StrCat("writing to rule store ", rep_->dir));
}

absl::Status RocksDbKv::CatchUpWithPrimary() {
  if (!rep_->secondary) {
    return absl::FailedPreconditionError(
        absl::StrCat("rule store ", rep_->dir, " is the primary: nothing to catch up with"));
  }
  absl::MutexLock lock(&rep_->catch_up_mu);
  return FromRocksDbStatus(rep_->db->TryCatchUpWithPrimary(),
                           absl::StrCat("catching up with rule store ", rep_->dir));
}

const std::string& RocksDbKv::dir() const { return rep_->dir; }

bool RocksDbKv::is_secondary() const { return rep_->secondary; }

absl::StatusOr<uint64_t> RocksDbKv::IntProperty(const std::string& name) const {
  absl::ReaderMutexLock lock(&rep_->catch_up_mu);
  uint64_t total = 0;
  for (rocksdb::ColumnFamilyHandle* handle : rep_->handles) {
    uint64_t value = 0;
    if (!rep_->db->GetIntProperty(handle, name, &value)) {
      return absl::NotFoundError("RocksDB has no integer property " + name);
    }
    total += value;
  }
  return total;
}

}  // namespace vertex::store
