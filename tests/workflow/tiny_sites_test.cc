// Sites of 1-30 pages through the LearningEngine (issue 11, item 3): the
// adaptive pruning threshold clusters them into their templates and one
// annotated page per template gives a rule that extracts every other page;
// the site's settings (RegisterSite, AddSamplePages) and the engine's
// defaults; what GetAnnotationTasks says of a sample clustered into no
// cluster. Every error the settings can give.
#include <limits>

#include "common/store/rule_store.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/tiny_sites.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using test_support::MakeTinySite;
using test_support::TinySite;
using test_support::TinySiteCase;

TEST(TinySites, OneAnnotatedPagePerTemplateLearnsTheSite) {
  for (const TinySiteCase& c : test_support::TinySiteCases()) {
    SCOPED_TRACE(c.Name());
    const TinySite site = MakeTinySite(c);
    std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
    ExtractionEngine extraction(store.get(), {});
    LearningEngine learning(store.get(), {}, [&](const std::string&) { ASSERT_TRUE(extraction.Refresh().ok()); });
    ApiRunOptions options;
    options.max_pages = 1;
    absl::StatusOr<ApiRunReport> report =
        RunSiteThroughApi(learning, extraction, "tiny", site.schema, site.pages, site.truth, options);
    ASSERT_TRUE(report.ok()) << report.status();
    test_support::ExpectTinySiteLearnt(c, site, *report);
  }
}

// An engine over an in-memory store and a 10-page site of one template.
class SiteSettingsTest : public ::testing::Test {
 protected:
  SiteSettingsTest() : site_(MakeTinySite({1, 10})) {}

  void Reset(LearningEngineOptions options) {
    learning_.reset();
    store_ = store::NewInMemoryStore();
    learning_ = std::make_unique<LearningEngine>(store_.get(), std::move(options));
  }

  v1::RegisterSiteRequest Register() const {
    v1::RegisterSiteRequest r;
    r.set_site("tiny");
    *r.mutable_schema() = site_.schema_proto;
    return r;
  }

  v1::AddSamplePagesRequest Add() const {
    v1::AddSamplePagesRequest r;
    r.set_site("tiny");
    for (const ClientPage& p : site_.pages) {
      v1::Page* page = r.add_pages();
      page->set_url(p.url);
      page->set_html(p.bytes);
    }
    return r;
  }

  static v1::SiteSettings Settings(uint32_t threshold, double rate) {
    v1::SiteSettings s;
    s.set_prune_threshold(threshold);
    s.set_sample_rate(rate);
    return s;
  }

  v1::GetAnnotationTasksRequest Tasks() const {
    v1::GetAnnotationTasksRequest r;
    r.set_site("tiny");
    return r;
  }

  TinySite site_;
  std::unique_ptr<store::RuleStore> store_ = store::NewInMemoryStore();
  std::unique_ptr<LearningEngine> learning_ = std::make_unique<LearningEngine>(store_.get(), LearningEngineOptions());
};

TEST_F(SiteSettingsTest, AdaptiveByDefault) {
  ASSERT_TRUE(learning_->RegisterSite(Register()).ok());
  const v1::AddSamplePagesResponse added = learning_->AddSamplePages(Add()).value();
  EXPECT_EQ(added.clusters_size(), 1);
  EXPECT_EQ(added.prune_threshold(), 1u);
  EXPECT_EQ(added.settings().prune_threshold(), 0u);  // adaptive
  EXPECT_EQ(added.settings().sample_rate(), 0.2);     // the engine's
  const v1::GetAnnotationTasksResponse tasks = learning_->GetAnnotationTasks(Tasks()).value();
  EXPECT_EQ(tasks.prune_threshold(), 1u);
  EXPECT_EQ(tasks.sample_pages(), 10u);
  EXPECT_EQ(tasks.unassigned_pages(), 0u);
  EXPECT_EQ(tasks.settings().prune_threshold(), 0u);
  EXPECT_GE(tasks.tasks_size(), 1);
  EXPECT_EQ(store_->GetSampleState("tiny").value().prune_threshold(), 1u);
}

// Regression: 10 pages at the paper's threshold cluster into nothing; the
// response says so (threshold 20, no cluster) and GetAnnotationTasks no
// longer claims the sample "was never clustered".
TEST_F(SiteSettingsTest, ZeroClustersAreReportedAsSuch) {
  v1::RegisterSiteRequest register_site = Register();
  *register_site.mutable_settings() = Settings(20, 0);
  ASSERT_TRUE(learning_->RegisterSite(register_site).ok());
  absl::Status s = learning_->GetAnnotationTasks(Tasks()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), HasSubstr("was never clustered"));
  const v1::AddSamplePagesResponse added = learning_->AddSamplePages(Add()).value();
  EXPECT_TRUE(added.clustered());
  EXPECT_EQ(added.clusters_size(), 0);
  EXPECT_EQ(added.unassigned_pages(), 10u);
  EXPECT_EQ(added.prune_threshold(), 20u);
  EXPECT_EQ(added.settings().prune_threshold(), 20u);
  s = learning_->GetAnnotationTasks(Tasks()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(s.message(), Not(HasSubstr("never clustered")));
  EXPECT_THAT(s.message(), HasSubstr("the sample of site \"tiny\" (10 pages) was clustered into no cluster: every "
                                     "masked vector was pruned (threshold 20)"));
  // New settings with the next pages: clustered with them.
  v1::AddSamplePagesRequest again = Add();
  *again.mutable_settings() = Settings(0, 0);
  const v1::AddSamplePagesResponse readded = learning_->AddSamplePages(again).value();
  EXPECT_EQ(readded.clusters_size(), 1);
  EXPECT_EQ(readded.prune_threshold(), 1u);
  EXPECT_TRUE(learning_->GetAnnotationTasks(Tasks()).ok());
}

