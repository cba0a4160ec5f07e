// Tests of record-level rules at extraction time (compiled_rule.h,
// ApplyRecords; site_extractor.h, list pages) with RecordRules written by
// hand on hand-made list pages: one child per record, two-element records
// reached with following-sibling, two data areas, a record missing a regular
// attribute, href resolution, multi-valued attributes, an XPath selecting
// nothing, short records, 10,000+ records (cut, and a hostile relative
// XPath stopped by the shared budget); every documented compile error;
// nearest matching's list checks; RecordToJson's one line per record and
// the response round trip.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/extract/record_proto.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/rule_builders.h"

namespace vertex::extract {
namespace {

using test_support::XPathAttributeRule;
using Values = std::vector<std::string>;

// title: mandatory, so regular; price: the pivot, regular; link: a URL;
// beds: mandatory but declared not regular; tags: multi-valued.
constexpr char kSchemaJson[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true},
  {"name": "link", "type": "url"},
  {"name": "beds", "mandatory": true, "regular": false},
  {"name": "tags", "multi_valued": true}]})";

const schema::CompiledSchema& Schema() {
  static const schema::CompiledSchema* schema =
      new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "test schema").value());
  return *schema;
}

constexpr char kUrl[] = "http://list.test/search/flats?page=2";

// One <li> per record.
std::string Item(const std::string& title, const std::string& price, const std::string& href) {
  std::string out = "<li><h3><a href=\"" + href + "\">" + title + "</a></h3>";
  if (!price.empty()) out += "<span class=price>" + price + "</span>";
  return out + "<ul class=tags><li>garden</li><li>parking</li></ul></li>";
}

v1::Rule ListRule(const std::string& record_xpath, int length, const std::vector<v1::AttributeRule>& parts) {
  v1::Rule r;
  r.set_site("list");
  r.set_cluster_id("c1");
  r.set_version(3);
  r.set_url_regex(R"(http://list\.test/search/.*)");
  v1::RecordRule* record = r.mutable_record();
  record->set_record_xpath(record_xpath);
  record->set_record_length(length);
  record->set_source("editor");
  for (const v1::AttributeRule& p : parts) *record->add_attributes() = p;
  return r;
}

v1::AttributeRule Link() {
  v1::AttributeRule a = XPathAttributeRule("link", "h3/a");
  a.set_value_attribute("href");
  return a;
}

// The rule of the <li> pages.
v1::Rule ItemRule() {
  return ListRule("//ul[@class='results']/li", 1,
                  {XPathAttributeRule("title", "h3/a/text()"), XPathAttributeRule("price", "span[@class='price']/text()"),
                   Link(), XPathAttributeRule("tags", "ul[@class='tags']/li/text()", true)});
}

CompiledRule MustCompile(const v1::Rule& rule) {
  absl::StatusOr<CompiledRule> c = CompiledRule::Create(rule, Schema());
  EXPECT_TRUE(c.ok()) << c.status();
  return *std::move(c);
}

ListResult MustApply(const v1::Rule& rule, const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, kUrl);
  EXPECT_TRUE(page.ok()) << page.status();
  absl::StatusOr<ListResult> list = MustCompile(rule).ApplyRecords(*page);
  EXPECT_TRUE(list.ok()) << list.status();
  return list.ok() ? *std::move(list) : ListResult{};
}

const Values& ValuesOf(const ListRecordResult& r, const std::string& name) {
  static const Values kNone = {"(no such attribute)"};
  for (const AttributeResult& a : r.attributes) {
    if (a.attribute == name) return a.values;
  }
  return kNone;
}

