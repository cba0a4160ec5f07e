// Tests of the feed matcher (feed_matcher.h) on hand-written blog pages and
// Feed structs built by hand (no parser call): every rule, tie-break and
// WTM failure class. Expected nodes are named by XPaths over the page's own
// structure (the entry's <h2>, not the sidebar's <li>), never by a result
// copied from a run.
#include "common/feed/feed_matcher.h"

#include <optional>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/html/editor_html.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"
#include "tests/feed/blog_fixture.h"

namespace vertex::feed {
namespace {

using testing_blog::Blog;
using testing_blog::Post;

// The XPath (NodeXPath) of the only node `xpath` selects on `page`.
std::string Only(const html::Page& page, const std::string& xpath) {
  absl::StatusOr<std::vector<html::Node>> nodes = html::XPath::Compile(xpath).value().Select(page);
  EXPECT_TRUE(nodes.ok()) << xpath;
  if (!nodes.ok() || nodes->size() != 1) {
    ADD_FAILURE() << xpath << " selects " << (nodes.ok() ? nodes->size() : 0) << " nodes on " << page.url();
    return "";
  }
  return html::NodeXPath(nodes->front());
}

const FieldMatch* Report(const FeedMatchResult& r, const std::string& url, const std::string& link,
                         const std::string& field) {
  for (const FieldMatch& m : r.matches) {
    if (m.page_url == url && m.item_link == link && m.field == field) return &m;
  }
  return nullptr;
}

// A copy of the report (the result may be a temporary).
std::optional<FieldMatch> Copy(const FeedMatchResult& r, const std::string& url, const std::string& link,
                               const std::string& field) {
  const FieldMatch* m = Report(r, url, link, field);
  return m ? std::optional<FieldMatch>(*m) : std::nullopt;
}

const PageAnnotations* PageOf(const FeedMatchResult& r, const std::string& url) {
  for (const PageAnnotations& p : r.pages) {
    if (p.url == url) return &p;
  }
  return nullptr;
}

const v1::Annotation* AnnotationOf(const PageAnnotations& p, const std::string& attribute) {
  for (const v1::Annotation& a : p.annotations) {
    if (a.attribute() == attribute) return &a;
  }
  return nullptr;
}

std::vector<std::string> Values(const v1::Annotation& a) { return {a.values().begin(), a.values().end()}; }

// ---- Entry pages ----

TEST(FeedMatcherEntry, WordPressEntryAllFieldsSidebarNeverWins) {
  Blog blog = testing_blog::ThreePosts();
  const html::Page page = blog.EntryPage(1, testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&page});
  ASSERT_EQ(r.pages.size(), 1u);
  EXPECT_EQ(r.pages[0].kind, PageKind::kEntry);
  EXPECT_EQ(r.pages[0].items, std::vector<int>{1});
  const std::string link = blog.posts[1].link;
  const FieldMatch* title = Report(r, page.url(), link, "title");
  ASSERT_NE(title, nullptr);
  EXPECT_TRUE(title->found) << title->how;
  EXPECT_EQ(title->value, blog.posts[1].title);
  EXPECT_EQ(title->xpath, Only(page, "//h2[@class='entry-title']/a/text()"));  // not the sidebar's <li>
  const FieldMatch* date = Report(r, page.url(), link, "date");
  ASSERT_TRUE(date && date->found) << (date ? date->how : "");
  EXPECT_EQ(date->value, blog.posts[1].date_text);
  const FieldMatch* body = Report(r, page.url(), link, "body");
  ASSERT_TRUE(body && body->found) << (body ? body->how : "");
  EXPECT_EQ(body->xpath, Only(page, "//div[@class='entry-content']"));
  const FieldMatch* href = Report(r, page.url(), link, "link");
  ASSERT_TRUE(href && href->found) << (href ? href->how : "");
  EXPECT_EQ(href->value, link);
  EXPECT_NE(href->how.find("wrapping the title"), std::string::npos) << href->how;
  const FieldMatch* author = Report(r, page.url(), link, "author");
  ASSERT_TRUE(author && author->found) << (author ? author->how : "");
  EXPECT_EQ(author->value, blog.posts[1].author);
  const FieldMatch* category = Report(r, page.url(), link, "categories");
  ASSERT_TRUE(category && category->found) << (category ? category->how : "");
  EXPECT_EQ(category->value, blog.posts[1].category);
  EXPECT_EQ(category->xpath, Only(page, "//div[@class='entry-footer']/a[1]"));  // not the sidebar's cloud
  // Annotations: one per field, values with the scope of the chosen node.
  const v1::Annotation* t = AnnotationOf(r.pages[0], "title");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(Values(*t), std::vector<std::string>{blog.posts[1].title});
  EXPECT_EQ(t->xpath(), Only(page, "//h2[@class='entry-title']/a"));
  const v1::Annotation* b = AnnotationOf(r.pages[0], "body");
  ASSERT_NE(b, nullptr);
  EXPECT_TRUE(b->values().empty());
  EXPECT_EQ(b->xpath(), Only(page, "//div[@class='entry-content']"));
  // Items with no entry page given are reported once each.
  const FieldMatch* none = Report(r, "", blog.posts[0].link, "page");
  ASSERT_NE(none, nullptr);
  EXPECT_FALSE(none->found);
  EXPECT_EQ(none->wtm_error, WtmError::kMissingValue);
}

TEST(FeedMatcherEntry, FieldToAttributeRenamesAndOmits) {
  Blog blog = testing_blog::ThreePosts();
  const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
  FeedMatchOptions options;
  options.field_to_attribute = {{"title", "headline"}, {"date", "published"}};
  const FeedMatchResult r = MatchFeed(blog.feed, {&page}, options);
  ASSERT_EQ(r.pages.size(), 1u);
  std::vector<std::string> attributes;
  for (const v1::Annotation& a : r.pages[0].annotations) attributes.push_back(a.attribute());
  EXPECT_EQ(attributes, (std::vector<std::string>{"headline", "published"}));
  // Fields not annotated are still matched and reported.
  const FieldMatch* body = Report(r, page.url(), blog.posts[0].link, "body");
  ASSERT_TRUE(body && body->found);
}

// Each template's entry page: title, date, link, body found on the entry.
TEST(FeedMatcherEntry, EveryTemplate) {
  for (testing_blog::Template t : testing_blog::kTemplates) {
    Blog blog = testing_blog::ThreePosts();
    for (int p = 0; p < 3; ++p) {
      const html::Page page = blog.EntryPage(p, t);
      const FeedMatchResult r = MatchFeed(blog.feed, {&page});
      for (const char* field : {"title", "date", "link", "body", "author"}) {
        const FieldMatch* m = Report(r, page.url(), blog.posts[p].link, field);
        ASSERT_TRUE(m) << testing_blog::Name(t) << " " << field;
        EXPECT_TRUE(m->found) << testing_blog::Name(t) << " post " << p << " " << field << ": " << m->how;
      }
      const FieldMatch* title = Report(r, page.url(), blog.posts[p].link, "title");
      EXPECT_EQ(title->value, blog.posts[p].title) << testing_blog::Name(t);
      EXPECT_EQ(Report(r, page.url(), blog.posts[p].link, "date")->value, blog.posts[p].date_text) << testing_blog::Name(t);
    }
  }
}

TEST(FeedMatcherTitle, Tolerances) {
  struct Case {
    const char* feed_title;
    const char* page_title;
    bool found;
    WtmError error;
    const char* how_contains;
  };
  const Case cases[] = {
      {"Don't stop: the \"real\" story - part 2", "Don\xE2\x80\x99t stop: the \xE2\x80\x9Creal\xE2\x80\x9D story \xE2\x80\x93 part 2",
       true, WtmError::kNone, "typographic"},
      {"Budget vote tonight", "[Updated] Budget vote tonight", true, WtmError::kNone, "prefix added by the page: \"[Updated] \""},
      {"Budget vote tonight", "Budget vote tonight | Daily Blog", true, WtmError::kNone, "suffix added"},
      {"A very long title about the budget vote tonight", "A very long title about the budget\xE2\x80\xA6", true, WtmError::kNone,
       "truncated to"},
      {"A very long title about the budget vote tonight", "A very long...", false, WtmError::kAbbreviated, "abbreviates"},
      {"Budget vote tonight in the city council", "Council budget vote held tonight in city", false,
       WtmError::kDifferentTitle, "differs"},
      {"Budget vote tonight", "Something else entirely", false, WtmError::kMissingValue, ""},
      {"budget VOTE tonight", "Budget vote tonight", true, WtmError::kNone, "case"},
      {"Budget vote tonight", "Budget\xC2\xA0vote\r\n\t tonight ", true, WtmError::kNone, "exact"},
  };
  for (const Case& c : cases) {
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].page_title = c.page_title;
    blog.feed.items[0].title = c.feed_title;
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const FeedMatchResult r = MatchFeed(blog.feed, {&page});
    const FieldMatch* m = Report(r, page.url(), blog.posts[0].link, "title");
    ASSERT_TRUE(m) << c.page_title;
    EXPECT_EQ(m->found, c.found) << c.page_title << ": " << m->how;
    EXPECT_EQ(m->wtm_error, c.error) << c.page_title << ": " << m->how;
    EXPECT_NE(m->how.find(c.how_contains), std::string::npos) << c.page_title << ": " << m->how;
    if (c.found) {
      EXPECT_EQ(m->xpath, Only(page, "//h2[@class='entry-title']/a/text()")) << c.page_title;
      EXPECT_EQ(m->value, html::NormalizeSpace(c.page_title)) << "the page's own text";
    }
  }
}

