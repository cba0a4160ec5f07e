#include "bench/bench_site.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/site/page_file.h"
#include "common/util/status_macros.h"

namespace vertex::bench {
namespace {

double Since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Removes the directory it names when destroyed.
class TempDir {
 public:
  explicit TempDir(std::string path) : path_(std::move(path)) {}
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The demo site's product pages (one template, one record per page, like a
// SWDE site) with their ground truth, in a fresh temporary directory.
absl::StatusOr<std::shared_ptr<TempDir>> WriteDemoSite() {
  const std::string path = (std::filesystem::temp_directory_path() /
                            absl::StrCat("vertex_bench_demo_", getpid()))
                               .string();
  auto dir = std::make_shared<TempDir>(path);
  demo::SiteOptions options;
  options.product_pages = 1000;
  options.category_pages = options.review_pages = options.store_pages = 0;
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(demo::GenerateSite(options), path));
  return dir;
}

}  // namespace

absl::StatusOr<BenchSite> LoadBenchSite(bool demo, html::PageBuilder builder) {
  BenchSite out;
  out.options.parse.builder = builder;
  const std::string shared = VERTEX_SHARED_DATA_DIR;
  const std::string swde = shared + "/swde/book/booksamillion";
  std::string pages_dir, truth_dir, schema_file;
  if (!demo && std::filesystem::is_directory(swde)) {
    out.name = "SWDE booksamillion (" + swde + ")";
    out.site = "booksamillion";
    pages_dir = swde;
    truth_dir = shared + "/swde/groundtruth/book";
    schema_file = std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/book.json";
  } else {
    if (!demo) std::fprintf(stderr, "note: %s is absent; using the generated demo site instead\n", swde.c_str());
    VERTEX_ASSIGN_OR_RETURN(std::shared_ptr<TempDir> dir, WriteDemoSite());
    out.name = "generated demo site, product pages (" + dir->path() + ")";
    out.site = "vertexdemo";
    pages_dir = dir->path();
    truth_dir = dir->path() + "/groundtruth/product";
    schema_file = std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/product.json";
    out.temp_dir = std::move(dir);
  }
  VERTEX_ASSIGN_OR_RETURN(out.schema, schema::CompiledSchema::FromFile(schema_file));
  VERTEX_ASSIGN_OR_RETURN(out.truth, eval::LoadGroundTruth(truth_dir, out.site));
  VERTEX_ASSIGN_OR_RETURN(out.files, site::ExpandPagePaths({pages_dir}));
  const auto start = std::chrono::steady_clock::now();
  VERTEX_ASSIGN_OR_RETURN(out.clustering, site::ClusterSite(out.files, out.options));
  out.cluster_seconds = Since(start);
  std::fprintf(stderr, "site: %s: %zu pages, %zu clusters (page builder %s), schema %s (%zu attributes)\n",
               out.name.c_str(), out.files.size(), out.clustering.clusters.size(),
               std::string(html::PageBuilderName(builder)).c_str(), schema_file.c_str(), out.schema->size());
  return out;
}

absl::StatusOr<LearntRules> LearnSiteRules(const BenchSite& site, workflow::PagePool& pool) {
  LearntRules out;
  workflow::SimulatedEditorOptions editor;
  editor.max_pages = 3;
  editor.learn.unannotated_pages = 20;
  const auto start = std::chrono::steady_clock::now();
  VERTEX_ASSIGN_OR_RETURN(out.clusters,
                          workflow::SimulateEditor(*site.schema, site.clustering, site.truth, pool, editor));
  out.seconds = Since(start);
  for (const workflow::SimulatedCluster& c : out.clusters) {
    if (c.result.learnt.rule.attributes_size() > 0) out.rules.push_back(c.result.learnt.rule);
  }
  if (out.rules.empty()) return absl::FailedPreconditionError("no rule was learnt on " + site.name);
  return out;
}

absl::StatusOr<BenchCorpus> ReadCorpus(const BenchSite& site) {
  BenchCorpus corpus;
  corpus.name = site.name;
  for (const std::string& f : site.files) {
    VERTEX_ASSIGN_OR_RETURN(site::PageFile page, site::ReadPageFile(f, site.options.parse.max_page_bytes));
    corpus.total_bytes += page.bytes.size();
    corpus.pages.push_back({page.url, std::move(page.bytes)});
  }
  return corpus;
}

absl::StatusOr<std::map<std::string, std::string>> ParseBenchFlags(int argc, char** argv,
                                                                    const std::vector<std::string>& known) {
  std::map<std::string, std::string> out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg.rfind("--", 0) != 0) return absl::InvalidArgumentError("unexpected argument " + arg);
    const size_t eq = arg.find('=');
    const std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      return absl::InvalidArgumentError("unknown flag " + arg);
    }
    out[name] = eq == std::string::npos ? "true" : arg.substr(eq + 1);
  }
  return out;
}

absl::StatusOr<int> PositiveFlag(const std::map<std::string, std::string>& flags, const std::string& name,
                                 int fallback) {
  auto it = flags.find(name);
  if (it == flags.end()) return fallback;
  int value = 0;
  if (!absl::SimpleAtoi(it->second, &value) || value <= 0) {
    return absl::InvalidArgumentError("--" + name + " wants a positive integer, not '" + it->second + "'");
  }
  return value;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

}  // namespace vertex::bench
