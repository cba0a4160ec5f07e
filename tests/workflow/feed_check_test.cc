// feed_check.h: which annotated pages a cluster is learnt from, and how a
// rule's values are judged against the feed, on hand-made feed items.
#include "common/workflow/feed_check.h"

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

}  // namespace
}  // namespace vertex::workflow
