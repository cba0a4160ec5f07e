// vertexctl cluster | demo | gen-demo.
#include <cstdint>
#include <iostream>
#include <optional>

#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/site/site_json.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {

std::vector<FlagSpec> ThresholdFlags() {
  return {
      {"threshold", "N",
       "prune masked vectors counted by fewer than N sample pages; 0: adaptive, clamp(sample pages / 50, 1, 20) "
       "(default 0)"},
      {"sample-rate", "R", "fraction of the site to cluster, 0 < R <= 1 (default 0.2)"},
  };
}

std::vector<FlagSpec> SiteSettingsFlags() {
  return {
      {"threshold", "N",
       "the site's pruning threshold (Algorithm 1): prune masked vectors counted by fewer than N sample pages; "
       "0: adaptive, clamp(sample pages / 50, 1, 20), the paper's 20 from 1,000 pages on "
       "(default: adaptive; without --threshold and --sample-rate the stored settings are kept)"},
      {"sample-rate", "R",
       "the site's sample rate: fraction of its pages to cluster, 0 <= R <= 1, at least 1,000 pages or the whole "
       "site (default 0: the server's, 0.2)"},
      {"rule-transfer", "on|off",
       "the site's rule transfer: try learnt rules on clusters nobody annotated and merge those they pass on "
       "(default on)"},
      {"page-builder", "gumbo|libxml2",
       "the site's HTML parser, stored with it: gumbo (HTML5 tree construction) or libxml2 (its HTML parser); "
       "fixed once the site has pages (default: the site's; a new site: the server's, " +
           std::string(html::PageBuilderName(html::ParseOptions{}.builder)) + " offline)"},
  };
}

FlagSpec PageBuilderFlag(const std::string& help) {
  return {"page-builder", "gumbo|libxml2",
          help + " (default " + std::string(html::PageBuilderName(html::ParseOptions{}.builder)) + ")"};
}

absl::StatusOr<html::PageBuilder> PageBuilderFromFlags(const ParsedArgs& a) {
  if (!a.Has("page-builder")) return html::ParseOptions{}.builder;
  absl::StatusOr<html::PageBuilder> builder = html::PageBuilderFromName(a.String("page-builder", ""));
  if (!builder.ok()) return absl::InvalidArgumentError("--page-builder: " + std::string(builder.status().message()));
  return *builder;
}

absl::StatusOr<std::optional<v1::SiteSettings>> SiteSettingsFromFlags(const ParsedArgs& a) {
  const bool clustering = a.Has("threshold") || a.Has("sample-rate") || a.Has("rule-transfer");
  if (!clustering && !a.Has("page-builder")) return std::nullopt;
  v1::SiteSettings settings;
  if (a.Has("page-builder")) {
    VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder builder, PageBuilderFromFlags(a));
    settings.set_page_builder(builder == html::PageBuilder::kLibxml2 ? v1::PAGE_BUILDER_LIBXML2
                                                                     : v1::PAGE_BUILDER_GUMBO);
  }
  if (!clustering) return settings;
  const std::string transfer = a.String("rule-transfer", "on");
  if (transfer != "on" && transfer != "off") {
    return absl::InvalidArgumentError("--rule-transfer must be on or off, not '" + transfer + "'");
  }
  VERTEX_ASSIGN_OR_RETURN(const int64_t threshold, a.Int("threshold", 0, 0, 1000000000));
  VERTEX_ASSIGN_OR_RETURN(const double rate, a.Double("sample-rate", 0, 0, 1.0));
  settings.set_prune_threshold(static_cast<uint32_t>(threshold));
  settings.set_sample_rate(rate);
  settings.set_no_rule_transfer(transfer == "off");
  return settings;
}

const std::vector<FlagSpec>& ClusterFlags() {
  static const std::vector<FlagSpec> kFlags = [] {
    std::vector<FlagSpec> flags = ThresholdFlags();
    for (const FlagSpec& f : OtherClusterFlags()) flags.push_back(f);
    flags.push_back(PageBuilderFlag("the HTML parser that builds the pages: gumbo (HTML5) or libxml2"));
    flags.push_back({"help", "", "show this help"});
    return flags;
  }();
  return kFlags;
}

std::vector<FlagSpec> OtherClusterFlags() {
  return {
      {"max-sample", "N", "cluster at most N pages (default 20000)"},
      {"min-sample", "N", "cluster at least N pages, or all of a smaller site (default 1000)"},
      {"seed", "S", "seed of the site sample (default 1)"},
      {"annotation-size", "K", "pages per cluster in the annotation sample (default 20)"},
      {"threads", "N", "parser threads (default: one per core)"},
      {"max-page-bytes", "N", "refuse pages larger than N bytes (default 8388608)"},
      {"max-depth", "N", "refuse pages nesting deeper than N elements (default 512)"},
      {"max-attributes", "N", "refuse pages with a tag of more than N attributes (default 1000)"},
  };
}

