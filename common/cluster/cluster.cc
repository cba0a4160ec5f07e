#include "common/cluster/cluster.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "absl/container/flat_hash_map.h"
#include "common/util/random.h"

namespace vertex::cluster {
namespace {

using shingle::CoveringVectors;
using shingle::kCoveringVectors;
using shingle::MaskedVector;
using shingle::ShingleVector;

// The hash table H of Algorithm 1: masked vectors in order of first count.
struct Table {
  std::vector<MaskedVector> vectors;
  std::vector<int64_t> counts;
  absl::flat_hash_map<MaskedVector, uint32_t> index;

  uint32_t Add(const MaskedVector& m) {
    auto [it, inserted] = index.try_emplace(m, static_cast<uint32_t>(vectors.size()));
    if (inserted) {
      vectors.push_back(m);
      counts.push_back(0);
    }
    ++counts[it->second];
    return it->second;
  }
};

// A distinct page vector (an 8/8 cluster) with its covering entries.
struct Distinct {
  std::array<uint32_t, kCoveringVectors> covering;
  int64_t size = 0;
  size_t first_page = 0;
};

// True when entry a beats entry b: larger count, more wildcards, counted first.
bool Better(const Table& t, uint32_t a, uint32_t b) {
  if (t.counts[a] != t.counts[b]) return t.counts[a] > t.counts[b];
  const int wa = t.vectors[a].wildcard_count(), wb = t.vectors[b].wildcard_count();
  if (wa != wb) return wa > wb;
  return a < b;
}

// The best covering entry of `d` for which `alive` holds, or -1.
template <typename Alive>
int64_t BestCovering(const Table& t, const Distinct& d, Alive alive) {
  int64_t best = -1;
  for (uint32_t e : d.covering) {
    if (!alive(e)) continue;
    if (best < 0 || Better(t, e, static_cast<uint32_t>(best))) best = e;
  }
  return best;
}

}  // namespace

int64_t AdaptivePruneThreshold(size_t sample_size) {
  return std::clamp<int64_t>(static_cast<int64_t>(sample_size / 50), 1, kPaperPruneThreshold);
}

int64_t EffectivePruneThreshold(const ClusterOptions& options, size_t sample_size) {
  return options.prune_threshold > 0 ? options.prune_threshold : AdaptivePruneThreshold(sample_size);
}

Clustering ClusterVectors(const std::vector<ShingleVector>& vectors, const ClusterOptions& options) {
  // First pass: count covering masked vectors; group identical vectors.
  Table table;
  std::vector<Distinct> distinct;
  std::vector<uint32_t> page_distinct(vectors.size());
  absl::flat_hash_map<uint64_t, uint32_t> by_vector;
  for (size_t p = 0; p < vectors.size(); ++p) {
    const auto covering = CoveringVectors(vectors[p]);
    std::array<uint32_t, kCoveringVectors> entries;
    for (int i = 0; i < kCoveringVectors; ++i) entries[i] = table.Add(covering[i]);
    auto [it, inserted] = by_vector.try_emplace(shingle::Pack(vectors[p]),
                                                static_cast<uint32_t>(distinct.size()));
    if (inserted) distinct.push_back({entries, 0, p});
    ++distinct[it->second].size;
    page_distinct[p] = it->second;
  }

  // Second pass: 8/8 vectors by increasing count, ties in input order.
  std::vector<uint32_t> order(distinct.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return distinct[a].size < distinct[b].size; });
  for (uint32_t d : order) {
    const int64_t best = BestCovering(table, distinct[d], [](uint32_t) { return true; });
    for (uint32_t e : distinct[d].covering) {
      if (e != best) table.counts[e] -= distinct[d].size;
    }
  }
  const int64_t threshold = EffectivePruneThreshold(options, vectors.size());
  const auto survives = [&](uint32_t e) { return table.counts[e] >= threshold; };

  // Third pass: assign pages without adjusting counts.
  absl::flat_hash_map<uint32_t, size_t> cluster_of_entry;
  Clustering result;
  result.prune_threshold = threshold;
  std::vector<uint32_t> entry_of_cluster;
  for (size_t p = 0; p < vectors.size(); ++p) {
    const int64_t best = BestCovering(table, distinct[page_distinct[p]], survives);
    if (best < 0) {
      result.unassigned.push_back(p);
      continue;
    }
    auto [it, inserted] = cluster_of_entry.try_emplace(static_cast<uint32_t>(best), result.clusters.size());
    if (inserted) {
      result.clusters.push_back({table.vectors[best], table.counts[best], {}});
      entry_of_cluster.push_back(static_cast<uint32_t>(best));
    }
    result.clusters[it->second].members.push_back(p);
  }

  // Decreasing importance, ties by the entry counted first.
  std::vector<size_t> idx(result.clusters.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) {
    if (result.clusters[a].importance != result.clusters[b].importance) {
      return result.clusters[a].importance > result.clusters[b].importance;
    }
    return entry_of_cluster[a] < entry_of_cluster[b];
  });
  std::vector<Cluster> sorted;
  sorted.reserve(idx.size());
  for (size_t i : idx) sorted.push_back(std::move(result.clusters[i]));
  result.clusters = std::move(sorted);
  return result;
}

std::optional<size_t> AssignToCluster(const std::vector<Cluster>& clusters, const ShingleVector& v) {
  std::optional<size_t> best;
  for (size_t i = 0; i < clusters.size(); ++i) {
    if (!clusters[i].signature.Covers(v)) continue;
    if (!best || clusters[i].importance > clusters[*best].importance) best = i;
  }
  return best;
}

std::vector<size_t> SampleSite(size_t site_size, const SampleOptions& options) {
  const double rate = std::clamp(options.rate, 0.0, 1.0);
  size_t n = static_cast<size_t>(std::ceil(rate * static_cast<double>(site_size)));
  n = std::max(n, std::min(options.min_pages, site_size));
  n = std::min({n, options.max_pages, site_size});
  // Partial Fisher-Yates: the first n slots become a uniform sample.
  std::vector<size_t> all(site_size);
  std::iota(all.begin(), all.end(), 0);
  util::Rng rng(options.seed);
  for (size_t i = 0; i < n; ++i) {
    const size_t j = i + rng.Uniform(site_size - i);
    std::swap(all[i], all[j]);
  }
  all.resize(n);
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace vertex::cluster
