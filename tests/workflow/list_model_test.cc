// The list finder trained from the rule store (issue 14): labelled pages
// collected from the rules the simulated editor learnt on the demo shop,
// the model stored as versions, and LearningEngine's TrainListModel /
// GetListModel / SuggestLists with every documented error.
#include <chrono>
#include <filesystem>
#include <iostream>
#include <set>

#include "absl/strings/str_join.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/lists/store_training.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;

demo::SiteOptions ShopOptions(uint64_t seed) {
  demo::SiteOptions options;
  options.seed = seed;
  options.product_pages = 60;
  options.category_pages = 20;
  options.review_pages = 10;
  options.store_pages = 10;
  return options;
}

// A store holding the rules the simulated editor learnt on the seed-1 shop.
struct LearntShop {
  test_support::TempDir dir{"list_model"};
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  std::vector<demo::GeneratedPage> generated = demo::GenerateSite(ShopOptions(1));
};

LearntShop* MakeShop() {
  auto* shop = new LearntShop;
  EXPECT_TRUE(demo::WriteSite(shop->generated, shop->dir.path()).ok());
  std::vector<ClientPage> pages = ReadClientPages({shop->dir.path()}, 8 << 20).value();
  eval::GroundTruth truth =
      eval::LoadGroundTruth((std::filesystem::path(shop->dir.path()) / "groundtruth" / "product").string(),
                            "vertexdemo")
          .value();
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
  ExtractionEngine extraction(shop->store.get(), {});
  LearningEngine learning(shop->store.get(), {});
  v1::RegisterSiteRequest r;
  r.set_site("shop");
  *r.mutable_schema() = schema.proto();
  EXPECT_TRUE(learning.RegisterSite(r).ok());
  absl::StatusOr<ApiRunReport> report = RunSiteThroughApi(learning, extraction, "shop", schema, pages, truth);
  EXPECT_TRUE(report.ok()) << report.status();
  return shop;
}

class ListModelTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { shop_ = MakeShop(); }
  static void TearDownTestSuite() { delete shop_; }
  static LearntShop* shop_;
};

LearntShop* ListModelTest::shop_ = nullptr;

const demo::GeneratedPage* PageOfUrl(const std::vector<demo::GeneratedPage>& pages, const std::string& url) {
  for (const demo::GeneratedPage& p : pages) {
    if (p.url == url) return &p;
  }
  return nullptr;
}

TEST_F(ListModelTest, CollectsTheFeatureListsTheRulesExtract) {
  absl::StatusOr<lists::StoreTrainingSet> set = lists::CollectStoreTraining(*shop_->store, {});
  ASSERT_TRUE(set.ok()) << set.status();
  std::cout << absl::StrJoin(set->report, "\n") << "\n";
  ASSERT_GE(set->rules, 1u);
  EXPECT_EQ(set->sites, 1u);
  ASSERT_FALSE(set->pages.empty());
  // Every product page's truth features are texts of its positives, and
  // nothing is labelled twice.
  size_t checked = 0;
  for (const lists::LabelledPage& labelled : set->pages) {
    EXPECT_FALSE(labelled.labelled_until);
    const demo::GeneratedPage* page = PageOfUrl(shop_->generated, labelled.page->url());
    ASSERT_NE(page, nullptr) << labelled.name;
    std::set<std::string> texts;
    for (html::Node n : labelled.positives) EXPECT_TRUE(texts.insert(n.Text()).second) << labelled.name;
    auto features = page->truth.find("features");
    if (features == page->truth.end() || features->second.size() < 2) continue;
    for (const std::string& f : features->second) EXPECT_EQ(texts.count(f), 1u) << labelled.name << ": " << f;
    ++checked;
  }
  EXPECT_GE(checked, 1u);
  // Designers are one text node split into values: not a markup list.
  EXPECT_THAT(absl::StrJoin(set->report, "\n"), HasSubstr("values sit in < 2 elements"));
}

TEST_F(ListModelTest, TrainsAndStoresVersions) {
  lists::StoreTrainingOptions options;
  options.train.features = lists::FeatureSet::kPaper;
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<lists::StoreTrainingResult> first = lists::TrainListModelFromStore(shop_->store.get(), options, 42);
  ASSERT_TRUE(first.ok()) << first.status();
  std::cout << "trained in " << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
            << " s: " << first->model.trained_from() << ", " << first->model.training_nodes() << " nodes, "
            << first->model.training_positives() << " positives, " << first->model.nodes_size() << " tree nodes\n";
  EXPECT_EQ(first->model.feature_set(), "paper");
  EXPECT_EQ(first->model.created_unix_ms(), 42);
  EXPECT_EQ(first->model.trained_from(), "store: " + std::to_string(first->rules) + " rules of 1 sites, " +
                                             std::to_string(first->pages) + " snapshot pages");
  EXPECT_EQ(first->model.training_pages(), first->pages);
  EXPECT_GT(first->model.training_positives(), 0u);
  absl::StatusOr<lists::StoreTrainingResult> second = lists::TrainListModelFromStore(shop_->store.get(), {}, 43);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_EQ(second->model.version(), first->model.version() + 1);
  EXPECT_EQ(second->model.feature_set(), "paper+markup");
  absl::StatusOr<v1::ListModel> stored = shop_->store->GetListModel(first->model.version());
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->trained_from(), first->model.trained_from());
}