TEST_F(SiteSettingsTest, StoredKeptAndReplaced) {
  v1::RegisterSiteRequest r = Register();
  *r.mutable_settings() = Settings(3, 0.5);
  r.mutable_settings()->set_no_rule_transfer(true);
  v1::RegisterSiteResponse registered = learning_->RegisterSite(r).value();
  EXPECT_EQ(registered.site().settings().prune_threshold(), 3u);
  EXPECT_TRUE(registered.site().settings().no_rule_transfer());
  // Registered again without settings: kept.
  registered = learning_->RegisterSite(Register()).value();
  EXPECT_EQ(registered.site().settings().prune_threshold(), 3u);
  EXPECT_EQ(registered.site().settings().sample_rate(), 0.5);
  v1::AddSamplePagesResponse added = learning_->AddSamplePages(Add()).value();
  EXPECT_EQ(added.prune_threshold(), 3u);
  EXPECT_TRUE(added.settings().no_rule_transfer());
  v1::GetAnnotationTasksResponse tasks = learning_->GetAnnotationTasks(Tasks()).value();
  EXPECT_EQ(tasks.settings().prune_threshold(), 3u);
  EXPECT_EQ(tasks.settings().sample_rate(), 0.5);
  EXPECT_TRUE(tasks.settings().no_rule_transfer());
  EXPECT_EQ(tasks.prune_threshold(), 3u);
  // Replaced by AddSamplePages, deferred or not.
  v1::AddSamplePagesRequest deferred;
  deferred.set_site("tiny");
  deferred.set_defer_clustering(true);
  *deferred.mutable_settings() = Settings(2, 0);
  added = learning_->AddSamplePages(deferred).value();
  EXPECT_FALSE(added.clustered());
  EXPECT_EQ(added.settings().prune_threshold(), 2u);
  EXPECT_FALSE(added.settings().no_rule_transfer());
  EXPECT_EQ(store_->GetSite("tiny").value().settings().prune_threshold(), 2u);
  added = learning_->AddSamplePages(Add()).value();
  EXPECT_EQ(added.prune_threshold(), 2u);
}

// A site without settings gets the engine's defaults; a site's settings
// win over them.
TEST_F(SiteSettingsTest, EngineDefaultsForSitesWithoutSettings) {
  LearningEngineOptions options;
  options.cluster.cluster.prune_threshold = 20;
  Reset(options);
  ASSERT_TRUE(learning_->RegisterSite(Register()).ok());
  v1::AddSamplePagesResponse added = learning_->AddSamplePages(Add()).value();
  EXPECT_EQ(added.clusters_size(), 0);
  EXPECT_EQ(added.prune_threshold(), 20u);
  EXPECT_EQ(added.settings().prune_threshold(), 20u);
  // Settings whose clustering fields are all defaults are no settings: every
  // site stores its page builder in its settings, so the engine's default
  // still applies to them.
  v1::AddSamplePagesRequest defaults = Add();
  *defaults.mutable_settings() = Settings(0, 0);
  added = learning_->AddSamplePages(defaults).value();
  EXPECT_EQ(added.clusters_size(), 0);
  EXPECT_EQ(added.prune_threshold(), 20u);
  v1::AddSamplePagesRequest own = Add();
  *own.mutable_settings() = Settings(1, 0);
  added = learning_->AddSamplePages(own).value();
  EXPECT_EQ(added.clusters_size(), 1);
  EXPECT_EQ(added.prune_threshold(), 1u);
}

TEST_F(SiteSettingsTest, BadSettingsAreRefusedNamingTheField) {
  ASSERT_TRUE(learning_->RegisterSite(Register()).ok());
  struct Case {
    v1::SiteSettings settings;
    std::string message;
  };
  const std::vector<Case> cases = {
      {Settings(0, -0.1), "settings.sample_rate must be from 0 to 1"},
      {Settings(0, 1.5), "settings.sample_rate must be from 0 to 1"},
      {Settings(0, std::numeric_limits<double>::quiet_NaN()), "settings.sample_rate must be from 0 to 1"},
      {Settings(1000000001, 0), "settings.prune_threshold must be at most 1000000000"},
  };
  for (const Case& c : cases) {
    v1::RegisterSiteRequest r = Register();
    *r.mutable_settings() = c.settings;
    absl::Status s = learning_->RegisterSite(r).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(s.message(), HasSubstr(c.message));
    v1::AddSamplePagesRequest a = Add();
    *a.mutable_settings() = c.settings;
    s = learning_->AddSamplePages(a).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << c.message;
    EXPECT_THAT(s.message(), HasSubstr(c.message));
  }
  // Nothing was stored: the site holds only its builder, stored when it
  // was registered.
  const v1::SiteSettings stored = store_->GetSite("tiny").value().settings();
  EXPECT_EQ(stored.prune_threshold(), 0u);
  EXPECT_EQ(stored.sample_rate(), 0);
  EXPECT_EQ(stored.page_builder(), v1::PAGE_BUILDER_LIBXML2);
  EXPECT_EQ(store_->GetSampleState("tiny").value().urls_size(), 0);
  // The bounds themselves are accepted.
  v1::RegisterSiteRequest r = Register();
  *r.mutable_settings() = Settings(1000000000, 1);
  EXPECT_TRUE(learning_->RegisterSite(r).ok());
}

}  // namespace
}  // namespace vertex::workflow