// With no body on the page (the feed's text is not shown), the entry's
// title, alone in its slot, beats the sidebar's list of titles, which comes
// first here.
TEST(FeedMatcherTitle, NoBodyLoneTitleBeatsSidebar) {
  Blog blog = testing_blog::ThreePosts();
  blog.posts[0].page_body_html = "<p>Nothing of the kind appears here at all.</p>";
  const html::Page page = blog.EntryPage(0, testing_blog::kTable);  // the sidebar precedes the content
  const FeedMatchResult r = MatchFeed(blog.feed, {&page});
  const FieldMatch* body = Report(r, page.url(), blog.posts[0].link, "body");
  ASSERT_TRUE(body);
  EXPECT_FALSE(body->found);
  const FieldMatch* m = Report(r, page.url(), blog.posts[0].link, "title");
  ASSERT_TRUE(m && m->found) << (m ? m->how : "");
  EXPECT_EQ(m->xpath, Only(page, "//td[@class='title']/b/a/text()"));
}

TEST(FeedMatcherTitle, FeedTitleWithMarkupOnThePage) {
  Blog blog = testing_blog::ThreePosts();
  blog.posts[0].page_title_html = "Why <em>Rust</em> wins";
  blog.feed.items[0].title = "Why Rust wins";
  const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&page});
  const FieldMatch* m = Report(r, page.url(), blog.posts[0].link, "title");
  ASSERT_TRUE(m && m->found) << (m ? m->how : "");
  EXPECT_NE(m->how.find("markup"), std::string::npos) << m->how;
  EXPECT_EQ(m->xpath, Only(page, "//h2[@class='entry-title']/a"));
}

