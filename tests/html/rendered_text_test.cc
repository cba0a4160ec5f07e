// Rendered text as lines, and attribute names.
#include "common/html/rendered_text.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::html {
namespace {

// The first element named `tag` of `page`.
Node First(const Page& page, std::string_view tag) {
  const Node root = page.root();
  for (Node n = root; n; n = n.NextInDocument(root)) {
    if (n.tag() == tag) return n;
  }
  return Node();
}

struct LinesCase {
  const char* body;  // the first element of the body is rendered
  std::vector<std::string> want;
};

TEST(RenderedTextTest, ElementsRenderAsLines) {
  const std::vector<LinesCase> cases = {
      {"<table><tr><td>Price: <b>$80</b> each</td></tr></table>", {"Price: $80 each"}},
      {"<h1>The <em>Great</em>   Gatsby</h1>", {"The Great Gatsby"}},
      {"<p>12 Main St<br>Springfield, IL 62701</p>", {"12 Main St", "Springfield, IL 62701"}},
      {"<p>a<br><br>  <br>b</p>", {"a", "b"}},
      {"<div><p>one</p>two<div>three <i>3</i></div></div>", {"one", "two", "three 3"}},
      {"<ul><li>x</li><li>y</li></ul>", {"x", "y"}},
      {"<table><tr><th>Weight</th><td>1 kg</td></tr><tr><th>Size</th><td>L</td></tr></table>",
       {"Weight 1 kg", "Size L"}},
      {"<div>a<script>var x = 1;</script><style>p{}</style>b</div>", {"ab"}},
      {"<span><span>Lynn</span> <span>Coleman</span></span>", {"Lynn Coleman"}},
      {"<div>x&nbsp;&nbsp;y</div>", {"x y"}},
      {"<div><img src=a.jpg></div>", {}},
  };
  Parser parser;
  for (const LinesCase& c : cases) {
    Page page = parser.Parse(std::string("<html><body>") + c.body + "</body></html>", "u").value();
    const Node body = First(page, "body");
    ASSERT_TRUE(body.first_child()) << c.body;
    EXPECT_EQ(RenderedLines(body.first_child()), c.want) << c.body;
  }
}

TEST(RenderedTextTest, TextNodesAndNullNodes) {
  Parser parser;
  Page page = parser.Parse("<html><body><p>  one\n two </p></body></html>", "u").value();
  EXPECT_EQ(RenderedLines(First(page, "p").first_child()), std::vector<std::string>{"one two"});
  EXPECT_TRUE(RenderedLines(Node()).empty());
  Page titled = parser.Parse("<html><head><title>T</title></head><body>b</body></html>", "u").value();
  EXPECT_EQ(RenderedLines(titled.root()), std::vector<std::string>{"b"});
  // Asked for itself, a skipped element gives its text.
  EXPECT_EQ(RenderedLines(First(titled, "title")), std::vector<std::string>{"T"});
  Page scripted = parser.Parse("<html><body><script>var a =\n 1;</script></body></html>", "u").value();
  EXPECT_EQ(RenderedLines(First(scripted, "script")), std::vector<std::string>{"var a = 1;"});
}

TEST(RenderedTextTest, DeepNestingDoesNotRecurse) {
  std::string doc = "<html><body>";
  for (int i = 0; i < 400; ++i) doc += "<div>";
  doc += "deep";
  doc += "</body></html>";
  Parser parser;
  Page page = parser.Parse(doc, "u").value();
  EXPECT_EQ(RenderedLines(First(page, "body")), std::vector<std::string>{"deep"});
}

TEST(RenderedTextTest, AttributeNames) {
  Parser parser;
  Page page = parser.Parse("<html><body><a HREF=/x data-sku=1 title=t>x</a></body></html>", "u").value();
  const Node a = First(page, "a");
  EXPECT_EQ(AttributeNames(a), (std::vector<std::string_view>{"href", "data-sku", "title"}));
  EXPECT_TRUE(AttributeNames(a.first_child()).empty());
  EXPECT_TRUE(AttributeNames(Node()).empty());
}

}  // namespace
}  // namespace vertex::html
