// lists::CollectStoreTraining on a hand-made store: which (rule, snapshot)
// pairs become labelled pages, the paper's encoding of their positives
// (items; hot-list anchors; record starts), and what is skipped and said.
#include "common/lists/store_training.h"

#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "common/lists/list_finder.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::lists {
namespace {

using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

v1::PageSnapshot Snapshot(const std::string& url, const std::string& html) {
  v1::PageSnapshot s;
  s.set_url(url);
  s.set_html(html);
  return s;
}

// Registers `site` with one multi-valued attribute "items" (record-level
// when `record_level`), one cluster "c", and commits `rule` with
// `snapshots`.
void AddSite(store::RuleStore* store, const std::string& site, bool record_level, v1::Rule rule,
             const std::vector<v1::PageSnapshot>& snapshots) {
  v1::SiteRecord record;
  record.set_site(site);
  record.mutable_schema()->set_vertical("things");
  record.mutable_schema()->set_record_level(record_level);
  v1::AttributeSchema* a = record.mutable_schema()->add_attributes();
  a->set_name("items");
  a->set_multi_valued(!record_level);
  a->set_pivot(record_level);
  a->set_mandatory(record_level);
  if (record_level) {
    v1::AttributeSchema* link = record.mutable_schema()->add_attributes();
    link->set_name("link");
    link->set_type("url");
  }
  ASSERT_TRUE(store->PutSite(record).ok());
  v1::ClusterRecord cluster;
  cluster.set_cluster_id("c");
  cluster.set_importance(1);
  ASSERT_TRUE(store->PutClusters(site, {cluster}).ok());
  rule.set_site(site);
  rule.set_cluster_id("c");
  store::RuleCommit commit;
  commit.rule = rule;
  commit.snapshots = snapshots;
  absl::StatusOr<int64_t> v = store->CommitRule(commit);
  ASSERT_TRUE(v.ok()) << v.status();
}

v1::Rule ItemsRule(const std::string& xpath) {
  v1::Rule rule;
  v1::AttributeRule* a = rule.add_attributes();
  a->set_attribute("items");
  a->set_method(v1::AttributeRule::XPATH);
  a->set_xpath(xpath);
  a->set_multi_valued(true);
  return rule;
}

std::vector<std::string> Paths(const LabelledPage& page) {
  std::vector<std::string> out;
  for (html::Node n : page.positives) out.push_back(AbsoluteXPath(n));
  return out;
}

constexpr char kLinks[] =
    "<html><body><p>intro</p><ul><li><a href='/a'>A</a> one</li><li><a href='/b'>B</a> two</li></ul>"
    "</body></html>";
constexpr char kPlain[] = "<html><body><ul><li>x</li><li>y</li><li>z</li></ul></body></html>";
constexpr char kOne[] = "<html><body><ul><li>only</li></ul></body></html>";

TEST(StoreTrainingTest, LabelsItemsAnchorsAndRecordsAndReportsSkips) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  AddSite(store.get(), "links", false, ItemsRule("//ul/li"),
          {Snapshot("http://l/1", kLinks), Snapshot("http://l/dup", kLinks), Snapshot("http://l/empty", ""),
           Snapshot("http://l/one", kOne)});
  v1::Rule records;
  records.mutable_record()->set_record_xpath("//ul/li");
  records.mutable_record()->set_record_length(1);
  AddSite(store.get(), "recs", true, records, {Snapshot("http://r/1", kPlain)});
  absl::StatusOr<StoreTrainingSet> set = CollectStoreTraining(*store, {});
  ASSERT_TRUE(set.ok()) << set.status();
  const std::string report = absl::StrJoin(set->report, "\n");
  ASSERT_EQ(set->pages.size(), 2u) << report;
  EXPECT_EQ(set->rules, 2u);
  EXPECT_EQ(set->sites, 2u);
  // A hot-list: the items and their anchors.
  EXPECT_THAT(Paths(set->pages[0]),
              UnorderedElementsAre("/html[1]/body[1]/ul[1]/li[1]", "/html[1]/body[1]/ul[1]/li[2]",
                                   "/html[1]/body[1]/ul[1]/li[1]/a[1]", "/html[1]/body[1]/ul[1]/li[2]/a[1]"));
  // Record starts.
  EXPECT_THAT(Paths(set->pages[1]),
              UnorderedElementsAre("/html[1]/body[1]/ul[1]/li[1]", "/html[1]/body[1]/ul[1]/li[2]",
                                   "/html[1]/body[1]/ul[1]/li[3]"));
  EXPECT_THAT(report, HasSubstr("used 2 of 2 rules with a list (2 sites): 2 of 5 snapshot pages, 7 positive"));
  EXPECT_THAT(report, HasSubstr("skipped 1 x duplicated snapshot pages (first: links/c http://l/dup)"));
  EXPECT_THAT(report, HasSubstr("skipped 1 x snapshot pages that do not parse (first: links/c http://l/empty"));
  EXPECT_THAT(report, HasSubstr("lists whose values sit in < 2 elements on a page (first: links/c http://l/one"));
}

