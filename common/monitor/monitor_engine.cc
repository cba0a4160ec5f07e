#include "common/monitor/monitor_engine.h"

#include <chrono>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/monitor/rule_checks.h"
#include "common/site/site_builder.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/workflow/sample_view.h"
#include "common/workflow/site_store.h"

namespace vertex::monitor {
namespace {

constexpr int kMaxEvidence = 5;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The page checks every message of a run passes: a URL and html, and a URL
// not seen before in the run. `index` is the page's index in the run.
absl::Status CheckSuppliedPage(const v1::Page& page, size_t index, std::set<std::string>* seen) {
  if (page.url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", index, "].url is empty"));
  if (page.html().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", index, "].html is empty"));
  if (!seen->insert(page.url()).second) {
    return absl::InvalidArgumentError(absl::StrCat("pages[", index, "].url repeats ", page.url()));
  }
  return absl::OkStatus();
}

absl::Status CheckFields(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (!(request.threshold() >= 0 && request.threshold() <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("threshold ", request.threshold(), " is outside [0, 1]"));
  }
  return absl::OkStatus();
}

// The whole request (Monitor): its pages, then its fields.
absl::Status CheckRequest(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  std::set<std::string> urls;
  for (int i = 0; i < request.pages_size(); ++i) {
    VERTEX_RETURN_IF_ERROR(CheckSuppliedPage(request.pages(i), static_cast<size_t>(i), &urls));
  }
  return CheckFields(request);
}

// Severity of a site-level verdict: the site gets its clusters' highest.
int Severity(v1::ClusterVerdict::Verdict v) {
  switch (v) {
    case v1::ClusterVerdict::CHANGED:
      return 4;
    case v1::ClusterVerdict::BROKEN:
      return 3;
    case v1::ClusterVerdict::UNREACHABLE:
      return 2;
    case v1::ClusterVerdict::OK:
      return 1;
    default:
      return 0;
  }
}

// One line naming what failed on the page; empty when it passed. `nearest`:
// what the nearest match gave on a page routed so (see MonitorCall).
std::string Evidence(const v1::PageCheck& c, const std::string& nearest) {
  std::vector<std::string> why;
  if (!c.fetch_error().empty()) why.push_back("not fetched: " + c.fetch_error());
  if (!c.parse_error().empty()) why.push_back("unparsable: " + c.parse_error());
  if (c.fetch_error().empty() && c.parse_error().empty() && !c.covered()) {
    why.push_back(nearest.empty() ? "the signature does not cover the page" : nearest);
  }
  if (c.missing_mandatory_size() > 0) {
    why.push_back("mandatory not extracted: " + absl::StrJoin(c.missing_mandatory(), ", "));
  }
  for (const v1::AttributeChange& a : c.changed_constants()) {
    why.push_back(absl::StrCat(a.attribute(), " was \"", absl::StrJoin(a.golden(), " | "), "\", now \"",
                               absl::StrJoin(a.fresh(), " | "), "\""));
  }
  for (const std::string& f : c.record_failures()) why.push_back(f);
  return why.empty() ? "" : c.url() + ": " + absl::StrJoin(why, "; ");
}

// The verdict of a cluster from its checks; `nearest` as for Evidence, by
// URL.
void Judge(double threshold, const std::map<std::string, std::string>& nearest, v1::ClusterVerdict* v) {
  uint32_t tested = 0, not_covered = 0, field_failed = 0, missing = 0, changed = 0, unreachable = 0, lists = 0;
  std::map<std::string, int> fetch_errors;
  for (const v1::PageCheck& c : v->checks()) {
    if (!c.fetch_error().empty()) {
      ++unreachable;
      // The reason without the URL ("URL: reason") or its path (robots.txt
      // names it), so that one cause is counted once.
      const std::string& e = c.fetch_error();
      const size_t colon = e.find(": ", c.url().size());
      std::string reason = colon == std::string::npos ? e : e.substr(colon + 2);
      const size_t scheme = c.url().find("://");
      const size_t slash = c.url().find('/', scheme == std::string::npos ? 0 : scheme + 3);
      if (slash != std::string::npos) {
        const std::string path = c.url().substr(slash);
        for (size_t at = reason.find(path); at != std::string::npos; at = reason.find(path, at + 1)) {
          if (at + path.size() == reason.size() || reason[at + path.size()] == ' ') {
            reason.replace(at, path.size(), "the page");
          }
        }
      }
      ++fetch_errors[reason];
      continue;
    }
    ++tested;
    if (!c.parse_error().empty() || !c.covered()) ++not_covered;
    if (FailsFieldTest(c)) ++field_failed;
    if (c.missing_mandatory_size() > 0) ++missing;
    if (c.changed_constants_size() > 0) ++changed;
    if (c.record_failures_size() > 0) ++lists;
    auto note = nearest.find(c.url());
    const std::string e = Evidence(c, note == nearest.end() ? "" : note->second);
    if (!e.empty() && v->evidence_size() < kMaxEvidence) v->add_evidence(e);
  }
  v->set_pages(tested);
  v->set_not_covered(not_covered);
  v->set_missing_mandatory(missing);
  v->set_constant_changed(changed);
  v->set_unreachable(unreachable);
  const uint32_t attempted = tested + unreachable;
  if (attempted > 0 && unreachable * 2 > attempted) {
    std::vector<std::string> reasons;
    for (const auto& [reason, n] : fetch_errors) reasons.push_back(absl::StrCat(reason, " (", n, ")"));
    v->set_verdict(v1::ClusterVerdict::UNREACHABLE);
    v->set_reason(absl::StrCat(unreachable, " of ", attempted, " pages could not be fetched: ",
                               absl::StrJoin(reasons, "; ")));
    return;
  }
  if (tested == 0) {
    v->set_verdict(v1::ClusterVerdict::NO_PAGES);
    if (v->reason().empty()) v->set_reason("no fresh page of the cluster");
    return;
  }
  const std::string suffix = absl::StrCat(" of ", tested, " pages (threshold ", threshold, ")");
  const std::string unfetched = unreachable > 0 ? absl::StrCat("; ", unreachable, " not fetched") : "";
  if (static_cast<double>(not_covered) / tested > threshold) {
    v->set_verdict(v1::ClusterVerdict::CHANGED);
    v->set_reason(absl::StrCat("shingle test failed: the signature does not cover ", not_covered, suffix, unfetched));
  } else if (static_cast<double>(field_failed) / tested > threshold) {
    v->set_verdict(v1::ClusterVerdict::BROKEN);
    // List pages (record-level rules) fail by their records instead.
    const std::string records =
        lists > 0 ? absl::StrCat(", ", lists, " with too few records or a regular attribute in too few") : "";
    v->set_reason(absl::StrCat("field test failed on ", field_failed, suffix, ": ", missing,
                               " missing a mandatory attribute, ", changed, " with a changed constant", records,
                               unfetched));
  } else {
    v->set_verdict(v1::ClusterVerdict::OK);
    v->set_reason(absl::StrCat("shingle test failed on ", not_covered, ", field test on ", field_failed, suffix,
                               unfetched));
  }
}

struct ClusterUnderTest {
  v1::ClusterRecord record;
  const extract::CompiledRule* rule = nullptr;
  std::vector<shingle::MaskedVector> signatures;  // RuleSignatures(*rule)
  std::map<std::string, const v1::GoldenExtraction*> golden;
  // URL -> what the nearest match gave (Evidence), for pages routed so.
  std::map<std::string, std::string> nearest;
  bool tested = true;  // false: not among the request's cluster_ids
  v1::ClusterVerdict verdict;
};

constexpr size_t kNone = static_cast<size_t>(-1);

// Where a supplied page goes: a cluster (index into the run's clusters) and
// how it was routed; kNone: unrouted.
struct Route {
  size_t cluster = kNone;
  const char* how = "";
};

// One Monitor run: the site's clusters under test and how pages reach them
// (monitor_engine.h), the pages' checks, then the verdicts. Start, then
// AddPages per message (or FetchBellwethers when none was supplied), then
// Finish.
class MonitorCall {
 public:
  static absl::StatusOr<std::unique_ptr<MonitorCall>> Start(const store::RuleStore& store,
                                                            const MonitorEngineOptions& options,
                                                            const v1::MonitorRequest& request);
  // Checks, then routes and tests, each page.
  absl::Status AddPages(const google::protobuf::RepeatedPtrField<v1::Page>& pages);
  absl::Status FetchBellwethers(fetch::Fetcher& fetcher);
  bool supplied() const { return next_index_ > 0; }
  absl::StatusOr<v1::MonitorResponse> Finish(const MonitorEngineOptions& options);

