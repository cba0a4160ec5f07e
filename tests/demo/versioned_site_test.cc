#include "common/demo/versioned_site.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/sample/annotation_sample.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "common/site/site_clusterer.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::demo {
namespace {

using ::testing::ElementsAre;

const std::vector<std::string>& Attributes() {
  static const std::vector<std::string> kNames = {"availability",  "brand", "price", "rating",
                                                  "reviews_count", "sku",   "title"};
  return kNames;
}

VersionedSiteOptions Options(int templates, int pages) {
  VersionedSiteOptions o;
  o.templates = templates;
  o.pages_per_template = pages;
  return o;
}

// The page's shingle vector, remembered by the hash of its html: the tests
// meet many pages several times (the 3-template site is the start of the
// 20-template one, a page without the optional section is unchanged...).
shingle::ShingleVector VectorOf(const VersionedPage& page) {
  static std::unordered_map<size_t, shingle::ShingleVector> cache;
  const size_t key = std::hash<std::string>()(page.html);
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  static html::Parser parser;
  shingle::Shingler shingler;
  EXPECT_TRUE(parser.Parse(page.html, page.url, "", &shingler).ok()) << page.url;
  return cache[key] = shingler.Finish();
}

// The project's clustering of `pages` with default options (sampling keeps
// every page of a site under 1,000 pages; pruning threshold 20). Annotation
// samples are not looked at here, so the pages' XPath sets are left empty.
site::SiteClustering Cluster(const std::vector<VersionedPage>& pages) {
  std::vector<site::SitePage> site_pages;
  for (const VersionedPage& p : pages) site_pages.push_back({"", p.url, VectorOf(p), false});
  const site::XPathsOfPage no_xpaths = [](size_t) -> absl::StatusOr<sample::PageXPaths> {
    return sample::PageXPaths{};
  };
  absl::StatusOr<site::SiteClustering> clustering =
      site::ClusterKnownPages(site_pages, no_xpaths, {});
  EXPECT_TRUE(clustering.ok()) << clustering.status();
  return clustering.ok() ? *std::move(clustering) : site::SiteClustering{};
}

// Checks that every cluster holds the pages of exactly one template and every
// template's pages are all in one cluster; returns each template's signature.
std::map<int, shingle::MaskedVector> OneClusterPerTemplate(const std::vector<VersionedPage>& pages,
                                                           int templates) {
  const site::SiteClustering clustering = Cluster(pages);
  EXPECT_EQ(clustering.clusters.size(), static_cast<size_t>(templates));
  EXPECT_TRUE(clustering.unassigned.empty()) << clustering.unassigned.size() << " pages unassigned";
  std::map<int, shingle::MaskedVector> signature;
  for (const site::SiteCluster& c : clustering.clusters) {
    std::set<int> in_cluster;
    for (size_t p : c.pages) in_cluster.insert(pages[p].template_index);
    EXPECT_EQ(in_cluster.size(), 1u) << "cluster " << c.signature.ToText() << " mixes templates";
    const int t = *in_cluster.begin();
    EXPECT_FALSE(signature.count(t)) << "template " << t << " split over clusters";
    signature[t] = c.signature;
  }
  EXPECT_EQ(signature.size(), static_cast<size_t>(templates));
  return signature;
}

// Fraction of template t's pages that `signature` covers.
double CoverFraction(const shingle::MaskedVector& signature,
                     const std::vector<VersionedPage>& pages, int t) {
  int covered = 0, total = 0;
  for (const VersionedPage& p : pages) {
    if (p.template_index != t) continue;
    ++total;
    covered += signature.Covers(VectorOf(p));
  }
  return total == 0 ? 0 : static_cast<double>(covered) / total;
}

// The normalised text of every element and text node of `html`.
std::set<std::string> NodeTexts(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://x.test/");
  EXPECT_TRUE(page.ok()) << page.status();
  std::set<std::string> texts;
  if (!page.ok()) return texts;
  for (html::Node n = page->root(); n; n = n.NextInDocument(page->root())) texts.insert(n.Text());
  return texts;
}

// Class attribute values inside <main>.
std::set<std::string> MainClasses(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://x.test/");
  std::set<std::string> classes;
  if (!page.ok()) return classes;
  html::Node main;
  for (html::Node n = page->root(); n && !main; n = n.NextInDocument(page->root())) {
    if (n.tag() == "main") main = n;
  }
  for (html::Node n = main; n; n = n.NextInDocument(main)) {
    if (n.has_attribute("class")) classes.insert(n.attribute("class"));
  }
  return classes;
}

std::vector<std::string> Urls(const std::vector<VersionedPage>& pages) {
  std::vector<std::string> urls;
  for (const VersionedPage& p : pages) urls.push_back(p.url);
  return urls;
}

TEST(VersionedSiteTest, DeterministicAndSeeded) {
  VersionedSiteOptions o = Options(4, 6);
  o.ads = o.optional_section = true;
  o.epoch = 2;
  o.restyled = {1};
  const std::vector<VersionedPage> a = GenerateVersionedSite(o);
  const std::vector<VersionedPage> b = GenerateVersionedSite(o);
  ASSERT_EQ(a.size(), 24u);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].url, b[i].url);
    EXPECT_EQ(a[i].html, b[i].html) << a[i].url;
    EXPECT_EQ(a[i].truth, b[i].truth) << a[i].url;
    EXPECT_EQ(a[i].template_index, static_cast<int>(i / 6));
  }
  o.seed = 2;
  const std::vector<VersionedPage> c = GenerateVersionedSite(o);
  EXPECT_NE(Urls(a), Urls(c));
  EXPECT_NE(a[0].html, c[0].html);
}

