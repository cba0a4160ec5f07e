// Fuzz target: feed parsing (feed/feed.h): ParseFeed and ParseFeedDate.
//
// Input: line 1 is the feed's URL (the base of relative links; may be
// empty) and also a date given to ParseFeedDate; the rest is the feed.
//
// Checked beyond "no crash": no Internal/Unknown status; every string out is
// valid UTF-8; no plain-text field (title, link, guid, authors, categories)
// is larger than the input plus 3 times the URL (a link is the URL resolved
// with the feed's references; an invalid byte of the URL becomes U+FFFD), and no HTML field larger than 6 times the input
// (Atom type="text" escaped into HTML: '&' becomes "&amp;"; type="xhtml"
// serialised: '"' in an attribute becomes "&quot;"); at most
// max_items items; a parsed date's fields are in range and its instant is
// its civil time minus its offset.
#include <cstdint>
#include <string>

#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "common/feed/feed.h"
#include "common/util/utf8.h"
#include "tests/fuzz/fuzz_check.h"

namespace {

using namespace vertex;

void CheckText(const std::string& s, size_t bound, const char* what) {
  fuzz::Check(util::IsValidUtf8(s), std::string(what) + " is not valid UTF-8");
  fuzz::Check(s.size() <= bound, std::string(what) + " is larger than the input allows");
}

void CheckDate(const feed::FeedDate& d) {
  fuzz::Check(d.month >= 1 && d.month <= 12 && d.day >= 1 && d.day <= 31, "date out of range: " + d.raw);
  fuzz::Check(d.hour <= 23 && d.minute <= 59 && d.second <= 60, "time out of range: " + d.raw);
  const absl::CivilSecond civil(d.year, d.month, d.day, d.hour, d.minute, d.second);
  const int64_t utc = absl::ToUnixSeconds(absl::FromCivil(civil, absl::UTCTimeZone()));
  fuzz::Check(d.unix_seconds == utc - int64_t{d.utc_offset_minutes} * 60, "unix_seconds is not the civil time: " + d.raw);
  fuzz::Check(util::IsValidUtf8(d.raw), "date raw is not valid UTF-8");
}

void CheckItem(const feed::FeedItem& item, size_t text_bound, size_t html_bound) {
  CheckText(item.title, text_bound, "title");
  CheckText(item.link, text_bound, "link");
  CheckText(item.proxy_link, text_bound, "proxy_link");
  CheckText(item.guid, text_bound, "guid");
  for (const std::string& a : item.authors) CheckText(a, text_bound, "author");
  for (const std::string& c : item.categories) CheckText(c, text_bound, "category");
  CheckText(item.description_html, html_bound, "description_html");
  CheckText(item.content_html, html_bound, "content_html");
  fuzz::Check(util::IsValidUtf8(item.date_error), "date_error is not valid UTF-8");
  fuzz::Check(!item.date.has_value() || item.date_error.empty(), "both a date and a date error");
  if (item.date.has_value()) CheckDate(*item.date);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto [first, xml] = fuzz::CutLine(fuzz::AsView(data, size));
  absl::StatusOr<feed::FeedDate> date = feed::ParseFeedDate(first);
  fuzz::CheckNotInternal(date.status(), "ParseFeedDate");
  if (date.ok()) CheckDate(*date);

  feed::FeedParseOptions options;
  options.url = std::string(first);
  options.max_items = 50;
  absl::StatusOr<feed::Feed> feed = feed::ParseFeed(xml, options);
  fuzz::CheckNotInternal(feed.status(), "ParseFeed");
  if (!feed.ok()) return 0;
  const size_t text_bound = xml.size() + 3 * first.size();  // an invalid URL byte: U+FFFD
  fuzz::Check(feed->items.size() <= options.max_items, "more than max_items items");
  CheckText(feed->title, text_bound, "feed title");
  CheckText(feed->link, text_bound, "feed link");
  for (const feed::FeedItem& item : feed->items) CheckItem(item, text_bound, 6 * xml.size());
  return 0;
}
