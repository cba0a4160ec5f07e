// Record-level rules learnt from an editor's records (TypingFromRecords +
// LearnRecordRule): the rule's record XPath and relative attribute XPaths,
// evaluated with libxml2, must give every record of pages it was not learnt
// from.
#include "common/learn/record_learner.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

schema::CompiledSchema ListingSchema() {
  absl::StatusOr<schema::CompiledSchema> s = schema::CompiledSchema::FromJson(
      R"({"vertical":"listing","record_level":true,"attributes":[
          {"name":"title","mandatory":true},
          {"name":"price","type":"price","mandatory":true,"pivot":true},
          {"name":"town"},
          {"name":"link","type":"url"}]})",
      "test");
  EXPECT_TRUE(s.ok()) << s.status();
  return *s;
}

// A result page: a menu of towns, `n` records (one <li> each, the town
// missing from every third), an ad <li> after the second record.
std::string ListPage(int n, int seed) {
  std::string html = "<html><body><ul class=menu><li><a href=/t/oxford>Oxford</a></li>"
                     "<li><a href=/t/leeds>Leeds</a></li></ul><ul class=results>";
  for (int i = 0; i < n; ++i) {
    const int id = seed * 100 + i;
    absl::StrAppend(&html, "<li class=result><h3><a href=\"/item/", id, "\">Item number ", id, "</a></h3>",
                    "<div class=info><span class=price>&pound;", 1000 + id * 7, "</span>");
    if (i % 3 != 2) absl::StrAppend(&html, "<span class=town>Town", id % 17, "</span>");
    absl::StrAppend(&html, "</div></li>");
    if (i == 1) absl::StrAppend(&html, "<li class=ad>Advert: call 0800 123 456</li>");
  }
  absl::StrAppend(&html, "</ul><p>Average price &pound;9,999</p></body></html>");
  return html;
}

html::Page Parse(const std::string& html, int seed) {
  html::Parser parser;
  absl::StatusOr<html::Page> p = parser.Parse(html, absl::StrCat("http://x.test/search?page=", seed));
  EXPECT_TRUE(p.ok()) << p.status();
  return *std::move(p);
}

// Every record's values under the rule: title, price node text, town, link
// (@href as written).
std::vector<std::vector<std::string>> Apply(const v1::RecordRule& rule, const html::Page& page) {
  std::vector<std::vector<std::string>> out;
  absl::StatusOr<html::XPath> records = html::XPath::Compile(rule.record_xpath());
  EXPECT_TRUE(records.ok()) << records.status();
  absl::StatusOr<std::vector<html::Node>> starts = records->Select(page);
  EXPECT_TRUE(starts.ok());
  for (html::Node start : *starts) {
    std::vector<std::string> values;
    for (const v1::AttributeRule& a : rule.attributes()) {
      absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath());
      EXPECT_TRUE(x.ok()) << a.xpath() << ": " << x.status();
      absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page, start);
      EXPECT_TRUE(nodes.ok());
      if (nodes->empty()) {
        values.push_back("");
      } else if (!a.value_attribute().empty()) {
        values.push_back((*nodes)[0].attribute(a.value_attribute()));
      } else {
        values.push_back((*nodes)[0].Text());
      }
    }
    out.push_back(std::move(values));
  }
  return out;
}

TEST(RecordLearnerTest, TwoEditorRecordsGiveARuleForEveryRecordOfOtherPages) {
  const schema::CompiledSchema schema = ListingSchema();
  html::Page annotated = Parse(ListPage(6, 1), 1);
  std::vector<RecordValues> records = {
      {{0, "Item number 100"}, {1, "£1,700"}, {2, "Town15"}, {3, "/item/100"}},
      {{0, "Item number 101"}, {1, "£1,707"}, {2, "Town16"}, {3, "http://x.test/item/101"}},
  };
  // Prices are written without a thousands separator on the page.
  records[0][1] = "£1700";
  records[1][1] = "£1707";
  absl::StatusOr<amber::Typing> typing = TypingFromRecords(annotated, schema, records);
  ASSERT_TRUE(typing.ok()) << typing.status();
  ASSERT_EQ(typing->areas.size(), 1u);
  EXPECT_EQ(typing->areas[0].root.attribute("class"), "results");
  EXPECT_EQ(typing->areas[0].record_length, 1);
  EXPECT_EQ(typing->areas[0].records.size(), 6u);  // the ad is not a record

  html::Page other1 = Parse(ListPage(9, 2), 2);
  html::Page other2 = Parse(ListPage(4, 3), 3);
  absl::StatusOr<RecordLearnResult> learnt =
      LearnRecordRule(schema, {{&annotated, &*typing}, {&other1, nullptr}, {&other2, nullptr}}, "editor");
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  EXPECT_EQ(learnt->rule.source(), "editor");
  EXPECT_EQ(learnt->precision, 1.0);
  ASSERT_EQ(learnt->rule.attributes_size(), 4);
  const std::vector<std::vector<std::string>> got = Apply(learnt->rule, other1);
  ASSERT_EQ(got.size(), 9u);
  for (int i = 0; i < 9; ++i) {
    const int id = 200 + i;
    EXPECT_EQ(got[i][0], absl::StrCat("Item number ", id));
    EXPECT_EQ(got[i][1], absl::StrCat("£", 1000 + id * 7));
    EXPECT_EQ(got[i][2], i % 3 == 2 ? "" : absl::StrCat("Town", id % 17)) << i;
    EXPECT_EQ(got[i][3], absl::StrCat("/item/", id));
  }
  EXPECT_EQ(Apply(learnt->rule, other2).size(), 4u);
}

