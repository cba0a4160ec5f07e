#include "common/urlpattern/url_regex.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/util/file.h"
#include "common/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::urlpattern {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// ------------------------------------------------------------------ Helpers

std::string Learn(const std::vector<std::string>& urls,
                  const UrlRegexOptions& options = {}) {
  absl::StatusOr<std::string> pattern = InferUrlRegex(urls, options);
  EXPECT_TRUE(pattern.ok()) << pattern.status() << "\nurls:\n"
                            << absl::StrJoin(urls, "\n");
  return pattern.ok() ? *pattern : "(?!)";
}

bool FullMatch(std::string_view url, const std::string& pattern) {
  const re2::RE2 re(pattern);
  EXPECT_TRUE(re.ok()) << pattern << ": " << re.error();
  return re2::RE2::FullMatch(url, re);
}

// Every URL of `urls` fully matches `pattern`, or not one does.
void ExpectMatchesEach(const std::string& pattern,
                       const std::vector<std::string>& urls, bool expected,
                       const std::string& context) {
  const re2::RE2 re(pattern);
  ASSERT_TRUE(re.ok()) << pattern << ": " << re.error();
  for (const std::string& url : urls) {
    EXPECT_EQ(re2::RE2::FullMatch(url, re), expected)
        << context << "\npattern: " << pattern << "\nurl:     " << url;
  }
}

const std::vector<const char*> kWords = {
    "blue",  "red",   "green", "cotton", "shirt", "hat",  "sock",  "wool",
    "linen", "black", "white", "boot",   "scarf", "coat", "jeans", "dress"};

std::string Word(util::Rng& rng) { return kWords[rng.Uniform(kWords.size())]; }

std::string Number(util::Rng& rng, int64_t lo, int64_t hi) {
  return std::to_string(rng.Range(lo, hi));
}

std::string Slug(util::Rng& rng) {
  std::string out = Word(rng);
  for (int i = rng.Range(0, 2); i > 0; --i)
    absl::StrAppend(&out, "-", Word(rng));
  return out;
}

std::vector<std::string> Generate(util::Rng& rng, int count,
                                  std::string (*make)(util::Rng&)) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(make(rng));
  return out;
}

// ------------------------------------------- A demo shop's four templates

std::string ProductUrl(util::Rng& rng) {
  std::string url = absl::StrCat("http://www.demo-shop.com/p/", Slug(rng), "-",
                                 Number(rng, 1, 999999), ".html");
  if (rng.Bernoulli(0.4)) {
    absl::StrAppend(&url, "?ref=", Word(rng), "&color=", Word(rng));
  }
  return url;
}

std::string CategoryUrl(util::Rng& rng) {
  std::string url =
      absl::StrCat("http://www.demo-shop.com/c/", Slug(rng),
                   "?page=", Number(rng, 1, 40), "&sort=", Word(rng));
  if (rng.Bernoulli(0.3)) url += "&view=list";
  return url;
}

std::string ReviewsUrl(util::Rng& rng) {
  return absl::StrCat("http://www.demo-shop.com/reviews/",
                      Number(rng, 1, 999999), "?page=", Number(rng, 1, 9));
}

std::string StoreUrl(util::Rng& rng) {
  return absl::StrCat("http://www.demo-shop.com/stores/", Slug(rng), "/",
                      Number(rng, 1, 9999));
}

std::string IsbnUrl(util::Rng& rng) {
  return absl::StrCat("http://www.booksamillion.com/product/978",
                      Number(rng, 1000000000, 1999999999));
}

// ----------------------------------------------------------- Golden patterns

struct GoldenCase {
  const char* name;
  std::vector<std::string> urls;
  std::string pattern;
};

