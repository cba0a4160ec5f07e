// The list finder's cost per page (issue 14) against parsing the page, in
// the same run:
//   BM_Parse              html::Parser: bytes -> DOM (the baseline)
//   BM_Features           the 19 + 4 features of every element (features.h)
//   BM_FeaturesAndScore   features plus the CART tree on every element
//   BM_SuggestLists       SuggestLists end to end on the parsed page
//                         (features, scores, grouping, decoding)
// on the bench corpus (bench_pages.h: SWDE pages when present, else the
// generated demo site). The tree is learnt in main() from the corpus's
// first pages with every anchor inside a list item as a positive: a tree of
// the size training gives, not one picked to be cheap. After the run the
// ratios to BM_Parse are printed (medians of 5 interleaved repetitions).
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "bench/bench_pages.h"
#include "benchmark/benchmark.h"
#include "common/html/page.h"
#include "common/lists/cart.h"
#include "common/lists/features.h"
#include "common/lists/list_finder.h"

namespace vertex::bench {
namespace {

BenchCorpus* corpus = nullptr;
std::vector<html::Page>* pages = nullptr;
v1::ListModel* model = nullptr;

void BM_Parse(benchmark::State& state) {
  html::Parser parser;
  size_t i = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    absl::StatusOr<html::Page> page = parser.Parse(p.bytes, p.url);
    benchmark::DoNotOptimize(page);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Parse);

void BM_Features(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    lists::PageFeatures f = lists::ComputeFeatures((*pages)[i++ % pages->size()], lists::FeatureSet::kPaperAndMarkup);
    benchmark::DoNotOptimize(f);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Features);

void BM_FeaturesAndScore(benchmark::State& state) {
  absl::StatusOr<lists::CartModel> cart = lists::CartModel::Load(*model);
  if (!cart.ok()) {
    state.SkipWithError(cart.status().ToString().c_str());
    return;
  }
  size_t i = 0, positives = 0;
  for (auto _ : state) {
    const lists::PageFeatures f = lists::ComputeFeatures((*pages)[i++ % pages->size()], cart->feature_set());
    for (size_t e = 0; e < f.size(); ++e) positives += cart->Score(f, e) >= 0.5;
  }
  benchmark::DoNotOptimize(positives);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FeaturesAndScore);

void BM_SuggestLists(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<std::vector<v1::ListSuggestion>> s = lists::SuggestLists(*model, (*pages)[i++ % pages->size()]);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SuggestLists);

// Records each benchmark's real time per iteration to print ratios.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      const double s = r.GetAdjustedRealTime() * Scale(r.time_unit);
      if (r.run_type == Run::RT_Iteration && !medians_.count(r.run_name.function_name)) {
        seconds_[r.run_name.function_name] = s;
      } else if (r.run_type == Run::RT_Aggregate && r.aggregate_name == "median") {
        seconds_[r.run_name.function_name] = s;
        medians_.insert(r.run_name.function_name);
      }
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void PrintRatios() const {
    const auto get = [&](const std::string& n) {
      auto it = seconds_.find(n);
      return it == seconds_.end() ? 0.0 : it->second;
    };
    const double parse = get("BM_Parse");
    if (parse <= 0) return;
    std::printf("\nper page, relative to html::Parser parse (%.3f ms/page, %s; tree of %d nodes):\n", parse * 1e3,
                corpus->name.c_str(), model->nodes_size());
    for (const char* n : {"BM_Features", "BM_FeaturesAndScore", "BM_SuggestLists"}) {
      if (get(n) > 0) std::printf("  %-22s %.3f ms/page  ratio %.3f\n", n, get(n) * 1e3, get(n) / parse);
    }
  }

 private:
  static double Scale(benchmark::TimeUnit u) {
    switch (u) {
      case benchmark::kNanosecond: return 1e-9;
      case benchmark::kMicrosecond: return 1e-6;
      case benchmark::kMillisecond: return 1e-3;
      default: return 1.0;
    }
  }
  std::map<std::string, double> seconds_;
  std::set<std::string> medians_;
};

// Every anchor inside a list item, and those items.
std::vector<html::Node> AnchorsInItems(const html::Page& page) {
  std::vector<html::Node> out;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (n.tag() != "a") continue;
    for (html::Node a = n.parent(); a; a = a.parent()) {
      if (a.tag() == "li") {
        out.push_back(n);
        break;
      }
    }
  }
  return out;
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  using namespace vertex;
  bench::BenchCorpus corpus = bench::LoadBenchPages();
  bench::corpus = &corpus;
  std::vector<html::Page> parsed;
  html::Parser parser;
  for (const bench::BenchPage& p : corpus.pages) {
    absl::StatusOr<html::Page> page = parser.Parse(p.bytes, p.url);
    if (page.ok()) parsed.push_back(*std::move(page));
  }
  if (parsed.empty()) {
    std::fprintf(stderr, "list_finder_bench: no page of %s parses\n", corpus.name.c_str());
    return 1;
  }
  bench::pages = &parsed;
  std::vector<lists::LabelledPage> training;
  for (size_t i = 0; i < parsed.size() && training.size() < 20; ++i) {
    std::vector<html::Node> positives = bench::AnchorsInItems(parsed[i]);
    if (!positives.empty()) training.push_back({&parsed[i], std::move(positives), {}, corpus.pages[i].url});
  }
  if (training.empty()) training.push_back({&parsed[0], {parsed[0].root()}, {}, corpus.pages[0].url});
  absl::StatusOr<v1::ListModel> model = lists::TrainListModel(training);
  if (!model.ok()) {
    std::fprintf(stderr, "list_finder_bench: training: %s\n", model.status().ToString().c_str());
    return 1;
  }
  bench::model = &*model;

  std::vector<char*> args(argv, argv + argc);
  bool repetitions_given = false;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]).rfind("--benchmark_repetitions", 0) == 0) repetitions_given = true;
  }
  static char kRepetitions[] = "--benchmark_repetitions=5";
  static char kInterleave[] = "--benchmark_enable_random_interleaving=true";
  static char kAggregates[] = "--benchmark_report_aggregates_only=true";
  if (!repetitions_given) {
    args.push_back(kRepetitions);
    args.push_back(kInterleave);
    args.push_back(kAggregates);
  }
  argc = static_cast<int>(args.size());
  argv = args.data();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  benchmark::Shutdown();
  return 0;
}
