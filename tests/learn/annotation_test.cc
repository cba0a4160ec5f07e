#include "common/learn/annotation.h"

#include "common/html/text.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

// The title appears in <title>, in a breadcrumb and in the <h1>; on one page
// the breadcrumb comes first, on another a related-items list repeats it.
std::string BookPage(const std::string& title, bool crumb_first, bool related) {
  std::string crumbs = "<div class=crumbs><a>Books</a> &gt; <span>" + title + "</span></div>";
  std::string body = "<h1 class=t>" + title + "</h1>";
  std::string rel = related ? "<ul class=rel><li>" + title + " (Audio CD)</li></ul>" : "";
  return "<html><head><title>" + title + " | Shop</title><script>var t='" + title +
         "';</script></head><body>" + (crumb_first ? crumbs + body : body + crumbs) + rel + "</body></html>";
}

TEST(AnnotationTest, AmbiguousValuesResolveToTheConsistentOccurrence) {
  html::Parser parser;
  std::vector<html::Page> pages;
  pages.push_back(parser.Parse(BookPage("Game Over", true, false), "u0").value());
  pages.push_back(parser.Parse(BookPage("The Overton Window", false, true), "u1").value());
  pages.push_back(parser.Parse(BookPage("Dune", true, true), "u2").value());
  std::vector<ValueAnnotation> anns = {
      {&pages[0], {"game over"}}, {&pages[1], {"The  Overton Window"}}, {&pages[2], {"Dune"}}};
  const std::vector<ResolvedAnnotation> r = ResolveValues(anns);
  ASSERT_EQ(r.size(), 3u);
  for (size_t i = 0; i < r.size(); ++i) {
    ASSERT_EQ(r[i].nodes.size(), 1u) << i;
    EXPECT_TRUE(r[i].not_found.empty());
    // The breadcrumb, the h1 (+ the related item): never <title> or the
    // script, which no editor sees.
    EXPECT_GE(r[i].occurrences[0], 2u) << i;
    // Breadcrumb span and h1 tie on consistency (both on every page, always
    // the whole text); whichever wins, it must win on every page, whatever
    // their order on the page.
    EXPECT_EQ(r[i].nodes[0].parent().tag(), r[0].nodes[0].parent().tag()) << i;
    EXPECT_NE(r[i].nodes[0].parent().tag(), "title");
    EXPECT_NE(r[i].nodes[0].parent().tag(), "li");
  }
}

// Regression: with the title on every page, <title> (same path on every
// page) beat the h1 (whose path varied) and the rule learnt the page title.
TEST(AnnotationTest, HeadTextIsNeverAnAnnotation) {
  html::Parser parser;
  html::Page page = parser.Parse(
      "<html><head><title>Dune by Frank Herbert</title></head><body><h1>Dune</h1></body></html>", "u").value();
  const std::vector<ResolvedAnnotation> r = ResolveValues({{&page, {"Dune", "Frank Herbert"}}});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].nodes.size(), 1u);
  EXPECT_EQ(r[0].nodes[0].parent().tag(), "h1");
  EXPECT_EQ(r[0].not_found, std::vector<std::string>{"Frank Herbert"});
}

// Regression (tiny sites): one annotated page whose related-products tiles
// list the page's own product; the title in the <h1> and in two tiles tie
// on every other count, and the tiles (a key holding a node per tile) won
// by the key's spelling ("a" < "h1"): the rule then extracted another
// product's tile on the other pages.
TEST(AnnotationTest, OneStructureHoldingFewNodesBeatsAListOfThem) {
  html::Parser parser;
  const std::string tiles =
      "<div class=tiles><div class=tile><div class=name><a>Speaker</a></div></div>"
      "<div class=tile><div class=name><a>Monitor</a></div></div>"
      "<div class=tile><div class=name><a>Speaker</a></div></div>"
      "<div class=tile><div class=name><a>Monitor</a></div></div></div>";
  for (const bool tiles_first : {true, false}) {
    const std::string h1 = "<h1 class=title>Monitor</h1>";
    html::Page page =
        parser.Parse("<html><body>" + (tiles_first ? tiles + h1 : h1 + tiles) + "</body></html>", "u").value();
    const std::vector<ResolvedAnnotation> r = ResolveValues({{&page, {"Monitor"}}});
    ASSERT_EQ(r.size(), 1u);
    ASSERT_EQ(r[0].nodes.size(), 1u);
    EXPECT_EQ(r[0].occurrences[0], 3u);
    EXPECT_EQ(r[0].nodes[0].parent().tag(), "h1") << tiles_first;
  }
}

TEST(AnnotationTest, MultipleValuesAndValuesNotFound) {
  html::Parser parser;
  html::Page page = parser.Parse(
      "<div class=by>By <a>Glenn Beck</a>, <a>Kevin Balfe</a></div><p>About Glenn Beck's career</p>", "u").value();
  const std::vector<ResolvedAnnotation> r =
      ResolveValues({{&page, {"Glenn Beck", "Kevin Balfe", "Nobody Here"}}});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].nodes.size(), 2u);
  EXPECT_EQ(html::NormalizeSpace(r[0].nodes[0].RawText()), "Glenn Beck");  // whole-text match wins
  EXPECT_EQ(html::NormalizeSpace(r[0].nodes[1].RawText()), "Kevin Balfe");
  EXPECT_EQ(r[0].not_found, std::vector<std::string>{"Nobody Here"});
  EXPECT_EQ(r[0].occurrences, (std::vector<size_t>{2, 1, 0}));
}

}  // namespace
}  // namespace vertex::learn
