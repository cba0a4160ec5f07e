// ParsedPageCache: sample pages parsed by one Learn call, kept for the next
// calls on the same site, so that an editor's second and third Learn do not
// parse the cluster's pages again (the editor loop checks the rule on every
// page of the cluster: on SWDE booksamillion 1,947 pages, about 5 s of
// parsing per call on this machine's 2 cores, against 0.5 s of learning).
//
// Entries are keyed by (site, sample page index) and carry the page's URL,
// which a lookup must match. The cache is bounded by an estimate of the
// parsed pages' heap (kBytesPerNode per DOM node: 340, measured on SWDE and
// the demo site's pages, 9-13x their source size). When full it evicts the
// least recently used entries of earlier calls only: pages used in the
// current call (BeginCall) are never evicted for one of the same call, so a
// cluster larger than the budget, checked in the same order every call,
// keeps its first pages cached instead of thrashing.
//
// Validity: the owner (LearningEngine) drops a site's entries whenever it
// writes the site's sample pages (AddSamplePages, Relearn, DeleteSite), and
// BeginCall drops them when the site's sample generation (its clustering
// time) differs from the one the entries were made under. Pages are shared
// (shared_ptr): an entry evicted while a call uses it stays alive until the
// call lets go.
//
// Thread-safety: safe for concurrent use. A cached page is used by one
// thread at a time as long as callers hold the site's lock (as Learn does),
// since pages of different sites are distinct.
#ifndef VERTEX_COMMON_WORKFLOW_PAGE_CACHE_H_
#define VERTEX_COMMON_WORKFLOW_PAGE_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/synchronization/mutex.h"
#include "common/html/page.h"

namespace vertex::workflow {

class ParsedPageCache {
 public:
  // Heap bytes one DOM node of a parsed page costs, about (see above).
  static constexpr size_t kBytesPerNode = 340;

  // `budget_bytes` > 0.
  explicit ParsedPageCache(size_t budget_bytes);
  ParsedPageCache(const ParsedPageCache&) = delete;
  ParsedPageCache& operator=(const ParsedPageCache&) = delete;

  // Starts a call on `site`: entries of the site made under another
  // `generation` are dropped; entries used from now on are protected from
  // eviction until the next BeginCall.
  void BeginCall(const std::string& site, int64_t generation);

  // The cached parse of sample page `index` of `site` when its URL is
  // `url`; null otherwise (an entry with another URL is dropped).
  std::shared_ptr<const html::Page> Find(const std::string& site, size_t index, const std::string& url);

  // Keeps `page` as sample page `index` of `site` (replacing an entry),
  // unless it does not fit without evicting pages of the current call.
  void Insert(const std::string& site, size_t index, std::shared_ptr<const html::Page> page);

  // Drops every entry of `site`.
  void DropSite(const std::string& site);

  struct Stats {
    size_t entries = 0;
    size_t bytes = 0;  // estimated
    uint64_t hits = 0, misses = 0, evictions = 0, refused = 0;
  };
  Stats stats() const;

  // The estimated heap of `page`.
  static size_t CostOf(const html::Page& page);

 private:
  using Key = std::pair<std::string, size_t>;
  struct Entry {
    Key key;
    std::shared_ptr<const html::Page> page;
    size_t cost = 0;
    uint64_t call = 0;  // the call that last used it
  };
  using List = std::list<Entry>;  // most recently used first

  void EraseLocked(List::iterator it) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  void DropSiteLocked(const std::string& site) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);
  bool MakeRoomLocked(size_t cost) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  const size_t budget_;
  mutable absl::Mutex mu_;
  List lru_ ABSL_GUARDED_BY(mu_);
  std::map<Key, List::iterator> index_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int64_t> generation_ ABSL_GUARDED_BY(mu_);
  uint64_t call_ ABSL_GUARDED_BY(mu_) = 0;
  Stats stats_ ABSL_GUARDED_BY(mu_);
};

// What a PagePool needs to use a cache: the cache and the site its pages
// belong to (the pool's page indices are the site's sample indices).
struct PageCacheView {
  ParsedPageCache* cache = nullptr;
  std::string site;
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_PAGE_CACHE_H_