TEST(VersionedSiteTest, UrlSetDependsOnlyOnSeedHostAndSize) {
  VersionedSiteOptions o = Options(5, 12);
  o.host = "127.0.0.1:8080";
  const std::vector<std::string> urls = Urls(GenerateVersionedSite(o));
  std::set<std::string> distinct(urls.begin(), urls.end());
  EXPECT_EQ(distinct.size(), urls.size());
  const RE2 shape(R"(http://127\.0\.0\.1:8080/t(\d+)/[a-z0-9]+(?:-[a-z0-9]+)*-\d+\.html)");
  const std::vector<VersionedPage> pages = GenerateVersionedSite(o);
  for (const VersionedPage& p : pages) {
    int t = -1;
    EXPECT_TRUE(RE2::FullMatch(p.url, shape, &t)) << p.url;
    EXPECT_EQ(t, p.template_index) << p.url;
  }
  for (int variant = 0; variant < 5; ++variant) {
    VersionedSiteOptions v = o;
    if (variant == 0) v.epoch = 1;
    if (variant == 1) v.epoch = 30;
    if (variant == 2) v.ads = true;
    if (variant == 3) v.optional_section = true;
    if (variant == 4) v.restyled = {0, 2, 4};
    EXPECT_EQ(Urls(GenerateVersionedSite(v)), urls) << "variant " << variant;
  }
}

TEST(VersionedSiteTest, OptionsAreClamped) {
  VersionedSiteOptions o = Options(0, 2);
  EXPECT_EQ(GenerateVersionedSite(o).size(), 2u);
  o.templates = 100;
  EXPECT_EQ(GenerateVersionedSite(o).size(), 80u);
  o.pages_per_template = -3;
  EXPECT_TRUE(GenerateVersionedSite(o).empty());
  VersionedSiteOptions odd = Options(2, 3);
  odd.restyled = {-1, 7};
  odd.epoch = -4;
  const std::vector<VersionedPage> plain = GenerateVersionedSite(Options(2, 3));
  const std::vector<VersionedPage> got = GenerateVersionedSite(odd);
  ASSERT_EQ(got.size(), plain.size());
  for (size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i].html, plain[i].html);
  // One page per template: related tiles point at the page itself.
  EXPECT_EQ(GenerateVersionedSite(Options(3, 1)).size(), 3u);
}

