// The editor's rendering of a page (editor_html.h): every element's data-vx
// is an XPath selecting exactly that node of the server's tree, with either
// page builder, on the demo site and on hand-written hard cases; what could
// run or load is left out; text and attributes are escaped.
#include "common/html/editor_html.h"

#include <string>
#include <string_view>
#include <vector>

#include "common/demo/site_generator.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::html {
namespace {

constexpr PageBuilder kBuilders[] = {PageBuilder::kGumbo, PageBuilder::kLibxml2};

Page MustParse(std::string_view html, PageBuilder builder) {
  ParseOptions options;
  options.builder = builder;
  Parser parser(options);
  absl::StatusOr<Page> page = parser.Parse(html, "http://example.test/p");
  EXPECT_TRUE(page.ok()) << page.status();
  return std::move(page).value();
}

std::string Unescape(std::string s) {
  RE2::GlobalReplace(&s, "&quot;", "\"");
  RE2::GlobalReplace(&s, "&lt;", "<");
  RE2::GlobalReplace(&s, "&gt;", ">");
  RE2::GlobalReplace(&s, "&amp;", "&");
  return s;
}

// The data-vx values of `html`, in order.
std::vector<std::string> DataVx(const std::string& html) {
  std::vector<std::string> out;
  re2::StringPiece in(html);
  std::string value;
  while (RE2::FindAndConsume(&in, R"re(data-vx="([^"]*)")re", &value)) out.push_back(Unescape(value));
  return out;
}

// Every element and text node: NodeXPath selects it and nothing else.
void ExpectXPathsSelectTheirNodes(const Page& page, const std::string& what) {
  size_t checked = 0;
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    const std::string xpath = NodeXPath(n);
    absl::StatusOr<XPath> compiled = XPath::Compile(xpath);
    ASSERT_TRUE(compiled.ok()) << what << ": " << xpath << ": " << compiled.status();
    absl::StatusOr<std::vector<Node>> selected = compiled->Select(page);
    ASSERT_TRUE(selected.ok()) << what << ": " << xpath;
    ASSERT_EQ(selected->size(), 1u) << what << ": " << xpath;
    ASSERT_TRUE(selected->front() == n) << what << ": " << xpath;
    ++checked;
  }
  EXPECT_EQ(checked, page.node_count()) << what;
}

bool Dropped(Node e) {
  const std::string_view t = e.tag();
  return t == "script" || t == "noscript" || t == "template" || t == "iframe" || t == "frame" || t == "frameset" ||
         t == "object" || t == "embed" || t == "applet" || t == "base" || t == "link" ||
         (t == "meta" && e.has_attribute("http-equiv"));
}

// The elements rendered, in document order: NodeXPath of every element not
// inside (or being) a dropped one.
std::vector<std::string> ExpectedDataVx(const Page& page) {
  std::vector<std::string> out;
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (!n.is_element()) continue;
    bool dropped = false;
    for (Node a = n; a; a = a.parent()) dropped = dropped || Dropped(a);
    if (!dropped) out.push_back(NodeXPath(n));
  }
  return out;
}

TEST(EditorHtmlTest, DataVxIsTheServersXPathOnTheDemoSite) {
  demo::SiteOptions options;
  options.product_pages = 8;
  options.category_pages = 3;
  options.review_pages = 3;
  options.store_pages = 4;
  for (PageBuilder builder : kBuilders) {
    for (const demo::GeneratedPage& p : demo::GenerateSite(options)) {
      const std::string what = std::string(PageBuilderName(builder)) + " " + p.url;
      const Page page = MustParse(p.html, builder);
      ExpectXPathsSelectTheirNodes(page, what);
      const EditorHtml rendered = RenderEditorHtml(page);
      const std::vector<std::string> expected = ExpectedDataVx(page);
      EXPECT_EQ(DataVx(rendered.html), expected) << what;
      EXPECT_EQ(rendered.elements, expected.size()) << what;
    }
  }
}

TEST(EditorHtmlTest, HardTreesKeepExactXPaths) {
  // Implied tbody (Gumbo), a prefixed name, SVG, a custom element, text
  // split around elements, a misnested formatting element.
  const std::string html =
      "<html><body><table><tr><td>a</td><td>b</td></tr></table>"
      "<fb:like x='1'>liked</fb:like><svg viewBox='0 0 1 1'><rect/></svg><my-el>c</my-el>"
      "<p>one<b>two</b>three<i>four</p><b><i>x</b>y</i><div>t</div></body></html>";
  for (PageBuilder builder : kBuilders) {
    const Page page = MustParse(html, builder);
    ExpectXPathsSelectTheirNodes(page, std::string(PageBuilderName(builder)));
    EXPECT_EQ(DataVx(RenderEditorHtml(page).html), ExpectedDataVx(page)) << PageBuilderName(builder);
  }
}

TEST(EditorHtmlTest, StepsNameElementsAndCountSameNamedSiblings) {
  const Page page = MustParse("<html><body><p>a</p><div>b</div><p>c<b>d</b>e</p></body></html>",
                              PageBuilder::kLibxml2);
  absl::StatusOr<std::vector<Node>> e = XPath::Compile("//p[2]/text()[2]")->Select(page);
  ASSERT_TRUE(e.ok());
  ASSERT_EQ(e->size(), 1u);
  EXPECT_EQ(NodeXPath(e->front()), "/html[1]/body[1]/p[2]/text()[2]");
  EXPECT_EQ(NodeXPath(e->front().parent()), "/html[1]/body[1]/p[2]");
  EXPECT_EQ(NodeXPath(Node()), "");
}

TEST(EditorHtmlTest, LeavesOutWhatRunsOrLoads) {
  const std::string html =
      "<html><head><base href='http://evil.test/'><meta http-equiv='refresh' content='0;url=http://evil.test'>"
      "<link rel=stylesheet href='http://evil.test/s.css'><script>alert(1)</script>"
      "<style>a > b { color: red } </style></head>"
      "<body onload='alert(2)'><script>x()</script><div id=k onclick='alert(3)' data-vx='forged'>keep</div>"
      "<iframe src='http://evil.test/f'></iframe><object data='x.swf'></object>"
      "<noscript><img src='http://evil.test/p.gif'></noscript>"
      "<a href='/r' srcdoc='x' ONMOUSEOVER='alert(4)'>link</a><img src='/i.png' alt='pic'><embed src='y'></body></html>";
  for (PageBuilder builder : kBuilders) {
    const Page page = MustParse(html, builder);
    const EditorHtml r = RenderEditorHtml(page);
    const std::string what(PageBuilderName(builder));
    for (const char* gone : {"<script", "alert", "<base", "refresh", "<link", "<iframe", "<object", "<embed",
                             "<noscript", "p.gif", "srcdoc", "forged"}) {
      EXPECT_EQ(r.html.find(gone), std::string::npos) << what << ": " << gone << " in " << r.html;
    }
    EXPECT_NE(r.html.find("Content-Security-Policy"), std::string::npos) << what;
    EXPECT_LT(r.html.find("Content-Security-Policy"), r.html.find("<style")) << what;
    EXPECT_NE(r.html.find("a > b { color: red }"), std::string::npos) << what << ": style text kept raw";
    EXPECT_NE(r.html.find("id=\"k\""), std::string::npos) << what;
    EXPECT_NE(r.html.find("href=\"/r\""), std::string::npos) << what;
    EXPECT_NE(r.html.find("src=\"/i.png\""), std::string::npos) << what;
    EXPECT_GE(r.dropped_elements, 7u) << what;
    // The <div> after the body's <script> is still its page's first div;
    // the <a> keeps its position among the body's children.
    EXPECT_NE(r.html.find("data-vx=\"/html[1]/body[1]/div[1]\""), std::string::npos) << what;
  }
}

TEST(EditorHtmlTest, EscapesTextAndAttributesAndBreaksStyleEnds) {
  const Page page = MustParse(
      "<html><head><style>p{}</style ><style>a</b {}</style></head>"
      "<body><p title='a\"b&amp;c'>1 &lt; 2 &amp;&amp; &lt;script&gt;</p><textarea>&lt;/textarea&gt;</textarea>"
      "<x\"y>odd</x\"y></body></html>",
      PageBuilder::kGumbo);
  const std::string out = RenderEditorHtml(page).html;
  EXPECT_NE(out.find("title=\"a&quot;b&amp;c\""), std::string::npos) << out;
  EXPECT_NE(out.find("1 &lt; 2 &amp;&amp; &lt;script&gt;"), std::string::npos) << out;
  EXPECT_NE(out.find("&lt;/textarea&gt;</textarea>"), std::string::npos) << out;
  EXPECT_EQ(out.find("<script"), std::string::npos) << out;
  EXPECT_NE(out.find(">a<\\/b {}</style>"), std::string::npos) << out;
  EXPECT_NE(out.find("<span data-vx=\"/html[1]/body[1]/*[3]\">odd</span>"), std::string::npos) << out;
}

TEST(EditorHtmlTest, DeepPagesRenderWithoutRecursion) {
  std::string html = "<html><body>";
  for (int i = 0; i < 500; ++i) html += "<div>";
  html += "deep";
  for (int i = 0; i < 500; ++i) html += "</div>";
  html += "</body></html>";
  for (PageBuilder builder : kBuilders) {
    const Page page = MustParse(html, builder);
    const EditorHtml r = RenderEditorHtml(page);
    EXPECT_GE(r.elements, 502u) << PageBuilderName(builder);  // Gumbo implies <head>
    EXPECT_NE(r.html.find(">deep</div>"), std::string::npos);
  }
}

}  // namespace
}  // namespace vertex::html
