// Learn RPC benchmark: the editor's Learn calls on one cluster, through the
// learning engine and through the learning service over gRPC on loopback,
// with and without the parsed-page cache (page_cache.h), in the same run.
//
// Sites: SWDE booksamillion (book schema, 5 attributes; skipped when
// ../shared/data is absent) and the generated demo shop (seed 1; product
// schema, 17 attributes, and business schema, 7 attributes, each its own
// site over the same 1,100 pages). Per site: RegisterSite, AddSamplePages
// (the server clusters), GetAnnotationTasks on the most important cluster
// with 3 pages the ground truth knows: its task pages first, then (when
// Algorithm 2's sample of a uniform cluster holds fewer than 3 pages, as
// the demo's 100 store pages' does: 2) its other members in sample order
// (LocatePages); each is annotated from the truth (workflow::
// AnnotateFromTruth, as the simulated editor does). Then, per k = 1, 2, 3
// annotated pages, Learn with those
// annotations (replace: every call learns from the same input), timed
// --runs times per variant, the variants interleaved:
//   engine, no cache   LearningEngineOptions.page_cache_bytes = 0 (before)
//   engine, cache      the default budget, warm (after)
//   gRPC, no cache / cache   the same through LearningService on
//                      127.0.0.1 (the editor's round trip: annotations in,
//                      rule, diagnostics and 10-page preview out)
//   engine, check all  the cache, and the editor loop's check on every
//                      page of the cluster (learn.max_check_pages = 0: the
//                      behaviour before the check sample)
// The engines share one RocksDB store. The rules the variants learn are
// compared (serialised, creation time cleared) with the first variant's:
// the four cache variants must give equal rules or the bench fails; the
// check-all variant's is reported ("rules equal with the check sample").
// Each call's wall time and the process's CPU time over it (every thread:
// the engine's, and the in-process server's and client's for gRPC) are
// recorded: on a shared machine CPU time is the steadier figure.
//
// Prints a table per site, then one line "JSON {...}".
// Flags: --runs=N (default 3), --sites=swde,product,business, --cache-only
// (only the cached engine: for profiling), --rules-out=DIR (writes the
// rule each k learns, serialised as compared, to DIR/<site>_k<k>.rule: two
// builds' rules can then be compared byte for byte).
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/bench_site.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/simulated_editor.h"
#include "services/client/remote_api.h"
#include "services/common/server_runner.h"
#include "services/learning/learning_service.h"
#include "services/server/change_hub.h"

namespace vertex::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// The process's CPU time (every thread), in ms.
double CpuMs() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

struct SiteInput {
  std::string name;  // the site's id in the store
  std::string truth_site;
  std::optional<schema::CompiledSchema> schema;
  eval::GroundTruth truth;
  std::vector<workflow::ClientPage> pages;
};

