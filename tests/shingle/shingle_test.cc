#include "common/shingle/shingle.h"

#include <cmath>
#include <set>
#include <vector>

#include "common/html/page.h"
#include "common/util/random.h"
#include "gtest/gtest.h"

namespace vertex::shingle {
namespace {

ShingleVector RandomVector(util::Rng& rng) {
  ShingleVector v;
  for (auto& b : v) b = static_cast<uint8_t>(rng.Uniform(256));
  return v;
}

TEST(MaskedVectorTest, TextFormRoundTrips) {
  const ShingleVector v = {0x0a, 0x1f, 0x00, 0x44, 0xff, 0x9c, 0x12, 0x3b};
  EXPECT_EQ(ToText(v), "0a.1f.00.44.ff.9c.12.3b");
  const MaskedVector m(v, 0b00100100);
  EXPECT_EQ(m.ToText(), "0a.1f.*.44.ff.*.12.3b");
  EXPECT_EQ(m.kept(), 6);
  absl::StatusOr<MaskedVector> parsed = MaskedVector::Parse("0a.1f.*.44.FF.*.12.3b");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(*parsed, m);
}

TEST(MaskedVectorTest, ParseRejectsMalformedText) {
  for (const char* bad : {"", "0a.1f", "0a.1f.00.44.ff.9c.12.3b.00", "0a.1f.00.44.ff.9c.12.3g",
                          "0a.1f.00.44.ff.9c.12.3", "0a.1f.00.44.ff.9c.12.**", "0a..00.44.ff.9c.12.3b"}) {
    absl::StatusOr<MaskedVector> m = MaskedVector::Parse(bad);
    ASSERT_FALSE(m.ok()) << bad;
    EXPECT_NE(m.status().message().find("'" + std::string(bad) + "'"), std::string::npos) << m.status();
  }
}

TEST(MaskedVectorTest, CoverMeansEqualOnEveryKeptByte) {
  util::Rng rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const ShingleVector v = RandomVector(rng);
    ShingleVector w = v;
    // Change a random subset of bytes.
    const uint8_t changed = static_cast<uint8_t>(rng.Uniform(256));
    for (int i = 0; i < 8; ++i) {
      if ((changed >> i) & 1) w[i] = static_cast<uint8_t>(w[i] + 1 + rng.Uniform(255));
    }
    const uint8_t wildcards = static_cast<uint8_t>(rng.Uniform(256));
    const MaskedVector m(v, wildcards);
    EXPECT_TRUE(m.Covers(v));
    EXPECT_EQ(m.Covers(w), (changed & ~wildcards) == 0) << m.ToText() << " vs " << ToText(w);
    EXPECT_EQ(MatchingBytes(v, w), 8 - __builtin_popcount(changed));
    // Agreement: kept bytes left unchanged; all kept ones exactly when it covers.
    EXPECT_EQ(m.Agreement(w), __builtin_popcount(static_cast<uint8_t>(~changed & ~wildcards)));
    EXPECT_EQ(m.Agreement(v), m.kept());
    EXPECT_EQ(m.Agreement(w) == m.kept(), m.Covers(w));
  }
}

TEST(MaskedVectorTest, CoveringVectorsAreThe37DistinctVectorsWithAtMostTwoWildcards) {
  util::Rng rng(11);
  const ShingleVector v = RandomVector(rng);
  const auto covering = CoveringVectors(v);
  std::set<std::string> distinct;
  int by_kept[9] = {0};
  for (const MaskedVector& m : covering) {
    EXPECT_TRUE(m.Covers(v));
    distinct.insert(m.ToText());
    by_kept[m.kept()]++;
  }
  EXPECT_EQ(distinct.size(), 37u);
  EXPECT_EQ(by_kept[8], 1);
  EXPECT_EQ(by_kept[7], 8);
  EXPECT_EQ(by_kept[6], 28);
  EXPECT_EQ(covering[0].kept(), 8);
  EXPECT_EQ(covering[1].ToText().substr(0, 2), "*.");
}

TEST(MaskedVectorTest, CoverBetweenMaskedVectorsAndMatch) {
  const ShingleVector v = {1, 2, 3, 4, 5, 6, 7, 8};
  const MaskedVector full(v, 0), one(v, 0b1), two(v, 0b11), other(v, 0b10000000);
  EXPECT_TRUE(one.Covers(full));
  EXPECT_TRUE(two.Covers(one));
  EXPECT_FALSE(one.Covers(two));
  EXPECT_FALSE(one.Covers(other));
  EXPECT_FALSE(other.Covers(one));
  EXPECT_TRUE(two.Matches(one));
  EXPECT_TRUE(one.Matches(two));
  EXPECT_FALSE(one.Matches(other));
  ShingleVector w = v;
  w[0] = 99;
  EXPECT_FALSE(full.Covers(MaskedVector(w, 0)));
  EXPECT_TRUE(one.Covers(MaskedVector(w, 0)));
}

// Two random shingle sets with |A| = |B| = n sharing s elements have Jaccard
// similarity s / (2n - s).
double MatchRate(int n, int shared, int pairs, util::Rng& rng) {
  int matches = 0;
  for (int p = 0; p < pairs; ++p) {
    std::vector<uint64_t> a, b;
    for (int i = 0; i < shared; ++i) {
      const uint64_t x = rng.Next();
      a.push_back(x);
      b.push_back(x);
    }
    for (int i = shared; i < n; ++i) {
      a.push_back(rng.Next());
      b.push_back(rng.Next());
    }
    matches += MatchingBytes(MinHashOfShingleSet(a), MinHashOfShingleSet(b));
  }
  return static_cast<double>(matches) / (8.0 * pairs);
}

TEST(MinHashTest, ByteMatchRateEqualsJaccardPlusChanceCollisions) {
  util::Rng rng(2024);
  const int n = 400, pairs = 500;
  for (int shared : {0, 40, 133, 267, 320, 380, 400}) {
    const double jaccard = static_cast<double>(shared) / (2 * n - shared);
    const double expected = jaccard + (1 - jaccard) / 256.0;  // b-bit minwise hashing, b = 8
    const double rate = MatchRate(n, shared, pairs, rng);
    // Standard error of the rate over 4,000 byte comparisons is at most
    // 0.008; 0.035 is over four standard errors, and an estimator off by
    // more (e.g. 1-byte hashes, whose minimum is 0 on such sets) fails.
    EXPECT_NEAR(rate, expected, 0.035) << "Jaccard " << jaccard;
  }
}

TEST(ShinglerTest, EqualTagSequencesGiveEqualVectorsAndShortPagesStillGetOne) {
  std::vector<uint32_t> seq;
  for (int i = 0; i < 300; ++i) seq.push_back(1 + i % 17);
  EXPECT_EQ(ShingleVectorOf(seq), ShingleVectorOf(seq));
  Shingler reused;
  for (uint32_t t : seq) reused.OnTag(t);
  const ShingleVector first = reused.Finish();
  for (uint32_t t : seq) reused.OnTag(t);
  EXPECT_EQ(reused.Finish(), first);  // Finish() resets
  EXPECT_NE(ShingleVectorOf({1, 2, 3}), ShingleVectorOf({1, 2, 4}));
  EXPECT_EQ(ShingleVectorOf({1, 2, 3}), ShingleVectorOf({1, 2, 3}));
}

TEST(ShinglerTest, ShinglesAreWindowsOfTenTags) {
  // Two sequences that differ only in the order of two windows share all
  // their 10-tag shingles except those crossing the seam, so their vectors
  // agree on most bytes; a sequence of other tags agrees on few.
  util::Rng rng(5);
  std::vector<uint32_t> a, b, c;
  for (int i = 0; i < 2000; ++i) a.push_back(static_cast<uint32_t>(rng.Uniform(40)));
  b.assign(a.begin() + 1000, a.end());
  b.insert(b.end(), a.begin(), a.begin() + 1000);
  for (int i = 0; i < 2000; ++i) c.push_back(100 + static_cast<uint32_t>(rng.Uniform(40)));
  EXPECT_GE(MatchingBytes(ShingleVectorOf(a), ShingleVectorOf(b)), 6);
  EXPECT_LE(MatchingBytes(ShingleVectorOf(a), ShingleVectorOf(c)), 1);
}

TEST(ShinglerTest, ComputedFromTheParsersWalk) {
  std::string list_a = "<ul>", list_b = "<ul>";
  for (int i = 0; i < 30; ++i) list_a += "<li><a href=x>item</a></li>";
  for (int i = 0; i < 12; ++i) list_b += "<li><a href=y>other item</a></li>";
  const std::string chrome_head = "<html><head><title>t</title></head><body><div class=h><a>logo</a></div>";
  html::Parser parser;
  const auto vector_of = [&](const std::string& html) {
    Shingler s;
    EXPECT_TRUE(parser.Parse(html, "u", "", &s).ok());
    return s.Finish();
  };
  // Same template, different list lengths and content: the same shingle set.
  EXPECT_EQ(vector_of(chrome_head + list_a + "</ul></body></html>"),
            vector_of(chrome_head + list_b + "</ul></body></html>"));
  std::string table = "<table>";
  for (int i = 0; i < 30; ++i) table += "<tr><td><span>k</span></td><td><b>v</b></td></tr>";
  EXPECT_LE(MatchingBytes(vector_of(chrome_head + list_a + "</ul></body></html>"),
                          vector_of(chrome_head + table + "</table></body></html>")),
            2);
}

}  // namespace
}  // namespace vertex::shingle

namespace vertex::shingle {
namespace {

TEST(ShinglerTest, InlineFormattingIsLeftOutUnlessAsked) {
  const std::string plain =
      "<html><body><div class=d><p>A long description of the book.</p><p>More.</p></div>"
      "<table><tr><td>k</td><td>v</td></tr></table></body></html>";
  const std::string formatted =
      "<html><body><div class=d><p>A <i>long</i> description of <b>the</b> book.<br></p><p><em>More</em>."
      "</p></div><table><tr><td>k</td><td>v</td></tr></table></body></html>";
  html::Parser parser;
  const auto vector_of = [&](const std::string& page, ShinglerOptions options) {
    Shingler s(options);
    EXPECT_TRUE(parser.Parse(page, "u", "", &s).ok());
    return s.Finish();
  };
  EXPECT_EQ(vector_of(plain, {}), vector_of(formatted, {}));
  ShinglerOptions full;
  full.skip_inline_formatting = false;
  EXPECT_NE(vector_of(plain, full), vector_of(formatted, full));
}

}  // namespace
}  // namespace vertex::shingle
