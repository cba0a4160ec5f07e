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

struct SourceCase {
  const char* name;
  const char* html;  // inside <body> unless it starts with "<html"
  std::vector<std::string> values;
  ValueSource source;
  const char* tag;  // of the chosen node (its parent's for a text node)
  const char* attribute;
  const char* json_path;
  const char* text;  // ValueLocation::text of the first value
};

// One row per source a value can be found in, and the order among them.
TEST(AnnotationTest, ValuesResolveInTheirSource) {
  const std::vector<SourceCase> cases = {
      {"text node", "<h1>Walnut Desk</h1><a href='/walnut-desk' title='Walnut Desk'>x</a>", {"walnut desk"},
       ValueSource::kText, "h1", "", "", "Walnut Desk"},
      {"inline markup", "<h1 class=t>The <em>Great</em> Gatsby</h1>", {"The Great Gatsby"}, ValueSource::kElement,
       "h1", "", "", "The Great Gatsby"},
      {"<br> address", "<div><p class=addr>12 Main St<br>Springfield</p></div>", {"12 Main St Springfield"},
       ValueSource::kElement, "p", "", "", "12 Main St\nSpringfield"},
      {"td with markup", "<table><tr><td>Price: <b>$80</b> each</td></tr></table>", {"Price: $80 each"},
       ValueSource::kElement, "td", "", "", "Price: $80 each"},
      {"relative href, annotated resolved", "<a class=more href='../p/7'>Details</a>", {"http://shop.test/p/7"},
       ValueSource::kAttribute, "a", "href", "", "http://shop.test/p/7"},
      {"relative href, annotated as written", "<a class=more href='../p/7'>Details</a>", {"/p/7"},
       ValueSource::kAttribute, "a", "href", "", "http://shop.test/p/7"},
      {"href against <base>",
       "<html><head><base href='http://static.test/s/'></head><body><a href='x/1'>Go</a></body></html>",
       {"http://static.test/s/x/1"}, ValueSource::kAttribute, "a", "href", "", "http://static.test/s/x/1"},
      {"img srcset", "<img srcset='/a-1x.jpg 1x, /a-2x.jpg 2x'>", {"http://shop.test/a-1x.jpg"},
       ValueSource::kAttribute, "img", "srcset", "", "http://shop.test/a-1x.jpg"},
      {"time datetime", "<p>Listed <time datetime='2026-03-01'>March 1</time></p>", {"2026-03-01"},
       ValueSource::kAttribute, "time", "datetime", "", "2026-03-01"},
      {"data-*", "<button data-sku='SKU-2231'>Add to cart</button>", {"sku-2231"}, ValueSource::kAttribute,
       "button", "data-sku", "", "SKU-2231"},
      {"meta og:title in <head>",
       "<html><head><title>Walnut Desk</title><meta property='og:title' content='Walnut Desk'></head>"
       "<body><p>Desk</p></body></html>",
       {"Walnut Desk"}, ValueSource::kAttribute, "meta", "content", "", "Walnut Desk"},
      {"link rel=canonical in <head>",
       "<html><head><link rel='canonical' href='/item/9'><link rel='stylesheet' href='/item/9'></head>"
       "<body><p>x</p></body></html>",
       {"http://shop.test/item/9"}, ValueSource::kAttribute, "link", "href", "", "http://shop.test/item/9"},
      {"JSON-LD, found nowhere else",
       "<p>Desk</p><script type='application/ld+json'>{\"offers\": {\"price\": \"19.99\"}}</script>", {"19.99"},
       ValueSource::kJsonLd, "script", "", "offers.price", "19.99"},
  };
  html::Parser parser;
  for (const SourceCase& c : cases) {
    std::string doc = c.html;
    if (doc.rfind("<html", 0) != 0) doc = "<html><body>" + doc + "</body></html>";
    html::Page page = parser.Parse(doc, "http://shop.test/item/101").value();
    const std::vector<ResolvedAnnotation> r = ResolveValues({{&page, c.values}});
    ASSERT_EQ(r.size(), 1u) << c.name;
    ASSERT_TRUE(r[0].not_found.empty()) << c.name;
    ASSERT_EQ(r[0].nodes.size(), c.values.size()) << c.name;
    ASSERT_EQ(r[0].locations.size(), c.values.size()) << c.name;
    EXPECT_EQ(ValueSourceName(r[0].source), std::string(ValueSourceName(c.source))) << c.name;
    const html::Node n = r[0].nodes[0];
    EXPECT_EQ(n.is_text() ? n.parent().tag() : n.tag(), c.tag) << c.name;
    EXPECT_EQ(r[0].locations[0].attribute, c.attribute) << c.name;
    EXPECT_EQ(r[0].locations[0].json_path, c.json_path) << c.name;
    EXPECT_EQ(r[0].locations[0].text, c.text) << c.name;
  }
}