TEST_F(ListModelTest, SitesFilter) {
  lists::StoreTrainingOptions options;
  options.sites = {"nosuchsite"};
  EXPECT_TRUE(absl::IsNotFound(lists::CollectStoreTraining(*shop_->store, options).status()));
  options.sites = {"shop"};
  absl::StatusOr<lists::StoreTrainingSet> set = lists::CollectStoreTraining(*shop_->store, options);
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_FALSE(set->pages.empty());
}

TEST(ListModelStoreTest, EmptyStoreIsAFailedPreconditionThatSaysWhy) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  absl::StatusOr<lists::StoreTrainingResult> r = lists::TrainListModelFromStore(store.get(), {}, 0);
  EXPECT_TRUE(absl::IsFailedPrecondition(r.status())) << r.status();
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("multi-valued attribute or a record-level schema"));
  EXPECT_TRUE(store->ListListModelVersions().value().empty());
}

// The held-out shop (seed 2): the features lists SuggestLists finds.
TEST_F(ListModelTest, EngineTrainsShowsAndSuggestsOnAHeldOutShop) {
  LearningEngine engine(shop_->store.get(), {});
  v1::TrainListModelRequest train;
  train.add_sites("shop");
  absl::StatusOr<v1::TrainListModelResponse> trained = engine.TrainListModel(train);
  ASSERT_TRUE(trained.ok()) << trained.status();
  EXPECT_GE(trained->rules(), 1u);
  EXPECT_FALSE(trained->report().empty());
  absl::StatusOr<v1::GetListModelResponse> shown = engine.GetListModel({});
  ASSERT_TRUE(shown.ok()) << shown.status();
  EXPECT_EQ(shown->model().version(), trained->model().version());
  EXPECT_EQ(shown->versions(shown->versions_size() - 1), trained->model().version());

  size_t pages = 0;
  size_t found = 0;
  for (const demo::GeneratedPage& page : demo::GenerateSite(ShopOptions(2))) {
    auto features = page.truth.find("features");
    if (features == page.truth.end() || features->second.size() < 2) continue;
    v1::SuggestListsRequest request;
    request.set_url(page.url);
    request.set_html(page.html);
    absl::StatusOr<v1::SuggestListsResponse> r = engine.SuggestLists(request);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->model_version(), trained->model().version());
    ++pages;
    for (const v1::ListSuggestion& s : r->lists()) {
      if (std::vector<std::string>(s.texts().begin(), s.texts().end()) == features->second) ++found;
    }
  }
  std::cout << "held-out shop: features list found exactly on " << found << " of " << pages << " pages\n";
  ASSERT_GT(pages, 0u);
  EXPECT_GE(found, pages * 8 / 10);
}

TEST(ListModelEngineTest, ErrorsNameTheirInput) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  LearningEngine engine(store.get(), {});
  v1::TrainListModelRequest train;
  train.set_feature_set("fancy");
  absl::Status s = engine.TrainListModel(train).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("fancy"));
  train.set_feature_set("");
  train.add_sites("nosuchsite");
  EXPECT_TRUE(absl::IsNotFound(engine.TrainListModel(train).status()));
  EXPECT_TRUE(absl::IsFailedPrecondition(engine.TrainListModel({}).status()));

  s = engine.GetListModel({}).status();
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("list-model train"));
  v1::GetListModelRequest get;
  get.set_version(-1);
  EXPECT_TRUE(absl::IsInvalidArgument(engine.GetListModel(get).status()));

  v1::SuggestListsRequest suggest;
  suggest.set_url("http://x/");
  suggest.set_html("<ul><li>a</li><li>b</li></ul>");
  EXPECT_TRUE(absl::IsNotFound(engine.SuggestLists(suggest).status()));
  suggest.set_model_version(-2);
  EXPECT_TRUE(absl::IsInvalidArgument(engine.SuggestLists(suggest).status()));
}

TEST_F(ListModelTest, SuggestListsRefusesAPageThatDoesNotParse) {
  LearningEngine engine(shop_->store.get(), {});
  if (shop_->store->ListListModelVersions().value().empty()) {
    ASSERT_TRUE(engine.TrainListModel({}).ok());
  }
  v1::SuggestListsRequest suggest;
  suggest.set_url("http://x/empty");
  absl::Status s = engine.SuggestLists(suggest).status();
  EXPECT_TRUE(absl::IsInvalidArgument(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("http://x/empty"));
  suggest.set_html("<p>x</p>");
  suggest.set_model_version(999);
  EXPECT_TRUE(absl::IsNotFound(engine.SuggestLists(suggest).status()));
}

}  // namespace
}  // namespace vertex::workflow
