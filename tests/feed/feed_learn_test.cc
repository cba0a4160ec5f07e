// The matcher's annotations through the learner (learn::LearnRule, what
// the Learn RPC calls): rules learnt from the annotations of two or three
// hand-made pages, with no editor, must extract the right values on pages
// they were not learnt from — including pages whose sidebar repeats every
// title (the scope XPaths make the learner take the matcher's occurrence)
// and a table layout whose sidebar comes before the content.
#include <map>
#include <string>
#include <vector>

#include "common/extract/compiled_rule.h"
#include "common/feed/feed_matcher.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "gtest/gtest.h"
#include "tests/feed/blog_fixture.h"

namespace vertex::feed {
namespace {

using testing_blog::Blog;

constexpr char kBlogSchema[] = R"({"vertical": "blog", "attributes": [
  {"name": "title", "mandatory": true, "multi_valued": true},
  {"name": "link", "type": "url", "multi_valued": true},
  {"name": "date", "multi_valued": true},
  {"name": "author", "multi_valued": true},
  {"name": "body", "mandatory": true, "multi_valued": true},
  {"name": "categories", "multi_valued": true}]})";

// The matcher's annotations of `learn_pages` as LearnRule's input.
learn::RuleLearnInput ToLearnInput(const FeedMatchResult& r, const std::vector<const html::Page*>& pages) {
  learn::RuleLearnInput in;
  in.pages = pages;
  for (const PageAnnotations& p : r.pages) {
    size_t index = pages.size();
    for (size_t i = 0; i < pages.size(); ++i) {
      if (pages[i]->url() == p.url) index = i;
    }
    EXPECT_LT(index, pages.size()) << p.url;
    for (const v1::Annotation& a : p.annotations) {
      learn::AttributeAnnotation aa;
      aa.page = index;
      aa.attribute = a.attribute();
      aa.values.assign(a.values().begin(), a.values().end());
      aa.xpath = a.xpath();
      aa.partial = a.partial();
      in.annotations.push_back(std::move(aa));
    }
  }
  return in;
}

std::map<std::string, std::vector<std::string>> Extract(const extract::CompiledRule& rule, const html::Page& page) {
  std::map<std::string, std::vector<std::string>> out;
  absl::StatusOr<std::vector<extract::AttributeResult>> results = rule.Apply(page);
  EXPECT_TRUE(results.ok()) << results.status();
  if (!results.ok()) return out;
  for (const extract::AttributeResult& a : *results) out[a.attribute] = a.values;
  return out;
}

// Learns from the entry pages of posts 0..n_learn-1 and checks every field
// on the entry pages of the others.
void LearnEntriesAndCheck(testing_blog::Template t, int n_learn, int n_posts) {
  SCOPED_TRACE(testing_blog::Name(t));
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kBlogSchema, "blog").value();
  Blog blog = testing_blog::MakeBlog(n_posts);
  std::vector<html::Page> pages;
  for (int i = 0; i < n_posts; ++i) pages.push_back(blog.EntryPage(i, t));
  std::vector<const html::Page*> learn_pages;
  for (int i = 0; i < n_learn; ++i) learn_pages.push_back(&pages[i]);
  const FeedMatchResult r = MatchFeed(blog.feed, learn_pages);
  absl::StatusOr<learn::RuleLearnResult> learnt = learn::LearnRule(schema, ToLearnInput(r, learn_pages));
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  for (const learn::AttributeDiagnostic& d : learnt->diagnostics) {
    EXPECT_TRUE(d.learnt) << d.attribute << ": " << d.message;
  }
  absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(learnt->rule, schema);
  ASSERT_TRUE(rule.ok()) << rule.status();
  for (int i = n_learn; i < n_posts; ++i) {
    const auto got = Extract(*rule, pages[i]);
    const testing_blog::Post& post = blog.posts[i];
    EXPECT_EQ(got.at("title"), std::vector<std::string>{post.title}) << pages[i].url();
    EXPECT_EQ(got.at("link"), std::vector<std::string>{post.link}) << pages[i].url();
    EXPECT_EQ(got.at("author"), std::vector<std::string>{post.author}) << pages[i].url();
    EXPECT_EQ(got.at("categories"), std::vector<std::string>{post.category}) << pages[i].url();
    ASSERT_EQ(got.at("date").size(), 1u) << pages[i].url();
    EXPECT_EQ(got.at("date")[0], post.date_text);
    ASSERT_EQ(got.at("body").size(), 1u) << pages[i].url();
    EXPECT_TRUE(ValueMatchesFeed("body", got.at("body")[0], blog.feed.items[i], pages[i].url())) << got.at("body")[0];
  }
}