const GoldenCase kGoldenCases[] = {
    {"single_isbn",
     {"http://www.booksamillion.com/product/9780316125581"},
     R"((?i:http://www\.booksamillion\.com)/product/[0-9]+(?:#.*)?)"},
    {"isbns_keep_no_978",
     {"http://www.booksamillion.com/product/9780316125581",
      "http://www.booksamillion.com/product/9781420106879"},
     R"((?i:http://www\.booksamillion\.com)/product/[0-9]+(?:#.*)?)"},
    {"swde_file",
     {"file:///data/swde/book/booksamillion/0001.htm"},
     R"((?i:file://)/data/swde/book/booksamillion/[0-9]+\.htm(?:#.*)?)"},
    {"literal_prefix_and_suffix",
     {"http://shop.com/product-123.html", "http://shop.com/product-45.html"},
     R"((?i:http://shop\.com)/product-[0-9]+\.html(?:#.*)?)"},
    {"word_then_number",
     {"http://x.com/page", "http://x.com/page2", "http://x.com/page10"},
     R"((?i:http://x\.com)/page[0-9]*(?:#.*)?)"},
    {"no_cut_inside_a_number",
     {"http://x.com/item12", "http://x.com/item13"},
     R"((?i:http://x\.com)/item[0-9]+(?:#.*)?)"},
    {"slugs",
     {"http://x.com/p/blue-shirt-12", "http://x.com/p/red-hat-7"},
     R"((?i:http://x\.com)/p/[0-9a-z\-]+(?:#.*)?)"},
    {"constant_digits_seen_twice",
     {"http://x.com/api/v2/items/1", "http://x.com/api/v2/items/2"},
     R"((?i:http://x\.com)/api/v2/items/[0-9]+(?:#.*)?)"},
    {"trailing_slash_optional",
     {"http://x.com/a/", "http://x.com/a"},
     R"((?i:http://x\.com)/a/?(?:#.*)?)"},
    {"path_shapes_alternated",
     {"http://x.com/", "http://x.com/a/1", "http://x.com/a/2/b"},
     R"((?i:http://x\.com)(?:/|/a/[0-9]+|/a/[0-9]+/b)(?:#.*)?)"},
    {"uppercase_host_and_path",
     {"HTTP://WWW.X.COM/Foo"},
     R"((?i:http://www\.x\.com)/Foo(?:#.*)?)"},
    {"fragment_ignored",
     {"http://x.com/a#top"},
     R"((?i:http://x\.com)/a(?:#.*)?)"},
    {"port_kept",
     {"http://localhost:8080/x"},
     R"((?i:http://localhost:8080)/x(?:#.*)?)"},
    {"hosts_generalised",
     {"http://www.x.com/a", "https://m.x.com/a"},
     R"((?i:https?://[a-z]+\.x\.com)/a(?:#.*)?)"},
    {"percent_encoded",
     {"http://x.com/s/caf%C3%A9", "http://x.com/s/na%20me"},
     R"((?i:http://x\.com)/s/[0-9a-zA-Z%]+(?:#.*)?)"},
    {"non_ascii",
     {"http://x.com/s/café", "http://x.com/s/tea"},
     R"((?i:http://x\.com)/s/[a-z\x{80}-\x{10FFFF}]+(?:#.*)?)"},
    {"empty_query_values",
     {"http://x.com/s?a=&b=1", "http://x.com/s?a=x&b=22"},
     R"((?i:http://x\.com)/s\?a=[a-z]*&b=[0-9]*(?:#.*)?)"},
    {"query_value_constant_in_few_urls_generalised",
     {"http://x.com/s?sort=price&id=1", "http://x.com/s?sort=price&id=2",
      "http://x.com/s?sort=price&id=3"},
     R"((?i:http://x\.com)/s\?sort=[a-z]*&id=[0-9]*(?:#.*)?)"},
    {"query_value_constant_in_five_urls_literal",
     {"http://x.com/s?view=full&id=1", "http://x.com/s?view=full&id=2",
      "http://x.com/s?view=full&id=3", "http://x.com/s?view=full&id=4",
      "http://x.com/s?view=full&id=5"},
     R"((?i:http://x\.com)/s\?view=full&id=[0-9]*(?:#.*)?)"},
    {"optional_query_names",
     {"http://x.com/s?id=1", "http://x.com/s?id=2&page=3",
      "http://x.com/s?id=3&ref=mail"},
     R"((?i:http://x\.com)/s\?id=[0-9]*(?:&page=[0-9]*)?(?:&ref=[a-z]*)?(?:#.*)?)"},
    {"optional_query",
     {"http://x.com/s", "http://x.com/t?page=2"},
     R"((?i:http://x\.com)/[a-z]+(?:[?&]page=[0-9]*)?(?:#.*)?)"},
    {"conflicting_query_orders",
     {"http://x.com/s?a=1&b=x", "http://x.com/s?b=y&a=2"},
     R"((?i:http://x\.com)/s\?(?:a=[0-9]*|b=[a-z]*)(?:&(?:a=[0-9]*|b=[a-z]*))*(?:#.*)?)"},
    {"repeated_query_name",
     {"http://x.com/s?tag=a&tag=b"},
     R"((?i:http://x\.com)/s\?tag=[a-z]*(?:&tag=[a-z]*)*(?:#.*)?)"},
    {"query_name_with_single_url_digits",
     {"http://x.com/s?12345"},
     R"((?i:http://x\.com)/s(?:\?[^#]*)?(?:#.*)?)"},
};

