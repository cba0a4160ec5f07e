// ParseFeedDate: RFC 822 / RFC 2822 and RFC 3339 / W3C-DTF dates.
#include <optional>
#include <string>
#include <string_view>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/time/civil_time.h"
#include "absl/time/time.h"
#include "common/feed/feed.h"
#include "common/feed/feed_input.h"

namespace vertex::feed {
namespace {

// A cursor over the date's text.
struct Scanner {
  std::string_view s;
  size_t pos = 0;

  bool Done() const { return pos >= s.size(); }
  char Peek() const { return Done() ? '\0' : s[pos]; }
  bool Eat(char c) {
    if (Peek() != c) return false;
    ++pos;
    return true;
  }
  void SkipSpace() {
    while (!Done() && absl::ascii_isspace(static_cast<unsigned char>(s[pos]))) ++pos;
  }
  // Up to `max` digits (at least `min`) as a number; nullopt otherwise.
  std::optional<int> Digits(size_t min, size_t max) {
    size_t n = 0;
    int value = 0;
    while (n < max && !Done() && absl::ascii_isdigit(static_cast<unsigned char>(s[pos]))) {
      value = value * 10 + (s[pos++] - '0');
      ++n;
    }
    if (n < min) return std::nullopt;
    return value;
  }
  // Skips digits; how many.
  size_t SkipDigits() {
    const size_t start = pos;
    while (!Done() && absl::ascii_isdigit(static_cast<unsigned char>(s[pos]))) ++pos;
    return pos - start;
  }
  std::string Letters() {
    std::string word;
    while (!Done() && absl::ascii_isalpha(static_cast<unsigned char>(s[pos]))) {
      word += absl::ascii_tolower(static_cast<unsigned char>(s[pos++]));
    }
    return word;
  }
};

// The text quoted in a message, cut at 64 bytes (on a UTF-8 boundary).
std::string Quoted(std::string_view text) {
  size_t end = std::min<size_t>(text.size(), 64);
  while (end < text.size() && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return absl::StrCat("\"", std::string(text.substr(0, end)), end < text.size() ? "...\"" : "\"");
}

absl::Status Unparsable(std::string_view text) {
  return absl::InvalidArgumentError(
      absl::StrCat("feed date ", Quoted(text), " is neither RFC 822 nor RFC 3339"));
}

bool IsLeap(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int DaysInMonth(int year, int month) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return month == 2 && IsLeap(year) ? 29 : kDays[month - 1];
}

// Range checks, then unix_seconds from the civil time and the offset.
absl::StatusOr<FeedDate> Finish(FeedDate date) {
  std::string bad;
  if (date.month < 1 || date.month > 12) {
    bad = absl::StrCat("month ", date.month);
  } else if (date.day < 1 || date.day > DaysInMonth(date.year, date.month)) {
    bad = absl::StrCat("day ", date.day, " of ", date.year, "-", date.month);
  } else if (date.hour > 23) {
    bad = absl::StrCat("hour ", date.hour);
  } else if (date.minute > 59) {
    bad = absl::StrCat("minute ", date.minute);
  } else if (date.second > 60) {
    bad = absl::StrCat("second ", date.second);
  } else if (date.utc_offset_minutes <= -24 * 60 || date.utc_offset_minutes >= 24 * 60) {
    bad = absl::StrCat("zone offset ", date.utc_offset_minutes, " minutes");
  }
  if (!bad.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("feed date ", Quoted(date.raw), ": ", bad, " out of range"));
  }
  const absl::CivilSecond civil(date.year, date.month, date.day, date.hour, date.minute, date.second);
  date.unix_seconds =
      absl::ToUnixSeconds(absl::FromCivil(civil, absl::UTCTimeZone())) - int64_t{date.utc_offset_minutes} * 60;
  return date;
}

// "+hhmm" / "-hhmm" (RFC 822) or "+hh:mm" (RFC 3339) after the sign.
std::optional<int> NumericOffset(Scanner& in, bool colon) {
  const int sign = in.Eat('-') ? -1 : (in.Eat('+') ? 1 : 0);
  if (sign == 0) return std::nullopt;
  std::optional<int> hours = in.Digits(2, 2);
  if (colon && !in.Eat(':')) return std::nullopt;
  std::optional<int> minutes = in.Digits(2, 2);
  if (!hours || !minutes || *minutes > 59) return std::nullopt;
  return sign * (*hours * 60 + *minutes);
}

std::optional<int> ZoneName(std::string_view name) {
  static constexpr std::pair<std::string_view, int> kZones[] = {
      {"ut", 0},       {"utc", 0},      {"gmt", 0},      {"z", 0},        {"est", -300}, {"edt", -240},
      {"cst", -360},   {"cdt", -300},   {"mst", -420},   {"mdt", -360},   {"pst", -480}, {"pdt", -420}};
  for (const auto& [zone, offset] : kZones) {
    if (zone == name) return offset;
  }
  return std::nullopt;
}

std::optional<int> MonthNumber(std::string_view name) {
  static constexpr std::string_view kMonths[] = {"january", "february", "march",     "april",   "may",      "june",
                                                 "july",    "august",   "september", "october", "november", "december"};
  for (int m = 0; m < 12; ++m) {
    if (name.size() == 3 ? kMonths[m].substr(0, 3) == name : kMonths[m] == name) return m + 1;
  }
  if (name == "sept") return 9;
  return std::nullopt;
}

bool IsWeekday(std::string_view name) {
  static constexpr std::string_view kDays[] = {"monday", "tuesday", "wednesday", "thursday",
                                               "friday", "saturday", "sunday"};
  for (std::string_view day : kDays) {
    if (name == day || (name.size() == 3 && day.substr(0, 3) == name)) return true;
  }
  return false;
}

// RFC 2822 section 4.3: 2-digit years 00-49 are 20xx, 50-99 19xx; 3-digit
// years are 1900 + the number.
int FullYear(int year, size_t digits) {
  if (digits == 2) return year < 50 ? 2000 + year : 1900 + year;
  if (digits == 3) return 1900 + year;
  return year;
}

// "hh:mm[:ss]" into date's hour, minute and second (RFC 822 and RFC 3339
// write the time of day alike); *with_seconds says whether ":ss" was there.
bool ParseClock(Scanner& in, FeedDate* date, bool* with_seconds) {
  std::optional<int> hour = in.Digits(2, 2);
  if (!hour || !in.Eat(':')) return false;
  std::optional<int> minute = in.Digits(2, 2);
  if (!minute) return false;
  date->hour = *hour;
  date->minute = *minute;
  *with_seconds = in.Eat(':');
  if (!*with_seconds) return true;
  std::optional<int> second = in.Digits(2, 2);
  if (!second) return false;
  date->second = *second;
  return true;
}

// "[Wkd,] D Mon YYYY hh:mm[:ss] [zone]"; a missing zone reads as UTC.
std::optional<FeedDate> ParseRfc822(std::string_view text) {
  Scanner in{text};
  FeedDate date;
  if (absl::ascii_isalpha(static_cast<unsigned char>(in.Peek()))) {
    if (!IsWeekday(in.Letters())) return std::nullopt;
    in.Eat(',');
    in.SkipSpace();
  }
  std::optional<int> day = in.Digits(1, 2);
  in.SkipSpace();
  std::optional<int> month = MonthNumber(in.Letters());
  in.SkipSpace();
  const size_t year_start = in.pos;
  std::optional<int> year = in.Digits(2, 4);
  if (!day || !month || !year) return std::nullopt;
  date.day = *day;
  date.month = *month;
  date.year = FullYear(*year, in.pos - year_start);
  in.SkipSpace();
  bool with_seconds = false;
  if (!ParseClock(in, &date, &with_seconds)) return std::nullopt;
  in.SkipSpace();
  if (!in.Done()) {
    std::optional<int> offset =
        (in.Peek() == '+' || in.Peek() == '-') ? NumericOffset(in, false) : ZoneName(in.Letters());
    if (!offset) return std::nullopt;
    date.utc_offset_minutes = *offset;
  }
  in.SkipSpace();
  if (!in.Done()) return std::nullopt;
  return date;
}

// "YYYY-MM-DD[(T|t| )hh:mm[:ss[.frac]][Z|+hh:mm]]"; a missing zone reads as
// UTC.
std::optional<FeedDate> ParseRfc3339(std::string_view text) {
  Scanner in{text};
  FeedDate date;
  std::optional<int> year = in.Digits(4, 4);
  if (!year || !in.Eat('-')) return std::nullopt;
  std::optional<int> month = in.Digits(2, 2);
  if (!month || !in.Eat('-')) return std::nullopt;
  std::optional<int> day = in.Digits(2, 2);
  if (!day) return std::nullopt;
  date.year = *year;
  date.month = *month;
  date.day = *day;
  if (in.Done()) {
    date.has_time = false;
    return date;
  }
  if (!in.Eat('T') && !in.Eat('t') && !in.Eat(' ')) return std::nullopt;
  bool with_seconds = false;
  if (!ParseClock(in, &date, &with_seconds)) return std::nullopt;
  if (with_seconds && in.Eat('.') && in.SkipDigits() == 0) return std::nullopt;  // fraction: dropped
  if (in.Eat('Z') || in.Eat('z') || in.Done()) return in.Done() ? std::optional(date) : std::nullopt;
  std::optional<int> offset = NumericOffset(in, true);
  if (!offset || !in.Done()) return std::nullopt;
  date.utc_offset_minutes = *offset;
  return date;
}

}  // namespace

absl::StatusOr<FeedDate> ParseFeedDate(std::string_view text) {
  const std::string_view trimmed = StripSpace(text);
  const bool iso = trimmed.size() >= 5 && absl::ascii_isdigit(static_cast<unsigned char>(trimmed[0])) &&
                   trimmed[4] == '-';
  std::optional<FeedDate> date = iso ? ParseRfc3339(trimmed) : ParseRfc822(trimmed);
  if (!date) return Unparsable(trimmed);
  date->raw = std::string(trimmed);
  return Finish(*std::move(date));
}

}  // namespace vertex::feed