TEST(FeedLearn, EntryPagesWordPressSidebarRepeatsEveryTitle) { LearnEntriesAndCheck(testing_blog::kWordPress, 2, 5); }
TEST(FeedLearn, EntryPagesBlogger) { LearnEntriesAndCheck(testing_blog::kBlogger, 2, 5); }
TEST(FeedLearn, EntryPagesMovableType) { LearnEntriesAndCheck(testing_blog::kMovableType, 2, 5); }
TEST(FeedLearn, EntryPagesTableLayoutSidebarFirst) { LearnEntriesAndCheck(testing_blog::kTable, 3, 5); }

// List pages: titles, links and dates learnt as multi-valued attributes from
// two list pages, extracted in page order on a third.
TEST(FeedLearn, ListPagesTitlesInPageOrder) {
  for (testing_blog::Template t : {testing_blog::kWordPress, testing_blog::kTable, testing_blog::kMovableType}) {
    SCOPED_TRACE(testing_blog::Name(t));
    const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kBlogSchema, "blog").value();
    Blog blog = testing_blog::MakeBlog(8);
    std::vector<html::Page> pages;
    pages.push_back(blog.ListPage("http://blog.example/", {0, 1, 2}, t));
    pages.push_back(blog.ListPage("http://blog.example/page/2/", {3, 4, 5}, t));
    pages.push_back(blog.ListPage("http://blog.example/page/3/", {6, 7}, t));
    const std::vector<const html::Page*> learn_pages = {&pages[0], &pages[1]};
    const FeedMatchResult r = MatchFeed(blog.feed, learn_pages);
    ASSERT_EQ(r.pages.size(), 2u);
    absl::StatusOr<learn::RuleLearnResult> learnt = learn::LearnRule(schema, ToLearnInput(r, learn_pages));
    ASSERT_TRUE(learnt.ok()) << learnt.status();
    absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(learnt->rule, schema);
    ASSERT_TRUE(rule.ok()) << rule.status();
    const auto got = Extract(*rule, pages[2]);
    EXPECT_EQ(got.at("title"), (std::vector<std::string>{blog.posts[6].title, blog.posts[7].title}));
    EXPECT_EQ(got.at("link"), (std::vector<std::string>{blog.posts[6].link, blog.posts[7].link}));
    EXPECT_EQ(got.at("date"), (std::vector<std::string>{blog.posts[6].date_text, blog.posts[7].date_text}));
    EXPECT_EQ(got.at("body").size(), 2u);
  }
}

// Blogger list pages with shared date headers: the date attribute is the
// headers, each once, learnt from two pages and extracted on a third whose
// two entries share one header.
TEST(FeedLearn, ListPagesBloggerSharedDateHeaders) {
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kBlogSchema, "blog").value();
  Blog blog = testing_blog::MakeBlog(8);
  blog.SameDay(0, 1);
  blog.SameDay(6, 7);
  std::vector<html::Page> pages;
  pages.push_back(blog.ListPage("http://blog.example/", {0, 1, 2}, testing_blog::kBlogger));
  pages.push_back(blog.ListPage("http://blog.example/page/2/", {3, 4, 5}, testing_blog::kBlogger));
  pages.push_back(blog.ListPage("http://blog.example/page/3/", {6, 7}, testing_blog::kBlogger));
  const std::vector<const html::Page*> learn_pages = {&pages[0], &pages[1]};
  const FeedMatchResult r = MatchFeed(blog.feed, learn_pages);
  absl::StatusOr<learn::RuleLearnResult> learnt = learn::LearnRule(schema, ToLearnInput(r, learn_pages));
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(learnt->rule, schema);
  ASSERT_TRUE(rule.ok()) << rule.status();
  const auto got = Extract(*rule, pages[2]);
  EXPECT_EQ(got.at("date"), std::vector<std::string>{blog.posts[6].date_text});
  EXPECT_EQ(got.at("title"), (std::vector<std::string>{blog.posts[6].title, blog.posts[7].title}));
  EXPECT_EQ(got.at("author"), (std::vector<std::string>{blog.posts[6].author, blog.posts[7].author}));
}

}  // namespace
}  // namespace vertex::feed
