#include "common/workflow/sample_view.h"

#include "common/util/status_macros.h"

namespace vertex::workflow {

const v1::SampleCluster* FindSampleCluster(const v1::SampleState& state, const std::string& id) {
  for (const v1::SampleCluster& c : state.clusters()) {
    if (c.cluster_id() == id) return &c;
  }
  return nullptr;
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
  sc.pages.assign(c.pages().begin(), c.pages().end());
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
