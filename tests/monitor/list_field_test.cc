// Tests of the field test of record-level rules (rule_checks.h): the golden
// extraction of a list page (record count, every record's value per
// attribute), the record-count test against (1 - delta) x golden, the
// regular-attribute test (more than half of the records), the messages in
// words, and CheckPage on hand-made list pages.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/monitor/monitor_engine.h"
#include "common/monitor/rule_checks.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/rule_builders.h"

namespace vertex::monitor {
namespace {

using Values = std::vector<std::string>;

// price: regular (the pivot); title: mandatory, so regular; beds: optional.
constexpr char kSchemaJson[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true},
  {"name": "beds", "mandatory": true, "regular": false}]})";

const schema::CompiledSchema& Schema() {
  static const schema::CompiledSchema* schema =
      new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "test schema").value());
  return *schema;
}

// `with_price` of `n` records have a price; every one a title, none beds.
std::string ListPage(int n, int with_price) {
  std::string html = "<html><body><ul class=results>";
  for (int i = 0; i < n; ++i) {
    html += absl::StrCat("<li><h3>Flat ", i, "</h3>", i < with_price ? absl::StrCat("<b>£", i + 1, "00</b>") : "",
                         "</li>");
  }
  return html + "</ul></body></html>";
}

v1::Rule ListRule() {
  v1::Rule r;
  r.set_cluster_id("c1");
  r.mutable_record()->set_record_xpath("//ul[@class='results']/li");
  r.mutable_record()->set_record_length(1);
  *r.mutable_record()->add_attributes() = test_support::XPathAttributeRule("title", "h3/text()");
  *r.mutable_record()->add_attributes() = test_support::XPathAttributeRule("price", "b/text()");
  return r;
}

extract::CompiledRule Compiled() {
  absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(ListRule(), Schema());
  EXPECT_TRUE(rule.ok()) << rule.status();
  return *std::move(rule);
}

std::vector<extract::ListRecordResult> Records(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://list.test/s");
  EXPECT_TRUE(page.ok()) << page.status();
  absl::StatusOr<extract::ListResult> list = Compiled().ApplyRecords(*page);
  EXPECT_TRUE(list.ok()) << list.status();
  return list->records;
}

TEST(ListFieldTest, GoldenHoldsTheCountAndEveryRecordsValue) {
  const v1::GoldenExtraction golden = GoldenOfRecords("http://list.test/s", Records(ListPage(3, 2)), Schema());
  EXPECT_EQ(golden.url(), "http://list.test/s");
  EXPECT_EQ(golden.record_count(), 3u);
  ASSERT_EQ(golden.attributes_size(), 3);
  EXPECT_EQ(golden.attributes(0).attribute(), "title");
  EXPECT_EQ(Values(golden.attributes(0).values().begin(), golden.attributes(0).values().end()),
            (Values{"Flat 0", "Flat 1", "Flat 2"}));
  EXPECT_EQ(Values(golden.attributes(1).values().begin(), golden.attributes(1).values().end()),
            (Values{"£100", "£200", ""}));
  EXPECT_EQ(Values(golden.attributes(2).values().begin(), golden.attributes(2).values().end()),
            (Values{"", "", ""}));
}

