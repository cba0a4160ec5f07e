#include "common/monitor/monitor_engine.h"

#include <chrono>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/store/keys.h"
#include "common/util/status_macros.h"
#include "common/monitor/rule_checks.h"
#include "common/workflow/site_store.h"

namespace vertex::monitor {
namespace {

constexpr int kMaxEvidence = 5;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

absl::Status CheckRequest(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(store::ValidateId("site", request.site()));
  std::set<std::string> urls;
  for (int i = 0; i < request.pages_size(); ++i) {
    if (request.pages(i).url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
    if (request.pages(i).html().empty()) {
      return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].html is empty"));
    }
    if (!urls.insert(request.pages(i).url()).second) {
      return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url repeats ", request.pages(i).url()));
    }
  }
  if (!(request.threshold() >= 0 && request.threshold() <= 1)) {
    return absl::InvalidArgumentError(absl::StrCat("threshold ", request.threshold(), " is outside [0, 1]"));
  }
  return absl::OkStatus();
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

// One line naming what failed on the page; empty when it passed.
std::string Evidence(const v1::PageCheck& c) {
  std::vector<std::string> why;
  if (!c.fetch_error().empty()) why.push_back("not fetched: " + c.fetch_error());
  if (!c.parse_error().empty()) why.push_back("unparsable: " + c.parse_error());
  if (c.fetch_error().empty() && c.parse_error().empty() && !c.covered()) {
    why.push_back("the signature does not cover the page");
  }
  if (c.missing_mandatory_size() > 0) {
    why.push_back("mandatory not extracted: " + absl::StrJoin(c.missing_mandatory(), ", "));
  }
  for (const v1::AttributeChange& a : c.changed_constants()) {
    why.push_back(absl::StrCat(a.attribute(), " was \"", absl::StrJoin(a.golden(), " | "), "\", now \"",
                               absl::StrJoin(a.fresh(), " | "), "\""));
  }
  return why.empty() ? "" : c.url() + ": " + absl::StrJoin(why, "; ");
}

// The verdict of a cluster from its checks.
void Judge(double threshold, v1::ClusterVerdict* v) {
  uint32_t tested = 0, not_covered = 0, field_failed = 0, missing = 0, changed = 0, unreachable = 0;
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
    const std::string e = Evidence(c);
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
    v->set_reason(absl::StrCat("field test failed on ", field_failed, suffix, ": ", missing,
                               " missing a mandatory attribute, ", changed, " with a changed constant", unfetched));
  } else {
    v->set_verdict(v1::ClusterVerdict::OK);
    v->set_reason(absl::StrCat("shingle test failed on ", not_covered, ", field test on ", field_failed, suffix,
                               unfetched));
  }
}

struct ClusterUnderTest {
  v1::ClusterRecord record;
  const extract::CompiledRule* rule = nullptr;
  std::map<std::string, const v1::GoldenExtraction*> golden;
  v1::ClusterVerdict verdict;
};

}  // namespace

MonitorEngine::MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options)
    : store_(store), options_(std::move(options)) {}