TEST(ListRuleTest, OneChildPerRecord) {
  const std::string html = "<html><body><h1>Flats</h1><ul class=results>" + Item("Flat one", "£100", "/f/1") +
                           Item("Flat two", "£250 pcm", "f/2") + Item("Flat three", "£1,200", "http://x.test/3") +
                           "</ul><p>Average price £500</p></body></html>";
  const ListResult list = MustApply(ItemRule(), html);
  ASSERT_EQ(list.records.size(), 3u);
  EXPECT_EQ(list.starts, 3u);
  EXPECT_TRUE(list.notes.empty());
  const Values titles[] = {{"Flat one"}, {"Flat two"}, {"Flat three"}};
  const Values prices[] = {{"£100"}, {"£250"}, {"£1,200"}};
  // Relative hrefs resolved against the page's URL.
  const Values links[] = {{"http://list.test/f/1"}, {"http://list.test/search/f/2"}, {"http://x.test/3"}};
  for (size_t i = 0; i < 3; ++i) {
    const ListRecordResult& r = list.records[i];
    SCOPED_TRACE(i);
    EXPECT_EQ(r.index, i);
    EXPECT_EQ(r.data_area, 0u);
    EXPECT_FALSE(r.short_record);
    ASSERT_EQ(r.attributes.size(), Schema().size());
    EXPECT_EQ(ValuesOf(r, "title"), titles[i]);
    EXPECT_EQ(ValuesOf(r, "price"), prices[i]);
    EXPECT_EQ(ValuesOf(r, "link"), links[i]);
    // Multi-valued: every node of the record, none of the next record's.
    EXPECT_EQ(ValuesOf(r, "tags"), (Values{"garden", "parking"}));
    EXPECT_EQ(ValuesOf(r, "beds"), Values{});
    // beds is mandatory but not regular; title and price are regular.
    EXPECT_TRUE(r.missing_regular.empty()) << r.missing_regular.front();
  }
}

TEST(ListRuleTest, BaseHrefResolvesLinks) {
  const std::string html = "<html><head><base href=\"http://cdn.test/homes/\"></head><body><ul class=results>" +
                           Item("A", "£1", "a.html") + "</ul></body></html>";
  const ListResult list = MustApply(ItemRule(), html);
  ASSERT_EQ(list.records.size(), 1u);
  EXPECT_EQ(ValuesOf(list.records[0], "link"), Values{"http://cdn.test/homes/a.html"});
}

TEST(ListRuleTest, TwoElementRecordsWithFollowingSibling) {
  std::string rows;
  for (int i = 0; i < 4; ++i) {
    rows += absl::StrCat("<dt>House ", i, "</dt><dd><b>", i + 2, " beds</b> <span class=price>£", i + 1,
                         "00</span></dd>");
  }
  v1::AttributeRule beds = XPathAttributeRule("beds", "following-sibling::*[1]/b/text()");
  beds.mutable_range()->set_length(1);
  const v1::Rule rule = ListRule(
      "//dl/dt", 2,
      {XPathAttributeRule("title", "text()"),
       XPathAttributeRule("price", "following-sibling::*[1]/span[@class='price']/text()"), beds});
  const ListResult list = MustApply(rule, "<html><body><dl>" + rows + "</dl></body></html>");
  ASSERT_EQ(list.records.size(), 4u);
  for (size_t i = 0; i < 4; ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(ValuesOf(list.records[i], "title"), Values{absl::StrCat("House ", i)});
    EXPECT_EQ(ValuesOf(list.records[i], "price"), Values{absl::StrCat("£", i + 1, "00")});
    EXPECT_EQ(ValuesOf(list.records[i], "beds"), Values{absl::StrCat(i + 2)});
    EXPECT_FALSE(list.records[i].short_record);
  }
  EXPECT_TRUE(list.notes.empty());
}

TEST(ListRuleTest, RecordRunningPastItsParentIsKeptShortWithANote) {
  // The last <dt> has no <dd>: its tail runs off the <dl>'s children.
  const std::string html =
      "<html><body><dl><dt>A</dt><dd><span class=price>£1</span></dd><dt>B</dt><dd><span class=price>£2</span>"
      "</dd><dt>C</dt></dl></body></html>";
  const v1::Rule rule = ListRule("//dl/dt", 2,
                                 {XPathAttributeRule("title", "text()"),
                                  XPathAttributeRule("price", "following-sibling::*[1][self::dd]/span/text()")});
  const ListResult list = MustApply(rule, html);
  ASSERT_EQ(list.records.size(), 3u);
  EXPECT_FALSE(list.records[1].short_record);
  EXPECT_TRUE(list.records[2].short_record);
  EXPECT_EQ(list.records[2].missing_regular, Values{"price"});
  EXPECT_EQ(list.notes, Values{"1 record runs past their parent's last child (short)"});
}

TEST(ListRuleTest, TwoDataAreasInPageOrder) {
  const std::string html = "<html><body><ul class=results>" + Item("A", "£1", "/a") + Item("B", "£2", "/b") +
                           "</ul><div class=ad>Advert</div><ul class=results>" + Item("C", "£3", "/c") +
                           Item("D", "£4", "/d") + Item("E", "£5", "/e") + "</ul></body></html>";
  const ListResult list = MustApply(ItemRule(), html);
  ASSERT_EQ(list.records.size(), 5u);
  const size_t areas[] = {0, 0, 1, 1, 1};
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(list.records[i].index, i);
    EXPECT_EQ(list.records[i].data_area, areas[i]) << i;
  }
  EXPECT_EQ(ValuesOf(list.records[2], "title"), Values{"C"});
}

