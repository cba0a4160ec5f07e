// Hand-written blog pages and their feed (Feed structs built by hand, no
// parser) for the feed matcher's tests: four CMS-like templates (WordPress,
// Blogger with shared date headers, Movable Type with comment delimiters,
// an old table layout with the sidebar before the content), entry, home and
// archive pages, a sidebar repeating every title and a category cloud, and
// knobs for WTM's failure classes (titles the page changes, summaries,
// "Read more" truncation, relative links, ...). Each Post keeps what its
// page shows, so expected values come from the fixture, not from a run.
#ifndef VERTEX_TESTS_FEED_BLOG_FIXTURE_H_
#define VERTEX_TESTS_FEED_BLOG_FIXTURE_H_

#include <string>
#include <vector>

#include "common/feed/feed.h"
#include "common/html/page.h"

namespace vertex::feed::testing_blog {

enum Template { kWordPress, kBlogger, kMovableType, kTable };
inline constexpr Template kTemplates[] = {kWordPress, kBlogger, kMovableType, kTable};
const char* Name(Template t);

struct Post {
  std::string title;       // the feed's title
  std::string page_title;  // as the page shows it (text; default: title)
  std::string page_title_html;  // overrides page_title with markup when set
  std::string link;        // absolute permalink
  std::string slug;
  int year = 2005, month = 7, day = 22;
  std::string date_text;   // "July 22, 2005": what the page shows
  std::string iso_date;    // "2005-07-22"
  std::string month_year;  // "July 2005"
  std::string date_html;   // overrides the page's date markup when set
  std::string author;
  std::string category;
  std::vector<std::string> paragraphs;  // plain text
  std::string page_body_html;           // overrides the page's body when set

  std::string BodyHtml() const;  // <p>...</p> per paragraph, escaped
  std::string Text() const;      // paragraphs joined by a space
  size_t WordCount() const;
  std::string FirstWords(size_t n) const;
  std::string WordsFrom(size_t n) const;
};

struct Blog {
  std::vector<Post> posts;
  Feed feed;  // one item per post, same order
  bool relative_links = false;
  size_t read_more_words = 0;        // list pages show this many words, then "Read more"
  int extra_entries_on_home = 0;     // entries the feed no longer carries, after the feed's
  std::string home_url = "http://blog.example/";

  // Post b moved to post a's day (page and feed).
  void SameDay(int a, int b);
  html::Page EntryPage(int post, Template t) const;
  html::Page HomePage(Template t) const;
  // The HTML ListPage parses.
  std::string ListHtml(const std::vector<int>& posts, Template t) const;
  // A list page of the given posts at `url`.
  html::Page ListPage(const std::string& url, const std::vector<int>& posts, Template t) const;
  // An archive of old entries the feed does not carry; its sidebar shows
  // the feed's titles.
  html::Page OldArchivePage(Template t) const;
};

// n posts (n <= 8) on distinct days, newest first, and their feed.
Blog MakeBlog(int n);
inline Blog ThreePosts() { return MakeBlog(3); }

}  // namespace vertex::feed::testing_blog

#endif  // VERTEX_TESTS_FEED_BLOG_FIXTURE_H_