TEST(VersionedSiteTest, SchemaJsonIsValidAndMatchesTheTruth) {
  absl::StatusOr<schema::CompiledSchema> compiled =
      schema::CompiledSchema::FromJson(VersionedSiteSchemaJson(), "versioned site");
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  std::vector<std::string> names;
  std::map<std::string, std::string> type;
  std::set<std::string> mandatory, constant;
  for (const v1::AttributeSchema& a : compiled->proto().attributes()) {
    names.push_back(a.name());
    type[a.name()] = a.type();
    if (a.mandatory()) mandatory.insert(a.name());
    if (a.constant()) constant.insert(a.name());
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, Attributes());
  EXPECT_EQ(mandatory, (std::set<std::string>{"price", "sku", "title"}));
  EXPECT_EQ(constant, (std::set<std::string>{"brand", "sku", "title"}));
  // Typed values are what the type's regex picks out of them.
  for (const VersionedPage& p : GenerateVersionedSite(Options(3, 10))) {
    for (const auto& [name, values] : p.truth) {
      const char* regex = schema::TypeRegex(type[name]);
      if (regex == nullptr) continue;
      for (const std::string& v : values) {
        std::string match;
        EXPECT_TRUE(RE2::PartialMatch(v, std::string("(") + regex + ")", &match))
            << name << ": " << v;
        EXPECT_EQ(match, v) << name;
      }
    }
  }
}

// Every attribute is a key; values have the documented shapes and are each
// the text of one element or text node, in every variant of the site.
TEST(VersionedSiteTest, TruthValuesAreTheTextOfOneNode) {
  const RE2 price(R"(\$\d{1,3}(?:,\d{3})*\.\d\d)"), sku(R"(SKU-\d{5})"), rating(R"([1-5]\.\d)"),
      count(R"(\d+)"), stock(R"(In stock|Only [2-9] left|Out of stock)");
  int entities = 0;
  for (int variant = 0; variant < 4; ++variant) {
    VersionedSiteOptions o = Options(4, 10);
    o.epoch = variant;
    o.ads = variant == 1;
    o.optional_section = variant == 2;
    if (variant == 3) o.restyled = {0, 1, 2, 3};
    for (const VersionedPage& p : GenerateVersionedSite(o)) {
      std::vector<std::string> keys;
      for (const auto& [name, values] : p.truth) keys.push_back(name);
      ASSERT_EQ(keys, Attributes()) << p.url;
      for (const char* mandatory :
           {"title", "sku", "price", "brand", "availability", "reviews_count"}) {
        EXPECT_EQ(p.truth.at(mandatory).size(), 1u) << p.url << " " << mandatory;
      }
      EXPECT_EQ(p.truth.at("rating").empty(),
                p.truth.at("reviews_count") == std::vector<std::string>{"0"});
      for (const std::string& v : p.truth.at("price")) EXPECT_TRUE(RE2::FullMatch(v, price)) << v;
      for (const std::string& v : p.truth.at("sku")) EXPECT_TRUE(RE2::FullMatch(v, sku)) << v;
      for (const std::string& v : p.truth.at("rating")) EXPECT_TRUE(RE2::FullMatch(v, rating)) << v;
      for (const std::string& v : p.truth.at("reviews_count"))
        EXPECT_TRUE(RE2::FullMatch(v, count)) << v;
      for (const std::string& v : p.truth.at("availability"))
        EXPECT_TRUE(RE2::FullMatch(v, stock)) << v;
      const std::set<std::string> texts = NodeTexts(p.html);
      for (const auto& [name, values] : p.truth) {
        for (const std::string& v : values) {
          EXPECT_TRUE(texts.count(v)) << p.url << " " << name << ": " << v;
        }
      }
      // A title with '&' is written with an entity, never raw.
      const std::string& title = p.truth.at("title")[0];
      if (title.find('&') != std::string::npos) {
        ++entities;
        EXPECT_EQ(p.html.find(title), std::string::npos) << p.url;
      }
    }
  }
  EXPECT_GT(entities, 0) << "no title with an '&'";
}

// Sizes of 8-25 KB; within each template, 0 to 5+ reviews, several sets of
// specification rows and several page sizes.
TEST(VersionedSiteTest, PagesAreModestAndVaryWithinATemplate) {
  static const char* kSpecNames[] = {"Weight", "Dimensions",        "Material", "Warranty",
                                     "Power",  "Country of origin", "Care",     "In the box"};
  const std::vector<VersionedPage> pages = GenerateVersionedSite(Options(20, 20));
  std::map<int, std::set<size_t>> sizes;
  std::map<int, std::set<std::string>> spec_rows;
  std::set<std::string> counts;
  for (const VersionedPage& p : pages) {
    EXPECT_GE(p.html.size(), 8u * 1024) << p.url;
    EXPECT_LE(p.html.size(), 25u * 1024) << p.url;
    sizes[p.template_index].insert(p.html.size());
    std::string rows;
    for (const char* name : kSpecNames) {
      rows += p.html.find(std::string(">") + name + "</") != std::string::npos ? '1' : '0';
    }
    spec_rows[p.template_index].insert(rows);
    const int n = std::stoi(p.truth.at("reviews_count")[0]);
    counts.insert(n >= 5 ? "5+" : std::to_string(n));
  }
  for (int t = 0; t < 20; ++t) {
    EXPECT_GE(sizes[t].size(), 15u) << "template " << t;
    EXPECT_GE(spec_rows[t].size(), 10u) << "template " << t;
  }
  EXPECT_EQ(counts, (std::set<std::string>{"0", "1", "2", "3", "4", "5+"}));
}