// A directory removed with its contents when the object goes.
struct TempDir {
  std::string path;
  explicit TempDir(std::string p) : path(std::move(p)) { fs::create_directories(path); }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

absl::StatusOr<SiteInput> LoadSite(const std::string& name, const std::string& pages_dir, const std::string& truth_dir,
                                   const std::string& truth_site, const std::string& schema_file) {
  SiteInput in;
  in.name = name;
  in.truth_site = truth_site;
  VERTEX_ASSIGN_OR_RETURN(in.schema, schema::CompiledSchema::FromFile(schema_file));
  VERTEX_ASSIGN_OR_RETURN(in.truth, eval::LoadGroundTruth(truth_dir, truth_site));
  VERTEX_ASSIGN_OR_RETURN(in.pages, workflow::ReadClientPages({pages_dir}, 8 << 20));
  return in;
}

// Annotations of page `page` from the truth (none when it does not know it).
absl::StatusOr<std::vector<v1::Annotation>> AnnotatePage(const SiteInput& in, const workflow::ClientPage& page,
                                                         html::Parser& parser) {
  VERTEX_ASSIGN_OR_RETURN(html::Page parsed, parser.Parse(page.bytes, page.url));
  std::vector<v1::Annotation> out;
  for (const learn::AttributeAnnotation& a : workflow::AnnotateFromTruth(*in.schema, in.truth, page.file, 0, parsed)) {
    v1::Annotation p;
    p.set_url(page.url);
    p.set_attribute(a.attribute);
    for (const std::string& v : a.values) p.add_values(v);
    if (a.values.empty()) p.set_absent(true);
    p.set_partial(a.partial);
    out.push_back(std::move(p));
  }
  return out;
}

// The cluster to learn and the annotations of its first 3 known pages (per
// page): task pages first, then other members.
struct Target {
  std::string cluster_id;
  size_t cluster_pages = 0;
  std::vector<std::vector<v1::Annotation>> pages;
  size_t task_pages = 0;  // of `pages`, those GetAnnotationTasks named
};

// Adds the truth's annotations of the page at `url` (when it knows it and
// the page is not in `used`) to `t`, up to 3 pages.
absl::Status AddKnownPage(const SiteInput& in, const std::map<std::string, const workflow::ClientPage*>& by_url,
                          const std::string& url, html::Parser& parser, std::set<std::string>* used, Target* t) {
  auto page = by_url.find(url);
  if (page == by_url.end() || t->pages.size() == 3 || !used->insert(url).second) return absl::OkStatus();
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::Annotation> a, AnnotatePage(in, *page->second, parser));
  if (!a.empty()) t->pages.push_back(std::move(a));
  return absl::OkStatus();
}

absl::StatusOr<Target> PickTarget(workflow::LearningApi& api, const SiteInput& in,
                                  const v1::AddSamplePagesResponse& added) {
  std::map<std::string, const workflow::ClientPage*> by_url;
  for (const workflow::ClientPage& p : in.pages) by_url[p.url] = &p;
  v1::LocatePagesRequest locate;
  locate.set_site(in.name);
  VERTEX_ASSIGN_OR_RETURN(const v1::LocatePagesResponse located, api.LocatePages(locate));
  html::Parser parser;
  for (const v1::ClusterSummary& c : added.clusters()) {
    v1::GetAnnotationTasksRequest ask;
    ask.set_site(in.name);
    ask.set_cluster_id(c.cluster_id());
    ask.set_max_pages(20);
    VERTEX_ASSIGN_OR_RETURN(v1::GetAnnotationTasksResponse tasks, api.GetAnnotationTasks(ask));
    Target t;
    t.cluster_id = c.cluster_id();
    t.cluster_pages = c.pages() + c.attached_pages();
    std::set<std::string> used;
    for (const v1::AnnotationTask& task : tasks.tasks()) {
      VERTEX_RETURN_IF_ERROR(AddKnownPage(in, by_url, task.url(), parser, &used, &t));
    }
    t.task_pages = t.pages.size();
    for (const v1::PageLocation& p : located.pages()) {
      if (p.how() != "member" || p.cluster_id() != c.cluster_id()) continue;
      VERTEX_RETURN_IF_ERROR(AddKnownPage(in, by_url, p.url(), parser, &used, &t));
    }
    if (t.pages.size() == 3) return t;
  }
  return absl::FailedPreconditionError("no cluster of " + in.name + " has 3 member pages the truth knows");
}

v1::LearnRequest RequestFor(const SiteInput& in, const Target& t, size_t k) {
  v1::LearnRequest r;
  r.set_site(in.name);
  r.set_cluster_id(t.cluster_id);
  r.set_replace(true);
  r.set_allow_attribute_loss(true);
  for (size_t p = 0; p < k; ++p) r.mutable_annotations()->Add(t.pages[p].begin(), t.pages[p].end());
  return r;
}

std::string RuleBytes(v1::Rule rule) {
  rule.clear_created_unix_ms();
  rule.clear_version();
  return rule.SerializeAsString();
}

