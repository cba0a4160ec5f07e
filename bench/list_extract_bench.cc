// Record-level extraction benchmark (issue 13): what a compiled list rule
// costs on a result page against parsing that page, in the same run.
//
//   Parse/N         bytes -> Page (Gumbo + libxml2 mirror) for a page of N
//                   records
//   ParseShingle/N  the same with the shingle sink (what Extract parses)
//   ApplyRecords/N  CompiledRule::ApplyRecords on the parsed page: the
//                   record XPath, then 5 relative attribute XPaths per
//                   record (text, typed price, href resolved as a URL, a
//                   word range, a multi-valued list), values as the engine
//                   gives them
//   Extract/N       SiteExtractor::Extract: URL match, parse + shingle,
//                   rule matching, ApplyRecords
//   Hostile/N       a record attribute "preceding::*[last()]" (walks the
//                   page back from every record): stopped by the page's
//                   shared XPath budget, so its cost is bounded by one
//                   page budget, not N of them
//
// After the run, each one's time over Parse/N is printed per N (the
// target: Extract near a parse, ApplyRecords a fraction of it).
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "common/extract/compiled_rule.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"

namespace vertex::bench {
namespace {

constexpr char kUrl[] = "http://agent.test/search/flats?page=3";
constexpr const char* kTowns[] = {"Oxford", "Bath", "Leeds", "Newport Pagnell", "Clapham", "Didcot", "York"};

constexpr char kSchemaJson[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true},
  {"name": "link", "type": "url"},
  {"name": "bedrooms"},
  {"name": "features", "multi_valued": true}]})";

// A result page of `records` listings in two data areas with an advert
// between them and navigation around.
std::string ListPage(int records) {
  std::string html =
      "<html><head><title>Flats to rent</title></head><body><nav><a href=/>Home</a> <a href=/rent>Rent</a></nav>"
      "<p>Average price \xC2\xA3" "950 pcm</p><ul class=\"results\">";
  for (int i = 0; i < records; ++i) {
    if (i == records / 2) html += "</ul><div class=\"ad\">Mortgages from 3.9%</div><ul class=\"results\">";
    absl::StrAppend(&html, "<li class=\"result\"><h3><a href=\"/flat/", i, "\">", 1 + i % 4, " bedroom flat in ",
                    kTowns[i % 7], "</a></h3>", i % 9 == 4 ? "" : absl::StrCat("<p class=\"price\">\xC2\xA3", 600 + i % 900, " pcm</p>"),
                    "<p class=\"beds\">", 1 + i % 4, " beds, ", 1 + i % 2, " baths</p><ul class=\"features\"><li>Garden</li>",
                    i % 3 == 0 ? "<li>Parking</li>" : "", "</ul></li>");
  }
  return html + "</ul><footer>Oxford | Bath | Leeds | York</footer></body></html>";
}

v1::AttributeRule Part(const std::string& name, const std::string& xpath, bool multi = false) {
  v1::AttributeRule a;
  a.set_attribute(name);
  a.set_method(v1::AttributeRule::XPATH);
  a.set_xpath(xpath);
  a.set_multi_valued(multi);
  return a;
}

v1::Rule ListRule(const std::string& title_xpath = "h3/a/text()") {
  v1::Rule r;
  r.set_site("agent");
  r.set_cluster_id("search");
  r.set_url_regex(R"(http://agent\.test/search/.*)");
  v1::RecordRule* record = r.mutable_record();
  record->set_record_xpath("//ul[@class='results']/li");
  record->set_record_length(1);
  *record->add_attributes() = Part("title", title_xpath);
  *record->add_attributes() = Part("price", "p[@class='price']/text()");
  v1::AttributeRule link = Part("link", "h3/a");
  link.set_value_attribute("href");
  *record->add_attributes() = link;
  v1::AttributeRule beds = Part("bedrooms", "p[@class='beds']/text()");
  beds.mutable_range()->set_length(1);
  *record->add_attributes() = beds;
  *record->add_attributes() = Part("features", "ul[@class='features']/li/text()", true);
  return r;
}

const schema::CompiledSchema& Schema() {
  static const auto* schema = new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "list").value());
  return *schema;
}