TEST(ListRuleTest, RecordMissingARegularAttributeIsPartialThePageStaysOk) {
  const std::string html = "<html><body><ul class=results>" + Item("A", "£1", "/a") + Item("B", "", "/b") +
                           Item("C", "POA", "/c") + "</ul></body></html>";
  const ListResult list = MustApply(ItemRule(), html);
  ASSERT_EQ(list.records.size(), 3u);
  EXPECT_TRUE(list.records[0].missing_regular.empty());
  EXPECT_EQ(list.records[1].missing_regular, Values{"price"});
  // "POA" is not a price: the typed regex finds no value.
  EXPECT_EQ(list.records[2].missing_regular, Values{"price"});

  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(Schema(), {ItemRule()});
  ASSERT_TRUE(e.ok()) << e.status();
  html::Parser parser;
  absl::StatusOr<Record> r = e->Extract(html, kUrl, parser);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_TRUE(r->record_level);
  EXPECT_EQ(r->status, RecordStatus::kOk);
  EXPECT_EQ(r->matched_by, MatchedBy::kSignature);
  EXPECT_TRUE(r->attributes.empty());
  EXPECT_TRUE(r->missing_mandatory.empty());
  ASSERT_EQ(r->list_records.size(), 3u);
}

TEST(ListRuleTest, RecordXPathSelectingNothingGivesAPartialPageWithoutRecords) {
  const std::string html = "<html><body><p>No results for your search.</p></body></html>";
  EXPECT_TRUE(MustApply(ItemRule(), html).records.empty());
  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(Schema(), {ItemRule()});
  ASSERT_TRUE(e.ok()) << e.status();
  html::Parser parser;
  absl::StatusOr<Record> r = e->Extract(html, kUrl, parser);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, RecordStatus::kPartial);
  EXPECT_TRUE(r->record_level);
  // One line, as a page without attributes.
  EXPECT_EQ(RecordToJson(*r, "p.htm", false),
            R"({"file":"p.htm","url":"http://list.test/search/flats?page=2","status":"PARTIAL","cluster":"c1",)"
            R"("rule_version":3,"matched_by":"signature","agreement":0,"attributes":{}})");
}

TEST(ListRuleTest, TextNodesTheRecordXPathSelectsAreNotStarts) {
  const std::string html = "<html><body><ul class=results>" + Item("A", "£1", "/a") + "</ul></body></html>";
  const ListResult list =
      MustApply(ListRule("//ul[@class='results']/li | //h3/a/text()", 1, {XPathAttributeRule("title", "h3/a/text()")}),
                html);
  EXPECT_EQ(list.starts, 1u);
  ASSERT_EQ(list.records.size(), 1u);
}

std::string ManyItems(size_t n) {
  std::string html = "<html><body><ul class=results>";
  for (size_t i = 0; i < n; ++i) html += absl::StrCat("<li><h3><a href=/", i, ">T", i, "</a></h3></li>");
  return html + "</ul></body></html>";
}

TEST(ListRuleTest, MoreThanTenThousandStartsAreCutWithANote) {
  const ListResult list = MustApply(ItemRule(), ManyItems(kMaxListRecords + 50));
  EXPECT_EQ(list.starts, kMaxListRecords + 50);
  ASSERT_EQ(list.records.size(), kMaxListRecords);
  EXPECT_EQ(list.notes, Values{absl::StrCat("record XPath selected ", kMaxListRecords + 50, " starts: cut at ",
                                            kMaxListRecords)});
  EXPECT_EQ(ValuesOf(list.records.back(), "title"), Values{absl::StrCat("T", kMaxListRecords - 1)});
  EXPECT_EQ(ValuesOf(list.records.back(), "link"), Values{absl::StrCat("http://list.test/", kMaxListRecords - 1)});
}

