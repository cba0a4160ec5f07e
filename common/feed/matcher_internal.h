// Helpers of the feed matcher shared by its files (not part of its API).
//
// Thread-safety: pure functions.
#ifndef VERTEX_COMMON_FEED_MATCHER_INTERNAL_H_
#define VERTEX_COMMON_FEED_MATCHER_INTERNAL_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/feed/feed.h"
#include "common/feed/feed_matcher.h"

namespace vertex::feed::internal {

// `url` (normalised) without the tracking query parameters utm_*, fbclid
// and ref; the query dropped when nothing else is left.
std::string StripTrackingParameters(std::string_view url);

// The normalised forms an item's link compares as: NormalizeUrl of link and
// proxy_link, and of each without tracking parameters (no duplicates, no "").
std::vector<std::string> ItemUrlForms(const FeedItem& item);

// The host (and port) of an absolute URL, lower-cased; "" for another.
std::string HostOf(std::string_view url);

// The date's weekday in English ("Friday"); "" for a month out of range.
std::string WeekdayName(const FeedDate& date);

// Whether a RenderDateFormats format is one of WTM's month-and-year
// fallbacks (they name no day).
bool IsMonthYearFallback(std::string_view format);

}  // namespace vertex::feed::internal

#endif  // VERTEX_COMMON_FEED_MATCHER_INTERNAL_H_