constexpr int kVariants = 5;
constexpr int kCheckAll = 4;
const char* const kVariantNames[kVariants] = {"engine, no cache", "engine, cache", "gRPC, no cache", "gRPC, cache",
                                              "engine, check all"};

struct SiteReport {
  std::string name;
  size_t attributes = 0, cluster_pages = 0, task_pages = 0;
  // Per k, the rule the cached engine learnt (RuleBytes).
  std::vector<std::string> rules;
  double add_pages_ms = 0, first_cached_ms = 0;
  // [k-1][variant] -> wall ms, CPU ms per run.
  std::vector<std::vector<std::vector<double>>> ms, cpu;
  bool rules_equal = true;
  // The check-all variant's rules equal the sampled check's.
  bool check_sample_rules_equal = true;
  workflow::ParsedPageCache::Stats cache;
};

// One server per engine (one LearningService each), and a client.
struct Served {
  server::ChangeHub hub;
  std::unique_ptr<server::LearningServiceImpl> service;
  std::unique_ptr<rpc::ServerRunner> runner;
  std::unique_ptr<workflow::LearningApi> client;
};

absl::StatusOr<std::unique_ptr<Served>> Serve(workflow::LearningEngine* engine) {
  auto s = std::make_unique<Served>();
  s->service = std::make_unique<server::LearningServiceImpl>(engine, &s->hub, "");
  rpc::ServerConfig config;
  config.listen = "127.0.0.1:0";
  config.log_level = "error";
  VERTEX_ASSIGN_OR_RETURN(s->runner, rpc::ServerRunner::Start(config, {s->service.get()}));
  client::ConnectOptions connect;
  connect.server = s->runner->address();
  connect.timeout_seconds = 600;
  VERTEX_ASSIGN_OR_RETURN(s->client, client::ConnectLearning(connect));
  return s;
}

absl::StatusOr<SiteReport> RunSite(const SiteInput& in, int runs, bool cache_only) {
  SiteReport report;
  report.name = in.name;
  report.attributes = in.schema->size();
  TempDir dir((fs::temp_directory_path() / absl::StrCat("vertex_learn_call_bench_", getpid())).string());
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(dir.path + "/store"));
  workflow::LearningEngineOptions off_options;
  off_options.page_cache_bytes = 0;
  workflow::LearningEngineOptions all_options;
  all_options.learn.max_check_pages = 0;
  workflow::LearningEngine off(store.get(), off_options), on(store.get(), {}), all(store.get(), all_options);
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<Served> off_server, Serve(&off));
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<Served> on_server, Serve(&on));
  v1::RegisterSiteRequest reg;
  reg.set_site(in.name);
  *reg.mutable_schema() = in.schema->proto();
  VERTEX_RETURN_IF_ERROR(off.RegisterSite(reg).status());
  auto start = Clock::now();
  VERTEX_ASSIGN_OR_RETURN(v1::AddSamplePagesResponse added, workflow::AddPages(off, in.name, in.pages, {}));
  report.add_pages_ms = Ms(start);
  VERTEX_ASSIGN_OR_RETURN(const Target target, PickTarget(off, in, added));
  report.cluster_pages = target.cluster_pages;
  report.task_pages = target.task_pages;
  report.rules.assign(3, "");
  workflow::LearningApi* apis[kVariants] = {&off, &on, off_server->client.get(), on_server->client.get(), &all};
  // Warm-up: rule transfer merges clusters on the first DONE; the caches fill.
  if (!cache_only) VERTEX_RETURN_IF_ERROR(off.Learn(RequestFor(in, target, 3)).status());
  if (!cache_only) VERTEX_RETURN_IF_ERROR(all.Learn(RequestFor(in, target, 3)).status());
  start = Clock::now();
  VERTEX_RETURN_IF_ERROR(on.Learn(RequestFor(in, target, 3)).status());
  report.first_cached_ms = Ms(start);
  report.ms.assign(3, std::vector<std::vector<double>>(kVariants));
  report.cpu = report.ms;
  for (size_t k = 1; k <= 3; ++k) {
    const v1::LearnRequest request = RequestFor(in, target, k);
    for (int r = 0; r < runs; ++r) {
      std::string rules[kVariants];
      for (int v = 0; v < kVariants; ++v) {
        if (cache_only && v != 1) continue;
        start = Clock::now();
        const double cpu_start = CpuMs();
        VERTEX_ASSIGN_OR_RETURN(v1::LearnResponse response, apis[v]->Learn(request));
        report.cpu[k - 1][v].push_back(CpuMs() - cpu_start);
        report.ms[k - 1][v].push_back(Ms(start));
        rules[v] = RuleBytes(response.rule());
      }
      if (r == 0) report.rules[k - 1] = rules[1];
      for (int v = 1; v < kCheckAll && !cache_only; ++v) report.rules_equal &= rules[v] == rules[0];
      if (!cache_only) report.check_sample_rules_equal &= rules[kCheckAll] == rules[1];
    }
    std::fprintf(stderr, "  %s: k=%zu done\n", in.name.c_str(), k);
  }
  report.cache = on.page_cache_stats();
  return report;
}

