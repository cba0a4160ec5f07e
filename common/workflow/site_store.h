// What the learning and extraction paths keep in, and read from, the rule
// store (store/rule_store.h): a site's clusters with stable ids, its rules,
// and the compiled extractor of its current rules.
//
// Thread-safety: functions of their inputs; the store is thread-safe.
#ifndef VERTEX_COMMON_WORKFLOW_SITE_STORE_H_
#define VERTEX_COMMON_WORKFLOW_SITE_STORE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/site_extractor.h"
#include "common/schema/schema.h"
#include "common/site/site_clusterer.h"
#include "common/store/rule_store.h"

namespace vertex::workflow {

struct ClusterAssignment {
  // The id of each of clustering.clusters.
  std::vector<std::string> ids;
  // The site's cluster records: those of clustering.clusters (their
  // signature, URL regex and importance set), then the stored ones the
  // clustering does not reproduce.
  std::vector<v1::ClusterRecord> records;
};

// A clustering of a site's sample, not stored yet.
struct SampleClustering {
  v1::SampleState state;  // with the clusters, unassigned pages, sample size
  site::SiteClustering clustering;
  ClusterAssignment assigned;  // ids and records
};


// Clusters of `clustering` whose signatures are those of one stored
// cluster and of clusters merged into it (ClusterRecord.merged, rule
// transfer) become one again: the others are folded into the one with the
// stored cluster's own signature (else the most important): pages,
// attached pages and annotation sample joined, importance added, URL regex
// inferred again. The URL regex inference's error.
absl::Status FoldMergedClusters(const std::vector<v1::ClusterRecord>& stored,
                                const urlpattern::UrlRegexOptions& url_options, site::SiteClustering* clustering);

// A cluster whose masked signature equals a stored cluster's (or one merged
// into it) keeps that cluster's record (id, rules, editor state); others
// get new ids "c<n>".
ClusterAssignment AssignClusterIds(const std::string& site, const std::vector<v1::ClusterRecord>& stored,
                                   const site::SiteClustering& clustering);

// The site's schema and the current rule of each of its clusters that has
// one, compiled with `options`. NotFound when the site is not registered;
// FailedPrecondition when no cluster has a rule yet.
absl::StatusOr<extract::SiteExtractor> LoadSiteExtractor(const store::RuleStore& store, const std::string& site,
                                                         extract::SiteExtractorOptions options = {});

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_SITE_STORE_H_
