#include "common/workflow/page_cache.h"

#include <algorithm>

namespace vertex::workflow {

ParsedPageCache::ParsedPageCache(size_t budget_bytes) : budget_(budget_bytes) {}

size_t ParsedPageCache::CostOf(const html::Page& page) {
  return kBytesPerNode * std::max<size_t>(page.node_count(), 1);
}

void ParsedPageCache::BeginCall(const std::string& site, int64_t generation) {
  absl::MutexLock lock(&mu_);
  ++call_;
  auto [it, added] = generation_.emplace(site, generation);
  if (added || it->second == generation) return;
  it->second = generation;
  DropSiteLocked(site);
}

std::shared_ptr<const html::Page> ParsedPageCache::Find(const std::string& site, size_t index,
                                                        const std::string& url) {
  absl::MutexLock lock(&mu_);
  auto it = index_.find({site, index});
  if (it == index_.end()) {
    ++stats_.misses;
    return nullptr;
  }
  if (it->second->page->url() != url) {
    EraseLocked(it->second);
    ++stats_.misses;
    return nullptr;
  }
  lru_.splice(lru_.begin(), lru_, it->second);
  it->second->call = call_;
  ++stats_.hits;
  return it->second->page;
}

void ParsedPageCache::EraseLocked(List::iterator it) {
  stats_.bytes -= it->cost;
  --stats_.entries;
  index_.erase(it->key);
  lru_.erase(it);
}

bool ParsedPageCache::MakeRoomLocked(size_t cost) {
  if (cost > budget_) return false;
  while (stats_.bytes + cost > budget_) {
    // The least recently used entry; one of this call means every entry is.
    if (lru_.empty() || lru_.back().call == call_) return false;
    EraseLocked(std::prev(lru_.end()));
    ++stats_.evictions;
  }
  return true;
}

void ParsedPageCache::Insert(const std::string& site, size_t index, std::shared_ptr<const html::Page> page) {
  if (page == nullptr) return;
  const size_t cost = CostOf(*page);
  absl::MutexLock lock(&mu_);
  if (auto it = index_.find({site, index}); it != index_.end()) EraseLocked(it->second);
  if (!MakeRoomLocked(cost)) {
    ++stats_.refused;
    return;
  }
  lru_.push_front(Entry{{site, index}, std::move(page), cost, call_});
  index_.emplace(lru_.front().key, lru_.begin());
  stats_.bytes += cost;
  ++stats_.entries;
}

void ParsedPageCache::DropSite(const std::string& site) {
  absl::MutexLock lock(&mu_);
  DropSiteLocked(site);
}

void ParsedPageCache::DropSiteLocked(const std::string& site) {
  for (auto e = index_.lower_bound({site, 0}); e != index_.end() && e->first.first == site;) {
    auto next = std::next(e);
    EraseLocked(e->second);
    e = next;
  }
}

ParsedPageCache::Stats ParsedPageCache::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

}  // namespace vertex::workflow
