// A site's syndication feed (RSS 0.9x, RSS 1.0/RDF, RSS 2.0, Atom 1.0) as
// data: the supervisor of WTM (../shared/papers/DIGEST.md section 1), which
// labels the site's pages with no editor (feed_matcher.h), and the oracle of
// feed monitoring.
//
// ParseFeed reads the feed with libxml2's XML parser with no network access
// (XML_PARSE_NONET), no entity substitution, no DTD loading and no external
// entity, and refuses a hostile or broken feed with a clear error rather
// than expanding it: a DOCTYPE declaring entities (billion laughs, external
// entities) is refused before parsing, a document over max_bytes is refused
// unread, and a well-formed document that is no feed says what its root is.
//
// Thread-safety: pure functions; safe to call concurrently.
#ifndef VERTEX_COMMON_FEED_FEED_H_
#define VERTEX_COMMON_FEED_FEED_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/fetch/fetcher.h"

namespace vertex::feed {

enum class FeedFormat {
  kRss09x,  // <rss version="0.91|0.92|0.93|0.94">
  kRss10,   // <rdf:RDF> with the RSS 1.0 namespace (and RDF-only 0.90)
  kRss20,   // <rss version="2.0"> (or no version)
  kAtom10,  // <feed xmlns="http://www.w3.org/2005/Atom">
};

// "rss0.9x", "rss1.0", "rss2.0", "atom1.0".
const char* FeedFormatName(FeedFormat format);

// A date as the feed wrote it: the civil time in the writer's zone and that
// zone's offset, so that the page's rendering ("July 22, 2005", "4:24 PM")
// can be matched in the writer's zone rather than in UTC.
struct FeedDate {
  int year = 0;
  int month = 0;   // 1-12
  int day = 0;     // 1-31
  int hour = 0;    // 0-23
  int minute = 0;
  int second = 0;
  // Minutes east of UTC ("-0400" is -240; "Z", "GMT", "UT" are 0).
  int utc_offset_minutes = 0;
  // False for a date-only value ("2005-07-22"): hour..second are 0.
  bool has_time = true;
  // Seconds since the epoch of the instant (UTC).
  int64_t unix_seconds = 0;
  // The text as the feed gave it.
  std::string raw;
};

// Parses an RFC 822 / RFC 2822 date as RSS writes it ("Fri, 22 Jul 2005
// 16:24:55 -0400"; optional weekday and seconds, 2- or 4-digit year, zone
// names UT GMT Z EST EDT CST CDT MST MDT PST PDT or +-hhmm) or an RFC 3339 /
// W3C-DTF date as Atom and dc:date write it ("2005-07-22T16:24:55-04:00",
// "2005-07-22T20:24Z", "2005-07-22"). InvalidArgument naming the text when it
// is neither or is out of range (month 13, Feb 30, hour 24, second 61).
// Lenient where feeds are: month and weekday names in any case and in full
// ("July", "Friday"; the weekday is not checked against the date), 2-digit
// years as RFC 2822 reads them (00-49: 20xx, 50-99: 19xx), a missing zone
// read as UTC, "t" or " " for "T", fractional seconds dropped. Surrounding
// white space is ignored (raw is the trimmed text).
absl::StatusOr<FeedDate> ParseFeedDate(std::string_view text);

struct FeedItem {
  // Plain text: markup stripped (Atom type="html"/"xhtml" titles), entities
  // decoded, whitespace runs collapsed to one space, trimmed.
  std::string title;
  // The item's permalink, absolute (resolved against xml:base / the feed's
  // URL): feedburner:origLink when the feed gives one (a proxied feed),
  // else RSS <link>, else Atom <link rel="alternate"> (or without rel),
  // else an RSS <guid isPermaLink="true"|absent> that is an http(s) URL.
  std::string link;
  // The feed's own <link> when origLink replaced it (the proxy's URL).
  std::string proxy_link;
  std::string guid;  // RSS <guid>, Atom <id>
  // pubDate, dc:date, Atom published, else Atom updated; absent when the
  // item has none or it cannot be parsed (date_error says why).
  std::optional<FeedDate> date;
  std::string date_error;
  // RSS <author>, dc:creator (each), Atom <author><name> (item's, else the
  // feed's); text. An RSS <author> written "email (Name)" gives the Name.
  std::vector<std::string> authors;
  // RSS <category>, dc:subject, Atom <category term|label>; text.
  std::vector<std::string> categories;
  // HTML as the page would show it: RSS <description> / Atom <summary>
  // (entity-escaped HTML unescaped once, CDATA taken as is, Atom
  // type="text" escaped into HTML), and content:encoded / Atom <content>
  // (the full body when the feed has it). Empty when absent.
  std::string description_html;
  std::string content_html;
};

struct Feed {
  FeedFormat format = FeedFormat::kRss20;
  std::string title;
  // The site's home page as the feed names it (channel <link>, Atom
  // <link rel="alternate">), absolute.
  std::string link;
  // The URL the feed was read from (FeedParseOptions.url), "" for bytes.
  std::string url;
  // In document order (the feed's, usually newest first).
  std::vector<FeedItem> items;
};

struct FeedParseOptions {
  // The feed's URL: the base of relative links (with xml:base over it).
  std::string url;
  // Larger documents are ResourceExhausted, not parsed.
  size_t max_bytes = size_t{16} << 20;
  // Items past this are dropped (Feed keeps the first ones).
  size_t max_items = 10000;
};

// Parses `xml` (any encoding libxml2 detects; UTF-8 out). Errors:
//   ResourceExhausted  over max_bytes ("feed larger than N bytes")
//   InvalidArgument    not well-formed XML (libxml2's message, line and
//                      column); a DOCTYPE whose internal subset declares
//                      entities ("feed declares entities in its DTD:
//                      refused"); a root that is no feed ("not a feed: root
//                      element <html>"); an empty input.
// A DOCTYPE with only an external identifier (RSS 0.91's Netscape DTD) is
// accepted and never loaded; the HTML named entities such feeds use
// (&nbsp; &eacute; ...) read as their characters.
absl::StatusOr<Feed> ParseFeed(std::string_view xml, const FeedParseOptions& options = {});

// Fetches `url` with `fetcher` (robots.txt and politeness are the
// fetcher's) and parses it with options.url = the final URL. The fetch's
// errors as the fetcher gives them, prefixed "feed URL: ".
absl::StatusOr<Feed> FetchFeed(fetch::Fetcher& fetcher, const std::string& url, FeedParseOptions options = {});

}  // namespace vertex::feed

#endif  // VERTEX_COMMON_FEED_FEED_H_
