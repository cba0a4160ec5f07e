// What an exported rule costs a consumer that runs its XPaths with libxml2
// (lxml, parsel, xsltproc): per page, the time of evaluating the exported
// XPaths of the page's cluster rule divided by the time of libxml2 parsing
// the page (htmlReadMemory), for the XPaths as rendered today (label-first,
// rule/features.h RenderXPath: what `rules export` gives) and as rendered
// before (top down, each candidate testing its anchor through a whole
// preceding::/following:: axis). Both are measured on the same pages in the
// same run, on the SWDE booksamillion pages (when present) and on the
// generated demo site's. The target is a ratio <= 2.
//
//   xpath_export_bench [--pages=N] [--demo-only] [--benchmark_...]
//
// --pages: pages per site timed (default 40; the old rendering takes ~0.5 s
// per 95 KB page and anchored XPath). Prints per site the median and mean
// ratios of both renderings, then runs Google Benchmark's BM_Parse,
// BM_EvaluateLabelFirst and BM_EvaluateTopDown on the first site's pages.
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "bench/bench_site.h"
#include "common/extract/json_export.h"
#include "common/extract/xslt_export.h"
#include "common/rule/feature_selector.h"
#include "common/rule/features.h"
#include "common/util/status_macros.h"

namespace vertex::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
struct CompDeleter {
  void operator()(xmlXPathCompExpr* c) const { xmlXPathFreeCompExpr(c); }
};
using Doc = std::unique_ptr<xmlDoc, DocDeleter>;
using Comp = std::unique_ptr<xmlXPathCompExpr, CompDeleter>;

Doc Parse(const BenchPage& p) {
  return Doc(htmlReadMemory(p.bytes.data(), static_cast<int>(p.bytes.size()), p.url.c_str(), nullptr,
                            HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET));
}

// The top-down rendering of before label-first XPaths, with the rule's
// position (the classic form of RenderPositionalXPath).
std::string TopDownXPath(const v1::AttributeRule& a) {
  std::vector<rule::Feature> features;
  for (const v1::XPathFeature& p : a.features()) features.push_back(rule::FeatureFromProto(p).value());
  std::string x = rule::RenderTopDownXPath(features, a.text_nodes());
  const v1::Position& pos = a.position();
  const std::string base = x + (a.text_nodes() ? "[normalize-space()]" : "");
  switch (pos.kind()) {
    case v1::Position::FROM_START: x = absl::StrCat("(", base, ")[", pos.n(), "]"); break;
    case v1::Position::FROM_END:
      x = pos.n() == 0 ? absl::StrCat("(", base, ")[last()]") : absl::StrCat("(", base, ")[last()-", pos.n(), "]");
      break;
    case v1::Position::STEP: x = absl::StrCat(base, "[", pos.n(), "]"); break;
    default: break;
  }
  return extract::RewriteEndsWith(x).value();
}

struct TimedSite {
  std::string name;
  std::vector<BenchPage> pages;
  // Per page, the compiled XPaths of its cluster's rule (both renderings).
  std::vector<std::vector<std::shared_ptr<xmlXPathCompExpr>>> label_first, top_down;
  std::vector<std::vector<std::string>> label_first_text;  // the XPaths of label_first
  size_t anchored = 0, xpaths = 0;
};

std::shared_ptr<xmlXPathCompExpr> Compile(const std::string& x) {
  xmlXPathCompExpr* c = xmlXPathCompile(reinterpret_cast<const xmlChar*>(x.c_str()));
  if (c == nullptr) {
    std::fprintf(stderr, "XPath does not compile: %s\n", x.c_str());
    std::exit(1);
  }
  return std::shared_ptr<xmlXPathCompExpr>(c, xmlXPathFreeCompExpr);
}

