// Page-model and clustering benchmarks (issue: foundation).
//
// Per page, on the same corpus and in the same run:
//   GumboParse          Gumbo alone (arena allocator, as the engine runs it)
//   GumboParseMalloc    Gumbo alone with malloc/free (Gumbo's default)
//   ParseDom            bytes -> UTF-8 -> nesting scan -> Gumbo -> libxml2 mirror
//   ParseDomShingle     the same plus the shingle vector from the same walk
//   ParseDomXPath       ParseDom plus one compiled XPath evaluation
// and Algorithm 1 on 20,000 vectors. After the run, the ratios to
// GumboParse are printed, then a paired measurement (the variants timed back
// to back on each page), which resolves small differences on a noisy shared
// machine far better than benchmarks run one after another. Targets: DOM +
// shingle <= 1.25 x Gumbo alone, clustering 20,000 vectors <= 0.5 s.
#include <gumbo.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <set>
#include <vector>
#include <string>

#include "bench/bench_pages.h"
#include "bench/hand_xpaths.h"
#include "benchmark/benchmark.h"
#include "common/cluster/cluster.h"
#include "common/html/arena.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/shingle/shingle.h"
#include "common/util/random.h"

namespace vertex::bench {
namespace {

BenchCorpus* corpus = nullptr;

void SetPerPage(benchmark::State& state, size_t bytes) {
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

void BM_GumboParse(benchmark::State& state) {
  html::Arena arena;
  const GumboOptions options = html::GumboOptionsFor(&arena);
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    GumboOutput* out = gumbo_parse_with_options(&options, p.bytes.data(), p.bytes.size());
    benchmark::DoNotOptimize(out);
    arena.Reset();
    bytes += p.bytes.size();
  }
  SetPerPage(state, bytes);
}
BENCHMARK(BM_GumboParse);

void BM_GumboParseMalloc(benchmark::State& state) {
  size_t i = 0, bytes = 0;
  GumboOptions options = kGumboDefaultOptions;
  options.max_errors = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    GumboOutput* out = gumbo_parse_with_options(&options, p.bytes.data(), p.bytes.size());
    gumbo_destroy_output(&options, out);
    bytes += p.bytes.size();
  }
  SetPerPage(state, bytes);
}
BENCHMARK(BM_GumboParseMalloc);

void BM_ParseDom(benchmark::State& state) {
  html::Parser parser;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    absl::StatusOr<html::Page> page = parser.Parse(p.bytes, p.url);
    benchmark::DoNotOptimize(page);
    bytes += p.bytes.size();
  }
  SetPerPage(state, bytes);
}
BENCHMARK(BM_ParseDom);

void BM_ParseDomShingle(benchmark::State& state) {
  html::Parser parser;
  shingle::Shingler shingler;
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    absl::StatusOr<html::Page> page = parser.Parse(p.bytes, p.url, "", &shingler);
    benchmark::DoNotOptimize(shingler.Finish());
    bytes += p.bytes.size();
  }
  SetPerPage(state, bytes);
}
BENCHMARK(BM_ParseDomShingle);

void BM_ParseDomXPath(benchmark::State& state) {
  html::Parser parser;
  const html::XPath xpath = html::XPath::Compile("//h1[1]").value();
  size_t i = 0, bytes = 0;
  for (auto _ : state) {
    const BenchPage& p = corpus->pages[i++ % corpus->pages.size()];
    absl::StatusOr<html::Page> page = parser.Parse(p.bytes, p.url);
    benchmark::DoNotOptimize(xpath.Select(*page));
    bytes += p.bytes.size();
  }
  SetPerPage(state, bytes);
}
BENCHMARK(BM_ParseDomXPath);

// 20,000 vectors shaped like a real crawl sample: the corpus's own vectors,
// each copy with 0-2 bytes perturbed (optional sections), plus 5% noise.
std::vector<shingle::ShingleVector> ClusterInput() {
  std::vector<shingle::ShingleVector> real;
  html::Parser parser;
  shingle::Shingler shingler;
  for (size_t i = 0; i < corpus->pages.size() && i < 2000; ++i) {
    if (parser.Parse(corpus->pages[i].bytes, corpus->pages[i].url, "", &shingler).ok()) {
      real.push_back(shingler.Finish());
    }
  }
  util::Rng rng(42);
  std::vector<shingle::ShingleVector> out;
  while (out.size() < 20000) {
    shingle::ShingleVector v = real[rng.Uniform(real.size())];
    if (rng.Bernoulli(0.05)) {
      for (auto& b : v) b = static_cast<uint8_t>(rng.Uniform(256));
    } else {
      for (int k = static_cast<int>(rng.Uniform(3)); k > 0; --k) v[rng.Uniform(8)] = static_cast<uint8_t>(rng.Uniform(256));
    }
    out.push_back(v);
  }
  return out;
}

void BM_Cluster20k(benchmark::State& state) {
  static const std::vector<shingle::ShingleVector> vectors = ClusterInput();
  size_t clusters = 0;
  for (auto _ : state) {
    cluster::Clustering c = cluster::ClusterVectors(vectors);
    clusters = c.clusters.size();
    benchmark::DoNotOptimize(c);
  }
  state.counters["clusters"] = static_cast<double>(clusters);
}
BENCHMARK(BM_Cluster20k)->Unit(benchmark::kMillisecond);

