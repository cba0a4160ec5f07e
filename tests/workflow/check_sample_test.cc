// The editor loop's check sample (ClusterLearnOptions::max_check_pages):
// CheckSubsample alone, and Learn with a cap against Learn checking every
// page on a demo site: identical when the cluster is no larger than the cap,
// and, with a cap far below the cluster, rules that still extract the
// ground truth.
#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace vertex::workflow {
namespace {

std::vector<size_t> Order(size_t n) {
  std::vector<size_t> out(n);
  std::iota(out.begin(), out.end(), 100);  // page indices 100, 101, ...
  return out;
}

TEST(CheckSubsample, NoCapOrAShortOrderIsKeptWhole) {
  EXPECT_EQ(CheckSubsample(Order(1000), 10, 0), Order(1000));
  EXPECT_EQ(CheckSubsample(Order(500), 10, 500), Order(500));
  EXPECT_EQ(CheckSubsample(Order(20), 3, 500), Order(20));
  EXPECT_TRUE(CheckSubsample({}, 0, 5).empty());
}

TEST(CheckSubsample, KeepsTheHeadThenOneMemberPerStratumInOrder) {
  const std::vector<size_t> order = Order(1000);
  const std::vector<size_t> got = CheckSubsample(order, 20, 100);
  ASSERT_EQ(got.size(), 100u);
  EXPECT_TRUE(std::equal(order.begin(), order.begin() + 20, got.begin()));
  EXPECT_TRUE(std::is_sorted(got.begin(), got.end()));  // the order's order, no repeat
  EXPECT_EQ(std::set<size_t>(got.begin(), got.end()).size(), got.size());
  // 80 strata of the 980 pages past the head: one pick in each.
  std::vector<int> per_stratum(80, 0);
  for (size_t i = 20; i < got.size(); ++i) {
    const size_t position = got[i] - 100 - 20;
    ++per_stratum[position * 80 / 980];
  }
  for (size_t j = 0; j < per_stratum.size(); ++j) EXPECT_EQ(per_stratum[j], 1) << "stratum " << j;
  // The first and last picks sit inside the rest, near its ends.
  EXPECT_LT(got[20] - 100, 20u + 980 / 80);
  EXPECT_GE(got.back() - 100, 1000u - 980 / 80);
}

TEST(CheckSubsample, IsDeterministic) {
  std::vector<size_t> order = Order(3000);
  std::reverse(order.begin(), order.end());
  EXPECT_EQ(CheckSubsample(order, 7, 250), CheckSubsample(order, 7, 250));
}

TEST(CheckSubsample, AHeadAsLongAsTheCapIsKeptAlone) {
  const std::vector<size_t> order = Order(100);
  EXPECT_EQ(CheckSubsample(order, 30, 20), std::vector<size_t>(order.begin(), order.begin() + 30));
  EXPECT_EQ(CheckSubsample(order, 200, 20), order);  // a head past the end is the whole order
}

struct DemoSite {
  test_support::TempDir dir{"check_sample"};
  std::vector<ClientPage> pages;
  eval::GroundTruth truth;
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
};

// An engine over its own store, with the given check cap.
struct Engines {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  ExtractionEngine extraction{store.get(), {}};
  LearningEngine learning;
  explicit Engines(size_t max_check_pages) : learning(store.get(), Options(max_check_pages)) {}
  static LearningEngineOptions Options(size_t max_check_pages) {
    LearningEngineOptions o;
    o.learn.max_check_pages = max_check_pages;
    return o;
  }
};

std::string Comparable(v1::LearnResponse r) {
  r.mutable_rule()->clear_created_unix_ms();
  for (v1::ExtractedRecord& p : *r.mutable_preview()) p.clear_rule_version();
  return r.SerializeAsString();
}

class CheckSampleLearnTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    demo_ = new DemoSite;
    demo::SiteOptions options;
    options.product_pages = 120;
    options.category_pages = 30;
    options.review_pages = 20;
    options.store_pages = 20;
    ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(options), demo_->dir.path()).ok());
    demo_->pages = ReadClientPages({demo_->dir.path()}, 8 << 20).value();
    demo_->truth = eval::LoadGroundTruth((std::filesystem::path(demo_->dir.path()) / "groundtruth" / "product").string(),
                                         "vertexdemo")
                       .value();
  }
  static void TearDownTestSuite() { delete demo_; }

  static absl::StatusOr<ApiRunReport> Run(Engines& e) {
    return RunSiteThroughApi(e.learning, e.extraction, "shop", demo_->schema, demo_->pages, demo_->truth);
  }

  static DemoSite* demo_;
};

DemoSite* CheckSampleLearnTest::demo_ = nullptr;

TEST_F(CheckSampleLearnTest, AClusterNoLargerThanTheCapIsCheckedWhole) {
  Engines all(0), capped(ClusterLearnOptions{}.max_check_pages);
  ASSERT_GE(capped.learning.options().learn.max_check_pages, demo_->pages.size());
  absl::StatusOr<ApiRunReport> a = Run(all);
  absl::StatusOr<ApiRunReport> b = Run(capped);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(a->learnt.size(), b->learnt.size());
  ASSERT_FALSE(a->learnt.empty());
  for (size_t i = 0; i < a->learnt.size(); ++i) {
    EXPECT_EQ(Comparable(a->learnt[i]), Comparable(b->learnt[i])) << "cluster " << i;
  }
}

TEST_F(CheckSampleLearnTest, ASmallCapChecksFewerPagesAndTheRulesStillExtractTheTruth) {
  Engines all(0), capped(25);
  absl::StatusOr<ApiRunReport> a = Run(all);
  absl::StatusOr<ApiRunReport> b = Run(capped);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_FALSE(b->learnt.empty());
  size_t checked_all = 0, checked_capped = 0;
  for (const v1::LearnResponse& r : a->learnt) checked_all += r.pages_checked();
  for (const v1::LearnResponse& r : b->learnt) checked_capped += r.pages_checked();
  EXPECT_LT(checked_capped, checked_all);
  // Every attribute the full check's rules extract perfectly, the sampled
  // check's rules extract perfectly too, over every page of the site.
  size_t perfect = 0;
  for (const auto& [attribute, score] : a->scorer.scores()) {
    if (score.precision() < 1 || score.recall() < 1) continue;
    ++perfect;
    const auto it = b->scorer.scores().find(attribute);
    ASSERT_NE(it, b->scorer.scores().end()) << attribute;
    EXPECT_EQ(it->second.precision(), 1) << attribute;
    EXPECT_EQ(it->second.recall(), 1) << attribute;
  }
  EXPECT_GT(perfect, 0u);
}

}  // namespace
}  // namespace vertex::workflow
