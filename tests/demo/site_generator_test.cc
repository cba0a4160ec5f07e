#include "common/demo/site_generator.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/schema/schema.h"
#include "common/util/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::demo {
namespace {

using ::testing::IsEmpty;
using ::testing::Not;

// ---------------------------------------------------------------------------
// Helpers: an independent (deliberately simple) reading of the pages.
// ---------------------------------------------------------------------------

void AppendUtf8(uint32_t cp, std::string* out) {
  if (cp < 0x80) {
    *out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    *out += static_cast<char>(0xc0 | (cp >> 6));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    *out += static_cast<char>(0xe0 | (cp >> 12));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    *out += static_cast<char>(0xf0 | (cp >> 18));
    *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    *out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

// Decodes numeric references and the named entities a shop page plausibly
// uses; an unknown entity stays as it is (and then fails the truth checks).
std::string DecodeEntities(std::string_view s) {
  static const std::map<std::string, uint32_t> kNamed = {
      {"amp", '&'},       {"lt", '<'},        {"gt", '>'},       {"quot", '"'},
      {"apos", '\''},     {"nbsp", 0xa0},     {"copy", 0xa9},    {"reg", 0xae},
      {"eacute", 0xe9},   {"egrave", 0xe8},   {"uuml", 0xfc},    {"ouml", 0xf6},
      {"auml", 0xe4},     {"ntilde", 0xf1},   {"acirc", 0xe2},   {"ucirc", 0xfb},
      {"euml", 0xeb},     {"iacute", 0xed},   {"ndash", 0x2013}, {"mdash", 0x2014},
      {"lsaquo", 0x2039}, {"rsaquo", 0x203a}, {"raquo", 0xbb},   {"hellip", 0x2026}};
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos || semi - i > 10) {
      out += s[i];
      continue;
    }
    const std::string name(s.substr(i + 1, semi - i - 1));
    uint32_t cp = 0;
    if (name.size() > 1 && name[0] == '#') {
      cp = name[1] == 'x' ? std::stoul(name.substr(2), nullptr, 16) : std::stoul(name.substr(1));
    } else if (auto it = kNamed.find(name); it != kNamed.end()) {
      cp = it->second;
    } else {
      out += s[i];
      continue;
    }
    AppendUtf8(cp, &out);
    i = semi;
  }
  return out;
}

std::string NormalizeSpace(std::string_view s) {
  std::string out;
  bool space = false;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool nbsp = s.substr(i, 2) == "\xc2\xa0";
    if (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r' || nbsp) {
      space = true;
      if (nbsp) ++i;
      continue;
    }
    if (space && !out.empty()) out += ' ';
    space = false;
    out += s[i];
  }
  return out;
}

// The decoded, whitespace-normalised text of every text node outside
// <script> and <style> (the text between two consecutive tags).
std::set<std::string> TextNodes(const std::string& html) {
  std::set<std::string> nodes;
  size_t i = 0;
  while (i < html.size()) {
    const size_t lt = html.find('<', i);
    const std::string text = NormalizeSpace(DecodeEntities(
        std::string_view(html).substr(i, (lt == std::string::npos ? html.size() : lt) - i)));
    if (!text.empty()) nodes.insert(text);
    if (lt == std::string::npos) break;
    const size_t gt = html.find('>', lt);
    if (gt == std::string::npos) break;
    i = gt + 1;
    for (const char* raw : {"script", "style"}) {
      if (html.compare(lt + 1, std::string_view(raw).size(), raw) == 0) {
        i = html.find(std::string("</") + raw, i);
        if (i == std::string::npos) return nodes;
      }
    }
  }
  return nodes;
}

// Start-tag names in document order (what shingle signatures are built from).
std::vector<std::string> Tags(const std::string& html) {
  std::vector<std::string> tags;
  for (size_t lt = html.find('<'); lt != std::string::npos; lt = html.find('<', lt + 1)) {
    size_t end = lt + 1;
    while (end < html.size() && std::isalnum(static_cast<unsigned char>(html[end]))) ++end;
    if (end > lt + 1) tags.push_back(html.substr(lt + 1, end - lt - 1));
  }
  return tags;
}

std::set<std::string> Shingles(const std::string& html, size_t width = 10) {
  const std::vector<std::string> tags = Tags(html);
  std::set<std::string> shingles;
  for (size_t i = 0; i + width <= tags.size(); ++i) {
    std::string key;
    for (size_t j = i; j < i + width; ++j) key += tags[j] + " ";
    shingles.insert(key);
  }
  return shingles;
}

double Jaccard(const std::set<std::string>& a, const std::set<std::string>& b) {
  size_t common = 0;
  for (const std::string& s : a) common += b.count(s);
  return static_cast<double>(common) / static_cast<double>(a.size() + b.size() - common);
}

size_t CountOf(const std::string& haystack, std::string_view needle) {
  size_t n = 0;
  for (size_t p = haystack.find(needle); p != std::string::npos;
       p = haystack.find(needle, p + needle.size())) {
    ++n;
  }
  return n;
}

SiteOptions SmallSite(uint64_t seed = 7) {
  SiteOptions options;
  options.seed = seed;
  options.product_pages = 60;
  options.category_pages = 25;
  options.review_pages = 15;
  options.store_pages = 10;
  return options;
}

// The default site is generated once for the whole suite.
const std::vector<GeneratedPage>& DefaultSite() {
  static const auto* const kPages = new std::vector<GeneratedPage>(GenerateSite(SiteOptions{}));
  return *kPages;
}

std::vector<const GeneratedPage*> PagesOf(const std::vector<GeneratedPage>& pages,
                                          std::string_view template_name) {
  std::vector<const GeneratedPage*> out;
  for (const GeneratedPage& page : pages) {
    if (page.template_name == template_name) out.push_back(&page);
  }
  return out;
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::string> Split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (size_t p = s.find(sep); p != std::string::npos; p = s.find(sep, start)) {
    parts.push_back(s.substr(start, p - start));
    start = p + 1;
  }
  parts.push_back(s.substr(start));
  return parts;
}

