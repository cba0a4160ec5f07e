// A site's stored sample (store/rule_store.h: SampleState and its pages) as
// the learning code wants it: a cluster's entry, the cluster as a
// site::SiteClustering, and a PagePool loader reading pages from the store.
// Used by LearningEngine's AddSamplePages, GetAnnotationTasks and Learn.
//
// Thread-safety: functions of their inputs; the store is thread-safe.
#ifndef VERTEX_COMMON_WORKFLOW_SAMPLE_VIEW_H_
#define VERTEX_COMMON_WORKFLOW_SAMPLE_VIEW_H_

#include <string>

#include "absl/status/statusor.h"
#include "common/site/site_clusterer.h"
#include "common/store/rule_store.h"
#include "common/extract/compiled_rule.h"
#include "common/workflow/cluster_learner.h"

namespace vertex::workflow {

// The sample's entry for cluster `id`, or nullptr when the last clustering
// has none. Points into `state`.
const v1::SampleCluster* FindSampleCluster(const v1::SampleState& state, const std::string& id);

// Where a sample page is in the stored clustering (LocatePages).
struct PageLocation {
  // "member", "attached", or "unassigned" (also for every page of a sample
  // never clustered).
  std::string how;
  std::string cluster_id;  // member, attached; else empty
  // The cluster whose signature (or a merged one) agrees with the page's
  // vector in the most bytes (ties: importance), the page's own cluster
  // for members and attached pages; and the bytes agreeing.
  std::string nearest_cluster;
  int agreement = 0;
};

// Every page of `state` (by index), located against `records` (the site's
// clusters; those not in the clustering are passed over).
std::vector<PageLocation> LocateSamplePages(const v1::SampleState& state, const std::vector<v1::ClusterRecord>& records);

// Every stored sample page (file = URL) and the one cluster `c` (id 0) with
// `record`'s signature, URL regex and importance; its pages are c's members
// and attached pages. InvalidArgument when the
// record's signature does not parse.
absl::StatusOr<site::SiteClustering> ClusterView(const v1::SampleState& state, const v1::ClusterRecord& record,
                                                 const v1::SampleCluster& c);

// Loads sample page `index` of `site` from `store` (which must outlive the
// loader): its URL and bytes. The store's NotFound for a missing page.
PageLoader StoreLoader(const store::RuleStore* store, const std::string& site);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_SAMPLE_VIEW_H_