absl::StatusOr<TimedSite> LoadTimedSite(bool demo, int max_pages) {
  VERTEX_ASSIGN_OR_RETURN(BenchSite site, LoadBenchSite(demo));
  workflow::PagePool pool(site.clustering, html::ParseOptions{});
  VERTEX_ASSIGN_OR_RETURN(LearntRules learnt, LearnSiteRules(site, pool));
  VERTEX_ASSIGN_OR_RETURN(BenchCorpus corpus, ReadCorpus(site));
  TimedSite out;
  out.name = site.name;
  std::map<std::string, size_t> page_of_file;
  for (size_t i = 0; i < site.files.size(); ++i) page_of_file[site.files[i]] = i;
  for (const workflow::SimulatedCluster& c : learnt.clusters) {
    const v1::Rule& rule = c.result.learnt.rule;
    std::vector<std::shared_ptr<xmlXPathCompExpr>> fast, slow;
    std::vector<std::string> fast_text;
    for (const v1::AttributeRule& a : rule.attributes()) {
      if (a.method() != v1::AttributeRule::XPATH) continue;
      fast_text.push_back(extract::ExportXPath(a).value());
      fast.push_back(Compile(fast_text.back()));
      slow.push_back(Compile(a.features_size() > 0 ? TopDownXPath(a) : extract::ExportXPath(a).value()));
      out.anchored += std::any_of(a.features().begin(), a.features().end(), [](const v1::XPathFeature& f) {
        const rule::Kind k = rule::FeatureFromProto(f).value().kind;
        return k == rule::Kind::kOutLeftText || k == rule::Kind::kOutLeftWord || k == rule::Kind::kOutRightText ||
               k == rule::Kind::kOutRightWord;
      });
    }
    if (fast.empty()) continue;
    // An even spread of the cluster's pages, up to the site's budget.
    for (size_t page : site.clustering.clusters[c.cluster].pages) {
      if (static_cast<int>(out.pages.size()) >= max_pages) break;
      const auto it = page_of_file.find(site.clustering.pages[page].file);
      if (it == page_of_file.end()) continue;
      out.pages.push_back(corpus.pages[it->second]);
      out.label_first.push_back(fast);
      out.label_first_text.push_back(fast_text);
      out.top_down.push_back(slow);
      out.xpaths += fast.size();
    }
  }
  return out;
}

