// The list finder's proposals in the editor loop on the demo shop (issue
// 14's measurement): the simulated editor learns shop seed 1 through the
// APIs, TrainListModel learns a list model from the store's (rule, snapshot)
// pairs, then the editor runs shop seed 2 without and with the proposals
// (two sites of the same store). Prints the inputs per list attribute and
// the precision/recall of both runs.
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

struct ShopRun {
  ApiRunReport report;
  std::string table;
};

// The engines over one in-memory store.
struct Engines {
  Engines()
      : store(store::NewInMemoryStore()),
        extraction(store.get(), ExtractionEngineOptions{}),
        learning(store.get(), LearningEngineOptions{}, [this](const std::string&) { (void)extraction.Refresh(); }) {}
  std::unique_ptr<store::RuleStore> store;
  ExtractionEngine extraction;
  LearningEngine learning;
};

// Shop `seed` (written to `dir`) as site `site` through the engines.
ShopRun RunShop(Engines& engines, const std::string& site, uint64_t seed, bool use_proposals) {
  test_support::TempDir dir("proposals_demo");
  EXPECT_TRUE(demo::WriteSite(demo::GenerateSite(Shop(seed)), dir.path()).ok());
  const schema::CompiledSchema schema = ProductSchema();
  ApiRunOptions options;
  options.use_proposals = use_proposals;
  absl::StatusOr<ApiRunReport> report = RunSiteThroughApi(
      engines.learning, engines.extraction, site, schema, ReadClientPages({dir.path()}, 8 << 20).value(),
      eval::LoadGroundTruth(dir.path() + "/groundtruth/product", "vertexdemo").value(), options);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return {};
  return {*report, FormatRunReport(site, schema, *report) + FormatInputReport(schema, *report)};
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
  Engines engines;
  const ShopRun learnt = RunShop(engines, "shop1", 1, false);
  std::cout << "--- shop seed 1, learnt with no model\n" << learnt.table;
  absl::StatusOr<v1::TrainListModelResponse> trained = engines.learning.TrainListModel({});
  ASSERT_TRUE(trained.ok()) << trained.status();
  const v1::ListModel& model = trained->model();
  std::cout << "--- list model v" << model.version() << " from shop seed 1: " << trained->rules() << " rule(s), "
            << trained->pages() << " page(s), " << model.training_nodes() << " nodes, " << model.nodes_size()
            << " tree nodes\n";
  PrintSuggestions(model);
  const ShopRun without = RunShop(engines, "shop2", 2, false);
  const ShopRun with = RunShop(engines, "shop2-proposals", 2, true);
  std::cout << "--- shop seed 2, labelling every value\n" << without.table;
  std::cout << "--- shop seed 2, answering the proposals\n" << with.table;
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
