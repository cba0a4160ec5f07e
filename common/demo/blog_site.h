// A deterministic generator of blog sites with their feeds, for WTM
// (../shared/papers/DIGEST.md section 1.4): the site a CMS renders from a
// template, the feed it publishes, and the ground truth of every page, with
// knobs that reproduce each of WTM's failure classes (its Table 6) so that
// feed-supervised learning is tested on the hard cases, not the easy ones.
//
// Templates (each with its own CSS classes, chrome and entry page layout):
//   WordPress-like  h2.entry-title > a[href=permalink], div.entry-content,
//                   a meta line with the date, "Comments (n)" and
//                   "Permalink" links.
//   Blogger-like    h2.date-header shared by the posts of one day,
//                   h3.post-title, div.post-body, "posted by X at 4:24 PM"
//                   whose time links to the permalink.
//   Movable-Type    <!-- entry --> ... <!-- /entry --> comment delimiters,
//                   h3.entry-header, div.entry-body, "Posted by X on DATE".
//   Table layout    an old table-layout template: each entry rows of a
//                   <table>, <font> and <b>, no classes on the entries.
// Pages: the home page (latest home_entries entries) and its older pages
// (/page/2 ...), monthly archive pages, category pages — all in the list
// template —, and one entry page per post in the entry template (the post,
// its author, categories, comments, "previous/next" links). Every page has
// a sidebar whose "Recent posts" repeats the latest titles, a blogroll and
// an archive calendar. Bodies hold 1-6 paragraphs with inline links,
// images and entities (&amp; &nbsp; curly quotes &ndash;): <p> elements in
// WordPress, paragraphs separated by "<br />" pairs in the others (their
// CMSs convert line breaks). List entries end with "Share this" links;
// entry pages add related posts, comments and a comment form, WordPress's
// a breadcrumb. Category pages and the home page are paginated by
// home_entries; a monthly archive shows the whole month. The default
// options give 53 list and 120 entry pages, which Vertex's clustering
// (pruning threshold 20) splits into one list and one entry cluster in
// every template and design (tests/demo/blog_site_test.cc).
// The feed carries the latest feed_items posts in the chosen format, its
// dates in RFC 822 (RSS 0.93, 2.0) or RFC 3339 (dc:date, Atom) in the
// blog's zone (drawn from the seed: -05:00, -07:00, +01:00, +05:30,
// -04:00), while the pages show the civil time there.
//
// The generator never uses <random>: equal options give byte-identical
// sites on every platform.
//
// Thread-safety: pure functions. WriteBlogSite writes only under its dir.
#ifndef VERTEX_COMMON_DEMO_BLOG_SITE_H_
#define VERTEX_COMMON_DEMO_BLOG_SITE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "common/feed/feed.h"

