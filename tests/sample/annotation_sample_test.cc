#include "common/sample/annotation_sample.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::sample {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// ---- Helpers ----

// A page from (path, content) pairs given in any order.
PageXPaths MakePage(std::vector<PathContent> items) {
  std::sort(items.begin(), items.end());
  items.erase(std::unique(items.begin(), items.end()), items.end());
  return PageXPaths{std::move(items)};
}

PageXPaths Extract(std::string_view html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://example.com/p");
  EXPECT_TRUE(page.ok()) << page.status().ToString();
  if (!page.ok()) return {};
  return ExtractXPaths(*page);
}

PathContent Item(std::string_view path, std::string_view text) {
  return {PathHash(path), ContentHash(text)};
}

const XPathWeight* Find(const std::vector<XPathWeight>& weights, uint64_t path) {
  for (const XPathWeight& w : weights) {
    if (w.path == path) return &w;
  }
  return nullptr;
}

std::vector<size_t> PickedPages(const std::vector<SamplePick>& picks) {
  std::vector<size_t> pages;
  for (const SamplePick& pick : picks) pages.push_back(pick.page);
  return pages;
}

// ---- Weights ----

// Three pages:
//   X1  the same content on every page (boilerplate)
//   X2  a different content on every page (an attribute)
//   X3  only on page 0
//   X4  on pages 0 and 1 with the same content
//   X5  on every page, page 0 holding two contents (a list), page 1 one of them
std::vector<PageXPaths> ThreePageCluster() {
  return {MakePage({{1, 7}, {2, 101}, {3, 5}, {4, 9}, {5, 1000}, {5, 1001}}),
          MakePage({{1, 7}, {2, 102}, {4, 9}, {5, 1000}}), MakePage({{1, 7}, {2, 103}, {5, 1002}})};
}

TEST(ComputeXPathWeights, HandComputedThreePageCluster) {
  struct Case {
    uint64_t path;
    size_t pages, contents, content_pages;
    double informativeness, weight;
  };
  const Case cases[] = {
      // I = 1 - S / (M |T|), w = F I, with M = 3.
      {1, 3, 1, 3, 0.0, 0.0},          // 1 - 3/3
      {2, 3, 3, 3, 2.0 / 3, 2.0},      // 1 - 3/9
      {3, 1, 1, 1, 2.0 / 3, 2.0 / 3},  // 1 - 1/3
      {4, 2, 1, 2, 1.0 / 3, 2.0 / 3},  // 1 - 2/3
      {5, 3, 3, 4, 5.0 / 9, 5.0 / 3},  // 1 - 4/9
  };
  const std::vector<XPathWeight> weights = ComputeXPathWeights(ThreePageCluster());
  ASSERT_EQ(weights.size(), std::size(cases));
  for (const Case& c : cases) {
    SCOPED_TRACE(testing::Message() << "XPath " << c.path);
    const XPathWeight* w = Find(weights, c.path);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->pages, c.pages);
    EXPECT_EQ(w->contents, c.contents);
    EXPECT_EQ(w->content_pages, c.content_pages);
    EXPECT_DOUBLE_EQ(w->informativeness, c.informativeness);
    EXPECT_DOUBLE_EQ(w->weight, c.weight);
  }
}

TEST(ComputeXPathWeights, BoilerplateIsExactlyZero) {
  // Two contents, both on every page: I = 1 - (3 + 3) / (3 * 2) = 0.
  const std::vector<PageXPaths> pages = {MakePage({{1, 7}, {1, 8}}), MakePage({{1, 7}, {1, 8}}),
                                         MakePage({{1, 7}, {1, 8}})};
  const std::vector<XPathWeight> weights = ComputeXPathWeights(pages);
  ASSERT_EQ(weights.size(), 1u);
  EXPECT_EQ(weights[0].informativeness, 0.0);
  EXPECT_EQ(weights[0].weight, 0.0);
}

TEST(ComputeXPathWeights, DistinctContentsApproachOne) {
  // X on all M pages, a different content on each: I = 1 - M / M^2.
  for (const size_t m : {2u, 10u, 1000u}) {
    SCOPED_TRACE(testing::Message() << "M = " << m);
    std::vector<PageXPaths> pages;
    for (size_t p = 0; p < m; ++p) pages.push_back(MakePage({{42, p}}));
    const std::vector<XPathWeight> weights = ComputeXPathWeights(pages);
    ASSERT_EQ(weights.size(), 1u);
    EXPECT_DOUBLE_EQ(weights[0].informativeness, 1.0 - 1.0 / m);
    EXPECT_DOUBLE_EQ(weights[0].weight, m - 1.0);
  }
}

