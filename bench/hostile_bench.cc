// Hostile-page benchmark (issue 18): what a page built to hit a super-linear
// path costs, against a normal page of the same size, at doubling sizes.
//
// The rules are learnt once on the generated demo site's product pages (as
// extract_bench --demo does). Each hostile page is one of those product
// pages with the hostile part inserted at the start of its <body> (so the
// product cluster's rule still runs on it), grown to the target size. For
// each case and size, in the same run:
//   extract  SiteExtractor::Extract with the product cluster's URL: URL
//            match, parse + DOM + shingle, rule matching, every attribute's
//            rule (the per-page path of a crawler's Extract)
//   build    html::Parser::Parse with the shingle sink: the page-building
//            path of `vertexctl cluster`
// and the same two on a normal page of that size: demo product pages
// concatenated up to it. The URL cases grow the URL instead: the page URL
// (extract and build of a normal page fetched from a URL of that length) and
// URL-pattern inference (InferUrlRegex over 8 URLs of that length, against 8
// of the demo site's URLs padded by path segments; "build" column). The
// user_xpath case evaluates user-given XPaths (explosive // steps, a
// long axis walked per node, a 16 KB union) with libxml2 on a normal page of
// the size (both columns), against extracting that page.
//
// Reported per case: ms per size, the ratio to the normal page of the same
// size at the largest size measured, and the slope log(t2/t1)/log(2) of each
// doubling (1.0 = linear; the largest is printed). A refused page (over a
// limit) is timed like any other: refusing it is its cost; the refusal is
// printed. A case whose time passes --budget_s seconds at one size is not
// run at the larger ones.
//
// Flags: --min_kb=N (smallest size, default 128), --doublings=N (default 5,
// so 128 KB .. 2 MB; 6 reaches 4 MB), --budget_s=S (default 20),
// --cases=a,b (default all).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "bench/bench_pages.h"
#include "bench/bench_site.h"
#include "benchmark/benchmark.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/shingle/shingle.h"
#include "common/urlpattern/url_regex.h"
#include "common/util/status_macros.h"
#include "common/workflow/cluster_learner.h"

namespace vertex::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Repeats `unit` (with the index substituted for every '#') until `out`
// holds `bytes` more bytes.
void Repeat(std::string& out, size_t bytes, const std::function<std::string(size_t)>& unit) {
  const size_t target = out.size() + bytes;
  for (size_t i = 0; out.size() < target; ++i) out += unit(i);
}

// The hostile part of each page case, about `n` bytes.
using Generator = std::function<std::string(size_t n)>;

struct Case {
  std::string name;
  std::string what;
  Generator hostile;  // inserted into a product page; null for URL cases
};