// ---- Body ----

TEST(FeedMatcherBody, SummaryOnlyFeedIsAPrefix) {
  Blog blog = testing_blog::ThreePosts();
  FeedItem& item = blog.feed.items[2];
  item.content_html.clear();
  item.description_html = blog.posts[2].FirstWords(12) + " [&#8230;]";
  const html::Page page = blog.EntryPage(2, testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&page});
  const FieldMatch* m = Report(r, page.url(), item.link, "body");
  ASSERT_TRUE(m && m->found) << (m ? m->how : "");
  EXPECT_EQ(m->how, "summary is a prefix of the page's body");
  EXPECT_EQ(m->xpath, Only(page, "//div[@class='entry-content']"));
}

TEST(FeedMatcherBody, SummaryWithoutEllipsisMuchShorterThanTheBody) {
  Blog blog = testing_blog::ThreePosts();
  FeedItem& item = blog.feed.items[2];
  item.content_html.clear();
  item.description_html = blog.posts[2].FirstWords(10);
  const html::Page page = blog.EntryPage(2, testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&page});
  const FieldMatch* m = Report(r, page.url(), item.link, "body");
  ASSERT_TRUE(m && m->found) << (m ? m->how : "");
  EXPECT_EQ(m->how, "summary is a prefix of the page's body");
  EXPECT_EQ(m->xpath, Only(page, "//div[@class='entry-content']"));
}

TEST(FeedMatcherBody, PartialDescriptionNoiseAndMissing) {
  {  // the entry page shows most of the feed's text, not all
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].page_body_html = "<p>" + blog.posts[0].FirstWords(blog.posts[0].WordCount() * 3 / 4) + "</p>";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "body");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->found);
    EXPECT_EQ(m->wtm_error, WtmError::kPartialDescription) << m->how;
  }
  {  // the page shows escaped markup as text
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].page_body_html = "&lt;p&gt;" + blog.posts[0].FirstWords(8) + "&lt;/p&gt;&lt;p&gt;" +
                                   blog.posts[0].WordsFrom(8) + "&lt;/p&gt;";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "body");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->found);
    EXPECT_EQ(m->wtm_error, WtmError::kNoise) << m->how;
  }
  {  // feed text double-escaped: the feed's remnants are cleaned, found
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[0].content_html = "&lt;p&gt;" + blog.posts[0].Text() + "&lt;/p&gt;";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "body");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_NE(m->how.find("remnants"), std::string::npos) << m->how;
  }
  {  // another text entirely
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].page_body_html = "<p>Nothing of the kind appears here at all.</p>";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "body");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->wtm_error, WtmError::kMissingValue) << m->how;
  }
  {  // no description nor content in the feed
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[0].content_html.clear();
    blog.feed.items[0].description_html.clear();
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "body");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->wtm_error, WtmError::kFeedLimitation) << m->how;
  }
}

