// The learning service's operations over the rule store, free of gRPC: the
// LearningService adapter (services/learning) and vertexctl's offline mode
// both call these with the vertex.v1 request messages and get the response
// messages, so both print the same thing.
//
//   RegisterSite        site + schema
//   AddSamplePages      parse and store pages (shingle vectors kept), then
//                       cluster the sample (Algorithm 1), infer URL
//                       regexes, choose annotation samples (Algorithm 2)
//   GetAnnotationTasks  the next pages to annotate, with why
//   Learn               annotations -> rule (stored as a new version),
//                       diagnostics, a preview, the editor loop's verdict
//   GetRule / ListRules / ExportRule / RollbackRule / DeleteSite
//
// Errors are canonical absl codes whose message names the offending field
// or input (see proto/vertex/v1/learning.proto for each RPC's).
//
// Thread-safety: safe for concurrent use. Writes to one site are
// serialized (a per-site lock); different sites proceed in parallel. After
// every acknowledged write `on_write(site)` is called (outside the lock).
#ifndef VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_
#define VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/site/site_clusterer.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"
#include "common/workflow/cluster_learner.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::workflow {

struct LearningEngineOptions {
  // Clustering and parsing (parse.max_page_bytes caps each sample page).
  site::SiteClusterOptions cluster;
  ClusterLearnOptions learn;
  // Pages per cluster GetAnnotationTasks returns when the request says 0.
  size_t task_pages = 3;
  // Sample pages previewed by Learn when the request says 0.
  size_t preview_pages = 10;
  // Pages one AddSamplePages call may carry.
  size_t max_pages_per_call = 5000;
};

class LearningEngine final : public LearningApi {
 public:
  // `store` must outlive the engine.
  LearningEngine(store::RuleStore* store, LearningEngineOptions options,
                 std::function<void(const std::string& site)> on_write = nullptr);

  absl::StatusOr<v1::RegisterSiteResponse> RegisterSite(const v1::RegisterSiteRequest& request) override;
  absl::StatusOr<v1::AddSamplePagesResponse> AddSamplePages(const v1::AddSamplePagesRequest& request) override;
  absl::StatusOr<v1::GetAnnotationTasksResponse> GetAnnotationTasks(
      const v1::GetAnnotationTasksRequest& request) override;
  absl::StatusOr<v1::LearnResponse> Learn(const v1::LearnRequest& request) override;
  absl::StatusOr<v1::GetRuleResponse> GetRule(const v1::GetRuleRequest& request) override;
  absl::StatusOr<v1::ListRulesResponse> ListRules(const v1::ListRulesRequest& request) override;
  absl::StatusOr<v1::ExportRuleResponse> ExportRule(const v1::ExportRuleRequest& request) override;
  absl::StatusOr<v1::RollbackRuleResponse> RollbackRule(const v1::RollbackRuleRequest& request) override;
  absl::StatusOr<v1::DeleteSiteResponse> DeleteSite(const v1::DeleteSiteRequest& request) override;

  const LearningEngineOptions& options() const { return options_; }

 private:
  absl::Mutex* SiteLock(const std::string& site);
  void Notify(const std::string& site) const;
  absl::StatusOr<v1::AddSamplePagesResponse> ClusterSample(const std::string& site);

  store::RuleStore* store_;
  LearningEngineOptions options_;
  std::function<void(const std::string&)> on_write_;
  absl::Mutex locks_mu_;
  std::map<std::string, std::unique_ptr<absl::Mutex>> locks_ ABSL_GUARDED_BY(locks_mu_);
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_LEARNING_ENGINE_H_
