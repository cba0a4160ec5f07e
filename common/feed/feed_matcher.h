// WTM's matcher (../shared/papers/DIGEST.md section 1.2, Table 2) on the
// DOM, as an automatic annotator for Vertex's learner (section 1.5): the
// feed's items are found on the site's pages and each page gets the
// annotations an editor would have given, with a report per (item, field)
// of how it was found or, when it was not, why, in WTM's error classes.
//
// A page is an entry page of an item when its URL equals the item's link
// (both normalised: NormalizeUrl); a list page when it shows the titles or
// links of at least two feed items (home, archive and category pages).
// Fields, per item shown on a page:
//   title       a text node (or an element's rendered text) equal to the
//               feed's title after normalisation (entities, whitespace, NFC
//               where it matters, typographic quotes and dashes folded for
//               matching only); tolerant of a prefix or suffix the page
//               adds ("[Updated] "), of truncation ("Title..." / "Title…"
//               with at least half of the title) and of the feed's HTML
//               markup; several occurrences (a sidebar "Recent posts"):
//               the one nearest the item's body (WTM rule 1.2), else
//               (no body found) the one alone in its template slot,
//               inside <main>/<article>, in a heading (notes below).
//   link        an <a href> that resolves (against the page URL and
//               <base>) to the item's link, normalised; the one wrapping
//               the title first, else the nearest after it (WTM 4.2).
//   date        the feed's date rendered in the common formats
//               (RenderDateFormats) in the writer's zone, found in a text
//               node or a <time datetime>; the nearest the title wins; the
//               value annotated is the rendering as the page shows it.
//   author      each feed author's name as a text node (or inside "by X").
//   body        the smallest element whose normalised rendered text
//               contains the normalised text of content_html (else
//               description_html), or that starts with the summary's text
//               when the feed carries a summary only; annotated by XPath.
//   categories  each category's text as the text of an element (a link).
// On a list page, each attribute gets the values of the items it shows,
// in page order (a multi-valued attribute); `partial` is set when the page
// shows entries after the last feed item found on it.
//
// Choices where the rules above leave room (implementation notes):
//   - Title occurrences are ranked by nearness to the item's body first
//     (those before it, then after), the match class (exact, prefix/suffix,
//     truncated, markup) only breaking ties: a sidebar's exact title must
//     not beat the entry's "[Updated] Title". With no body found: class,
//     then alone in its template slot (a sidebar's titles share one), inside
//     <main>/<article>, inside h1-h6, document order. Nodes inside the body
//     never count.
//   - Body: equal texts go to the outermost element (the template's
//     container, not a lone <p>). A summary (the feed's text ends with
//     "[...]"/"…", or the smallest element containing it is much longer and
//     starts with it) is annotated on the largest element whose text still
//     starts with it, walking up from the smallest (first paragraph, then
//     the body's container; the entry's wrapper starts with the title and
//     stops the walk). "Read more" list pages: the element whose text is
//     the longest prefix of the feed's (>= 20 words, or the feed's first
//     whole paragraphs of >= 8 words; at most 40 characters of its own
//     after it, e.g. "… Read more »").
//   - A list page's items are the feed items whose title AND body are found
//     on it: an archive whose sidebar alone repeats the feed's titles is
//     not a list page of them (it would teach the learner the sidebar).
//   - Shared date headers: the header is found for every item under it;
//     the first item (page order) gets it, the others kSharedDate, and the
//     date attribute gets each distinct header once, in page order: the
//     page's date nodes are what a rule must extract, and annotating one
//     node twice would make the learner see a value list the page does not
//     have. Annotating only the first item would also be consistent, but
//     reporting kSharedDate tells feed monitoring not to expect one date
//     per entry there.
//   - Dates inside the body never count; the nearest to the title wins
//     (document order, either side), the more specific rendering on a tie.
//   - Link, author, categories: inside the item's region (from its title to
//     the next item's) nearest the title first, then before the title, then
//     after the region: a list's "Filed under" line of the previous entry is
//     not this entry's.
//   - A page with no item's URL showing exactly one item with its whole
//     body, alone in its title's template slot, is that item's entry page
//     when no page given has its URL (a proxy link without origLink); its
//     link stays kFeedLimitation.
//   - A list page's labels are the leading run of its entries: the titles
//     found must be the first of the titles' template slot, in order; at an
//     entry the matcher missed (not in the feed, or not found) the list is
//     cut and `partial` set, so that no label skips an entry.
//   - On a list page, an attribute is not annotated when one of the
//     entries shown lacks a value the feed gives (not found on the page):
//     an incomplete list would make the missing entry's node a negative.
//     Shared date headers and fields the feed lacks do not count.
//   - On a partial list page the body (an XPath annotation, which cannot be
//     partial) is not annotated: the entries after the last feed item would
//     count against the rule.
// Annotation scopes: values come with `xpath`, the union ("(/a)|(/b)") of
// the matched nodes' elements (for a link, the <a> itself), so that the
// learner looks for them only there.
//
// Thread-safety: pure functions; the Pages must outlive the result.
#ifndef VERTEX_COMMON_FEED_FEED_MATCHER_H_
#define VERTEX_COMMON_FEED_FEED_MATCHER_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/feed/feed.h"
#include "common/html/page.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::feed {