// ---- Date ----

TEST(FeedMatcherDate, RenderingsTimeElementAndFallback) {
  {  // the writer's zone, not UTC: 22:30 -0400 is the next day in UTC
    Blog blog = testing_blog::ThreePosts();
    FeedDate& d = *blog.feed.items[0].date;
    d.hour = 22;
    d.minute = 30;
    d.utc_offset_minutes = -240;
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m && m->found);
    EXPECT_EQ(m->value, blog.posts[0].date_text);
  }
  {  // a weekday next to the date is part of the value
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].date_html = "Posted " + blog.posts[0].iso_date + " (Friday), 9:15";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m && m->found);
    EXPECT_EQ(m->value, blog.posts[0].iso_date + " (Friday)");
  }
  {  // only a <time datetime> with a relative text
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].date_html = "<time datetime=\"" + blog.posts[0].iso_date + "T10:00:00-04:00\">3 days ago</time>";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_EQ(m->value, blog.posts[0].iso_date + "T10:00:00-04:00");
    EXPECT_EQ(m->how, "<time datetime>");
  }
  {  // only month and year: WTM's fallback, not supported
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].date_html = "Posted in " + blog.posts[0].month_year;
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->found);
    EXPECT_EQ(m->wtm_error, WtmError::kNotSupported) << m->how;
    EXPECT_NE(m->how.find("fallback"), std::string::npos) << m->how;
  }
  {  // a date inside a longer word is not a rendering
    Blog blog = testing_blog::ThreePosts();
    blog.posts[0].date_html = "ref 1" + blog.posts[0].iso_date + "9";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->found) << m->value;
  }
  {  // no date in the feed
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[0].date.reset();
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "date");
    ASSERT_TRUE(m);
    EXPECT_EQ(m->wtm_error, WtmError::kFeedLimitation);
  }
}

TEST(FeedMatcherDate, RenderDateFormatsNamesTheCommonFormats) {
  FeedDate d;
  d.year = 2005;
  d.month = 7;
  d.day = 22;
  d.hour = 16;
  d.minute = 24;
  d.second = 55;
  d.utc_offset_minutes = -240;
  std::vector<std::string> texts;
  for (const DateRendering& r : RenderDateFormats(d)) texts.push_back(r.text);
  for (const char* want : {"Fri, 22 Jul 2005 16:24:55 -0400", "2005-07-22", "July 22, 2005", "Jul 22, 2005",
                           "22 July 2005", "Friday, July 22, 2005", "07/22/2005", "22/07/2005", "7/22/05",
                           "22.07.2005", "2005/07/22", "22nd July 2005", "22.VII.2005", "Jul 2005", "July 2005",
                           "7 05", "07 05"}) {
    EXPECT_NE(std::find(texts.begin(), texts.end(), want), texts.end()) << want;
  }
  EXPECT_EQ(texts.front(), "Fri, 22 Jul 2005 16:24:55 -0400");  // most specific first
  d.month = 13;
  EXPECT_TRUE(RenderDateFormats(d).empty());
}

// ---- Link ----

