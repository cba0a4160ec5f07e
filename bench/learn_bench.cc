// Learning benchmark: learning one cluster's rule from 3 annotated and 20
// unannotated pages, every schema attribute annotated (SWDE booksamillion:
// 5 attributes; the generated demo site's product pages when the SWDE pages
// are absent or --demo is given). Target: <= 2 s.
//
// The site is clustered as `vertexctl eval-swde` does; on its main cluster
// (the most important), the first 3 pages of the annotation sample that the
// ground truth knows are annotated from it (workflow::AnnotateFromTruth, as
// the simulated editor does). Then, per run:
//   LearnCluster   workflow::LearnCluster: Algorithm 3 and the rest of rule
//                  learning for every attribute, plus the editor loop's
//                  check of the rule on the remaining sample pages;
//   LearnRule      learn::LearnRule alone on the same pages;
//   per attribute  learn::LearnRule given only that attribute's annotations.
// The first LearnCluster run also reads and parses the pages it looks at
// (PagePool) and is reported apart; the others are medians over --runs.
// Per attribute: what was learnt, Algorithm 3 feature sets evaluated and
// whether a level was cut at its candidate cap.
//
// Prints a table, then one line "JSON {...}" with the figures.
//
// Flags: --demo, --runs=N (default 5).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "bench/bench_site.h"
#include "common/eval/ground_truth.h"
#include "common/learn/rule_learner.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/simulated_editor.h"

