#include "common/monitor/monitor_engine.h"

#include <chrono>
#include <map>
#include <optional>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/feed/feed.h"
#include "common/monitor/feed_check.h"
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

bool HasFeed(const v1::MonitorRequest& request) { return !request.feed_url().empty() || !request.feed_xml().empty(); }

absl::Status CheckFields(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  if (!(request.threshold() >= 0 && request.threshold() <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("threshold ", request.threshold(), " is outside [0, 1]"));
  }
  if (!HasFeed(request) && request.feed_repair()) {
    return absl::InvalidArgumentError("feed_repair needs a feed: give feed_url or feed_xml");
  }
  if (!HasFeed(request) && !request.feed_field_to_attribute().empty()) {
    return absl::InvalidArgumentError("feed_field_to_attribute without a feed: give feed_url or feed_xml");
  }
  if (request.feed_repair() && request.dry_run()) {
    return absl::InvalidArgumentError("feed_repair stores rules: it cannot be a dry_run");
  }
  return absl::OkStatus();
}

// The checks of a request's feed fields against the engine's means: a
// fetcher for a feed by URL, a learning API for feed_repair.
absl::Status CheckFeedMeans(const v1::MonitorRequest& request, const MonitorEngineOptions& options) {
  if (request.feed_xml().empty() && !request.feed_url().empty() && options.fetcher == nullptr) {
    return absl::FailedPreconditionError("feed_url " + request.feed_url() +
                                         ": this server fetches no page (no fetcher configured): give feed_xml");
  }
  if (request.feed_repair() && options.learning == nullptr) {
    return absl::FailedPreconditionError(
        "feed_repair: this server cannot reach the learning service (vertex-monitoring: --learning-server)");
  }
  return absl::OkStatus();
}

// The feed of a request: its bytes, or fetched from its URL (final URL as
// the base). A bad feed_xml is the caller's error (InvalidArgument); a feed
// URL that cannot be fetched or parsed is the site's: `error` says why and
// the run goes on without the feed test.
struct ObtainedFeed {
  std::optional<feed::Feed> feed;
  std::string xml;
  std::string url;
  std::string error;
};

