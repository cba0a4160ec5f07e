// AMBER's cost per page (issue 13), as a multiple of the page's parse,
// measured in the same run on the same page.
//
//   BM_Amber/<layout>/<records>  amber::Run on a parsed result page whose
//                                annotations are given (the annotator's
//                                cost is its own module's)
//
// Layouts: 0 = one <li> per record (Len 1: one start shift), 1 = two
// siblings per record (an <h3> and a <div>: Len 2, two shifts and the
// edit distances that choose between them), each with a header, an
// advertisement every 7 records, a struck-through old price in every 5th
// record and a footer. The counter x_parse is AMBER's time per page over
// the parse's (html::Parser on the same bytes, timed before the loop);
// records is what AMBER found (the page's count when it is right).
#include <chrono>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "common/amber/amber.h"
#include "common/html/page.h"
#include "common/schema/schema.h"

namespace vertex::amber {
namespace {

const char* const kTowns[] = {"Oxford", "Leeds", "York", "Bath", "Ely", "Wells", "Truro"};

std::string ResultPage(int layout, int records) {
  std::string html =
      "<html><head><title>Results</title></head><body><div id=nav><a href=/>Home</a> "
      "<a href=/rent>Rent</a></div><div id=main><h2>Properties to rent</h2><p>Average rent £1,050 pcm</p>";
  html += layout == 0 ? "<ul id=results>" : "<div id=results>";
  for (int i = 0; i < records; ++i) {
    const std::string price = absl::StrCat("<span class=price>£", 700 + 13 * i, " pcm</span>");
    const std::string old = i % 5 == 4 ? absl::StrCat(" <del>£", 800 + 13 * i, " pcm</del>") : "";
    const std::string town = absl::StrCat("<a href=/p/", i, " class=town>", kTowns[i % 7], "</a>");
    const std::string body = absl::StrCat("<p class=beds>", 1 + i % 4, " bedrooms</p><p class=desc>A ",
                                          1 + i % 4, " bedroom flat close to the station, with a garden",
                                          " and parking.</p>");
    if (layout == 0) {
      absl::StrAppend(&html, "<li class=result><div class=head>", price, old, town, "</div>", body, "</li>");
    } else {
      absl::StrAppend(&html, "<h3>", price, old, "</h3><div class=body>", town, body, "</div>");
    }
    if (i % 7 == 6) absl::StrAppend(&html, layout == 0 ? "<li class=ad>" : "<div class=ad>",
                                    "<p>Mortgages from 3.9%</p>", layout == 0 ? "</li>" : "</div>");
  }
  html += layout == 0 ? "</ul>" : "</div>";
  html += "</div><div id=footer><p>Oxford Leeds York Bath</p></div></body></html>";
  return html;
}

schema::CompiledSchema Schema() {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(
      R"js({"vertical":"real_estate","record_level":true,"attributes":[
        {"name":"price","type":"price","mandatory":true,"pivot":true},
        {"name":"location","regular":true},
        {"name":"beds"}]})js",
      "amber_bench");
  if (!s.ok()) std::abort();
  return *std::move(s);
}

// Prices on every text starting with "£" (the old prices and the average
// too: noise AMBER must leave out), towns wherever a town name is the
// whole text (the footer's list is not), beds on "N bedrooms".
std::vector<annotate::Annotation> Annotations(const html::Page& page) {
  std::vector<annotate::Annotation> out;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (!n.is_text()) continue;
    const std::string text = n.Text();
    int attribute = -1;
    if (text.find("£") != std::string::npos) attribute = 0;
    for (const char* town : kTowns) attribute = text == town ? 1 : attribute;
    if (text.find(" bedrooms") != std::string::npos && text.size() < 12) attribute = 2;
    if (attribute < 0) continue;
    annotate::Annotation a;
    a.attribute = attribute;
    a.node = n;
    a.value = text;
    a.end = text.size();
    out.push_back(a);
  }
  return out;
}

void BM_Amber(benchmark::State& state) {
  const int layout = static_cast<int>(state.range(0));
  const int records = static_cast<int>(state.range(1));
  const std::string bytes = ResultPage(layout, records);
  html::Parser parser;
  constexpr int kParses = 20;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < kParses; ++i) {
    absl::StatusOr<html::Page> p = parser.Parse(bytes, "http://bench.test/results");
    benchmark::DoNotOptimize(p);
  }
  const double parse_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / kParses;
  absl::StatusOr<html::Page> page = parser.Parse(bytes, "http://bench.test/results");
  if (!page.ok()) {
    state.SkipWithError(page.status().ToString().c_str());
    return;
  }
  const schema::CompiledSchema schema = Schema();
  const std::vector<annotate::Annotation> annotations = Annotations(*page);
  size_t found = 0;
  const auto amber_start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    absl::StatusOr<Typing> typing = Run(*page, annotations, schema);
    found = 0;
    for (const DataArea& a : typing->areas) found += a.records.size();
    benchmark::DoNotOptimize(typing);
  }
  const double amber_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - amber_start).count() / state.iterations();
  state.counters["records"] = static_cast<double>(found);
  state.counters["parse_us"] = parse_seconds * 1e6;
  state.counters["x_parse"] = amber_seconds / parse_seconds;
  state.counters["page_kb"] = bytes.size() / 1024.0;
}
BENCHMARK(BM_Amber)
    ->ArgsProduct({{0, 1}, {10, 50, 200, 1000}})
    ->ArgNames({"layout", "records"})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace vertex::amber

BENCHMARK_MAIN();