class GoldenTest : public testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, InfersPattern) {
  const GoldenCase& c = GetParam();
  const std::string pattern = Learn(c.urls);
  EXPECT_EQ(pattern, c.pattern) << "urls:\n" << absl::StrJoin(c.urls, "\n");
  ExpectMatchesEach(pattern, c.urls, true, c.name);
}

INSTANTIATE_TEST_SUITE_P(UrlRegex, GoldenTest, testing::ValuesIn(kGoldenCases),
                         [](const auto& info) { return info.param.name; });

// ------------------------------------------------------ Shapes and behaviour

struct ShapeCase {
  const char* name;
  std::vector<std::string> learn;
  std::vector<std::string> matches;
  std::vector<std::string> rejects;
};

const ShapeCase kShapeCases[] = {
    {"single_url_does_not_freeze_its_id",
     {"http://x.com/product/12345"},
     {"http://x.com/product/9", "http://x.com/product/99999999"},
     {"http://x.com/category/12345", "http://x.com/product/12345/reviews",
      "http://x.com/product/abc", "http://x.com/product/"}},
    {"single_file_url_does_not_freeze_its_name",
     {"file:///data/swde/book/site/0001.htm"},
     {"file:///data/swde/book/site/1999.htm",
      "file:///data/swde/book/site/0001.htm#x"},
     {"file:///data/swde/book/site/a.htm",
      "file:///data/swde/book/other/0001.htm",
      "file:///data/swde/book/site/0001.html"}},
    {"trailing_slash",
     {"http://x.com/a/1/", "http://x.com/a/2"},
     {"http://x.com/a/3/", "http://x.com/a/3"},
     {"http://x.com/a/3//", "http://x.com/a/"}},
    {"empty_query_values",
     {"http://x.com/s?a=&b=1", "http://x.com/s?a=x&b=2"},
     {"http://x.com/s?a=&b=", "http://x.com/s?a=yy&b=3"},
     {"http://x.com/s?b=1&a=", "http://x.com/s", "http://x.com/s?a=1"}},
    {"unseen_combination_of_optional_parameters",
     {"http://x.com/s?id=1", "http://x.com/s?id=2&page=3",
      "http://x.com/s?id=3&ref=mail"},
     {"http://x.com/s?id=4&page=2&ref=home", "http://x.com/s?id="},
     {"http://x.com/s?page=2", "http://x.com/s?id=1&other=2",
      "http://x.com/s"}},
    {"scheme_and_host_case_insensitive_path_not",
     {"HTTP://X.COM/A/1"},
     {"http://x.com/A/2", "Http://X.com/A/3"},
     {"http://x.com/a/2"}},
    {"percent_encoded",
     {"http://x.com/s/caf%C3%A9", "http://x.com/s/na%20me"},
     {"http://x.com/s/%E2%82%AC", "http://x.com/s/a%2fb"},
     {"http://x.com/s/a b", "http://x.com/s/a/b"}},
    {"duplicates_count_once",
     {"http://x.com/p/123", "http://x.com/p/123#reviews", "HTTP://X.com/p/123"},
     {"http://x.com/p/4567"},
     {"http://x.com/p/abc"}},
    {"no_query_learnt_none_allowed",
     {"http://x.com/p/1", "http://x.com/p/2"},
     {"http://x.com/p/3#reviews"},
     {"http://x.com/p/3?x=1"}},
};

class ShapeTest : public testing::TestWithParam<ShapeCase> {};

TEST_P(ShapeTest, MatchesAndRejects) {
  const ShapeCase& c = GetParam();
  const std::string pattern = Learn(c.learn);
  ExpectMatchesEach(pattern, c.learn, true, "learnt URL");
  ExpectMatchesEach(pattern, c.matches, true, "same shape");
  ExpectMatchesEach(pattern, c.rejects, false, "other shape");
}

INSTANTIATE_TEST_SUITE_P(UrlRegex, ShapeTest, testing::ValuesIn(kShapeCases),
                         [](const auto& info) { return info.param.name; });

// --------------------------------------------------- Generalising a site

struct Template {
  const char* name;
  std::string (*make)(util::Rng&);
};

const Template kShopTemplates[] = {{"product", ProductUrl},
                                   {"category", CategoryUrl},
                                   {"reviews", ReviewsUrl},
                                   {"store", StoreUrl}};

TEST(UrlRegexTest, GeneralisesToHeldOutUrlsAndSeparatesTemplates) {
  util::Rng rng(7);
  for (const Template& learnt : kShopTemplates) {
    const std::string pattern = Learn(Generate(rng, 20, learnt.make));
    for (const Template& other : kShopTemplates) {
      const bool same = &other == &learnt;
      ExpectMatchesEach(
          pattern, Generate(rng, 200, other.make), same,
          absl::StrCat("learnt from ", learnt.name, ", held-out ", other.name));
    }
  }
}