TEST(FeedMatcherLink, RelativeProxyAndTracking) {
  {  // relative href: the value is resolved
    Blog blog = testing_blog::ThreePosts();
    blog.relative_links = true;
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "link");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_EQ(m->value, blog.posts[0].link);
    EXPECT_NE(m->how.find("href resolved"), std::string::npos) << m->how;
  }
  {  // tracking parameters on the feed's link
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[0].link = blog.posts[0].link + "?utm_source=rss&utm_medium=feed&fbclid=x1";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const FeedMatchResult r = MatchFeed(blog.feed, {&page});
    ASSERT_EQ(r.pages.size(), 1u);
    EXPECT_EQ(r.pages[0].kind, PageKind::kEntry);
    const FieldMatch* m = Report(r, page.url(), blog.feed.items[0].link, "link");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_EQ(m->value, blog.posts[0].link);
    EXPECT_NE(m->how.find("tracking parameters stripped"), std::string::npos) << m->how;
  }
  {  // origLink given: found on the page through it
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[0].proxy_link = "http://feedproxy.example/~r/blog/~3/abc/";
    const html::Page page = blog.EntryPage(0, testing_blog::kWordPress);
    const std::optional<FieldMatch> m = Copy(MatchFeed(blog.feed, {&page}), page.url(), blog.posts[0].link, "link");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_NE(m->how.find("origLink"), std::string::npos) << m->how;
  }
  {  // only a proxy link: a feed limitation, on the list page and as "page"
    Blog blog = testing_blog::ThreePosts();
    blog.feed.items[1].link = "http://feedproxy.example/~r/blog/~3/def/";
    const html::Page home = blog.HomePage(testing_blog::kWordPress);
    const FeedMatchResult r = MatchFeed(blog.feed, {&home});
    const FieldMatch* m = Report(r, home.url(), blog.feed.items[1].link, "link");
    ASSERT_TRUE(m);
    EXPECT_FALSE(m->found);
    EXPECT_EQ(m->wtm_error, WtmError::kFeedLimitation) << m->how;
    const FieldMatch* page = Report(r, "", blog.feed.items[1].link, "page");
    ASSERT_NE(page, nullptr);
    EXPECT_EQ(page->wtm_error, WtmError::kFeedLimitation) << page->how;
    // Its entry page, whose URL is not the proxy's, is found by its title
    // and whole body: annotated but for the link.
    const html::Page entry = blog.EntryPage(1, testing_blog::kWordPress);
    const FeedMatchResult e = MatchFeed(blog.feed, {&home, &entry});
    const PageAnnotations* p = PageOf(e, entry.url());
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->kind, PageKind::kEntry);
    EXPECT_EQ(p->items, std::vector<int>{1});
    EXPECT_EQ(Report(e, "", blog.feed.items[1].link, "page"), nullptr);
    const FieldMatch* title = Report(e, entry.url(), blog.feed.items[1].link, "title");
    ASSERT_TRUE(title && title->found);
    EXPECT_NE(title->how.find("found by its title and whole body"), std::string::npos) << title->how;
    const FieldMatch* link = Report(e, entry.url(), blog.feed.items[1].link, "link");
    ASSERT_TRUE(link);
    EXPECT_EQ(link->wtm_error, WtmError::kFeedLimitation) << link->how;
    EXPECT_EQ(AnnotationOf(*p, "link"), nullptr);
    // A list page showing one feed entry among older ones is no entry page.
    Blog one = testing_blog::ThreePosts();
    one.feed.items[2].link = "http://feedproxy.example/~r/blog/~3/ghi/";
    one.extra_entries_on_home = 2;
    const html::Page list = one.ListPage("http://blog.example/page/2/", {2}, testing_blog::kWordPress);
    EXPECT_EQ(PageOf(MatchFeed(one.feed, {&list}), list.url()), nullptr);
  }
}

TEST(FeedMatcherLink, NormalizeUrl) {
  const std::pair<const char*, const char*> cases[] = {
      {"HTTP://Blog.Example:80/2005/07/post/#comments", "http://blog.example/2005/07/post"},
      {"https://blog.example:443/a/?p=1", "https://blog.example/a?p=1"},
      {"http://blog.example/index.php", "http://blog.example/index.php"},
      {"http://blog.example/", "http://blog.example"},
      {"http://blog.example:8080/x", "http://blog.example:8080/x"},
      {"not a url", ""},
      {"", ""},
  };
  for (const auto& [in, want] : cases) EXPECT_EQ(NormalizeUrl(in), want) << in;
  EXPECT_EQ(NormalizeUrl("../b/", "http://blog.example/a/c/"), "http://blog.example/a/b");
  EXPECT_EQ(NormalizeUrl("/x", "relative/base"), "");
}

// ---- List pages ----

