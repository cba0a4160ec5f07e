// Fuzz target: an annotations file (JSON Lines; workflow/annotations.h), and
// what the accepted annotations feed: rule learning on the demo site's
// product pages (learn::LearnRule), the way `vertexctl learn` uses a file.
//
// Input: the JSONL text. An annotation names its page by "file": the first
// three demo product pages by their file names ("000.htm", ...; other
// names are skipped).
//
// Checked beyond "no crash": errors are InvalidArgument; every accepted
// annotation passes NormalizeAnnotation again unchanged, carries its line,
// and has values and/or an xpath, or absent alone; LearnRule answers
// InvalidArgument or a rule whose diagnostics cover the schema.
#include <cstdint>
#include <string>

#include "common/html/page.h"
#include "common/learn/rule_learner.h"
#include "common/workflow/annotations.h"
#include "tests/fuzz/fuzz_demo.h"

namespace vertex::fuzz {
namespace {

struct Site {
  schema::CompiledSchema schema = ProductSchema();
  std::vector<std::string> files;
  std::vector<html::Page> pages;
};

const Site& DemoProducts() {
  static const Site* site = [] {
    auto* s = new Site;
    std::vector<demo::GeneratedPage> products = ProductPages();
    html::Parser parser;
    for (size_t i = 0; i < 3 && i < products.size(); ++i) {
      absl::StatusOr<html::Page> page = parser.Parse(products[i].html, products[i].url);
      Check(page.ok(), "a demo page parses: " + page.status().ToString());
      s->pages.push_back(*std::move(page));
      s->files.push_back(products[i].file_name);
    }
    return s;
  }();
  return *site;
}

void Learn(const std::vector<workflow::SourcedAnnotation>& annotations) {
  const Site& site = DemoProducts();
  learn::RuleLearnInput input;
  for (const html::Page& p : site.pages) input.pages.push_back(&p);
  for (const workflow::SourcedAnnotation& s : annotations) {
    const v1::Annotation& a = s.annotation;
    for (size_t i = 0; i < site.pages.size(); ++i) {
      if (a.file() != site.files[i]) continue;
      if (a.absent()) {
        input.annotations.push_back({i, a.attribute(), {}, ""});
      } else {
        input.annotations.push_back(
            {i, a.attribute(), std::vector<std::string>(a.values().begin(), a.values().end()), a.xpath()});
      }
    }
  }
  absl::StatusOr<learn::RuleLearnResult> result = learn::LearnRule(site.schema, input);
  if (!result.ok()) {
    Check(result.status().code() == absl::StatusCode::kInvalidArgument, "LearnRule: " + result.status().ToString());
    return;
  }
  Check(result->diagnostics.size() == site.schema.size(), "LearnRule: one diagnostic per attribute");
}

}  // namespace
}  // namespace vertex::fuzz

// The learning at start-up runs here, before libFuzzer's per-input timeout
// applies.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  vertex::fuzz::DemoProducts();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  absl::StatusOr<std::vector<workflow::SourcedAnnotation>> annotations =
      workflow::ParseAnnotations(fuzz::AsView(data, size), "fuzz.jsonl");
  if (!annotations.ok()) {
    fuzz::Check(annotations.status().code() == absl::StatusCode::kInvalidArgument,
                "ParseAnnotations: " + annotations.status().ToString());
    return 0;
  }
  for (const workflow::SourcedAnnotation& s : *annotations) {
    fuzz::Check(s.line >= 1, "an annotation without its line");
    const v1::Annotation& a = s.annotation;
    const bool given = a.absent() ? a.values_size() == 0 && a.xpath().empty() : a.values_size() > 0 || !a.xpath().empty();
    fuzz::Check(given, "an accepted annotation with absent and values/xpath, or with neither");
    absl::StatusOr<v1::Annotation> again = workflow::NormalizeAnnotation(a);
    fuzz::Check(again.ok(), "NormalizeAnnotation of an accepted annotation: " + again.status().ToString());
    fuzz::Check(again->SerializeAsString() == a.SerializeAsString(), "NormalizeAnnotation is not idempotent");
  }
  fuzz::Learn(*annotations);
  return 0;
}
