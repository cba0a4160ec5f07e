// Link discovery's cost per page (issue 14, deliverable 6) against parsing
// the page, in the same run, on the generated shop's category pages:
//   BM_Parse          html::Parser: bytes -> DOM (the baseline)
//   BM_SuggestLists   the list finder on one parsed page
//   BM_DiscoverLinks  DiscoverLinks over all the category pages (cross-page
//                     rule included), reported per page
// The model is learnt in main() from 3 category pages' list truth
// (LabelledPageFromTruth), as an editor's 3 labelled pages would give it.
#include <cstdio>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "common/demo/site_generator.h"
#include "common/html/page.h"
#include "common/lists/link_discovery.h"
#include "common/lists/list_finder.h"
#include "common/lists/truth_labels.h"

namespace vertex::bench {
namespace {

std::vector<demo::GeneratedPage>* category = nullptr;
std::vector<html::Page>* pages = nullptr;
v1::ListModel* model = nullptr;

void BM_Parse(benchmark::State& state) {
  html::Parser parser;
  size_t i = 0;
  for (auto _ : state) {
    const demo::GeneratedPage& p = (*category)[i++ % category->size()];
    absl::StatusOr<html::Page> page = parser.Parse(p.html, p.url);
    benchmark::DoNotOptimize(page);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Parse);

void BM_SuggestLists(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    absl::StatusOr<std::vector<v1::ListSuggestion>> s = lists::SuggestLists(*model, (*pages)[i++ % pages->size()], 10);
    benchmark::DoNotOptimize(s);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_SuggestLists);

void BM_DiscoverLinks(benchmark::State& state) {
  std::vector<const html::Page*> all;
  for (const html::Page& p : *pages) all.push_back(&p);
  for (auto _ : state) {
    absl::StatusOr<lists::Discovery> d = lists::DiscoverLinks(*model, all);
    benchmark::DoNotOptimize(d);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(all.size()));
}
BENCHMARK(BM_DiscoverLinks);

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  using namespace vertex;
  demo::SiteOptions o;
  o.product_pages = 0;
  o.category_pages = 40;
  o.review_pages = 0;
  o.store_pages = 0;
  static std::vector<demo::GeneratedPage> generated = demo::GenerateSite(o);
  static std::vector<html::Page> parsed;
  html::Parser parser;
  for (const demo::GeneratedPage& p : generated) parsed.push_back(parser.Parse(p.html, p.url).value());
  std::vector<lists::LabelledPage> train;
  for (size_t i = 0; i < 3; ++i) train.push_back(lists::LabelledPageFromTruth(generated[i].list_truth, parsed[i]).value());
  static v1::ListModel trained = lists::TrainListModel(train).value();
  bench::category = &generated;
  bench::pages = &parsed;
  bench::model = &trained;
  std::printf("%zu category pages, model of %d nodes\n", parsed.size(), trained.nodes_size());
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