std::string FreshDir(const std::string& name) {
  const std::string dir = ::testing::TempDir() + "/vertex_demo_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

// ---------------------------------------------------------------------------
// Generation.
// ---------------------------------------------------------------------------

TEST(GenerateSiteTest, SameOptionsGiveIdenticalSites) {
  const std::vector<GeneratedPage> a = GenerateSite(SmallSite());
  const std::vector<GeneratedPage> b = GenerateSite(SmallSite());
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].file_name, b[i].file_name);
    EXPECT_EQ(a[i].url, b[i].url);
    EXPECT_EQ(a[i].template_name, b[i].template_name);
    EXPECT_EQ(a[i].html, b[i].html) << a[i].file_name;
    EXPECT_EQ(a[i].truth, b[i].truth) << a[i].file_name;
  }
}

TEST(GenerateSiteTest, DifferentSeedsGiveDifferentSites) {
  const std::vector<GeneratedPage> a = GenerateSite(SmallSite(7));
  const std::vector<GeneratedPage> b = GenerateSite(SmallSite(8));
  ASSERT_EQ(a.size(), b.size());
  size_t same_html = 0;
  size_t same_template = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same_html += a[i].html == b[i].html;
    same_template += a[i].template_name == b[i].template_name;
  }
  EXPECT_EQ(same_html, 0u);
  EXPECT_LT(same_template, a.size());  // the site order is shuffled differently
}

TEST(GenerateSiteTest, PageCountsPerTemplate) {
  const std::vector<GeneratedPage>& pages = DefaultSite();
  ASSERT_EQ(pages.size(), 1100u);
  EXPECT_EQ(PagesOf(pages, "product").size(), 600u);
  EXPECT_EQ(PagesOf(pages, "category").size(), 250u);
  EXPECT_EQ(PagesOf(pages, "reviews").size(), 150u);
  EXPECT_EQ(PagesOf(pages, "store").size(), 100u);
}

TEST(GenerateSiteTest, CustomAndDegenerateCounts) {
  SiteOptions options;
  options.product_pages = 3;
  options.category_pages = 0;
  options.review_pages = -5;
  options.store_pages = 2;
  const std::vector<GeneratedPage> pages = GenerateSite(options);
  ASSERT_EQ(pages.size(), 5u);
  EXPECT_EQ(PagesOf(pages, "product").size(), 3u);
  EXPECT_EQ(PagesOf(pages, "store").size(), 2u);

  options.product_pages = options.store_pages = 0;
  EXPECT_THAT(GenerateSite(options), IsEmpty());
}

TEST(GenerateSiteTest, TemplatesAreInterleaved) {
  const std::vector<GeneratedPage>& pages = DefaultSite();
  std::set<std::string> first_templates;
  for (size_t i = 0; i < 40; ++i) first_templates.insert(pages[i].template_name);
  EXPECT_EQ(first_templates.size(), 4u);
}

TEST(GenerateSiteTest, FileNamesAreSequentialAndUrlsUnique) {
  const std::vector<GeneratedPage>& pages = DefaultSite();
  std::set<std::string> urls;
  char expected[32];
  for (size_t i = 0; i < pages.size(); ++i) {
    std::snprintf(expected, sizeof(expected), "%04zu.htm", i);
    EXPECT_EQ(pages[i].file_name, expected);
    EXPECT_TRUE(urls.insert(pages[i].url).second) << "repeated URL " << pages[i].url;
  }
}

TEST(GenerateSiteTest, UrlsFollowEachTemplatesPattern) {
  const std::map<std::string, std::string> prefixes = {
      {"product", "http://shop.vertex-demo.test/p/"},
      {"category", "http://shop.vertex-demo.test/c/"},
      {"reviews", "http://shop.vertex-demo.test/reviews/"},
      {"store", "http://shop.vertex-demo.test/stores/"}};
  size_t product_queries = 0;
  for (const GeneratedPage& page : DefaultSite()) {
    ASSERT_TRUE(prefixes.count(page.template_name)) << page.template_name;
    EXPECT_EQ(page.url.rfind(prefixes.at(page.template_name), 0), 0u) << page.url;
    EXPECT_EQ(page.url.find_first_of(" \t\n\"<>"), std::string::npos) << page.url;
    if (page.template_name == "product") {
      product_queries += page.url.find("?ref=") != std::string::npos;
      EXPECT_NE(page.url.find(".html"), std::string::npos) << page.url;
    }
    if (page.template_name == "category" || page.template_name == "reviews") {
      EXPECT_NE(page.url.find("?page="), std::string::npos) << page.url;
    }
  }
  EXPECT_GT(product_queries, 60u);
  EXPECT_LT(product_queries, 540u);
}

TEST(GenerateSiteTest, HostOptionIsUsed) {
  SiteOptions options = SmallSite();
  options.host = "example.test";
  for (const GeneratedPage& page : GenerateSite(options)) {
    EXPECT_EQ(page.url.rfind("http://example.test/", 0), 0u) << page.url;
  }
}

// ---------------------------------------------------------------------------
// Ground truth.
// ---------------------------------------------------------------------------

TEST(GenerateSiteTest, RecordPagesHaveEveryAttributeAndOthersNone) {
  for (const GeneratedPage& page : DefaultSite()) {
    std::vector<std::string> keys;
    for (const auto& [key, values] : page.truth) keys.push_back(key);
    std::vector<std::string> expected;
    if (page.template_name == "product") expected = ProductAttributes();
    if (page.template_name == "store") expected = StoreAttributes();
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(keys, expected) << page.file_name << " " << page.template_name;
  }
}

// The attributes whose truth is not one text node (the value model's cases,
// checked row by row in ValueCasesTest below).
bool IsValueCase(const std::string& attribute);

