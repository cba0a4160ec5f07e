// A site with ground truth for the learning and extraction benchmarks
// (extract_bench, learn_bench): the SWDE booksamillion pages, their ground
// truth and deploy/schemas/book.json when present beside the project (or
// the generated demo site's product pages, their ground truth and
// deploy/schemas/product.json, written to a temporary directory that lives
// as long as the BenchSite), clustered as `vertexctl eval-swde` clusters
// them; and the rules a simulated editor learns from it.
//
// Plus the small pieces both programs share: flag parsing and medians.
//
// Thread-safety: none of these functions may run concurrently with another;
// call them from main (ClusterSite runs its own threads).
#ifndef VERTEX_BENCH_BENCH_SITE_H_
#define VERTEX_BENCH_BENCH_SITE_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "bench/bench_pages.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/site/site_clusterer.h"
#include "common/workflow/simulated_editor.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::bench {

struct BenchSite {
  std::string name;  // where the pages came from, for the report
  std::string site;  // the site's name in the ground-truth file names
  std::vector<std::string> files;
  std::optional<schema::CompiledSchema> schema;  // always set by LoadBenchSite
  eval::GroundTruth truth;
  site::SiteClusterOptions options;
  site::SiteClustering clustering;
  double cluster_seconds = 0;
  std::shared_ptr<const void> temp_dir;  // the demo site's; removed with the last copy
};

// Loads and clusters the SWDE site, or the demo site when `demo` or when
// the SWDE pages are absent (saying so on stderr), with pages built by
// `builder` (options.parse.builder: the clustering, the learning and the
// extraction all use it). Errors: the schema's, the ground truth's, the
// clusterer's, or writing the demo site.
absl::StatusOr<BenchSite> LoadBenchSite(bool demo, html::PageBuilder builder = html::ParseOptions{}.builder);

struct LearntRules {
  // As `vertexctl eval-swde`: every cluster, at most 3 pages annotated each.
  std::vector<workflow::SimulatedCluster> clusters;
  // The rules of the clusters with at least one attribute learnt.
  std::vector<v1::Rule> rules;
  double seconds = 0;
};

// Runs the editor simulated from the site's ground truth on every cluster.
absl::StatusOr<LearntRules> LearnSiteRules(const BenchSite& site, workflow::PagePool& pool);

// Every page file of `site`, read into memory: pages[i] is files[i]. The
// first read error, naming the file.
absl::StatusOr<BenchCorpus> ReadCorpus(const BenchSite& site);

// "--name=value" and "--name" arguments by name (without the dashes; a bare
// flag has the value "true"). InvalidArgument naming the argument for a
// positional argument or a name not in `known`.
absl::StatusOr<std::map<std::string, std::string>> ParseBenchFlags(int argc, char** argv,
                                                                    const std::vector<std::string>& known);

// The flag's value as a positive integer, `fallback` when absent;
// InvalidArgument naming the flag when it is not one.
absl::StatusOr<int> PositiveFlag(const std::map<std::string, std::string>& flags, const std::string& name,
                                 int fallback);

// The median (the upper one for an even count); 0 for none.
double Median(std::vector<double> values);

}  // namespace vertex::bench

#endif  // VERTEX_BENCH_BENCH_SITE_H_