// WTM's Table 6 error codes (0 = found).
enum class WtmError {
  kNone = 0,
  kAbbreviated = 1,          // the page abbreviates the feed's content
  kSharedDate = 2,           // several entries share one date header
  kDifferentTitle = 3,       // the page's title differs from the feed's
  kPartialDescription = 4,   // the feed's description is not the body
  kFeedLimitation = 5,       // the feed lacks the field or cannot be read
  kNoise = 6,                // markup or noise the cleaning did not remove
  kNotSupported = 7,         // e.g. a date format no rendering matches
  kMissingValue = 8,         // the page does not show the value
};

// "found", "abbreviated", "shared_date", "different_title",
// "partial_description", "feed_limitation", "noise", "not_supported",
// "missing_value".
const char* WtmErrorName(WtmError error);

// A URL for comparison: resolved against `base`, scheme and host
// lower-cased, default port, fragment and a trailing slash removed,
// "index.html"/"index.php" kept. "" for a URL that cannot be parsed.
std::string NormalizeUrl(std::string_view url, std::string_view base = "");

// The date as pages commonly show it, most specific first: RFC 822, ISO
// 8601 date, "July 22, 2005", "Jul 22, 2005", "22 July 2005", "Friday,
// July 22, 2005", "07/22/2005", "22/07/2005", "7/22/05", "22.07.2005",
// "2005/07/22", "22nd July 2005", "22.VII.2005" (a Roman month), ...
// then WTM's month-and-year fallbacks ("Jul 2005", "July 2005", "7 05",
// "07 05"). Each is {format name, text}.
struct DateRendering {
  std::string format;
  std::string text;
};
std::vector<DateRendering> RenderDateFormats(const FeedDate& date);

struct FeedMatchOptions {
  // The schema attribute each feed field annotates ("title", "link",
  // "date", "author", "body", "categories"); a field not here is matched
  // and reported but not annotated.
  std::map<std::string, std::string> field_to_attribute = {
      {"title", "title"}, {"link", "link"}, {"date", "date"},
      {"author", "author"}, {"body", "body"}, {"categories", "categories"}};
  // Annotate list pages (home, archives) too, not only entry pages.
  bool list_pages = true;
};

enum class PageKind { kNone, kEntry, kList };

// One (item, field) on one page.
struct FieldMatch {
  std::string item_link;  // the item's permalink (Feed item link)
  std::string field;      // "title", "link", ...
  std::string page_url;
  bool found = false;
  // Why not found (kNone when found).
  WtmError wtm_error = WtmError::kNone;
  // How: "exact", "prefix added by the page: \"[Updated] \"", "truncated
  // to 41 of 60 characters", "typographic quotes folded", "date as July
  // 22, 2005", "href resolved", "feedburner:origLink", "smallest element
  // containing the content", ...; or why not: "2 entries share the date
  // header \"Friday, July 22, 2005\"", "the page shows 180 of the feed's
  // 1,240 characters".
  std::string how;
  // The value annotated and its node (absolute XPath), when found.
  std::string value;
  std::string xpath;
};

struct PageAnnotations {
  std::string url;
  PageKind kind = PageKind::kNone;
  // The feed items the page shows, in page order (indices into
  // Feed.items).
  std::vector<int> items;
  // For LearnRequest.annotations: `url` set, `values` (in page order on a
  // list page) or `xpath` (body), `partial` as the file comment says.
  std::vector<v1::Annotation> annotations;
};

struct FeedMatchResult {
  // Pages that show at least one feed item, in the order given.
  std::vector<PageAnnotations> pages;
  // Every (item, field) looked for on every page of `pages`; and, for an
  // item no page given is the entry page of, one report with page_url ""
  // and field "page" saying so.
  std::vector<FieldMatch> matches;
};

// Whether `value`, what a rule extracted for feed field `field` ("title",
// "link", "date", "author", "body", "categories") on the page at
// `page_url`, agrees with `item`, with the matcher's tolerances (title:
// normalised, prefix/suffix/truncation as above; link: NormalizeUrl of both,
// resolved against page_url, origLink or proxy link; date: contains one of
// RenderDateFormats' full-date renderings, or a <time datetime>-style ISO
// value of the same day; author: one of the item's authors; body: the
// normalised feed text contains the value's or the value contains the
// feed's; categories: one of the item's). How auto-accept (AnnotateFromFeed)
// and feed monitoring judge a rule's output against the feed.
bool ValueMatchesFeed(std::string_view field, std::string_view value, const FeedItem& item,
                      std::string_view page_url);

// Matches `feed`'s items on `pages` (parsed with their URLs).
FeedMatchResult MatchFeed(const Feed& feed, const std::vector<const html::Page*>& pages,
                          const FeedMatchOptions& options = {});

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_FEED_MATCHER_H_
