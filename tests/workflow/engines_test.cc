// The engines behind the services, in process over an in-memory store: a
// demo site's whole life through LearningApi and ExtractionApi, and every
// documented error code.
#include <filesystem>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/monitor/monitor_engine.h"
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

struct DemoSite {
  test_support::TempDir dir{"engines"};
  std::vector<ClientPage> pages;
  eval::GroundTruth truth;
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
};

DemoSite* MakeDemo() {
  auto* site = new DemoSite;
  demo::SiteOptions options;
  options.product_pages = 150;
  options.category_pages = 50;
  options.review_pages = 30;
  options.store_pages = 30;
  EXPECT_TRUE(demo::WriteSite(demo::GenerateSite(options), site->dir.path()).ok());
  site->pages = ReadClientPages({site->dir.path()}, 8 << 20).value();
  site->truth =
      eval::LoadGroundTruth((std::filesystem::path(site->dir.path()) / "groundtruth" / "product").string(),
                            "vertexdemo")
          .value();
  return site;
}

class EnginesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { demo_ = MakeDemo(); }
  static void TearDownTestSuite() { delete demo_; }

  EnginesTest()
      : store_(store::NewInMemoryStore()),
        extraction_(store_.get(), {}),
        learning_(store_.get(), {}, [this](const std::string&) { ASSERT_TRUE(extraction_.Refresh().ok()); }),
        monitor_(store_.get(), {}) {}

  void Register(const std::string& site) {
    v1::RegisterSiteRequest r;
    r.set_site(site);
    *r.mutable_schema() = demo_->schema.proto();
    ASSERT_TRUE(learning_.RegisterSite(r).ok());
  }

  static DemoSite* demo_;
  std::unique_ptr<store::RuleStore> store_;
  ExtractionEngine extraction_;
  LearningEngine learning_;
  monitor::MonitorEngine monitor_;
};

DemoSite* EnginesTest::demo_ = nullptr;

// Regression: `created` was "created_unix_ms == updated_unix_ms", two clock
// reads that a millisecond boundary could fall between (a new site then said
// created: false, cli_tiny_sites_test flaked); and a site registered again in
// its first millisecond said created: true. Several hundred registrations
// cross a boundary with near certainty.
TEST_F(EnginesTest, RegisterSiteSaysCreatedOnlyForANewSite) {
  for (int i = 0; i < 400; ++i) {
    v1::RegisterSiteRequest r;
    r.set_site("s" + std::to_string(i));
    *r.mutable_schema() = demo_->schema.proto();
    absl::StatusOr<v1::RegisterSiteResponse> first = learning_.RegisterSite(r);
    ASSERT_TRUE(first.ok()) << first.status();
    ASSERT_TRUE(first->created()) << r.site();
    absl::StatusOr<v1::RegisterSiteResponse> again = learning_.RegisterSite(r);
    ASSERT_TRUE(again.ok()) << again.status();
    ASSERT_FALSE(again->created()) << r.site();
  }
}

TEST_F(EnginesTest, DemoSiteThroughTheApisIsExtractedAccurately) {
  absl::StatusOr<ApiRunReport> report =
      RunSiteThroughApi(learning_, extraction_, "shop", demo_->schema, demo_->pages, demo_->truth);
  ASSERT_TRUE(report.ok()) << report.status();
  std::cout << FormatRunReport("shop", demo_->schema, *report);
  EXPECT_GE(report->sample.clusters_size(), 3);
  EXPECT_GE(report->clusters_with_rule, 1u);
  EXPECT_LE(report->pages_annotated, 3u * report->sample.clusters_size());
  ASSERT_EQ(report->records.size(), demo_->pages.size());
  for (const auto& [name, s] : report->scorer.scores()) {
    EXPECT_GE(s.precision(), 0.98) << name;
    EXPECT_GE(s.recall(), 0.98) << name;
  }
  // ListRules shows the rule in force and its versions.
  v1::ListRulesRequest list;
  list.set_site("shop");
  v1::ListRulesResponse rules = learning_.ListRules(list).value();
  bool some_rule = false;
  for (const v1::ClusterRules& c : rules.clusters()) some_rule |= c.cluster().current_version() > 0;
  EXPECT_TRUE(some_rule);
}

