// How MonitorEngine routes supplied pages to clusters (monitor_engine.h):
// bellwether, then the stored sample, then signature, then nearest
// signature; the URL regex only as a pre-filter. Regression test of a site
// whose clusters share one URL pattern: every page not a bellwether went to
// the first cluster whose URL regex matched, and an unchanged site was
// reported CHANGED.
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "common/demo/versioned_site.h"
#include "common/monitor/monitor_engine.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace vertex::monitor {
namespace {

using ::testing::HasSubstr;

constexpr char kSite[] = "shared";

// Every template's pages under one URL pattern: http://HOST/p/<slug>-<id>.html.
std::string SharedUrl(const std::string& url) {
  const size_t t = url.find("/t");
  const size_t slash = url.find('/', t + 1);
  return url.substr(0, t) + "/p" + url.substr(slash);
}

std::vector<demo::VersionedPage> Pages(uint64_t seed, bool ads, bool optional_section) {
  demo::VersionedSiteOptions o;
  o.seed = seed;
  o.templates = 2;
  o.pages_per_template = 20;
  o.ads = ads;
  o.optional_section = optional_section;
  std::vector<demo::VersionedPage> pages = demo::GenerateVersionedSite(o);
  for (demo::VersionedPage& p : pages) p.url = SharedUrl(p.url);
  return pages;
}

class RoutingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = store::NewInMemoryStore();
    workflow::LearningEngine learning(store_.get(), workflow::LearningEngineOptions());
    workflow::ExtractionEngine extraction(store_.get(), workflow::ExtractionEngineOptions());
    v1::Schema proto;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(demo::VersionedSiteSchemaJson(), &proto).ok());
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(proto);
    ASSERT_TRUE(schema.ok()) << schema.status();
    std::vector<workflow::ClientPage> client;
    eval::GroundTruth truth;
    const std::vector<demo::VersionedPage> pages = Pages(1, false, false);
    for (size_t i = 0; i < pages.size(); ++i) {
      const std::string id = "p" + std::to_string(i);
      client.push_back({id + ".htm", pages[i].url, pages[i].html});
      for (const auto& [attribute, values] : pages[i].truth) truth.pages[id][attribute] = values;
      template_of_[pages[i].url] = pages[i].template_index;
    }
    absl::StatusOr<workflow::ApiRunReport> report =
        workflow::RunSiteThroughApi(learning, extraction, kSite, *schema, client, truth);
    ASSERT_TRUE(report.ok()) << report.status();
    ASSERT_EQ(report->clusters_with_rule, 2u);
    absl::StatusOr<std::vector<v1::ClusterRecord>> clusters = store_->ClustersOfSite(kSite);
    ASSERT_TRUE(clusters.ok());
    ASSERT_GE(clusters->size(), 2u);
    ASSERT_EQ((*clusters)[0].url_regex(), (*clusters)[1].url_regex()) << "the test needs one shared URL pattern";
  }

  v1::MonitorResponse Monitor(const std::vector<demo::VersionedPage>& pages) {
    MonitorEngine engine(store_.get(), MonitorEngineOptions());
    v1::MonitorRequest request;
    request.set_site(kSite);
    request.set_dry_run(true);
    for (const demo::VersionedPage& p : pages) {
      v1::Page* page = request.add_pages();
      page->set_url(p.url);
      page->set_html(p.html);
    }
    absl::StatusOr<v1::MonitorResponse> response = engine.Monitor(request);
    EXPECT_TRUE(response.ok()) << response.status();
    return response.value_or(v1::MonitorResponse());
  }

  std::unique_ptr<store::RuleStore> store_;
  std::map<std::string, int> template_of_;  // learnt pages' URL -> template
};

