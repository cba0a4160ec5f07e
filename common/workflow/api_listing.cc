#include "common/workflow/api_listing.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/util/status_macros.h"
#include "common/workflow/listing_eval.h"

namespace vertex::workflow {
namespace {

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

absl::StatusOr<ListingRunReport> RunListingSiteThroughApi(LearningApi& learning, ExtractionApi& extraction,
                                                          const std::string& site,
                                                          const schema::CompiledSchema& schema,
                                                          const std::vector<ClientPage>& pages,
                                                          const std::map<std::string, eval::ListTruthPage>& truth,
                                                          const ApiRunOptions& options) {
  ListingRunReport report;
  auto start = std::chrono::steady_clock::now();
  v1::RegisterSiteRequest reg;
  reg.set_site(site);
  *reg.mutable_schema() = schema.proto();
  if (options.settings) *reg.mutable_settings() = *options.settings;
  VERTEX_RETURN_IF_ERROR(learning.RegisterSite(reg).status());
  VERTEX_ASSIGN_OR_RETURN(report.sample, AddPages(learning, site, pages, options));
  for (const v1::ClusterSummary& c : report.sample.clusters()) {
    v1::LearnRequest learn;
    learn.set_site(site);
    learn.set_cluster_id(c.cluster_id());
    absl::StatusOr<v1::LearnResponse> r = learning.Learn(learn);
    // A cluster merged into another by rule transfer is gone.
    if (absl::IsNotFound(r.status())) continue;
    VERTEX_RETURN_IF_ERROR(r.status());
    if (r->version() > 0) ++report.clusters_with_rule;
    report.learnt[c.cluster_id()] = *std::move(r);
  }
  report.learn_seconds = SecondsSince(start);
  start = std::chrono::steady_clock::now();
  VERTEX_RETURN_IF_ERROR(ExtractPages(extraction, site, pages, options, &report.records));
  report.extract_seconds = SecondsSince(start);
  for (size_t i = 0; i < pages.size() && i < report.records.size(); ++i) {
    auto t = truth.find(pages[i].url);
    if (t == truth.end()) continue;
    report.scores += eval::ScoreListPage(PredictionOfResponse(report.records[i], schema), t->second);
  }
  return report;
}

std::string FormatListingReport(const std::string& site, const ListingRunReport& report) {
  size_t records = 0;
  for (const v1::ExtractResponse& r : report.records) records += r.records_size();
  std::string out = absl::StrFormat(
      "Site %s: %d pages, %d clusters, %d with a record rule learnt by AMBER (no annotation)\n", site,
      report.records.size(), report.sample.clusters_size(), report.clusters_with_rule);
  for (const auto& [cluster, learnt] : report.learnt) {
    if (learnt.version() == 0) {
      for (const v1::AttributeDiagnostic& d : learnt.diagnostics()) {
        if (d.attribute() == "__record") absl::StrAppend(&out, "  ", cluster, ": no rule: ", d.message(), "\n");
      }
    }
  }
  absl::StrAppend(&out, eval::FormatListScores(report.scores));
  absl::StrAppendFormat(&out, "Learnt in %.2f s; extracted %d records from %d pages in %.2f s (%.0f pages/s)\n",
                        report.learn_seconds, records, report.records.size(), report.extract_seconds,
                        report.extract_seconds > 0 ? report.records.size() / report.extract_seconds : 0.0);
  return out;
}

}  // namespace vertex::workflow
