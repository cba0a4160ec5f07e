#include "common/site/site_clusterer.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>

#include "common/site/page_file.h"
#include "common/util/status_macros.h"

namespace vertex::site {
namespace {

// What one pass over one file yields.
struct Analyzed {
  bool ok = false;
  std::string url;
  std::string error;
  shingle::ShingleVector vector{};
  sample::PageXPaths xpaths;
};

Analyzed AnalyzeFile(const std::string& file, bool sampled, html::Parser* parser) {
  Analyzed out;
  // A <base> line may precede the page: allow for it in the read limit and
  // let the parser enforce the page size limit with its own message.
  absl::StatusOr<PageFile> page_file = ReadPageFile(file, parser->options().max_page_bytes + 4096);
  if (!page_file.ok()) {
    out.error = std::string(page_file.status().message());
    return out;
  }
  shingle::Shingler shingler;
  absl::StatusOr<html::Page> page = parser->Parse(page_file->bytes, page_file->url, "", &shingler);
  if (!page.ok()) {
    out.error = std::string(page.status().message());
    return out;
  }
  out.ok = true;
  out.url = std::move(page_file->url);
  out.vector = shingler.Finish();
  if (sampled) out.xpaths = sample::ExtractXPaths(*page);
  return out;
}

int ThreadCount(const SiteClusterOptions& options, size_t work) {
  int threads = options.threads > 0 ? options.threads
                                    : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<size_t>(threads, std::max<size_t>(work, 1)));
}

std::vector<Analyzed> AnalyzeAll(const std::vector<std::string>& files,
                                 const std::vector<bool>& sampled, const SiteClusterOptions& options) {
  std::vector<Analyzed> results(files.size());
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    html::Parser parser(options.parse);
    for (size_t i; (i = next.fetch_add(1)) < files.size();) {
      results[i] = AnalyzeFile(files[i], sampled[i], &parser);
    }
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < ThreadCount(options, files.size()); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  return results;
}

// Fills cluster membership: the sample as Algorithm 1 assigned it, every
// other page by the third pass's rule.
void AssignPages(const cluster::Clustering& clustering, const std::vector<size_t>& sample_pages,
                 SiteClustering* site) {
  std::vector<bool> in_sample(site->pages.size(), false);
  for (size_t p : sample_pages) in_sample[p] = true;
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    SiteCluster& sc = site->clusters[c];
    for (size_t m : clustering.clusters[c].members) sc.pages.push_back(sample_pages[m]);
  }
  for (size_t m : clustering.unassigned) site->unassigned.push_back(sample_pages[m]);
  for (size_t p = 0; p < site->pages.size(); ++p) {
    if (in_sample[p]) continue;
    const std::optional<size_t> c = cluster::AssignToCluster(clustering.clusters, site->pages[p].vector);
    if (c) {
      site->clusters[*c].pages.push_back(p);
    } else {
      site->unassigned.push_back(p);
    }
  }
  for (SiteCluster& sc : site->clusters) std::sort(sc.pages.begin(), sc.pages.end());
  std::sort(site->unassigned.begin(), site->unassigned.end());
}

// Moves each unassigned page whose vector is near enough a cluster's
// signature to that cluster's attached pages (the nearest; ties: the more
// important cluster, i.e. the lower index).
void AttachUnassigned(double min_agreement, SiteClustering* site) {
  std::vector<size_t> still;
  for (size_t p : site->unassigned) {
    const shingle::ShingleVector& v = site->pages[p].vector;
    std::optional<size_t> best;
    int best_agreement = 0;
    for (size_t c = 0; c < site->clusters.size(); ++c) {
      const shingle::MaskedVector& sig = site->clusters[c].signature;
      const int a = sig.Agreement(v);
      if (a < min_agreement * sig.kept() || a <= best_agreement) continue;
      best = c;
      best_agreement = a;
    }
    if (best) {
      site->clusters[*best].attached.push_back(p);
    } else {
      still.push_back(p);
    }
  }
  site->unassigned = std::move(still);
}