TEST_F(RoutingTest, UnchangedPagesOfClustersSharingAUrlPatternAreOk) {
  const v1::MonitorResponse r = Monitor(Pages(1, false, false));
  EXPECT_EQ(r.verdict(), v1::ClusterVerdict::OK);
  EXPECT_EQ(r.unrouted_pages(), 0u);
  ASSERT_EQ(r.clusters_size(), 2);
  std::map<std::string, int> routed;
  for (const v1::ClusterVerdict& v : r.clusters()) {
    EXPECT_EQ(v.verdict(), v1::ClusterVerdict::OK) << v.cluster_id() << ": " << v.reason();
    EXPECT_EQ(v.not_covered(), 0u) << v.cluster_id();
    EXPECT_EQ(v.pages(), 20u) << v.cluster_id();
    std::set<int> templates;
    for (const v1::PageCheck& c : v.checks()) {
      ++routed[c.routed_by()];
      templates.insert(template_of_[c.url()]);
      EXPECT_TRUE(c.covered()) << c.url();
    }
    EXPECT_EQ(templates.size(), 1u) << v.cluster_id() << " got pages of two templates";
  }
  EXPECT_GT(routed["bellwether"], 0);
  EXPECT_GT(routed["sample"], 0);
  EXPECT_EQ(routed["bellwether"] + routed["sample"] + routed["signature"], 40);
  EXPECT_EQ(routed["nearest"] + routed["url"], 0);
}

TEST_F(RoutingTest, NewPagesGoByTheirSignatureNotTheFirstUrlMatch) {
  // Other products (other URLs, none in the sample) of the same templates.
  const std::vector<demo::VersionedPage> pages = Pages(2, false, false);
  const v1::MonitorResponse r = Monitor(pages);
  EXPECT_EQ(r.verdict(), v1::ClusterVerdict::OK);
  EXPECT_EQ(r.unrouted_pages(), 0u);
  std::map<std::string, int> template_of;
  for (const demo::VersionedPage& p : pages) template_of[p.url] = p.template_index;
  for (const v1::ClusterVerdict& v : r.clusters()) {
    EXPECT_EQ(v.verdict(), v1::ClusterVerdict::OK) << v.cluster_id() << ": " << v.reason();
    std::set<int> templates;
    for (const v1::PageCheck& c : v.checks()) {
      if (template_of_.count(c.url())) continue;
      EXPECT_EQ(c.routed_by(), "signature") << c.url();
      templates.insert(template_of[c.url()]);
    }
    EXPECT_LE(templates.size(), 1u) << v.cluster_id() << " got pages of two templates";
  }
}

TEST_F(RoutingTest, APageNoSignatureCoversGoesToTheNearestAndIsNotCovered) {
  // New products, with an ad block and an optional section: some pages no
  // signature covers, whose record is still complete.
  const v1::MonitorResponse r = Monitor(Pages(2, true, true));
  uint32_t nearest = 0, matched = 0;
  for (const v1::ClusterVerdict& v : r.clusters()) {
    uint32_t cluster_nearest = 0;
    for (const v1::PageCheck& c : v.checks()) {
      if (c.routed_by() != "nearest") continue;
      ++cluster_nearest;
      EXPECT_FALSE(c.covered()) << c.url();
      EXPECT_GT(c.agreement(), 0u) << c.url();
    }
    EXPECT_EQ(v.not_covered(), cluster_nearest) << v.cluster_id();
    EXPECT_LE(v.nearest_matched(), cluster_nearest) << v.cluster_id();
    nearest += cluster_nearest;
    matched += v.nearest_matched();
    if (v.nearest_matched() > 0) {
      bool said = false;
      for (const std::string& e : v.evidence()) {
        said = said || e.find("not covered; nearest match still extracts a complete record (agreement ") !=
                           std::string::npos;
      }
      EXPECT_TRUE(said) << v.cluster_id();
    }
  }
  ASSERT_GT(nearest, 0u) << "the variant should leave some page uncovered";
  EXPECT_GT(matched, 0u);
}

TEST_F(RoutingTest, APageNoUrlRegexMatchesIsUnrouted) {
  std::vector<demo::VersionedPage> pages = Pages(1, false, false);
  pages.resize(1);
  pages[0].url = "http://elsewhere.test/about.html";
  const v1::MonitorResponse r = Monitor(pages);
  EXPECT_EQ(r.unrouted_pages(), 1u);
  for (const v1::ClusterVerdict& v : r.clusters()) EXPECT_EQ(v.checks_size(), 0) << v.cluster_id();
}

}  // namespace
}  // namespace vertex::monitor