// What is not a source: <head>'s other text and attributes, scripts'
// attributes, attributes outside the list, JSON that does not parse, and
// attribute values that only contain the value.
TEST(AnnotationTest, WhatIsNotASource) {
  const std::vector<std::pair<const char*, const char*>> cases = {
      {"<html><head><title>Walnut Desk</title></head><body><p>x</p></body></html>", "Walnut Desk"},
      {"<html><head><link rel=stylesheet href='/s.css'></head><body><p>x</p></body></html>", "/s.css"},
      {"<html><head><meta name=description content=x></head><body><p>x</p></body></html>", "description"},
      {"<p>x</p><script src='/app.js'></script>", "/app.js"},
      {"<p class='walnut-desk' id=walnut>x</p>", "walnut"},
      {"<a title='Buy the Walnut Desk now'>x</a>", "Walnut Desk"},
      {"<p>x</p><script type='application/ld+json'>{\"price\": \"19.99\",}</script>", "19.99"},
      {"<p>x</p><script type='text/javascript'>{\"price\": \"19.99\"}</script>", "19.99"},
  };
  html::Parser parser;
  for (const auto& [doc, value] : cases) {
    const std::string full = std::string(doc).rfind("<html", 0) == 0 ? doc : "<html><body>" + std::string(doc) + "</body></html>";
    html::Page page = parser.Parse(full, "http://shop.test/item/101").value();
    const std::vector<ResolvedAnnotation> r = ResolveValues({{&page, {value}}});
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].not_found, std::vector<std::string>{value}) << doc;
    EXPECT_TRUE(r[0].nodes.empty()) << doc;
  }
}

// One rule reads one kind of node: the source that finds the most values
// over all annotated pages is used for all of them, the earlier on a tie.
TEST(AnnotationTest, OneSourceForAllPages) {
  html::Parser parser;
  std::vector<html::Page> pages;
  // "Emma" is one text node; "Moby Dick" needs the element: both resolve to
  // the h1 element.
  pages.push_back(parser.Parse("<html><body><h1 class=t>Emma</h1></body></html>", "http://s.test/1").value());
  pages.push_back(parser.Parse("<html><body><h1 class=t>Moby <em>Dick</em></h1></body></html>", "http://s.test/2").value());
  const std::vector<ResolvedAnnotation> r = ResolveValues({{&pages[0], {"Emma"}}, {&pages[1], {"Moby Dick"}}});
  ASSERT_EQ(r.size(), 2u);
  for (const ResolvedAnnotation& a : r) {
    ASSERT_EQ(a.nodes.size(), 1u);
    EXPECT_EQ(a.source, ValueSource::kElement);
    EXPECT_EQ(a.nodes[0].tag(), "h1");
  }
  // The same structure voted across pages for attributes: the nav link's
  // href equals the value on one page only.
  std::vector<html::Page> links;
  links.push_back(parser.Parse("<html><body><a class=nav href='/p/1'>Home</a><a class=more href='/p/1'>x</a></body></html>",
                               "http://s.test/a").value());
  links.push_back(parser.Parse("<html><body><a class=nav href='/'>Home</a><a class=more href='/p/2'>x</a></body></html>",
                               "http://s.test/b").value());
  const std::vector<ResolvedAnnotation> l =
      ResolveValues({{&links[0], {"http://s.test/p/1"}}, {&links[1], {"http://s.test/p/2"}}});
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l[0].occurrences[0], 2u);
  for (const ResolvedAnnotation& a : l) {
    ASSERT_EQ(a.nodes.size(), 1u);
    EXPECT_EQ(a.nodes[0].attribute("class"), "more");
  }
}

// Regression (issue 15, list pages learnt from a feed): a list's values
// repeat ("Alice" wrote entries 1, 3 and 4); each repetition names the next
// node of its structure in page order, never the first one again, and only
// the occurrences no value took are repeats.
TEST(AnnotationTest, ARepeatedValueTakesTheNextNodeInPageOrder) {
  html::Parser parser;
  html::Page page = parser.Parse(
      "<html><body><p class=by>Alice</p><ul><li class=a>Alice</li><li class=a>Bob</li><li class=a>Alice</li>"
      "<li class=a>Alice</li></ul></body></html>", "u").value();
  const std::vector<ResolvedAnnotation> r = ResolveValues({{&page, {"Alice", "Bob", "Alice"}}});
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].nodes.size(), 3u);
  const std::vector<html::Node> items = [&] {
    std::vector<html::Node> out;
    for (html::Node li = page.root(); li; li = li.NextInDocument(page.root())) {
      if (li.is_element() && li.tag() == "li") out.push_back(li.first_child());
    }
    return out;
  }();
  ASSERT_EQ(items.size(), 4u);
  EXPECT_TRUE(r[0].nodes[0] == items[0]);
  EXPECT_TRUE(r[0].nodes[1] == items[1]);
  EXPECT_TRUE(r[0].nodes[2] == items[2]);
  ASSERT_EQ(r[0].repeats.size(), 1u);  // the fourth item; the <p> is another structure
  EXPECT_TRUE(r[0].repeats[0] == items[3]);
}

}  // namespace
}  // namespace vertex::learn
