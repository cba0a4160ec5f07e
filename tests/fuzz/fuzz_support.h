// What the fuzz targets share: invariant checks that abort (so libFuzzer
// records the input as a crash and the corpus replay test fails), splitting
// an input into lines, and the demo site the targets that need a learnt rule
// learn from once at start-up (deterministic: the generator uses no
// randomness, so every run and every replay sees the same rule).
//
// Thread-safety: the fuzz targets are single-threaded; these helpers are
// pure functions except the Fail() abort.
#ifndef VERTEX_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define VERTEX_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"

namespace vertex::fuzz {

// Aborts with `what`: a broken invariant is a bug even when nothing crashed.
[[noreturn]] inline void Fail(const std::string& what) {
  std::fprintf(stderr, "vertex fuzz: invariant failed: %s\n", what.c_str());
  std::abort();
}

inline void Check(bool ok, const std::string& what) {
  if (!ok) Fail(what);
}

// Aborts when `status` is Internal or Unknown: the documented error codes of
// the code under test are for bad input; Internal means a bug.
inline void CheckNotInternal(const absl::Status& status, const std::string& where) {
  if (status.code() == absl::StatusCode::kInternal || status.code() == absl::StatusCode::kUnknown) {
    Fail(where + ": " + status.ToString());
  }
}

inline std::string_view AsView(const uint8_t* data, size_t size) {
  return std::string_view(reinterpret_cast<const char*>(data), size);
}

// `text` cut at '\n' (a final line without '\n' included; no empty tail).
inline std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    lines.push_back(text.substr(0, end));
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The first line of `text` and the rest after its '\n' (rest empty when
// there is none).
inline std::pair<std::string_view, std::string_view> CutLine(std::string_view text) {
  const size_t end = text.find('\n');
  if (end == std::string_view::npos) return {text, {}};
  return {text.substr(0, end), text.substr(end + 1)};
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

#endif  // VERTEX_TESTS_FUZZ_FUZZ_SUPPORT_H_