TEST(FeedMatcherList, WordPressHomeInPageOrderWithScopes) {
  Blog blog = testing_blog::ThreePosts();
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->kind, PageKind::kList);
  EXPECT_EQ(p->items, (std::vector<int>{0, 1, 2}));
  const v1::Annotation* title = AnnotationOf(*p, "title");
  ASSERT_NE(title, nullptr);
  EXPECT_EQ(Values(*title), (std::vector<std::string>{blog.posts[0].title, blog.posts[1].title, blog.posts[2].title}));
  EXPECT_FALSE(title->partial());
  // The scope selects exactly the entries' title anchors, not the sidebar's.
  absl::StatusOr<std::vector<html::Node>> scoped = html::XPath::Compile(title->xpath()).value().Select(home);
  ASSERT_TRUE(scoped.ok()) << title->xpath();
  absl::StatusOr<std::vector<html::Node>> want =
      html::XPath::Compile("//h2[@class='entry-title']/a").value().Select(home);
  EXPECT_EQ(*scoped, *want) << title->xpath();
  const v1::Annotation* body = AnnotationOf(*p, "body");
  ASSERT_NE(body, nullptr);
  absl::StatusOr<std::vector<html::Node>> bodies = html::XPath::Compile(body->xpath()).value().Select(home);
  EXPECT_EQ(*bodies, *html::XPath::Compile("//div[@class='entry-content']").value().Select(home));
  const v1::Annotation* link = AnnotationOf(*p, "link");
  ASSERT_NE(link, nullptr);
  EXPECT_EQ(Values(*link), (std::vector<std::string>{blog.posts[0].link, blog.posts[1].link, blog.posts[2].link}));
}

TEST(FeedMatcherList, BloggerSharedDateHeaders) {
  Blog blog = testing_blog::ThreePosts();
  blog.SameDay(0, 1);  // posts 0 and 1 on one day: one header
  const html::Page home = blog.HomePage(testing_blog::kBlogger);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  ASSERT_EQ(p->items.size(), 3u);
  const FieldMatch* first = Report(r, home.url(), blog.posts[0].link, "date");
  const FieldMatch* second = Report(r, home.url(), blog.posts[1].link, "date");
  const FieldMatch* third = Report(r, home.url(), blog.posts[2].link, "date");
  ASSERT_TRUE(first && second && third);
  EXPECT_TRUE(first->found) << first->how;
  EXPECT_FALSE(second->found);
  EXPECT_EQ(second->wtm_error, WtmError::kSharedDate) << second->how;
  EXPECT_NE(second->how.find("2 entries share the date header"), std::string::npos) << second->how;
  EXPECT_TRUE(third->found) << third->how;
  const v1::Annotation* date = AnnotationOf(*p, "date");
  ASSERT_NE(date, nullptr);
  EXPECT_EQ(Values(*date), (std::vector<std::string>{blog.posts[0].date_text, blog.posts[2].date_text}));
  EXPECT_EQ(*html::XPath::Compile(date->xpath()).value().Select(home),
            *html::XPath::Compile("//h2[@class='date-header']/span").value().Select(home));
}

// Regression: on a Movable-Type-like list each entry shows its own date in
// its footer, after its body. Two posts of one day: the first's footer date
// lies nearer the second's title than the second's own footer date does, yet
// each item takes the date inside its own region (no shared date header).
TEST(FeedMatcherList, SameDayFooterDatesAreEachEntrysOwn) {
  Blog blog = testing_blog::ThreePosts();
  blog.SameDay(0, 1);
  std::string entries;
  for (const Post& p : blog.posts) {
    absl::StrAppend(&entries, "<div class=\"entry\"><h3 class=\"entry-header\">", p.title,
                    "</h3><div class=\"entry-body\">", p.BodyHtml(), "</div><p class=\"entry-footer\">Posted by ",
                    p.author, " on <span class=\"posted\">", p.date_text, "</span> | <a href=\"", p.link,
                    "\">Permalink</a></p></div>");
  }
  html::Parser parser;
  const html::Page home =
      std::move(parser
                    .Parse(absl::StrCat("<html><body><div id=\"header\"><h1>Daily Blog</h1></div><div id=\"content\">",
                                        entries, "</div></body></html>"),
                           blog.home_url)
                    .value());
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* page = PageOf(r, home.url());
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(page->kind, PageKind::kList);
  ASSERT_EQ(page->items, (std::vector<int>{0, 1, 2}));
  for (int k = 0; k < 3; ++k) {
    const FieldMatch* date = Report(r, home.url(), blog.posts[k].link, "date");
    ASSERT_TRUE(date);
    EXPECT_TRUE(date->found) << k << ": " << date->how;
    EXPECT_EQ(date->xpath, Only(home, absl::StrCat("//div[@id='content']/div[", k + 1, "]//span[@class='posted']/text()"))) << k;
  }
  const v1::Annotation* date = AnnotationOf(*page, "date");
  ASSERT_NE(date, nullptr);
  EXPECT_EQ(Values(*date),
            (std::vector<std::string>{blog.posts[0].date_text, blog.posts[1].date_text, blog.posts[2].date_text}));
  EXPECT_EQ(blog.posts[0].date_text, blog.posts[1].date_text);
}

