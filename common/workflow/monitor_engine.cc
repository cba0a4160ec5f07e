#include "common/workflow/monitor_engine.h"

#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/shingle/shingle.h"
#include "common/util/status_macros.h"
#include "common/workflow/site_store.h"

namespace vertex::workflow {
namespace {

constexpr int kMaxEvidence = 5;

absl::Status CheckRequest(const v1::MonitorRequest& request) {
  if (request.pages_size() == 0) {
    return absl::InvalidArgumentError("pages: no fresh page given; send fresh versions of the site's pages");
  }
  for (int i = 0; i < request.pages_size(); ++i) {
    if (request.pages(i).url().empty()) return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].url is empty"));
    if (request.pages(i).html().empty()) {
      return absl::InvalidArgumentError(absl::StrCat("pages[", i, "].html is empty"));
    }
  }
  if (request.threshold() < 0 || request.threshold() > 1) {
    return absl::InvalidArgumentError(absl::StrCat("threshold ", request.threshold(), " is outside [0, 1]"));
  }
  return absl::OkStatus();
}

// Why `page` fails its cluster's tests; empty when it passes.
absl::StatusOr<std::vector<std::string>> TestPage(const extract::CompiledRule& rule, const v1::Page& page,
                                                  html::Parser& parser, v1::ClusterVerdict* verdict) {
  shingle::Shingler shingler;
  absl::StatusOr<html::Page> parsed = parser.Parse(page.html(), page.url(), "", &shingler);
  if (!parsed.ok()) return std::vector<std::string>{"unparsable: " + std::string(parsed.status().message())};
  std::vector<std::string> why;
  if (!rule.signature().Covers(shingler.Finish())) {
    verdict->set_not_covered(verdict->not_covered() + 1);
    why.push_back("signature " + rule.signature().ToText() + " does not cover the page");
  }
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, rule.Apply(*parsed));
  std::vector<std::string> missing;
  for (size_t i = 0; i < results.size(); ++i) {
    if (rule.schema().attribute(i).mandatory() && results[i].values.empty()) missing.push_back(results[i].attribute);
  }
  if (!missing.empty()) {
    verdict->set_missing_mandatory(verdict->missing_mandatory() + 1);
    why.push_back("mandatory attribute(s) not extracted: " + absl::StrJoin(missing, ", "));
  }
  return why;
}

}  // namespace

MonitorEngine::MonitorEngine(const store::RuleStore* store, MonitorEngineOptions options)
    : store_(store), options_(options) {}

absl::StatusOr<v1::MonitorResponse> MonitorEngine::Monitor(const v1::MonitorRequest& request) {
  VERTEX_RETURN_IF_ERROR(CheckRequest(request));
  VERTEX_ASSIGN_OR_RETURN(extract::SiteExtractor extractor, LoadSiteExtractor(*store_, request.site()));
  const double threshold = request.threshold() > 0 ? request.threshold() : options_.threshold;
  const std::vector<extract::CompiledRule>& rules = extractor.rules();
  std::vector<v1::ClusterVerdict> verdicts(rules.size());
  std::vector<uint32_t> failing(rules.size(), 0);
  html::Parser parser(options_.parse);
  v1::MonitorResponse response;
  response.set_site(request.site());
  for (const v1::Page& page : request.pages()) {
    const std::vector<size_t> routes = extractor.MatchUrl(page.url());
    if (routes.empty()) {
      response.set_unrouted_pages(response.unrouted_pages() + 1);
      continue;
    }
    v1::ClusterVerdict& v = verdicts[routes[0]];
    v.set_pages(v.pages() + 1);
    VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> why, TestPage(rules[routes[0]], page, parser, &v));
    if (why.empty()) continue;
    ++failing[routes[0]];
    if (v.evidence_size() < kMaxEvidence) v.add_evidence(page.url() + ": " + absl::StrJoin(why, "; "));
  }
  response.set_verdict(v1::ClusterVerdict::OK);
  for (size_t i = 0; i < rules.size(); ++i) {
    v1::ClusterVerdict& v = verdicts[i];
    v.set_cluster_id(rules[i].proto().cluster_id());
    if (v.pages() == 0) {
      v.set_verdict(v1::ClusterVerdict::NO_PAGES);
    } else {
      const bool changed = static_cast<double>(failing[i]) / v.pages() > threshold;
      v.set_verdict(changed ? v1::ClusterVerdict::CHANGED : v1::ClusterVerdict::OK);
      if (changed) response.set_verdict(v1::ClusterVerdict::CHANGED);
    }
    *response.add_clusters() = std::move(v);
  }
  return response;
}

}  // namespace vertex::workflow
