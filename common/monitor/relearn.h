// Relearn: a changed site's fresh sample, rule reuse (Vertex IV-C) and
// automatic repair of constant attributes (proto/vertex/v1/learning.proto,
// RelearnRequest). LearningEngine::Relearn is the API entry point; it hands
// this function what it needs of the engine (RelearnContext).
//
//   1. the fresh pages: given, or fetched (bellwethers first, then the
//      stored sample's URLs), parsed for their shingle vectors
//   2. the old clusters with a rule: candidates for reuse and repair
//   3. the fresh sample clustered in memory; per new cluster, the old rules
//      sharing URLs with it tried by cluster match, page match, then field
//      match, each field-tested on old and new versions of shared URLs;
//      else automatic repair from the golden values of constant
//      attributes; else queued for the editor with Algorithm 2's picks
//   4. stored: the fresh sample, its clustering, the new rule versions
//
// Thread-safety: safe for concurrent use when the context's functions are;
// the writes to a site happen under its lock (RelearnContext::site_lock).
#ifndef VERTEX_COMMON_MONITOR_RELEARN_H_
#define VERTEX_COMMON_MONITOR_RELEARN_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/fetch/fetcher.h"
#include "common/html/page.h"
#include "common/store/rule_store.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/site_store.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::monitor {

struct RelearnOptions {
  // Parsing the fresh pages (and the old versions of shared URLs); the
  // builder is replaced by the site's (site/site_builder.h).
  html::ParseOptions parse;
  // Learning a repaired rule.
  workflow::ClusterLearnOptions learn;
  // Bellwether pages chosen per reused or repaired rule.
  size_t bellwethers = 15;
  // Pages fetched when the request gives none and says 0.
  size_t relearn_pages = 300;
  // Fetches the fresh sample; nullptr: the request must give the pages.
  std::shared_ptr<fetch::Fetcher> fetcher;
};

// What Relearn needs of the learning engine. Every member must be set.
struct RelearnContext {
  // The rule store (must outlive the call).
  store::RuleStore* store = nullptr;
  RelearnOptions options;
  // The lock serializing writes to a site (held while the old state is
  // re-read, the outcome decided and the new state written).
  std::function<absl::Mutex*(const std::string& site)> site_lock;
  // Clusters a sample (urls and vectors of `state`), loading pages through
  // `load`, and assigns ids against the stored clusters; writes nothing
  // (LearningEngine's ComputeClustering).
  std::function<absl::StatusOr<workflow::SampleClustering>(const std::string& site, v1::SampleState state,
                                                           const workflow::PageLoader& load)>
      compute_clustering;
  // Called with the site after the writes, outside the lock.
  std::function<void(const std::string& site)> notify;
};

// Relearns `request.site` (see learning.proto, Relearn, for the contract):
// InvalidArgument for a bad site id or a page without URL or html or with a
// repeated URL; NotFound for an unknown site; FailedPrecondition when no
// cluster has a rule, when no page is given and there is no fetcher, or
// when no fresh page could be used; the store's errors.
absl::StatusOr<v1::RelearnResponse> Relearn(const RelearnContext& context, const v1::RelearnRequest& request);

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_RELEARN_H_
