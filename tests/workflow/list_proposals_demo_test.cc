// The list finder's proposals in the editor loop on the demo shop (issue
// 14's measurement): a list model learnt from one shop's product pages
// (seed 1; labels from the generator's truth: the elements holding a
// multi-valued attribute's values, and their anchors), then the simulated
// editor on another shop (seed 2) without and with proposals. Prints the
// inputs per list attribute and the precision/recall of both runs.
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/lists/list_finder.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "common/workflow/list_proposals.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace vertex::workflow {
namespace {

demo::SiteOptions Shop(uint64_t seed) {
  demo::SiteOptions o;
  o.seed = seed;
  o.product_pages = 120;
  o.category_pages = 40;
  o.review_pages = 20;
  o.store_pages = 20;
  return o;
}

schema::CompiledSchema ProductSchema() {
  return schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
}

// The paper's encoding of one page's lists: the items (outermost elements
// whose text is a value) and the anchors with an href inside them.
std::vector<html::Node> Positives(const html::Page& page, const std::vector<std::string>& values) {
  std::vector<html::Node> out;
  for (const html::Node& item : ValueElements(page, values)) {
    out.push_back(item);
    for (html::Node n = item.NextInDocument(item); n; n = n.NextInDocument(item)) {
      if (n.tag() == "a" && n.has_attribute("href")) out.push_back(n);
    }
  }
  return out;
}

// A model learnt from `pages` product pages of the shop of `seed`.
v1::ListModel TrainOnShop(uint64_t seed, size_t pages) {
  const schema::CompiledSchema schema = ProductSchema();
  std::vector<html::Page> parsed;
  std::vector<std::vector<html::Node>> positives;
  html::Parser parser;
  for (const demo::GeneratedPage& g : demo::GenerateSite(Shop(seed))) {
    if (g.template_name != "product" || parsed.size() >= pages) continue;
    absl::StatusOr<html::Page> page = parser.Parse(g.html, g.url);
    if (!page.ok()) continue;
    std::vector<html::Node> p;
    for (size_t i = 0; i < schema.size(); ++i) {
      auto t = g.truth.find(schema.attribute(i).name());
      if (!schema.attribute(i).multi_valued() || t == g.truth.end()) continue;
      std::vector<html::Node> items = Positives(*page, t->second);
      if (ValueElements(*page, t->second).size() >= 2) p.insert(p.end(), items.begin(), items.end());
    }
    parsed.push_back(*std::move(page));
    positives.push_back(std::move(p));
  }
  std::vector<lists::LabelledPage> labelled;
  for (size_t i = 0; i < parsed.size(); ++i) labelled.push_back({&parsed[i], positives[i], {}, std::to_string(i)});
  absl::StatusOr<v1::ListModel> model = lists::TrainListModel(labelled);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? *model : v1::ListModel();
}

struct ShopRun {
  ApiRunReport report;
  std::string table;
};

ShopRun RunShop(const std::string& dir, const v1::ListModel* model) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  if (model != nullptr) {
    EXPECT_TRUE(store->PutListModel(*model).ok());
  }
  ExtractionEngine extraction(store.get(), ExtractionEngineOptions{});
  LearningEngine learning(store.get(), LearningEngineOptions{},
                          [&extraction](const std::string&) { (void)extraction.Refresh(); });
  const schema::CompiledSchema schema = ProductSchema();
  ApiRunOptions options;
  options.use_proposals = model != nullptr;
  absl::StatusOr<ApiRunReport> report =
      RunSiteThroughApi(learning, extraction, "shop", schema, ReadClientPages({dir}, 8 << 20).value(),
                        eval::LoadGroundTruth(dir + "/groundtruth/product", "vertexdemo").value(), options);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return {};
  return {*report, FormatRunReport("shop", schema, *report) + FormatInputReport(schema, *report)};
}

// The lists the model finds on the first product page of seed 2, with the
// page's true lists: what the editor is shown.
void PrintSuggestions(const v1::ListModel& model) {
  html::Parser parser;
  for (const demo::GeneratedPage& g : demo::GenerateSite(Shop(2))) {
    if (g.template_name != "product") continue;
    const html::Page page = parser.Parse(g.html, g.url).value();
    const std::vector<v1::ListSuggestion> suggestions = lists::SuggestLists(model, page, 8).value();
    for (const v1::ListSuggestion& s : suggestions) {
      std::cout << "suggestion (" << s.node_xpaths(0) << ", score " << s.score() << "):";
      for (const std::string& t : s.texts()) std::cout << " [" << t << "]";
      std::cout << "\n";
    }
    for (const char* name : {"category", "designers", "features"}) {
      std::cout << "truth " << name << ":";
      for (const std::string& t : g.truth.at(name)) std::cout << " [" << t << "]";
      std::cout << "\n";
    }
    return;
  }
}

TEST(ListProposalsDemoTest, EditorInputsOnTheShopsListAttributes) {
  test_support::TempDir dir("proposals_demo");
  ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(Shop(2)), dir.path()).ok());
  const v1::ListModel model = TrainOnShop(1, 40);
  ASSERT_GT(model.nodes_size(), 1);
  PrintSuggestions(model);
  const ShopRun without = RunShop(dir.path(), nullptr);
  const ShopRun with = RunShop(dir.path(), &model);
  std::cout << "--- seed 2 shop, labelling every value\n" << without.table;
  std::cout << "--- seed 2 shop, answering the proposals of a model learnt on seed 1\n" << with.table;
  const schema::CompiledSchema schema = ProductSchema();
  size_t proposals = 0;
  for (size_t i = 0; i < schema.size(); ++i) {
    const std::string& name = schema.attribute(i).name();
    auto w = with.report.inputs.find(name);
    if (w == with.report.inputs.end()) continue;
    EXPECT_LE(w->second.inputs, w->second.labelling_inputs) << name;
    if (!schema.attribute(i).multi_valued()) {
      EXPECT_EQ(w->second.proposals, 0u) << name;
    }
    proposals += w->second.proposals;
    // Without proposals every value is labelled.
    auto o = without.report.inputs.find(name);
    if (o != without.report.inputs.end()) {
      EXPECT_EQ(o->second.inputs, o->second.labelling_inputs) << name;
    }
  }
  EXPECT_GT(proposals, 0u);
}

}  // namespace
}  // namespace vertex::workflow