TEST(ListRuleTest, RelativeXPathWalkingThePageFromEveryStartExhaustsTheSharedBudget) {
  // Each record's evaluation alone stays within a page's budget; 10,000 of
  // them would take thousands of times the shared one
  // (kRecordXPathOperationsPerNode per node), so they stop at it.
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(ManyItems(kMaxListRecords), kUrl);
  ASSERT_TRUE(page.ok()) << page.status();
  const CompiledRule rule = MustCompile(ListRule("//ul[@class='results']/li", 1,
                                                 {XPathAttributeRule("title", "preceding::*[last()]")}));
  absl::StatusOr<ListResult> list = rule.ApplyRecords(*page);
  ASSERT_FALSE(list.ok());
  EXPECT_EQ(list.status().code(), absl::StatusCode::kResourceExhausted) << list.status();
  EXPECT_NE(list.status().message().find("shared XPath evaluation budget"), std::string::npos) << list.status();
  // So does an extraction, as an error rather than a hang.
  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(
      Schema(), {ListRule("//ul[@class='results']/li", 1, {XPathAttributeRule("title", "preceding::*[last()]")})});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->Extract(ManyItems(kMaxListRecords), kUrl, parser).status().code(),
            absl::StatusCode::kResourceExhausted);
}

TEST(ListRuleTest, CompileErrorsNameTheProblem) {
  struct Case {
    v1::Rule rule;
    std::string message;
  };
  v1::Rule with_attributes = ItemRule();
  *with_attributes.add_attributes() = XPathAttributeRule("title", "//h1");
  std::vector<Case> cases = {
      {ListRule("", 1, {}), "record_xpath is empty"},
      {ListRule("//li", 0, {}), "record_length 0 is not in [1, 100]"},
      {ListRule("//li", 101, {}), "record_length 101 is not in [1, 100]"},
      {ListRule("//li[", 1, {}), "record_xpath"},
      {ListRule("//li", 1, {XPathAttributeRule("rooms", "b")}), "record attribute \"rooms\" is not in schema"},
      {ListRule("//li", 1, {XPathAttributeRule("title", "b"), XPathAttributeRule("title", "i")}),
       "record attribute \"title\" appears twice"},
      {ListRule("//li", 1, {XPathAttributeRule("title", "b[")}), "record rule attribute \"title\""},
      {with_attributes, "no attributes outside its record (found title)"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<CompiledRule> r = CompiledRule::Create(c.rule, Schema());
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    EXPECT_NE(r.status().message().find(c.message), std::string::npos) << r.status() << " wants " << c.message;
  }
}

TEST(ListRuleTest, DetailApplyOfAListRuleGivesNoValues) {
  html::Parser parser;
  absl::StatusOr<html::Page> page =
      parser.Parse("<html><body><ul class=results>" + Item("A", "£1", "/a") + "</ul></body></html>", kUrl);
  ASSERT_TRUE(page.ok());
  const CompiledRule rule = MustCompile(ItemRule());
  EXPECT_TRUE(rule.record_level());
  absl::StatusOr<std::vector<AttributeResult>> results = rule.Apply(*page);
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), Schema().size());
  for (const AttributeResult& a : *results) EXPECT_TRUE(a.values.empty()) << a.attribute;
  // And a detail rule has no records.
  v1::Rule detail;
  *detail.add_attributes() = XPathAttributeRule("title", "//h3");
  const CompiledRule d = MustCompile(detail);
  EXPECT_FALSE(d.record_level());
  EXPECT_TRUE(d.ApplyRecords(*page)->records.empty());
}

TEST(ListRuleTest, ListMatchFailureSaysWhy) {
  const CompiledRule rule = MustCompile(ItemRule());
  EXPECT_EQ(ListMatchFailure(rule, ListResult{}), "no record");
  const std::string partial = "<html><body><ul class=results>" + Item("A", "", "/a") + Item("B", "", "/b");
  EXPECT_EQ(ListMatchFailure(rule, MustApply(ItemRule(), partial + "</ul>")),
            "every record misses a regular attribute (record 0: price missing)");
  EXPECT_EQ(ListMatchFailure(rule, MustApply(ItemRule(), partial + Item("C", "£3", "/c") + "</ul>")), "");
}