namespace vertex::bench {
namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

constexpr size_t kMainCluster = 0;  // clusters are ranked by importance
constexpr size_t kAnnotatedPages = 3;
constexpr size_t kUnannotatedPages = 20;

// Annotations of the first kAnnotatedPages pages of the main cluster (its
// annotation sample first, then its other members) that the ground truth
// knows, with their pages (indices into clustering.pages).
absl::StatusOr<std::vector<learn::AttributeAnnotation>> Annotate(const BenchSite& site, workflow::PagePool& pool,
                                                                 std::vector<size_t>& pages) {
  const site::SiteCluster& c = site.clustering.clusters[kMainCluster];
  std::vector<size_t> candidates;
  for (const site::AnnotationPick& pick : c.annotation_sample) candidates.push_back(pick.page);
  candidates.insert(candidates.end(), c.pages.begin(), c.pages.end());
  std::vector<learn::AttributeAnnotation> out;
  for (size_t page : candidates) {
    if (pages.size() == kAnnotatedPages) break;
    if (std::find(pages.begin(), pages.end(), page) != pages.end()) continue;
    VERTEX_ASSIGN_OR_RETURN(const html::Page* parsed, pool.Page(page));
    std::vector<learn::AttributeAnnotation> mine =
        workflow::AnnotateFromTruth(*site.schema, site.truth, site.clustering.pages[page].file, page, *parsed);
    if (mine.empty()) continue;
    pages.push_back(page);
    out.insert(out.end(), mine.begin(), mine.end());
  }
  if (pages.size() < kAnnotatedPages) {
    return absl::FailedPreconditionError(absl::StrCat("the ground truth knows only ", pages.size(),
                                                      " pages of the main cluster"));
  }
  return out;
}

// The input LearnCluster gives LearnRule: its learning pages, annotated
// first, and the annotations with page indices into them.
absl::StatusOr<learn::RuleLearnInput> RuleInput(const workflow::ClusterLearnResult& result,
                                                const std::vector<learn::AttributeAnnotation>& annotations,
                                                workflow::PagePool& pool) {
  learn::RuleLearnInput input;
  for (size_t index : result.learning_pages) {
    VERTEX_ASSIGN_OR_RETURN(const html::Page* page, pool.Page(index));
    input.pages.push_back(page);
  }
  for (learn::AttributeAnnotation a : annotations) {
    a.page = std::find(result.learning_pages.begin(), result.learning_pages.end(), a.page) -
             result.learning_pages.begin();
    input.annotations.push_back(std::move(a));
  }
  return input;
}

// `input` with only the annotations of `attribute`.
learn::RuleLearnInput OnlyAttribute(const learn::RuleLearnInput& input, const std::string& attribute) {
  learn::RuleLearnInput out;
  out.pages = input.pages;
  for (const learn::AttributeAnnotation& a : input.annotations) {
    if (a.attribute == attribute) out.annotations.push_back(a);
  }
  return out;
}

struct Timings {
  double cold = 0;                   // first LearnCluster, parsing included
  std::vector<double> cluster;       // LearnCluster per run
  std::vector<double> rule;          // LearnRule per run
  std::vector<std::vector<double>> attribute;  // by schema index, per run
  workflow::ClusterLearnResult result;         // of the last LearnCluster
  size_t learning_pages = 0;
};

absl::Status TimeRuns(const BenchSite& site, const std::vector<learn::AttributeAnnotation>& annotations,
                      workflow::PagePool& pool, int runs, Timings& t) {
  workflow::ClusterLearnOptions options;
  options.unannotated_pages = kUnannotatedPages;
  auto start = Clock::now();
  VERTEX_ASSIGN_OR_RETURN(t.result, workflow::LearnCluster(*site.schema, site.clustering, kMainCluster, annotations,
                                                           pool, options));
  t.cold = Since(start);
  t.learning_pages = t.result.learning_pages.size();
  VERTEX_ASSIGN_OR_RETURN(const learn::RuleLearnInput input, RuleInput(t.result, annotations, pool));
  t.attribute.resize(site.schema->size());
  for (int r = 0; r < runs; ++r) {
    start = Clock::now();
    VERTEX_ASSIGN_OR_RETURN(t.result, workflow::LearnCluster(*site.schema, site.clustering, kMainCluster,
                                                             annotations, pool, options));
    t.cluster.push_back(Since(start));
    start = Clock::now();
    VERTEX_RETURN_IF_ERROR(learn::LearnRule(*site.schema, input, options.learn).status());
    t.rule.push_back(Since(start));
    for (size_t a = 0; a < site.schema->size(); ++a) {
      const learn::RuleLearnInput one = OnlyAttribute(input, site.schema->attribute(a).name());
      start = Clock::now();
      VERTEX_RETURN_IF_ERROR(learn::LearnRule(*site.schema, one, options.learn).status());
      t.attribute[a].push_back(Since(start));
    }
    std::fprintf(stderr, "  run %d/%d done\n", r + 1, runs);
  }
  return absl::OkStatus();
}

void PrintTable(const BenchSite& site, const std::vector<size_t>& annotated, const Timings& t) {
  const site::SiteCluster& c = site.clustering.clusters[kMainCluster];
  std::printf("main cluster c%zu: %zu pages; annotated:", c.id, c.pages.size());
  for (size_t p : annotated) std::printf(" %s", eval::PageIdOfFile(site.clustering.pages[p].file).c_str());
  std::printf("; learning looked at %zu pages (%zu annotated + %zu unannotated)\n", t.learning_pages,
              annotated.size(), t.learning_pages - annotated.size());
  const double cluster = Median(t.cluster);
  std::printf("\n%-44s %8.3f s  (target <= 2 s: %s; min %.3f, max %.3f over %zu runs)\n", "LearnCluster (median)",
              cluster, cluster <= 2.0 ? "met" : "MISSED", *std::min_element(t.cluster.begin(), t.cluster.end()),
              *std::max_element(t.cluster.begin(), t.cluster.end()), t.cluster.size());
  std::printf("%-44s %8.3f s\n", "first LearnCluster (parses its pages)", t.cold);
  std::printf("%-44s %8.3f s\n", "LearnRule alone (median)", Median(t.rule));
  std::printf("\n  %-18s %9s %-18s %9s %7s  %s\n", "attribute", "seconds", "outcome", "sets", "cap hit", "rule");
  const std::vector<learn::AttributeDiagnostic>& diags = t.result.learnt.diagnostics;
  for (size_t a = 0; a < site.schema->size() && a < diags.size(); ++a) {
    const learn::AttributeDiagnostic& d = diags[a];
    std::printf("  %-18s %9.3f %-18s %9zu %7s  %s\n", d.attribute.c_str(), Median(t.attribute[a]),
                learn::DiagnosticCodeName(d.code), d.sets_evaluated, d.cap_hit ? "YES" : "no", d.message.c_str());
  }
}

std::string ReportJson(const BenchSite& site, const Timings& t) {
  util::JsonWriter w;
  w.BeginObject().Key("bench").String("learn").Key("corpus").String(site.name);
  w.Key("annotated_pages").Uint(kAnnotatedPages).Key("learning_pages").Uint(t.learning_pages);
  w.Key("runs").Uint(t.cluster.size()).Key("learn_cluster_s").Double(Median(t.cluster));
  w.Key("target_s").Double(2.0).Key("first_learn_cluster_s").Double(t.cold);
  w.Key("learn_rule_s").Double(Median(t.rule)).Key("attributes").BeginObject();
  const std::vector<learn::AttributeDiagnostic>& diags = t.result.learnt.diagnostics;
  for (size_t a = 0; a < site.schema->size() && a < diags.size(); ++a) {
    w.Key(diags[a].attribute).BeginObject().Key("s").Double(Median(t.attribute[a]));
    w.Key("outcome").String(learn::DiagnosticCodeName(diags[a].code));
    w.Key("sets_evaluated").Uint(diags[a].sets_evaluated).Key("cap_hit").Bool(diags[a].cap_hit).EndObject();
  }
  w.EndObject().EndObject();
  return w.Release();
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(auto flags, ParseBenchFlags(argc, argv, {"demo", "runs"}));
  VERTEX_ASSIGN_OR_RETURN(const int runs, PositiveFlag(flags, "runs", 5));
  VERTEX_ASSIGN_OR_RETURN(const BenchSite site, LoadBenchSite(flags.count("demo") > 0));
  if (site.clustering.clusters.empty()) return absl::FailedPreconditionError("no cluster on " + site.name);
  workflow::PagePool pool(site.clustering, site.options.parse);
  std::vector<size_t> annotated;
  VERTEX_ASSIGN_OR_RETURN(const std::vector<learn::AttributeAnnotation> annotations,
                          Annotate(site, pool, annotated));
  Timings t;
  VERTEX_RETURN_IF_ERROR(TimeRuns(site, annotations, pool, runs, t));
  std::printf("corpus: %s\n", site.name.c_str());
  PrintTable(site, annotated, t);
  std::printf("JSON %s\n", ReportJson(site, t).c_str());
  return absl::OkStatus();
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  const absl::Status status = vertex::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "learn_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
