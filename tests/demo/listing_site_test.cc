#include "common/demo/listing_site.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/rule/url.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::demo {
namespace {

ListingSite Generate(const ListingSiteOptions& options) {
  absl::StatusOr<ListingSite> site = GenerateListingSite(options);
  EXPECT_TRUE(site.ok()) << site.status();
  return site.ok() ? *std::move(site) : ListingSite{};
}

ListingSiteOptions Options(ListingDomain domain, uint64_t seed, int pages = 12) {
  ListingSiteOptions o;
  o.domain = domain;
  o.seed = seed;
  o.pages = pages;
  return o;
}

// Whether any page's html matches `pattern` (RE2).
int PagesMatching(const ListingSite& site, const std::string& pattern) {
  const RE2 re(pattern);
  EXPECT_TRUE(re.ok()) << pattern;
  int n = 0;
  for (const ListingPage& p : site.pages) n += RE2::PartialMatch(p.html, re) ? 1 : 0;
  return n;
}

// What a parsed page shows: every element's normalised text, and every
// a@href resolved.
struct PageView {
  std::set<std::string> texts;
  std::set<std::string> links;
};

PageView View(const ListingPage& page) {
  html::Parser parser;
  absl::StatusOr<html::Page> parsed = parser.Parse(page.html, page.url);
  EXPECT_TRUE(parsed.ok()) << page.file_name << ": " << parsed.status();
  PageView view;
  if (!parsed.ok()) return view;
  const html::Node root = parsed->root();
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (!n.is_element()) continue;
    view.texts.insert(n.Text());
    if (n.tag() == "a" && n.has_attribute("href")) {
      absl::StatusOr<std::string> url = rule::ResolveUrl(page.url, n.attribute("href"));
      if (url.ok()) view.links.insert(*url);
    }
  }
  return view;
}

TEST(ListingSiteTest, SameSeedSameBytesOtherSeedOtherSite) {
  for (ListingDomain d : {ListingDomain::kRealEstate, ListingDomain::kUsedCars}) {
    const ListingSite a = Generate(Options(d, 7));
    const ListingSite b = Generate(Options(d, 7));
    const ListingSite c = Generate(Options(d, 8));
    ASSERT_EQ(a.pages.size(), 12u);
    for (size_t i = 0; i < a.pages.size(); ++i) {
      EXPECT_EQ(a.pages[i].html, b.pages[i].html);
      EXPECT_EQ(a.pages[i].url, b.pages[i].url);
      EXPECT_EQ(eval::ListTruthToJson(a.pages[i].truth), eval::ListTruthToJson(b.pages[i].truth));
      EXPECT_NE(a.pages[i].html, c.pages[i].html);
    }
  }
}

TEST(ListingSiteTest, UrlsFilesAndHostAreWellFormed) {
  const ListingSite site = Generate(Options(ListingDomain::kUsedCars, 3, 30));
  const RE2 url("http://" + RE2::QuoteMeta(site.host) + R"(/search\?page=\d+&area=[a-z0-9-]+)");
  std::set<std::string> urls;
  for (size_t i = 0; i < site.pages.size(); ++i) {
    const ListingPage& p = site.pages[i];
    EXPECT_TRUE(RE2::FullMatch(p.url, url)) << p.url;
    EXPECT_TRUE(urls.insert(p.url).second) << p.url;
    EXPECT_EQ(p.file_name, (i < 10 ? "000" : "00") + std::to_string(i) + ".htm");
    EXPECT_EQ(p.truth.file, p.file_name);
    EXPECT_EQ(p.truth.url, p.url);
  }
  ListingSiteOptions o = Options(ListingDomain::kRealEstate, 3, 2);
  o.host = "homes.example.test";
  EXPECT_EQ(Generate(o).pages[0].url.rfind("http://homes.example.test/search?page=", 0), 0u);
}

