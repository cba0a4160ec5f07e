// feed_check.h: which annotated pages a cluster is learnt from, and how a
// rule's values are judged against the feed, on hand-made feed items.
#include "common/workflow/feed_check.h"

#include "common/demo/blog_site.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::workflow {
namespace {

using ::testing::HasSubstr;

TEST(FeedLearnCount, LeavesOnePageToCheck) {
  EXPECT_EQ(FeedLearnCount(0, 3), 0u);
  EXPECT_EQ(FeedLearnCount(1, 3), 1u);  // nothing left to check: the caller says so
  EXPECT_EQ(FeedLearnCount(2, 3), 1u);
  EXPECT_EQ(FeedLearnCount(4, 3), 3u);
  EXPECT_EQ(FeedLearnCount(15, 0), 3u);  // 0: the default, 3
  EXPECT_EQ(FeedLearnCount(15, 5), 5u);
  EXPECT_EQ(FeedLearnCount(3, 5), 2u);
}

FeedAnnotatedPage PageWith(uint32_t index, int annotations) {
  FeedAnnotatedPage p;
  p.index = index;
  p.url = "http://b.test/" + std::to_string(index);
  for (int i = 0; i < annotations; ++i) p.annotations.emplace_back().set_attribute("a" + std::to_string(i));
  return p;
}

TEST(FeedLearnOrder, AnnotationOrderFirstThenMostAnnotated) {
  const std::vector<FeedAnnotatedPage> pages = {PageWith(5, 2), PageWith(7, 4), PageWith(9, 3), PageWith(3, 4)};
  // Algorithm 2 picked 9, then 1 (not annotated), then 5.
  EXPECT_THAT(FeedLearnOrder(pages, {9, 1, 5}), ::testing::ElementsAre(2, 0, 3, 1));
  // No annotation order: by annotations, ties by sample index.
  EXPECT_THAT(FeedLearnOrder(pages, {}), ::testing::ElementsAre(3, 1, 2, 0));
}

feed::FeedItem Item(const std::string& title, const std::string& link) {
  feed::FeedItem item;
  item.title = title;
  item.link = link;
  return item;
}

v1::Annotation Values(const std::string& attribute, std::vector<std::string> values, bool partial = false) {
  v1::Annotation a;
  a.set_attribute(attribute);
  for (const std::string& v : values) a.add_values(v);
  a.set_partial(partial);
  return a;
}

TEST(FeedValueMismatch, EntryPageOneValueOfItsItem) {
  const feed::FeedItem item = Item("Hello World", "http://b.test/2024/hello-world");
  FeedAnnotatedPage page;
  page.url = item.link;
  page.items = {&item};
  const v1::Annotation title = Values("title", {"Hello World"});
  EXPECT_EQ(FeedValueMismatch("title", {"Hello World"}, title, page), "");
  EXPECT_THAT(FeedValueMismatch("title", {"Recent posts"}, title, page),
              HasSubstr("http://b.test/2024/hello-world: rule gives \"Recent posts\", the feed \"Hello World\""));
  EXPECT_THAT(FeedValueMismatch("title", {}, title, page), HasSubstr("rule gives 0 values, the feed 1"));
  // A sidebar title extracted too.
  EXPECT_THAT(FeedValueMismatch("title", {"Hello World", "Hello World"}, title, page),
              HasSubstr("rule gives 2 values, the feed 1"));
}

TEST(FeedValueMismatch, ListPageItemsInPageOrder) {
  const feed::FeedItem a = Item("First post", "http://b.test/first");
  const feed::FeedItem b = Item("Second post", "http://b.test/second");
  FeedAnnotatedPage page;
  page.url = "http://b.test/";
  page.list = true;
  page.items = {&a, &b};
  const v1::Annotation titles = Values("title", {"First post", "Second post"});
  EXPECT_EQ(ExpectedFeedItems("title", titles, page), (std::vector<const feed::FeedItem*>{&a, &b}));
  EXPECT_EQ(FeedValueMismatch("title", {"First post", "Second post"}, titles, page), "");
  EXPECT_THAT(FeedValueMismatch("title", {"Second post", "First post"}, titles, page),
              HasSubstr("rule gives \"Second post\", the feed \"First post\""));
  // A third entry the feed does not carry: only a partial annotation allows it.
  EXPECT_THAT(FeedValueMismatch("title", {"First post", "Second post", "Older"}, titles, page),
              HasSubstr("rule gives 3 values, the feed 2"));
  const v1::Annotation partial = Values("title", {"First post", "Second post"}, true);
  EXPECT_EQ(FeedValueMismatch("title", {"First post", "Second post", "Older"}, partial, page), "");
}

TEST(ExpectedFeedItems, AnXPathAnnotationStandsForTheItemsFound) {
  const feed::FeedItem a = Item("A", "http://b.test/a");
  const feed::FeedItem b = Item("B", "http://b.test/b");
  FeedAnnotatedPage page;
  page.url = "http://b.test/";
  page.items = {&a, &b};
  page.found["body"] = {1};
  v1::Annotation body;
  body.set_attribute("body");
  body.set_xpath("//div[@class='entry']");
  EXPECT_EQ(ExpectedFeedItems("body", body, page), (std::vector<const feed::FeedItem*>{&b}));
}

// The judge on parsed pages: a rule on the post's title reproduces the
// feed; one on the sidebar's "Recent posts" does not, and the page is named
// as failed.
TEST(CheckRuleOnFeedPages, CountsPerAttributeAndNamesTheFailedPages) {
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::BlogSchemaJson(), "blog").value();
  const feed::FeedItem item = Item("Hello World", "http://b.test/hello");
  html::Parser parser(html::ParseOptions{});
  const html::Page page =
      parser.Parse("<html><body><main><h1>Hello World</h1><p>text</p></main>"
                   "<aside><ul><li>Hello World</li><li>Older post</li></ul></aside></body></html>",
                   item.link)
          .value();
  FeedAnnotatedPage annotated;
  annotated.url = item.link;
  annotated.items = {&item};
  annotated.annotations = {Values("title", {"Hello World"})};
  annotated.annotations[0].set_url(item.link);
  const auto rule_on = [&](const std::string& xpath) {
    v1::Rule rule;
    v1::AttributeRule* a = rule.add_attributes();
    a->set_attribute("title");
    a->set_method(v1::AttributeRule::XPATH);
    a->set_xpath(xpath);
    a->set_multi_valued(true);
    return extract::CompiledRule::Create(rule, schema).value();
  };
  const std::map<std::string, std::string> fields = {{"title", "title"}};
  absl::StatusOr<FeedCheckResult> good = CheckRuleOnFeedPages(rule_on("//h1"), {&page}, {&annotated}, fields);
  ASSERT_TRUE(good.ok()) << good.status();
  ASSERT_EQ(good->checks.size(), 1u);
  EXPECT_EQ(good->checks[0].pages(), 1u);
  EXPECT_EQ(good->checks[0].reproduced(), 1u);
  EXPECT_TRUE(good->failed.empty());
  absl::StatusOr<FeedCheckResult> bad = CheckRuleOnFeedPages(rule_on("//aside//li"), {&page}, {&annotated}, fields);
  ASSERT_TRUE(bad.ok()) << bad.status();
  ASSERT_EQ(bad->checks.size(), 1u);
  EXPECT_EQ(bad->checks[0].reproduced(), 0u);
  EXPECT_THAT(bad->checks[0].mismatches(), ::testing::ElementsAre(HasSubstr("rule gives 2 values, the feed 1")));
  EXPECT_THAT(bad->failed, ::testing::ElementsAre(0u));
  // An attribute the rule has no part for is not checked.
  annotated.annotations.push_back(Values("date", {"July 22, 2005"}));
  annotated.annotations.back().set_url(item.link);
  absl::StatusOr<FeedCheckResult> partial = CheckRuleOnFeedPages(rule_on("//h1"), {&page}, {&annotated},
                                                                 {{"title", "title"}, {"date", "date"}});
  ASSERT_TRUE(partial.ok()) << partial.status();
  EXPECT_EQ(partial->checks.size(), 1u);
}

}  // namespace
}  // namespace vertex::workflow
