// The blog generator's model (blog_site.h): the posts of a blog as data,
// their dates in the writer's zone, the renderings of dates and titles the
// templates use, and the body text with its optional whitespace noise.
// Shared by blog_site.cc (pages), blog_feed.cc (the feed) and their tests;
// not an API of its own.
//
// Thread-safety: pure functions; a Blog is immutable after MakeBlog.
#ifndef VERTEX_COMMON_DEMO_BLOG_MODEL_H_
#define VERTEX_COMMON_DEMO_BLOG_MODEL_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "common/demo/blog_site.h"
#include "common/util/random.h"

namespace vertex::demo::blog {

// A civil time in the blog's zone.
struct LocalTime {
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  // Days since 1970-01-01 of the civil date.
  int64_t Days() const;
  // 0 = Sunday.
  int Weekday() const;
};

// Inter-word spaces of body markup are written as this byte until rendered
// (RenderSpaces), so that the page's and the feed's copies can carry
// different whitespace noise over the same text.
inline constexpr char kSoftSpace = '\x01';

// The civil date `days` days after 1970-01-01 (time of day 0).
LocalTime FromDays(int64_t days);

struct Post {
  int id = 0;                   // 1 for the oldest
  std::string title;            // the feed's title: ASCII quotes and dashes
  std::string slug;             // unique in the blog
  LocalTime time;               // when it was posted, in the blog's zone
  int author = 0;               // index into Blog::authors
  std::vector<int> categories;  // indices into Blog::categories
  // Body paragraphs as markup (<p>...</p>), spaces as kSoftSpace.
  std::vector<std::string> paragraphs;
  int comments = 0;
  bool updated = false;  // the page prefixes its title (TitleVariation::kPrefix)
};

struct Blog {
  BlogSiteOptions options;
  std::string name;
  std::string tagline;
  int utc_offset_minutes = 0;  // the writer's zone
  std::vector<std::string> authors;
  std::vector<std::string> categories;
  std::vector<Post> posts;  // newest first
};

// The blog's posts and names from the options (validated by the caller).
Blog MakeBlog(const BlogSiteOptions& options);

// URLs: the home page ("http://HOST/"), the entry page of `post` (by
// template: /2005/07/22/slug/, /2005/07/slug.html, /archives/2005/07/
// slug.html, /entries/000123.html) and the feed (/feed/, /feed/rss/,
// /feed/rdf/, /feed/atom/ by format).
std::string HomeUrl(const Blog& blog);
std::string Permalink(const Blog& blog, const Post& post);
std::string FeedUrl(const Blog& blog);

// Every page of the blog (blog_pages.cc): home and older pages, monthly
// archives, category pages, then the entry pages, newest first; file_name
// left empty.
std::vector<BlogPage> RenderPages(const Blog& blog);

// The feed of the latest options.feed_items posts (blog_feed.cc).
std::string FeedXml(const Blog& blog);

// Dates. "July", "Jul", "Friday", "Fri".
const char* MonthName(int month);
const char* MonthAbbr(int month);
const char* WeekdayName(int weekday);
const char* WeekdayAbbr(int weekday);
// "Fri, 22 Jul 2005 16:24:55 -0500" (RFC 822 as RSS writes it).
std::string Rfc822(const LocalTime& t, int offset_minutes);
// "2005-07-22T16:24:55-05:00" (RFC 3339).
std::string Rfc3339(const LocalTime& t, int offset_minutes);
// "2005-07-22".
std::string IsoDate(const LocalTime& t);

// Body text.
// The markup of the first `paragraphs` paragraphs of the post's body (all
// when larger) as the blog's CMS writes it: <p> elements (WordPress), or
// paragraphs separated by "<br />" pairs (Blogger, Movable Type and the
// table layout convert line breaks). Spaces as kSoftSpace.
std::string BodyMarkup(const Blog& blog, const Post& post, size_t paragraphs = SIZE_MAX);
// The markup with each kSoftSpace as " ", or, with `noise`, as a tab, a CR
// LF and indentation, a run of &nbsp; or a plain space, drawn from it.
std::string RenderSpaces(absl::string_view markup, util::Rng* noise);
// The text a page shows for `markup` (tags dropped, entities decoded,
// whitespace normalised as html::NormalizeSpace does).
std::string TextOf(absl::string_view markup);
// The first `words` words of the body's text, and " [...]" when cut.
std::string Summary(const Post& post, int words);

// Titles as a page shows them (plain text), by TitleVariation:
// kPrefix adds "[Updated] " to updated posts, kTypographicQuotes curls
// quotes and apostrophes and makes " - " an en dash, kAbbreviated cuts
// titles of more than kAbbreviateWords words on list pages (`list_page`)
// to their first kAbbreviateWords words and "...".
inline constexpr int kAbbreviateWords = 8;
std::string PageTitle(const Post& post, TitleVariation variation, bool list_page);

}  // namespace vertex::demo::blog

#endif  // VERTEX_COMMON_DEMO_BLOG_MODEL_H_