TEST(VersionedSiteTest, OneClusterPerTemplate) {
  OneClusterPerTemplate(GenerateVersionedSite(Options(3, 20)), 3);
  OneClusterPerTemplate(GenerateVersionedSite(Options(20, 20)), 20);
  // The redesigned templates are templates of their own.
  VersionedSiteOptions restyled = Options(3, 20);
  restyled.restyled = {0, 1, 2};
  OneClusterPerTemplate(GenerateVersionedSite(restyled), 3);
}

// No two templates agree on six of the eight bytes of their vectors (what a
// cluster signature keeps), so none can share a cluster; within a template
// the vectors differ in two bytes at most (0 or 1 review shown).
TEST(VersionedSiteTest, TemplatesAreStructurallyDistinct) {
  constexpr int kTemplates = 20;
  std::vector<std::map<uint64_t, shingle::ShingleVector>> vectors(kTemplates);
  for (const VersionedPage& p : GenerateVersionedSite(Options(kTemplates, 20))) {
    const shingle::ShingleVector v = VectorOf(p);
    vectors[p.template_index][shingle::Pack(v)] = v;
  }
  for (int a = 0; a < kTemplates; ++a) {
    for (const auto& [pa, va] : vectors[a]) {
      for (const auto& [pb, vb] : vectors[a]) {
        EXPECT_GE(shingle::MatchingBytes(va, vb), 6) << "template " << a;
      }
      for (int b = a + 1; b < kTemplates; ++b) {
        for (const auto& [pb, vb] : vectors[b]) {
          EXPECT_LE(shingle::MatchingBytes(va, vb), 5) << "templates " << a << " and " << b;
        }
      }
    }
  }
}

TEST(VersionedSiteTest, EpochsChangeDailyValuesOnly) {
  VersionedSiteOptions o = Options(5, 20);
  const std::vector<VersionedPage> day0 = GenerateVersionedSite(o);
  o.epoch = 1;
  const std::vector<VersionedPage> day1 = GenerateVersionedSite(o);
  ASSERT_EQ(day0.size(), day1.size());
  int price = 0, any = 0;
  for (size_t i = 0; i < day0.size(); ++i) {
    for (const char* constant : {"title", "brand", "sku"}) {
      EXPECT_EQ(day0[i].truth.at(constant), day1[i].truth.at(constant)) << day0[i].url;
    }
    EXPECT_LE(std::stoi(day0[i].truth.at("reviews_count")[0]),
              std::stoi(day1[i].truth.at("reviews_count")[0]));
    price += day0[i].truth.at("price") != day1[i].truth.at("price");
    bool changed = false;
    for (const char* daily : {"price", "availability", "rating", "reviews_count"}) {
      changed |= day0[i].truth.at(daily) != day1[i].truth.at(daily);
    }
    any += changed;
  }
  EXPECT_GE(price, static_cast<int>(day0.size() * 7 / 10));
  EXPECT_GE(any, static_cast<int>(day0.size() * 9 / 10));
}

// Measured cover fractions of the epoch-0 signatures, printed for the record.
struct Covers {
  std::vector<double> epoch1, ads, optional, restyled;
};

