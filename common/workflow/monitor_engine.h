// The monitoring service's operation, free of gRPC: have a site's
// templates changed since its rules were learnt (Vertex IV-B)? Given fresh
// versions of the site's pages, each page is routed to the cluster whose
// URL regex matches it (the most important one) and tested there:
//   shingle test  does the cluster's masked signature cover the page?
//   field test    does the rule extract every mandatory attribute?
// A cluster is CHANGED when the share of its pages failing either test is
// above the threshold; the evidence names the failing pages and why.
//
// This version tests the pages a scheduler supplies. (Bellwether pages,
// fetching and golden values come with the monitoring issue.)
//
// Thread-safety: Monitor() may be called from many threads at once.
#ifndef VERTEX_COMMON_WORKFLOW_MONITOR_ENGINE_H_
#define VERTEX_COMMON_WORKFLOW_MONITOR_ENGINE_H_

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"

namespace vertex::workflow {

struct MonitorEngineOptions {
  html::ParseOptions parse;
  // Used when the request's threshold is 0.
  double threshold = 0.2;
};

class MonitorEngine final : public MonitoringApi {
 public:
  // `store` must outlive the engine.
  MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options);

  // NotFound for an unknown site; FailedPrecondition when it has no rule;
  // InvalidArgument naming the field for no page, a page without URL or
  // html, or a threshold outside [0, 1].
  absl::StatusOr<v1::MonitorResponse> Monitor(const v1::MonitorRequest& request) override;

 private:
  const store::RuleStore* store_;
  MonitorEngineOptions options_;
};

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_MONITOR_ENGINE_H_