// Paired measurement: for every page, back to back (in rotating order) so
// that a slowdown of the shared machine hits all alike: Gumbo alone, parse +
// DOM and parse + DOM + shingle (the Gumbo builder), the libxml2 builder +
// shingle, libxml2's HTML parse alone with lxml's options and the same plus
// five hand-written XPaths (bench/hand_xpaths.h). Prints the medians over
// rounds of ms/page and of the per-round time ratios to Gumbo alone and to
// "libxml2 parse + 5 XPaths".
enum Paired { kPGumbo, kPDom, kPShingle, kPLibxmlBuilder, kPLibxml, kPHand, kPairedCount };
constexpr const char* kPairedNames[kPairedCount] = {
    "Gumbo alone",       "gumbo: parse + DOM",           "gumbo: parse + DOM + shingle",
    "libxml2 builder: parse + DOM + shingle", "libxml2 parse alone (lxml)", "libxml2 parse + 5 hand XPaths"};

void PairedRatios(int rounds) {
  html::Arena arena;
  const GumboOptions options = html::GumboOptionsFor(&arena);
  html::Parser parser({.builder = html::PageBuilder::kGumbo});  // the "gumbo:" rows
  html::Parser libxml_parser({.builder = html::PageBuilder::kLibxml2});
  shingle::Shingler shingler;
  const HandXPaths hand = HandXPaths::Create(corpus->name.find("booksamillion") == std::string::npos).value();
  using Clock = std::chrono::steady_clock;
  std::vector<double> ms[kPairedCount], over_gumbo[kPairedCount], over_hand[kPairedCount];
  for (int r = 0; r < rounds; ++r) {
    double t[kPairedCount] = {};
    for (size_t i = 0; i < corpus->pages.size(); ++i) {
      const BenchPage& p = corpus->pages[i];
      for (int k = 0; k < kPairedCount; ++k) {
        const int variant = static_cast<int>((i + k) % kPairedCount);
        const auto start = Clock::now();
        if (variant == kPGumbo) {
          benchmark::DoNotOptimize(gumbo_parse_with_options(&options, p.bytes.data(), p.bytes.size()));
          arena.Reset();
        } else if (variant == kPLibxml) {
          benchmark::DoNotOptimize(HandXPaths::Parse(p.bytes));
        } else if (variant == kPHand) {
          benchmark::DoNotOptimize(hand.Run(p.bytes));
        } else {
          const bool sink = variant != kPDom;
          absl::StatusOr<html::Page> page = (variant == kPLibxmlBuilder ? libxml_parser : parser)
                                                .Parse(p.bytes, p.url, "", sink ? &shingler : nullptr);
          benchmark::DoNotOptimize(page);
          if (sink) benchmark::DoNotOptimize(shingler.Finish());
        }
        t[variant] += std::chrono::duration<double>(Clock::now() - start).count();
      }
    }
    for (int v = 0; v < kPairedCount; ++v) {
      ms[v].push_back(t[v] / corpus->pages.size() * 1e3);
      over_gumbo[v].push_back(t[v] / t[kPGumbo]);
      over_hand[v].push_back(t[v] / t[kPHand]);
    }
  }
  const auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  std::printf("\npaired, %d rounds over %zu pages, medians of rounds:\n", rounds, corpus->pages.size());
  std::printf("  %-40s %9s %9s %9s\n", "", "ms/page", "x Gumbo", "x hand");
  for (int v = 0; v < kPairedCount; ++v) {
    std::printf("  %-40s %9.3f %9.3f %9.3f%s\n", kPairedNames[v], median(ms[v]), median(over_gumbo[v]),
                median(over_hand[v]), v == kPShingle ? "  (target <= 1.25 x Gumbo)" : "");
  }
}

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
    const double parse = get("BM_GumboParse");
    if (parse <= 0) return;
    std::printf("\n(medians when repeated) per page, relative to Gumbo parse alone (%.3f ms/page, %s):\n", parse * 1e3,
                corpus->name.c_str());
    for (const char* n : {"BM_GumboParseMalloc", "BM_ParseDom", "BM_ParseDomShingle", "BM_ParseDomXPath"}) {
      if (get(n) > 0) std::printf("  %-22s %.3f ms/page  ratio %.3f\n", n, get(n) * 1e3, get(n) / parse);
    }
    std::printf("  target: BM_ParseDomShingle ratio <= 1.25\n");
    if (get("BM_Cluster20k") > 0) {
      std::printf("Algorithm 1 on 20,000 vectors: %.1f ms (target <= 500 ms)\n", get("BM_Cluster20k") * 1e3);
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

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  vertex::bench::BenchCorpus corpus = vertex::bench::LoadBenchPages();
  vertex::bench::corpus = &corpus;
  // Unless told otherwise: 5 repetitions in random interleaving, so that the
  // noise of a shared machine hits every benchmark alike; ratios use medians.
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
  vertex::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.PrintRatios();
  vertex::bench::PairedRatios(5);
  benchmark::Shutdown();
  return 0;
}
