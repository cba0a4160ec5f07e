// memory_bench: what Vertex holds in memory (issue 17, 5).
//
//   memory_bench store --store DIR [--sites N] [--clusters C]
//       learns the generated demo shop (product vertical) once in process,
//       then writes N sites x C clusters into the RocksDB store in DIR
//       through the RuleStore API: each site a copy of the learnt site
//       under its own name, each cluster a copy of one learnt cluster (in
//       turn) with its own signature, URL pattern, rule and snapshots.
//   memory_bench drive --process NAME=ADDR/PID[,...] [--sites N] [--calls K]
//       sends K Extract calls to every site site000..site<N-1> of each
//       server (pages of the demo shop under the site's URLs, so that every
//       site's rules are loaded) and reports each process's VmRSS before
//       and after and VmHWM (/proc/PID/status). NAME_empty beside NAME: the
//       same process kind over an empty store, and the difference.
//   memory_bench rules --store DIR
//       the heap the compiled rules of every site of the store take when
//       loaded as the extraction engine loads them, counted exactly.
//   memory_bench page
//       per-page peak memory of Parser::Parse + SiteExtractor::Extract on
//       the largest page allowed (ParseOptions::max_page_bytes: the site's
//       first page with its body repeated up to the limit) and on a typical
//       page (the site's first): SWDE booksamillion and its learnt rules
//       when present beside the project, else the demo shop's product pages.
//       Heap is counted exactly: operator new/delete of this program and
//       libxml2's allocator (xmlMemSetup) go through counting wrappers
//       (malloc_usable_size), so the figures are live bytes, peak over the
//       page, above what was live before it. Gumbo's arena high-water mark
//       is measured by parsing the page into an html::Arena as Parser does.
//
// `bash deploy/vertex.sh bench memory` runs all three (store, two vertexd +
// replica pairs, drive, page). Thread-safety: main's thread, except the
// counters, which are atomics.
#include <grpcpp/grpcpp.h>
#include <gumbo.h>
#include <libxml/xmlmemory.h>
#include <malloc.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "bench/bench_site.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/extract/site_extractor.h"
#include "common/html/arena.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "services/common/flags.h"
#include "vertex/v1/extraction.grpc.pb.h"

// ---------------------------------------------------------------- counting

