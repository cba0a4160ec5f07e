// Monitoring benchmark: the time of one Monitor call on a site of 20
// clusters x 20 bellwether pages, the pages supplied in the request (no
// fetching), against parsing the same pages alone in the same run.
//
// Setup: the versioned synthetic site (common/demo/versioned_site.h) with
// --templates templates of --pages pages each is learnt in process by the
// simulated editor (as the quick start does) with --bellwethers per
// cluster, into an in-memory store. Then, in rounds and alternated:
//   parse    html::Parser::Parse with the shingle sink on every page
//   monitor  MonitorEngine::Monitor with every page of a new content epoch
//            supplied (each page: parse, shingle test, rule, field test)
// and the same with one template restyled (its cluster CHANGED).
// Reported: medians over the rounds of ms per call and the ratio
// monitor / parse, then one line "JSON {...}".
//
// Flags: --templates=N (20), --pages=N (20), --bellwethers=N (20),
// --rounds=N (7).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/demo/versioned_site.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/monitor/monitor_engine.h"
#include "common/shingle/shingle.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "google/protobuf/util/json_util.h"

namespace vertex::bench {
namespace {

using Clock = std::chrono::steady_clock;

int Flag(int argc, char** argv, const char* name, int fallback) {
  const std::string prefix = std::string("--") + name + "=";
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], prefix.c_str(), prefix.size()) == 0) return std::atoi(argv[i] + prefix.size());
  }
  return fallback;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

double Ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

int Run(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--help") == 0) {
      std::printf("usage: monitor_bench [--templates=N] [--pages=N] [--bellwethers=N] [--rounds=N]\n");
      return 0;
    }
  }
  const int templates = Flag(argc, argv, "templates", 20);
  const int pages_per_template = Flag(argc, argv, "pages", 20);
  const int bellwethers = Flag(argc, argv, "bellwethers", 20);
  const int rounds = std::max(1, Flag(argc, argv, "rounds", 7));

  demo::VersionedSiteOptions site;
  site.templates = templates;
  site.pages_per_template = pages_per_template;
  const std::vector<demo::VersionedPage> v1 = demo::GenerateVersionedSite(site);

  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  workflow::LearningEngineOptions learn_options;
  learn_options.bellwethers = static_cast<size_t>(bellwethers);
  workflow::LearningEngine learning(store.get(), learn_options);
  workflow::ExtractionEngine extraction(store.get(), workflow::ExtractionEngineOptions());
  std::vector<workflow::ClientPage> client;
  eval::GroundTruth truth;
  for (size_t i = 0; i < v1.size(); ++i) {
    const std::string id = "p" + std::to_string(i);
    client.push_back({id + ".htm", v1[i].url, v1[i].html});
    for (const auto& [attribute, values] : v1[i].truth) truth.pages[id][attribute] = values;
  }
  v1::Schema schema_proto;
  if (!google::protobuf::util::JsonStringToMessage(demo::VersionedSiteSchemaJson(), &schema_proto).ok()) return 1;
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(schema_proto);
  if (!schema.ok()) return 1;
  const Clock::time_point learn_start = Clock::now();
  absl::StatusOr<workflow::ApiRunReport> report =
      workflow::RunSiteThroughApi(learning, extraction, "shop", *schema, client, truth);
  if (!report.ok()) {
    std::fprintf(stderr, "monitor_bench: learning failed: %s\n", report.status().ToString().c_str());
    return 1;
  }
  size_t bellwether_pages = 0;
  for (const v1::ClusterRecord& c : store->ClustersOfSite("shop").value()) bellwether_pages += c.bellwether_urls_size();
  std::printf("site: %d templates x %d pages; %zu clusters with a rule, %zu bellwether pages; learnt in %.1f s\n",
              templates, pages_per_template, report->clusters_with_rule, bellwether_pages,
              Ms(Clock::now() - learn_start) / 1000);

  monitor::MonitorEngine engine(store.get(), monitor::MonitorEngineOptions());
  auto request_of = [&](const demo::VersionedSiteOptions& o) {
    v1::MonitorRequest request;
    request.set_site("shop");
    request.set_dry_run(true);
    for (const demo::VersionedPage& p : demo::GenerateVersionedSite(o)) {
      v1::Page* page = request.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    return request;
  };
  demo::VersionedSiteOptions fresh = site;
  fresh.epoch = 1;
  demo::VersionedSiteOptions restyled = fresh;
  restyled.restyled = {0};
  const v1::MonitorRequest unchanged_request = request_of(fresh);
  const v1::MonitorRequest changed_request = request_of(restyled);

  std::vector<double> parse_ms, unchanged_ms, changed_ms;
  std::string unchanged_verdict, changed_verdict;
  size_t changed_clusters = 0;
  html::Parser parser{html::ParseOptions{}};
  for (int r = 0; r < rounds; ++r) {
    Clock::time_point t = Clock::now();
    for (const v1::Page& p : unchanged_request.pages()) {
      shingle::Shingler shingler;
      absl::StatusOr<html::Page> page = parser.Parse(p.html(), p.url(), "", &shingler);
      if (!page.ok()) return 1;
      shingler.Finish();
    }
    parse_ms.push_back(Ms(Clock::now() - t));
    t = Clock::now();
    absl::StatusOr<v1::MonitorResponse> a = engine.Monitor(unchanged_request);
    unchanged_ms.push_back(Ms(Clock::now() - t));
    t = Clock::now();
    absl::StatusOr<v1::MonitorResponse> b = engine.Monitor(changed_request);
    changed_ms.push_back(Ms(Clock::now() - t));
    if (!a.ok() || !b.ok()) {
      std::fprintf(stderr, "monitor_bench: %s\n", (a.ok() ? b.status() : a.status()).ToString().c_str());
      return 1;
    }
    unchanged_verdict = v1::ClusterVerdict::Verdict_Name(a->verdict());
    changed_verdict = v1::ClusterVerdict::Verdict_Name(b->verdict());
    changed_clusters = 0;
    for (const v1::ClusterVerdict& c : b->clusters()) changed_clusters += c.verdict() != v1::ClusterVerdict::OK;
  }
  const double parse = Median(parse_ms), unchanged = Median(unchanged_ms), changed = Median(changed_ms);
  const int pages = unchanged_request.pages_size();
  std::printf("%-34s %10s %12s %10s\n", "median over rounds", "ms/call", "ms/page", "/ parse");
  std::printf("%-34s %10.1f %12.2f %10.2f\n", "parse + shingle (every page)", parse, parse / pages, 1.0);
  std::printf("%-34s %10.1f %12.2f %10.2f   verdict %s\n", "Monitor, new content", unchanged, unchanged / pages,
              unchanged / parse, unchanged_verdict.c_str());
  std::printf("%-34s %10.1f %12.2f %10.2f   verdict %s (%zu cluster(s) not OK)\n", "Monitor, template 0 restyled",
              changed, changed / pages, changed / parse, changed_verdict.c_str(), changed_clusters);
  std::printf(
      "JSON {\"templates\":%d,\"pages\":%d,\"bellwether_pages\":%zu,\"parse_ms\":%.2f,\"monitor_ms\":%.2f,"
      "\"monitor_changed_ms\":%.2f,\"ratio\":%.3f,\"ratio_changed\":%.3f}\n",
      templates, pages, bellwether_pages, parse, unchanged, changed, unchanged / parse, changed / parse);
  return 0;
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) { return vertex::bench::Run(argc, argv); }