TEST(UrlRegexTest, SiteMatcherRoutesEachUrlToItsTemplate) {
  util::Rng rng(8);
  std::vector<std::string> patterns;
  for (const Template& t : kShopTemplates) {
    patterns.push_back(Learn(Generate(rng, 20, t.make)));
  }
  absl::StatusOr<UrlMatcher> matcher = UrlMatcher::Create(patterns);
  ASSERT_TRUE(matcher.ok()) << matcher.status();
  for (int t = 0; t < 4; ++t) {
    for (const std::string& url : Generate(rng, 100, kShopTemplates[t].make)) {
      EXPECT_THAT(matcher->Match(url), ElementsAre(t)) << url;
    }
  }
  EXPECT_THAT(matcher->Match("http://www.demo-shop.com/about"), IsEmpty());
}

TEST(UrlRegexTest, ManyIsbnsGiveOnePatternMatchingThemAll) {
  util::Rng rng(9);
  const std::vector<std::string> urls = Generate(rng, 500, IsbnUrl);
  const std::string pattern = Learn(urls);
  EXPECT_EQ(pattern,
            R"((?i:http://www\.booksamillion\.com)/product/[0-9]+(?:#.*)?)");
  ExpectMatchesEach(pattern, urls, true, "learnt");
  // All learnt ISBNs start with 978; the pattern must not freeze that.
  ExpectMatchesEach(pattern,
                    {"http://www.booksamillion.com/product/9791032305690"},
                    true, "979 ISBN");
}

// ------------------------------------------------- Random clusters (property)

// A randomly drawn URL template: each URL fills its variable parts afresh.
enum class Part {
  kWord,
  kNumber,
  kSlugId,
  kHex,
  kMixedCase,
  kPercent,
  kUnicode,
  kFileName,
  kEmpty,
  kCount
};

std::string Fill(Part part, util::Rng& rng) {
  switch (part) {
    case Part::kWord:
      return Word(rng);
    case Part::kNumber:
      return Number(rng, 0, 9999999);
    case Part::kSlugId:
      return absl::StrCat(Slug(rng), "-", Number(rng, 1, 99999));
    case Part::kHex: {
      std::string hex;
      for (int i = 0; i < 10; ++i)
        hex.push_back("0123456789abcdef"[rng.Uniform(16)]);
      hex[rng.Uniform(10)] = static_cast<char>('0' + rng.Uniform(10));
      hex[0] = static_cast<char>('a' + rng.Uniform(6));
      return hex;
    }
    case Part::kMixedCase: {
      std::string w = Word(rng) + Word(rng);
      w[0] = static_cast<char>(w[0] - 'a' + 'A');
      return w;
    }
    case Part::kPercent:
      return absl::StrCat(Word(rng), "%20", Word(rng),
                          rng.Bernoulli(0.5) ? "%C3%A9" : "");
    case Part::kUnicode:
      return absl::StrCat(Word(rng), "-caf\xC3\xA9-", Word(rng));
    case Part::kFileName:
      return absl::StrCat(Number(rng, 1000, 9999), ".htm");
    case Part::kEmpty:
    case Part::kCount:
      return "";
  }
  return "";
}

struct SegmentSpec {
  bool constant;
  std::string literal;  // When constant.
  Part part;            // Otherwise.
};

struct ParamSpec {
  std::string name;
  double presence;  // 1 = always present.
  bool constant;
  Part part;
};

struct RandomTemplate {
  std::vector<std::string> authorities;  // "http://www.x.com", one per URL.
  std::vector<SegmentSpec> segments;
  double extra_segment = 0;  // Probability of one more numeric segment.
  int trailing_slash = 0;    // 0 never, 1 always, 2 sometimes.
  std::vector<ParamSpec> params;
  bool shuffle_params = false;
  double fragment = 0;
};

Part RandomPart(util::Rng& rng) {
  return static_cast<Part>(rng.Uniform(static_cast<int>(Part::kCount)));
}