TEST(ListRuleTest, NearestMatchTakesAListPageWithACompleteRecord) {
  const std::string html = "<html><body><ul class=results>" + Item("A", "", "/a") + Item("B", "£2", "/b") +
                           "</ul></body></html>";
  const std::string empty = "<html><body><p>nothing</p></body></html>";
  v1::Rule rule = ItemRule();
  // A signature that covers neither page: all kept bytes 0.
  rule.set_signature("00.00.00.00.00.00.00.00");
  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(Schema(), {rule});
  ASSERT_TRUE(e.ok()) << e.status();
  html::Parser parser;
  absl::StatusOr<Record> r = e->Extract(html, kUrl, parser);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, RecordStatus::kOk);
  EXPECT_EQ(r->matched_by, MatchedBy::kNearest);
  EXPECT_EQ(r->list_records.size(), 2u);
  r = e->Extract(empty, kUrl, parser);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, RecordStatus::kNoShingleMatch);
  EXPECT_EQ(r->nearest_rejected, "no record");
}

google::protobuf::Struct ParseJson(const std::string& line) {
  google::protobuf::Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(line, &s).ok()) << line;
  return s;
}

TEST(ListRuleTest, JsonHasOneLinePerRecordAndSurvivesTheResponse) {
  const std::string html = "<html><body><ul class=results>" + Item("A", "£1", "/a") + "</ul><ul class=results>" +
                           Item("B", "", "/b") + "</ul></body></html>";
  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(Schema(), {ItemRule()});
  ASSERT_TRUE(e.ok()) << e.status();
  html::Parser parser;
  absl::StatusOr<Record> r = e->Extract(html, kUrl, parser);
  ASSERT_TRUE(r.ok()) << r.status();
  const std::string json = RecordToJson(*r, "p.htm", false);
  const size_t newline = json.find('\n');
  ASSERT_NE(newline, std::string::npos) << json;
  EXPECT_EQ(json.find('\n', newline + 1), std::string::npos) << json;
  const google::protobuf::Struct first = ParseJson(json.substr(0, newline));
  const google::protobuf::Struct second = ParseJson(json.substr(newline + 1));
  EXPECT_EQ(first.fields().at("file").string_value(), "p.htm");
  EXPECT_EQ(first.fields().at("url").string_value(), kUrl);
  EXPECT_EQ(first.fields().at("status").string_value(), "OK");
  EXPECT_EQ(second.fields().at("status").string_value(), "PARTIAL");
  EXPECT_EQ(first.fields().at("cluster").string_value(), "c1");
  EXPECT_EQ(first.fields().at("rule_version").number_value(), 3);
  EXPECT_EQ(first.fields().at("record").number_value(), 0);
  EXPECT_EQ(second.fields().at("record").number_value(), 1);
  EXPECT_EQ(first.fields().at("data_area").number_value(), 0);
  EXPECT_EQ(second.fields().at("data_area").number_value(), 1);
  const auto& attributes = second.fields().at("attributes").struct_value().fields();
  EXPECT_EQ(attributes.at("title").list_value().values(0).string_value(), "B");
  EXPECT_EQ(attributes.at("price").list_value().values_size(), 0);
  const std::string with_details = RecordToJson(*r, "", true);
  const google::protobuf::Struct detailed_first = ParseJson(with_details.substr(0, with_details.find('\n')));
  const google::protobuf::Struct detailed_second = ParseJson(with_details.substr(with_details.find('\n') + 1));
  EXPECT_TRUE(detailed_first.fields().contains("notes"));
  EXPECT_FALSE(detailed_second.fields().contains("notes"));
  EXPECT_EQ(detailed_second.fields().at("missing_regular").list_value().values(0).string_value(), "price");
  EXPECT_EQ(detailed_second.fields().at("details").struct_value().fields().at("title").struct_value().fields().at(
                "method").string_value(),
            "xpath");

  v1::ExtractResponse response;
  response.set_id("q1");
  RecordToResponse(*r, "list", true, &response);
  EXPECT_EQ(response.id(), "q1");
  ASSERT_EQ(response.records_size(), 2);
  EXPECT_EQ(response.record().attributes_size(), 0);
  EXPECT_EQ(response.record().status(), v1::ExtractedRecord::OK);
  EXPECT_EQ(response.records(1).index(), 1u);
  EXPECT_EQ(response.records(1).data_area(), 1u);
  EXPECT_EQ(response.records(1).status(), v1::ExtractedRecord::PARTIAL);
  EXPECT_EQ(response.records(1).missing_regular(0), "price");
  EXPECT_EQ(response.records(0).attributes(0).method(), "xpath");
  for (bool details : {false, true}) {
    EXPECT_EQ(RecordToJson(RecordFromResponse(response), "p.htm", details), RecordToJson(*r, "p.htm", details));
  }
}

}  // namespace
}  // namespace vertex::extract