absl::StatusOr<ObtainedFeed> ObtainFeed(const v1::MonitorRequest& request, fetch::Fetcher* fetcher) {
  ObtainedFeed out;
  out.url = request.feed_url();
  if (!request.feed_xml().empty()) {
    out.xml = request.feed_xml();
  } else {
    absl::StatusOr<fetch::FetchResult> fetched = fetcher->Fetch(request.feed_url());
    if (!fetched.ok()) {
      out.error = "feed URL: " + std::string(fetched.status().message());
      return out;
    }
    out.xml = std::move(fetched->body);
    if (!fetched->final_url.empty()) out.url = fetched->final_url;
  }
  feed::FeedParseOptions parse;
  parse.url = out.url;
  absl::StatusOr<feed::Feed> parsed = feed::ParseFeed(out.xml, parse);
  if (parsed.ok()) {
    out.feed = *std::move(parsed);
  } else if (!request.feed_xml().empty()) {
    return absl::InvalidArgumentError("feed_xml: " + std::string(parsed.status().message()));
  } else {
    out.error = "feed URL " + out.url + ": " + std::string(parsed.status().message());
  }
  return out;
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
  // Its golden extractions show several titles (feed_check.h).
  bool list = false;
  // The run's fresh pages routed to it (feed_repair's AnnotateFromFeed).
  std::vector<std::string> fresh_urls;
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
// FetchFeedEntries, then Finish.
class MonitorCall {
 public:
  static absl::StatusOr<std::unique_ptr<MonitorCall>> Start(const store::RuleStore& store,
                                                            const MonitorEngineOptions& options,
                                                            const v1::MonitorRequest& request);
  // Checks, then routes and tests, each page.
  absl::Status AddPages(const google::protobuf::RepeatedPtrField<v1::Page>& pages);
  absl::Status FetchBellwethers(fetch::Fetcher& fetcher);
  // Fetches (at most `max`) the entry pages of feed items no page of the
  // run was, and tests them; `fetcher` may be null (each is unreachable).
  absl::Status FetchFeedEntries(fetch::Fetcher* fetcher, size_t max);
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
  absl::Status StartFeed(ObtainedFeed obtained);
  Route RouteByStructure(const std::vector<size_t>& by_url, const ParsedPage& parsed) const;
  absl::StatusOr<std::vector<extract::AttributeResult>> Check(const Route& route, const std::string& url,
                                                              const ParsedPage& parsed);
  // Routes, tests and feed-judges one page; `item`: the feed item whose
  // entry page it is, or -1.
  absl::Status AddPage(const v1::Page& page, int item);
  void Unchecked(int item, const std::string& url, const std::string& why);
  // The feed test's outcome (FeedCheck), its lists moved out.
  v1::FeedCheck SummariseFeed(double threshold);
  void Repair(workflow::LearningApi& learning, const google::protobuf::RepeatedPtrField<v1::ClusterVerdict>& verdicts,
              v1::FeedCheck* feed);

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
  // The feed test (a request with a feed that could be read).
  std::optional<FeedTest> feed_;
  ObtainedFeed feed_source_;          // its bytes and URL (feed_ moved out)
  std::vector<bool> item_obtained_;   // by item: a page of the run was its entry page
  std::set<std::string> obtained_;    // URLs of the run's pages (supplied or fetched)
  std::vector<std::string> unchecked_;
  std::vector<std::string> unreachable_items_;
  std::vector<v1::Page> kept_;        // feed_repair: every page of the run
};

absl::StatusOr<std::unique_ptr<MonitorCall>> MonitorCall::Start(const store::RuleStore& store,
                                                                const MonitorEngineOptions& options,
                                                                const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(CheckFields(request));
  VERTEX_RETURN_IF_ERROR(CheckFeedMeans(request, options));
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
  if (HasFeed(request)) {
    VERTEX_ASSIGN_OR_RETURN(ObtainedFeed obtained, ObtainFeed(request, options.fetcher.get()));
    VERTEX_RETURN_IF_ERROR(call->StartFeed(std::move(obtained)));
  }
  return call;
}

// The feed test's state: the fields judged (InvalidArgument for a bad
// mapping), which clusters are list clusters.
absl::Status MonitorCall::StartFeed(ObtainedFeed obtained) {
  const std::map<std::string, std::string> mapping(request_fields_.feed_field_to_attribute().begin(),
                                                   request_fields_.feed_field_to_attribute().end());
  using FieldMap = std::map<std::string, std::string>;
  VERTEX_ASSIGN_OR_RETURN(const FieldMap fields, FeedFieldsToCheck(extractor_.schema(), mapping));
  if (obtained.feed.has_value()) {
    item_obtained_.assign(obtained.feed->items.size(), false);
    feed_.emplace(*std::move(obtained.feed), fields);
    obtained.feed.reset();
    auto title = fields.find("title");
    for (ClusterUnderTest& c : clusters_) c.list = title != fields.end() && IsListCluster(c.record, title->second);
  }
  feed_source_ = std::move(obtained);
  return absl::OkStatus();
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
    VERTEX_RETURN_IF_ERROR(AddPage(page, feed_.has_value() ? feed_->ItemOf(page.url()) : -1));
  }
  return absl::OkStatus();
}

void MonitorCall::Unchecked(int item, const std::string& url, const std::string& why) {
  if (item >= 0) unchecked_.push_back(url + ": " + why);
}

absl::Status MonitorCall::AddPage(const v1::Page& page, int item) {
  obtained_.insert(page.url());
  if (item >= 0) item_obtained_[static_cast<size_t>(item)] = true;
  if (request_fields_.feed_repair()) kept_.push_back(page);
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
      Unchecked(item, page.url(), "no cluster's URL regex matches it");
      return absl::OkStatus();
    }
  }
  const ParsedPage parsed = ParseForChecks(page.html(), page.url(), parser_);
  if (route.cluster == kNone) route = RouteByStructure(by_url, parsed);
  ClusterUnderTest& c = clusters_[route.cluster];
  if (!c.tested) {
    Unchecked(item, page.url(), "its cluster " + c.record.cluster_id() + " is not tested in this run");
    return absl::OkStatus();
  }
  VERTEX_ASSIGN_OR_RETURN(const std::vector<extract::AttributeResult> results, Check(route, page.url(), parsed));
  c.fresh_urls.push_back(page.url());
  if (feed_.has_value()) feed_->Judge(c.record.cluster_id(), page.url(), item, results, c.list);
  return absl::OkStatus();
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