std::vector<Case> PageCases() {
  return {
      {"attributes", "one <div> with n/8 attributes",
       [](size_t n) {
         std::string s = "<div";
         Repeat(s, n, [](size_t i) { return absl::StrCat(" a", i, "=x"); });
         return s + ">x</div>";
       }},
      {"attributes_at_limit", "<div>s of 1,000 attributes each",
       [](size_t n) {
         std::string s;
         Repeat(s, n, [](size_t) {
           std::string d = "<div";
           for (int k = 0; k < 1000; ++k) absl::StrAppend(&d, " a", k, "=x");
           return d + ">x</div>";
         });
         return s;
       }},
      {"attribute_value", "one attribute value of n bytes",
       [](size_t n) { return "<div title=\"" + std::string(n, 'v') + "\">x</div>"; }},
      {"text_node", "one text node of n bytes",
       [](size_t n) {
         std::string s = "<p>";
         Repeat(s, n, [](size_t) { return std::string("word "); });
         return s + "</p>";
       }},
      {"children", "one <div> with n/14 <span> children",
       [](size_t n) {
         std::string s = "<div>";
         Repeat(s, n, [](size_t) { return std::string("<span>x</span>"); });
         return s + "</div>";
       }},
      {"sibling_run", "unclosed <p>, <li>, <dt>/<dd>, <option> runs",
       [](size_t n) {
         std::string s = "<ul>";
         Repeat(s, n / 4, [](size_t) { return std::string("<li>x"); });
         s += "</ul><dl>";
         Repeat(s, n / 4, [](size_t) { return std::string("<dt>x<dd>y"); });
         s += "</dl><select>";
         Repeat(s, n / 4, [](size_t) { return std::string("<option>x"); });
         s += "</select>";
         Repeat(s, n / 4, [](size_t) { return std::string("<p>x"); });
         return s;
       }},
      {"entities", "text of named and numeric character references",
       [](size_t n) {
         std::string s = "<p>";
         Repeat(s, n, [](size_t) { return std::string("&amp;&lt;&#x41;&eacute;&notin&#12345;"); });
         return s + "</p>";
       }},
      {"table", "one wide table (n/5 cells) and tables nested 100 deep",
       [](size_t n) {
         std::string s = "<table><tr>";
         Repeat(s, n / 2, [](size_t) { return std::string("<td>x"); });
         s += "</table>";
         Repeat(s, n / 2, [](size_t) {
           std::string t;
           for (int k = 0; k < 100; ++k) t += "<table><tr><td>";
           for (int k = 0; k < 100; ++k) t += "</td></tr></table>";
           return t;
         });
         return s;
       }},
      {"misnested_formatting", "<b><i><u><s>x</b></i></u></s> and formatting left open across <p>s",
       [](size_t n) {
         std::string s;
         Repeat(s, n / 2, [](size_t) { return std::string("<b><i><u><s>x</b></i></u></s>"); });
         s += "<div>";
         for (int k = 0; k < 100; ++k) absl::StrAppend(&s, "<b class=c", k, ">");
         Repeat(s, n / 2, [](size_t) { return std::string("<p>x</p>"); });
         return s + "</div>";
       }},
      {"template", "<template>s nested 100 deep, repeated",
       [](size_t n) {
         std::string s;
         Repeat(s, n, [](size_t) {
           std::string t;
           for (int k = 0; k < 100; ++k) t += "<template><div>";
           for (int k = 0; k < 100; ++k) t += "</div></template>";
           return t;
         });
         return s;
       }},
      {"foreign_content", "<svg> and <math> nested 200 deep, repeated",
       [](size_t n) {
         std::string s;
         Repeat(s, n, [](size_t) {
           std::string t = "<svg>";
           for (int k = 0; k < 100; ++k) t += "<g>";
           for (int k = 0; k < 100; ++k) t += "</g>";
           t += "</svg><math>";
           for (int k = 0; k < 100; ++k) t += "<mrow>";
           for (int k = 0; k < 100; ++k) t += "</mrow>";
           return t + "</math>";
         });
         return s;
       }},
  };
}

struct Timing {
  double seconds = 0;
  std::string refused;  // the error, when the page was refused
};

// Best of up to 3 runs (fewer when one run is long).
Timing Best(const std::function<absl::Status()>& run) {
  Timing t{1e30, ""};
  double total = 0;
  for (int r = 0; r < 3 && total < 2.0; ++r) {
    const auto start = Clock::now();
    const absl::Status s = run();
    const double secs = std::chrono::duration<double>(Clock::now() - start).count();
    total += secs;
    t.seconds = std::min(t.seconds, secs);
    if (!s.ok()) t.refused = std::string(s.message().substr(0, 110));
  }
  return t;
}

struct Row {
  std::string name;
  std::vector<size_t> sizes;
  std::vector<Timing> extract, build;
  std::vector<double> normal_extract, normal_build;  // at the same sizes
};

double MaxSlope(const std::vector<Timing>& t) {
  double slope = 0;
  for (size_t i = 1; i < t.size(); ++i) {
    slope = std::max(slope, std::log(t[i].seconds / t[i - 1].seconds) / std::log(2.0));
  }
  return slope;
}

class Bench {
 public:
  Bench(const extract::SiteExtractor& extractor, std::string template_page, std::string url,
        const BenchCorpus& corpus)
      : extractor_(extractor), template_(std::move(template_page)), url_(std::move(url)), corpus_(corpus) {}

  // The product page with `hostile` right after its <body> start tag.
  std::string HostilePage(const std::string& hostile) const {
    size_t at = template_.find("<body");
    at = at == std::string::npos ? 0 : template_.find('>', at) + 1;
    return template_.substr(0, at) + hostile + template_.substr(at);
  }

  // Demo pages concatenated up to `bytes`.
  std::string NormalPage(size_t bytes) const {
    std::string s;
    for (size_t i = 0; s.size() < bytes; ++i) s += corpus_.pages[i % corpus_.pages.size()].bytes;
    return s;
  }

