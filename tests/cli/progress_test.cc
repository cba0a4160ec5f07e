// vertexctl's progress line (services/vertexctl/progress.h) with a fake
// clock: the line's numbers, redraws at most every 100 ms and at the end,
// the last line ended once, nothing when disabled, the flags.
#include "services/vertexctl/progress.h"

#include <cstdio>
#include <string>

#include "gtest/gtest.h"

namespace vertex::cli {
namespace {

TEST(ProgressLineTest, DoneTotalRateAndTimeLeft) {
  EXPECT_EQ(ProgressLine("extract", 0, 4, 0), "extract: 0/4 pages (0%), 0.0 pages/s, ETA ?");
  EXPECT_EQ(ProgressLine("extract", 3, 4, 2), "extract: 3/4 pages (75%), 1.5 pages/s, ETA 0:01");
  EXPECT_EQ(ProgressLine("x", 100, 4000, 10), "x: 100/4000 pages (2%), 10.0 pages/s, ETA 6:30");
  EXPECT_EQ(ProgressLine("x", 1, 10000, 1), "x: 1/10000 pages (0%), 1.0 pages/s, ETA 2:46:39");
  EXPECT_EQ(ProgressLine("x", 4, 4, 8), "x: 4/4 pages (100%), 0.5 pages/s, ETA 0:00");
  EXPECT_EQ(ProgressLine("x", 0, 0, 0), "x: 0/0 pages (100%), 0.0 pages/s, ETA 0:00");
}

// What a Progress wrote to a temporary file.
std::string Written(std::FILE* f) {
  std::rewind(f);
  std::string out;
  for (int c; (c = std::fgetc(f)) != EOF;) out += static_cast<char>(c);
  return out;
}

TEST(ProgressTest, RedrawsInPlaceAtMostEveryTenthOfASecond) {
  std::FILE* f = std::tmpfile();
  ASSERT_NE(f, nullptr);
  auto now = std::chrono::steady_clock::time_point();
  {
    Progress p("add-pages", 10, true, f, [&] { return now; });
    now += std::chrono::milliseconds(50);
    p.Add(2);  // 50 ms after the first line: not drawn
    now += std::chrono::milliseconds(50);
    p.Add(3);  // 100 ms: drawn
    p.Add(5);  // all done: drawn at once
  }  // the destructor ends the line
  EXPECT_EQ(Written(f),
            "\radd-pages: 0/10 pages (0%), 0.0 pages/s, ETA ?"
            "\radd-pages: 5/10 pages (50%), 50.0 pages/s, ETA 0:00"
            "\radd-pages: 10/10 pages (100%), 100.0 pages/s, ETA 0:00"
            "\radd-pages: 10/10 pages (100%), 100.0 pages/s, ETA 0:00\n");
  std::fclose(f);
}

TEST(ProgressTest, AShorterLineWipesTheLongerOne) {
  std::FILE* f = std::tmpfile();
  auto now = std::chrono::steady_clock::time_point();
  {
    Progress p("x", 100, true, f, [&] { return now; });
    now += std::chrono::milliseconds(100);
    p.Add(1);  // "10.0 pages/s, ETA 0:10"
    now = std::chrono::steady_clock::time_point() + std::chrono::seconds(1);
    p.Add(0);  // "1.0 pages/s, ETA 1:39": one character shorter
  }
  const std::string longer = ProgressLine("x", 1, 100, 0.1), shorter = ProgressLine("x", 1, 100, 1);
  ASSERT_EQ(longer.size(), shorter.size() + 1);
  EXPECT_EQ(Written(f), "\r" + ProgressLine("x", 0, 100, 0) + "\r" + longer + "\r" + shorter + " \r" + shorter + "\n");
  std::fclose(f);
}

TEST(ProgressTest, DisabledWritesNothing) {
  std::FILE* f = std::tmpfile();
  {
    Progress p("x", 3, false, f);
    p.Add(3);
  }
  EXPECT_EQ(Written(f), "");
  std::fclose(f);
}

TEST(ProgressTest, FlagsForceOrSilenceIt) {
  ParsedArgs a;
  a.flags["progress"] = "true";
  EXPECT_TRUE(ProgressEnabled(a).value());
  a.flags["no-progress"] = "true";
  EXPECT_EQ(ProgressEnabled(a).status().code(), absl::StatusCode::kInvalidArgument);
  a.flags.erase("progress");
  EXPECT_FALSE(ProgressEnabled(a).value());
}

}  // namespace
}  // namespace vertex::cli
