#include "common/rule/text_range.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

namespace vertex::rule {
namespace {

v1::TextRange Range(int skip_start, int skip_end, int length, bool anchor_end,
                    v1::TextRange::Unit unit = v1::TextRange::WORDS) {
  v1::TextRange r;
  r.set_skip_start(skip_start);
  r.set_skip_end(skip_end);
  r.set_length(length);
  r.set_anchor_end(anchor_end);
  r.set_unit(unit);
  return r;
}

v1::TextRange Chars(int skip_start, int skip_end, int length, bool anchor_end) {
  return Range(skip_start, skip_end, length, anchor_end, v1::TextRange::CHARACTERS);
}

struct ApplyCase {
  const char* name;
  v1::TextRange range;
  std::string text;
  std::optional<std::string> want;
};

TEST(ApplyTextRange, Table) {
  const std::vector<ApplyCase> cases = {
      {"words: label cut", Range(2, 0, 0, false), "Our Price: $25.99", "$25.99"},
      {"words: normalised first", Range(0, 0, 0, false), "  a \t b ", "a b"},
      {"words: anchored at the end", Range(0, 0, 2, true), "a b c", "b c"},
      {"words: length from the start", Range(1, 0, 1, false), "Price: $5 each", "$5"},
      {"words: too few words", Range(2, 0, 0, false), "Price:", std::nullopt},
      {"words: nothing left between", Range(1, 1, 0, false), "a b", std::nullopt},
      {"words: length longer than the text", Range(0, 0, 3, false), "a b", std::nullopt},
      {"words: negative skip", Range(-1, 0, 0, false), "a b", std::nullopt},
      {"words: a negative length is no length", Range(1, 0, -2, false), "a b c", "b c"},
      {"words: a line break is a word boundary and is kept", Range(1, 0, 0, false), "By:\nAnn Lee\nBo Chen",
       "Ann Lee\nBo Chen"},
      {"characters: currency and suffix", Chars(1, 10, 0, false), "£340.00 (inc VAT)", "340.00"},
      {"characters: code points, not bytes", Chars(1, 0, 0, false), "€13.00", "13.00"},
      {"characters: multi-byte value", Chars(6, 0, 0, false), "Name: Zoë Ångström", "Zoë Ångström"},
      {"characters: anchored at the end", Chars(0, 1, 3, true), "Size: 42½)", "42½"},
      {"characters: length", Chars(4, 0, 5, false), "SKU:A1234 new", "A1234"},
      {"characters: counted on the normalised text", Chars(1, 0, 0, false), "  $\t 12 ", " 12"},
      {"characters: a line break counts as one", Chars(3, 0, 0, false), "ab\ncd", "cd"},
      {"characters: too short", Chars(5, 0, 0, false), "€1.0", std::nullopt},
      {"characters: four-byte code point is one", Chars(1, 0, 0, false), "\xF0\x9F\x93\x9A" "Book", "Book"},
      {"characters: malformed UTF-8 never splits a sequence", Chars(1, 0, 0, false), "\xC3\xA9\xA9x", "x"},
  };
  for (const ApplyCase& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(ApplyTextRange(c.range, c.text), c.want);
  }
}

TEST(NormalizeLines, KeepsLineBreaksBetweenNonBlankLines) {
  EXPECT_EQ(NormalizeLines("  a   b "), "a b");
  EXPECT_EQ(NormalizeLines(" a \n\n  b\tc \n \n"), "a\nb c");
  EXPECT_EQ(NormalizeLines("\n"), "");
}

struct NearestCase {
  const char* name;
  v1::TextRange range;
  std::string pattern;
  std::string text;
  std::optional<std::string> want;
};

v1::TextRange Nearest(v1::TextRange r) {
  r.set_nearest_match(true);
  return r;
}

TEST(NearestMatch, Table) {
  const std::string amount = R"(\d+(?:,\d{3})*\.\d{2})";
  const std::vector<NearestCase> cases = {
      {"the match starting at the offset", Nearest(Chars(8, 0, 0, false)), amount, "Price: £340.00 (inc VAT)",
       "340.00"},
      {"not the leftmost match", Nearest(Chars(14, 0, 0, false)), amount, "Was £50.00 now £40.00", "40.00"},
      {"a match inside a longer one counts", Nearest(Chars(2, 0, 0, false)), amount, "1234.56", "34.56"},
      {"the nearest before the offset", Nearest(Chars(30, 0, 0, false)), R"(\b\d+\.\d{2}\b)",
       "Now £40.00 was £50.00 ok", "50.00"},
      {"words: the offset is a word start", Nearest(Range(3, 0, 0, false)), amount, "Was 50.00 now 40.00", "40.00"},
      {"anchored at the end: match ends compared", Nearest(Range(0, 1, 0, true)), amount, "1.00 or 2.00 each",
       "2.00"},
      {"anchored at the end: a tie goes to the later start", Nearest(Chars(0, 0, 0, true)),
       R"((?:£)?\d+\.\d{2})", "Was £9.99 now £7.49", "7.49"},
      {"the regex's group is the value", Nearest(Chars(0, 0, 0, false)), R"(SKU-(\d+))", "x SKU-12 y SKU-34", "12"},
      {"an offset past the end is taken at the end", Nearest(Chars(99, 0, 0, false)), amount, "1.00 2.00", "2.00"},
      {"a tie goes to the earlier", Nearest(Chars(2, 0, 0, false)), R"(\d)", "1abc2", "1"},
      {"line breaks read as spaces", Nearest(Chars(0, 0, 0, false)), R"(a b)", "a\nb", "a b"},
      {"no match", Nearest(Chars(0, 0, 0, false)), amount, "call us", std::nullopt},
      {"empty matches do not count", Nearest(Chars(0, 0, 0, false)), R"(x*)", "abc", std::nullopt},
      {"multi-byte text", Nearest(Chars(2, 0, 0, false)), R"(\d+)", "€€5 €€77", "5"},
      {"a match beyond the window does not count", Nearest(Chars(0, 0, 0, false)), amount,
       std::string(kNearestMatchWindow + 10, 'x') + " 5.00", std::nullopt},
      {"a match within the window past filler", Nearest(Chars(0, 0, 0, false)), amount,
       std::string(kNearestMatchWindow - 10, 'x') + " 5.00", "5.00"},
      {"a match longer than the limit does not count", Nearest(Chars(0, 0, 0, false)), R"(\d+)",
       std::string(kNearestMatchWindow + kNearestMatchMaxBytes + 10, '7'), std::nullopt},
      // Every start in the digits before the value begins a match running to
      // the end of the run: a search per start cost 3.9 s for 50 KB, the
      // square of the run (about 4 hours for 3 MB); the window bounds it.
      {"a huge digit run before the value", Nearest(Chars(3'000'001, 0, 0, false)), R"([0-9,.]+)",
       std::string(3'000'000, '9') + " 12.50", "12.50"},
  };
  for (const NearestCase& c : cases) {
    SCOPED_TRACE(c.name);
    RE2 re(c.pattern);
    ASSERT_TRUE(re.ok());
    EXPECT_EQ(NearestMatch(c.range, re, c.text), c.want);
  }
}

}  // namespace
}  // namespace vertex::rule