absl::StatusOr<std::vector<extract::AttributeResult>> MonitorCall::Check(const Route& route, const std::string& url,
                                                                         const ParsedPage& parsed) {
  ClusterUnderTest& c = clusters_[route.cluster];
  v1::PageCheck* pc = c.verdict.add_checks();
  pc->set_routed_by(route.how);
  auto g = c.golden.find(url);
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results,
                          CheckParsedPage(*c.rule, parsed, url, g == c.golden.end() ? nullptr : g->second, pc, list_));
  if (!parsed.page.ok()) return results;
  const Agreement agreement = BestAgreement(c.signatures, parsed.vector);
  pc->set_agreement(static_cast<uint32_t>(agreement.bytes));
  if (std::string(route.how) != "nearest" || pc->covered()) return results;
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
  return results;
}

absl::Status MonitorCall::FetchBellwethers(fetch::Fetcher& fetcher) {
  for (size_t i = 0; i < clusters_.size(); ++i) {
    ClusterUnderTest& c = clusters_[i];
    if (!c.tested) continue;
    for (const std::string& url : c.record.bellwether_urls()) {
      absl::StatusOr<fetch::FetchResult> fetched = fetcher.Fetch(url);
      const int item = feed_.has_value() ? feed_->ItemOf(url) : -1;
      if (item >= 0) item_obtained_[static_cast<size_t>(item)] = true;
      obtained_.insert(url);
      if (!fetched.ok()) {
        v1::PageCheck* pc = c.verdict.add_checks();
        pc->set_url(url);
        pc->set_fetch_error(std::string(fetched.status().message()));
        pc->set_has_golden(c.golden.count(url) > 0);
        if (item >= 0) unreachable_items_.push_back(pc->fetch_error());
        continue;
      }
      VERTEX_ASSIGN_OR_RETURN(const std::vector<extract::AttributeResult> results,
                              Check(Route{i, "bellwether"}, url, ParseForChecks(fetched->body, url, parser_)));
      c.verdict.mutable_checks(c.verdict.checks_size() - 1)->set_http_status(static_cast<int32_t>(fetched->http_status));
      c.fresh_urls.push_back(url);
      if (feed_.has_value()) feed_->Judge(c.record.cluster_id(), url, item, results, c.list);
      if (request_fields_.feed_repair()) {
        v1::Page& kept = kept_.emplace_back();
        kept.set_url(url);
        kept.set_html(std::move(fetched->body));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status MonitorCall::FetchFeedEntries(fetch::Fetcher* fetcher, size_t max) {
  if (!feed_.has_value()) return absl::OkStatus();
  size_t fetches = 0;
  for (size_t i = 0; i < item_obtained_.size(); ++i) {
    const std::string& link = feed_->feed().items[i].link;
    if (item_obtained_[i] || link.empty() || obtained_.count(link) > 0) continue;
    if (fetcher == nullptr) {
      unreachable_items_.push_back(link + ": not among the pages, and this server fetches no page");
      continue;
    }
    if (fetches >= max) {
      unreachable_items_.push_back(absl::StrCat(link, ": not fetched (at most ", max, " entry pages per run)"));
      continue;
    }
    ++fetches;
    absl::StatusOr<fetch::FetchResult> fetched = fetcher->Fetch(link);
    if (!fetched.ok()) {
      unreachable_items_.push_back(std::string(fetched.status().message()));
      continue;
    }
    v1::Page page;
    page.set_url(link);
    page.set_html(std::move(fetched->body));
    VERTEX_RETURN_IF_ERROR(AddPage(page, static_cast<int>(i)));
  }
  return absl::OkStatus();
}

// feed_repair (monitor_engine.h): when a cluster is CHANGED or BROKEN, the
// run's pages become the sample (Relearn), then each such cluster's fresh
// pages are annotated from the feed and learnt (AnnotateFromFeed). Failures
// go to feed->repair_errors.
void MonitorCall::Repair(workflow::LearningApi& learning,
                         const google::protobuf::RepeatedPtrField<v1::ClusterVerdict>& verdicts, v1::FeedCheck* feed) {
  std::set<std::string> failing;  // CHANGED or BROKEN, the feed test included
  for (const v1::ClusterVerdict& v : verdicts) {
    if (v.verdict() == v1::ClusterVerdict::CHANGED || v.verdict() == v1::ClusterVerdict::BROKEN) {
      failing.insert(v.cluster_id());
    }
  }
  std::vector<const ClusterUnderTest*> failed;
  for (const ClusterUnderTest& c : clusters_) {
    if (c.tested && !c.fresh_urls.empty() && failing.count(c.record.cluster_id()) > 0) failed.push_back(&c);
  }
  if (failed.empty()) return;
  v1::RelearnRequest relearn;
  relearn.set_site(request_fields_.site());
  for (v1::Page& p : kept_) {
    if (!p.html().empty()) *relearn.add_pages() = std::move(p);
  }
  kept_.clear();
  absl::StatusOr<v1::RelearnResponse> relearnt = learning.Relearn(relearn);
  if (!relearnt.ok()) {
    feed->add_repair_errors("relearn: " + relearnt.status().ToString());
    return;
  }
  std::set<std::string> unused;  // pages Relearn could not use: not in the sample
  for (const v1::PageError& e : relearnt->errors()) unused.insert(e.url());
  *feed->mutable_relearn() = *std::move(relearnt);
  for (const ClusterUnderTest* c : failed) {
    v1::AnnotateFromFeedRequest request;
    request.set_site(request_fields_.site());
    request.set_feed_url(feed_source_.url);
    request.set_feed_xml(feed_source_.xml);
    for (const std::string& url : c->fresh_urls) {
      if (!unused.count(url)) request.add_page_urls(url);
    }
    *request.mutable_field_to_attribute() = request_fields_.feed_field_to_attribute();
    request.set_learn(true);
    // The cluster changed or broke: its current rule's attributes are no
    // guide to what the repaired one must have.
    request.set_allow_attribute_loss(true);
    absl::StatusOr<v1::AnnotateFromFeedResponse> annotated = learning.AnnotateFromFeed(request);
    if (!annotated.ok()) {
      feed->add_repair_errors(c->record.cluster_id() + ": " + annotated.status().ToString());
      continue;
    }
    feed->add_repaired_clusters(c->record.cluster_id());
    for (v1::FeedClusterLearn& learnt : *annotated->mutable_clusters()) *feed->add_repairs() = std::move(learnt);
  }
}

v1::FeedCheck MonitorCall::SummariseFeed(double threshold) {
  v1::FeedCheck feed;
  if (feed_.has_value()) feed = feed_->Summarise(threshold);
  feed.set_error(feed_source_.error);
  for (std::string& u : unreachable_items_) feed.add_unreachable(std::move(u));
  for (std::string& u : unchecked_) feed.add_unchecked(std::move(u));
  return feed;
}

absl::StatusOr<v1::MonitorResponse> MonitorCall::Finish(const MonitorEngineOptions& options) {
  const double threshold = request_fields_.threshold() > 0 ? request_fields_.threshold() : options.threshold;
  v1::MonitorResponse response;
  response.set_site(request_fields_.site());
  response.set_source(supplied() ? "supplied" : "fetched");
  response.set_unrouted_pages(unrouted_);
  v1::FeedCheck feed = SummariseFeed(threshold);
  std::map<std::string, const v1::ClusterFeedCheck*> feed_of;
  for (const v1::ClusterFeedCheck& c : feed.clusters()) feed_of[c.cluster_id()] = &c;
  v1::ClusterVerdict::Verdict site_verdict = v1::ClusterVerdict::NO_PAGES;
  for (ClusterUnderTest& c : clusters_) {
    if (!c.tested) continue;
    Judge(threshold, c.nearest, &c.verdict);
    if (auto f = feed_of.find(c.record.cluster_id()); f != feed_of.end()) ApplyFeedCheck(*f->second, threshold, &c.verdict);
    if (Severity(c.verdict.verdict()) > Severity(site_verdict)) site_verdict = c.verdict.verdict();
    *response.add_clusters() = std::move(c.verdict);
  }
  response.set_verdict(site_verdict);
  if (request_fields_.feed_repair() && feed_.has_value()) Repair(*options.learning, response.clusters(), &feed);
  if (HasFeed(request_fields_)) *response.mutable_feed() = std::move(feed);
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
  VERTEX_RETURN_IF_ERROR(call->FetchFeedEntries(options.fetcher.get(), options.max_feed_fetches));
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
