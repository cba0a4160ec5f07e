// ParseFeedDate: a table of good dates (civil time, offset, instant) and of
// bad ones (the error names the text).
#include <string>

#include "absl/status/status.h"
#include "common/feed/feed.h"
#include "gtest/gtest.h"

namespace vertex::feed {
namespace {

struct GoodDate {
  const char* text;
  int year, month, day, hour, minute, second, offset;
  bool has_time;
  int64_t unix_seconds;
};

TEST(ParseFeedDate, ReadsRfc822AndRfc3339) {
  // Instants computed apart (Python's calendar.timegm): 2005-07-22T20:24:55Z
  // is 1122063895.
  const GoodDate kCases[] = {
      {"Fri, 22 Jul 2005 16:24:55 -0400", 2005, 7, 22, 16, 24, 55, -240, true, 1122063895},
      {"22 Jul 2005 16:24:55 -0400", 2005, 7, 22, 16, 24, 55, -240, true, 1122063895},
      {"Fri, 22 Jul 2005 20:24 GMT", 2005, 7, 22, 20, 24, 0, 0, true, 1122063840},
      {"Fri, 22 jul 2005 16:24:55 EDT", 2005, 7, 22, 16, 24, 55, -240, true, 1122063895},
      {"Fri, 22 JUL 05 13:24:55 PDT", 2005, 7, 22, 13, 24, 55, -420, true, 1122063895},
      {"Wed, 02 Oct 02 08:00:00 EST", 2002, 10, 2, 8, 0, 0, -300, true, 1033563600},
      {"Sat, 1 Jan 99 00:00:00 UT", 1999, 1, 1, 0, 0, 0, 0, true, 915148800},
      {"Sat, 1 Jan 099 00:00:00 Z", 1999, 1, 1, 0, 0, 0, 0, true, 915148800},
      {"  Fri, 22 Jul 2005 20:24:55 +0000\n", 2005, 7, 22, 20, 24, 55, 0, true, 1122063895},
      {"Thu, 22 July 2005 22:54:55 +0230", 2005, 7, 22, 22, 54, 55, 150, true, 1122063895},
      {"Tue, 29 Feb 2000 12:00:00 CST", 2000, 2, 29, 12, 0, 0, -360, true, 951847200},
      {"Sat, 31 Dec 2016 23:59:60 +0000", 2016, 12, 31, 23, 59, 60, 0, true, 1483228800},
      {"2005-07-22T16:24:55-04:00", 2005, 7, 22, 16, 24, 55, -240, true, 1122063895},
      {"2005-07-22T20:24:55Z", 2005, 7, 22, 20, 24, 55, 0, true, 1122063895},
      {"2005-07-22T20:24:55.123456z", 2005, 7, 22, 20, 24, 55, 0, true, 1122063895},
      // Found by the fuzz target: a fraction of more than 9 digits overflowed.
      {"2005-07-22T20:24:55.12345678901234567890+00:00", 2005, 7, 22, 20, 24, 55, 0, true, 1122063895},
      {"2005-07-22t22:54:55+02:30", 2005, 7, 22, 22, 54, 55, 150, true, 1122063895},
      {"2005-07-22T20:24Z", 2005, 7, 22, 20, 24, 0, 0, true, 1122063840},
      {"2005-07-22 20:24:55", 2005, 7, 22, 20, 24, 55, 0, true, 1122063895},
      {"2005-07-22", 2005, 7, 22, 0, 0, 0, 0, false, 1121990400},
      {"2004-02-29", 2004, 2, 29, 0, 0, 0, 0, false, 1078012800},
  };
  for (const GoodDate& c : kCases) {
    absl::StatusOr<FeedDate> date = ParseFeedDate(c.text);
    ASSERT_TRUE(date.ok()) << c.text << ": " << date.status();
    EXPECT_EQ(date->year, c.year) << c.text;
    EXPECT_EQ(date->month, c.month) << c.text;
    EXPECT_EQ(date->day, c.day) << c.text;
    EXPECT_EQ(date->hour, c.hour) << c.text;
    EXPECT_EQ(date->minute, c.minute) << c.text;
    EXPECT_EQ(date->second, c.second) << c.text;
    EXPECT_EQ(date->utc_offset_minutes, c.offset) << c.text;
    EXPECT_EQ(date->has_time, c.has_time) << c.text;
    EXPECT_EQ(date->unix_seconds, c.unix_seconds) << c.text;
  }
}

TEST(ParseFeedDate, KeepsTheTrimmedTextAsRaw) {
  absl::StatusOr<FeedDate> date = ParseFeedDate(" 2005-07-22 ");
  ASSERT_TRUE(date.ok()) << date.status();
  EXPECT_EQ(date->raw, "2005-07-22");
}

TEST(ParseFeedDate, RefusesMalformedAndOutOfRangeDates) {
  const char* kBad[] = {
      "",
      "yesterday",
      "Fri, 22 Jul 2005",                   // no time
      "Fri, 22 Jly 2005 16:24:55 -0400",    // month name
      "Fry, 22 Jul 2005 16:24:55 -0400",    // weekday name
      "Fri, 22 Jul 2005 16:24:55 XYZ",      // zone name
      "Fri, 22 Jul 2005 16:24:55 -04",      // short offset
      "Fri, 22 Jul 2005 16:24:55 -0400 x",  // trailing text
      "Fri, 22 Jul 2005 24:00:00 +0000",    // hour
      "Fri, 22 Jul 2005 16:60:00 +0000",    // minute
      "Fri, 22 Jul 2005 16:24:61 +0000",    // second
      "Fri, 32 Jul 2005 16:24:55 +0000",    // day
      "Tue, 29 Feb 2005 12:00:00 +0000",    // not a leap year
      "Tue, 29 Feb 1900 12:00:00 +0000",    // century, not a leap year
      "2005-13-01",
      "2005-00-10",
      "2005-02-30",
      "2005-04-31T10:00:00Z",
      "2005-07-22T25:00:00Z",
      "2005-07-22T20:24:55+0400",  // RFC 3339 offsets have a colon
      "2005-07-22T20:24:55.Z",     // empty fraction
      "2005-7-22",
      "2005-07",
      "2005-07-22T",
      "2005-07-22T20:24:55+04:60",
  };
  for (const char* text : kBad) {
    absl::StatusOr<FeedDate> date = ParseFeedDate(text);
    ASSERT_FALSE(date.ok()) << "accepted: " << text;
    EXPECT_EQ(date.status().code(), absl::StatusCode::kInvalidArgument) << text;
    EXPECT_NE(date.status().message().find(std::string("\"") + text), std::string::npos)
        << text << " -> " << date.status();
  }
}

TEST(ParseFeedDate, QuotesALongTextCut) {
  const std::string text(1000, '7');
  absl::StatusOr<FeedDate> date = ParseFeedDate(text);
  ASSERT_FALSE(date.ok());
  EXPECT_LT(date.status().message().size(), 200u) << date.status();
}

}  // namespace
}  // namespace vertex::feed