// Every truth link is an href of the page and every details link of the
// page is a truth link; every value is in its text, and every text is the
// text of an element.
TEST(ListingSiteTest, TruthAgreesWithThePage) {
  for (ListingDomain d : {ListingDomain::kRealEstate, ListingDomain::kUsedCars}) {
    for (int layout = 0; layout < kRecordLayouts; ++layout) {
      ListingSiteOptions o = Options(d, 100 + layout, 6);
      o.layout = layout;
      const ListingSite site = Generate(o);
      const RE2 details(R"(http://[^/]+/(property|car)/\d+)");
      for (const ListingPage& page : site.pages) {
        const PageView view = View(page);
        std::set<std::string> truth_links;
        for (const eval::TruthArea& area : page.truth.areas) {
          for (const eval::TruthRecord& r : area.records) {
            EXPECT_TRUE(truth_links.insert(r.link).second) << "link twice: " << r.link;
            EXPECT_EQ(view.links.count(r.link), 1u) << page.file_name << " " << r.link;
            for (const auto& [name, v] : r.attributes) {
              EXPECT_EQ(html::NormalizeSpace(v.text), v.text) << name;
              EXPECT_EQ(view.texts.count(v.text), 1u)
                  << page.file_name << " layout " << layout << " " << name << ": " << v.text;
              if (name == "link") {
                EXPECT_EQ(v.value, r.link);
              } else {
                EXPECT_NE(v.text.find(v.value), std::string::npos) << name << ": " << v.text;
              }
            }
            for (const char* a : {"price", "link"}) {
              EXPECT_EQ(r.attributes.count(a), 1u) << "regular attribute " << a << " missing";
            }
          }
        }
        for (const std::string& link : view.links) {
          if (RE2::FullMatch(link, details)) {
            EXPECT_EQ(truth_links.count(link), 1u) << "details link not in truth: " << link;
          }
        }
      }
    }
  }
}

// The records of each layout are the sibling sequence it names.
TEST(ListingSiteTest, LayoutsGiveTheirSiblingSequences) {
  for (int layout = 0; layout < kRecordLayouts; ++layout) {
    ListingSiteOptions o = Options(ListingDomain::kRealEstate, 5, 3);
    o.layout = layout;
    o.featured_fraction = 0;
    const ListingSite site = Generate(o);
    ASSERT_EQ(static_cast<int>(site.layout), layout);
    const std::vector<std::string> tags =
        absl::StrSplit(RecordLayoutName(site.layout), '+');
    EXPECT_EQ(static_cast<int>(tags.size()), RecordLength(site.layout));
    for (const ListingPage& page : site.pages) {
      html::Parser parser;
      absl::StatusOr<html::Page> parsed = parser.Parse(page.html, page.url);
      ASSERT_TRUE(parsed.ok()) << parsed.status();
      size_t records = 0;
      const html::Node root = parsed->root();
      for (html::Node n = root; n; n = n.NextInDocument(root)) {
        if (n.tag() != "a" || n.attribute("class") != "title") continue;
        // Up to the child of the list container (class "results", or the
        // tbody of a results table).
        html::Node child = n;
        while (child.parent() && child.parent().attribute("class") != "results" &&
               !(child.parent().tag() == "tbody")) {
          child = child.parent();
        }
        ASSERT_TRUE(child.parent()) << "title link outside the list";
        html::Node s = child;
        for (const std::string& tag : tags) {
          ASSERT_TRUE(s) << RecordLayoutName(site.layout);
          EXPECT_EQ(s.tag(), tag) << RecordLayoutName(site.layout);
          do {
            s = s.next_sibling();
          } while (s && !s.is_element());
        }
        ++records;
      }
      EXPECT_EQ(records, page.truth.areas.back().records.size());
    }
  }
}