Covers MeasureCovers(int templates, int pages) {
  const VersionedSiteOptions base = Options(templates, pages);
  const std::map<int, shingle::MaskedVector> sig =
      OneClusterPerTemplate(GenerateVersionedSite(base), templates);
  Covers c;
  VersionedSiteOptions o = base;
  o.epoch = 1;
  const std::vector<VersionedPage> epoch1 = GenerateVersionedSite(o);
  o = base;
  o.ads = true;
  const std::vector<VersionedPage> ads = GenerateVersionedSite(o);
  o = base;
  o.optional_section = true;
  const std::vector<VersionedPage> optional = GenerateVersionedSite(o);
  o = base;
  for (int t = 0; t < templates; ++t) o.restyled.insert(t);
  const std::vector<VersionedPage> restyled = GenerateVersionedSite(o);
  for (int t = 0; t < templates; ++t) {
    if (!sig.count(t)) continue;
    c.epoch1.push_back(CoverFraction(sig.at(t), epoch1, t));
    c.ads.push_back(CoverFraction(sig.at(t), ads, t));
    c.optional.push_back(CoverFraction(sig.at(t), optional, t));
    c.restyled.push_back(CoverFraction(sig.at(t), restyled, t));
  }
  const auto print = [](const char* what, const std::vector<double>& v) {
    std::string line;
    double sum = 0;
    for (double f : v) {
      line += " " + std::to_string(static_cast<int>(f * 100 + 0.5)) + "%";
      sum += f;
    }
    std::printf("  %-9s all %3d%%:%s\n", what, static_cast<int>(sum * 100 / v.size() + 0.5),
                line.c_str());
  };
  std::printf("Cover of the epoch-0 signatures, %d templates x %d pages, per template:\n",
              templates, pages);
  print("epoch 1", c.epoch1);
  print("ads", c.ads);
  print("optional", c.optional);
  print("restyled", c.restyled);
  return c;
}

TEST(VersionedSiteTest, SignaturesCoverTheNextEpochNotARedesign) {
  for (int templates : {3, 20}) {
    const Covers c = MeasureCovers(templates, 20);
    for (size_t t = 0; t < c.epoch1.size(); ++t) {
      EXPECT_GE(c.epoch1[t], 0.9) << "template " << t;
      EXPECT_LT(c.restyled[t], 0.2) << "template " << t;
    }
  }
}

TEST(VersionedSiteTest, AdsAndOptionalSectionKeepTheRecord) {
  const VersionedSiteOptions base = Options(3, 20);
  const std::vector<VersionedPage> plain = GenerateVersionedSite(base);
  VersionedSiteOptions o = base;
  o.ads = true;
  const std::vector<VersionedPage> ads = GenerateVersionedSite(o);
  o = base;
  o.optional_section = true;
  const std::vector<VersionedPage> optional = GenerateVersionedSite(o);
  int with_section = 0;
  for (size_t i = 0; i < plain.size(); ++i) {
    EXPECT_EQ(ads[i].truth, plain[i].truth);
    EXPECT_EQ(optional[i].truth, plain[i].truth);
    EXPECT_NE(ads[i].html.find("class=\"ad-slot\""), std::string::npos);
    EXPECT_LT(ads[i].html.size() - plain[i].html.size(), 1200u) << "a small ad block";
    const bool recent = optional[i].html.find("Recently viewed") != std::string::npos;
    with_section += recent;
    if (!recent) {
      EXPECT_EQ(optional[i].html, plain[i].html);
    }
  }
  EXPECT_GE(with_section, static_cast<int>(plain.size() / 4));
  EXPECT_LE(with_section, static_cast<int>(plain.size() * 3 / 4));
}

TEST(VersionedSiteTest, RestyleRedesignsOneTemplateOnly) {
  const VersionedSiteOptions base = Options(3, 20);
  const std::vector<VersionedPage> plain = GenerateVersionedSite(base);
  for (int k = 0; k < 3; ++k) {
    VersionedSiteOptions o = base;
    o.restyled = {k};
    const std::vector<VersionedPage> redesigned = GenerateVersionedSite(o);
    ASSERT_EQ(redesigned.size(), plain.size());
    for (size_t i = 0; i < plain.size(); ++i) {
      EXPECT_EQ(redesigned[i].truth, plain[i].truth) << plain[i].url;
      if (plain[i].template_index != k) {
        EXPECT_EQ(redesigned[i].html, plain[i].html) << plain[i].url;
        continue;
      }
      // Every class of the main content renamed.
      const std::set<std::string> before = MainClasses(plain[i].html),
                                  after = MainClasses(redesigned[i].html);
      ASSERT_FALSE(before.empty());
      for (const std::string& c : after)
        EXPECT_FALSE(before.count(c)) << plain[i].url << " keeps " << c;
    }
  }
}

}  // namespace
}  // namespace vertex::demo
