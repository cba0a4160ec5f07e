// Annotator benchmarks (issue 13): the cost of annotating a result page
// with the shipped real-estate schema and built-in gazetteers, against the
// cost of parsing the same page, in the same run; and the gazetteer's scan
// of one large text node at doubling sizes (its cost must grow linearly:
// bytes/s stays flat).
//
//   Parse/N          bytes -> Page for a list page of N records
//   Annotate/N       Annotator::Annotate on that (parsed) page
//   GazetteerFind/B  uk_places over B bytes of listing-like text
//   GazetteerWorst/B a term that matches up to its last byte at every word
//                    start of B bytes (the walk's worst case)
//
// After the run, Annotate/Parse per N is printed.
#include <cstdio>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "common/annotate/annotator.h"
#include "common/html/page.h"
#include "common/schema/schema.h"

namespace vertex::bench {
namespace {

constexpr const char* kTowns[] = {"Oxford", "Bath", "Leeds", "Newport Pagnell", "Clapham", "Didcot", "York"};
constexpr const char* kTypes[] = {"semi-detached house", "flat", "detached bungalow", "terraced house"};

// A result page of `records` listings, each with a link, a photo, a title,
// a price, an address with a postcode and a description with numbers.
std::string ListPage(int records) {
  std::string html = "<html><head><title>Property for sale</title></head><body><ul class=\"results\">";
  for (int i = 0; i < records; ++i) {
    const char* town = kTowns[i % 7];
    absl::StrAppend(&html, "<li class=\"result\"><a href=\"/property/", i, "\"><img src=\"/img/", i,
                    ".jpg\"></a><h3><a href=\"/property/", i, "\">", 1 + i % 5, " bedroom ", kTypes[i % 4],
                    " for sale</a></h3><p class=\"price\">\xC2\xA3", 150 + i % 700, ",000</p><p class=\"addr\">",
                    10 + i, " High Street, ", town, " OX", i % 9 + 1, " ", i % 9, "AB</p><p class=\"desc\">A lovely ",
                    1 + i % 5, " bed home with 2 bathrooms and 1 reception room, close to ", kTowns[(i + 3) % 7],
                    " station. Council tax band ", std::string(1, static_cast<char>('A' + i % 6)), ".</p></li>");
  }
  html += "</ul><footer>Oxford | Bath | Leeds | York</footer></body></html>";
  return html;
}

struct Fixture {
  Fixture() {
    absl::StatusOr<schema::CompiledSchema> schema =
        schema::CompiledSchema::FromFile(std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/real_estate.json");
    if (!schema.ok()) {
      std::fprintf(stderr, "annotate_bench: %s\n", schema.status().ToString().c_str());
      std::exit(1);
    }
    absl::StatusOr<annotate::Annotator> a = annotate::Annotator::Create(*schema, {});
    if (!a.ok()) {
      std::fprintf(stderr, "annotate_bench: %s\n", a.status().ToString().c_str());
      std::exit(1);
    }
    annotator = std::make_unique<annotate::Annotator>(*std::move(a));
  }
  std::unique_ptr<annotate::Annotator> annotator;
};

Fixture& Get() {
  static Fixture* fixture = new Fixture();
  return *fixture;
}

std::map<int, double>& ParseNs() {
  static auto* m = new std::map<int, double>();
  return *m;
}
std::map<int, double>& AnnotateNs() {
  static auto* m = new std::map<int, double>();
  return *m;
}

void BM_Parse(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  const std::string page = ListPage(records);
  html::Parser parser;
  for (auto _ : state) {
    absl::StatusOr<html::Page> p = parser.Parse(page, "http://agent.test/list");
    benchmark::DoNotOptimize(p);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * page.size()));
}
BENCHMARK(BM_Parse)->Arg(10)->Arg(50)->Arg(500)->Unit(benchmark::kMicrosecond);

void BM_Annotate(benchmark::State& state) {
  const int records = static_cast<int>(state.range(0));
  html::Parser parser;
  const html::Page page = parser.Parse(ListPage(records), "http://agent.test/list").value();
  size_t annotations = 0;
  for (auto _ : state) {
    const std::vector<annotate::Annotation> found = Get().annotator->Annotate(page);
    annotations = found.size();
    benchmark::DoNotOptimize(found.data());
  }
  state.counters["annotations"] = static_cast<double>(annotations);
}
BENCHMARK(BM_Annotate)->Arg(10)->Arg(50)->Arg(500)->Unit(benchmark::kMicrosecond);

std::string ListingText(size_t bytes) {
  std::string text;
  for (int i = 0; text.size() < bytes; ++i) {
    absl::StrAppend(&text, i % 5 + 1, " bed flat in ", kTowns[i % 7], ", near the Bathgate road; ");
  }
  text.resize(bytes);
  return text;
}

void BM_GazetteerFind(benchmark::State& state) {
  const std::shared_ptr<const annotate::Gazetteer> places = annotate::BuiltinGazetteer("uk_places").value();
  const std::string text = ListingText(static_cast<size_t>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(places->Find(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_GazetteerFind)->RangeMultiplier(2)->Range(128 << 10, 1 << 20)->Unit(benchmark::kMillisecond);

void BM_GazetteerWorst(benchmark::State& state) {
  annotate::Gazetteer g;
  std::string term;
  while (term.size() < 190) term += "a ";
  term += "b";  // 191 bytes; the text below matches all but its last byte
  g.Add(term);
  std::string text;
  while (text.size() < static_cast<size_t>(state.range(0))) text += "a ";
  for (auto _ : state) benchmark::DoNotOptimize(g.Find(text));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * text.size()));
}
BENCHMARK(BM_GazetteerWorst)->RangeMultiplier(2)->Range(128 << 10, 1 << 20)->Unit(benchmark::kMillisecond);

// Records each run's mean time per iteration for the ratio printed after.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      const std::string name = run.benchmark_name();
      const size_t slash = name.find('/');
      if (slash == std::string::npos) continue;
      const int arg = std::atoi(name.c_str() + slash + 1);
      const double ns = run.GetAdjustedRealTime() * (run.time_unit == benchmark::kMicrosecond ? 1e3 : 1e6);
      if (name.rfind("BM_Parse/", 0) == 0) ParseNs()[arg] = ns;
      if (name.rfind("BM_Annotate/", 0) == 0) AnnotateNs()[arg] = ns;
    }
    ConsoleReporter::ReportRuns(runs);
  }
};

}  // namespace
}  // namespace vertex::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  vertex::bench::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  for (const auto& [records, annotate_ns] : vertex::bench::AnnotateNs()) {
    const auto parse = vertex::bench::ParseNs().find(records);
    if (parse == vertex::bench::ParseNs().end()) continue;
    std::printf("annotate / parse, %d records: %.2f (%.0f us / %.0f us)\n", records, annotate_ns / parse->second,
                annotate_ns / 1e3, parse->second / 1e3);
  }
  benchmark::Shutdown();
  return 0;
}
