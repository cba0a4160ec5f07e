// The monitoring service's operation, free of gRPC: have a site's templates
// changed since its rules were learnt (Vertex IV-B)?
//
// Each cluster with a rule is tested on fresh versions of its bellwether
// pages (chosen when the rule was learnt, with their golden extractions):
// supplied by the scheduler in the request, or else fetched through the
// engine's Fetcher (robots.txt, per-host delay, timeouts: fetch/fetcher.h).
// A supplied page is parsed once and routed to the cluster it belongs to,
// by page identity first, then by structure; the URL regex is a cheap
// pre-filter, never the decider between clusters (a site's clusters may
// share one URL pattern):
//   bellwether  its URL is a bellwether of the cluster (golden values known)
//   sample      its URL is a page of the cluster (member or attached) in the
//               site's stored sample clustering
//   signature   the first cluster, by decreasing importance, among those
//               whose URL regex matches, whose rule's masked signature (or
//               one of its extra_signatures: clusters merged into it)
//               covers the page's vector
//   nearest     else, among those, the cluster whose signature agrees with
//               the most bytes of the vector (ties: importance); the page
//               is NOT covered (it fails the shingle test), but when the
//               rule still extracts a complete record from it
//               (extract::NearestMatchFailure) it counts in the verdict's
//               nearest_matched and its evidence says so: drift, not yet
//               lost records
//   url         a page that cannot be parsed goes to the first cluster whose
//               URL regex matches, with its parse error
// A page no URL regex matches (and neither a bellwether nor a sample page)
// is unrouted. Each check records routed_by and the agreement. On each
// page:
//   shingle test  does the cluster's masked signature cover the page?
//   field test    are all mandatory attributes extracted, and constant
//                 attributes equal to their golden values (bellwethers)?
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
//
// Feed test (a request with feed_url or feed_xml; feed_check.h): the feed is
// parsed (fetched through the Fetcher for a URL; a feed that cannot be
// fetched or parsed is reported in FeedCheck.error and the run goes on
// without the test). Every page the run obtains is also judged against it;
// each item whose entry page is not among the supplied (or fetched
// bellwether) pages is fetched, at most max_feed_fetches per run, and is
// routed and tested like a supplied page (shingle and field tests too).
// A cluster whose feed test fails is BROKEN unless it is CHANGED (a failed
// feed test is a broken rule, like a failed field test: the verdict
// semantics above are otherwise unchanged; NO_PAGES with feed pages that
// pass is OK); its reason ends with the feed test's summary.
// feed_repair: after the verdicts, when a cluster is CHANGED or BROKEN (the
// feed test included: a changed template whose pages show feed items is
// repaired too), Relearn (through `learning`) with every fresh page of the
// run makes them the site's sample (reusing the rules that still pass, the
// changed cluster keeping its id), then AnnotateFromFeed with learn=true per
// such cluster on its fresh pages stores an accepted or candidate rule; the
// outcomes are in FeedCheck.repairs, failed calls in repair_errors (the run
// is still returned and recorded). The run keeps every page in memory then.
// Every run is handed to the `record` callback for the site's history
// (unless the request says dry_run) and returned with its evidence.
//
// Thread-safety: Monitor() and GetHistory() may be called from many threads
// at once.
#ifndef VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_
#define VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "common/fetch/fetcher.h"
#include "common/html/page.h"
#include "common/monitor/rule_checks.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"

namespace vertex::monitor {

struct MonitorEngineOptions {
  html::ParseOptions parse;
  // Used when the request's threshold is 0.
  double threshold = 0.2;
  // The field test of record-level rules (delta: the share of the golden
  // record count a page may lose).
  ListFieldTestOptions list;
  // Fetches bellwether pages when a request supplies none; nullptr: such a
  // request fails with FailedPrecondition.
  std::shared_ptr<fetch::Fetcher> fetcher;
  // Stores a run in the site's history (e.g. RuleStore::AppendMonitorRun,
  // or an RPC to the process that writes the store); nullptr: runs are not
  // stored, and responses say so.
  std::function<absl::Status(const v1::MonitorRun&)> record;
  // feed_repair's Relearn and AnnotateFromFeed: the learning engine in
  // process, or a client of the learning service; nullptr: a request with
  // feed_repair fails with FailedPrecondition.
  std::shared_ptr<workflow::LearningApi> learning;
  // Entry pages of feed items fetched per run at most; items past it are
  // reported in FeedCheck.unreachable.
  size_t max_feed_fetches = 100;
};

class MonitorEngine final : public workflow::MonitoringApi {
 public:
  // `store` must outlive the engine.
  MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options);

  // NotFound for an unknown site or a cluster_ids entry that is not one of
  // its clusters; FailedPrecondition when it has no rule, when pages (or a
  // feed_url) must be fetched and there is no fetcher, or feed_repair is
  // asked without `learning`; InvalidArgument naming the field for a page
  // without URL or html, a repeated URL, a threshold outside [0, 1],
  // feed_xml that is no feed, a bad feed_field_to_attribute entry, or
  // feed_repair without a feed or with dry_run.
  absl::StatusOr<v1::MonitorResponse> Monitor(const v1::MonitorRequest& request) override;

  // One Monitor run whose pages come in several messages (the first
  // carries the fields): each message's pages are checked as it is read,
  // so only one message's pages are held at a time. The same errors as
  // Monitor (a page's naming its index in the whole stream), and
  // InvalidArgument for a stream without message.
  absl::StatusOr<v1::MonitorResponse> MonitorStream(
      const workflow::MessageReader<v1::MonitorRequest>& read) override;

  // NotFound for an unknown site.
  absl::StatusOr<v1::GetHistoryResponse> GetHistory(const v1::GetHistoryRequest& request) override;

 private:
  const store::RuleStore* store_;
  MonitorEngineOptions options_;
};

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_MONITOR_ENGINE_H_