// Algorithm 1 on the sample, Algorithm 2 per cluster, page assignment and
// URL regexes: what follows once the pages are analysed.
absl::StatusOr<SiteClustering> Finish(SiteClustering site, const std::vector<size_t>& sample_pages,
                                      std::vector<sample::PageXPaths> page_xpaths, const SiteClusterOptions& options) {
  std::vector<shingle::ShingleVector> sample_vectors;
  for (size_t p : sample_pages) sample_vectors.push_back(site.pages[p].vector);
  site.sample_size = sample_pages.size();
  const cluster::Clustering clustering = cluster::ClusterVectors(sample_vectors, options.cluster);
  site.prune_threshold = clustering.prune_threshold;
  for (size_t c = 0; c < clustering.clusters.size(); ++c) {
    SiteCluster sc;
    sc.id = c;
    sc.signature = clustering.clusters[c].signature;
    sc.importance = clustering.clusters[c].importance;
    // Algorithm 2 over the cluster's sampled members.
    std::vector<sample::PageXPaths> members;
    for (size_t m : clustering.clusters[c].members) members.push_back(std::move(page_xpaths[m]));
    for (const sample::SamplePick& pick : sample::SelectAnnotationSample(members, options.annotation)) {
      sc.annotation_sample.push_back(
          {sample_pages[clustering.clusters[c].members[pick.page]], pick.added_weight});
    }
    site.clusters.push_back(std::move(sc));
  }
  AssignPages(clustering, sample_pages, &site);
  AttachUnassigned(options.attach_min_agreement, &site);
  for (SiteCluster& sc : site.clusters) {
    std::vector<std::string> urls;
    urls.reserve(sc.pages.size() + sc.attached.size());
    for (size_t p : sc.pages) urls.push_back(site.pages[p].url);
    for (size_t p : sc.attached) urls.push_back(site.pages[p].url);
    VERTEX_ASSIGN_OR_RETURN(sc.url_regex, urlpattern::InferUrlRegex(urls, options.url));
  }
  return site;
}

}  // namespace

absl::StatusOr<SiteClustering> ClusterSite(const std::vector<std::string>& files,
                                           const SiteClusterOptions& options) {
  std::vector<bool> sampled(files.size(), false);
  for (size_t i : cluster::SampleSite(files.size(), options.sample)) sampled[i] = true;
  std::vector<Analyzed> analyzed = AnalyzeAll(files, sampled, options);

  SiteClustering site;
  std::vector<size_t> sample_pages;  // indices into site.pages
  std::vector<sample::PageXPaths> page_xpaths;  // parallel to sample_pages
  for (size_t i = 0; i < files.size(); ++i) {
    if (!analyzed[i].ok) {
      site.errors.push_back({files[i], std::move(analyzed[i].error)});
      continue;
    }
    if (sampled[i]) {
      sample_pages.push_back(site.pages.size());
      page_xpaths.push_back(std::move(analyzed[i].xpaths));
    }
    site.pages.push_back({files[i], std::move(analyzed[i].url), analyzed[i].vector, sampled[i]});
  }
  if (site.pages.empty()) {
    return absl::FailedPreconditionError(
        "no page could be parsed" +
        (site.errors.empty() ? std::string() : "; first error: " + site.errors[0].file + ": " + site.errors[0].error));
  }
  return Finish(std::move(site), sample_pages, std::move(page_xpaths), options);
}

absl::StatusOr<SiteClustering> ClusterKnownPages(std::vector<SitePage> pages, const XPathsOfPage& xpaths,
                                                 const SiteClusterOptions& options) {
  if (pages.empty()) return absl::FailedPreconditionError("no page to cluster");
  std::vector<size_t> sample_pages = cluster::SampleSite(pages.size(), options.sample);
  std::sort(sample_pages.begin(), sample_pages.end());
  std::vector<absl::StatusOr<sample::PageXPaths>> results(sample_pages.size(), sample::PageXPaths{});
  std::atomic<size_t> next{0};
  const auto worker = [&] {
    for (size_t i; (i = next.fetch_add(1)) < sample_pages.size();) results[i] = xpaths(sample_pages[i]);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < ThreadCount(options, sample_pages.size()); ++t) pool.emplace_back(worker);
  worker();
  for (std::thread& t : pool) t.join();
  std::vector<sample::PageXPaths> page_xpaths;
  for (size_t i = 0; i < results.size(); ++i) {
    if (!results[i].ok()) return results[i].status();
    page_xpaths.push_back(*std::move(results[i]));
  }
  SiteClustering site;
  site.pages = std::move(pages);
  for (SitePage& p : site.pages) p.sampled = false;
  for (size_t p : sample_pages) site.pages[p].sampled = true;
  return Finish(std::move(site), sample_pages, std::move(page_xpaths), options);
}

}  // namespace vertex::site
