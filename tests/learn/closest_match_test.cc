// The closest text to a mistyped value (closest_match.h): the bit-parallel
// search against a plain dynamic programme on random strings (patterns of
// one, two and three 64-character blocks), the match and its XPath on a
// page, the edit bound, and the bounded work on a 5 MB page (an operation
// count, not a time).
#include "common/learn/closest_match.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/html/page.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

// Least edit distance from `p` to a substring of `t` (Sellers' DP), ASCII
// letters compared case-insensitively.
size_t ReferenceDistance(const std::string& p, const std::string& t) {
  const auto fold = [](char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c); };
  std::vector<size_t> col(p.size() + 1);
  for (size_t i = 0; i <= p.size(); ++i) col[i] = i;
  size_t best = col[p.size()];
  for (const char c : t) {
    size_t diag = col[0];
    col[0] = 0;
    for (size_t i = 1; i <= p.size(); ++i) {
      const size_t up = col[i];
      col[i] = std::min({diag + (fold(p[i - 1]) == fold(c) ? 0 : 1), up + 1, col[i - 1] + 1});
      diag = up;
    }
    best = std::min(best, col[p.size()]);
  }
  return best;
}

TEST(ClosestMatchTest, BitParallelSearchAgreesWithThePlainProgramme) {
  std::mt19937 rng(16);
  const std::string alphabet = "abcAB";  // small: many near matches
  const auto random_text = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    return s;
  };
  for (const size_t m : {1, 5, 63, 64, 65, 100, 128, 150}) {
    for (int round = 0; round < 20; ++round) {
      const std::string p = random_text(m), t = random_text(1 + rng() % 300);
      ASSERT_EQ(SubstringEditDistance(p, t), ReferenceDistance(p, t)) << "m=" << m << " p=" << p << " t=" << t;
    }
  }
}

// The parser outlives its pages (it owns their arena).
html::Parser& TestParser() {
  static html::Parser* parser = new html::Parser();
  return *parser;
}

html::Page Parse(const std::string& html) { return TestParser().Parse(html, "http://shop.test/p/1").value(); }

TEST(ClosestMatchTest, FindsTheMistypedTitleAndItsElement) {
  const html::Page page = Parse(
      "<html><head><title>Nonexistant Title | Shop</title></head><body><div>Menu</div>"
      "<div><p>About</p><h1>The Nonexistent  Title</h1></div><p>Nonexistent</p></body></html>");
  const ClosestMatchResult r = FindClosestMatch(page, "Nonexistant Title");
  ASSERT_TRUE(r.match.has_value());
  EXPECT_EQ(r.match->text, "Nonexistent Title");
  EXPECT_EQ(r.match->xpath, "/html/body/div[2]/h1");
  EXPECT_EQ(r.match->edits, 1u);
  EXPECT_EQ(r.match->edits, ReferenceDistance("nonexistant title", "the nonexistent title"));
  EXPECT_EQ(r.max_edits, 17u / 3);
  EXPECT_FALSE(r.cut);
  EXPECT_EQ(DescribeNotFound("Nonexistant Title", page.url(), r),
            "\"Nonexistant Title\" is not on page http://shop.test/p/1; closest: \"Nonexistent Title\" at "
            "/html/body/div[2]/h1 (1 edit)");
}

TEST(ClosestMatchTest, AScopedAnnotationSaysWhereItLooked) {
  const html::Page page = Parse("<html><body><h1>Oak Chair</h1><a>Oak Chair reviews</a></body></html>");
  // Looked for in the link (the editor's XPath), the value is in the h1.
  EXPECT_EQ(DescribeNotFound("Oak Chair", page.url(), FindClosestMatch(page, "Oak Chair"), "//a/text()"),
            "\"Oak Chair\" is not in //a/text() on page http://shop.test/p/1; closest: \"Oak Chair\" at /html/body/h1 "
            "(0 edits)");
}

TEST(ClosestMatchTest, CaseAndNonAsciiTextCount) {
  const html::Page page = Parse("<html><body><span>Crème BRÛLÉE set</span></body></html>");
  const ClosestMatchResult r = FindClosestMatch(page, "creme brûlée");
  ASSERT_TRUE(r.match.has_value());
  // è->e; Û, É are not ASCII: compared as they are (2 edits).
  EXPECT_EQ(r.match->edits, 3u);
  EXPECT_EQ(r.match->text, "Crème BRÛLÉE");
}

TEST(ClosestMatchTest, NothingWithinAThirdOfTheValueIsNoMatch) {
  const html::Page page = Parse("<html><body><p>Price: 12.99</p><p>In stock</p></body></html>");
  ClosestMatchResult r = FindClosestMatch(page, "Hardcover edition");
  EXPECT_FALSE(r.match.has_value());
  EXPECT_EQ(r.max_edits, 5u);
  EXPECT_NE(DescribeNotFound("Hardcover edition", page.url(), r).find("nothing on the page within 5 edits"),
            std::string::npos);
  r = FindClosestMatch(page, "ab");  // too short for any edit
  EXPECT_FALSE(r.match.has_value());
  EXPECT_EQ(r.max_edits, 0u);
  EXPECT_EQ(r.work, 0u);
}

// A page of about `bytes` bytes: paragraphs of varied words, and the
// near match at the end.
std::string HugePage(size_t bytes, size_t* text_chars) {
  std::string html = "<html><body>";
  std::mt19937 rng(5);
  const char* words[] = {"lorem", "ipsum", "dolor", "sit", "amet", "vertex", "template", "shop"};
  *text_chars = 0;
  while (html.size() < bytes) {
    std::string p;
    for (int w = 0; w < 12; ++w) p += std::string(w ? " " : "") + words[rng() % 8];
    html += "<p>" + p + "</p>";
    *text_chars += p.size();
  }
  html += "<h2>Nonexistent Title</h2></body></html>";
  *text_chars += 17;
  return html;
}

TEST(ClosestMatchTest, WorkOnAFiveMegabytePageIsOnePassOverItsText) {
  size_t text_chars = 0;
  const std::string html = HugePage(size_t{5} << 20, &text_chars);
  const html::Page page = TestParser().Parse(html, "http://shop.test/huge").value();
  // A value of one block: exactly one step per text character.
  ClosestMatchResult r = FindClosestMatch(page, "Nonexistant Title");
  ASSERT_TRUE(r.match.has_value());
  EXPECT_EQ(r.match->text, "Nonexistent Title");
  EXPECT_EQ(r.work, text_chars);
  // A value of three blocks: three steps per character, never more.
  const std::string long_value(150, 'x');
  r = FindClosestMatch(page, long_value);
  EXPECT_EQ(r.work, 3 * text_chars);
  // A budget cuts the search, and says so.
  ClosestMatchOptions small;
  small.max_work = 100000;
  r = FindClosestMatch(page, "Nonexistant Title", small);
  EXPECT_TRUE(r.cut);
  EXPECT_LE(r.work, small.max_work);
  EXPECT_NE(DescribeNotFound("Nonexistant Title", page.url(), r).find("search cut"), std::string::npos);
  // A value over the length cap is not searched at all.
  r = FindClosestMatch(page, std::string(2000, 'y'));
  EXPECT_TRUE(r.cut);
  EXPECT_EQ(r.work, 0u);
}

}  // namespace
}  // namespace vertex::learn
