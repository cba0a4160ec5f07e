// ParsedPageCache (page_cache.h) alone, and Learn with it against Learn
// without it: the same responses (rule, diagnostics, verdict, preview) on a
// demo site, warm cache included, and after a sample page is replaced.
#include "common/workflow/page_cache.h"

#include <filesystem>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace vertex::workflow {
namespace {

std::shared_ptr<const html::Page> ParsePage(const std::string& url, int items = 3) {
  std::string body = "<html><body><ul>";
  for (int i = 0; i < items; ++i) body += "<li>item " + std::to_string(i) + "</li>";
  html::Parser parser;
  return std::make_shared<const html::Page>(parser.Parse(body + "</ul></body></html>", url).value());
}

TEST(ParsedPageCache, FindsWhatWasInsertedUnderItsUrlOnly) {
  ParsedPageCache cache(size_t{1} << 20);
  cache.BeginCall("s", 1);
  EXPECT_EQ(cache.Find("s", 0, "http://a/0"), nullptr);
  cache.Insert("s", 0, ParsePage("http://a/0"));
  ASSERT_NE(cache.Find("s", 0, "http://a/0"), nullptr);
  EXPECT_EQ(cache.Find("t", 0, "http://a/0"), nullptr);  // another site
  EXPECT_EQ(cache.Find("s", 1, "http://a/0"), nullptr);  // another index
  // Another URL at that index: the entry is stale and dropped.
  EXPECT_EQ(cache.Find("s", 0, "http://a/other"), nullptr);
  EXPECT_EQ(cache.Find("s", 0, "http://a/0"), nullptr);
  const ParsedPageCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.hits, 1u);
  EXPECT_EQ(stats.entries, 0u);
  EXPECT_EQ(stats.bytes, 0u);
}

TEST(ParsedPageCache, NewGenerationAndDropSiteForgetTheSite) {
  ParsedPageCache cache(size_t{1} << 20);
  cache.BeginCall("s", 1);
  cache.Insert("s", 0, ParsePage("http://a/0"));
  cache.Insert("t", 0, ParsePage("http://b/0"));
  cache.BeginCall("s", 1);
  EXPECT_NE(cache.Find("s", 0, "http://a/0"), nullptr);
  cache.BeginCall("s", 2);  // the sample was clustered again
  EXPECT_EQ(cache.Find("s", 0, "http://a/0"), nullptr);
  EXPECT_NE(cache.Find("t", 0, "http://b/0"), nullptr);
  cache.DropSite("t");
  EXPECT_EQ(cache.Find("t", 0, "http://b/0"), nullptr);
  EXPECT_EQ(cache.stats().entries, 0u);
}

TEST(ParsedPageCache, EvictsEarlierCallsLeastRecentlyUsedFirst) {
  const auto page = ParsePage("http://a/0");
  const size_t cost = ParsedPageCache::CostOf(*page);
  ParsedPageCache cache(2 * cost);
  cache.BeginCall("s", 1);
  cache.Insert("s", 0, ParsePage("http://a/0"));
  cache.Insert("s", 1, ParsePage("http://a/1"));
  cache.BeginCall("s", 1);
  ASSERT_NE(cache.Find("s", 0, "http://a/0"), nullptr);  // 1 is now the least recently used
  cache.Insert("s", 2, ParsePage("http://a/2"));
  EXPECT_EQ(cache.Find("s", 1, "http://a/1"), nullptr);
  EXPECT_NE(cache.Find("s", 0, "http://a/0"), nullptr);
  EXPECT_NE(cache.Find("s", 2, "http://a/2"), nullptr);
  EXPECT_EQ(cache.stats().evictions, 1u);
  EXPECT_LE(cache.stats().bytes, 2 * cost);
}

TEST(ParsedPageCache, ACallDoesNotEvictItsOwnPages) {
  // A cluster larger than the budget, scanned in the same order every
  // call, keeps its first pages instead of evicting each before its reuse.
  const size_t cost = ParsedPageCache::CostOf(*ParsePage("http://a/0"));
  ParsedPageCache cache(2 * cost);
  for (int call = 0; call < 3; ++call) {
    cache.BeginCall("s", 1);
    for (size_t i = 0; i < 4; ++i) {
      const std::string url = "http://a/" + std::to_string(i);
      if (cache.Find("s", i, url) == nullptr) cache.Insert("s", i, ParsePage(url));
    }
  }
  const ParsedPageCache::Stats stats = cache.stats();
  EXPECT_EQ(stats.hits, 4u);  // pages 0 and 1 on the second and third call
  EXPECT_EQ(stats.evictions, 0u);
  EXPECT_EQ(stats.entries, 2u);
}

TEST(ParsedPageCache, APageOverTheBudgetIsNotKept) {
  ParsedPageCache cache(1);
  cache.BeginCall("s", 1);
  cache.Insert("s", 0, ParsePage("http://a/0"));
  EXPECT_EQ(cache.Find("s", 0, "http://a/0"), nullptr);
  EXPECT_EQ(cache.stats().refused, 1u);
}