namespace vertex::demo {

enum class BlogTemplate { kWordPress, kBlogger, kMovableType, kTable };
// "wordpress", "blogger", "movabletype", "table"; Parse is the inverse
// (InvalidArgument listing the names).
std::string BlogTemplateName(BlogTemplate t);
absl::StatusOr<BlogTemplate> ParseBlogTemplate(absl::string_view name);

// How the page's titles differ from the feed's (WTM codes 3 and 1).
enum class TitleVariation {
  kSame,
  kPrefix,             // the page adds a prefix on some posts ("[Updated] ")
  kTypographicQuotes,  // the page has curly quotes/dashes where the feed has ASCII
  kAbbreviated,        // the page shortens long titles ("...")
};

// How the feed's link relates to the page's href (WTM codes 5 and 8).
enum class LinkVariation {
  kSame,
  kProxy,     // the feed's <link> goes through a proxy, feedburner:origLink
              // (RSS) or no origLink (Atom: link only via the proxy) — code 5
  kRelative,  // the pages link the post by a relative href
  kTracking,  // the feed's link adds ?utm_source=feed (the page's has none)
};

struct BlogSiteOptions {
  uint64_t seed = 1;
  std::string host = "blog.vertex-demo.test";
  BlogTemplate templ = BlogTemplate::kWordPress;
  feed::FeedFormat feed_format = feed::FeedFormat::kRss20;
  int posts = 120;          // over about 14 months
  int home_entries = 10;    // entries per list page
  int feed_items = 15;      // the latest posts in the feed
  // WTM's failure classes.
  bool partial_description = false;  // the feed has a summary only (4)
  TitleVariation title_variation = TitleVariation::kSame;  // (3, 1)
  bool shared_date_headers = false;  // one date header per day, several
                                     // posts on some days (2); Blogger's
                                     // natural layout
  bool unusual_date_format = false;  // pages show dates as "22.VII.2005"
                                     // (WordPress, table) or "2005/07/22
                                     // Fri" (Blogger, Movable Type) (7)
  LinkVariation link_variation = LinkVariation::kSame;  // (5, 8)
  bool escaped_description = true;   // entity-escaped HTML, else CDATA
  bool noisy_whitespace = false;     // CR, tabs and &nbsp; runs in text and
                                     // feed (6)
  bool read_more = false;            // list pages truncate bodies with
                                     // "Read more" (entry pages are whole)
  // 0: the site as generated; 1: the same posts after a redesign (new
  // class names and a changed layout in every template): the monitoring
  // scenario's fresh site.
  int redesign = 0;
};

// One post as a page shows it, and as the truth of that page.
struct BlogEntryTruth {
  std::string title;      // as the page shows it (text, normalised)
  std::string permalink;  // absolute URL of the entry page
  std::string date;       // as the page shows it (the text an extractor
                          // should return; with shared date headers the
                          // first entry of a day has the header's text and
                          // the others of that day "")
  std::string date_iso;   // 2005-07-22
  std::string author;     // "" when the page shows none
  std::string body;       // the body's text as the page shows it
                          // (normalised; truncated where "Read more")
  std::vector<std::string> categories;
};

struct BlogPage {
  std::string file_name;  // "0000.htm", ...
  std::string url;        // absolute
  // "home", "archive", "category", "entry".
  std::string kind;
  std::string html;
  // The entries it shows in page order (one on an entry page; the
  // sidebar's "Recent posts" are not entries).
  std::vector<BlogEntryTruth> entries;
  // Whether the feed mentions the page (an entry page of a feed item).
  bool in_feed = false;
};

struct BlogSite {
  BlogSiteOptions options;
  std::vector<BlogPage> pages;
  std::string feed_url;  // http://HOST/feed/ (by format)
  std::string feed_xml;
  // WTM's Table 5 outcome the knobs cause, per field ("title", "body",
  // "link", "date"): 0, or the Table 6 code the paper's algorithm fails
  // with on this site. WTM labels the home page from the feed by exact
  // string matching after its cleaning (DIGEST.md 1.2) and fails a field
  // when an item the home page shows is not found. First match wins:
  //   title  3 when title_variation is kPrefix or kTypographicQuotes and a
  //          home-page item's title differs from the feed's, 1 for
  //          kAbbreviated likewise; else 6 with noisy_whitespace (the
  //          feed's title has a tab inside, which WTM's title cleaning,
  //          "trim long white space", leaves); else 0.
  //   body   4 with partial_description; 1 with read_more when a home
  //          item is cut; 6 with noisy_whitespace (page and feed carry
  //          different single tabs and CR LFs WTM's cleaning keeps); else 0.
  //   link   5 for kProxy (the parser WTM used reads no origLink); 8 for
  //          kTracking and kRelative (the page has no href equal to the
  //          feed's link); 6 with noisy_whitespace in RSS (the feed's
  //          <link> text is padded with newlines, taken as is); else 0.
  //   date   2 with shared_date_headers when two home-page posts share a
  //          day; 7 with unusual_date_format (no RFC 822 string nor a
  //          month-and-year pattern of WTM's in "22.VII.2005" or
  //          "2005/07/22 Fri"); else 0.
  std::map<std::string, int> expected_wtm;
};

// Knobs by name, for command lines and benches: "partial" (partial_description),
// "title-prefix", "title-quotes", "title-abbreviated" (title_variation),
// "shared-dates", "unusual-dates", "link-proxy", "link-relative",
// "link-tracking" (link_variation), "cdata" (escaped_description = false),
// "noisy" (noisy_whitespace), "read-more". ApplyBlogKnob sets one on
// `options`; InvalidArgument listing the names for any other.
const std::vector<std::string>& BlogKnobNames();
absl::Status ApplyBlogKnob(absl::string_view knob, BlogSiteOptions* options);
// The knobs `options` sets, as names joined by "+", or "clean".
std::string BlogKnobsString(const BlogSiteOptions& options);

// The site, or InvalidArgument naming the option out of range: posts
// 1..10,000, home_entries 1..100, feed_items 1..1,000, redesign 0..1, host
// a bare host name.
absl::StatusOr<BlogSite> GenerateBlogSite(const BlogSiteOptions& options);

// DIR/<file_name> for each page (first line `<base href="URL"/>`, the SWDE
// convention of the demo shop), DIR/feed.xml, DIR/truth.jsonl (one JSON
// object per page: file, url, kind, in_feed, entries), DIR/expected_wtm.json
// and DIR/schema.json (BlogSchemaJson()).
absl::Status WriteBlogSite(const BlogSite& site, const std::string& dir);

// The "blog" vertical's schema (v1::Schema JSON), equal to
// deploy/schemas/blog.json (a test keeps them equal).
std::string BlogSchemaJson();

}  // namespace vertex::demo

#endif  // VERTEX_COMMON_DEMO_BLOG_SITE_H_