TEST(ListFieldTest, Table) {
  struct Case {
    int golden_count;  // -1: no golden
    int records, with_price;
    double delta;
    Values failures;
  };
  const Case cases[] = {
      {20, 20, 20, 0.2, {}},
      // 16 = (1 - 0.2) x 20 passes, 15 fails.
      {20, 16, 16, 0.2, {}},
      {20, 15, 15, 0.2, {"15 records, golden 20"}},
      {20, 12, 12, 0.5, {}},
      {20, 12, 3, 0.2, {"12 records, golden 20", "price in 3 of 12 records"}},
      // More than half: 7 of 12 passes, 6 of 12 fails (beds, not regular, is never checked).
      {-1, 12, 7, 0.2, {}},
      {-1, 12, 6, 0.2, {"price in 6 of 12 records"}},
      {-1, 1, 0, 0.2, {"price in 0 of 1 record"}},
      {-1, 0, 0, 0.2, {"no record"}},
      {20, 0, 0, 0.2, {"no record", "0 records, golden 20"}},
      {2, 1, 1, 0.2, {"1 record, golden 2"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat("golden ", c.golden_count, ", ", c.records, " records, ", c.with_price, " priced"));
    v1::GoldenExtraction golden;
    golden.set_record_count(static_cast<uint32_t>(std::max(c.golden_count, 0)));
    const auto records = Records(ListPage(c.records, c.with_price));
    ASSERT_EQ(records.size(), static_cast<size_t>(c.records));
    EXPECT_EQ(ListFieldTest(Schema(), records, c.golden_count < 0 ? nullptr : &golden, {.delta = c.delta}),
              c.failures);
  }
}

TEST(ListFieldTest, CheckPageFillsRecordFailures) {
  const extract::CompiledRule rule = Compiled();
  html::Parser parser;
  const v1::GoldenExtraction golden = GoldenOfRecords("http://list.test/s", Records(ListPage(20, 20)), Schema());
  v1::PageCheck good;
  ASSERT_TRUE(CheckPage(rule, ListPage(19, 18), "http://list.test/s", &golden, parser, &good).ok());
  EXPECT_EQ(good.record_failures_size(), 0);
  EXPECT_TRUE(good.has_golden());
  EXPECT_FALSE(FailsFieldTest(good));

  v1::PageCheck bad;
  ASSERT_TRUE(CheckPage(rule, ListPage(12, 3), "http://list.test/s", &golden, parser, &bad).ok());
  EXPECT_EQ(Values(bad.record_failures().begin(), bad.record_failures().end()),
            (Values{"12 records, golden 20", "price in 3 of 12 records"}));
  // Detail-rule checks do not apply: beds is mandatory but no record has it.
  EXPECT_EQ(bad.missing_mandatory_size(), 0);
  EXPECT_TRUE(FailsFieldTest(bad));
}

// A store with the list rule, its golden extraction of a 20-record page as
// the bellwether's.
std::unique_ptr<store::RuleStore> StoreWithListRule(const std::string& url) {
  std::unique_ptr<store::RuleStore> store = store::NewInMemoryStore();
  v1::SiteRecord site;
  site.set_site("homes");
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(kSchemaJson, site.mutable_schema()).ok());
  EXPECT_TRUE(store->PutSite(site).ok());
  v1::ClusterRecord cluster;
  cluster.set_cluster_id("c1");
  cluster.set_url_regex(R"(http://list\.test/.*)");
  EXPECT_TRUE(store->PutClusters("homes", {cluster}).ok());
  store::RuleCommit commit;
  commit.rule = ListRule();
  commit.rule.set_site("homes");
  commit.golden.push_back(GoldenOfRecords(url, Records(ListPage(20, 20)), Schema()));
  commit.bellwether_urls = std::vector<std::string>{url};
  EXPECT_TRUE(store->CommitRule(commit).ok());
  return store;
}

v1::MonitorResponse MonitorOne(const store::RuleStore& store, const std::string& url, const std::string& html,
                               double delta) {
  MonitorEngineOptions options;
  options.list.delta = delta;
  MonitorEngine engine(&store, options);
  v1::MonitorRequest request;
  request.set_site("homes");
  request.set_dry_run(true);
  v1::Page* page = request.add_pages();
  page->set_url(url);
  page->set_html(html);
  absl::StatusOr<v1::MonitorResponse> response = engine.Monitor(request);
  EXPECT_TRUE(response.ok()) << response.status();
  return response.value_or(v1::MonitorResponse());
}

TEST(ListFieldTest, MonitorJudgesAListClusterByItsRecords) {
  const std::string url = "http://list.test/s";
  const std::unique_ptr<store::RuleStore> store = StoreWithListRule(url);
  const v1::MonitorResponse good = MonitorOne(*store, url, ListPage(18, 15), 0.2);
  ASSERT_EQ(good.clusters_size(), 1);
  EXPECT_EQ(good.clusters(0).verdict(), v1::ClusterVerdict::OK) << good.clusters(0).reason();

  const v1::MonitorResponse bad = MonitorOne(*store, url, ListPage(12, 3), 0.2);
  ASSERT_EQ(bad.clusters_size(), 1);
  const v1::ClusterVerdict& v = bad.clusters(0);
  EXPECT_EQ(v.verdict(), v1::ClusterVerdict::BROKEN) << v.reason();
  EXPECT_NE(v.reason().find("1 with too few records or a regular attribute in too few"), std::string::npos)
      << v.reason();
  ASSERT_EQ(v.evidence_size(), 1);
  EXPECT_EQ(v.evidence(0), url + ": 12 records, golden 20; price in 3 of 12 records");
  ASSERT_EQ(v.checks_size(), 1);
  EXPECT_EQ(v.checks(0).routed_by(), "bellwether");

  // delta is an option: 12 of 20 passes the count at 0.5 (the price still fails).
  const v1::MonitorResponse lenient = MonitorOne(*store, url, ListPage(12, 3), 0.5);
  ASSERT_EQ(lenient.clusters_size(), 1);
  EXPECT_EQ(lenient.clusters(0).evidence(0), url + ": price in 3 of 12 records");
}

}  // namespace
}  // namespace vertex::monitor