struct DemoSite {
  test_support::TempDir dir{"page_cache"};
  std::vector<ClientPage> pages;
  eval::GroundTruth truth;
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
};

// Two engines, with and without the cache, each over its own store given
// the same calls.
struct Twin {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  ExtractionEngine extraction{store.get(), {}};
  LearningEngine learning;
  explicit Twin(size_t cache_bytes) : learning(store.get(), Options(cache_bytes)) {}
  static LearningEngineOptions Options(size_t cache_bytes) {
    LearningEngineOptions o;
    o.page_cache_bytes = cache_bytes;
    return o;
  }
};

// The response with what differs between two stores (times) cleared.
std::string Comparable(v1::LearnResponse r) {
  r.mutable_rule()->clear_created_unix_ms();
  for (v1::ExtractedRecord& p : *r.mutable_preview()) p.clear_rule_version();
  return r.SerializeAsString();
}

class LearnWithCacheTest : public ::testing::Test {
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

  static DemoSite* demo_;
};

DemoSite* LearnWithCacheTest::demo_ = nullptr;

TEST_F(LearnWithCacheTest, SameResponsesWithAndWithoutTheCache) {
  Twin plain(0), cached(size_t{1} << 30);
  absl::StatusOr<ApiRunReport> a =
      RunSiteThroughApi(plain.learning, plain.extraction, "shop", demo_->schema, demo_->pages, demo_->truth);
  absl::StatusOr<ApiRunReport> b =
      RunSiteThroughApi(cached.learning, cached.extraction, "shop", demo_->schema, demo_->pages, demo_->truth);
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  ASSERT_EQ(a->learnt.size(), b->learnt.size());
  ASSERT_FALSE(a->learnt.empty());
  for (size_t i = 0; i < a->learnt.size(); ++i) {
    EXPECT_EQ(Comparable(a->learnt[i]), Comparable(b->learnt[i])) << "cluster " << i;
  }
  EXPECT_EQ(plain.learning.page_cache_stats().entries, 0u);
  EXPECT_GT(cached.learning.page_cache_stats().hits, 0u);
  // Learning again from the stored annotations: every page from the cache.
  const std::string cluster = a->learnt[0].rule().cluster_id();
  v1::LearnRequest again;
  again.set_site("shop");
  again.set_cluster_id(cluster);
  const uint64_t misses = cached.learning.page_cache_stats().misses;
  absl::StatusOr<v1::LearnResponse> x = plain.learning.Learn(again);
  absl::StatusOr<v1::LearnResponse> y = cached.learning.Learn(again);
  ASSERT_TRUE(x.ok()) << x.status();
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Comparable(*x), Comparable(*y));
  EXPECT_EQ(cached.learning.page_cache_stats().misses, misses);
}

TEST_F(LearnWithCacheTest, AReplacedSamplePageIsParsedAgain) {
  // Regression guard: a page sent again under its URL with other content
  // (AddSamplePages replaces it in place, without clustering) must not be
  // answered from the cache.
  Twin plain(0), cached(size_t{1} << 30);
  ASSERT_TRUE(RunSiteThroughApi(plain.learning, plain.extraction, "shop", demo_->schema, demo_->pages, demo_->truth).ok());
  absl::StatusOr<ApiRunReport> b =
      RunSiteThroughApi(cached.learning, cached.extraction, "shop", demo_->schema, demo_->pages, demo_->truth);
  ASSERT_TRUE(b.ok()) << b.status();
  const v1::LearnResponse& learnt = b->learnt[0];
  ASSERT_GT(learnt.preview_size(), 1);
  // The first previewed page gets the second one's content.
  const std::string target = learnt.preview(0).url();
  std::string other_html;
  for (const ClientPage& p : demo_->pages) {
    if (p.url == learnt.preview(1).url()) other_html = p.bytes;
  }
  ASSERT_FALSE(other_html.empty());
  v1::AddSamplePagesRequest add;
  add.set_site("shop");
  add.set_defer_clustering(true);
  v1::Page* page = add.add_pages();
  page->set_url(target);
  page->set_html(other_html);
  ASSERT_TRUE(plain.learning.AddSamplePages(add).ok());
  ASSERT_TRUE(cached.learning.AddSamplePages(add).ok());
  v1::LearnRequest again;
  again.set_site("shop");
  again.set_cluster_id(learnt.rule().cluster_id());
  absl::StatusOr<v1::LearnResponse> x = plain.learning.Learn(again);
  absl::StatusOr<v1::LearnResponse> y = cached.learning.Learn(again);
  ASSERT_TRUE(x.ok()) << x.status();
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Comparable(*x), Comparable(*y));
  ASSERT_GT(y->preview_size(), 1);
  EXPECT_EQ(y->preview(0).url(), target);
  EXPECT_NE(y->preview(0).SerializeAsString(), learnt.preview(0).SerializeAsString());
}

}  // namespace
}  // namespace vertex::workflow