TEST(ListingSiteTest, GridPutsThreeRecordsInARow) {
  ListingSiteOptions o = Options(ListingDomain::kUsedCars, 9, 4);
  o.grid = true;
  o.ads = false;
  o.min_records = 7;
  o.max_records = 7;
  const ListingSite site = Generate(o);
  EXPECT_EQ(PagesMatching(site, "class=\"results grid\""), 4);
  for (const ListingPage& page : site.pages) {
    EXPECT_EQ(page.truth.areas.back().records.size(), 7u);
    // Rows of 3, 3 and 1 records, each record a <td> with a class.
    std::string html = page.html;
    int full_rows = 0;
    re2::StringPiece in(html);
    while (RE2::FindAndConsume(&in, R"(<tr>\s*<td class[^\n]*\n\s*<td class[^\n]*\n\s*<td class)")) {
      ++full_rows;
    }
    EXPECT_EQ(full_rows, 2) << page.file_name;
  }
  EXPECT_EQ(PagesMatching(Generate(Options(ListingDomain::kUsedCars, 9, 4)), "results grid"), 0);
}

TEST(ListingSiteTest, RecordCountsPeakAtFiveAndTen) {
  std::map<int, int> counts;
  for (uint64_t seed = 1; seed <= 80; ++seed) {
    for (ListingDomain d : {ListingDomain::kRealEstate, ListingDomain::kUsedCars}) {
      for (const ListingPage& p : Generate(Options(d, seed, 3)).pages) {
        const size_t n = p.truth.areas.back().records.size();
        EXPECT_GE(n, 3u);
        EXPECT_LE(n, 50u);
        ++counts[static_cast<int>(n)];
      }
    }
  }
  std::vector<std::pair<int, int>> by_count;
  for (const auto& [records, pages] : counts) by_count.push_back({pages, records});
  std::sort(by_count.rbegin(), by_count.rend());
  std::set<int> top2 = {by_count[0].second, by_count[1].second};
  EXPECT_EQ(top2, (std::set<int>{5, 10}));
  // Explicit ranges, up to the stress sizes.
  ListingSiteOptions o = Options(ListingDomain::kRealEstate, 4, 3);
  o.min_records = 1000;
  o.max_records = 1000;
  for (const ListingPage& p : Generate(o).pages) {
    EXPECT_EQ(p.truth.areas.back().records.size(), 1000u);
  }
}

// Each noise knob shows on some pages when on and on none when off.
TEST(ListingSiteTest, EveryKnobShowsWhenOnAndNotWhenOff) {
  struct Knob {
    std::string name;
    std::function<void(ListingSiteOptions&, bool)> set;
    std::string pattern;
    ListingDomain domain = ListingDomain::kRealEstate;
  };
  const std::vector<Knob> knobs = {
      {"ads", [](ListingSiteOptions& o, bool on) { o.ads = on; }, "class=\"ad\""},
      {"average_price", [](ListingSiteOptions& o, bool on) { o.average_price = on; },
       "Average asking price in [^<]+: <b>£[0-9,]+</b>"},
      {"old_prices", [](ListingSiteOptions& o, bool on) { o.old_prices = on; },
       "<del class=\"was\">£[0-9,]+</del>"},
      {"description_numbers",
       [](ListingSiteOptions& o, bool on) {
         o.description_numbers = on;
         o.ambiguous_codes = false;
       },
       "class=\"description\">[^<]*[0-9]"},
      {"refinement_menu", [](ListingSiteOptions& o, bool on) { o.refinement_menu = on; },
       "class=\"count\">\\(\\d+\\)</span>"},
      {"pagination", [](ListingSiteOptions& o, bool on) { o.pagination = on; },
       "class=\"pagination\""},
      {"navigation", [](ListingSiteOptions& o, bool on) { o.navigation = on; }, "<nav>"},
      {"footer_towns", [](ListingSiteOptions& o, bool on) { o.footer_towns = on; },
       "class=\"towns\""},
      {"area_noise", [](ListingSiteOptions& o, bool on) { o.area_noise_fraction = on ? 1 : 0; },
       "class=\"(notice|save-search)\""},
      {"featured", [](ListingSiteOptions& o, bool on) { o.featured_fraction = on ? 1 : 0; },
       "class=\"featured\""},
      {"premium", [](ListingSiteOptions& o, bool on) { o.premium_fraction = on ? 0.2 : 0; },
       "class=\"badge\">Premium"},
      {"wrapper_variation", [](ListingSiteOptions& o, bool on) { o.wrapper_variation = on; },
       "<em"},
      {"ambiguous_codes (cars)", [](ListingSiteOptions& o, bool on) { o.ambiguous_codes = on; },
       "class=\"location\">[^<]* \\([A-Z]{1,2}[0-9]{1,2}\\)<", ListingDomain::kUsedCars},
      {"ambiguous_codes (homes)", [](ListingSiteOptions& o, bool on) { o.ambiguous_codes = on; },
       "Easy access to the [AM][0-9]+"},
  };
  for (const Knob& k : knobs) {
    for (int layout : {0, 5}) {
      ListingSiteOptions on = Options(k.domain, 21, 20);
      on.layout = layout;
      ListingSiteOptions off = on;
      k.set(on, true);
      k.set(off, false);
      EXPECT_GT(PagesMatching(Generate(on), k.pattern), 0) << k.name << " on";
      EXPECT_EQ(PagesMatching(Generate(off), k.pattern), 0) << k.name << " off";
    }
  }
  // Always-on knobs are on every page.
  ListingSiteOptions all = Options(ListingDomain::kRealEstate, 22, 10);
  all.area_noise_fraction = 1;
  all.featured_fraction = 1;
  const ListingSite site = Generate(all);
  EXPECT_EQ(PagesMatching(site, "class=\"(notice|save-search)\""), 10);
  for (const ListingPage& p : site.pages) EXPECT_EQ(p.truth.areas.size(), 2u);
}