namespace {

std::atomic<int64_t> g_new_live{0}, g_new_peak{0};  // operator new
std::atomic<int64_t> g_xml_live{0}, g_xml_peak{0};  // libxml2's allocator
std::atomic<int64_t> g_all_live{0}, g_all_peak{0};  // both

void RaisePeak(std::atomic<int64_t>& peak, int64_t value) {
  int64_t seen = peak.load(std::memory_order_relaxed);
  while (value > seen && !peak.compare_exchange_weak(seen, value, std::memory_order_relaxed)) {
  }
}

void Count(std::atomic<int64_t>& live, std::atomic<int64_t>& peak, int64_t delta) {
  RaisePeak(peak, live.fetch_add(delta, std::memory_order_relaxed) + delta);
  RaisePeak(g_all_peak, g_all_live.fetch_add(delta, std::memory_order_relaxed) + delta);
}

void* CountedNew(size_t size) {
  void* p = std::malloc(size == 0 ? 1 : size);
  if (p == nullptr) throw std::bad_alloc();
  Count(g_new_live, g_new_peak, static_cast<int64_t>(malloc_usable_size(p)));
  return p;
}

void CountedDelete(void* p) {
  if (p == nullptr) return;
  Count(g_new_live, g_new_peak, -static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}

void* XmlMalloc(size_t size) {
  void* p = std::malloc(size);
  if (p != nullptr) Count(g_xml_live, g_xml_peak, static_cast<int64_t>(malloc_usable_size(p)));
  return p;
}

void XmlFree(void* p) {
  if (p == nullptr) return;
  Count(g_xml_live, g_xml_peak, -static_cast<int64_t>(malloc_usable_size(p)));
  std::free(p);
}

void* XmlRealloc(void* p, size_t size) {
  const int64_t before = p != nullptr ? static_cast<int64_t>(malloc_usable_size(p)) : 0;
  void* q = std::realloc(p, size);
  if (q != nullptr) Count(g_xml_live, g_xml_peak, static_cast<int64_t>(malloc_usable_size(q)) - before);
  return q;
}

char* XmlStrdup(const char* s) {
  const size_t n = std::strlen(s) + 1;
  char* p = static_cast<char*>(XmlMalloc(n));
  if (p != nullptr) std::memcpy(p, s, n);
  return p;
}

}  // namespace

void* operator new(size_t size) { return CountedNew(size); }
void* operator new[](size_t size) { return CountedNew(size); }
void operator delete(void* p) noexcept { CountedDelete(p); }
void operator delete[](void* p) noexcept { CountedDelete(p); }
void operator delete(void* p, size_t) noexcept { CountedDelete(p); }
void operator delete[](void* p, size_t) noexcept { CountedDelete(p); }

namespace vertex::bench {
namespace {

using cli::FlagSpec;
using cli::ParsedArgs;

constexpr char kUsage[] =
    "usage: memory_bench store|drive|page [flags]   (memory_bench MODE --help for its flags)\n"
    "  store  write N sites x C clusters of rules (copies of the learnt demo shop) into a RocksDB store\n"
    "  drive  Extract calls to every site of running servers; each process's VmRSS and VmHWM\n"
    "  rules  the heap the compiled rules of every site of a store take (counted exactly)\n"
    "  page   per-page peak memory of parse + extraction: the largest allowed page and a typical one\n";

// Bytes as MB with one decimal.
double Mb(int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

std::string SiteName(int i) { return absl::StrFormat("site%03d", i); }

// ---------------------------------------------------------------- store

// The demo shop (product vertical) learnt by the simulated editor into
// `store` as site "template".
absl::Status LearnTemplate(store::RuleStore& store, const std::string& dir) {
  demo::SiteOptions options;
  options.product_pages = 150;
  options.category_pages = 50;
  options.review_pages = 30;
  options.store_pages = 30;
  VERTEX_RETURN_IF_ERROR(demo::WriteSite(demo::GenerateSite(options), dir));
  VERTEX_ASSIGN_OR_RETURN(schema::CompiledSchema schema,
                          schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product"));
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages, workflow::ReadClientPages({dir}, 8 << 20));
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(dir + "/groundtruth/product", "vertexdemo"));
  workflow::ExtractionEngine extraction(&store, {});
  workflow::LearningEngine learning(&store, {}, [&](const std::string&) { (void)extraction.Refresh(); });
  VERTEX_ASSIGN_OR_RETURN(workflow::ApiRunReport report,
                          workflow::RunSiteThroughApi(learning, extraction, "template", schema, pages, truth));
  if (report.clusters_with_rule == 0) return absl::FailedPreconditionError("no cluster of the demo shop got a rule");
  return absl::OkStatus();
}

struct TemplateCluster {
  v1::ClusterRecord cluster;
  v1::Rule rule;
  std::vector<v1::PageSnapshot> snapshots;
};

absl::StatusOr<std::vector<TemplateCluster>> TemplateClusters(const store::RuleStore& store) {
  std::vector<TemplateCluster> out;
  VERTEX_ASSIGN_OR_RETURN(std::vector<v1::ClusterRecord> clusters, store.ClustersOfSite("template"));
  for (const v1::ClusterRecord& c : clusters) {
    if (c.current_version() == 0) continue;
    TemplateCluster t{c};
    VERTEX_ASSIGN_OR_RETURN(t.rule, store.GetRule("template", c.cluster_id(), store::kCurrentVersion));
    VERTEX_ASSIGN_OR_RETURN(t.snapshots, store.Snapshots("template", c.cluster_id(), store::kCurrentVersion));
    out.push_back(std::move(t));
  }
  if (out.empty()) return absl::FailedPreconditionError("the template site has no cluster with a rule");
  return out;
}

// `signature` ("0a.1f.*...") with its first kept byte replaced by `k`'s low
// byte and its second by the next: distinct per (site, cluster).
std::string VariedSignature(const std::string& signature, int k) {
  std::vector<std::string> bytes = absl::StrSplit(signature, '.');
  int replaced = 0;
  for (std::string& b : bytes) {
    if (b == "*" || replaced == 2) continue;
    b = absl::StrFormat("%02x", (k >> (8 * replaced)) & 0xff);
    ++replaced;
  }
  return absl::StrJoin(bytes, ".");
}

// The demo shop's host in URLs and in URL regexes.
constexpr char kDemoHost[] = "shop.vertex-demo.test";
constexpr char kDemoHostRegex[] = "shop\\.vertex-demo\\.test";

std::string SiteUrl(const std::string& url, int site, int cluster) {
  return absl::StrReplaceAll(url, {{kDemoHost, absl::StrFormat("%s.example/t%d", SiteName(site), cluster)}});
}

absl::Status WriteCopy(store::RuleStore& store, const v1::SiteRecord& site_record,
                       const std::vector<TemplateCluster>& templates, int site, int clusters) {
  v1::SiteRecord record = site_record;
  record.set_site(SiteName(site));
  record.clear_cluster_ids();
  VERTEX_RETURN_IF_ERROR(store.PutSite(record));
  std::vector<v1::ClusterRecord> records;
  for (int j = 0; j < clusters; ++j) {
    v1::ClusterRecord c = templates[j % templates.size()].cluster;
    c.set_site(record.site());
    c.set_cluster_id(absl::StrFormat("c%02d", j));
    c.set_signature(VariedSignature(c.signature(), site * clusters + j));
    c.set_url_regex(absl::StrReplaceAll(
        c.url_regex(), {{kDemoHostRegex, absl::StrFormat("%s\\.example/t%d", record.site(), j)}}));
    c.set_current_version(0);
    c.set_latest_version(0);
    c.clear_merged();
    c.clear_golden();
    records.push_back(std::move(c));
  }
  VERTEX_RETURN_IF_ERROR(store.PutClusters(record.site(), records));
  for (int j = 0; j < clusters; ++j) {
    const TemplateCluster& t = templates[j % templates.size()];
    store::RuleCommit commit;
    commit.rule = t.rule;
    commit.rule.set_site(record.site());
    commit.rule.set_cluster_id(records[j].cluster_id());
    commit.rule.set_signature(records[j].signature());
    commit.rule.set_url_regex(records[j].url_regex());
    commit.rule.clear_extra_signatures();
    for (v1::PageSnapshot s : t.snapshots) {
      s.set_url(SiteUrl(s.url(), site, j));
      commit.snapshots.push_back(std::move(s));
    }
    VERTEX_RETURN_IF_ERROR(store.CommitRule(commit).status());
  }
  return absl::OkStatus();
}

absl::Status Store(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(const int64_t sites, a.Int("sites", 100, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(const int64_t clusters, a.Int("clusters", 20, 1, 1000));
  const std::string dir = a.String("store", "");
  const std::string demo_dir = dir + ".demo";
  std::unique_ptr<store::RuleStore> learnt = store::NewInMemoryStore();
  const absl::Time start = absl::Now();
  VERTEX_RETURN_IF_ERROR(LearnTemplate(*learnt, demo_dir));
  std::filesystem::remove_all(demo_dir);
  VERTEX_ASSIGN_OR_RETURN(const std::vector<TemplateCluster> templates, TemplateClusters(*learnt));
  VERTEX_ASSIGN_OR_RETURN(const v1::SiteRecord site_record, learnt->GetSite("template"));
  const absl::Time learnt_at = absl::Now();
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> out, store::OpenRocksDbStore(dir));
  for (int i = 0; i < sites; ++i) {
    VERTEX_RETURN_IF_ERROR(WriteCopy(*out, site_record, templates, i, static_cast<int>(clusters)));
  }
  out.reset();
  std::uintmax_t bytes = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) bytes += e.file_size();
  }
  std::printf(
      "store %s: %lld sites x %lld clusters = %lld rules (copies of %zu learnt demo-shop rules, %d-%d attributes "
      "and %zu-%zu page snapshots each); learnt in %.1f s, written in %.1f s; %.1f MB on disk\n",
      dir.c_str(), static_cast<long long>(sites), static_cast<long long>(clusters),
      static_cast<long long>(sites * clusters), templates.size(), templates.front().rule.attributes_size(),
      templates.back().rule.attributes_size(), templates.front().snapshots.size(), templates.back().snapshots.size(),
      absl::ToDoubleSeconds(learnt_at - start),
      absl::ToDoubleSeconds(absl::Now() - learnt_at), bytes / 1e6);
  return absl::OkStatus();
}

// ---------------------------------------------------------------- rules

// The heap the compiled rules of every site of the store take in this
// process (workflow::LoadSiteExtractor, as the extraction engine loads a
// site), counted exactly, against the RSS the servers showed.
absl::Status Rules(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(std::unique_ptr<store::RuleStore> store, store::OpenRocksDbStore(a.String("store", "")));
  VERTEX_ASSIGN_OR_RETURN(const std::vector<std::string> names, store->ListSites());
  const int64_t before = g_all_live.load(), xml_before = g_xml_live.load();
  std::vector<extract::SiteExtractor> extractors;
  size_t rules = 0;
  for (const std::string& site : names) {
    absl::StatusOr<extract::SiteExtractor> e = workflow::LoadSiteExtractor(*store, site);
    if (!e.ok()) continue;  // a site without rules
    rules += e->rules().size();
    extractors.push_back(*std::move(e));
  }
  const int64_t bytes = g_all_live.load() - before;
  std::printf("compiled rules of %zu sites (%zu rules): %.1f MB of heap (%.1f KB per rule; libxml2's share %.1f MB)\n",
              extractors.size(), rules, Mb(bytes), rules > 0 ? bytes / 1024.0 / rules : 0.0,
              Mb(g_xml_live.load() - xml_before));
  std::printf("JSON {\"command\":\"rules\",\"sites\":%zu,\"rules\":%zu,\"heap_mb\":%.2f}\n", extractors.size(), rules,
              Mb(bytes));
  return absl::OkStatus();
}

// ---------------------------------------------------------------- drive

struct Process {
  std::string name, address;
  int pid = 0;
};

struct MemoryFigures {
  int64_t rss_kb = -1, hwm_kb = -1;
};

MemoryFigures ReadMemory(int pid) {
  MemoryFigures m;
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  for (std::string line; std::getline(status, line);) {
    if (line.rfind("VmRSS:", 0) == 0) m.rss_kb = std::atoll(line.c_str() + 6);
    if (line.rfind("VmHWM:", 0) == 0) m.hwm_kb = std::atoll(line.c_str() + 6);
  }
  return m;
}

// CPU seconds (user + system) of `pid` so far; -1 when unknown.
double ProcessCpuSeconds(int pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t paren = text.rfind(')');
  if (paren == std::string::npos) return -1;
  std::vector<std::string> fields = absl::StrSplit(text.substr(paren + 2), ' ');
  if (fields.size() < 13) return -1;  // fields 14 and 15 of stat: utime, stime
  return (std::atof(fields[11].c_str()) + std::atof(fields[12].c_str())) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

absl::StatusOr<std::vector<Process>> ParseProcesses(const std::string& list) {
  std::vector<Process> out;
  for (absl::string_view item : absl::StrSplit(list, ',', absl::SkipEmpty())) {
    const size_t eq = item.find('='), slash = item.rfind('/');
    Process p;
    if (eq == absl::string_view::npos || slash == absl::string_view::npos || slash < eq ||
        !absl::SimpleAtoi(item.substr(slash + 1), &p.pid) || p.pid <= 0) {
      return absl::InvalidArgumentError(absl::StrCat("--process: '", item, "' is not NAME=ADDR/PID"));
    }
    p.name = std::string(item.substr(0, eq));
    p.address = std::string(item.substr(eq + 1, slash - eq - 1));
    if (ReadMemory(p.pid).rss_kb < 0) {
      return absl::NotFoundError(absl::StrCat("--process: process ", p.pid, " (", p.name, ") is not running"));
    }
    out.push_back(std::move(p));
  }
  if (out.empty()) return absl::InvalidArgumentError("--process: none given");
  return out;
}

struct Driven {
  size_t ok = 0, errors = 0;
  std::string first_error;
};

// `calls` Extract calls to each site, pages of the demo shop (product
// pages first) under the site's URLs, cluster by cluster.
Driven Drive(const Process& p, const std::vector<demo::GeneratedPage>& pages, int sites, int calls) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  auto stub = v1::ExtractionService::NewStub(
      grpc::CreateCustomChannel(p.address, grpc::InsecureChannelCredentials(), args));
  Driven d;
  for (int i = 0; i < sites; ++i) {
    for (int k = 0; k < calls; ++k) {
      const demo::GeneratedPage& page = pages[static_cast<size_t>(i * calls + k) % pages.size()];
      v1::ExtractRequest request;
      request.set_site(SiteName(i));
      request.set_url(SiteUrl(page.url, i, k));
      request.set_html(page.html);
      grpc::ClientContext context;
      context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(60));
      v1::ExtractResponse response;
      const grpc::Status s = stub->Extract(&context, request, &response);
      if (s.ok()) {
        ++d.ok;
      } else if (d.errors++ == 0) {
        d.first_error = absl::StrCat(SiteName(i), ": ", s.error_message());
      }
    }
  }
  return d;
}

absl::Status DriveMode(const ParsedArgs& a) {
  VERTEX_ASSIGN_OR_RETURN(const std::vector<Process> processes, ParseProcesses(a.String("process", "")));
  VERTEX_ASSIGN_OR_RETURN(const int64_t sites, a.Int("sites", 100, 1, 100000));
  VERTEX_ASSIGN_OR_RETURN(const int64_t calls, a.Int("calls", 3, 1, 1000));
  VERTEX_ASSIGN_OR_RETURN(const double idle_seconds, a.Double("idle-seconds", 10, 0, 3600));
  demo::SiteOptions options;
  options.product_pages = 60;
  options.category_pages = 0;
  options.review_pages = 0;
  options.store_pages = 0;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  std::map<std::string, MemoryFigures> after;
  std::printf("%-16s %8s %8s %12s %12s %12s\n", "process", "calls ok", "errors", "VmRSS MB 0", "VmRSS MB", "VmHWM MB");
  util::JsonWriter w;
  w.BeginObject().Key("command").String("drive").Key("sites").Int(sites).Key("calls_per_site").Int(calls);
  w.Key("processes").BeginArray();
  for (const Process& p : processes) {
    const MemoryFigures before = ReadMemory(p.pid);
    const Driven d = Drive(p, pages, static_cast<int>(sites), static_cast<int>(calls));
    const MemoryFigures m = ReadMemory(p.pid);
    after[p.name] = m;
    std::printf("%-16s %8zu %8zu %12.1f %12.1f %12.1f%s\n", p.name.c_str(), d.ok, d.errors, before.rss_kb / 1024.0,
                m.rss_kb / 1024.0, m.hwm_kb / 1024.0,
                d.errors > 0 ? (std::string("  first error: ") + d.first_error).c_str() : "");
    w.BeginObject().Key("name").String(p.name).Key("calls_ok").Uint(d.ok).Key("errors").Uint(d.errors);
    w.Key("rss_mb_before").Double(before.rss_kb / 1024.0).Key("rss_mb").Double(m.rss_kb / 1024.0);
    w.Key("hwm_mb").Double(m.hwm_kb / 1024.0).EndObject();
  }
  w.EndArray();
  for (const auto& [name, m] : after) {
    auto empty = after.find(name + "_empty");
    if (empty == after.end()) continue;
    std::printf("%s: %lld sites x their rules cost %.1f MB of VmRSS (%.1f loaded - %.1f empty); VmHWM %.1f - %.1f\n",
                name.c_str(), static_cast<long long>(sites), (m.rss_kb - empty->second.rss_kb) / 1024.0,
                m.rss_kb / 1024.0, empty->second.rss_kb / 1024.0, m.hwm_kb / 1024.0, empty->second.hwm_kb / 1024.0);
  }
  // Idle: what following the store costs each process with no call (a
  // reader catches up every --catch-up-ms and re-checks the sites it holds).
  std::vector<double> cpu0;
  for (const Process& p : processes) cpu0.push_back(ProcessCpuSeconds(p.pid));
  absl::SleepFor(absl::Seconds(idle_seconds));
  w.Key("idle_seconds").Double(idle_seconds).Key("idle_cpu_share").BeginObject();
  for (size_t i = 0; i < processes.size(); ++i) {
    const double share = idle_seconds > 0 ? (ProcessCpuSeconds(processes[i].pid) - cpu0[i]) / idle_seconds : 0;
    std::printf("%s idle for %.0f s: %.3f cores busy\n", processes[i].name.c_str(), idle_seconds, share);
    w.Key(processes[i].name).Double(share);
  }
  w.EndObject().EndObject();
  std::printf("JSON %s\n", w.str().c_str());
  return absl::OkStatus();
}

// ---------------------------------------------------------------- page

// `page` with its body's content repeated so that the page is as large as
// `limit` allows (at least once).
std::string Enlarged(const std::string& page, size_t limit) {
  const size_t body = page.find("<body");
  const size_t open_end = body == std::string::npos ? std::string::npos : page.find('>', body);
  const size_t close = page.rfind("</body>");
  if (open_end == std::string::npos || close == std::string::npos || close <= open_end) return page;
  const std::string head = page.substr(0, open_end + 1);
  const std::string inner = page.substr(open_end + 1, close - open_end - 1);
  const std::string tail = page.substr(close);
  std::string out = head;
  const size_t copies = std::max<size_t>(1, (limit - head.size() - tail.size()) / std::max<size_t>(1, inner.size()));
  out.reserve(head.size() + copies * inner.size() + tail.size());
  for (size_t i = 0; i < copies; ++i) out += inner;
  return out + tail;
}

struct PageMemory {
  size_t bytes = 0;
  std::string status;
  double seconds = 0;
  int64_t peak_all = 0, peak_new = 0, peak_xml = 0;  // above what was live before
  int64_t retained = 0;                              // live after, above before
  size_t arena_bytes = 0;                            // Gumbo's arena high-water mark
  size_t nodes = 0;
};

PageMemory MeasurePage(const extract::SiteExtractor& extractor, html::Parser& parser, const std::string& bytes,
                       const std::string& url) {
  PageMemory m;
  m.bytes = bytes.size();
  const int64_t all0 = g_all_live.load(), new0 = g_new_live.load(), xml0 = g_xml_live.load();
  g_all_peak = all0;
  g_new_peak = new0;
  g_xml_peak = xml0;
  const absl::Time start = absl::Now();
  {
    absl::StatusOr<extract::Record> record = extractor.Extract(bytes, url, parser);
    m.status = record.ok() ? extract::RecordStatusName(record->status) : record.status().ToString();
  }
  m.seconds = absl::ToDoubleSeconds(absl::Now() - start);
  m.peak_all = g_all_peak.load() - all0;
  m.peak_new = g_new_peak.load() - new0;
  m.peak_xml = g_xml_peak.load() - xml0;
  m.retained = g_all_live.load() - all0;
  {
    html::Arena arena;
    GumboOptions options = html::GumboOptionsFor(&arena);
    GumboOutput* output = gumbo_parse_with_options(&options, bytes.data(), bytes.size());
    m.arena_bytes = arena.bytes_allocated();
    (void)output;  // arena memory: freed with the arena
  }
  absl::StatusOr<html::Page> page = parser.Parse(bytes, url);
  if (page.ok()) m.nodes = page->node_count();
  return m;
}

void PrintPage(const std::string& what, const PageMemory& m) {
  std::printf(
      "%-34s %8.2f MB page, %8zu nodes, %-16s %7.1f ms: peak heap %7.1f MB (%.1fx the page) = libxml2 %6.1f MB + "
      "the rest (Gumbo arena, strings, rules) %6.1f MB; Gumbo arena high-water %6.1f MB; retained after %.2f MB\n",
      what.c_str(), Mb(static_cast<int64_t>(m.bytes)), m.nodes, m.status.c_str(), 1000 * m.seconds, Mb(m.peak_all),
      static_cast<double>(m.peak_all) / static_cast<double>(m.bytes), Mb(m.peak_xml), Mb(m.peak_all - m.peak_xml),
      Mb(static_cast<int64_t>(m.arena_bytes)), Mb(m.retained));
}

void WritePageJson(const std::string& what, const PageMemory& m, util::JsonWriter& w) {
  w.BeginObject().Key("page").String(what).Key("bytes").Uint(m.bytes).Key("nodes").Uint(m.nodes);
  w.Key("status").String(m.status).Key("ms").Double(1000 * m.seconds);
  w.Key("peak_heap_mb").Double(Mb(m.peak_all)).Key("peak_libxml2_mb").Double(Mb(m.peak_xml));
  w.Key("peak_operator_new_mb").Double(Mb(m.peak_new)).Key("gumbo_arena_mb").Double(Mb(m.arena_bytes));
  w.Key("retained_mb").Double(Mb(m.retained)).EndObject();
}

// The name of the default page builder (ParseOptions).
std::string DefaultBuilderName() { return std::string(html::PageBuilderName(html::ParseOptions{}.builder)); }

absl::Status PageMode(const ParsedArgs& a) {
  // The builder the pages are clustered with and the rules learnt and
  // applied with.
  VERTEX_ASSIGN_OR_RETURN(const html::PageBuilder builder,
                          html::PageBuilderFromName(a.String("builder", DefaultBuilderName())));
  VERTEX_ASSIGN_OR_RETURN(BenchSite site, LoadBenchSite(a.Has("demo"), builder));
  workflow::PagePool pool(site.clustering, site.options.parse);
  VERTEX_ASSIGN_OR_RETURN(const LearntRules learnt, LearnSiteRules(site, pool));
  VERTEX_ASSIGN_OR_RETURN(const extract::SiteExtractor extractor,
                          extract::SiteExtractor::Create(*site.schema, learnt.rules));
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::ClientPage> pages,
                          workflow::ReadClientPages({site.files.front()}, html::ParseOptions().max_page_bytes));
  const workflow::ClientPage& typical = pages.front();
  html::Parser parser(site.options.parse);
  const size_t limit = parser.options().max_page_bytes;
  const std::string large = Enlarged(typical.bytes, limit);
  std::printf("%s: %zu rules; page builder %s; limit %zu bytes\n", site.name.c_str(), learnt.rules.size(),
              std::string(html::PageBuilderName(parser.options().builder)).c_str(), limit);
  MeasurePage(extractor, parser, typical.bytes, typical.url);  // warm-up: the parser's arena block, caches
  const PageMemory small = MeasurePage(extractor, parser, typical.bytes, typical.url);
  const PageMemory big = MeasurePage(extractor, parser, large, typical.url);
  PrintPage("typical page (" + typical.file.substr(typical.file.rfind('/') + 1) + ")", small);
  PrintPage("largest allowed page", big);
  util::JsonWriter w;
  w.BeginObject().Key("command").String("page").Key("site").String(site.name).Key("pages").BeginArray();
  WritePageJson("typical", small, w);
  WritePageJson("largest", big, w);
  w.EndArray().EndObject();
  std::printf("JSON %s\n", w.str().c_str());
  return absl::OkStatus();
}