// One table of medians (wall or CPU) per k and variant.
void PrintTable(const char* what, const std::vector<std::vector<std::vector<double>>>& ms) {
  std::printf("  %-14s", what);
  for (const char* v : kVariantNames) std::printf(" %18s", v);
  std::printf("  %s\n", "speed-up (engine)");
  for (size_t k = 0; k < ms.size(); ++k) {
    std::printf("  %-14zu", k + 1);
    for (const auto& v : ms[k]) {
      if (v.empty()) std::printf(" %18s", "-");
      else std::printf(" %15.0f ms", Median(v));
    }
    std::printf("  %.1fx\n", Median(ms[k][0]) / std::max(1e-9, Median(ms[k][1])));
  }
}

void Print(const SiteReport& r) {
  std::printf("\nsite %s: %zu attributes, learnt cluster of %zu pages (%zu of the 3 annotated pages task pages); "
              "AddSamplePages %.0f ms; first Learn with "
              "an empty cache %.0f ms; rules equal with and without cache: %s; with the check sample and with "
              "the check of every page: %s\n",
              r.name.c_str(), r.attributes, r.cluster_pages, r.task_pages, r.add_pages_ms, r.first_cached_ms,
              r.rules_equal ? "yes" : "NO", r.check_sample_rules_equal ? "yes" : "NO");
  PrintTable("wall, annotated", r.ms);
  PrintTable("CPU, annotated", r.cpu);
  const auto verdict = [](const std::vector<double>& ms, double target) {
    return ms.empty() ? "not measured" : Median(ms) <= target ? "met" : "MISSED";
  };
  std::printf("  targets (3 annotated, cache): one Learn <= 500 ms %s (CPU %s); editor round trip over gRPC <= "
              "1000 ms %s (CPU %s)\n",
              verdict(r.ms[2][1], 500), verdict(r.cpu[2][1], 500), verdict(r.ms[2][3], 1000),
              verdict(r.cpu[2][3], 1000));
  std::printf("  cache: %zu pages, %.0f MB estimated, %lu hits, %lu misses, %lu evictions\n", r.cache.entries,
              r.cache.bytes / 1e6, static_cast<unsigned long>(r.cache.hits),
              static_cast<unsigned long>(r.cache.misses), static_cast<unsigned long>(r.cache.evictions));
}

