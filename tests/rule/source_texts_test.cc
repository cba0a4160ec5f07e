// SourceTexts: what a node offers a rule under each way of reading it —
// text node, element (rendered lines joined by "\n"), attribute (URLs
// resolved, srcset's first URL), JSON-LD path.
#include <string>
#include <vector>

#include "common/html/page.h"
#include "common/rule/value.h"
#include "gtest/gtest.h"

namespace vertex::rule {
namespace {

struct SourceCase {
  const char* name;
  const char* html;         // inside <body> unless it starts with "<html"
  const char* target;       // tag of the node read; "#text": the first text node of the first `p`
  const char* value_attribute;
  const char* json_path;
  std::vector<std::string> want;
};

html::Node Target(const html::Page& page, std::string_view target) {
  const html::Node root = page.root();
  const bool text = target == "#text";
  for (html::Node n = root; n; n = n.NextInDocument(root)) {
    if (n.tag() == (text ? "p" : target)) return text ? n.first_child() : n;
  }
  return html::Node();
}

TEST(SourceTextsTest, EachWayOfReadingANode) {
  const std::vector<SourceCase> cases = {
      {"text node", "<p>  Walnut\n Desk </p>", "#text", "", "", {"Walnut Desk"}},
      {"element with inline markup", "<h1>The <em>Great</em> Gatsby</h1>", "h1", "", "", {"The Great Gatsby"}},
      {"element with <br>", "<p>12 Main St<br>Springfield</p>", "p", "", "", {"12 Main St\nSpringfield"}},
      {"element with blocks", "<div><p>a</p><p></p><p>b  c</p></div>", "div", "", "", {"a\nb c"}},
      {"empty element", "<div><img src=x.jpg></div>", "div", "", "", {}},
      {"relative href", "<a href='../p/7?ref=x'>Details</a>", "a", "href", "", {"http://shop.test/p/7?ref=x"}},
      {"absolute href", "<a href='https://cdn.test/a/1'>x</a>", "a", "href", "", {"https://cdn.test/a/1"}},
      {"href against <base>",
       "<html><head><base href='http://static.test/shop/'></head><body><a href='x/1'>Go</a></body></html>", "a",
       "href", "", {"http://static.test/shop/x/1"}},
      {"srcset", "<img srcset='/a-1x.jpg 1x, /a-2x.jpg 2x'>", "img", "srcset", "", {"http://shop.test/a-1x.jpg"}},
      {"datetime", "<time datetime='2026-03-01'>March 1</time>", "time", "datetime", "", {"2026-03-01"}},
      {"data-*", "<button data-sku='SKU-2231'>Add</button>", "button", "data-sku", "", {"SKU-2231"}},
      {"missing attribute", "<button>Add</button>", "button", "data-sku", "", {}},
      {"meta og:title", "<html><head><meta property='og:title' content='Walnut Desk'></head><body></body></html>",
       "meta", "content", "", {"Walnut Desk"}},
      {"JSON-LD path", "<script type='application/ld+json'>{\"offers\": {\"price\": \"19.99\"}}</script>", "script",
       "", "offers.price", {"19.99"}},
      {"JSON-LD list", "<script type='application/ld+json'>{\"author\": [{\"name\": \"A\"}, {\"name\": \" B \"}]}</script>",
       "script", "", "author.name", {"A", "B"}},
      {"JSON-LD bad JSON", "<script type='application/ld+json'>{\"offers\": </script>", "script", "", "offers.price",
       {}},
      {"JSON path on another script", "<script>{\"offers\": {\"price\": 1}}</script>", "script", "", "offers.price",
       {}},
  };
  html::Parser parser;
  for (const SourceCase& c : cases) {
    std::string doc = c.html;
    if (doc.rfind("<html", 0) != 0) doc = "<html><body>" + doc + "</body></html>";
    html::Page page = parser.Parse(doc, "http://shop.test/item/101").value();
    const html::Node node = Target(page, c.target);
    ASSERT_TRUE(node) << c.name;
    v1::AttributeRule rule;
    rule.set_value_attribute(c.value_attribute);
    rule.set_json_path(c.json_path);
    EXPECT_EQ(SourceTexts(page, node, rule), c.want) << c.name;
  }
}

}  // namespace
}  // namespace vertex::rule
