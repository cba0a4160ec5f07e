// The monitoring service's operation, free of gRPC: have a site's templates
// changed since its rules were learnt (Vertex IV-B)?
//
// Each cluster with a rule is tested on fresh versions of its bellwether
// pages (chosen when the rule was learnt, with their golden extractions):
// supplied by the scheduler in the request, or else fetched through the
// engine's Fetcher (robots.txt, per-host delay, timeouts: fetch/fetcher.h).
// A supplied page that is no bellwether is routed to a cluster by URL regex
// and tested there without golden values. On each page:
//   shingle test  does the cluster's masked signature cover the page?
//   field test    are all mandatory attributes extracted, and constant
//                 attributes equal to their golden values?
// Verdict per cluster, with `threshold` the share of tested pages allowed
// to fail (default 0.2; the paper's "majority" is 0.5, but a page the
// signature does not cover gets no record at all, and an optional section
// added to half of one template's pages left 35% of them uncovered: a
// majority threshold calls that OK):
//   UNREACHABLE  fewer than half the bellwether pages could be fetched
//                (a fetch failure is not a template change)
//   CHANGED      more than `threshold` of the pages fail the shingle test
//   BROKEN       otherwise, more than `threshold` fail the field test
//   OK           otherwise
//   NO_PAGES     no page to test (none supplied, no bellwether stored)
// The site's verdict is the most severe (CHANGED, BROKEN, UNREACHABLE, OK).
// Every run is handed to the `record` callback for the site's history
// (unless the request says dry_run) and returned with its evidence.
//
// Thread-safety: Monitor() and GetHistory() may be called from many threads
// at once.
#ifndef VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_
#define VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_

#include <functional>
#include <memory>

#include "absl/status/statusor.h"
#include "common/fetch/fetcher.h"
#include "common/html/page.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"

namespace vertex::monitor {

struct MonitorEngineOptions {
  html::ParseOptions parse;
  // Used when the request's threshold is 0.
  double threshold = 0.2;
  // Fetches bellwether pages when a request supplies none; nullptr: such a
  // request fails with FailedPrecondition.
  std::shared_ptr<fetch::Fetcher> fetcher;
  // Stores a run in the site's history (e.g. RuleStore::AppendMonitorRun,
  // or an RPC to the process that writes the store); nullptr: runs are not
  // stored, and responses say so.
  std::function<absl::Status(const v1::MonitorRun&)> record;
};

class MonitorEngine final : public workflow::MonitoringApi {
 public:
  // `store` must outlive the engine.
  MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options);

  // NotFound for an unknown site or a cluster_ids entry that is not one of
  // its clusters; FailedPrecondition when it has no rule, or when pages
  // must be fetched and there is no fetcher; InvalidArgument naming the
  // field for a page without URL or html, a repeated URL, or a threshold
  // outside [0, 1].
  absl::StatusOr<v1::MonitorResponse> Monitor(const v1::MonitorRequest& request) override;

  // NotFound for an unknown site.
  absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request) override;

 private:
  const store::RuleStore* store_;
  MonitorEngineOptions options_;
};

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_