std::string Json(const std::vector<SiteReport>& reports) {
  util::JsonWriter w;
  w.BeginObject().Key("bench").String("learn_call").Key("sites").BeginArray();
  for (const SiteReport& r : reports) {
    w.BeginObject().Key("site").String(r.name).Key("attributes").Uint(r.attributes);
    w.Key("cluster_pages").Uint(r.cluster_pages).Key("rules_equal").Bool(r.rules_equal);
    w.Key("check_sample_rules_equal").Bool(r.check_sample_rules_equal);
    w.Key("first_cached_ms").Double(r.first_cached_ms);
    for (const auto& [key, table] : {std::make_pair("median_ms", &r.ms), std::make_pair("median_cpu_ms", &r.cpu)}) {
      w.Key(key).BeginArray();
      for (const auto& k : *table) {
        w.BeginObject();
        for (int v = 0; v < kVariants; ++v) w.Key(kVariantNames[v]).Double(Median(k[v]));
        w.EndObject();
      }
      w.EndArray();
    }
    w.EndObject();
  }
  w.EndArray().EndObject();
  return w.Release();
}

absl::StatusOr<std::vector<SiteInput>> LoadSites(const std::string& which, const std::string& demo_dir) {
  std::vector<SiteInput> out;
  const std::string shared = VERTEX_SHARED_DATA_DIR, source = VERTEX_SOURCE_DIR;
  for (absl::string_view name : absl::StrSplit(which, ',')) {
    if (name == "swde") {
      const std::string pages = shared + "/swde/book/booksamillion";
      if (!fs::is_directory(pages)) {
        std::fprintf(stderr, "note: %s is absent: SWDE skipped\n", pages.c_str());
        continue;
      }
      VERTEX_ASSIGN_OR_RETURN(SiteInput in, LoadSite("booksamillion", pages, shared + "/swde/groundtruth/book",
                                                     "booksamillion", source + "/deploy/schemas/book.json"));
      out.push_back(std::move(in));
    } else if (name == "product" || name == "business") {
      const std::string vertical(name);
      VERTEX_ASSIGN_OR_RETURN(SiteInput in, LoadSite("demo_" + vertical, demo_dir, demo_dir + "/groundtruth/" + vertical,
                                                     "vertexdemo", source + "/deploy/schemas/" + vertical + ".json"));
      out.push_back(std::move(in));
    } else {
      return absl::InvalidArgumentError(absl::StrCat("--sites: unknown site \"", name, "\""));
    }
  }
  return out;
}

// Writes each k's rule to dir/<site>_k<k>.rule.
absl::Status WriteRules(const std::string& dir, const SiteReport& r) {
  fs::create_directories(dir);
  for (size_t k = 0; k < r.rules.size(); ++k) {
    const std::string path = absl::StrCat(dir, "/", r.name, "_k", k + 1, ".rule");
    std::ofstream out(path, std::ios::binary);
    out << r.rules[k];
    if (!out.flush()) return absl::InternalError("--rules-out: cannot write " + path);
  }
  return absl::OkStatus();
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(auto flags, ParseBenchFlags(argc, argv, {"runs", "sites", "cache-only", "rules-out"}));
  VERTEX_ASSIGN_OR_RETURN(const int runs, PositiveFlag(flags, "runs", 3));
  const std::string which = flags.count("sites") ? flags["sites"] : "swde,product,business";
  TempDir demo((fs::temp_directory_path() / absl::StrCat("vertex_learn_call_demo_", getpid())).string());
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(demo::GenerateSite({}), demo.path));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<SiteInput> sites, LoadSites(which, demo.path));
  std::vector<SiteReport> reports;
  for (const SiteInput& in : sites) {
    VERTEX_ASSIGN_OR_RETURN(SiteReport r, RunSite(in, runs, flags.count("cache-only") > 0));
    Print(r);
    std::fflush(stdout);
    if (flags.count("rules-out")) VERTEX_RETURN_IF_ERROR(WriteRules(flags["rules-out"], r));
    reports.push_back(std::move(r));
  }
  std::printf("JSON %s\n", Json(reports).c_str());
  for (const SiteReport& r : reports) {
    if (!r.rules_equal) return absl::InternalError("rules differ with and without the cache on " + r.name);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  if (!vertex::rpc::BlockShutdownSignals().ok()) return 1;
  const absl::Status status = vertex::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "learn_call_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