TEST(GenerateSiteTest, EveryTruthValueIsATextNodeOfItsPage) {
  for (const GeneratedPage& page : DefaultSite()) {
    if (page.truth.empty()) continue;
    const std::set<std::string> nodes = TextNodes(page.html);
    for (const auto& [attribute, values] : page.truth) {
      if (IsValueCase(attribute)) continue;
      for (const std::string& value : values) {
        EXPECT_EQ(value, NormalizeSpace(value)) << page.file_name << " " << attribute;
        EXPECT_EQ(value.find('\t'), std::string::npos);
        EXPECT_TRUE(nodes.count(value))
            << page.file_name << " " << attribute << " = '" << value << "' not in the page";
      }
    }
  }
}

TEST(GenerateSiteTest, TextNodeCheckCatchesAMissingValue) {
  // The check above must be able to fail: a value the page does not show.
  const GeneratedPage& page = *PagesOf(DefaultSite(), "product").front();
  const std::set<std::string> nodes = TextNodes(page.html);
  EXPECT_FALSE(nodes.count(page.truth.at("title")[0] + " (copy)"));
  EXPECT_FALSE(nodes.count("$0.01"));
}

TEST(GenerateSiteTest, MandatoryValuesPresentOptionalOnesSometimesAbsent) {
  std::map<std::string, int> absent;
  std::map<std::string, int> multi;
  for (const auto* page : PagesOf(DefaultSite(), "product")) {
    for (const char* attribute : {"title", "sku", "availability", "category"}) {
      EXPECT_THAT(page->truth.at(attribute), Not(IsEmpty())) << page->file_name << attribute;
    }
    for (const auto& [attribute, values] : page->truth) {
      absent[attribute] += values.empty();
      multi[attribute] += values.size() > 1;
    }
  }
  // Optional values are absent on a few pages, never on many.
  for (const char* attribute : {"brand", "rating", "price"}) {
    EXPECT_GT(absent[attribute], 0) << attribute;
    EXPECT_LT(absent[attribute], 30) << attribute;
  }
  EXPECT_GT(multi["category"], 500);
  EXPECT_EQ(multi["title"], 0);
  for (const auto* page : PagesOf(DefaultSite(), "store")) {
    EXPECT_THAT(page->truth.at("hours").size(),
                ::testing::AllOf(::testing::Ge(5u), ::testing::Le(7u)));
    EXPECT_EQ(page->truth.at("zip")[0].size(), 5u) << page->file_name;
  }
}

TEST(GenerateSiteTest, SomeValuesAreEntityEncodedInTheMarkup) {
  size_t encoded_titles = 0;
  size_t non_ascii_titles = 0;
  for (const auto* page : PagesOf(DefaultSite(), "product")) {
    const std::string& title = page->truth.at("title")[0];
    if (page->html.find("\">" + title + "</h1>") == std::string::npos) ++encoded_titles;
    non_ascii_titles += std::any_of(title.begin(), title.end(), [](char c) { return c & 0x80; });
  }
  EXPECT_GT(encoded_titles, 20u);
  EXPECT_GT(non_ascii_titles, 5u);
}

// ---------------------------------------------------------------------------
// Structure.
// ---------------------------------------------------------------------------

