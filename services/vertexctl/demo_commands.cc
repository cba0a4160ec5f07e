// vertexctl demo | gen-demo: the project's own generated demo site.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

#include "absl/strings/str_format.h"
#include "common/demo/site_generator.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "services/vertexctl/commands.h"
#include "services/common/flags.h"

namespace vertex::cli {
namespace {

const std::vector<FlagSpec>& DemoFlags() {
  static const std::vector<FlagSpec> kFlags = {
      {"out", "DIR", "where to write the demo site: a new, empty or earlier demo directory "
                     "(default: $TMPDIR/vertex-demo-site)"},
      {"seed", "S", "seed of the generated site (default 1)"},
      {"products", "N", "product detail pages (default 600)"},
      {"categories", "N", "category list pages (default 250)"},
      {"reviews", "N", "review pages (default 150)"},
      {"stores", "N", "store pages (default 100)"},
      {"help", "", "show this help"},
  };
  return kFlags;
}

absl::StatusOr<demo::SiteOptions> SiteOptionsFromFlags(const ParsedArgs& a) {
  demo::SiteOptions o;
  VERTEX_ASSIGN_OR_RETURN(int64_t seed, a.Int("seed", 1, 0, INT64_MAX));
  o.seed = static_cast<uint64_t>(seed);
  VERTEX_ASSIGN_OR_RETURN(int64_t products, a.Int("products", o.product_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t categories, a.Int("categories", o.category_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t reviews, a.Int("reviews", o.review_pages, 0, 1000000));
  VERTEX_ASSIGN_OR_RETURN(int64_t stores, a.Int("stores", o.store_pages, 0, 1000000));
  o.product_pages = static_cast<int>(products);
  o.category_pages = static_cast<int>(categories);
  o.review_pages = static_cast<int>(reviews);
  o.store_pages = static_cast<int>(stores);
  if (products + categories + reviews + stores == 0) {
    return absl::InvalidArgumentError("the demo site needs at least one page");
  }
  return o;
}

std::string DefaultDemoDir() {
  std::error_code ec;
  std::filesystem::path tmp = std::filesystem::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return (tmp / "vertex-demo-site").string();
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Marks a directory as written by gen-demo, so a later run may clear it.
constexpr char kDemoMarker[] = ".vertex-demo-site";

// Empties `dir` for a new demo site: stale pages of an earlier, larger run
// would join the site. Only a directory that is empty or marked as a demo
// site is touched; any other is refused, never cleared.
absl::Status PrepareDemoDir(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(dir, ec)) return absl::OkStatus();
  if (!fs::is_directory(dir, ec)) {
    return absl::FailedPreconditionError("--out '" + dir + "' exists and is not a directory");
  }
  if (fs::is_empty(dir, ec)) return absl::OkStatus();
  if (!fs::exists(fs::path(dir) / kDemoMarker, ec)) {
    return absl::FailedPreconditionError("--out '" + dir +
                                         "' is a non-empty directory not written by vertexctl; "
                                         "give an empty or new directory");
  }
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    fs::remove_all(entry.path(), ec);
    if (ec) return absl::PermissionDeniedError("cannot clear '" + entry.path().string() + "': " + ec.message());
  }
  return absl::OkStatus();
}

// Writes the demo site; returns the generated pages.
absl::StatusOr<std::vector<demo::GeneratedPage>> Generate(const ParsedArgs& a, std::string* dir) {
  VERTEX_ASSIGN_OR_RETURN(demo::SiteOptions options, SiteOptionsFromFlags(a));
  *dir = a.String("out", DefaultDemoDir());
  std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  VERTEX_RETURN_IF_ERROR(PrepareDemoDir(*dir));
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(pages, *dir));
  VERTEX_RETURN_IF_ERROR(util::WriteFile((std::filesystem::path(*dir) / kDemoMarker).string(),
                                         "written by vertexctl gen-demo; the next run may clear this directory\n"));
  return pages;
}

void PrintClusters(const site::SiteClustering& site, const std::map<std::string, std::string>& template_of) {
  size_t assigned = 0, majority = 0;
  std::printf("%-8s %6s %10s  %-23s  %-28s %s\n", "cluster", "pages", "importance", "signature",
              "templates", "URL regex");
  for (const site::SiteCluster& c : site.clusters) {
    std::map<std::string, size_t> counts;
    for (size_t p : c.pages) {
      counts[template_of.at(std::filesystem::path(site.pages[p].file).filename().string())]++;
    }
    std::string templates;
    size_t top = 0;
    for (const auto& [name, n] : counts) {
      templates += (templates.empty() ? "" : ",") + name + ":" + std::to_string(n);
      top = std::max(top, n);
    }
    assigned += c.pages.size();
    majority += top;
    std::printf("%-8zu %6zu %10lld  %-23s  %-28s %s\n", c.id, c.pages.size(),
                static_cast<long long>(c.importance), c.signature.ToText().c_str(), templates.c_str(),
                c.url_regex.c_str());
  }
  std::printf("\nAnnotation sample (Algorithm 2 order, weight added), first pages per cluster:\n");
  for (const site::SiteCluster& c : site.clusters) {
    std::printf("  cluster %zu:", c.id);
    for (size_t i = 0; i < c.annotation_sample.size() && i < 4; ++i) {
      const auto& pick = c.annotation_sample[i];
      std::printf(" %s (+%.1f)", std::filesystem::path(site.pages[pick.page].file).filename().c_str(),
                  pick.added_weight);
    }
    std::printf("%s\n", c.annotation_sample.size() > 4 ? " ..." : "");
  }
  std::printf("\n%zu clusters; %zu pages assigned, %zu unassigned, %zu unreadable; purity %.4f\n",
              site.clusters.size(), assigned, site.unassigned.size(), site.errors.size(),
              assigned ? static_cast<double>(majority) / assigned : 0.0);
}

}  // namespace

int RunGenDemo(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, DemoFlags());
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << "usage: vertexctl gen-demo [flags]\n\nWrites the generated demo site: one file per "
                 "page (first line <base href=URL>) and SWDE-format ground truth under "
                 "groundtruth/.\n\nflags:\n"
              << FlagHelp(DemoFlags());
    return 0;
  }
  if (!parsed.ok()) return ReportError("gen-demo", parsed.status());
  std::string dir;
  absl::StatusOr<std::vector<demo::GeneratedPage>> pages = Generate(*parsed, &dir);
  if (!pages.ok()) return ReportError("gen-demo", pages.status());
  std::printf("wrote %zu pages and their ground truth to %s\n", pages->size(), dir.c_str());
  return 0;
}