absl::StatusOr<v1::MonitorResponse> MonitorEngine::Monitor(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(CheckRequest(request));
  const int64_t started = NowMs();
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> records, store_->ClustersOfSite(request.site()));
  for (const std::string& id : request.cluster_ids()) {
    bool known = false;
    for (const v1::ClusterRecord& r : records) known = known || r.cluster_id() == id;
    if (!known) return absl::NotFoundError("cluster \"" + id + "\" of site \"" + request.site() + "\" not found");
  }
  VERTEX_ASSIGN_OR_RETURN(extract::SiteExtractor extractor, workflow::LoadSiteExtractor(*store_, request.site()));
  const bool supplied = request.pages_size() > 0;
  if (!supplied && options_.fetcher == nullptr) {
    return absl::FailedPreconditionError(
        "no fresh page given and this server fetches no page (no fetcher configured): supply the pages");
  }
  const double threshold = request.threshold() > 0 ? request.threshold() : options_.threshold;
  const std::set<std::string> only(request.cluster_ids().begin(), request.cluster_ids().end());

  // The clusters under test, by their index in extractor.rules().
  std::map<std::string, v1::ClusterRecord> by_id;
  for (v1::ClusterRecord& r : records) by_id[r.cluster_id()] = std::move(r);
  std::vector<ClusterUnderTest> clusters(extractor.rules().size());
  std::map<std::string, size_t> bellwether_of;  // URL -> index in clusters
  for (size_t i = 0; i < clusters.size(); ++i) {
    ClusterUnderTest& c = clusters[i];
    c.rule = &extractor.rules()[i];
    c.record = by_id[c.rule->proto().cluster_id()];
    c.verdict.set_cluster_id(c.record.cluster_id());
    c.verdict.set_rule_version(c.rule->proto().version());
    for (const v1::GoldenExtraction& g : c.record.golden()) c.golden[g.url()] = &g;
    if (!only.empty() && !only.count(c.record.cluster_id())) continue;
    for (const std::string& url : c.record.bellwether_urls()) bellwether_of.emplace(url, i);
    if (c.record.bellwether_urls().empty()) {
      c.verdict.set_reason("no bellwether URL stored (the rule predates monitoring: learn it again to choose them)");
    }
  }

  html::Parser parser(options_.parse);
  v1::MonitorResponse response;
  response.set_site(request.site());
  response.set_source(supplied ? "supplied" : "fetched");
  auto check = [&](ClusterUnderTest& c, const std::string& url, std::string_view html) -> absl::Status {
    v1::PageCheck* pc = c.verdict.add_checks();
    auto g = c.golden.find(url);
    return CheckPage(*c.rule, html, url, g == c.golden.end() ? nullptr : g->second, parser, pc).status();
  };
  if (supplied) {
    for (const v1::Page& page : request.pages()) {
      auto b = bellwether_of.find(page.url());
      size_t target;
      if (b != bellwether_of.end()) {
        target = b->second;
      } else {
        const std::vector<size_t> routes = extractor.MatchUrl(page.url());
        if (routes.empty()) {
          response.set_unrouted_pages(response.unrouted_pages() + 1);
          continue;
        }
        target = routes[0];
        if (!only.empty() && !only.count(clusters[target].record.cluster_id())) continue;
      }
      VERTEX_RETURN_IF_ERROR(check(clusters[target], page.url(), page.html()));
    }
  } else {
    for (ClusterUnderTest& c : clusters) {
      if (!only.empty() && !only.count(c.record.cluster_id())) continue;
      for (const std::string& url : c.record.bellwether_urls()) {
        absl::StatusOr<fetch::FetchResult> fetched = options_.fetcher->Fetch(url);
        if (!fetched.ok()) {
          v1::PageCheck* pc = c.verdict.add_checks();
          pc->set_url(url);
          pc->set_fetch_error(std::string(fetched.status().message()));
          pc->set_has_golden(c.golden.count(url) > 0);
          continue;
        }
        VERTEX_RETURN_IF_ERROR(check(c, url, fetched->body));
        c.verdict.mutable_checks(c.verdict.checks_size() - 1)->set_http_status(static_cast<int32_t>(fetched->http_status));
      }
    }
  }

  v1::ClusterVerdict::Verdict site_verdict = v1::ClusterVerdict::NO_PAGES;
  for (ClusterUnderTest& c : clusters) {
    if (!only.empty() && !only.count(c.record.cluster_id())) continue;
    Judge(threshold, &c.verdict);
    if (Severity(c.verdict.verdict()) > Severity(site_verdict)) site_verdict = c.verdict.verdict();
    *response.add_clusters() = std::move(c.verdict);
  }
  response.set_verdict(site_verdict);
  response.set_started_unix_ms(started);
  response.set_elapsed_ms(NowMs() - started);

  if (request.dry_run()) {
    response.set_not_recorded_reason("dry run");
  } else if (options_.record == nullptr) {
    response.set_not_recorded_reason("this server keeps no history (no store writer configured)");
  } else {
    v1::MonitorRun run;
    run.set_site(response.site());
    run.set_started_unix_ms(started);
    run.set_elapsed_ms(response.elapsed_ms());
    run.set_source(response.source());
    run.set_threshold(threshold);
    run.set_verdict(response.verdict());
    *run.mutable_clusters() = response.clusters();
    run.set_unrouted_pages(response.unrouted_pages());
    const absl::Status recorded = options_.record(run);
    response.set_recorded(recorded.ok());
    if (!recorded.ok()) response.set_not_recorded_reason("storing the run failed: " + recorded.ToString());
  }
  return response;
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