TEST(ListingSiteTest, OptionalAttributesGoMissingOnlyWhenAsked) {
  for (ListingDomain d : {ListingDomain::kRealEstate, ListingDomain::kUsedCars}) {
    for (bool missing : {true, false}) {
      ListingSiteOptions o = Options(d, 31, 30);
      o.missing_attributes = missing;
      o.featured_fraction = 0;
      std::map<std::string, int> present;
      int records = 0;
      for (const ListingPage& p : Generate(o).pages) {
        for (const eval::TruthRecord& r : p.truth.areas.back().records) {
          ++records;
          for (const auto& [name, v] : r.attributes) ++present[name];
        }
      }
      for (const std::string& a : ListingAttributes(d)) {
        const double rate = 1.0 - static_cast<double>(present[a]) / records;
        const bool optional = a != "price" && a != "link" && a != "make" && a != "model" &&
                              !(d == ListingDomain::kRealEstate && a == "location");
        if (!missing || !optional) {
          // Electric cars have no engine size.
          EXPECT_LE(rate, a == "engine_size" ? 0.3 : 0.0) << a << " missing=" << missing;
        } else {
          EXPECT_GT(rate, 0.05) << a;
          EXPECT_LT(rate, a == "engine_size" ? 0.75 : 0.6) << a;
        }
      }
    }
  }
}

TEST(ListingSiteTest, LinksAreAbsoluteOrRelativeAcrossSites) {
  std::set<std::string> kinds;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    const ListingSite site = Generate(Options(ListingDomain::kRealEstate, seed, 1));
    if (PagesMatching(site, R"(href="http://[^"]+/property/\d+" class="title")") > 0) {
      kinds.insert("absolute");
    }
    if (PagesMatching(site, R"(href="/property/\d+" class="title")") > 0) kinds.insert("root");
    if (PagesMatching(site, R"(href="property/\d+" class="title")") > 0) kinds.insert("relative");
  }
  EXPECT_EQ(kinds, (std::set<std::string>{"absolute", "root", "relative"}));
}