 private:
  MonitorCall(const v1::MonitorRequest& request, extract::SiteExtractor extractor, html::ParseOptions parse,
              ListFieldTestOptions list)
      : request_fields_(request),
        extractor_(std::move(extractor)),
        parser_(parse),
        list_(list),
        started_(NowMs()) {
    request_fields_.clear_pages();
  }
  void Index(std::vector<v1::ClusterRecord> records, const v1::SampleState& state);
  Route RouteByStructure(const std::vector<size_t>& by_url, const ParsedPage& parsed) const;
  absl::Status Check(const Route& route, const std::string& url, const ParsedPage& parsed);
  absl::Status AddPage(const v1::Page& page);

  v1::MonitorRequest request_fields_;  // the request without its pages
  extract::SiteExtractor extractor_;
  html::Parser parser_;
  const ListFieldTestOptions list_;
  const int64_t started_;
  std::vector<ClusterUnderTest> clusters_;  // by index in extractor_.rules()
  std::map<std::string, size_t> bellwether_of_;  // URL -> cluster
  std::map<std::string, size_t> sample_of_;      // URL -> cluster
  std::set<std::string> seen_;
  size_t next_index_ = 0;
  uint32_t unrouted_ = 0;
};

absl::StatusOr<std::unique_ptr<MonitorCall>> MonitorCall::Start(const store::RuleStore& store,
                                                                const MonitorEngineOptions& options,
                                                                const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(CheckFields(request));
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store.ClustersOfSite(request.site()));
  for (const std::string& id : request.cluster_ids()) {
    bool known = false;
    for (const v1::ClusterRecord& r : records) known = known || r.cluster_id() == id;
    if (!known) return absl::NotFoundError("cluster \"" + id + "\" of site \"" + request.site() + "\" not found");
  }
  VERTEX_ASSIGN_OR_RETURN(extract::SiteExtractor extractor, workflow::LoadSiteExtractor(store, request.site()));
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord site, store.GetSite(request.site()));
  absl::StatusOr<v1::SampleState> state = store.GetSampleState(request.site());
  if (!state.ok() && !absl::IsNotFound(state.status())) return state.status();
  std::unique_ptr<MonitorCall> call(
      new MonitorCall(request, std::move(extractor), site::SiteParseOptions(options.parse, site), options.list));
  call->Index(std::move(records), state.ok() ? *state : v1::SampleState());
  return call;
}

