// The per-field matchers of feed_matcher.h on one indexed page: each looks
// for one feed item's field and says where it is, how it was found, or why
// not (WTM's error classes). MatchFeed calls them per item and page and
// turns their hits into reports and annotations.
//
// Thread-safety: pure functions; the PageIndex must outlive the hits.
#ifndef VERTEX_COMMON_FEED_FIELD_MATCHERS_H_
#define VERTEX_COMMON_FEED_FIELD_MATCHERS_H_

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "common/feed/feed.h"
#include "common/feed/feed_matcher.h"
#include "common/feed/match_text.h"
#include "common/feed/page_index.h"
#include "common/html/page.h"

namespace vertex::feed {

inline constexpr size_t kNoRank = std::numeric_limits<size_t>::max();

// One field's outcome on one page.
struct Hit {
  bool found = false;
  WtmError error = WtmError::kMissingValue;
  std::string how;
  // The value annotated ("" for the body, annotated by XPath).
  std::string value;
  // The node holding the value (a text node or an element); null when not
  // found. For a link, the <a>.
  html::Node node;
  size_t rank = kNoRank;
  size_t end_rank = kNoRank;
};

// An item's body as text: content_html (else description_html) parsed as
// HTML, rendered, normalised for matching, markup remnants stripped.
struct FeedText {
  std::string text;
  size_t words = 0;
  bool from_content = false;  // content:encoded / Atom content
  bool ellipsis = false;      // ended with "[...]" / "…": a summary
  bool remnants = false;      // tags or entities left as text were removed
  // Where the feed's paragraphs (rendered lines) end in `text`, ascending;
  // empty when remnants were stripped (offsets unknown).
  std::vector<size_t> paragraph_ends;
};
FeedText ItemBodyText(const FeedItem& item, html::Parser& parser);

// Where an item's entry sits on the page: its title's rank and, on a list
// page, the next item's title rank (kNoRank on an entry page); fields
// outside [title, region_end) are taken only when none is inside. The
// date looks first in [region_begin, region_end): on a list page
// region_begin is just past the previous item's last matched node (0 for
// the first item and on an entry page), so a date before the title (a
// date header) or after the body (a footer) is the item's own, and only
// when the region holds none is the nearest outside taken (a date header
// shared by the day's entries).
struct ItemPlace {
  const Hit* title = nullptr;
  const Hit* body = nullptr;
  size_t region_end = kNoRank;
  size_t region_begin = 0;
};

// Body: the smallest element containing the feed's text, or the summary
// rule, or (list pages) the "Read more" prefix rule; else
// kPartialDescription / kNoise / kMissingValue (feed_matcher.h).
Hit MatchBody(const PageIndex& index, const FeedText& text, bool list_page);

// Title: exact > prefix/suffix added > truncated > markup; occurrences
// ranked by nearness to `body` (preceding it first) when it is found.
Hit MatchTitle(const PageIndex& index, const FeedItem& item, const Hit& body);

// How `page_text` (normalised) shows `title` (normalised), or -1 when it
// does not: 0 exact, 1 case differs, 2 prefix/suffix added, 3 truncated;
// `*how` says it.
int ClassifyTitle(const MatchText& page_text, const MatchText& title, std::string* how);

Hit MatchDate(const PageIndex& index, const FeedItem& item, const ItemPlace& place);
Hit MatchLink(const PageIndex& index, const FeedItem& item, const ItemPlace& place);
// One hit per feed author / category, in the feed's order.
std::vector<Hit> MatchAuthors(const PageIndex& index, const FeedItem& item, const ItemPlace& place);
std::vector<Hit> MatchCategories(const PageIndex& index, const FeedItem& item, const ItemPlace& place);

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_FIELD_MATCHERS_H_