  Timing Extract(const std::string& page, const std::string& url) {
    return Best([&]() -> absl::Status {
      absl::StatusOr<extract::Record> r = extractor_.Extract(page, url, parser_);
      benchmark::DoNotOptimize(r);
      return r.status();
    });
  }

  Timing Build(const std::string& page, const std::string& url) {
    return Best([&]() -> absl::Status {
      absl::StatusOr<html::Page> p = parser_.Parse(page, url, "", &shingler_);
      benchmark::DoNotOptimize(shingler_.Finish());
      return p.status();
    });
  }

  Timing InferUrls(size_t bytes, bool hostile) {
    std::vector<std::string> urls;
    for (size_t i = 0; i < 8; ++i) {
      std::string u = corpus_.pages[i % corpus_.pages.size()].url;
      if (hostile) {
        u += "?q=";
        Repeat(u, bytes, [i](size_t k) { return absl::StrCat("a", (k * 7 + i) % 10, "&b", k, "="); });
      } else {
        const size_t slash = u.rfind('/');
        std::string tail = u.substr(slash);
        u.resize(slash);
        Repeat(u, bytes, [](size_t k) { return absl::StrCat("/seg", k % 10); });
        u += tail;
      }
      urls.push_back(std::move(u));
    }
    return Best([&]() -> absl::Status { return urlpattern::InferUrlRegex(urls).status(); });
  }

  // A user's XPath (explosive steps, a long axis walked per node, a huge
  // union) evaluated by libxml2 on the normal page of `bytes`.
  Timing UserXPath(size_t bytes) {
    absl::StatusOr<html::Page> page = parser_.Parse(NormalPage(bytes), url_);
    if (!page.ok()) return {0, std::string(page.status().message())};
    std::string unions = "//h1";
    while (unions.size() + 8 < html::kMaxXPathBytes) unions += " | //*/h1";
    std::vector<html::XPath> xpaths;
    for (const std::string& e : {std::string("//*//*//*//*//*//*//*//*"),
                                 std::string("//*[count(preceding::*) > count(following::*)]"), unions}) {
      xpaths.push_back(html::XPath::Compile(e).value());
    }
    return Best([&]() -> absl::Status {
      absl::Status first;
      for (const html::XPath& x : xpaths) {
        absl::StatusOr<std::vector<html::Node>> nodes = x.Select(*page);
        if (!nodes.ok() && first.ok()) first = nodes.status();
      }
      return first;
    });
  }

  double NormalExtract(size_t bytes) {
    if (!normal_extract_.count(bytes)) normal_extract_[bytes] = Extract(NormalPage(bytes), url_).seconds;
    return normal_extract_[bytes];
  }
  double NormalBuild(size_t bytes) {
    if (!normal_build_.count(bytes)) normal_build_[bytes] = Build(NormalPage(bytes), url_).seconds;
    return normal_build_[bytes];
  }

  const std::string& url() const { return url_; }

 private:
  const extract::SiteExtractor& extractor_;
  std::string template_;
  std::string url_;
  const BenchCorpus& corpus_;
  html::Parser parser_;
  shingle::Shingler shingler_;
  std::map<size_t, double> normal_extract_, normal_build_;
};

void PrintRow(const Row& row) {
  std::printf("%-22s", row.name.c_str());
  for (size_t i = 0; i < row.sizes.size(); ++i) {
    std::printf(" %8.1f/%-8.1f", row.extract[i].seconds * 1e3, row.build[i].seconds * 1e3);
  }
  const size_t last = row.sizes.size() - 1;
  std::printf("| x%-6.1f x%-6.1f | %5.2f %5.2f\n", row.extract[last].seconds / row.normal_extract[last],
              row.build[last].seconds / row.normal_build[last], MaxSlope(row.extract), MaxSlope(row.build));
  std::set<std::string> refusals;
  for (const Timing& t : row.extract) {
    if (!t.refused.empty()) refusals.insert(t.refused);
  }
  for (const Timing& t : row.build) {
    if (!t.refused.empty()) refusals.insert(t.refused);
  }
  for (const std::string& r : refusals) std::printf("%24s refused: %s\n", "", r.c_str());
  std::fflush(stdout);
}