TEST(ComputeXPathWeights, OrderedByPathAndEmptyForNoItems) {
  const std::vector<XPathWeight> weights = ComputeXPathWeights(ThreePageCluster());
  EXPECT_TRUE(std::is_sorted(weights.begin(), weights.end(),
                             [](const auto& a, const auto& b) { return a.path < b.path; }));
  EXPECT_THAT(ComputeXPathWeights({}), IsEmpty());
  EXPECT_THAT(ComputeXPathWeights({PageXPaths{}, PageXPaths{}}), IsEmpty());
}

// ---- Greedy selection ----

// Four pages, M = 4:
//   A  every page, distinct contents      w = 4 (1 - 4/16) = 3
//   B  pages 0, 1, distinct contents      w = 2 (1 - 2/8)  = 1.5
//   C  pages 2, 3, distinct contents      w = 1.5
//   D  page 3 only                        w = 1 (1 - 1/4)  = 0.75
//   N  every page, same content           w = 0
// Gains: pages 0-2 4.5, page 3 5.25. After page 3: page 0 1.5, page 1 1.5
// (tie: page 0), page 2 0. After page 0 nothing is uncovered.
std::vector<PageXPaths> FourPageCluster() {
  constexpr uint64_t kA = 10, kB = 20, kC = 30, kD = 40, kN = 50;
  return {MakePage({{kA, 1}, {kB, 1}, {kN, 9}}), MakePage({{kA, 2}, {kB, 2}, {kN, 9}}),
          MakePage({{kA, 3}, {kC, 3}, {kN, 9}}), MakePage({{kA, 4}, {kC, 4}, {kD, 4}, {kN, 9}})};
}

TEST(SelectAnnotationSample, HandComputedGreedyOrder) {
  const std::vector<SamplePick> picks = SelectAnnotationSample(FourPageCluster());
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_EQ(picks[0].page, 3u);
  EXPECT_DOUBLE_EQ(picks[0].added_weight, 5.25);
  EXPECT_EQ(picks[1].page, 0u);
  EXPECT_DOUBLE_EQ(picks[1].added_weight, 1.5);
}

TEST(SelectAnnotationSample, AddedWeightsSumToTotalWeight) {
  const std::vector<PageXPaths> pages = ThreePageCluster();
  double total = 0;
  for (const XPathWeight& w : ComputeXPathWeights(pages)) total += w.weight;
  double added = 0;
  for (const SamplePick& pick : SelectAnnotationSample(pages)) added += pick.added_weight;
  EXPECT_NEAR(added, total, 1e-8);
}

TEST(SelectAnnotationSample, CoveredXPathsCountOnce) {
  // Every page holds A (distinct contents, w = 4 (1 - 4/16) = 3) and one XPath
  // of its own (w = 1 - 1/4 = 0.75). Once page 0 covers A, the later pages add
  // only their own XPath, however often A is re-encountered.
  std::vector<PageXPaths> pages;
  for (uint64_t p = 0; p < 4; ++p) pages.push_back(MakePage({{1, p}, {100 + p, 0}}));
  const std::vector<SamplePick> picks = SelectAnnotationSample(pages);
  ASSERT_EQ(picks.size(), 4u);
  const double expected[] = {3.75, 0.75, 0.75, 0.75};
  for (size_t i = 0; i < picks.size(); ++i) {
    EXPECT_EQ(picks[i].page, i);
    EXPECT_DOUBLE_EQ(picks[i].added_weight, expected[i]);
  }
}