// The clusters under test, their bellwethers and their sample pages.
void MonitorCall::Index(std::vector<v1::ClusterRecord> records, const v1::SampleState& state) {
  const std::set<std::string> only(request_fields_.cluster_ids().begin(), request_fields_.cluster_ids().end());
  std::map<std::string, size_t> index_of;
  clusters_.resize(extractor_.rules().size());
  for (size_t i = 0; i < clusters_.size(); ++i) {
    ClusterUnderTest& c = clusters_[i];
    c.rule = &extractor_.rules()[i];
    c.signatures = RuleSignatures(*c.rule);
    for (const v1::ClusterRecord& r : records) {
      if (r.cluster_id() == c.rule->proto().cluster_id()) c.record = r;
    }
    c.tested = only.empty() || only.count(c.record.cluster_id()) > 0;
    c.verdict.set_cluster_id(c.record.cluster_id());
    c.verdict.set_rule_version(c.rule->proto().version());
    for (const v1::GoldenExtraction& g : c.record.golden()) c.golden[g.url()] = &g;
    for (const std::string& url : c.record.bellwether_urls()) bellwether_of_.emplace(url, i);
    if (c.record.bellwether_urls().empty()) {
      c.verdict.set_reason("no bellwether URL stored (the rule predates monitoring: learn it again to choose them)");
    }
    index_of.emplace(c.record.cluster_id(), i);
  }
  const std::vector<workflow::PageLocation> where = workflow::LocateSamplePages(state, records);
  for (size_t p = 0; p < where.size(); ++p) {
    auto it = index_of.find(where[p].cluster_id);
    if (!where[p].cluster_id.empty() && it != index_of.end()) {
      sample_of_.emplace(state.urls(static_cast<int>(p)), it->second);
    }
  }
}