TEST_F(EnginesTest, LearnStoresVersionsAndRollbackReachesExtraction) {
  ASSERT_TRUE(RunSiteThroughApi(learning_, extraction_, "shop", demo_->schema, demo_->pages, demo_->truth).ok());
  std::string cluster;
  v1::ListRulesRequest list;
  list.set_site("shop");
  const v1::ListRulesResponse rules = learning_.ListRules(list).value();
  for (const v1::ClusterRules& c : rules.clusters()) {
    if (c.cluster().current_version() > 0 && cluster.empty()) cluster = c.cluster().cluster_id();
  }
  ASSERT_FALSE(cluster.empty());
  // Learning again with the stored annotations gives a new version.
  v1::LearnRequest again;
  again.set_site("shop");
  again.set_cluster_id(cluster);
  absl::StatusOr<v1::LearnResponse> learnt = learning_.Learn(again);
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  const int64_t latest = learnt->version();
  ASSERT_GE(latest, 2);
  EXPECT_FALSE(learnt->preview().empty());
  v1::RollbackRuleRequest rollback;
  rollback.set_site("shop");
  rollback.set_cluster_id(cluster);
  rollback.set_version(1);
  ASSERT_TRUE(learning_.RollbackRule(rollback).ok());
  const std::string url = learnt->annotated_urls(0);
  for (const ClientPage& p : demo_->pages) {
    if (p.url != url) continue;
    v1::ExtractRequest r;
    r.set_site("shop");
    r.set_url(p.url);
    r.set_html(p.bytes);
    v1::ExtractResponse response = extraction_.Extract(r).value();
    EXPECT_EQ(response.record().rule_version(), 1);
    EXPECT_EQ(response.record().cluster_id(), cluster);
  }
  rollback.set_version(latest + 5);
  EXPECT_EQ(learning_.RollbackRule(rollback).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(EnginesTest, BadRequestsGetTheirCodesAndNameTheInput) {
  v1::RegisterSiteRequest bad_schema;
  bad_schema.set_site("shop");
  absl::Status s = learning_.RegisterSite(bad_schema).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("schema"));
  bad_schema.set_site("");
  EXPECT_THAT(learning_.RegisterSite(bad_schema).status().message(), HasSubstr("site"));

  v1::AddSamplePagesRequest add;
  add.set_site("nowhere");
  add.add_pages()->set_url("http://x.test/1");
  EXPECT_EQ(learning_.AddSamplePages(add).status().code(), absl::StatusCode::kNotFound);

  Register("shop");
  v1::GetAnnotationTasksRequest tasks;
  tasks.set_site("shop");
  EXPECT_EQ(learning_.GetAnnotationTasks(tasks).status().code(), absl::StatusCode::kFailedPrecondition);
  add.set_site("shop");
  add.mutable_pages(0)->set_url("");
  s = learning_.AddSamplePages(add).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("pages[0].url"));

  // A page that cannot be parsed is reported, not stored.
  add.mutable_pages(0)->set_url("http://x.test/empty");
  add.set_defer_clustering(true);
  v1::AddSamplePagesResponse added = learning_.AddSamplePages(add).value();
  EXPECT_EQ(added.pages_added(), 0u);
  ASSERT_EQ(added.errors_size(), 1);
  EXPECT_EQ(added.errors(0).url(), "http://x.test/empty");

  v1::LearnRequest learn;
  learn.set_site("shop");
  learn.set_cluster_id("c9");
  EXPECT_EQ(learning_.Learn(learn).status().code(), absl::StatusCode::kNotFound);
  v1::Annotation* a = learn.add_annotations();
  a->set_url("http://x.test/1");
  a->set_attribute("colour");
  a->set_value("red");
  s = learning_.Learn(learn).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("annotations[0]: unknown attribute \"colour\""));
  // A partial list label (issue 14) is for multi-valued attributes only.
  a->set_attribute("title");
  a->set_partial(true);
  s = learning_.Learn(learn).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("annotations[0]: \"partial\" (the first values of a list) on single-valued "
                                     "attribute \"title\""));

  v1::ExtractRequest extract;
  extract.set_site("shop");
  extract.set_url("http://x.test/1");
  EXPECT_EQ(extraction_.Extract(extract).status().code(), absl::StatusCode::kInvalidArgument);
  extract.set_html(std::string(9 << 20, 'x'));
  s = extraction_.Extract(extract).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(s.message(), HasSubstr("--max-page-bytes"));
  extract.set_html("<p>hi</p>");
  EXPECT_EQ(extraction_.Extract(extract).status().code(), absl::StatusCode::kFailedPrecondition);
  extract.set_site("nowhere");
  EXPECT_EQ(extraction_.Extract(extract).status().code(), absl::StatusCode::kNotFound);
  // Without site and without any rule anywhere: NO_URL_MATCH.
  extract.clear_site();
  EXPECT_EQ(extraction_.Extract(extract).value().record().status(), v1::ExtractedRecord::NO_URL_MATCH);

  // No rule yet (and no page given, no fetcher to fetch bellwethers).
  v1::MonitorRequest monitor;
  monitor.set_site("shop");
  EXPECT_EQ(monitor_.Monitor(monitor).status().code(), absl::StatusCode::kFailedPrecondition);
  monitor.add_pages()->set_url("http://x/1");
  EXPECT_EQ(monitor_.Monitor(monitor).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(EnginesTest, MonitorTellsUnchangedFromRestyledPages) {
  ASSERT_TRUE(RunSiteThroughApi(learning_, extraction_, "shop", demo_->schema, demo_->pages, demo_->truth).ok());
  v1::MonitorRequest same, restyled;
  same.set_site("shop");
  restyled.set_site("shop");
  for (const ClientPage& p : demo_->pages) {
    if (p.url.find("/p/") == std::string::npos) continue;
    v1::Page* page = same.add_pages();
    page->set_url(p.url);
    page->set_html(p.bytes);
    // A new template: every class renamed and the layout wrapped in tables.
    std::string html = p.bytes;
    for (size_t at = 0; (at = html.find("class=\"", at)) != std::string::npos; at += 9) html.replace(at, 7, "class=\"v2-");
    for (size_t at = 0; (at = html.find("<div", at)) != std::string::npos; at += 30) html.replace(at, 4, "<table><tr><td><div");
    page = restyled.add_pages();
    page->set_url(p.url);
    page->set_html(html);
  }
  ASSERT_GT(same.pages_size(), 20);
  absl::StatusOr<v1::MonitorResponse> ok = monitor_.Monitor(same);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(ok->verdict(), v1::ClusterVerdict::OK) << ok->DebugString();
  absl::StatusOr<v1::MonitorResponse> changed = monitor_.Monitor(restyled);
  ASSERT_TRUE(changed.ok()) << changed.status();
  EXPECT_EQ(changed->verdict(), v1::ClusterVerdict::CHANGED);
  bool evidence = false;
  for (const v1::ClusterVerdict& c : changed->clusters()) evidence |= c.evidence_size() > 0;
  EXPECT_TRUE(evidence);
}

}  // namespace
}  // namespace vertex::workflow
