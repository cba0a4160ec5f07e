// Fuzz target: extraction with a learnt rule. At start-up a rule is learnt
// from the demo site's product pages (fuzz_demo.h); each input is a page
// parsed and extracted with it, through CompiledRule::Apply and the nearest
// match check (NearestMatchFailure).
//
// Input: the page bytes (its URL is a fixed product URL of the demo host).
//
// Checked beyond "no crash": one result per schema attribute, in schema
// order; a single-valued attribute gets at most one value; every value is
// valid UTF-8; a score is in [0, 1].
#include <cstdint>
#include <string>

#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/util/utf8.h"
#include "tests/fuzz/fuzz_demo.h"

namespace vertex::fuzz {
namespace {

const extract::CompiledRule& Rule() {
  static const extract::CompiledRule* rule = [] {
    LearntRule learnt = LearnProductRule();
    absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(learnt.rule, learnt.schema);
    Check(compiled.ok(), "the learnt demo rule compiles: " + compiled.status().ToString());
    return new extract::CompiledRule(*std::move(compiled));
  }();
  return *rule;
}

void CheckResults(const extract::CompiledRule& rule, const std::vector<extract::AttributeResult>& results) {
  const schema::CompiledSchema& schema = rule.schema();
  Check(results.size() == schema.size(), "Apply gave " + std::to_string(results.size()) + " results for " +
                                             std::to_string(schema.size()) + " attributes");
  for (size_t i = 0; i < results.size(); ++i) {
    const extract::AttributeResult& r = results[i];
    Check(r.attribute == schema.attribute(i).name(), "result " + std::to_string(i) + " is " + r.attribute);
    Check(schema.attribute(i).multi_valued() || r.values.size() <= 1,
          "single-valued " + r.attribute + " got " + std::to_string(r.values.size()) + " values");
    Check(r.score >= 0 && r.score <= 1, r.attribute + ": score " + std::to_string(r.score));
    for (const std::string& v : r.values) Check(util::IsValidUtf8(v), r.attribute + ": a value is not UTF-8");
  }
}

}  // namespace
}  // namespace vertex::fuzz

// The learning at start-up runs here, before libFuzzer's per-input timeout
// applies.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  vertex::fuzz::Rule();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  const extract::CompiledRule& rule = fuzz::Rule();
  html::Parser parser;
  absl::StatusOr<html::Page> page =
      parser.Parse(fuzz::AsView(data, size), "http://shop.vertex-demo.test/product/fuzz.html");
  if (!page.ok()) {
    fuzz::CheckNotInternal(page.status(), "Parse");
    return 0;
  }
  absl::StatusOr<std::vector<extract::AttributeResult>> results = rule.Apply(*page);
  fuzz::Check(results.ok(), "Apply of the learnt rule: " + results.status().ToString());
  fuzz::CheckResults(rule, *results);
  extract::NearestMatchFailure(rule, *results);
  return 0;
}