RandomTemplate MakeTemplate(util::Rng& rng) {
  RandomTemplate t;
  const std::string host = absl::StrCat(Word(rng), "-", Word(rng), ".com");
  t.authorities = {"http://www." + host};
  if (rng.Bernoulli(0.2)) t.authorities.push_back("https://m." + host);
  if (rng.Bernoulli(0.1)) t.authorities = {"file://"};
  for (int i = rng.Range(0, 5); i > 0; --i) {
    const bool constant = rng.Bernoulli(0.5);
    t.segments.push_back({constant, rng.Bernoulli(0.2) ? "v2" : Word(rng),
                          constant ? Part::kWord : RandomPart(rng)});
  }
  t.extra_segment = rng.Bernoulli(0.2) ? 0.5 : 0;
  t.trailing_slash = static_cast<int>(rng.Uniform(3));
  for (int i = rng.Range(0, 4); i > 0; --i) {
    t.params.push_back({std::string("k") + static_cast<char>('a' + i),
                        rng.Bernoulli(0.5) ? 1.0 : 0.3 + 0.4 * rng.UnitDouble(),
                        rng.Bernoulli(0.2), RandomPart(rng)});
  }
  t.shuffle_params = rng.Bernoulli(0.2);
  t.fragment = rng.Bernoulli(0.2) ? 0.5 : 0;
  return t;
}

std::string MakeUrl(const RandomTemplate& t, util::Rng& rng) {
  std::string url = t.authorities[rng.Uniform(t.authorities.size())];
  for (const SegmentSpec& s : t.segments) {
    absl::StrAppend(&url, "/", s.constant ? s.literal : Fill(s.part, rng));
  }
  if (rng.Bernoulli(t.extra_segment))
    absl::StrAppend(&url, "/", Number(rng, 1, 99));
  if (t.trailing_slash == 1 || (t.trailing_slash == 2 && rng.Bernoulli(0.5)))
    url += "/";
  std::vector<std::string> pairs;
  for (const ParamSpec& p : t.params) {
    if (!rng.Bernoulli(p.presence)) continue;
    pairs.push_back(p.name + "=" + (p.constant ? "full" : Fill(p.part, rng)));
  }
  if (t.shuffle_params) {
    for (size_t i = pairs.size(); i > 1; --i)
      std::swap(pairs[i - 1], pairs[rng.Uniform(i)]);
  }
  if (!pairs.empty()) absl::StrAppend(&url, "?", absl::StrJoin(pairs, "&"));
  if (rng.Bernoulli(t.fragment)) absl::StrAppend(&url, "#", Word(rng));
  return url;
}

std::string Describe(const std::vector<std::string>& urls) {
  return absl::StrCat("learnt from:\n", absl::StrJoin(urls, "\n"));
}

TEST(UrlRegexPropertyTest, RandomClustersMatchEveryUrlAndHeldOutOnes) {
  util::Rng rng(2024);
  for (int cluster = 0; cluster < 400; ++cluster) {
    const RandomTemplate t = MakeTemplate(rng);
    std::vector<std::string> urls;
    const int n = cluster % 4 == 0 ? static_cast<int>(rng.Range(1, 5)) : 40;
    for (int i = 0; i < n; ++i) urls.push_back(MakeUrl(t, rng));
    const std::string pattern = Learn(urls);
    EXPECT_LE(pattern.size(), UrlRegexOptions().max_regex_bytes);
    ExpectMatchesEach(pattern, urls, true, Describe(urls));
    if (n < 40) continue;  // Few URLs legitimately freeze words.
    std::vector<std::string> held_out;
    for (int i = 0; i < 100; ++i) held_out.push_back(MakeUrl(t, rng));
    ExpectMatchesEach(pattern, held_out, true, Describe(urls));
    if (HasFailure()) return;  // One failing cluster is enough to read.
  }
}

TEST(UrlRegexPropertyTest, DeterministicAndOrderIndependentMatching) {
  util::Rng rng(77);
  for (int cluster = 0; cluster < 50; ++cluster) {
    const RandomTemplate t = MakeTemplate(rng);
    std::vector<std::string> urls;
    for (int i = 0; i < 20; ++i) urls.push_back(MakeUrl(t, rng));
    const std::string pattern = Learn(urls);
    EXPECT_EQ(Learn(urls), pattern);
    std::vector<std::string> reversed(urls.rbegin(), urls.rend());
    ExpectMatchesEach(Learn(reversed), urls, true, Describe(urls));
  }
}

// Random printable text: every ASCII punctuation character (regex
// metacharacters included), letters, digits, spaces and some non-ASCII.
std::string Noise(util::Rng& rng, std::string_view exclude) {
  constexpr std::string_view kExtra[] = {"\xC3\xA9", "\xE2\x82\xAC", "%2F",
                                         " "};
  std::string out;
  for (int i = rng.Range(0, 8); i > 0; --i) {
    if (rng.Bernoulli(0.1)) {
      out += kExtra[rng.Uniform(std::size(kExtra))];
      continue;
    }
    const char c = static_cast<char>(rng.Range(0x21, 0x7e));
    if (exclude.find(c) == std::string_view::npos) out.push_back(c);
  }
  return out;
}