// ---------------------------------------------------------------- main

int Main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    std::fputs(kUsage, args.empty() ? stderr : stdout);
    return args.empty() ? 1 : 0;
  }
  struct Mode {
    const char* name;
    std::vector<FlagSpec> flags;
    std::vector<std::string> required;
    absl::Status (*run)(const ParsedArgs&);
  };
  const Mode modes[] = {
      {"store",
       {{"store", "DIR", "the RocksDB store to write (created)"},
        {"sites", "N", "sites (default 100)"},
        {"clusters", "C", "clusters with a rule per site (default 20)"}},
       {"store"},
       Store},
      {"drive",
       {{"process", "NAME=ADDR/PID[,...]", "servers to call and whose memory to read (NAME_empty: empty store)"},
        {"sites", "N", "sites site000.. to call (default 100)"},
        {"calls", "K", "Extract calls per site (default 3)"},
        {"idle-seconds", "S", "then the CPU each process spends idle over S seconds (default 10)"}},
       {"process"},
       DriveMode},
      {"rules", {{"store", "DIR", "the RocksDB store (not open in another process)"}}, {"store"}, Rules},
      {"page",
       {{"demo", "", "the demo shop even when SWDE is present"},
        {"builder", "NAME", "the page builder, gumbo or libxml2 (default " + DefaultBuilderName() + ")"}},
       {},
       PageMode},
  };
  for (const Mode& m : modes) {
    if (args[0] != m.name) continue;
    std::vector<FlagSpec> flags = m.flags;
    flags.push_back({"help", "", "this help"});
    absl::StatusOr<ParsedArgs> parsed = cli::ParseArgs({args.begin() + 1, args.end()}, flags);
    absl::Status status = parsed.status();
    if (parsed.ok() && parsed->Has("help")) {
      std::cout << kUsage << "\nflags of " << m.name << ":\n" << cli::FlagHelp(flags);
      return 0;
    }
    for (const std::string& r : m.required) {
      if (status.ok() && !parsed->Has(r)) status = absl::InvalidArgumentError("--" + r + " is required");
    }
    if (status.ok()) status = m.run(*parsed);
    if (status.ok()) return 0;
    std::fprintf(stderr, "memory_bench %s: %s\n", m.name, status.ToString().c_str());
    return 1;
  }
  std::fprintf(stderr, "memory_bench: unknown mode '%s'\n%s", args[0].c_str(), kUsage);
  return 1;
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  // Before libxml2 allocates anything: its allocations go through the counters.
  xmlMemSetup(XmlFree, XmlMalloc, XmlRealloc, XmlStrdup);
  return vertex::bench::Main(argc, argv);
}