absl::Status MonitorCall::AddPages(const google::protobuf::RepeatedPtrField<v1::Page>& pages) {
  for (const v1::Page& page : pages) {
    VERTEX_RETURN_IF_ERROR(CheckSuppliedPage(page, next_index_++, &seen_));
    VERTEX_RETURN_IF_ERROR(AddPage(page));
  }
  return absl::OkStatus();
}

absl::Status MonitorCall::AddPage(const v1::Page& page) {
  Route route;
  if (auto b = bellwether_of_.find(page.url()); b != bellwether_of_.end()) {
    route = Route{b->second, "bellwether"};
  } else if (auto s = sample_of_.find(page.url()); s != sample_of_.end()) {
    route = Route{s->second, "sample"};
  }
  std::vector<size_t> by_url;
  if (route.cluster == kNone) {
    by_url = extractor_.MatchUrl(page.url());
    if (by_url.empty()) {
      ++unrouted_;  // not parsed
      return absl::OkStatus();
    }
  }
  const ParsedPage parsed = ParseForChecks(page.html(), page.url(), parser_);
  if (route.cluster == kNone) route = RouteByStructure(by_url, parsed);
  if (!clusters_[route.cluster].tested) return absl::OkStatus();
  return Check(route, page.url(), parsed);
}

// Among the clusters `by_url` (by decreasing importance): the first whose
// signatures cover the page, else the nearest; the first for a page that
// could not be parsed.
Route MonitorCall::RouteByStructure(const std::vector<size_t>& by_url, const ParsedPage& parsed) const {
  if (!parsed.page.ok()) return Route{by_url[0], "url"};
  for (size_t i : by_url) {
    if (AnyCovers(clusters_[i].signatures, parsed.vector)) return Route{i, "signature"};
  }
  Route nearest{by_url[0], "nearest"};
  int best = -1;
  for (size_t i : by_url) {
    const int a = BestAgreement(clusters_[i].signatures, parsed.vector).bytes;
    if (a > best) {
      best = a;
      nearest.cluster = i;
    }
  }
  return nearest;
}

absl::Status MonitorCall::Check(const Route& route, const std::string& url, const ParsedPage& parsed) {
  ClusterUnderTest& c = clusters_[route.cluster];
  v1::PageCheck* pc = c.verdict.add_checks();
  pc->set_routed_by(route.how);
  auto g = c.golden.find(url);
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results,
                          CheckParsedPage(*c.rule, parsed, url, g == c.golden.end() ? nullptr : g->second, pc, list_));
  if (!parsed.page.ok()) return absl::OkStatus();
  const Agreement agreement = BestAgreement(c.signatures, parsed.vector);
  pc->set_agreement(static_cast<uint32_t>(agreement.bytes));
  if (std::string(route.how) != "nearest" || pc->covered()) return absl::OkStatus();
  // A list rule's checks are its field test's (ListFieldTest).
  const std::string failure = !c.rule->record_level()              ? extract::NearestMatchFailure(*c.rule, results)
                              : pc->record_failures().empty() ? ""
                                                              : pc->record_failures(0);
  const std::string of = absl::StrCat("agreement ", agreement.bytes, "/", agreement.kept);
  if (failure.empty()) {
    c.verdict.set_nearest_matched(c.verdict.nearest_matched() + 1);
    c.nearest[url] = "not covered; nearest match still extracts a complete record (" + of + ")";
  } else {
    c.nearest[url] = "not covered (nearest match, " + of + "): " + failure;
  }
  return absl::OkStatus();
}