std::string NoisyUrl(util::Rng& rng) {
  std::string url = rng.Bernoulli(0.5) ? "http://" : "FILE://";
  url += Noise(rng, "/?#");
  if (url == "http://") url += "h";
  for (int i = rng.Range(0, 4); i > 0; --i)
    absl::StrAppend(&url, "/", Noise(rng, "/?#"));
  if (rng.Bernoulli(0.7)) absl::StrAppend(&url, "?", Noise(rng, "#"));
  if (rng.Bernoulli(0.3)) absl::StrAppend(&url, "#", Noise(rng, ""));
  return url;
}

TEST(UrlRegexPropertyTest, PunctuationHeavyUrlsAreQuotedCorrectly) {
  util::Rng rng(31);
  for (int cluster = 0; cluster < 500; ++cluster) {
    const std::vector<std::string> urls =
        Generate(rng, static_cast<int>(rng.Range(1, 12)), NoisyUrl);
    const std::string pattern = Learn(urls);
    ExpectMatchesEach(pattern, urls, true, Describe(urls));
    if (HasFailure()) return;
  }
}

// ----------------------------------------------------------------- Size limit

std::string WildUrl(util::Rng& rng) {
  std::string url = absl::StrCat(rng.Bernoulli(0.5) ? "http" : "https", "://",
                                 Word(rng), Number(rng, 0, 999), ".", Word(rng),
                                 rng.Bernoulli(0.3) ? ":8080" : "");
  for (int i = rng.Range(0, 12); i > 0; --i) {
    absl::StrAppend(&url, "/", Fill(RandomPart(rng), rng));
  }
  for (int i = rng.Range(0, 6); i > 0; --i) {
    absl::StrAppend(&url, i == 1 ? "?" : "&", Word(rng), Number(rng, 0, 99),
                    "=", Fill(RandomPart(rng), rng));
  }
  return url;
}

TEST(UrlRegexTest, SizeLimitHonouredForWildlyDifferentUrls) {
  util::Rng rng(11);
  const std::vector<std::string> urls = Generate(rng, 1000, WildUrl);
  for (size_t limit : {2048, 300, 100}) {
    UrlRegexOptions options;
    options.max_regex_bytes = limit;
    const std::string pattern = Learn(urls, options);
    EXPECT_LE(pattern.size(), limit) << pattern;
    ExpectMatchesEach(pattern, urls, true, absl::StrCat("limit ", limit));
  }
}

TEST(UrlRegexTest, LongLiteralPathFallsBackToCoarserPattern) {
  const std::string url = "http://x.com/" + std::string(3000, 'a') + "/b";
  const std::string pattern = Learn({url});
  EXPECT_LE(pattern.size(), 2048u);
  EXPECT_TRUE(FullMatch(url, pattern)) << pattern;
}

TEST(UrlRegexTest, CoarsestPatternReturnedWhenLimitIsUnreachable) {
  UrlRegexOptions options;
  options.max_regex_bytes = 0;
  const std::string pattern = Learn({"http://x.com/a/1?b=2"}, options);
  EXPECT_EQ(pattern, R"((?i:http://[^/?#]*)(?:[/?][^#]*)?(?:#.*)?)");
}

TEST(UrlRegexTest, TooManyPathShapesKeepTheCommonLeadingSegments) {
  std::vector<std::string> urls;
  std::string path = "http://x.com/docs";
  for (int depth = 0; depth < 12; ++depth) {
    path += "/d" + std::to_string(depth);
    urls.push_back(path);
  }
  const std::string pattern = Learn(urls);
  EXPECT_EQ(pattern, R"((?i:http://x\.com)/docs/d0(?:/[^/?#]*)*(?:#.*)?)");
  UrlRegexOptions one_shape;
  one_shape.max_alternatives = 1;
  EXPECT_EQ(Learn({"http://x.com/a/1", "http://x.com/a/1/2"}, one_shape),
            R"((?i:http://x\.com)/a/1(?:/[^/?#]*)*(?:#.*)?)");
}

TEST(UrlRegexTest, MinUrlsForLiteralDigitsIsAnOption) {
  const std::vector<std::string> urls = {"http://x.com/api/v2/items/1",
                                         "http://x.com/api/v2/items/2"};
  UrlRegexOptions options;
  options.min_urls_for_literal_digits = 3;
  EXPECT_EQ(Learn(urls, options),
            R"((?i:http://x\.com)/api/[0-9a-z]+/items/[0-9]+(?:#.*)?)");
  options.min_urls_for_literal_digits = 1;
  EXPECT_EQ(Learn({"http://x.com/p/123"}, options),
            R"((?i:http://x\.com)/p/123(?:#.*)?)");
}

