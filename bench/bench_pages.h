// Pages for benchmarks: the SWDE pages beside the project when present
// (../shared/data/swde/book/booksamillion), else the generated demo site.
//
// Thread-safety: LoadBenchPages is not; call it once from main.
#ifndef VERTEX_BENCH_BENCH_PAGES_H_
#define VERTEX_BENCH_BENCH_PAGES_H_

#include <string>
#include <vector>

namespace vertex::bench {

struct BenchPage {
  std::string url;
  std::string bytes;
};

struct BenchCorpus {
  std::string name;  // where the pages came from
  std::vector<BenchPage> pages;
  size_t total_bytes = 0;
};

// Loads the corpus; prints which one to stderr.
BenchCorpus LoadBenchPages();

}  // namespace vertex::bench

#endif  // VERTEX_BENCH_BENCH_PAGES_H_