absl::Status MonitorCall::FetchBellwethers(fetch::Fetcher& fetcher) {
  for (size_t i = 0; i < clusters_.size(); ++i) {
    ClusterUnderTest& c = clusters_[i];
    if (!c.tested) continue;
    for (const std::string& url : c.record.bellwether_urls()) {
      absl::StatusOr<fetch::FetchResult> fetched = fetcher.Fetch(url);
      if (!fetched.ok()) {
        v1::PageCheck* pc = c.verdict.add_checks();
        pc->set_url(url);
        pc->set_fetch_error(std::string(fetched.status().message()));
        pc->set_has_golden(c.golden.count(url) > 0);
        continue;
      }
      VERTEX_RETURN_IF_ERROR(Check(Route{i, "bellwether"}, url, ParseForChecks(fetched->body, url, parser_)));
      c.verdict.mutable_checks(c.verdict.checks_size() - 1)->set_http_status(static_cast<int32_t>(fetched->http_status));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::MonitorResponse> MonitorCall::Finish(const MonitorEngineOptions& options) {
  const double threshold = request_fields_.threshold() > 0 ? request_fields_.threshold() : options.threshold;
  v1::MonitorResponse response;
  response.set_site(request_fields_.site());
  response.set_source(supplied() ? "supplied" : "fetched");
  response.set_unrouted_pages(unrouted_);
  v1::ClusterVerdict::Verdict site_verdict = v1::ClusterVerdict::NO_PAGES;
  for (ClusterUnderTest& c : clusters_) {
    if (!c.tested) continue;
    Judge(threshold, c.nearest, &c.verdict);
    if (Severity(c.verdict.verdict()) > Severity(site_verdict)) site_verdict = c.verdict.verdict();
    *response.add_clusters() = std::move(c.verdict);
  }
  response.set_verdict(site_verdict);
  response.set_started_unix_ms(started_);
  response.set_elapsed_ms(NowMs() - started_);
  if (request_fields_.dry_run()) {
    response.set_not_recorded_reason("dry run");
  } else if (options.record == nullptr) {
    response.set_not_recorded_reason("this server keeps no history (no store writer configured)");
  } else {
    v1::MonitorRun run;
    run.set_site(response.site());
    run.set_started_unix_ms(started_);
    run.set_elapsed_ms(response.elapsed_ms());
    run.set_source(response.source());
    run.set_threshold(threshold);
    run.set_verdict(response.verdict());
    *run.mutable_clusters() = response.clusters();
    run.set_unrouted_pages(response.unrouted_pages());
    const absl::Status recorded = options.record(run);
    response.set_recorded(recorded.ok());
    if (!recorded.ok()) response.set_not_recorded_reason("storing the run failed: " + recorded.ToString());
  }
  return response;
}

// A run: `first`'s fields and pages, then the pages of the messages `more`
// reads.
absl::StatusOr<v1::MonitorResponse> Run(const store::RuleStore& store, const MonitorEngineOptions& options,
                                        const v1::MonitorRequest& first,
                                        const workflow::MessageReader<v1::MonitorRequest>& more) {
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<MonitorCall> call, MonitorCall::Start(store, options, first));
  VERTEX_RETURN_IF_ERROR(call->AddPages(first.pages()));
  v1::MonitorRequest next;
  for (;;) {
    VERTEX_ASSIGN_OR_RETURN(const bool read, more(&next));
    if (!read) break;
    VERTEX_RETURN_IF_ERROR(call->AddPages(next.pages()));
    next.Clear();
  }
  if (!call->supplied()) {
    if (options.fetcher == nullptr) {
      return absl::FailedPreconditionError(
          "no fresh page given and this server fetches no page (no fetcher configured): supply the pages");
    }
    VERTEX_RETURN_IF_ERROR(call->FetchBellwethers(*options.fetcher));
  }
  return call->Finish(options);
}

}  // namespace

MonitorEngine::MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options)
    : store_(store), options_(std::move(options)) {}

absl::StatusOr<v1::MonitorResponse> MonitorEngine::Monitor(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(CheckRequest(request));
  return Run(*store_, options_, request, [](v1::MonitorRequest*) -> absl::StatusOr<bool> { return false; });
}

absl::StatusOr<v1::MonitorResponse> MonitorEngine::MonitorStream(
    const workflow::MessageReader<v1::MonitorRequest>& read) {
  v1::MonitorRequest first;
  VERTEX_ASSIGN_OR_RETURN(const bool any, read(&first));
  if (!any) return absl::InvalidArgumentError("the stream carried no request message");
  return Run(*store_, options_, first, read);
}

absl::StatusOr<v1::GetHistoryResponse> MonitorEngine::GetHistory(const v1::GetHistoryRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  const size_t limit = request.limit() > 0 ? request.limit() : 20;
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::MonitorRun> runs, store_->MonitorHistory(request.site(), limit));
  v1::GetHistoryResponse response;
  response.mutable_runs()->Assign(runs.begin(), runs.end());
  return response;
}

}  // namespace vertex::monitor