absl::StatusOr<site::SiteClusterOptions> WithThresholdFlags(const ParsedArgs& a, site::SiteClusterOptions o) {
  VERTEX_ASSIGN_OR_RETURN(o.cluster.prune_threshold, a.Int("threshold", 0, 0, 1000000000));
  VERTEX_ASSIGN_OR_RETURN(o.sample.rate, a.Double("sample-rate", 0.2, 1e-9, 1.0));
  return o;
}

absl::StatusOr<site::SiteClusterOptions> OtherClusterOptionsFromFlags(const ParsedArgs& a) {
  site::SiteClusterOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t max_sample, a.Int("max-sample", 20000, 1, 100000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t min_sample, a.Int("min-sample", 1000, 0, 100000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  VERTEX_ASSIGN_OR_RETURN(int64_t k, a.Int("annotation-size", 20, 1, 10000));
  VERTEX_ASSIGN_OR_RETURN(int64_t threads, a.Int("threads", 0, 0, 256));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_bytes, a.Int("max-page-bytes", 8 << 20, 1, int64_t{1} << 32));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_depth, a.Int("max-depth", 512, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(int64_t max_attributes, a.Int("max-attributes", 1000, 1, 1000000));
  o.sample.max_pages = static_cast<size_t>(max_sample);
  o.sample.min_pages = static_cast<size_t>(min_sample);
  o.sample.seed = static_cast<uint64_t>(seed);
  o.annotation.max_pages = static_cast<size_t>(k);
  o.threads = static_cast<int>(threads);
  o.parse.max_page_bytes = static_cast<size_t>(max_bytes);
  o.parse.max_depth = static_cast<int>(max_depth);
  o.parse.max_attributes = static_cast<int>(max_attributes);
  return o;
}

absl::StatusOr<site::SiteClusterOptions> ClusterOptionsFromFlags(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(site::SiteClusterOptions o, OtherClusterOptionsFromFlags(a));
  VERTEX_ASSIGN_OR_RETURN(o.parse.builder, PageBuilderFromFlags(a));
  return WithThresholdFlags(a, std::move(o));
}

namespace {

constexpr char kClusterUsage[] =
    "usage: vertexctl cluster [flags] PAGE_DIR_OR_FILE...\n"
    "\n"
    "Clusters a site's pages by structure (Vertex Algorithm 1 on shingle vectors), offline.\n"
    "Every page is parsed once; a sample of the site is clustered and every other page is\n"
    "assigned to the cluster whose signature covers it. A page file's URL is taken from a\n"
    "<base href=\"...\"> on its first line, else file:// and its absolute path. Prints JSON:\n"
    "{\"page_count\",\"sample_size\",\"prune_threshold\" (the threshold applied),\n"
    "\"clusters\":[{\"id\",\"signature\",\"importance\",\"url_regex\",\"pages\":[{\"file\",\"url\"}],\n"
    "\"attached\":[{\"file\",\"url\"}],\"annotation_sample\":[file,...],\"annotation_weights\":[...]}],\"unassigned\":[...],\n"
    "\"errors\":[{\"file\",\"error\"}]}. Pages that cannot be parsed are listed in \"errors\".\n"
    "The pruning threshold adapts to the sample by default: clamp(sample pages / 50, 1, 20),\n"
    "the paper's 20 from 1,000 pages on, 1 for a site of up to 99 pages.\n"
    "\n"
    "flags:\n";

}  // namespace

int ReportError(const std::string& command, const absl::Status& status) {
  std::cerr << "vertexctl " << command << ": " << status.message() << "\n";
  return status.code() == absl::StatusCode::kInvalidArgument ? 2 : 1;
}

int RunCluster(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, ClusterFlags());
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << kClusterUsage << FlagHelp(ClusterFlags());
    return 0;
  }
  if (!parsed.ok()) return ReportError("cluster", parsed.status());
  if (parsed->positional.empty()) {
    return ReportError("cluster", absl::InvalidArgumentError("no PAGE_DIR given (see --help)"));
  }
  absl::StatusOr<site::SiteClusterOptions> options = ClusterOptionsFromFlags(*parsed);
  if (!options.ok()) return ReportError("cluster", options.status());
  absl::StatusOr<std::vector<std::string>> files = site::ExpandPagePaths(parsed->positional);
  if (!files.ok()) return ReportError("cluster", files.status());
  absl::StatusOr<site::SiteClustering> clustering = site::ClusterSite(*files, *options);
  if (!clustering.ok()) return ReportError("cluster", clustering.status());
  std::cout << site::ClusteringToJson(*clustering) << "\n";
  return 0;
}

}  // namespace vertex::cli
