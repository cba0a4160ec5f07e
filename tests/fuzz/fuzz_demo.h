// The demo site the fuzz targets that need a learnt rule or a learnt store
// build once at start-up (deterministic: the generator uses no randomness,
// so every run and every replay sees the same rule).
//
// Thread-safety: pure functions.
#ifndef VERTEX_TESTS_FUZZ_FUZZ_DEMO_H_
#define VERTEX_TESTS_FUZZ_FUZZ_DEMO_H_

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "google/protobuf/stubs/logging.h"
#include "tests/fuzz/fuzz_check.h"

namespace vertex::fuzz {

// Silences protobuf's log lines (each binary message with invalid UTF-8 in
// a string field logs one), which would otherwise flood a fuzzing run.
inline void QuietProtobufLogs() {
  google::protobuf::SetLogHandler([](google::protobuf::LogLevel, const char*, int, const std::string&) {});
}

// A small demo site (all four templates), the same on every run.
inline std::vector<demo::GeneratedPage> DemoPages() {
  demo::SiteOptions options;
  options.product_pages = 16;
  options.category_pages = 6;
  options.review_pages = 4;
  options.store_pages = 4;
  return demo::GenerateSite(options);
}

inline std::vector<demo::GeneratedPage> ProductPages() {
  std::vector<demo::GeneratedPage> products;
  for (demo::GeneratedPage& p : DemoPages()) {
    if (p.template_name == "product") products.push_back(std::move(p));
  }
  return products;
}

inline schema::CompiledSchema ProductSchema() {
  absl::StatusOr<schema::CompiledSchema> schema =
      schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "demo product schema");
  Check(schema.ok(), "the demo product schema compiles: " + schema.status().ToString());
  return *std::move(schema);
}

// The ground truth of the product pages of `pages`, as LoadGroundTruth would
// read it from WriteSite's files.
inline eval::GroundTruth ProductTruth(const std::vector<demo::GeneratedPage>& pages) {
  eval::GroundTruth truth;
  truth.vertical = "product";
  truth.site = "vertexdemo";
  truth.attributes = demo::ProductAttributes();
  std::sort(truth.attributes.begin(), truth.attributes.end());
  for (const demo::GeneratedPage& p : pages) {
    if (p.template_name != "product") continue;
    auto& page = truth.pages[eval::PageIdOfFile(p.file_name)];
    for (const std::string& attribute : demo::ProductAttributes()) {
      auto it = p.truth.find(attribute);
      page[attribute] = it == p.truth.end() ? std::vector<std::string>() : it->second;
    }
  }
  return truth;
}

// A rule learnt from the product pages of the demo site, the first three
// annotated with their ground truth.
struct LearntRule {
  schema::CompiledSchema schema;
  v1::Rule rule;
};

inline LearntRule LearnProductRule() {
  const std::vector<demo::GeneratedPage> products = ProductPages();
  schema::CompiledSchema schema = ProductSchema();
  html::Parser parser;
  std::vector<html::Page> pages;
  for (const demo::GeneratedPage& p : products) {
    absl::StatusOr<html::Page> page = parser.Parse(p.html, p.url);
    Check(page.ok(), "a demo page parses: " + page.status().ToString());
    pages.push_back(*std::move(page));
  }
  learn::RuleLearnInput input;
  for (const html::Page& p : pages) input.pages.push_back(&p);
  for (size_t i = 0; i < 3 && i < products.size(); ++i) {
    for (size_t a = 0; a < schema.size(); ++a) {
      const std::string& name = schema.attribute(a).name();
      auto it = products[i].truth.find(name);
      if (it == products[i].truth.end() || it->second.empty()) continue;
      input.annotations.push_back({i, name, it->second, ""});
    }
  }
  absl::StatusOr<learn::RuleLearnResult> learnt = learn::LearnRule(schema, input);
  Check(learnt.ok(), "learning the demo product rule: " + learnt.status().ToString());
  Check(learnt->rule.attributes_size() > 0, "the demo product rule has attributes");
  return LearntRule{std::move(schema), std::move(learnt->rule)};
}

}  // namespace vertex::fuzz

#endif  // VERTEX_TESTS_FUZZ_FUZZ_DEMO_H_