int RunDemo(const std::vector<std::string>& args) {
  absl::StatusOr<ParsedArgs> parsed = ParseArgs(args, DemoFlags());
  if (parsed.ok() && parsed->Has("help")) {
    std::cout << "usage: vertexctl demo [flags]\n\nGenerates the demo site (a multi-template shop), "
                 "clusters it offline and prints the clusters with the templates they hold; then, for\n"
                 "the product and business verticals, lets an editor simulated from the generator's\n"
                 "ground truth annotate pages as the editor loop asks (at most 3 per cluster), learns\n"
                 "the rules, extracts every page and prints per-attribute precision and recall.\n\n"
                 "flags:\n"
              << FlagHelp(DemoFlags());
    return 0;
  }
  if (!parsed.ok()) return ReportError("demo", parsed.status());
  auto start = std::chrono::steady_clock::now();
  std::string dir;
  absl::StatusOr<std::vector<demo::GeneratedPage>> pages = Generate(*parsed, &dir);
  if (!pages.ok()) return ReportError("demo", pages.status());
  std::map<std::string, std::string> template_of;
  for (const demo::GeneratedPage& p : *pages) template_of[p.file_name] = p.template_name;
  std::printf("Generated %zu demo pages in %s (%.2f s)\n", pages->size(), dir.c_str(), Seconds(start));

  start = std::chrono::steady_clock::now();
  absl::StatusOr<std::vector<std::string>> files = site::ExpandPagePaths({dir});
  if (!files.ok()) return ReportError("demo", files.status());
  absl::StatusOr<site::SiteClustering> clustering = site::ClusterSite(*files, {});
  if (!clustering.ok()) return ReportError("demo", clustering.status());
  std::printf("Parsed every page and clustered a sample of %zu in %.2f s\n\n", clustering->sample_size,
              Seconds(start));
  PrintClusters(*clustering, template_of);
  for (const char* vertical : {"product", "business"}) {
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(demo::SchemaJson(vertical), vertical);
    if (!schema.ok()) return ReportError("demo", schema.status());
    std::printf("\n");
    std::fflush(stdout);
    const std::string truth = (std::filesystem::path(dir) / "groundtruth" / vertical).string();
    if (absl::Status s = PrintTruthEvaluation(dir, truth, "vertexdemo", *schema); !s.ok()) return ReportError("demo", s);
  }
  return 0;
}

}  // namespace vertex::cli