TEST(RecordLearnerTest, OneRecordFindsTheRepeatingAncestor) {
  const schema::CompiledSchema schema = ListingSchema();
  html::Page page = Parse(ListPage(5, 4), 4);
  absl::StatusOr<amber::Typing> typing = TypingFromRecords(page, schema, {{{0, "Item number 402"}, {1, "£3814"}}});
  ASSERT_TRUE(typing.ok()) << typing.status();
  ASSERT_EQ(typing->areas.size(), 1u);
  EXPECT_EQ(typing->areas[0].root.attribute("class"), "results");
  EXPECT_EQ(typing->areas[0].records.size(), 5u);
}

TEST(RecordLearnerTest, MultiSiblingRecordsReachTheirTailWithFollowingSibling) {
  const schema::CompiledSchema schema = ListingSchema();
  std::string html = "<html><body><dl>";
  for (int i = 0; i < 5; ++i) {
    absl::StrAppend(&html, "<dt>Name ", i, "</dt><dd><b>&pound;", 100 + i, "</b> <i>Place", i, "</i></dd>");
  }
  absl::StrAppend(&html, "</dl></body></html>");
  html::Page page = Parse(html, 5);
  absl::StatusOr<amber::Typing> typing =
      TypingFromRecords(page, schema, {{{0, "Name 0"}, {1, "£100"}, {2, "Place0"}}, {{0, "Name 1"}, {1, "£101"}}});
  ASSERT_TRUE(typing.ok()) << typing.status();
  EXPECT_EQ(typing->areas[0].record_length, 2);
  ASSERT_EQ(typing->areas[0].records.size(), 5u);
  const amber::AttributeMatch& price = typing->areas[0].records[0].attributes[1];
  EXPECT_EQ(price.tag_path, "self::dt/following-sibling::*[1][self::dd]/*[1][self::b]");
  absl::StatusOr<RecordLearnResult> learnt = LearnRecordRule(schema, {{&page, &*typing}}, "editor");
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  const auto got = Apply(learnt->rule, page);
  ASSERT_EQ(got.size(), 5u);
  EXPECT_EQ(got[4][1], "£104");
  EXPECT_EQ(got[4][2], "Place4");
}

TEST(RecordLearnerTest, BadRecordsAreRefusedWithTheirReason) {
  const schema::CompiledSchema schema = ListingSchema();
  html::Page page = Parse(ListPage(3, 6), 6);
  absl::StatusOr<amber::Typing> missing = TypingFromRecords(page, schema, {{{0, "No such title"}}});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("No such title"), std::string::npos);
  // Record 2 before record 1 in the page.
  absl::StatusOr<amber::Typing> order =
      TypingFromRecords(page, schema, {{{0, "Item number 601"}}, {{0, "Item number 600"}}});
  EXPECT_EQ(order.status().code(), absl::StatusCode::kNotFound);
  absl::StatusOr<amber::Typing> empty = TypingFromRecords(page, schema, {{}});
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kInvalidArgument);
  // No typing at all.
  absl::StatusOr<RecordLearnResult> none = LearnRecordRule(schema, {{&page, nullptr}}, "amber");
  EXPECT_EQ(none.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(RecordLearnerTest, RelativeTagPathIsEmptyForNodesBeforeTheStart) {
  html::Page page = Parse("<html><body><ul><li>a</li><li><b>x</b></li></ul></body></html>", 7);
  html::Node ul = page.root().last_child().first_child();
  html::Node li1 = ul.first_child(), li2 = li1.next_sibling();
  EXPECT_EQ(RelativeTagPath(li1, li2.first_child()), "self::li/following-sibling::*[1][self::li]/*[1][self::b]");
  EXPECT_EQ(RelativeTagPath(li2, li1), "");
}

}  // namespace
}  // namespace vertex::learn