TEST(ListingSiteTest, BadOptionsAreRejectedByName) {
  const struct {
    std::function<void(ListingSiteOptions&)> set;
    std::string message;
  } kCases[] = {
      {[](ListingSiteOptions& o) { o.pages = -1; }, "pages"},
      {[](ListingSiteOptions& o) { o.layout = kRecordLayouts; }, "layout"},
      {[](ListingSiteOptions& o) { o.min_records = 5; }, "records"},
      {[](ListingSiteOptions& o) { o.min_records = 9, o.max_records = 4; }, "records"},
      {[](ListingSiteOptions& o) { o.min_records = 1, o.max_records = 10001; }, "records"},
      {[](ListingSiteOptions& o) { o.featured_fraction = 2; }, "featured_fraction"},
      {[](ListingSiteOptions& o) { o.premium_fraction = -0.5; }, "premium_fraction"},
      {[](ListingSiteOptions& o) { o.area_noise_fraction = std::nan(""); }, "area_noise_fraction"},
  };
  for (const auto& c : kCases) {
    ListingSiteOptions o;
    c.set(o);
    absl::StatusOr<ListingSite> site = GenerateListingSite(o);
    ASSERT_FALSE(site.ok()) << c.message;
    EXPECT_EQ(site.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(site.status().message().find(c.message), std::string::npos) << site.status();
  }
  EXPECT_FALSE(ParseListingDomain("cars").ok());
  EXPECT_EQ(*ParseListingDomain("used_cars"), ListingDomain::kUsedCars);
  EXPECT_EQ(ListingDomainName(*ParseListingDomain("real_estate")), "real_estate");
}

TEST(ListingVocabularyTest, PlaceNamesAreAboutTwoThousandDistinctAndSorted) {
  const std::vector<std::string>& names = ListingPlaceNames();
  EXPECT_EQ(names.size(), 2000u);
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_EQ(std::set<std::string>(names.begin(), names.end()).size(), names.size());
  const RE2 plausible(R"([A-Z][a-z]+( [A-Z][a-z]+)*(-[a-z]+(-[a-z]+)*-[A-Z][a-z]+)?)");
  for (const std::string& n : names) EXPECT_TRUE(RE2::FullMatch(n, plausible)) << n;
  for (const char* decorated : {"Little ", "Upper ", "-on-Sea"}) {
    EXPECT_TRUE(std::any_of(names.begin(), names.end(), [&](const std::string& n) {
      return n.find(decorated) != std::string::npos;
    })) << decorated;
  }
}

TEST(ListingVocabularyTest, GazetteerSamplesHaveTheRequestedSizesAndNest) {
  const std::vector<std::string>& names = ListingPlaceNames();
  std::vector<std::string> larger = names;
  for (double f : {1.0, 0.75, 0.5, 0.25, 0.2}) {
    const std::vector<std::string> sample = GazetteerSample(names, f, 42);
    EXPECT_EQ(sample.size(), static_cast<size_t>(f * 2000 + 0.5)) << f;
    EXPECT_TRUE(std::is_sorted(sample.begin(), sample.end()));
    EXPECT_TRUE(std::includes(larger.begin(), larger.end(), sample.begin(), sample.end())) << f;
    EXPECT_EQ(sample, GazetteerSample(names, f, 42));
    larger = sample;
  }
  EXPECT_NE(GazetteerSample(names, 0.25, 42), GazetteerSample(names, 0.25, 43));
  EXPECT_TRUE(GazetteerSample(names, -1, 1).empty());
  EXPECT_EQ(GazetteerSample(names, 7, 1).size(), 2000u);
}

TEST(ListingVocabularyTest, CarMakesHoldRealModelsAndCodes) {
  const std::vector<CarMake>& makes = ListingCarMakes();
  EXPECT_GE(makes.size(), 25u);
  std::set<std::string> models;
  for (const CarMake& m : makes) {
    EXPECT_FALSE(m.models.empty()) << m.make;
    models.insert(m.models.begin(), m.models.end());
  }
  for (const char* code : {"X5", "A4", "3 Series"}) EXPECT_EQ(models.count(code), 1u) << code;
}

}  // namespace
}  // namespace vertex::demo
