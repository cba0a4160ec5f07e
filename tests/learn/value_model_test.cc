// The value model's cases (issue 12), one row per case: a few pages of one
// template, the values an editor types on the first page(s), and the values
// the learnt rule must give on the other pages of the template. Every row
// goes through LearnRule over all of its pages (the cluster's sample: the
// annotated pages and the others) and CompiledRule::Apply, as the engine
// does. The pages are written for this test; no XPath is written down.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/learn/learn_case.h"

namespace vertex::learn {
namespace {

struct CasePage {
  std::string body;                 // inside <body>, or a whole document when it starts with "<html"
  std::vector<std::string> values;  // typed by the editor (annotated pages) or expected (the others)
};

struct Case {
  const char* name;
  // One attribute's schema: {"name": "v", ...}.
  const char* attribute_json;
  std::vector<CasePage> pages;
  size_t annotated = 1;  // the first `annotated` pages
};

std::string Document(const CasePage& p) {
  if (p.body.rfind("<html", 0) == 0) return p.body;
  return "<html><head><title>Shop</title></head><body><div id=nav><a href=/>Home</a> <a href=/c>Catalog</a></div>" +
         p.body + "<div id=foot>Contact us · Terms</div></body></html>";
}

// Runs one case; "" when every test page gives its expected values, else
// what went wrong.
std::string RunCase(const Case& c) {
  std::vector<testing::CaseDocument> documents;
  for (size_t i = 0; i < c.pages.size(); ++i) {
    documents.push_back({Document(c.pages[i]), absl::StrCat("http://shop.test/item/", 100 + i), c.pages[i].values});
  }
  absl::StatusOr<testing::LearntCase> learnt = testing::LearnCase(c.name, c.attribute_json, documents, c.annotated);
  if (!learnt.ok()) return std::string(learnt.status().message());
  return testing::ExtractionMismatches(*learnt, documents);
}

// A product block: `inner` inside the template's frame, with a varying
// neighbour so that the frame is not the only text.
std::string Product(const std::string& inner, int i) {
  return absl::StrCat("<div class=product><h2 class=name>Item ", i, "</h2>", inner,
                      "<p class=stock>In stock: ", 3 + i, "</p></div>");
}

std::vector<Case> Cases() {
  std::vector<Case> cases;
  // ---- Values held in attributes ----
  cases.push_back({"relative link href", R"({"name": "link", "type": "url"})",
                   {{Product("<a class=more href=\"/p/4411\">Details</a>", 1), {"http://shop.test/p/4411"}},
                    {Product("<a class=more href=\"/p/93\">Details</a>", 2), {"http://shop.test/p/93"}},
                    {Product("<a class=more href=\"../p/7?ref=x\">Details</a>", 3), {"http://shop.test/p/7?ref=x"}}}});
  cases.push_back({"absolute link href", R"({"name": "link", "type": "url"})",
                   {{Product("<a class=more href=\"https://cdn.example.org/a/1\">More</a>", 1), {"https://cdn.example.org/a/1"}},
                    {Product("<a class=more href=\"https://cdn.example.org/b/22\">More</a>", 2), {"https://cdn.example.org/b/22"}},
                    {Product("<a class=more href=\"/local/3\">More</a>", 3), {"http://shop.test/local/3"}}}});
  cases.push_back({"link against <base>", R"({"name": "link", "type": "url"})",
                   {{"<html><head><base href=\"http://static.test/shop/\"></head><body><a id=go href=\"x/1\">Go</a><p>a</p></body></html>",
                     {"http://static.test/shop/x/1"}},
                    {"<html><head><base href=\"http://static.test/shop/\"></head><body><a id=go href=\"y/22\">Go</a><p>b</p></body></html>",
                     {"http://static.test/shop/y/22"}}}});
  cases.push_back({"image src", R"({"name": "image", "type": "image"})",
                   {{Product("<img class=photo src=\"/img/red-chair.jpg\" alt=\"Red chair\">", 1), {"http://shop.test/img/red-chair.jpg"}},
                    {Product("<img class=photo src=\"/img/oak-table.png\" alt=\"Oak table\">", 2), {"http://shop.test/img/oak-table.png"}},
                    {Product("<img class=photo src=\"https://img.test/lamp.webp\" alt=\"Lamp\">", 3), {"https://img.test/lamp.webp"}}}});
  cases.push_back({"image srcset", R"({"name": "image", "type": "image"})",
                   {{Product("<img class=photo srcset=\"/img/a-1x.jpg 1x, /img/a-2x.jpg 2x\">", 1), {"http://shop.test/img/a-1x.jpg"}},
                    {Product("<img class=photo srcset=\"/img/b-1x.jpg 1x, /img/b-2x.jpg 2x\">", 2), {"http://shop.test/img/b-1x.jpg"}},
                    {Product("<img class=photo srcset=\"/img/c-1x.jpg 1x\">", 3), {"http://shop.test/img/c-1x.jpg"}}}});
  cases.push_back({"meta og:title content", R"({"name": "title"})",
                   {{"<html><head><title>Shop</title><meta property=\"og:title\" content=\"Walnut Desk\"></head><body><p>Desk</p><p>$1</p></body></html>",
                     {"Walnut Desk"}},
                    {"<html><head><title>Shop</title><meta property=\"og:title\" content=\"Pine Shelf\"></head><body><p>Shelf</p><p>$2</p></body></html>",
                     {"Pine Shelf"}},
                    {"<html><head><title>Shop</title><meta property=\"og:title\" content=\"Birch Stool\"></head><body><p>Stool</p><p>$3</p></body></html>",
                     {"Birch Stool"}}}});
  cases.push_back({"time datetime", R"({"name": "published"})",
                   {{Product("<p>Listed <time datetime=\"2026-03-01\">March 1</time></p>", 1), {"2026-03-01"}},
                    {Product("<p>Listed <time datetime=\"2025-11-30\">Nov 30</time></p>", 2), {"2025-11-30"}},
                    {Product("<p>Listed <time datetime=\"2024-07-04\">July 4</time></p>", 3), {"2024-07-04"}}}});
  cases.push_back({"data-* attribute", R"({"name": "sku"})",
                   {{Product("<button class=buy data-sku=\"SKU-2231\">Add to cart</button>", 1), {"SKU-2231"}},
                    {Product("<button class=buy data-sku=\"SKU-87\">Add to cart</button>", 2), {"SKU-87"}},
                    {Product("<button class=buy data-sku=\"SKU-9001\">Add to cart</button>", 3), {"SKU-9001"}}}});
  // ---- Prices with currency and suffix text ----
  cases.push_back({"price with currency and suffix", R"({"name": "price", "type": "price"})",
                   {{Product("<p class=price>£340.00 (inc VAT)</p>", 1), {"340.00"}},
                    {Product("<p class=price>£47.82 (inc VAT)</p>", 2), {"47.82"}},
                    {Product("<p class=price>£1,299.00 (inc VAT)</p>", 3), {"1,299.00"}}}});
  cases.push_back({"price glued to its currency", R"({"name": "price", "type": "price"})",
                   {{Product("<p class=price>€13.00</p>", 1), {"13.00"}},
                    {Product("<p class=price>€7.50</p>", 2), {"7.50"}},
                    {Product("<p class=price>€120.99</p>", 3), {"120.99"}}}});
  cases.push_back({"price with a unit suffix", R"({"name": "price", "type": "price"})",
                   {{Product("<p class=price>$ 5.99 each</p>", 1), {"$ 5.99"}},
                    {Product("<p class=price>$ 12.50 each</p>", 2), {"$ 12.50"}},
                    {Product("<p class=price>$ 0.99 each</p>", 3), {"$ 0.99"}}}});
  // ---- Values across text nodes ----
  cases.push_back({"value with inline markup", R"({"name": "title"})",
                   {{Product("<h1 class=t>The <em>Great</em> Gatsby</h1>", 1), {"The Great Gatsby"}},
                    {Product("<h1 class=t>Moby <em>Dick</em></h1>", 2), {"Moby Dick"}},
                    {Product("<h1 class=t>Emma</h1>", 3), {"Emma"}}}});
  cases.push_back({"price with inline markup", R"({"name": "offer"})",
                   {{Product("<table><tr><td class=o>Price: <b>$80</b> each</td></tr></table>", 1), {"Price: $80 each"}},
                    {Product("<table><tr><td class=o>Price: <b>$7</b> each</td></tr></table>", 2), {"Price: $7 each"}},
                    {Product("<table><tr><td class=o>Price: <b>$120</b> each</td></tr></table>", 3), {"Price: $120 each"}}}});
  cases.push_back({"address with <br>", R"({"name": "address"})",
                   {{Product("<p class=addr>12 Main St<br>Springfield, IL 62701</p>", 1), {"12 Main St Springfield, IL 62701"}},
                    {Product("<p class=addr>4 Elm Rd<br>Suite 5<br>Dayton, OH 45402</p>", 2), {"4 Elm Rd Suite 5 Dayton, OH 45402"}},
                    {Product("<p class=addr>77 Lake Ave<br>Erie, PA 16501</p>", 3), {"77 Lake Ave Erie, PA 16501"}}}});
  cases.push_back({"th/td pairs in varying order", R"({"name": "weight"})",
                   {{Product("<table class=spec><tr><th>Colour</th><td>Red</td></tr><tr><th>Weight</th><td>1.2 kg</td></tr></table>", 1), {"1.2 kg"}},
                    {Product("<table class=spec><tr><th>Weight</th><td>3 kg</td></tr><tr><th>Colour</th><td>Blue</td></tr></table>", 2), {"3 kg"}},
                    {Product("<table class=spec><tr><th>Size</th><td>L</td></tr><tr><th>Colour</th><td>Green</td></tr><tr><th>Weight</th><td>0.4 kg</td></tr></table>", 3), {"0.4 kg"}},
                    {Product("<table class=spec><tr><th>Colour</th><td>Grey</td></tr><tr><th>Weight</th><td>9 kg</td></tr></table>", 4), {"9 kg"}}}});
  // ---- Several values in one text node, one row per separator ----
  const std::vector<std::pair<const char*, std::string>> separators = {
      {"comma", ", "}, {"semicolon", "; "}, {"and", " and "}, {"ampersand", " & "}, {"slash", " / "}, {"bar", " | "}};
  static std::vector<std::string> names;  // keeps the case names alive
  names.clear();
  for (const auto& [label, sep] : separators) names.push_back(absl::StrCat("authors split at ", label));
  for (size_t k = 0; k < separators.size(); ++k) {
    const std::string& sep = separators[k].second;
    cases.push_back({names[k].c_str(), R"({"name": "author", "multi_valued": true})",
                     {{Product("<p class=by>By: Lynn A. Coleman" + sep + "Rachel Hauck</p>", 1), {"Lynn A. Coleman", "Rachel Hauck"}},
                      {Product("<p class=by>By: Ann Lee" + sep + "Bo Chen" + sep + "Cy Dorn</p>", 2), {"Ann Lee", "Bo Chen", "Cy Dorn"}},
                      {Product("<p class=by>By: Dee Fox</p>", 3), {"Dee Fox"}}}});
  }
  cases.push_back({"authors in separate lines", R"({"name": "author", "multi_valued": true})",
                   {{Product("<p class=by>Lynn Coleman<br>Rachel Hauck</p>", 1), {"Lynn Coleman", "Rachel Hauck"}},
                    {Product("<p class=by>Ann Lee<br>Bo Chen<br>Cy Dorn</p>", 2), {"Ann Lee", "Bo Chen", "Cy Dorn"}},
                    {Product("<p class=by>Dee Fox</p>", 3), {"Dee Fox"}}}});
  // ---- Anchors that are data ----
  // The annotated page's price stands right before the category; on other
  // pages the price differs, so "$80" must not anchor the category.
  cases.push_back({"a data value next to the annotated value", R"({"name": "category"})",
                   {{"<div class=a><span>$80</span><span>Garden</span></div><div class=b><span>Sale</span><span>Tools</span></div>", {"Garden"}},
                    {"<div class=b><span>Sale</span><span>Pots</span></div><div class=a><span>$12</span><span>Kitchen</span></div>", {"Kitchen"}},
                    {"<div class=a><span>$45</span><span>Books</span></div><div class=b><span>Sale</span><span>Hats</span></div>", {"Books"}},
                    {"<div class=b><span>Sale</span><span>Mugs</span></div><div class=a><span>$80</span><span>Toys</span></div>", {"Toys"}}}});
  // ---- One extra list item on a test page ----
  cases.push_back({"one extra list item", R"({"name": "isbn"})",
                   {{"<ul class=d><li>Pages: 320</li><li>ISBN: 9780316125581</li></ul>", {"9780316125581"}},
                    {"<ul class=d><li>Pages: 128</li><li>ISBN: 9781439184394</li></ul>", {"9781439184394"}},
                    {"<ul class=d><li>Pages: 64</li><li>Series: Blue</li><li>ISBN: 9780307272409</li></ul>", {"9780307272409"}}},
                   2});
  // ---- JSON-LD: the value is found nowhere else on the page ----
  cases.push_back({"JSON-LD price", R"({"name": "price", "type": "price"})",
                   {{Product("<script type=\"application/ld+json\">{\"@type\": \"Product\", \"offers\": {\"price\": \"19.99\"}}</script>", 1), {"19.99"}},
                    {Product("<script type=\"application/ld+json\">{\"@type\": \"Product\", \"offers\": {\"price\": \"5.25\"}}</script>", 2), {"5.25"}},
                    {Product("<script type=\"application/ld+json\">{\"@type\": \"Product\", \"offers\": {\"price\": \"310.00\"}}</script>", 3), {"310.00"}}}});
  return cases;
}

TEST(ValueModelTest, EveryCaseGivesTheTestPagesValues) {
  const std::vector<Case> cases = Cases();
  size_t passed = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string error = RunCase(c);
    EXPECT_EQ(error, "");
    if (error.empty()) ++passed;
  }
  std::printf("value model cases passed: %zu of %zu\n", passed, cases.size());
}

}  // namespace
}  // namespace vertex::learn