TEST(StoreTrainingTest, RecordLinksMakeAHotList) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  v1::Rule records;
  records.mutable_record()->set_record_xpath("//ul/li");
  records.mutable_record()->set_record_length(1);
  v1::AttributeRule* link = records.mutable_record()->add_attributes();
  link->set_attribute("link");
  link->set_method(v1::AttributeRule::XPATH);
  link->set_xpath("a");
  link->set_value_attribute("href");
  AddSite(store.get(), "recs", true, records, {Snapshot("http://r/1", kLinks), Snapshot("http://r/2", kPlain)});
  absl::StatusOr<StoreTrainingSet> set = CollectStoreTraining(*store, {});
  ASSERT_TRUE(set.ok()) << set.status();
  ASSERT_EQ(set->pages.size(), 2u) << absl::StrJoin(set->report, "\n");
  EXPECT_THAT(Paths(set->pages[0]),
              UnorderedElementsAre("/html[1]/body[1]/ul[1]/li[1]", "/html[1]/body[1]/ul[1]/li[2]",
                                   "/html[1]/body[1]/ul[1]/li[1]/a[1]", "/html[1]/body[1]/ul[1]/li[2]/a[1]"));
  // No links: the starts alone.
  EXPECT_EQ(set->pages[1].positives.size(), 3u);
}

TEST(StoreTrainingTest, SitesFilterAndTraining) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  AddSite(store.get(), "links", false, ItemsRule("//ul/li"), {Snapshot("http://l/1", kLinks)});
  AddSite(store.get(), "plain", false, ItemsRule("//li"), {Snapshot("http://p/1", kPlain)});
  StoreTrainingOptions options;
  options.sites = {"plain"};
  options.train.pruning_alpha = 0;
  absl::StatusOr<StoreTrainingResult> r = TrainListModelFromStore(store.get(), options, 7);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->model.version(), 1);
  EXPECT_EQ(r->model.trained_from(), "store: 1 rules of 1 sites, 1 snapshot pages");
  EXPECT_EQ(r->model.training_positives(), 3u);
  options.sites = {"nosuch"};
  EXPECT_TRUE(absl::IsNotFound(TrainListModelFromStore(store.get(), options, 7).status()));
  EXPECT_EQ(store->ListListModelVersions().value().size(), 1u);
}

TEST(StoreTrainingTest, NothingUsableIsAFailedPreconditionWithTheReasons) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  AddSite(store.get(), "one", false, ItemsRule("//li"), {Snapshot("http://o/1", kOne)});
  absl::Status s = TrainListModelFromStore(store.get(), {}, 0).status();
  EXPECT_TRUE(absl::IsFailedPrecondition(s)) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("values sit in < 2 elements"));
}

}  // namespace
}  // namespace vertex::lists
