#include "common/store/memory_kv.h"

#include <map>
#include <utility>

namespace vertex::store {

// Per family, key -> shared value (std::less<> for string_view lookups).
struct MemoryTables {
  std::array<std::map<std::string, std::shared_ptr<const std::string>, std::less<>>,
             kAllFamilies.size()>
      families;
};

namespace {

size_t Index(Family family) { return static_cast<size_t>(family); }

class MemoryReader final : public KvReader {
 public:
  MemoryReader(std::shared_ptr<const MemoryTables> tables, absl::Status fault)
      : tables_(std::move(tables)), fault_(std::move(fault)) {}

  absl::StatusOr<std::optional<std::string>> Get(Family family,
                                                 std::string_view key) const override {
    if (!fault_.ok()) return fault_;
    const auto& table = tables_->families[Index(family)];
    const auto it = table.find(key);
    if (it == table.end()) return std::nullopt;
    return std::optional<std::string>(*it->second);
  }

  absl::Status Scan(Family family, std::string_view prefix, const KvVisitor& visit) const override {
    if (!fault_.ok()) return fault_;
    const auto& table = tables_->families[Index(family)];
    for (auto it = table.lower_bound(prefix); it != table.end(); ++it) {
      if (std::string_view(it->first).substr(0, prefix.size()) != prefix) break;
      if (!visit(it->first, *it->second)) break;
    }
    return absl::OkStatus();
  }

 private:
  std::shared_ptr<const MemoryTables> tables_;  // immutable once shared
  absl::Status fault_;
};

}  // namespace

MemoryKv::MemoryKv() : tables_(std::make_shared<const MemoryTables>()) {}

MemoryKv::~MemoryKv() = default;

std::unique_ptr<KvReader> MemoryKv::NewReader() const {
  absl::MutexLock lock(&mu_);
  return std::make_unique<MemoryReader>(tables_, read_fault_);
}

absl::Status MemoryKv::Write(const KvBatch& batch) {
  absl::MutexLock lock(&mu_);
  if (writes_before_fault_ == 0) return write_fault_;
  auto next = std::make_shared<MemoryTables>(*tables_);
  for (const KvBatch::Op& op : batch.ops()) {
    auto& table = next->families[Index(op.family)];
    if (op.value.has_value()) {
      table[op.key] = std::make_shared<const std::string>(*op.value);
    } else {
      table.erase(op.key);
    }
  }
  tables_ = std::move(next);
  ++writes_;
  if (writes_before_fault_ > 0) --writes_before_fault_;
  return absl::OkStatus();
}

void MemoryKv::FailWritesAfterForTesting(int64_t successes, absl::Status status) {
  absl::MutexLock lock(&mu_);
  writes_before_fault_ = successes;
  write_fault_ = std::move(status);
}

void MemoryKv::FailReadsForTesting(absl::Status status) {
  absl::MutexLock lock(&mu_);
  read_fault_ = std::move(status);
}

void MemoryKv::ClearFaultsForTesting() {
  absl::MutexLock lock(&mu_);
  writes_before_fault_ = -1;
  write_fault_ = absl::OkStatus();
  read_fault_ = absl::OkStatus();
}

int64_t MemoryKv::WritesForTesting() const {
  absl::MutexLock lock(&mu_);
  return writes_;
}

}  // namespace vertex::store