TEST(FeedMatcherList, ReadMoreTruncationAndPartialPage) {
  Blog blog = testing_blog::ThreePosts();
  blog.read_more_words = 25;
  blog.extra_entries_on_home = 1;  // an older entry the feed no longer carries
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->items, (std::vector<int>{0, 1, 2}));
  for (int i = 0; i < 3; ++i) {
    const FieldMatch* m = Report(r, home.url(), blog.posts[i].link, "body");
    ASSERT_TRUE(m && m->found) << (m ? m->how : "");
    EXPECT_NE(m->how.find("read more"), std::string::npos) << m->how;
  }
  const v1::Annotation* title = AnnotationOf(*p, "title");
  ASSERT_NE(title, nullptr);
  EXPECT_TRUE(title->partial());
  EXPECT_EQ(AnnotationOf(*p, "body"), nullptr) << "an XPath label cannot be partial";
}

// One entry's date missing from a list page: its date attribute is left
// unannotated there rather than labelled without it.
TEST(FeedMatcherList, IncompleteFieldIsNotAnnotated) {
  Blog blog = testing_blog::ThreePosts();
  blog.posts[1].date_html = "sometime";
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  const FieldMatch* m = Report(r, home.url(), blog.posts[1].link, "date");
  ASSERT_TRUE(m);
  EXPECT_FALSE(m->found);
  EXPECT_EQ(AnnotationOf(*p, "date"), nullptr);
  EXPECT_NE(AnnotationOf(*p, "title"), nullptr);
}

// An entry the matcher misses between two it finds: the labels stop before
// it (partial), never skip it.
TEST(FeedMatcherList, LabelsStopAtAMissedEntry) {
  Blog blog = testing_blog::ThreePosts();
  blog.posts[1].page_body_html = "<p>Nothing of the kind appears here at all.</p>";
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->items, std::vector<int>{0});
  const v1::Annotation* title = AnnotationOf(*p, "title");
  ASSERT_NE(title, nullptr);
  EXPECT_EQ(Values(*title), std::vector<std::string>{blog.posts[0].title});
  EXPECT_TRUE(title->partial());
}

// A "Read more" excerpt of whole paragraphs shorter than 20 words: found.
TEST(FeedMatcherList, ReadMoreWholeShortParagraph) {
  Blog blog = testing_blog::ThreePosts();
  for (testing_blog::Post& p : blog.posts) p.paragraphs.insert(p.paragraphs.begin(), "A short first paragraph of ten words " + p.slug + " only.");
  for (size_t i = 0; i < blog.posts.size(); ++i) blog.feed.items[i].content_html = blog.posts[i].BodyHtml();
  for (testing_blog::Post& p : blog.posts) p.page_body_html = "<p>" + p.paragraphs[0] + "</p><p><a href=\"" + p.link + "\">Read more</a></p>";
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&home});
  const PageAnnotations* p = PageOf(r, home.url());
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->items, (std::vector<int>{0, 1, 2}));
  const FieldMatch* m = Report(r, home.url(), blog.posts[0].link, "body");
  ASSERT_TRUE(m && m->found) << (m ? m->how : "");
  EXPECT_EQ(m->xpath, Only(home, "(//div[@class='entry-content'])[1]"));
}

TEST(FeedMatcherList, SidebarAloneIsNoListPage) {
  Blog blog = testing_blog::ThreePosts();
  const html::Page archive = blog.OldArchivePage(testing_blog::kWordPress);
  const FeedMatchResult r = MatchFeed(blog.feed, {&archive});
  EXPECT_EQ(PageOf(r, archive.url()), nullptr);
  FeedMatchOptions no_lists;
  no_lists.list_pages = false;
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  EXPECT_TRUE(MatchFeed(blog.feed, {&home}, no_lists).pages.empty());
}

TEST(FeedMatcherList, EveryTemplateHomePage) {
  for (testing_blog::Template t : testing_blog::kTemplates) {
    Blog blog = testing_blog::ThreePosts();
    const html::Page home = blog.HomePage(t);
    const FeedMatchResult r = MatchFeed(blog.feed, {&home});
    const PageAnnotations* p = PageOf(r, home.url());
    ASSERT_NE(p, nullptr) << testing_blog::Name(t);
    EXPECT_EQ(p->items, (std::vector<int>{0, 1, 2})) << testing_blog::Name(t);
    const v1::Annotation* title = AnnotationOf(*p, "title");
    ASSERT_NE(title, nullptr);
    EXPECT_EQ(Values(*title), (std::vector<std::string>{blog.posts[0].title, blog.posts[1].title, blog.posts[2].title}))
        << testing_blog::Name(t);
  }
}

