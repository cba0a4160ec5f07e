// The closest-match search of a mistyped annotated value
// (common/learn/closest_match.h) on pages up to the largest one the parser
// accepts (8 MB), against the parse of the same page, in the same run: the
// search must cost about a parse, not a multiple of the page's size.
//   closest_match_bench [--benchmark_filter=...]
// Counters: steps (text code points x 64-character blocks), edits of the
// match found, and whether the search was cut.
#include <random>
#include <string>

#include "benchmark/benchmark.h"
#include "common/html/page.h"
#include "common/learn/closest_match.h"

namespace vertex {
namespace {

// About `bytes` of paragraphs of product-page words, the near match last.
std::string Page(size_t bytes) {
  std::string html = "<html><body>";
  std::mt19937 rng(7);
  const char* words[] = {"oak", "chair", "price", "in stock", "reviews", "shipping", "Nonexistent", "Title"};
  while (html.size() + 64 < bytes) {
    html += "<p>";
    for (int w = 0; w < 10; ++w) html += std::string(w ? " " : "") + words[rng() % 8];
    html += "</p>";
  }
  return html + "<h1>Nonexistent Title</h1></body></html>";
}

void BM_Parse(benchmark::State& state) {
  const std::string html = Page(static_cast<size_t>(state.range(0)));
  html::Parser parser;
  for (auto _ : state) benchmark::DoNotOptimize(parser.Parse(html, "http://shop.test/p").ok());
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * html.size()));
}

void BM_ClosestMatch(benchmark::State& state) {
  const std::string html = Page(static_cast<size_t>(state.range(0)));
  const std::string value = state.range(1) == 1 ? "Nonexistant Title" : std::string(150, 'x');
  html::Parser parser;
  const html::Page page = parser.Parse(html, "http://shop.test/p").value();
  learn::ClosestMatchResult r;
  for (auto _ : state) {
    r = learn::FindClosestMatch(page, value);
    benchmark::DoNotOptimize(r.work);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * html.size()));
  state.counters["steps"] = static_cast<double>(r.work);
  state.counters["edits"] = r.match ? static_cast<double>(r.match->edits) : -1;
  state.counters["cut"] = r.cut;
}

// 100 KB (a large product page), 1 MB, and 8 MB (the parser's limit).
BENCHMARK(BM_Parse)->Arg(100 << 10)->Arg(1 << 20)->Arg((8 << 20) - 1024)->Unit(benchmark::kMillisecond);
// Second argument: 1 = a 17-character value (one block), 3 = 150 characters (three).
BENCHMARK(BM_ClosestMatch)
    ->Args({100 << 10, 1})
    ->Args({1 << 20, 1})
    ->Args({(8 << 20) - 1024, 1})
    ->Args({(8 << 20) - 1024, 3})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace vertex

BENCHMARK_MAIN();