double EvaluateAll(xmlDoc* doc, const std::vector<std::shared_ptr<xmlXPathCompExpr>>& xpaths) {
  const Clock::time_point t = Clock::now();
  xmlXPathContext* ctx = xmlXPathNewContext(doc);
  for (const auto& x : xpaths) {
    xmlXPathObject* r = xmlXPathCompiledEval(x.get(), ctx);
    benchmark::DoNotOptimize(r);
    xmlXPathFreeObject(r);
  }
  xmlXPathFreeContext(ctx);
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// Paired per-page ratios of both renderings; prints them.
void Ratios(const TimedSite& s) {
  std::vector<double> fast, slow;
  double parse_total = 0, fast_total = 0, slow_total = 0;
  for (size_t i = 0; i < s.pages.size(); ++i) {
    double parse = 1e9;
    Doc doc;
    for (int k = 0; k < 3; ++k) {  // the fastest of 3 parses: the page's parse cost without noise
      const Clock::time_point t = Clock::now();
      doc = Parse(s.pages[i]);
      parse = std::min(parse, std::chrono::duration<double>(Clock::now() - t).count());
    }
    double f = 1e9;
    for (int k = 0; k < 3; ++k) f = std::min(f, EvaluateAll(doc.get(), s.label_first[i]));
    const double o = EvaluateAll(doc.get(), s.top_down[i]);  // once: up to seconds
    fast.push_back(f / parse), slow.push_back(o / parse);
    parse_total += parse, fast_total += f, slow_total += o;
  }
  const double n = static_cast<double>(s.pages.size());
  std::printf("%s: %zu pages, %.1f XPaths per page (%zu anchored rules), parse %.2f ms per page\n", s.name.c_str(),
              s.pages.size(), s.xpaths / n, s.anchored, 1e3 * parse_total / n);
  std::printf("  label-first: evaluate %.3f ms per page, ratio to parse median %.2f, total %.2f\n",
              1e3 * fast_total / n, Median(fast), fast_total / parse_total);
  std::printf("  top-down:    evaluate %.3f ms per page, ratio to parse median %.2f, total %.2f\n",
              1e3 * slow_total / n, Median(slow), slow_total / parse_total);
  // Where the label-first time goes: the costliest exported XPaths, each
  // timed alone on every page, as a share of the parse time (all of them
  // with VERTEX_BENCH_ALL_XPATHS set).
  std::map<std::string, double> cost;
  for (size_t i = 0; i < s.pages.size(); ++i) {
    Doc doc = Parse(s.pages[i]);
    for (size_t k = 0; k < s.label_first[i].size(); ++k) {
      double best = 1e9;  // the fastest of 3: the cost without noise
      for (int r = 0; r < 3; ++r) best = std::min(best, EvaluateAll(doc.get(), {s.label_first[i][k]}));
      cost[s.label_first_text[i][k]] += best;
    }
  }
  std::vector<std::pair<double, std::string>> top;
  for (const auto& [x, t] : cost) top.emplace_back(t, x);
  std::sort(top.rbegin(), top.rend());
  const size_t kShown = std::getenv("VERTEX_BENCH_ALL_XPATHS") ? top.size() : 3;
  for (size_t k = 0; k < top.size() && k < kShown; ++k) {
    const std::string& x = top[k].second;
    std::printf("  costliest %zu: %.2f x parse: %s%s\n", k + 1, top[k].first / parse_total, x.substr(0, 160).c_str(),
                x.size() > 160 ? "..." : "");
  }
}

const TimedSite* g_site = nullptr;

void BM_Parse(benchmark::State& state) {
  size_t i = 0;
  for (auto _ : state) {
    Doc d = Parse(g_site->pages[i++ % g_site->pages.size()]);
    benchmark::DoNotOptimize(d.get());
  }
}

void Evaluate(benchmark::State& state, bool label_first) {
  std::vector<Doc> docs;
  for (const BenchPage& p : g_site->pages) docs.push_back(Parse(p));
  size_t i = 0;
  for (auto _ : state) {
    const size_t k = i++ % docs.size();
    EvaluateAll(docs[k].get(), label_first ? g_site->label_first[k] : g_site->top_down[k]);
  }
}

void BM_EvaluateLabelFirst(benchmark::State& state) { Evaluate(state, true); }
void BM_EvaluateTopDown(benchmark::State& state) { Evaluate(state, false); }

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  using namespace vertex::bench;
  benchmark::Initialize(&argc, argv);
  absl::StatusOr<std::map<std::string, std::string>> flags = ParseBenchFlags(argc, argv, {"pages", "demo-only"});
  if (!flags.ok()) {
    std::fprintf(stderr, "%s\n", flags.status().ToString().c_str());
    return 2;
  }
  absl::StatusOr<int> pages = PositiveFlag(*flags, "pages", 40);
  if (!pages.ok()) {
    std::fprintf(stderr, "%s\n", pages.status().ToString().c_str());
    return 2;
  }
  std::vector<TimedSite> sites;
  for (bool demo : {false, true}) {
    if (!demo && flags->count("demo-only")) continue;
    absl::StatusOr<TimedSite> s = LoadTimedSite(demo, *pages);
    if (!s.ok()) {
      std::fprintf(stderr, "%s\n", s.status().ToString().c_str());
      return 1;
    }
    if (!sites.empty() && s->name == sites.back().name) continue;  // no SWDE: the demo site twice
    sites.push_back(*std::move(s));
  }
  for (const TimedSite& s : sites) Ratios(s);
  g_site = &sites.front();
  benchmark::RegisterBenchmark("BM_Parse", BM_Parse)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_EvaluateLabelFirst", BM_EvaluateLabelFirst)->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_EvaluateTopDown", BM_EvaluateTopDown)->Unit(benchmark::kMillisecond)->Iterations(5);
  benchmark::RunSpecifiedBenchmarks();
  return 0;
}