// ---- ValueMatchesFeed ----

TEST(ValueMatchesFeed, EachField) {
  Blog blog = testing_blog::ThreePosts();
  const FeedItem& item = blog.feed.items[0];
  const Post& post = blog.posts[0];
  const std::string url = "http://blog.example/";
  EXPECT_TRUE(ValueMatchesFeed("title", post.title, item, url));
  EXPECT_TRUE(ValueMatchesFeed("title", "[Updated] " + post.title, item, url));
  EXPECT_FALSE(ValueMatchesFeed("title", blog.posts[1].title, item, url));
  EXPECT_TRUE(ValueMatchesFeed("link", post.link, item, url));
  EXPECT_TRUE(ValueMatchesFeed("link", post.link + "#comments", item, url));
  EXPECT_TRUE(ValueMatchesFeed("link", post.link + "?utm_source=x", item, url));
  EXPECT_FALSE(ValueMatchesFeed("link", blog.posts[1].link, item, url));
  EXPECT_TRUE(ValueMatchesFeed("date", "Posted on " + post.date_text, item, url));
  EXPECT_TRUE(ValueMatchesFeed("date", post.iso_date + "T09:00:00Z", item, url));
  EXPECT_FALSE(ValueMatchesFeed("date", blog.posts[2].date_text, item, url));
  EXPECT_FALSE(ValueMatchesFeed("date", post.month_year, item, url)) << "a month is not a day";
  EXPECT_TRUE(ValueMatchesFeed("author", post.author, item, url));
  EXPECT_FALSE(ValueMatchesFeed("author", "Somebody Else", item, url));
  EXPECT_TRUE(ValueMatchesFeed("body", post.Text(), item, url));
  EXPECT_TRUE(ValueMatchesFeed("body", post.FirstWords(20), item, url));
  EXPECT_FALSE(ValueMatchesFeed("body", blog.posts[1].Text(), item, url));
  EXPECT_TRUE(ValueMatchesFeed("categories", post.category, item, url));
  EXPECT_FALSE(ValueMatchesFeed("categories", "Unrelated", item, url));
  EXPECT_FALSE(ValueMatchesFeed("title", "", item, url));
  EXPECT_FALSE(ValueMatchesFeed("nonsense", post.title, item, url));
}

// Bad or degenerate input: no crash, every item reported.
TEST(FeedMatcherInput, EmptyAndDegenerate) {
  Blog blog = testing_blog::ThreePosts();
  EXPECT_TRUE(MatchFeed(Feed{}, {}).matches.empty());
  const html::Page home = blog.HomePage(testing_blog::kWordPress);
  EXPECT_TRUE(MatchFeed(Feed{}, {&home}).pages.empty());
  const FeedMatchResult no_pages = MatchFeed(blog.feed, {nullptr});
  EXPECT_EQ(no_pages.matches.size(), 3u) << "one \"page\" report per item";
  Feed empty_items;
  empty_items.items.resize(2);  // no title, link, date, body
  const FeedMatchResult r = MatchFeed(empty_items, {&home});
  EXPECT_TRUE(r.pages.empty());
  EXPECT_EQ(r.matches.size(), 2u);
  html::Parser parser;
  const html::Page blank = parser.Parse("<html><body></body></html>", blog.posts[0].link).value();
  const FeedMatchResult e = MatchFeed(blog.feed, {&blank});
  ASSERT_EQ(e.pages.size(), 1u);  // the entry page by URL, nothing on it
  for (const FieldMatch& m : e.matches) {
    if (m.page_url == blank.url()) {
      EXPECT_FALSE(m.found) << m.field;
    }
  }
  EXPECT_TRUE(e.pages[0].annotations.empty());
  std::string nested = "<html><body>";
  for (int i = 0; i < 400; ++i) nested += "<div>";
  nested += blog.posts[0].BodyHtml();
  const html::Page deep = parser.Parse(nested, blog.posts[0].link).value();
  const FeedMatchResult d = MatchFeed(blog.feed, {&deep});
  const FieldMatch* body = Report(d, deep.url(), blog.posts[0].link, "body");
  ASSERT_TRUE(body && body->found) << (body ? body->how : "");
}

TEST(WtmErrorName, Names) {
  EXPECT_STREQ(WtmErrorName(WtmError::kNone), "found");
  EXPECT_STREQ(WtmErrorName(WtmError::kSharedDate), "shared_date");
  EXPECT_STREQ(WtmErrorName(WtmError::kMissingValue), "missing_value");
}

}  // namespace
}  // namespace vertex::feed
