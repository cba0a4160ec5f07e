#include "bench/bench_pages.h"

#include <cstdio>
#include <filesystem>

#include "common/demo/site_generator.h"
#include "common/site/page_file.h"
#include "common/util/file.h"

namespace vertex::bench {

BenchCorpus LoadBenchPages() {
  BenchCorpus corpus;
  const std::string swde = std::string(VERTEX_SHARED_DATA_DIR) + "/swde/book/booksamillion";
  absl::StatusOr<std::vector<std::string>> files = util::ListFiles(swde, {".htm"});
  if (files.ok() && !files->empty()) {
    corpus.name = "SWDE booksamillion (" + swde + ")";
    for (const std::string& f : *files) {
      absl::StatusOr<site::PageFile> page = site::ReadPageFile(f, 64 << 20);
      if (!page.ok()) continue;
      corpus.total_bytes += page->bytes.size();
      corpus.pages.push_back({page->url, std::move(page->bytes)});
    }
  } else {
    std::fprintf(stderr, "note: %s is absent; benchmarking the generated demo site instead\n", swde.c_str());
    corpus.name = "generated demo site";
    for (demo::GeneratedPage& p : demo::GenerateSite({})) {
      corpus.total_bytes += p.html.size();
      corpus.pages.push_back({p.url, std::move(p.html)});
    }
  }
  std::fprintf(stderr, "corpus: %s: %zu pages, %.1f MB\n", corpus.name.c_str(), corpus.pages.size(),
               corpus.total_bytes / 1e6);
  return corpus;
}

}  // namespace vertex::bench
