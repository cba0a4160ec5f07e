// WtmErrorName, NormalizeUrl and RenderDateFormats (feed_matcher.h), and
// the URL forms an item's link compares as (matcher_internal.h).
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/feed/feed_matcher.h"
#include "common/feed/match_text.h"
#include "common/feed/matcher_internal.h"
#include "common/rule/url.h"

namespace vertex::feed {

const char* WtmErrorName(WtmError error) {
  switch (error) {
    case WtmError::kNone: return "found";
    case WtmError::kAbbreviated: return "abbreviated";
    case WtmError::kSharedDate: return "shared_date";
    case WtmError::kDifferentTitle: return "different_title";
    case WtmError::kPartialDescription: return "partial_description";
    case WtmError::kFeedLimitation: return "feed_limitation";
    case WtmError::kNoise: return "noise";
    case WtmError::kNotSupported: return "not_supported";
    case WtmError::kMissingValue: return "missing_value";
  }
  return "unknown";
}

std::string NormalizeUrl(std::string_view url, std::string_view base) {
  absl::StatusOr<std::string> resolved =
      base.empty() ? absl::StatusOr<std::string>(std::string(url)) : rule::ResolveUrl(base, url);
  if (!resolved.ok()) return "";
  std::string_view u = *resolved;
  u = TrimAscii(u);
  const size_t colon = u.find("://");
  if (colon == std::string_view::npos || colon == 0) return "";
  const std::string scheme = AsciiLower(u.substr(0, colon));
  for (char c : scheme) {
    if (!absl::ascii_isalnum(c) && c != '+' && c != '-' && c != '.') return "";
  }
  std::string_view rest = u.substr(colon + 3);
  rest = rest.substr(0, rest.find('#'));
  const size_t path_start = rest.find_first_of("/?");
  std::string host = AsciiLower(rest.substr(0, path_start));
  std::string_view tail = path_start == std::string_view::npos ? "" : rest.substr(path_start);
  if (host.empty()) return "";
  if ((scheme == "http" && absl::EndsWith(host, ":80")) || (scheme == "https" && absl::EndsWith(host, ":443"))) {
    host.resize(host.rfind(':'));
  }
  std::string_view path = tail.substr(0, tail.find('?'));
  std::string_view query = path.size() < tail.size() ? tail.substr(path.size()) : "";
  while (!path.empty() && path.back() == '/') path.remove_suffix(1);
  if (query == "?") query = "";
  return absl::StrCat(scheme, "://", host, std::string(path), std::string(query));
}

namespace internal {

std::string StripTrackingParameters(std::string_view url) {
  const size_t q = url.find('?');
  if (q == std::string_view::npos) return std::string(url);
  std::vector<std::string> kept;
  std::string_view query = url.substr(q + 1);
  while (!query.empty()) {
    const size_t amp = std::min(query.find('&'), query.size());
    const std::string_view param = query.substr(0, amp);
    query.remove_prefix(std::min(amp + 1, query.size()));
    const std::string_view name = param.substr(0, param.find('='));
    if (param.empty() || name.substr(0, 4) == "utm_" || name == "fbclid" || name == "ref") continue;
    kept.emplace_back(param);
  }
  std::string out(url.substr(0, q));
  if (!kept.empty()) absl::StrAppend(&out, "?", absl::StrJoin(kept, "&"));
  return out;
}

std::vector<std::string> ItemUrlForms(const FeedItem& item) {
  std::vector<std::string> forms;
  auto add = [&forms](std::string form) {
    if (form.empty()) return;
    for (const std::string& f : forms) {
      if (f == form) return;
    }
    forms.push_back(std::move(form));
  };
  for (const std::string& link : {item.link, item.proxy_link}) {
    const std::string n = NormalizeUrl(link);
    add(n);
    add(StripTrackingParameters(n));
  }
  return forms;
}

std::string HostOf(std::string_view url) {
  const size_t s = url.find("://");
  if (s == std::string_view::npos) return "";
  url.remove_prefix(s + 3);
  return AsciiLower(url.substr(0, url.find_first_of("/?#")));
}

std::string WeekdayName(const FeedDate& date) {
  static constexpr const char* kNames[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
  int y = date.year;
  static constexpr int kT[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
  if (date.month < 1 || date.month > 12) return "";
  if (date.month < 3) y -= 1;
  return kNames[(y + y / 4 - y / 100 + y / 400 + kT[date.month - 1] + date.day) % 7];
}

bool IsMonthYearFallback(std::string_view format) { return format.substr(0, 10) == "month-year"; }

}  // namespace internal

namespace {

constexpr std::array<const char*, 12> kMonths = {"January", "February", "March",     "April",   "May",      "June",
                                                 "July",    "August",   "September", "October", "November", "December"};
constexpr std::array<const char*, 7> kWeekdays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                  "Thursday", "Friday", "Saturday"};

// 0 = Sunday (Sakamoto's method).
int Weekday(int y, int m, int d) {
  static constexpr int kT[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
  if (m < 3) y -= 1;
  return (y + y / 4 - y / 100 + y / 400 + kT[m - 1] + d) % 7;
}

std::string Ordinal(int d) {
  const char* suffix = (d % 100 >= 11 && d % 100 <= 13) ? "th" : d % 10 == 1 ? "st" : d % 10 == 2 ? "nd" : d % 10 == 3 ? "rd" : "th";
  return absl::StrCat(d, suffix);
}

std::string Rfc822(const FeedDate& t, const std::string& wday3, const std::string& mon3) {
  const int off = t.utc_offset_minutes < 0 ? -t.utc_offset_minutes : t.utc_offset_minutes;
  return absl::StrFormat("%s, %02d %s %04d %02d:%02d:%02d %c%02d%02d", wday3, t.day, mon3, t.year, t.hour, t.minute,
                         t.second, t.utc_offset_minutes < 0 ? '-' : '+', off / 60, off % 60);
}

}  // namespace

std::vector<DateRendering> RenderDateFormats(const FeedDate& t) {
  if (t.month < 1 || t.month > 12 || t.day < 1 || t.day > 31) return {};
  const std::string month = kMonths[t.month - 1], mon3 = month.substr(0, 3);
  const std::string wday = kWeekdays[Weekday(t.year, t.month, t.day)], wday3 = wday.substr(0, 3);
  const int y = t.year, m = t.month, d = t.day, yy = t.year % 100;
  std::vector<DateRendering> out;
  if (t.has_time) out.push_back({"rfc822", Rfc822(t, wday3, mon3)});
  out.push_back({"weekday, month day, year", absl::StrFormat("%s, %s %d, %d", wday, month, d, y)});
  out.push_back({"weekday, day month year", absl::StrFormat("%s, %d %s %d", wday, d, month, y)});
  out.push_back({"wkd, day mon year", absl::StrFormat("%s, %d %s %d", wday3, d, mon3, y)});
  out.push_back({"wkd, mon day, year", absl::StrFormat("%s, %s %d, %d", wday3, mon3, d, y)});
  out.push_back({"iso8601 date", absl::StrFormat("%04d-%02d-%02d", y, m, d)});
  out.push_back({"month dayth, year", absl::StrFormat("%s %s, %d", month, Ordinal(d), y)});
  out.push_back({"month day, year", absl::StrFormat("%s %d, %d", month, d, y)});
  out.push_back({"month day year", absl::StrFormat("%s %d %d", month, d, y)});
  out.push_back({"mon day, year", absl::StrFormat("%s %d, %d", mon3, d, y)});
  out.push_back({"mon. day, year", absl::StrFormat("%s. %d, %d", mon3, d, y)});
  out.push_back({"mon day year", absl::StrFormat("%s %d %d", mon3, d, y)});
  out.push_back({"dayth month year", absl::StrFormat("%s %s %d", Ordinal(d), month, y)});
  out.push_back({"day month year", absl::StrFormat("%d %s %d", d, month, y)});
  out.push_back({"day mon year", absl::StrFormat("%d %s %d", d, mon3, y)});
  out.push_back({"dd-mon-yyyy", absl::StrFormat("%02d-%s-%04d", d, mon3, y)});
  out.push_back({"yyyy/mm/dd", absl::StrFormat("%04d/%02d/%02d", y, m, d)});
  out.push_back({"mm/dd/yyyy", absl::StrFormat("%02d/%02d/%04d", m, d, y)});
  out.push_back({"dd/mm/yyyy", absl::StrFormat("%02d/%02d/%04d", d, m, y)});
  out.push_back({"m/d/yyyy", absl::StrFormat("%d/%d/%04d", m, d, y)});
  out.push_back({"d/m/yyyy", absl::StrFormat("%d/%d/%04d", d, m, y)});
  out.push_back({"m/d/yy", absl::StrFormat("%d/%d/%02d", m, d, yy)});
  out.push_back({"mm/dd/yy", absl::StrFormat("%02d/%02d/%02d", m, d, yy)});
  out.push_back({"dd.mm.yyyy", absl::StrFormat("%02d.%02d.%04d", d, m, y)});
  out.push_back({"d.m.yyyy", absl::StrFormat("%d.%d.%04d", d, m, y)});
  static constexpr std::array<const char*, 12> kRoman = {"I",   "II", "III", "IV", "V",  "VI",
                                                          "VII", "VIII", "IX", "X", "XI", "XII"};
  out.push_back({"d.roman month.yyyy", absl::StrFormat("%d.%s.%04d", d, kRoman[m - 1], y)});
  // WTM's rule 2.2 fallbacks, in its order.
  out.push_back({"month-year mon yyyy", absl::StrFormat("%s %d", mon3, y)});
  out.push_back({"month-year month yyyy", absl::StrFormat("%s %d", month, y)});
  out.push_back({"month-year m yy", absl::StrFormat("%d %02d", m, yy)});
  out.push_back({"month-year mm yy", absl::StrFormat("%02d %02d", m, yy)});
  // One rendering per text (e.g. "m/d/yyyy" equals "mm/dd/yyyy" in
  // December): keep the first, more specific, name.
  std::vector<DateRendering> unique;
  for (DateRendering& r : out) {
    bool seen = false;
    for (const DateRendering& u : unique) seen = seen || u.text == r.text;
    if (!seen) unique.push_back(std::move(r));
  }
  return unique;
}

}  // namespace vertex::feed