TEST(GenerateSiteTest, ProductPagesVaryInStructure) {
  const auto products = PagesOf(DefaultSite(), "product");
  std::map<std::string, size_t> with;
  std::set<size_t> thumbs;
  std::set<size_t> reviews;
  std::set<size_t> paragraphs;
  for (const auto* page : products) {
    for (const char* marker : {"class=\"specs\"", "<div class=\"ad ad-leaderboard\"",
                               "<div class=\"ad ad-sidebar\"", "<div class=\"ad ad-inline\"",
                               "class=\"also-bought\"", "class=\"price-old\"", "?collection="}) {
      with[marker] += page->html.find(marker) != std::string::npos;
    }
    const size_t begin = page->html.find("class=\"thumbs\"");
    const size_t end = page->html.find("</ul>", begin);
    thumbs.insert(CountOf(page->html.substr(begin, end - begin), "<li"));
    reviews.insert(CountOf(page->html, "<li class=\"review\""));
    const size_t desc = page->html.find("itemprop=\"description\"");
    paragraphs.insert(CountOf(page->html.substr(desc, page->html.find("<ul", desc) - desc), "<p>"));
  }
  // Every optional part is on some pages and missing from others.
  for (const auto& [marker, count] : with) {
    EXPECT_GT(count, 0u) << marker;
    EXPECT_LT(count, products.size()) << marker;
  }
  // Sales are common; the other options are rare (see the variation budget
  // in site_generator.cc).
  EXPECT_GT(with["class=\"price-old\""], products.size() / 10);
  EXPECT_LT(with["class=\"price-old\""], products.size() * 4 / 10);
  EXPECT_TRUE(thumbs.count(1) && thumbs.count(6) && thumbs.size() >= 4) << thumbs.size();
  EXPECT_EQ(reviews, (std::set<size_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_GE(paragraphs.size(), 2u);
}

TEST(GenerateSiteTest, ListAndReviewPagesHaveTheirItemCounts) {
  std::set<size_t> tiles;
  for (const auto* page : PagesOf(DefaultSite(), "category")) {
    tiles.insert(CountOf(page->html, "<li class=\"tile\""));
  }
  EXPECT_GE(*tiles.begin(), 5u);
  EXPECT_EQ(*tiles.rbegin(), 24u);
  EXPECT_GT(tiles.size(), 5u);
  std::set<size_t> reviews;
  for (const auto* page : PagesOf(DefaultSite(), "reviews")) {
    reviews.insert(CountOf(page->html, "<li class=\"review\""));
  }
  EXPECT_GE(*reviews.begin(), 3u);
  EXPECT_EQ(*reviews.rbegin(), 20u);
  EXPECT_GT(reviews.size(), 5u);
}

TEST(GenerateSiteTest, PagesAreWellFormedDocumentsOfRealisticSize) {
  std::map<std::string, std::pair<size_t, size_t>> bytes;  // template -> (sum, count)
  for (const GeneratedPage& page : DefaultSite()) {
    EXPECT_EQ(page.html.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u) << page.file_name;
    EXPECT_EQ(CountOf(page.html, "<title>"), 1u);
    EXPECT_EQ(CountOf(page.html, "<main "), 1u);
    EXPECT_EQ(CountOf(page.html, "<div"), CountOf(page.html, "</div>")) << page.file_name;
    EXPECT_EQ(CountOf(page.html, "<ul"), CountOf(page.html, "</ul>")) << page.file_name;
    EXPECT_GT(page.html.size(), 8000u) << page.file_name;
    EXPECT_LT(page.html.size(), 120000u) << page.file_name;
    bytes[page.template_name].first += page.html.size();
    ++bytes[page.template_name].second;
  }
  for (const auto& [name, sum_count] : bytes) {
    const size_t mean = sum_count.first / sum_count.second;
    EXPECT_GE(mean, 15000u) << name;
    EXPECT_LE(mean, 60000u) << name;
  }
}

TEST(GenerateSiteTest, ChromeIsAModerateShareOfEachPage) {
  std::map<std::string, std::pair<double, int>> share;  // template -> (sum, count)
  for (const GeneratedPage& page : DefaultSite()) {
    const size_t main_begin = page.html.find("<main ");
    const size_t main_end = page.html.find("</main>");
    ASSERT_NE(main_end, std::string::npos);
    const size_t body_tags = Tags(page.html.substr(main_begin, main_end - main_begin)).size();
    const size_t all_tags = Tags(page.html).size();
    share[page.template_name].first += 1.0 - static_cast<double>(body_tags) / all_tags;
    ++share[page.template_name].second;
  }
  for (const auto& [name, sum_count] : share) {
    const double mean = sum_count.first / sum_count.second;
    EXPECT_GT(mean, 0.2) << name;
    EXPECT_LT(mean, 0.4) << name;
  }
}

// Pages of one template share more 10-tag shingles with each other than
// with any page of another template (what shingle clustering relies on).
TEST(GenerateSiteTest, NearestPageByShinglesHasTheSameTemplate) {
  std::vector<std::pair<std::string, std::set<std::string>>> sample;
  std::map<std::string, int> taken;
  for (const GeneratedPage& page : DefaultSite()) {
    if (taken[page.template_name]++ < 30) {
      sample.emplace_back(page.template_name, Shingles(page.html));
    }
  }
  double within = 0, across = 0;
  int within_n = 0, across_n = 0;
  for (size_t i = 0; i < sample.size(); ++i) {
    double best = -1;
    std::string best_template;
    for (size_t j = 0; j < sample.size(); ++j) {
      if (i == j) continue;
      const double jaccard = Jaccard(sample[i].second, sample[j].second);
      const bool same = sample[i].first == sample[j].first;
      (same ? within : across) += jaccard;
      ++(same ? within_n : across_n);
      if (jaccard > best) best = jaccard, best_template = sample[j].first;
    }
    EXPECT_EQ(best_template, sample[i].first) << "page " << i << " of " << sample[i].first;
  }
  EXPECT_GT(within / within_n, 0.6);
  EXPECT_LT(across / across_n, 0.35);
}

// Shingle clustering (6 of 8 min-hashes must agree) needs the pages of one
// template to share nearly all their distinct tag windows, and templates to
// share few (about the chrome). Guards the generator's variation budget.
TEST(GenerateSiteTest, TemplatesKeepTheirTagStructure) {
  std::map<std::string, std::vector<std::set<std::string>>> by_template;
  for (const GeneratedPage& page : DefaultSite()) {
    by_template[page.template_name].push_back(Shingles(page.html));
  }
  std::map<std::string, std::set<std::string>> cores;
  for (const auto& [name, sets] : by_template) {
    std::map<std::string, size_t> frequency;
    for (const auto& set : sets) {
      for (const std::string& shingle : set) ++frequency[shingle];
    }
    for (const auto& [shingle, count] : frequency) {
      if (count * 100 >= sets.size() * 97) cores[name].insert(shingle);
    }
    size_t close = 0;
    for (const auto& set : sets) close += Jaccard(set, cores[name]) >= 0.9;
    EXPECT_GE(close * 100, sets.size() * 95) << name;
  }
  for (const auto& [a, core_a] : cores) {
    for (const auto& [b, core_b] : cores) {
      if (a < b) {
        EXPECT_LT(Jaccard(core_a, core_b), 0.3) << a << " vs " << b;
      }
    }
  }
}

// ---------------------------------------------------------------------------
// WriteSite.
// ---------------------------------------------------------------------------

// One parsed SWDE ground-truth file.
struct GroundTruth {
  std::vector<std::string> header;
  std::vector<std::string> counts;
  std::map<std::string, std::vector<std::string>> values;  // page id -> values
};

GroundTruth ParseGroundTruth(const std::string& text) {
  GroundTruth gt;
  std::vector<std::string> lines = Split(text, '\n');
  EXPECT_TRUE(lines.size() >= 3 && lines.back().empty()) << "no final newline";
  if (lines.size() < 3) return gt;
  lines.pop_back();
  gt.header = Split(lines[0], '\t');
  gt.counts = Split(lines[1], '\t');
  for (size_t i = 2; i < lines.size(); ++i) {
    const std::vector<std::string> fields = Split(lines[i], '\t');
    EXPECT_GE(fields.size(), 3u) << lines[i];
    if (fields.size() < 3) continue;
    const size_t n = std::stoul(fields[1]);
    std::vector<std::string> values(fields.begin() + 2, fields.end());
    if (n == 0) {
      EXPECT_EQ(values, std::vector<std::string>{"<NULL>"}) << lines[i];
      values.clear();
    }
    EXPECT_EQ(values.size(), n) << lines[i];
    EXPECT_TRUE(gt.values.emplace(fields[0], values).second) << "repeated page " << fields[0];
  }
  return gt;
}

TEST(WriteSiteTest, WritesPagesWithBaseLine) {
  const std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  const std::string dir = FreshDir("pages");
  ASSERT_TRUE(WriteSite(pages, dir).ok());
  for (const GeneratedPage& page : pages) {
    const std::string file = ReadAll(dir + "/" + page.file_name);
    const size_t newline = file.find('\n');
    ASSERT_NE(newline, std::string::npos) << page.file_name;
    EXPECT_EQ(file.substr(0, newline), "<base href=\"" + page.url + "\"/>");
    EXPECT_EQ(file.substr(newline + 1), page.html) << page.file_name;
  }
}

TEST(WriteSiteTest, GroundTruthParsesBackToTheTruth) {
  const std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  const std::string dir = FreshDir("truth");
  ASSERT_TRUE(WriteSite(pages, dir).ok());
  const std::pair<std::string, std::string> verticals[] = {{"product", "product"},
                                                           {"store", "business"}};
  for (const auto& [template_name, vertical] : verticals) {
    const auto records = PagesOf(pages, template_name);
    const auto& attributes = template_name == "product" ? ProductAttributes() : StoreAttributes();
    for (const std::string& attribute : attributes) {
      const std::string path =
          dir + "/groundtruth/" + vertical + "/" + vertical + "-vertexdemo-" + attribute + ".txt";
      ASSERT_TRUE(std::filesystem::exists(path)) << path;
      const GroundTruth gt = ParseGroundTruth(ReadAll(path));
      EXPECT_EQ(gt.header, (std::vector<std::string>{vertical, "vertexdemo", attribute}));
      ASSERT_EQ(gt.counts.size(), 4u);
      EXPECT_EQ(gt.counts[0], std::to_string(records.size()));
      ASSERT_EQ(gt.values.size(), records.size()) << path;
      for (const GeneratedPage* page : records) {
        const std::string id = page->file_name.substr(0, page->file_name.size() - 4);
        ASSERT_TRUE(gt.values.count(id)) << path << " lacks " << id;
        EXPECT_EQ(gt.values.at(id), page->truth.at(attribute)) << path << " " << id;
      }
    }
  }
}

TEST(WriteSiteTest, GroundTruthCountsLine) {
  GeneratedPage a;
  a.file_name = "0000.htm";
  a.url = "http://h/a";
  a.template_name = "store";
  a.html = "<html></html>";
  a.truth = {{"hours", {"9", "9", "10"}}, {"phone", {}}};
  GeneratedPage b = a;
  b.file_name = "0001.htm";
  b.truth = {{"hours", {}}, {"phone", {"(1) 555"}}};
  const std::string dir = FreshDir("counts");
  ASSERT_TRUE(WriteSite({a, b}, dir).ok());
  EXPECT_EQ(ReadAll(dir + "/groundtruth/business/business-vertexdemo-hours.txt"),
            "business\tvertexdemo\thours\n2\t1\t3\t2\n0000\t3\t9\t9\t10\n0001\t0\t<NULL>\n");
  EXPECT_EQ(ReadAll(dir + "/groundtruth/business/business-vertexdemo-phone.txt"),
            "business\tvertexdemo\tphone\n2\t1\t1\t1\n0000\t0\t<NULL>\n0001\t1\t(1) 555\n");
  EXPECT_EQ(ReadAll(dir + "/groundtruth/product/product-vertexdemo-title.txt"),
            "product\tvertexdemo\ttitle\n0\t0\t0\t0\n");
}

TEST(WriteSiteTest, UnwritableDirectoryIsAnError) {
  const std::string dir = FreshDir("blocked");
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/file") << "x";
  // A regular file where a directory should be: fails even for root.
  const absl::Status status = WriteSite(GenerateSite(SmallSite()), dir + "/file/site");
  EXPECT_FALSE(status.ok());
  EXPECT_NE(status.message().find("file/site"), std::string::npos) << status.ToString();
}

TEST(WriteSiteTest, RejectsBadFileNames) {
  std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  const std::string dir = FreshDir("names");
  pages[1].file_name = pages[0].file_name;
  EXPECT_EQ(WriteSite(pages, dir).code(), absl::StatusCode::kInvalidArgument);
  pages[1].file_name = "../escape.htm";
  EXPECT_EQ(WriteSite(pages, dir).code(), absl::StatusCode::kInvalidArgument);
  pages[1].file_name = "";
  EXPECT_EQ(WriteSite(pages, dir).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_FALSE(std::filesystem::exists(dir + "/" + pages[0].file_name));
}

TEST(WriteSiteTest, RejectsTruthValuesThatBreakTheFormat) {
  std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  const std::string dir = FreshDir("tabs");
  ASSERT_TRUE(WriteSite(pages, dir).ok());
  for (GeneratedPage& page : pages) {
    if (page.template_name == "store") {
      page.truth["name"] = {"Tab\there"};
      break;
    }
  }
  EXPECT_EQ(WriteSite(pages, FreshDir("tabs2")).code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::demo

namespace vertex::demo {
namespace {

// The demo's embedded schemas are the shipped ones, and describe exactly the
// attributes the generator writes ground truth for.
TEST(DemoSchemaTest, EmbeddedSchemasAreTheShippedFiles) {
  for (const std::string vertical : {"product", "business"}) {
    absl::StatusOr<std::string> file = util::ReadFile(VERTEX_SOURCE_DIR "/deploy/schemas/" + vertical + ".json");
    ASSERT_TRUE(file.ok()) << file.status();
    EXPECT_EQ(SchemaJson(vertical), *file) << vertical;
  }
  EXPECT_EQ(SchemaJson("book"), "");
}

}  // namespace
}  // namespace vertex::demo

// ---------------------------------------------------------------------------
// The value model's cases (issue 12): one row per attribute, each checking on
// every page of its template that the truth is where the case says, in the
// form a user expects, and naming the variant of the case the page shows.
// The pages are parsed by the project's parser (libxml2) and read with XPath;
// URLs are resolved by ResolveAgainst below, independently of the engine.
// ---------------------------------------------------------------------------

namespace vertex::demo {
namespace {

struct ParsedPage {
  const GeneratedPage* generated;
  html::Page page;

  // string() of `xpath` on the page; "" (and a test failure) when it does not compile.
  std::string String(const std::string& xpath) const {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
    EXPECT_TRUE(x.ok()) << x.status();
    if (!x.ok()) return "";
    absl::StatusOr<std::string> s = x->EvaluateString(page);
    EXPECT_TRUE(s.ok()) << s.status();
    return s.ok() ? *s : "";
  }
  std::vector<html::Node> Nodes(const std::string& xpath) const {
    absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
    EXPECT_TRUE(x.ok()) << x.status();
    if (!x.ok()) return {};
    absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
    EXPECT_TRUE(nodes.ok()) << nodes.status();
    return nodes.ok() ? *nodes : std::vector<html::Node>{};
  }
};

ParsedPage Parse(const GeneratedPage& generated) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(generated.html, generated.url);
  EXPECT_TRUE(page.ok()) << generated.file_name << ": " << page.status();
  return {&generated, *std::move(page)};
}

// `href` resolved against the page URL `base` (http://host/path?query): the
// three forms the generator writes (absolute, root-relative, a file name in
// the base's directory).
std::string ResolveAgainst(const std::string& base, const std::string& href) {
  if (href.rfind("http://", 0) == 0 || href.rfind("https://", 0) == 0) return href;
  const size_t path = base.find('/', base.find("://") + 3);
  if (href.rfind("/", 0) == 0) return base.substr(0, path) + href;
  const std::string no_query = base.substr(0, base.find('?'));
  return no_query.substr(0, no_query.rfind('/') + 1) + href;
}

// An element's text as a reader sees it: descendants' text with each <br>
// read as a space, whitespace normalised.
std::string ReadText(html::Node element) {
  std::string text;
  for (html::Node n = element.first_child(); n; n = n.NextInDocument(element)) {
    if (n.is_text()) text += n.RawText();
    if (n.is_element() && n.tag() == "br") text += ' ';
  }
  return NormalizeSpace(text);
}

// What a row's check found on one page.
struct Observation {
  std::string error;    // "" when the truth is where the case says
  std::string variant;  // the form of the case this page shows
};

Observation Error(const std::string& what, const std::vector<std::string>& truth) {
  std::string joined;
  for (const std::string& v : truth) joined += (joined.empty() ? "" : " | ") + v;
  return {what + " (truth: [" + joined + "])", ""};
}

// The one value of a single-valued case, or an error observation.
bool One(const std::vector<std::string>& truth, Observation* error) {
  if (truth.size() == 1) return true;
  *error = Error("expected one value", truth);
  return false;
}

Observation CheckLink(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string href = p.String("string(//ul[@class='share']//a[@class='copy-link']/@href)");
  if (ResolveAgainst(p.generated->url, href) != truth[0]) return Error("href " + href, truth);
  if (href.rfind("http://", 0) == 0) return {"", "absolute"};
  return {"", href.rfind("/", 0) == 0 ? "root-relative" : "document-relative"};
}

Observation CheckImage(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string src = p.String("string(//div[@class='main-image']//img/@src)");
  if (src.rfind("/", 0) != 0 || ResolveAgainst(p.generated->url, src) != truth[0]) {
    return Error("src " + src, truth);
  }
  const std::string srcset = p.String("string(//div[@class='main-image']//img/@srcset)");
  if (srcset.empty()) return {"", "src"};
  const std::string first = srcset.substr(0, srcset.find(' '));
  if (ResolveAgainst(p.generated->url, first) != truth[0]) return Error("srcset " + srcset, truth);
  return {"", "src and srcset"};
}

Observation CheckOgTitle(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string content = p.String("string(/html/head/meta[@property='og:title']/@content)");
  if (content != truth[0]) return Error("og:title " + content, truth);
  // Only the brandless pages' og:title is also the <h1>'s text.
  const bool in_body = TextNodes(p.generated->html.substr(p.generated->html.find("<body"))).count(truth[0]) > 0;
  const bool brandless = p.generated->truth.at("brand").empty();
  if (in_body != brandless) return Error("in the body: " + std::to_string(in_body), truth);
  return {"", brandless ? "the title" : "title | brand, in <head> only"};
}

Observation CheckPublished(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string datetime = p.String("string(//div[@class='meta']/time/@datetime)");
  const std::string shown = p.String("normalize-space(//div[@class='meta']/time)");
  if (datetime != truth[0] || shown.empty() || shown == datetime) {
    return Error("datetime " + datetime + ", text " + shown, truth);
  }
  return {"", "datetime"};
}

Observation CheckUnitPrice(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::vector<html::Node> amounts = p.Nodes("//p[@class='unit-price']/span[@class='amount']/text()");
  if (amounts.size() != 1) return Error("no one amount text node", truth);
  const std::string text = amounts[0].Text();
  for (const std::string currency : {"$", "€", "£"}) {
    if (text.rfind(currency + truth[0], 0) == 0) {
      const bool bare = text.size() == currency.size() + truth[0].size();
      return {"", currency + (bare ? " bare" : " with suffix text")};
    }
  }
  return Error("amount " + text, truth);
}

Observation CheckTagline(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::vector<html::Node> tagline = p.Nodes("//p[@class='tagline']");
  if (tagline.size() != 1 || ReadText(tagline[0]) != truth[0]) return Error("tagline", truth);
  if (p.Nodes("//p[@class='tagline']/em").size() != 1) return Error("not one <em>", truth);
  return {"", "text around an <em>"};
}

Observation CheckWeight(const ParsedPage& p, const std::vector<std::string>& truth) {
  const std::vector<html::Node> rows = p.Nodes("//table[@class='specs']//tr");
  if (rows.empty()) return truth.empty() ? Observation{"", "absent (no specs table)"} : Error("no specs", truth);
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string td = p.String("normalize-space(//table[@class='specs']//tr[th='Weight']/td)");
  if (td != truth[0]) return Error("td " + td, truth);
  const size_t row = p.Nodes("//table[@class='specs']//tr[th='Weight']/preceding-sibling::tr").size();
  return {"", row == 0 ? "first row" : row + 1 == rows.size() ? "last row" : "a middle row"};
}

Observation CheckDesigners(const ParsedPage& p, const std::vector<std::string>& truth) {
  const std::vector<html::Node> texts = p.Nodes("//p[@class='designers']/node()");
  if (texts.size() != 1 || !texts[0].is_text()) return Error("not one text node", truth);
  const std::string text = texts[0].Text();
  if (truth.size() == 1) {
    return text == "Designed by " + truth[0] ? Observation{"", "one name"} : Error(text, truth);
  }
  for (const std::string sep : {", ", "; ", " and ", " & ", " / ", " | "}) {
    std::string joined = "Designed by " + truth[0];
    for (size_t i = 1; i < truth.size(); ++i) joined += sep + truth[i];
    if (text == joined) return {"", "joined by '" + sep + "'"};
  }
  return Error(text, truth);
}

Observation CheckCollection(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::string name = p.String("normalize-space(//div[@class='collection-box']//a[@class='collection-name'])");
  if (name != truth[0]) return Error("link text " + name, truth);
  // The text node right before the value's is a price: a data value.
  const std::string before =
      p.String("normalize-space(//a[@class='collection-name']/preceding::text()[normalize-space(.)!=''][1])");
  if (before.rfind("$", 0) != 0) return Error("before it: " + before, truth);
  return {"", "right after a price"};
}

Observation CheckFeatures(const ParsedPage& p, const std::vector<std::string>& truth) {
  const std::vector<html::Node> items = p.Nodes("//ul[@class='features']/li");
  std::vector<std::string> texts;
  for (html::Node li : items) texts.push_back(ReadText(li));
  if (texts != truth) return Error("items", truth);
  return {"", std::to_string(items.size()) + " items"};
}

Observation CheckAddress(const ParsedPage& p, const std::vector<std::string>& truth) {
  Observation o;
  if (!One(truth, &o)) return o;
  const std::vector<html::Node> block = p.Nodes("//div[@class='address']/p");
  if (block.size() != 1 || ReadText(block[0]) != truth[0]) return Error("address block", truth);
  // The lines meet at the <br> with no space: the element's bare text glues them.
  if (block[0].Text() == truth[0]) return Error("no <br> between the lines", truth);
  const bool suite = truth[0].find(", Suite ") != std::string::npos;
  return {"", suite ? "street with a suite, then city line" : "street, then city line"};
}

struct ValueCaseRow {
  const char* attribute;
  const char* template_name;
  Observation (*check)(const ParsedPage&, const std::vector<std::string>&);
  // On the default site every one of these occurs, and no other.
  std::set<std::string> variants;
};

const std::vector<ValueCaseRow>& ValueCaseRows() {
  static const auto* const kRows = new std::vector<ValueCaseRow>{
      {"link", "product", CheckLink, {"absolute", "root-relative", "document-relative"}},
      {"image", "product", CheckImage, {"src", "src and srcset"}},
      {"og_title", "product", CheckOgTitle, {"title | brand, in <head> only", "the title"}},
      {"published", "product", CheckPublished, {"datetime"}},
      {"unit_price", "product", CheckUnitPrice,
       {"$ with suffix text", "€ bare", "€ with suffix text", "£ with suffix text"}},
      {"tagline", "product", CheckTagline, {"text around an <em>"}},
      {"weight", "product", CheckWeight, {"first row", "a middle row", "last row", "absent (no specs table)"}},
      {"designers", "product", CheckDesigners,
       {"one name", "joined by ', '", "joined by '; '", "joined by ' and '", "joined by ' & '",
        "joined by ' / '", "joined by ' | '"}},
      {"collection", "product", CheckCollection, {"right after a price"}},
      {"features", "product", CheckFeatures, {"4 items", "5 items"}},
      {"address", "store", CheckAddress, {"street, then city line", "street with a suite, then city line"}},
  };
  return *kRows;
}

bool IsValueCase(const std::string& attribute) {
  for (const ValueCaseRow& row : ValueCaseRows()) {
    if (attribute == row.attribute) return true;
  }
  return false;
}

TEST(ValueCasesTest, EveryCaseIsOnThePagesInEachOfItsVariants) {
  std::map<std::string, std::map<std::string, int>> seen;  // attribute -> variant -> pages
  for (const GeneratedPage& generated : DefaultSite()) {
    if (generated.truth.empty()) continue;
    const ParsedPage page = Parse(generated);
    for (const ValueCaseRow& row : ValueCaseRows()) {
      if (generated.template_name != row.template_name) continue;
      const Observation o = row.check(page, generated.truth.at(row.attribute));
      EXPECT_EQ(o.error, "") << generated.file_name << " " << row.attribute;
      if (o.error.empty()) ++seen[row.attribute][o.variant];
    }
  }
  for (const ValueCaseRow& row : ValueCaseRows()) {
    std::set<std::string> variants;
    std::string counts;
    for (const auto& [variant, pages] : seen[row.attribute]) {
      variants.insert(variant);
      counts += "\n  " + variant + ": " + std::to_string(pages);
    }
    EXPECT_EQ(variants, row.variants) << row.attribute << counts;
  }
}

// The checks above must be able to fail: a truth the page does not show.
TEST(ValueCasesTest, ChecksCatchAWrongTruth) {
  for (const char* template_name : {"product", "store"}) {
    const GeneratedPage& generated = *PagesOf(DefaultSite(), template_name).front();
    const ParsedPage page = Parse(generated);
    for (const ValueCaseRow& row : ValueCaseRows()) {
      if (row.template_name != std::string(template_name)) continue;
      std::vector<std::string> wrong = generated.truth.at(row.attribute);
      if (wrong.empty()) continue;
      wrong.back() += "x";
      EXPECT_NE(row.check(page, wrong).error, "") << row.attribute;
    }
  }
}

// The truth of the value cases differs between pages (ids and the seed
// drive variety; the collections are twelve).
TEST(ValueCasesTest, ValuesAreVaried) {
  std::map<std::string, std::set<std::vector<std::string>>> distinct;
  std::map<std::string, int> pages;
  for (const GeneratedPage& page : DefaultSite()) {
    for (const ValueCaseRow& row : ValueCaseRows()) {
      if (page.template_name != row.template_name) continue;
      distinct[row.attribute].insert(page.truth.at(row.attribute));
      ++pages[row.attribute];
    }
  }
  for (const ValueCaseRow& row : ValueCaseRows()) {
    EXPECT_GE(distinct[row.attribute].size(), 10u)
        << row.attribute << ": " << distinct[row.attribute].size() << " distinct of " << pages[row.attribute];
  }
}

// Every truth value is what its schema type selects in it (a typed rule
// can give exactly the truth): URLs, images, the ISO date, the price's number.
TEST(ValueCasesTest, TruthValuesAreTheirTypesValues) {
  for (const auto& [template_name, vertical] : {std::pair{"product", "product"}, {"store", "business"}}) {
    absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(SchemaJson(vertical), vertical);
    ASSERT_TRUE(schema.ok()) << schema.status();
    for (const GeneratedPage* page : PagesOf(DefaultSite(), template_name)) {
      for (size_t i = 0; i < schema->size(); ++i) {
        if (schema->ValueRegex(i) == nullptr) continue;
        const std::string& name = schema->attribute(i).name();
        for (const std::string& value : page->truth.at(name)) {
          EXPECT_EQ(schema->SelectValue(i, value).value_or("<none>"), value) << page->file_name << " " << name;
        }
      }
    }
  }
}

// The value cases follow the seed like the rest of the site.
TEST(ValueCasesTest, DifferentSeedsGiveDifferentValueCases) {
  const std::vector<GeneratedPage> a = GenerateSite(SmallSite(3));
  const std::vector<GeneratedPage> b = GenerateSite(SmallSite(4));
  size_t differ = 0;
  size_t compared = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].template_name != "product" || b[i].template_name != "product") continue;
    ++compared;
    differ += a[i].truth.at("designers") != b[i].truth.at("designers");
  }
  ASSERT_GT(compared, 10u);
  EXPECT_GT(differ * 10, compared * 9);
}

// ---------------------------------------------------------------------------
// Record-level truth of the category pages (issue 13).
// ---------------------------------------------------------------------------

// The tiles as the page shows them: the name link's href and text and the
// price, read with the parser, in page order.
struct Tile {
  std::string href, name, price;
};

std::vector<Tile> TilesOf(const GeneratedPage& page) {
  html::Parser parser;
  absl::StatusOr<html::Page> parsed = parser.Parse(page.html, page.url);
  EXPECT_TRUE(parsed.ok()) << parsed.status();
  std::vector<Tile> tiles;
  if (!parsed.ok()) return tiles;
  const html::Node root = parsed->root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (n.tag() == "li" && n.attribute("class") == "tile") tiles.emplace_back();
    if (tiles.empty()) continue;
    if (n.tag() == "a" && n.parent().attribute("class") == "tile-name") {
      tiles.back().href = n.attribute("href");
      tiles.back().name = n.Text();
    }
    if (n.tag() == "span" && n.attribute("class") == "price" &&
        n.parent().attribute("class") == "tile-price") {
      tiles.back().price = n.Text();
    }
  }
  return tiles;
}

TEST(GenerateSiteTest, CategoryPagesHaveTheirTilesAsListTruth) {
  const std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  size_t categories = 0;
  for (const GeneratedPage& page : pages) {
    if (page.template_name != "category") {
      EXPECT_TRUE(page.list_truth.areas.empty()) << page.file_name;
      continue;
    }
    ++categories;
    EXPECT_EQ(page.list_truth.file, page.file_name);
    EXPECT_EQ(page.list_truth.url, page.url);
    ASSERT_EQ(page.list_truth.areas.size(), 1u);
    const std::vector<eval::TruthRecord>& records = page.list_truth.areas[0].records;
    const std::vector<Tile> tiles = TilesOf(page);
    ASSERT_EQ(records.size(), tiles.size()) << page.file_name;
    EXPECT_GE(records.size(), 5u);
    for (size_t i = 0; i < tiles.size(); ++i) {
      const eval::TruthRecord& r = records[i];
      EXPECT_EQ(r.link, "http://shop.vertex-demo.test" + tiles[i].href);
      EXPECT_EQ(r.attributes.at("link").value, r.link);
      EXPECT_EQ(r.attributes.at("title").value, tiles[i].name);
      EXPECT_EQ(r.attributes.at("title").text, tiles[i].name);
      EXPECT_EQ(r.attributes.at("price").value, tiles[i].price);
      EXPECT_EQ(r.attributes.size(), 3u);
    }
  }
  EXPECT_GT(categories, 0u);
}

TEST(WriteSiteTest, WritesTheCategoryListTruth) {
  const std::vector<GeneratedPage> pages = GenerateSite(SmallSite());
  const std::string dir = FreshDir("list_truth");
  ASSERT_TRUE(WriteSite(pages, dir).ok());
  absl::StatusOr<std::vector<eval::ListTruthPage>> lists =
      eval::ReadListTruth(dir + "/list_truth.jsonl");
  ASSERT_TRUE(lists.ok()) << lists.status();
  EXPECT_EQ(lists->size(), PagesOf(pages, "category").size());
  for (const eval::ListTruthPage& list : *lists) {
    const auto page = std::find_if(pages.begin(), pages.end(), [&](const GeneratedPage& p) {
      return p.file_name == list.file;
    });
    ASSERT_NE(page, pages.end()) << list.file;
    EXPECT_EQ(eval::ListTruthToJson(list), eval::ListTruthToJson(page->list_truth));
  }
}

}  // namespace
}  // namespace vertex::demo
