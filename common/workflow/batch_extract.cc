#include "common/workflow/batch_extract.h"

#include <algorithm>
#include <atomic>
#include <thread>

#include "common/site/page_file.h"

namespace vertex::workflow {

std::vector<FileRecord> ExtractFiles(const extract::SiteExtractor& extractor, const std::vector<std::string>& files,
                                     const html::ParseOptions& parse, int threads) {
  std::vector<FileRecord> out(files.size(), FileRecord{"", "", absl::UnknownError("not run")});
  std::atomic<size_t> next{0};
  const auto work = [&] {
    html::Parser parser(parse);
    for (size_t i = next++; i < files.size(); i = next++) {
      FileRecord& r = out[i];
      r.file = files[i];
      absl::StatusOr<site::PageFile> page = site::ReadPageFile(files[i], parse.max_page_bytes);
      if (!page.ok()) {
        r.record = page.status();
        continue;
      }
      r.url = page->url;
      r.record = extractor.Extract(page->bytes, page->url, parser);
    }
  };
  size_t n = threads > 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  n = std::min(n, std::max<size_t>(files.size(), 1));
  std::vector<std::thread> pool;
  for (size_t t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  return out;
}

}  // namespace vertex::workflow