TEST(SelectAnnotationSample, TieBreaking) {
  struct Case {
    const char* name;
    std::vector<PageXPaths> pages;
    std::vector<size_t> expected;
  };
  // Each XPath below occurs on one page only, so w = 1 - 1/M per XPath.
  const Case cases[] = {
      {"identical pages", {MakePage({{1, 1}}), MakePage({{1, 1}}), MakePage({{1, 1}})}, {0}},
      {"equal gains, different XPaths",
       {MakePage({{1, 1}}), MakePage({{2, 1}}), MakePage({{3, 1}})},
       {0, 1, 2}},
      {"later pages tie above an earlier one",
       {MakePage({{1, 1}}), MakePage({{2, 1}, {3, 1}}), MakePage({{4, 1}, {5, 1}})},
       {1, 2, 0}},
      {"same multiset of weights, different item order",
       {MakePage({{1, 1}}), MakePage({{9, 1}, {2, 1}, {3, 2}, {3, 3}}),
        MakePage({{4, 1}, {5, 2}, {5, 3}, {6, 1}})},
       {1, 2, 0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(PickedPages(SelectAnnotationSample(c.pages)), c.expected);
  }
}

TEST(SelectAnnotationSample, StopsAtK) {
  std::vector<PageXPaths> pages;
  for (uint64_t p = 0; p < 30; ++p) pages.push_back(MakePage({{p, p}}));  // one XPath each
  struct Case {
    size_t k, expected;
  };
  for (const Case& c : {Case{0, 0}, Case{1, 1}, Case{2, 2}, Case{20, 20}, Case{100, 30}}) {
    SCOPED_TRACE(testing::Message() << "K = " << c.k);
    const std::vector<SamplePick> picks = SelectAnnotationSample(pages, {.max_pages = c.k});
    ASSERT_EQ(picks.size(), c.expected);
    for (size_t i = 0; i < picks.size(); ++i) EXPECT_EQ(picks[i].page, i);
  }
  EXPECT_EQ(SelectAnnotationSample(pages).size(), 20u);  // the default K
}

TEST(SelectAnnotationSample, StopsWhenNothingIsLeftToAdd) {
  // Page 0 holds every XPath; pages 1-3 hold subsets of it.
  const std::vector<PageXPaths> pages = {MakePage({{1, 1}, {2, 1}, {3, 1}}),
                                         MakePage({{1, 2}, {2, 2}}), MakePage({{1, 3}}),
                                         MakePage({{1, 4}, {3, 4}})};
  const std::vector<SamplePick> picks = SelectAnnotationSample(pages, {.max_pages = 20});
  ASSERT_EQ(picks.size(), 1u);
  EXPECT_EQ(picks[0].page, 0u);
  EXPECT_GT(picks[0].added_weight, 0.0);
}

TEST(SelectAnnotationSample, AllZeroWeightStillOffersPageZeroOnce) {
  struct Case {
    const char* name;
    std::vector<PageXPaths> pages;
  };
  const Case cases[] = {
      {"one-page cluster", {MakePage({{1, 1}, {2, 2}})}},
      {"identical pages", {MakePage({{1, 1}, {2, 2}}), MakePage({{1, 1}, {2, 2}})}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::vector<SamplePick> picks = SelectAnnotationSample(c.pages);
    ASSERT_EQ(picks.size(), 1u);
    EXPECT_EQ(picks[0].page, 0u);
    EXPECT_EQ(picks[0].added_weight, 0.0);
  }
}

TEST(SelectAnnotationSample, EmptyInputs) {
  EXPECT_THAT(SelectAnnotationSample({}), IsEmpty());
  EXPECT_THAT(SelectAnnotationSample({PageXPaths{}, PageXPaths{}}), IsEmpty());
  // An empty page never wins, even at index 0.
  EXPECT_THAT(PickedPages(SelectAnnotationSample({PageXPaths{}, MakePage({{1, 1}})})),
              ElementsAre(1u));
}

TEST(SelectAnnotationSample, UnsortedPagesAreNormalised) {
  std::vector<PageXPaths> shuffled = FourPageCluster();
  for (PageXPaths& page : shuffled) {
    std::reverse(page.items.begin(), page.items.end());
    page.items.push_back(page.items.front());  // a duplicate
  }
  const std::vector<SamplePick> expected = SelectAnnotationSample(FourPageCluster());
  const std::vector<SamplePick> actual = SelectAnnotationSample(shuffled);
  ASSERT_EQ(actual.size(), expected.size());
  for (size_t i = 0; i < actual.size(); ++i) {
    EXPECT_EQ(actual[i].page, expected[i].page);
    EXPECT_EQ(actual[i].added_weight, expected[i].added_weight);
  }
  const std::vector<XPathWeight> weights = ComputeXPathWeights(shuffled);
  const XPathWeight* a = Find(weights, 10);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->content_pages, 4u);  // the duplicate is not counted
}

// ---- ExtractXPaths ----

TEST(ExtractXPaths, PathsAreTagAndClassSteps) {
  const PageXPaths x = Extract(
      "<html><head><title>T</title></head><body>"
      "<div class=\"main\"><span class=\"price\">$5</span></div>"
      "<div><span>x</span></div>"
      "<p class=\"  a   b \">two classes</p>"
      "</body></html>");
  EXPECT_EQ(x.items,
            MakePage({Item("html/head/title", "T"), Item("html/body/div.main/span.price", "$5"),
                      Item("html/body/div/span", "x"), Item("html/body/p.a.b", "two classes")})
                .items);
}

TEST(ExtractXPaths, ClassDistinguishesPaths) {
  const PageXPaths a = Extract("<div class=\"a\">t</div>");
  const PageXPaths b = Extract("<div class=\"b\">t</div>");
  const PageXPaths none = Extract("<div>t</div>");
  const PageXPaths blank = Extract("<div class=\" \">t</div>");
  ASSERT_EQ(a.items.size(), 1u);
  ASSERT_EQ(b.items.size(), 1u);
  ASSERT_EQ(none.items.size(), 1u);
  EXPECT_NE(a.items[0].path, b.items[0].path);
  EXPECT_NE(a.items[0].path, none.items[0].path);
  EXPECT_EQ(a.items[0].content, b.items[0].content);
  EXPECT_EQ(blank.items, none.items);  // a blank class is no class
}

TEST(ExtractXPaths, SkipsScriptStyleNoscriptAndBlankText) {
  const PageXPaths x = Extract(
      "<html><head><style>p { color: red }</style><script>var a = 1;</script></head>"
      "<body><div><script>var b = 2;</script>kept<noscript>enable js</noscript>"
      "<pre>   </pre></div></body></html>");
  EXPECT_EQ(x.items, MakePage({Item("html/body/div", "kept")}).items);
}

TEST(ExtractXPaths, NormalisesContentAndKeepsSeveralContentsPerPath) {
  const PageXPaths x =
      Extract("<ul><li>  one\n\t two </li><li>three</li><li>three</li><li>one two</li></ul>");
  EXPECT_EQ(x.items,
            MakePage({Item("html/body/ul/li", "one two"), Item("html/body/ul/li", "three")}).items);
}

TEST(ExtractXPaths, ResumesAfterDeepSubtrees) {
  const PageXPaths x = Extract("<body>a<div><p><b>b</b></p>c</div>d<p>e</p></body>");
  EXPECT_EQ(x.items,
            MakePage({Item("html/body", "a"), Item("html/body/div/p/b", "b"),
                      Item("html/body/div", "c"), Item("html/body", "d"), Item("html/body/p", "e")})
                .items);
}

TEST(ExtractXPaths, SamePageTwiceGivesIdenticalSets) {
  const std::string html =
      "<html><body><div class=\"item\"><h1>Name</h1><span>$1</span></div>"
      "<ul><li>a</li><li>b</li></ul></body></html>";
  const PageXPaths first = Extract(html);
  const PageXPaths second = Extract(html);
  EXPECT_FALSE(first.items.empty());
  EXPECT_EQ(first.items, second.items);
}

TEST(ExtractXPaths, FourHundredLevelsDeep) {
  constexpr int kDepth = 400;
  std::string html = "<html><body>";
  std::string path = "html/body";
  for (int i = 0; i < kDepth; ++i) {
    html += "<div>";
    path += "/div";
  }
  html += "deep";
  for (int i = 0; i < kDepth; ++i) html += "</div>";
  html += "<p>after</p></body></html>";
  const PageXPaths x = Extract(html);
  EXPECT_EQ(x.items, MakePage({Item(path, "deep"), Item("html/body/p", "after")}).items);
}

// ---- End to end: HTML pages -> XPath sets -> sample ----

// A product page: boilerplate navigation and footer, a distinct name and
// price, and either an optional specification table (`specs`) or, the
// disjunctive alternative, a fixed "no details" notice.
std::string ProductPage(int i, bool specs) {
  const std::string n = std::to_string(i);
  std::string html =
      "<html><head><title>Shop</title></head><body>"
      "<ul class=\"nav\"><li>Home</li><li>Deals</li><li>Help</li></ul>"
      "<div class=\"product\"><h1>Product " +
      n +
      "</h1>"
      "<span class=\"price\">$" +
      n + ".99</span>";
  if (specs) {
    html += "<table class=\"specs\"><tr class=\"weight\"><td>" + n +
            " kg</td></tr><tr class=\"color\"><td>colour " + n + "</td></tr></table>";
  } else {
    html += "<p class=\"notice\">No details available.</p>";
  }
  return html + "</div><div class=\"footer\">(c) Shop Inc.</div></body></html>";
}

TEST(EndToEnd, FirstPickHasTheOptionalInformativeSection) {
  constexpr int kPages = 12;
  const std::vector<int> with_specs = {5, 9};
  std::vector<PageXPaths> pages;
  for (int i = 0; i < kPages; ++i) {
    const bool specs = std::count(with_specs.begin(), with_specs.end(), i) > 0;
    pages.push_back(Extract(ProductPage(i, specs)));
  }
  const std::vector<SamplePick> picks = SelectAnnotationSample(pages);
  // Navigation, title and footer weigh 0; name and price are on all 12 pages
  // with 12 contents (w = 11 each); each spec row is on 2 pages with distinct
  // contents (w = 2 (1 - 2/24)); the notice is on 10 pages with one content
  // (w = 10 (1 - 10/12)). Page 5 adds 22 + 11/3, pages without specs only
  // 22 + 5/3; then the notice is all that is left, and page 0 covers it.
  EXPECT_THAT(PickedPages(picks), ElementsAre(5u, 0u));
  ASSERT_EQ(picks.size(), 2u);
  EXPECT_NEAR(picks[0].added_weight, 22 + 2 * (2 - 4.0 / 24), 1e-6);
  EXPECT_NEAR(picks[1].added_weight, 10 * (1 - 10.0 / 12), 1e-6);
}

}  // namespace
}  // namespace vertex::sample