std::map<std::string, std::map<int, double>>& Seconds() {
  static auto* m = new std::map<std::string, std::map<int, double>>();
  return *m;
}

// Records the mean seconds per iteration of `name` at `records`.
void Note(benchmark::State& state, const std::string& name, int records, double total_s) {
  if (state.iterations() > 0) Seconds()[name][records] = total_s / static_cast<double>(state.iterations());
}

void BM_Parse(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  const std::string page = ListPage(records);
  html::Parser parser;
  double total = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    absl::StatusOr<html::Page> p = parser.Parse(page, kUrl);
    benchmark::DoNotOptimize(p);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
  Note(state, "Parse", records, total);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}

void BM_ParseShingle(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  const std::string page = ListPage(records);
  html::Parser parser;
  double total = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    shingle::Shingler shingler;
    absl::StatusOr<html::Page> p = parser.Parse(page, kUrl, "", &shingler);
    benchmark::DoNotOptimize(shingler.Finish());
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  }
  Note(state, "ParseShingle", records, total);
}

void BM_ApplyRecords(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  html::Parser parser;
  const html::Page page = parser.Parse(ListPage(records), kUrl).value();
  const extract::CompiledRule rule = extract::CompiledRule::Create(ListRule(), Schema()).value();
  size_t found = 0;
  double total = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    absl::StatusOr<extract::ListResult> list = rule.ApplyRecords(page);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    if (!list.ok()) {
      state.SkipWithError(list.status().ToString().c_str());
      return;
    }
    found = list->records.size();
  }
  Note(state, "ApplyRecords", records, total);
  state.counters["records"] = static_cast<double>(found);
}

void BM_Extract(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  const std::string page = ListPage(records);
  const extract::SiteExtractor extractor = extract::SiteExtractor::Create(Schema(), {ListRule()}).value();
  html::Parser parser;
  size_t found = 0;
  double total = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    absl::StatusOr<extract::Record> r = extractor.Extract(page, kUrl, parser);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    if (!r.ok()) {
      state.SkipWithError(r.status().ToString().c_str());
      return;
    }
    found = r->list_records.size();
  }
  Note(state, "Extract", records, total);
  state.counters["records"] = static_cast<double>(found);
}

void BM_Hostile(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  html::Parser parser;
  const html::Page page = parser.Parse(ListPage(records), kUrl).value();
  const extract::CompiledRule rule = extract::CompiledRule::Create(ListRule("preceding::*[last()]"), Schema()).value();
  bool stopped = false;
  double total = 0;
  for (auto _ : state) {
    const auto t = std::chrono::steady_clock::now();
    absl::StatusOr<extract::ListResult> list = rule.ApplyRecords(page);
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    stopped = !list.ok();
  }
  Note(state, "Hostile", records, total);
  state.counters["stopped"] = stopped ? 1 : 0;
}

constexpr int kSizes[] = {10, 50, 500, 5000};

void Register() {
  for (int n : kSizes) {
    benchmark::RegisterBenchmark("Parse", BM_Parse)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("ParseShingle", BM_ParseShingle)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("ApplyRecords", BM_ApplyRecords)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Extract", BM_Extract)->Arg(n)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Hostile", BM_Hostile)->Arg(n)->Unit(benchmark::kMicrosecond);
  }
}

void PrintRatios() {
  std::printf("\nratio to Parse/N (same run):\n%8s %14s %14s %10s %10s\n", "records", "ParseShingle", "ApplyRecords",
              "Extract", "Hostile");
  for (int n : kSizes) {
    const double parse = Seconds()["Parse"][n];
    if (parse <= 0) continue;
    std::printf("%8d %14.2f %14.2f %10.2f %10.2f\n", n, Seconds()["ParseShingle"][n] / parse,
                Seconds()["ApplyRecords"][n] / parse, Seconds()["Extract"][n] / parse, Seconds()["Hostile"][n] / parse);
  }
}

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  vertex::bench::Register();
  benchmark::RunSpecifiedBenchmarks();
  vertex::bench::PrintRatios();
  benchmark::Shutdown();
  return 0;
}
