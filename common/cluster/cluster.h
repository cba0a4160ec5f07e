// Page clustering by shingle vectors (Vertex paper, Algorithm 1) and site
// sampling.
//
// Algorithm 1, three passes over the sample's vectors:
//  1. Count, for every page, the 37 masked vectors with at most two
//     wildcards (6/8, 7/8, 8/8) covering its vector.
//  2. For each distinct 8/8 vector in increasing order of count, pick the
//     covering masked vector with the largest count and decrement every
//     other covering vector by the number of pages with that 8/8 vector.
//     Then prune masked vectors whose count is below the threshold.
//  3. Assign every page to the surviving covering vector with the largest
//     count; pages with none are unassigned ("lost to pruning").
// A cluster's signature is its masked vector, its importance the count.
//
// Tie order (the paper leaves it open): the 8/8 vectors of equal count are
// taken in order of first appearance in the input; among covering vectors of
// equal count, the one with more wildcards wins (it matches more of the
// template's future pages), then the one counted first (pages in input
// order, each page's 37 vectors in CoveringVectors() order). This
// reproduces Example 3.1 of the paper, whose narrative names the masked
// vector covering v1 and v3 mv1 and the one covering v1 and v2 mv2.
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_CLUSTER_CLUSTER_H_
#define VERTEX_COMMON_CLUSTER_CLUSTER_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "common/shingle/shingle.h"

namespace vertex::cluster {

// The paper's pruning threshold, for samples of thousands of pages.
inline constexpr int64_t kPaperPruneThreshold = 20;

struct ClusterOptions {
  // Masked vectors with a count below this after the second pass are pruned.
  // 0 (or below): adaptive, AdaptivePruneThreshold(sample size): the paper's
  // 20 is for samples of thousands; with it every page of a site of a few
  // dozen pages is pruned.
  int64_t prune_threshold = 0;
};

// clamp(sample_size / 50, 1, 20) (integer division): 20 from 1,000 pages
// on, 1 up to 99 pages, so a site of 1-50 pages of one template still
// forms its cluster.
int64_t AdaptivePruneThreshold(size_t sample_size);

// The threshold ClusterVectors applies to `sample_size` vectors:
// options.prune_threshold when above 0, else the adaptive one.
int64_t EffectivePruneThreshold(const ClusterOptions& options, size_t sample_size);

struct Cluster {
  shingle::MaskedVector signature;
  // The signature's count after the second pass.
  int64_t importance = 0;
  // Indices into the input, ascending.
  std::vector<size_t> members;
};

struct Clustering {
  // Clusters with at least one member, by decreasing importance (ties: the
  // signature counted first).
  std::vector<Cluster> clusters;
  // Inputs covered by no surviving signature, ascending.
  std::vector<size_t> unassigned;
  // The pruning threshold applied (EffectivePruneThreshold).
  int64_t prune_threshold = 0;
};

// Algorithm 1 over `vectors`.
Clustering ClusterVectors(const std::vector<shingle::ShingleVector>& vectors,
                          const ClusterOptions& options = {});

// The cluster a page with vector `v` belongs to, as the third pass decides:
// the covering signature with the largest importance (ties: lower index).
// nullopt when no signature covers `v`.
std::optional<size_t> AssignToCluster(const std::vector<Cluster>& clusters,
                                      const shingle::ShingleVector& v);

struct SampleOptions {
  // Fraction of the site's pages to sample (the paper: 20%).
  double rate = 0.2;
  // At most this many pages (the paper: 20,000).
  size_t max_pages = 20000;
  // At least this many pages, or all of a smaller site: a 20% sample of a
  // small site holds too few pages per template for the pruning threshold.
  size_t min_pages = 1000;
  uint64_t seed = 1;
};

// Indices of the pages to sample from a site of `site_size` pages,
// ascending; deterministic for a seed. Size: clamp(ceil(rate * site_size),
// min(min_pages, site_size), max_pages).
std::vector<size_t> SampleSite(size_t site_size, const SampleOptions& options);

}  // namespace vertex::cluster

#endif  // VERTEX_COMMON_CLUSTER_CLUSTER_H_