absl::Status Run(int argc, char** argv) {
  VERTEX_ASSIGN_OR_RETURN(auto flags, ParseBenchFlags(argc, argv, {"min_kb", "doublings", "budget_s", "cases"}));
  VERTEX_ASSIGN_OR_RETURN(const int min_kb, PositiveFlag(flags, "min_kb", 128));
  VERTEX_ASSIGN_OR_RETURN(const int doublings, PositiveFlag(flags, "doublings", 5));
  VERTEX_ASSIGN_OR_RETURN(const int budget_s, PositiveFlag(flags, "budget_s", 20));
  std::set<std::string> only;
  if (flags.count("cases")) {
    for (absl::string_view c : absl::StrSplit(flags["cases"], ',')) only.insert(std::string(c));
  }
  VERTEX_ASSIGN_OR_RETURN(const BenchSite site, LoadBenchSite(/*demo=*/true));
  workflow::PagePool pool(site.clustering, site.options.parse);
  VERTEX_ASSIGN_OR_RETURN(const LearntRules learnt, LearnSiteRules(site, pool));
  VERTEX_ASSIGN_OR_RETURN(const extract::SiteExtractor extractor,
                          extract::SiteExtractor::Create(*site.schema, learnt.rules));
  VERTEX_ASSIGN_OR_RETURN(const BenchCorpus corpus, ReadCorpus(site));
  if (corpus.pages.empty()) return absl::FailedPreconditionError("the demo site has no pages");
  Bench bench(extractor, corpus.pages[0].bytes, corpus.pages[0].url, corpus);
  std::printf("hostile pages: %s; %zu rules; template page %zu bytes\n", site.name.c_str(), learnt.rules.size(),
              corpus.pages[0].bytes.size());
  std::printf("per size: extract ms / build ms; then at the largest size the ratio to a normal page of that size "
              "(extract, build); then the largest slope over a doubling (extract, build)\n");
  std::printf("%-22s", "case \\ KB");
  for (int d = 0; d < doublings; ++d) std::printf(" %17d", min_kb << d);
  std::printf("| ratio          | slope\n");

  std::vector<Case> cases = PageCases();
  cases.push_back({"user_xpath", "//*//*..., count(preceding::*) per node, a 16 KB union, on a normal page", nullptr});
  cases.push_back({"long_page_url", "the page URL n bytes long (a query string)", nullptr});
  cases.push_back({"url_inference", "InferUrlRegex over 8 URLs with n-byte query strings", nullptr});
  for (const Case& c : cases) {
    if (!only.empty() && !only.count(c.name)) continue;
    Row row{c.name, {}, {}, {}, {}, {}};
    for (int d = 0; d < doublings; ++d) {
      const size_t bytes = static_cast<size_t>(min_kb << d) * 1024;
      Timing extract, build;
      double normal_extract, normal_build;
      if (c.hostile) {
        const std::string page = bench.HostilePage(c.hostile(bytes));
        extract = bench.Extract(page, bench.url());
        build = bench.Build(page, bench.url());
        normal_extract = bench.NormalExtract(page.size());
        normal_build = bench.NormalBuild(page.size());
      } else if (c.name == "user_xpath") {
        extract = build = bench.UserXPath(bytes);
        normal_extract = normal_build = bench.NormalExtract(bytes);
      } else if (c.name == "long_page_url") {
        std::string url = bench.url() + "?q=";
        Repeat(url, bytes, [](size_t k) { return absl::StrCat("k", k % 97, "="); });
        const std::string& page = corpus.pages[0].bytes;
        extract = bench.Extract(page, url);
        build = bench.Build(page, url);
        normal_extract = bench.Extract(page, bench.url()).seconds;
        normal_build = bench.Build(page, bench.url()).seconds;
      } else {
        extract = bench.InferUrls(bytes / 8, /*hostile=*/true);
        build = extract;
        normal_extract = normal_build = bench.InferUrls(bytes / 8, /*hostile=*/false).seconds;
      }
      row.sizes.push_back(bytes);
      row.extract.push_back(extract);
      row.build.push_back(build);
      row.normal_extract.push_back(normal_extract);
      row.normal_build.push_back(normal_build);
      if (std::max(extract.seconds, build.seconds) > budget_s) break;
    }
    PrintRow(row);
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  const absl::Status status = vertex::bench::Run(argc, argv);
  if (!status.ok()) {
    std::fprintf(stderr, "hostile_bench: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