TEST(UrlRegexTest, MinUrlsForLiteralQueryValueIsAnOption) {
  UrlRegexOptions options;
  options.min_urls_for_literal_query_value = 2;
  EXPECT_EQ(Learn({"http://x.com/s?sort=price&id=1",
                   "http://x.com/s?sort=price&id=2"},
                  options),
            R"((?i:http://x\.com)/s\?sort=price&id=[0-9]*(?:#.*)?)");
}

// ---------------------------------------------------------------- Bad input

struct BadInputCase {
  const char* name;
  std::vector<std::string> urls;
  std::string message_part;
};

const BadInputCase kBadInputCases[] = {
    {"no_urls", {}, "no URLs"},
    {"empty_url", {"http://x.com/a", ""}, "URL #1 \"\" is empty"},
    {"not_a_url", {"not a url"}, "\"not a url\" is not an absolute"},
    {"relative_url",
     {"/relative/path"},
     "\"/relative/path\" is not an absolute"},
    {"unsupported_scheme",
     {"ftp://x.com/a"},
     "\"ftp://x.com/a\" is not an absolute"},
    {"no_host", {"http:///a"}, "\"http:///a\" has no host"},
    {"control_character", {"http://x.com/a\nb"}, "control characters"},
    {"invalid_utf8", {"http://x.com/\xff"}, "invalid UTF-8"},
};

class BadInputTest : public testing::TestWithParam<BadInputCase> {};

TEST_P(BadInputTest, InvalidArgumentNamingTheUrl) {
  const BadInputCase& c = GetParam();
  const absl::StatusOr<std::string> pattern = InferUrlRegex(c.urls);
  EXPECT_EQ(pattern.status().code(), absl::StatusCode::kInvalidArgument)
      << pattern.status();
  EXPECT_THAT(pattern.status().message(), HasSubstr(c.message_part));
}

INSTANTIATE_TEST_SUITE_P(UrlRegex, BadInputTest,
                         testing::ValuesIn(kBadInputCases),
                         [](const auto& info) { return info.param.name; });

