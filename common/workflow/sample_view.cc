#include "common/workflow/sample_view.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/util/status_macros.h"

namespace vertex::workflow {

const v1::SampleCluster* FindSampleCluster(const v1::SampleState& state, const std::string& id) {
  for (const v1::SampleCluster& c : state.clusters()) {
    if (c.cluster_id() == id) return &c;
  }
  return nullptr;
}

namespace {

// The signatures of a cluster record: its own, then those merged into it.
std::vector<shingle::MaskedVector> SignaturesOf(const v1::ClusterRecord& r) {
  std::vector<shingle::MaskedVector> out;
  if (absl::StatusOr<shingle::MaskedVector> m = shingle::MaskedVector::Parse(r.signature()); m.ok()) out.push_back(*m);
  for (const v1::MergedCluster& merged : r.merged()) {
    if (absl::StatusOr<shingle::MaskedVector> m = shingle::MaskedVector::Parse(merged.signature()); m.ok()) {
      out.push_back(*m);
    }
  }
  return out;
}

int BestAgreement(const std::vector<shingle::MaskedVector>& signatures, const shingle::ShingleVector& v) {
  int best = 0;
  for (const shingle::MaskedVector& m : signatures) best = std::max(best, m.Agreement(v));
  return best;
}

}  // namespace

std::vector<PageLocation> LocateSamplePages(const v1::SampleState& state,
                                            const std::vector<v1::ClusterRecord>& records) {
  std::vector<PageLocation> out(static_cast<size_t>(state.urls_size()), PageLocation{"unassigned", "", "", 0});
  // Clusters of the current clustering, by decreasing importance (the
  // order of `records`).
  std::vector<std::pair<std::string, std::vector<shingle::MaskedVector>>> clusters;
  std::map<std::string, size_t> index_of;
  for (const v1::ClusterRecord& r : records) {
    if (FindSampleCluster(state, r.cluster_id()) == nullptr) continue;
    index_of[r.cluster_id()] = clusters.size();
    clusters.emplace_back(r.cluster_id(), SignaturesOf(r));
  }
  for (const v1::SampleCluster& c : state.clusters()) {
    for (uint32_t p : c.pages()) {
      if (p < out.size()) out[p] = PageLocation{"member", c.cluster_id(), c.cluster_id(), 0};
    }
    for (uint32_t p : c.attached()) {
      if (p < out.size()) out[p] = PageLocation{"attached", c.cluster_id(), c.cluster_id(), 0};
    }
  }
  for (size_t p = 0; p < out.size(); ++p) {
    if (static_cast<int>(p) >= state.vectors_size() || state.vectors(static_cast<int>(p)).size() != shingle::kVectorBytes) {
      continue;
    }
    shingle::ShingleVector v;
    const std::string& bytes = state.vectors(static_cast<int>(p));
    std::copy(bytes.begin(), bytes.end(), v.begin());
    if (!out[p].cluster_id.empty()) {
      auto it = index_of.find(out[p].cluster_id);
      if (it != index_of.end()) out[p].agreement = BestAgreement(clusters[it->second].second, v);
      continue;
    }
    for (const auto& [id, signatures] : clusters) {
      const int a = BestAgreement(signatures, v);
      if (a > out[p].agreement || out[p].nearest_cluster.empty()) {
        out[p].agreement = a;
        out[p].nearest_cluster = id;
      }
    }
  }
  return out;
}

// The stored pages as a clustering with the one cluster `c` (id 0).
absl::StatusOr<site::SiteClustering> ClusterView(const v1::SampleState& state, const v1::ClusterRecord& record,
                                                 const v1::SampleCluster& c) {
  site::SiteClustering view;
  for (int i = 0; i < state.urls_size(); ++i) view.pages.push_back({state.urls(i), state.urls(i), {}, false});
  site::SiteCluster sc;
  VERTEX_ASSIGN_OR_RETURN(sc.signature, shingle::MaskedVector::Parse(record.signature()));
  sc.importance = record.importance();
  sc.url_regex = record.url_regex();
  // Attached pages are checked and annotated like members.
  sc.pages.assign(c.pages().begin(), c.pages().end());
  sc.pages.insert(sc.pages.end(), c.attached().begin(), c.attached().end());
  std::sort(sc.pages.begin(), sc.pages.end());
  for (int i = 0; i < c.annotation_order_size(); ++i) {
    sc.annotation_sample.push_back({c.annotation_order(i), i < c.added_weight_size() ? c.added_weight(i) : 0});
  }
  view.clusters.push_back(std::move(sc));
  return view;
}

PageLoader StoreLoader(const store::RuleStore* store, const std::string& site) {
  return [store, site](size_t index) -> absl::StatusOr<site::PageFile> {
    VERTEX_ASSIGN_OR_RETURN(v1::SamplePage page, store->GetSamplePage(site, static_cast<uint32_t>(index)));
    return site::PageFile{page.url(), page.url(), page.html()};
  };
}

}  // namespace vertex::workflow
