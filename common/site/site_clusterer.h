// Clustering a site's pages end to end: read and parse every page once
// (computing its shingle vector in the same walk), sample the site,
// cluster the sample (Algorithm 1), assign every page to a cluster, infer
// each cluster's URL regex and choose its annotation sample (Algorithm 2).
//
// Pages that cannot be read or parsed (empty, over a limit, ...) are
// reported in `errors` with the reason, never fatal. Work is spread over
// `threads` threads, each with its own parser.
//
// Thread-safety: ClusterSite is a pure function of its inputs and the files.
#ifndef VERTEX_COMMON_SITE_SITE_CLUSTERER_H_
#define VERTEX_COMMON_SITE_SITE_CLUSTERER_H_

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/cluster/cluster.h"
#include "common/html/page.h"
#include "common/sample/annotation_sample.h"
#include "common/shingle/shingle.h"
#include "common/urlpattern/url_regex.h"

namespace vertex::site {

struct SiteClusterOptions {
  // prune_threshold 0 (the default): adaptive to the sample's size.
  cluster::ClusterOptions cluster;
  cluster::SampleOptions sample;
  sample::SampleOptions annotation;
  urlpattern::UrlRegexOptions url;
  html::ParseOptions parse;
  // 0: one per hardware thread.
  int threads = 0;
  // A page no signature covers is attached to the cluster whose signature
  // agrees with its vector in the most kept bytes (ties: importance) when
  // they are at least this fraction of the signature's kept bytes (0.5:
  // an estimated Jaccard similarity of about one half). Above 1: never.
  double attach_min_agreement = 0.5;
};

struct SitePage {
  std::string file;
  std::string url;
  shingle::ShingleVector vector{};
  // In the site sample that Algorithm 1 clustered.
  bool sampled = false;
};

struct PageError {
  std::string file;
  std::string error;
};

struct AnnotationPick {
  size_t page;  // index into SiteClustering::pages
  double added_weight;
};

struct SiteCluster {
  // Rank by importance, from 0.
  size_t id = 0;
  shingle::MaskedVector signature;
  int64_t importance = 0;
  std::string url_regex;
  // Indices into SiteClustering::pages, ascending: sampled members and the
  // other pages its signature covers.
  std::vector<size_t> pages;
  // Pages no signature covers whose vector is nearest this cluster's
  // signature (SiteClusterOptions::attach_min_agreement), ascending. The
  // URL regex matches them too.
  std::vector<size_t> attached;
  // Algorithm 2 over the cluster's sampled members, in selection order.
  std::vector<AnnotationPick> annotation_sample;
};

struct SiteClustering {
  std::vector<SitePage> pages;  // parsed pages, in input order
  std::vector<SiteCluster> clusters;
  // Pages no cluster covers (lost to pruning) nor attaches, ascending
  // indices into pages.
  std::vector<size_t> unassigned;
  std::vector<PageError> errors;
  size_t sample_size = 0;
  // The pruning threshold Algorithm 1 applied to the sample (the adaptive
  // one when options.cluster.prune_threshold is 0).
  int64_t prune_threshold = 0;
};

// Clusters the site made of `files`. Fails only when no page at all could
// be parsed (FailedPrecondition, with the first errors) or a URL regex
// cannot be inferred (its status).
absl::StatusOr<SiteClustering> ClusterSite(const std::vector<std::string>& files,
                                           const SiteClusterOptions& options);

// Algorithm 2's XPaths of page `index` of the pages being clustered. Called
// from several threads at once.
using XPathsOfPage = std::function<absl::StatusOr<sample::PageXPaths>(size_t index)>;

// Clusters pages analysed earlier (their URL and shingle vector known, e.g.
// stored when they were added to a sample): samples them, clusters the
// sample, assigns every page, infers URL regexes and chooses annotation
// samples, asking `xpaths` for the XPaths of each sampled page (on
// options.threads threads). Fails with the first error of `xpaths`, or
// FailedPrecondition when `pages` is empty. `file` fields are kept as given.
absl::StatusOr<SiteClustering> ClusterKnownPages(std::vector<SitePage> pages, const XPathsOfPage& xpaths,
                                                 const SiteClusterOptions& options);

}  // namespace vertex::site

#endif  // VERTEX_COMMON_SITE_SITE_CLUSTERER_H_