TEST(UrlRegexTest, OptionsOutOfRangeAreInvalidArgument) {
  UrlRegexOptions options;
  options.max_alternatives = 0;
  const absl::StatusOr<std::string> pattern =
      InferUrlRegex({"http://x.com/"}, options);
  EXPECT_EQ(pattern.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(pattern.status().message(), HasSubstr("max_alternatives=0"));
}

// ---------------------------------------------------------------- UrlMatcher

TEST(UrlMatcherTest, BadPatternNamesItsIndexAndRe2Error) {
  const absl::StatusOr<UrlMatcher> matcher =
      UrlMatcher::Create({"http://a\\.com/.*", "x+", "http://(a.com"});
  ASSERT_EQ(matcher.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(matcher.status().message(), HasSubstr("#2 \"http://(a.com\""));
  EXPECT_THAT(matcher.status().message(), HasSubstr("missing )"));
}

TEST(UrlMatcherTest, SetOverMemoryBudgetIsInvalidArgument) {
  // Each pattern compiles alone; together they exceed RE2's default budget.
  std::vector<std::string> patterns;
  for (int i = 0; i < 40; ++i) {
    patterns.push_back(
        absl::StrCat("p", i, "[a-z]{1000}[0-9]{1000}[a-z]{1000}"));
  }
  const absl::StatusOr<UrlMatcher> matcher = UrlMatcher::Create(patterns);
  ASSERT_EQ(matcher.status().code(), absl::StatusCode::kInvalidArgument)
      << matcher.status();
  EXPECT_THAT(matcher.status().message(), HasSubstr("memory budget"));
}

TEST(UrlMatcherTest, ReturnsAllMatchingIndicesAscending) {
  absl::StatusOr<UrlMatcher> matcher =
      UrlMatcher::Create({R"(http://a\.com/.*)", R"(http://b\.com/.*)",
                          R"(http://a\.com/p/[0-9]+)", R"(a\.com)", R"(.*)"});
  ASSERT_TRUE(matcher.ok()) << matcher.status();
  EXPECT_EQ(matcher->size(), 5u);
  EXPECT_THAT(matcher->Match("http://a.com/p/12"), ElementsAre(0, 2, 4));
  EXPECT_THAT(matcher->Match("http://b.com/"), ElementsAre(1, 4));
  // Anchored at both ends: "a\.com" matches no URL containing it.
  EXPECT_THAT(matcher->Match("http://c.com/a.com"), ElementsAre(4));
}

TEST(UrlMatcherTest, EmptyMatcherMatchesNothing) {
  absl::StatusOr<UrlMatcher> matcher = UrlMatcher::Create({});
  ASSERT_TRUE(matcher.ok()) << matcher.status();
  EXPECT_EQ(matcher->size(), 0u);
  EXPECT_THAT(matcher->Match("http://a.com/"), IsEmpty());
}

TEST(UrlMatcherTest, MovedMatcherStillMatches) {
  absl::StatusOr<UrlMatcher> created = UrlMatcher::Create({"x", "y"});
  ASSERT_TRUE(created.ok());
  UrlMatcher matcher = std::move(*created);
  UrlMatcher other = std::move(matcher);
  EXPECT_THAT(other.Match("y"), ElementsAre(1));
}

// Differential: the one-pass set agrees with matching each pattern alone.
TEST(UrlMatcherTest, SetAgreesWithEachPatternAlone) {
  util::Rng rng(5);
  std::vector<RandomTemplate> templates;
  std::vector<std::string> patterns;
  for (int i = 0; i < 30; ++i) {
    templates.push_back(MakeTemplate(rng));
    std::vector<std::string> urls;
    for (int k = 0; k < 10; ++k) urls.push_back(MakeUrl(templates.back(), rng));
    patterns.push_back(Learn(urls));
  }
  absl::StatusOr<UrlMatcher> matcher = UrlMatcher::Create(patterns);
  ASSERT_TRUE(matcher.ok()) << matcher.status();
  std::vector<std::unique_ptr<re2::RE2>> alone;
  for (const std::string& p : patterns)
    alone.push_back(std::make_unique<re2::RE2>(p));
  for (int i = 0; i < 3000; ++i) {
    const std::string url =
        MakeUrl(templates[rng.Uniform(templates.size())], rng);
    std::vector<int> expected;
    for (size_t p = 0; p < alone.size(); ++p) {
      if (re2::RE2::FullMatch(url, *alone[p]))
        expected.push_back(static_cast<int>(p));
    }
    ASSERT_EQ(matcher->Match(url), expected) << url;
  }
}

TEST(UrlMatcherTest, ConcurrentMatchesAgree) {
  util::Rng rng(6);
  std::vector<std::string> patterns;
  for (const Template& t : kShopTemplates)
    patterns.push_back(Learn(Generate(rng, 20, t.make)));
  absl::StatusOr<UrlMatcher> matcher = UrlMatcher::Create(patterns);
  ASSERT_TRUE(matcher.ok()) << matcher.status();
  const std::vector<std::string> urls = Generate(rng, 500, ProductUrl);
  std::vector<int> mismatches(4, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (const std::string& url : urls) {
        if (matcher->Match(url) != std::vector<int>{0}) ++mismatches[t];
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(mismatches, ElementsAre(0, 0, 0, 0));
}

// ------------------------------------------------------------ SWDE real data

// The URL on the first line of an SWDE page: [BOM]<base href="URL"/>.
std::string BaseHref(const std::string& page) {
  const std::string open = "<base href=\"";
  const size_t start = page.find(open);
  if (start == std::string::npos || start > 8) return "";
  const size_t end = page.find('"', start + open.size());
  return page.substr(start + open.size(), end - start - open.size());
}

TEST(UrlRegexSwdeTest, BooksamillionUrlsShareOnePattern) {
  const std::string dir =
      std::string(VERTEX_SHARED_DATA_DIR) + "/swde/book/booksamillion";
  if (!std::filesystem::is_directory(dir)) {
    GTEST_SKIP() << "SWDE booksamillion pages not found at " << dir;
  }
  absl::StatusOr<std::vector<std::string>> files =
      util::ListFiles(dir, {".htm"});
  ASSERT_TRUE(files.ok()) << files.status();
  std::vector<std::string> urls;
  std::vector<std::string> file_urls;
  for (const std::string& path : *files) {  // Full paths.
    const absl::StatusOr<std::string> page = util::ReadFile(path);
    ASSERT_TRUE(page.ok()) << page.status();
    urls.push_back(BaseHref(*page));
    ASSERT_FALSE(urls.back().empty()) << path;
    file_urls.push_back("file://" + std::filesystem::absolute(path).string());
  }
  ASSERT_EQ(urls.size(), 2000u);
  const std::string pattern = Learn(urls);
  EXPECT_EQ(pattern,
            R"((?i:http://www\.booksamillion\.com)/product/[0-9]+(?:#.*)?)");
  ExpectMatchesEach(pattern, urls, true, "SWDE booksamillion");
  const std::string file_pattern = Learn(file_urls);
  EXPECT_THAT(file_pattern, HasSubstr(R"(/booksamillion/[0-9]+\.htm)"));
  ExpectMatchesEach(file_pattern, file_urls, true, "SWDE booksamillion files");
}

}  // namespace
}  // namespace vertex::urlpattern
