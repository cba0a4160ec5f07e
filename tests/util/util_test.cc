#include <set>
#include <string>

#include "common/util/json_writer.h"
#include "common/util/random.h"
#include "common/util/utf8.h"
#include "gtest/gtest.h"

namespace vertex::util {
namespace {

TEST(JsonWriterTest, WritesNestedValuesWithCommasAndEscapes) {
  JsonWriter w;
  w.BeginObject();
  w.Key("s").String("a\"b\\c\n\x01 \xC3\xA9");
  w.Key("list").BeginArray().Int(-1).Uint(2).Double(0.5).Bool(true).Null().EndArray();
  w.Key("empty").BeginObject().EndObject();
  w.Key("nan").Double(0.0 / 0.0);
  w.EndObject();
  EXPECT_EQ(w.str(),
            "{\"s\":\"a\\\"b\\\\c\\n\\u0001 \xC3\xA9\",\"list\":[-1,2,0.5,true,null],"
            "\"empty\":{},\"nan\":null}");
}

TEST(JsonWriterTest, InvalidUtf8BecomesReplacementCharacters) {
  JsonWriter w;
  w.String("a\xFF" "b");
  EXPECT_EQ(w.str(), "\"a\xEF\xBF\xBD" "b\"");
}

TEST(Utf8Test, ValidatesAndRepairs) {
  struct Case {
    std::string in;
    bool valid;
    std::string repaired;
  };
  const std::vector<Case> cases = {
      {"plain", true, "plain"},
      {"\xE2\x82\xAC", true, "\xE2\x82\xAC"},
      {"\xF0\x9F\x98\x80", true, "\xF0\x9F\x98\x80"},
      {"\xC0\xAF", false, "\xEF\xBF\xBD\xEF\xBF\xBD"},          // overlong
      {"\xED\xA0\x80", false, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},  // surrogate
      {"\xE2\x82", false, "\xEF\xBF\xBD"},                      // truncated
      {"a\xFF" "b", false, "a\xEF\xBF\xBD" "b"},
      {"\xF4\x90\x80\x80", false, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"},  // > U+10FFFF
  };
  for (const Case& c : cases) {
    EXPECT_EQ(IsValidUtf8(c.in), c.valid) << c.in;
    EXPECT_EQ(ToValidUtf8(c.in), c.repaired) << c.in;
    EXPECT_TRUE(IsValidUtf8(ToValidUtf8(c.in)));
  }
  // A bad byte or sequence at every offset of a mostly-ASCII string (the
  // 8-byte ASCII skip must stop before it, and at the string's end).
  for (size_t len = 1; len <= 20; ++len) {
    for (size_t at = 0; at < len; ++at) {
      std::string bad(len, 'a');
      bad[at] = '\xFF';
      EXPECT_FALSE(IsValidUtf8(bad)) << len << " " << at;
      std::string good(len, 'a');
      good.replace(at, 1, "\xC3\xA9");  // U+00E9
      EXPECT_TRUE(IsValidUtf8(good)) << len << " " << at;
      EXPECT_FALSE(IsValidUtf8(good.substr(0, at + 1))) << len << " " << at;  // cut inside it
    }
    EXPECT_TRUE(IsValidUtf8(std::string(len, 'a')));
  }
  std::string out;
  AppendUtf8(0x20AC, &out);
  AppendUtf8(0xD800, &out);
  EXPECT_EQ(out, "\xE2\x82\xAC\xEF\xBF\xBD");
}

TEST(RngTest, DeterministicUniformAndInRange) {
  Rng a(5), b(5), c(6);
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    seen.insert(x);
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_NE(Rng(5).Next(), c.Next());
  int counts[10] = {0};
  for (int i = 0; i < 100000; ++i) {
    const int64_t r = a.Range(-3, 6);
    ASSERT_GE(r, -3);
    ASSERT_LE(r, 6);
    counts[r + 3]++;
  }
  for (int n : counts) EXPECT_NEAR(n, 10000, 500);  // ~5 standard deviations
  for (int i = 0; i < 1000; ++i) {
    const double d = a.UnitDouble();
    ASSERT_GE(d, 0.0);
    ASSERT_LT(d, 1.0);
  }
}

}  // namespace
}  // namespace vertex::util
