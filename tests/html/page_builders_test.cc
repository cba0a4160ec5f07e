// The two page builders (page.h PageBuilder): where they agree on real
// pages (a differential test on the generated demo site and the SWDE pages
// beside the project), the differences they are known to have (each shown
// on a small page, both shapes asserted), and hostile input through the
// libxml2 builder. The tests both builders pass alike are in page_test.cc
// (BothBuilders).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/ascii.h"
#include "common/demo/site_generator.h"
#include "common/html/page.h"
#include "common/html/serialize.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"

namespace vertex::html {
namespace {

class RecordingSink : public TagSink {
 public:
  void OnTag(uint32_t token) override { tokens.push_back(token); }
  std::vector<uint32_t> tokens;
};

absl::StatusOr<Page> ParseWith(PageBuilder builder, std::string_view html, TagSink* sink = nullptr,
                               ParseOptions options = {}) {
  options.builder = builder;
  Parser parser(options);
  return parser.Parse(html, "http://example.test/p", "", sink);
}

Page MustParseWith(PageBuilder builder, std::string_view html, TagSink* sink = nullptr) {
  absl::StatusOr<Page> page = ParseWith(builder, html, sink);
  EXPECT_TRUE(page.ok()) << PageBuilderName(builder) << ": " << page.status();
  return std::move(page).value();
}

double Number(const Page& page, const std::string& xpath) {
  return std::stod(XPath::Compile(xpath).value().EvaluateString(page).value());
}

std::string String(const Page& page, const std::string& xpath) {
  return XPath::Compile(xpath).value().EvaluateString(page).value();
}

// The element names of a page in document order, with each element's
// attributes, and its whitespace-normalised text: what rules see, without
// the whitespace text nodes and implied elements the builders place
// differently.
struct Shape {
  std::vector<std::string> elements;
  std::string text;
};

// Known differences left out (each has its test below): <tbody>, empty
// <p>s (HTML5 makes one of a stray </p>), the
// root's attributes (an <html> tag after other content: Gumbo merges its
// attributes into the root, libxml2 drops them; the SWDE pages start with a
// <base> line) and the values of valueless boolean attributes.
Shape ShapeOf(const Page& page) {
  Shape out;
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (!n.is_element() || n.tag() == "tbody" || (n.tag() == "p" && !n.first_child())) continue;
    std::string e(n.tag());
    for (const auto& [name, value] : AttributeAxis(n)) {
      if (n == page.root()) break;
      e += " " + name + "=" + (value == name ? "" : value);
    }
    out.elements.push_back(e);
  }
  out.text = page.root().Text();
  return out;
}

// The first element where two shapes part, for the failure message.
std::string FirstDifference(const Shape& a, const Shape& b) {
  const size_t n = std::min(a.elements.size(), b.elements.size());
  for (size_t i = 0; i < n; ++i) {
    if (a.elements[i] != b.elements[i]) return "element " + std::to_string(i) + ": " + a.elements[i] + " vs " + b.elements[i];
  }
  if (a.elements.size() != b.elements.size()) return "element counts " + std::to_string(a.elements.size()) + " vs " + std::to_string(b.elements.size());
  return "texts differ";
}

void ExpectSameShape(const std::string& html, const std::string& what) {
  const Page gumbo = MustParseWith(PageBuilder::kGumbo, html);
  const Page libxml = MustParseWith(PageBuilder::kLibxml2, html);
  const Shape a = ShapeOf(gumbo);
  const Shape b = ShapeOf(libxml);
  EXPECT_TRUE(a.elements == b.elements && a.text == b.text) << what << ": " << FirstDifference(a, b);
}

TEST(PageBuildersTest, AgreeOnTheGeneratedDemoSite) {
  demo::SiteOptions options;
  options.product_pages = 12;
  options.category_pages = 6;
  options.review_pages = 6;
  options.store_pages = 6;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  ASSERT_FALSE(pages.empty());
  for (const demo::GeneratedPage& p : pages) ExpectSameShape(p.html, p.template_name + " " + p.url);
}

TEST(PageBuildersTest, AgreeOnTheSwdePages) {
  const std::filesystem::path dir = std::filesystem::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is absent";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.size() > 40) files.resize(40);
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    ExpectSameShape(bytes.str(), file.string());
  }
}

// ---- known differences: each page shows both shapes ----

TEST(PageBuildersKnownDifferences, GumboImpliesTbodyAndHeadLibxml2DoesNot) {
  const std::string html = "<html><body><table><tr><td>1</td></tr></table></body></html>";
  RecordingSink gumbo_tags, libxml_tags;
  const Page gumbo = MustParseWith(PageBuilder::kGumbo, html, &gumbo_tags);
  const Page libxml = MustParseWith(PageBuilder::kLibxml2, html, &libxml_tags);
  EXPECT_EQ(Number(gumbo, "count(//table/tbody/tr)"), 1);
  EXPECT_EQ(Number(libxml, "count(//table/tr)"), 1);
  EXPECT_EQ(Number(gumbo, "count(/html/head)"), 1);
  EXPECT_EQ(Number(libxml, "count(/html/head)"), 0);
  // html head body table tbody tr td (7 starts) against html body table tr
  // td (5): signatures of one builder do not match the other's.
  EXPECT_EQ(gumbo_tags.tokens.size(), 14u);
  EXPECT_EQ(libxml_tags.tokens.size(), 10u);
}

TEST(PageBuildersKnownDifferences, MisnestedFormattingIsRepairedDifferently) {
  const std::string html = "<body><p><b><i>x</b>y</i></p></body>";
  const Page gumbo = MustParseWith(PageBuilder::kGumbo, html);
  const Page libxml = MustParseWith(PageBuilder::kLibxml2, html);
  // HTML5's adoption agency reopens <i> after </b>; libxml2 closes it.
  EXPECT_EQ(String(gumbo, "string(//p/i)"), "y");
  EXPECT_EQ(Number(libxml, "count(//p/i)"), 0);
  EXPECT_EQ(String(libxml, "string(//p/b/i)"), "x");
  EXPECT_EQ(gumbo.root().Text(), libxml.root().Text());
}

TEST(PageBuildersKnownDifferences, TemplateAndForeignContentKeepTheirElements) {
  const std::string html =
      "<body><template><p>t</p></template><svg viewBox='0 0 1 1'><circle r=1 /></svg>"
      "<math><mi>x</mi></math></body>";
  for (PageBuilder b : {PageBuilder::kGumbo, PageBuilder::kLibxml2}) {
    const Page page = MustParseWith(b, html);
    EXPECT_EQ(String(page, "string(//template/p)"), "t") << PageBuilderName(b);
    EXPECT_EQ(Number(page, "count(//svg/circle)"), 1) << PageBuilderName(b);
    EXPECT_EQ(String(page, "string(//math/mi)"), "x") << PageBuilderName(b);
  }
  // Gumbo keeps SVG's camel-case attribute names; libxml2 lowercases them.
  EXPECT_EQ(String(MustParseWith(PageBuilder::kGumbo, html), "string(//svg/@viewBox)"), "0 0 1 1");
  EXPECT_EQ(String(MustParseWith(PageBuilder::kLibxml2, html), "string(//svg/@viewbox)"), "0 0 1 1");
}

TEST(PageBuildersKnownDifferences, RawTextAndBooleanAttributes) {
  const std::string html = "<body><textarea><b>x</b></textarea><input disabled><pre>\nline</pre></body>";
  const Page gumbo = MustParseWith(PageBuilder::kGumbo, html);
  const Page libxml = MustParseWith(PageBuilder::kLibxml2, html);
  // <textarea> is raw text in HTML5, markup for libxml2.
  EXPECT_EQ(Number(gumbo, "count(//textarea/b)"), 0);
  EXPECT_EQ(String(gumbo, "string(//textarea)"), "<b>x</b>");
  EXPECT_EQ(Number(libxml, "count(//textarea/b)"), 1);
  // A valueless HTML boolean attribute: "" in HTML5, its own name in libxml2.
  EXPECT_EQ(String(gumbo, "string(//input/@disabled)"), "");
  EXPECT_EQ(String(libxml, "string(//input/@disabled)"), "disabled");
  // HTML5 drops the newline right after <pre>; libxml2 keeps it.
  EXPECT_EQ(String(gumbo, "string(//pre)"), "line");
  EXPECT_EQ(String(libxml, "string(//pre)"), "\nline");
}

TEST(PageBuildersKnownDifferences, AttributesOfALateHtmlTag) {
  // As SWDE's pages: a line before the doctype and <html>.
  const std::string html = "<base href='http://x.test/'>\n<!DOCTYPE html><html lang=en><body>b</body></html>";
  EXPECT_EQ(String(MustParseWith(PageBuilder::kGumbo, html), "string(/html/@lang)"), "en");
  EXPECT_EQ(Number(MustParseWith(PageBuilder::kLibxml2, html), "count(/html/@lang)"), 0);
  EXPECT_EQ(Number(MustParseWith(PageBuilder::kLibxml2, html), "count(/html/head/base)"), 1);
}

TEST(PageBuildersKnownDifferences, StrayEndTagAndBareText) {
  // A stray </p>: HTML5 makes an empty <p> of it, libxml2 ignores it.
  const std::string stray = "<body><div>text</p></div></body>";
  EXPECT_EQ(Number(MustParseWith(PageBuilder::kGumbo, stray), "count(//div/p)"), 1);
  EXPECT_EQ(Number(MustParseWith(PageBuilder::kLibxml2, stray), "count(//div/p)"), 0);
  // Text with no element around it: libxml2 wraps it in a <p>.
  EXPECT_EQ(Number(MustParseWith(PageBuilder::kGumbo, "hello"), "count(//p)"), 0);
  EXPECT_EQ(String(MustParseWith(PageBuilder::kLibxml2, "hello"), "string(/html/body/p)"), "hello");
}

// ---- the libxml2 builder's own checks ----

TEST(Libxml2BuilderTest, DropsCommentsProcessingInstructionsAndTheDoctype) {
  const Page page = MustParseWith(PageBuilder::kLibxml2,
                                  "<!DOCTYPE html><!-- top --><html><body><p>a<!--c-->b<?pi x?>c</p>"
                                  "<script>if (a<b) x = '</p>';</script></body></html><!-- end -->");
  EXPECT_EQ(Number(page, "count(//comment())"), 0);
  EXPECT_EQ(Number(page, "count(//processing-instruction())"), 0);
  EXPECT_EQ(page.doc()->intSubset, nullptr);
  ASSERT_TRUE(page.root());
  EXPECT_EQ(page.root().tag(), "html");
  EXPECT_FALSE(page.root().next_sibling());
  EXPECT_FALSE(page.root().previous_sibling());
  EXPECT_EQ(Number(page, "count(//p/text())"), 3);  // a, b, c: not merged, as the mirror's
  // Script content is a text node (libxml2 builds a CDATA section).
  const std::vector<Node> script = XPath::Compile("//script/text()").value().Select(page).value();
  ASSERT_EQ(script.size(), 1u);
  EXPECT_TRUE(script[0].is_text());
  EXPECT_EQ(script[0].RawText(), "if (a<b) x = '</p>';");
}

TEST(Libxml2BuilderTest, ElementAndAttributeNamesAreLowercase) {
  const Page page = MustParseWith(PageBuilder::kLibxml2,
                                  "<DIV CLASS='A' Data-X=1><My-Widget ID=w>x</My-Widget><SPAN>s</SPAN></DIV>");
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (!n.is_element()) continue;
    EXPECT_EQ(std::string(n.tag()), absl::AsciiStrToLower(std::string(n.tag())));
    for (const auto& [name, value] : AttributeAxis(n)) EXPECT_EQ(name, absl::AsciiStrToLower(name));
  }
  EXPECT_EQ(String(page, "string(//div[@class='A']/@data-x)"), "1");
  EXPECT_EQ(String(page, "string(//my-widget[@id='w'])"), "x");
}

TEST(Libxml2BuilderTest, CountsNodesAndDepthAndReportsBalancedTags) {
  RecordingSink sink;
  const Page page = MustParseWith(PageBuilder::kLibxml2,
                                  "<html><body><div>\n<p>a</p><br>\n</div><ul><li>x<li>y</ul></body></html>", &sink);
  size_t nodes = 0, elements = 0;
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    ++nodes;
    elements += n.is_element();
  }
  EXPECT_EQ(page.node_count(), nodes);
  EXPECT_EQ(page.depth(), 4);  // html body ul li
  ASSERT_EQ(sink.tokens.size(), 2 * elements);
  std::vector<uint32_t> open;
  for (uint32_t t : sink.tokens) {
    if (t & TagSink::kEndTag) {
      ASSERT_FALSE(open.empty());
      EXPECT_EQ(open.back() | TagSink::kEndTag, t);
      open.pop_back();
    } else {
      open.push_back(t);
    }
  }
  EXPECT_TRUE(open.empty());
  EXPECT_EQ(sink.tokens[0], TagToken("html"));
  EXPECT_EQ(sink.tokens[1], TagToken("body"));
  // Whitespace text is kept, as the mirror keeps it.
  EXPECT_EQ(Number(page, "count(//div/text())"), 2);
}

TEST(Libxml2BuilderTest, ContentAfterTheDocumentGoesToTheBodyAsInHtml5) {
  // libxml2 alone opens a second <html> inside the first for it.
  for (const std::string html : {"<html><body><p>in</p></body></html><p>after</p>",
                                 "<!DOCTYPE html><html><body><p>in</p></body></html><p>after</p><!-- c -->",
                                 "<html><body><p>in</p></body></html><body><p>after</p></body>"}) {
    for (PageBuilder b : {PageBuilder::kGumbo, PageBuilder::kLibxml2}) {
      const Page page = MustParseWith(b, html);
      EXPECT_EQ(Number(page, "count(//html)"), 1) << PageBuilderName(b) << " " << html;
      EXPECT_EQ(String(page, "string(/html/body/p[2])"), "after") << PageBuilderName(b) << " " << html;
    }
  }
}

TEST(Libxml2BuilderTest, EmptyAndWhitespaceOnlyPagesGetAnHtmlRoot) {
  for (const std::string html : {" ", "\n\n", "<!-- only a comment -->", "<!DOCTYPE html>"}) {
    const Page page = MustParseWith(PageBuilder::kLibxml2, html);
    ASSERT_TRUE(page.root()) << html;
    EXPECT_EQ(page.root().tag(), "html") << html;
    EXPECT_EQ(Number(page, "count(/html/body)"), 1) << html;
  }
}

TEST(Libxml2BuilderTest, DeepPagesPastLibxml2sOwnLimitAreWhole) {
  // libxml2 alone stops at 256 open elements without XML_PARSE_HUGE: the
  // builder must not lose the rest of the page.
  std::string html = "<html><body>";
  for (int i = 0; i < 400; ++i) html += "<div>";
  html += "deep";
  for (int i = 0; i < 400; ++i) html += "</div>";
  html += "<p>after</p></body></html>";
  const Page page = MustParseWith(PageBuilder::kLibxml2, html);
  EXPECT_EQ(page.depth(), 402);
  EXPECT_EQ(String(page, "string(//div[not(div)])"), "deep");
  EXPECT_EQ(String(page, "string(/html/body/p)"), "after");
}

TEST(Libxml2BuilderTest, HostileInputGivesAPageOrAClearError) {
  struct Case {
    std::string name, html;
  };
  std::vector<Case> cases = {
      {"NULs", std::string("<p>a\0b</p>\0<div\0>c</div>", 22)},
      {"huge attribute", "<div title='" + std::string(3 << 20, 'x') + "'>t</div>"},
      {"huge text", "<p>" + std::string(7 << 20, 'y')},
      {"unclosed everything", ""},
      {"entity soup", "<p>&amp &lt;&#0;&#xD800;&#1114112;&nosuch;&#x41;</p><a href='&#'>x</a>"},
      {"external entity", "<!DOCTYPE html [<!ENTITY e SYSTEM 'file:///etc/passwd'>]><p>&e;</p>"},
      {"stray markup", "</p></div><//><<>><a <b <c</a></b>"},
  };
  for (int i = 0; i < 20000; ++i) cases[3].html += i % 3 ? "<span>" : "<div class=x><p>t";
  for (const Case& c : cases) {
    absl::StatusOr<Page> page = ParseWith(PageBuilder::kLibxml2, c.html);
    if (!page.ok()) {
      EXPECT_EQ(page.status().code(), absl::StatusCode::kResourceExhausted) << c.name << ": " << page.status();
      EXPECT_NE(page.status().message().find("example.test"), std::string::npos) << c.name;
      continue;
    }
    EXPECT_EQ(page->root().tag(), "html") << c.name;
    EXPECT_TRUE(SerializeXhtml(*page).ok()) << c.name;
  }
  // The file entity is never read.
  const Page page = MustParseWith(PageBuilder::kLibxml2, cases[5].html);
  EXPECT_EQ(page.root().Text().find("root:"), std::string::npos);
  // The big attribute and text arrive whole.
  const Page big = MustParseWith(PageBuilder::kLibxml2, cases[1].html);
  EXPECT_EQ(String(big, "string-length(//div/@title)"), std::to_string(3 << 20));
  const Page text = MustParseWith(PageBuilder::kLibxml2, cases[2].html);
  EXPECT_EQ(String(text, "string-length(//p)"), std::to_string(7 << 20));
}

TEST(Libxml2BuilderTest, ManyAttributesInsideTitleAreRefusedNotParsed) {
  // Gumbo reads <title> content as text; libxml2 parses the tags in it, and
  // compares each attribute name with every earlier one of its tag.
  std::string html = "<html><head><title>t<div";
  for (int i = 0; i < 100000; ++i) html += " a" + std::to_string(i);
  html += "></title></head><body>x</body></html>";
  absl::StatusOr<Page> page = ParseWith(PageBuilder::kLibxml2, html);
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(page.status().message().find("more than 1000 attributes"), std::string::npos) << page.status();
  EXPECT_TRUE(ParseWith(PageBuilder::kGumbo, html).ok());
}

TEST(Libxml2BuilderTest, PrefixedElementsAmongArenaNodesAreFreedWithThePage) {
  // xmlSAX2 builds an element with a prefixed name (its own allocation,
  // under and over the builder's arena nodes; libxml2 drops the prefix:
  // <o:p> is a <p>); FreeDocument frees both kinds (ASan/the fuzz build
  // would see a leak or a bad free).
  const std::string html =
      "<html><body><o:p class=a>x<b id=i>y<fb:like href=h>z</fb:like></b></o:p><p>after</p></body></html>";
  for (int i = 0; i < 3; ++i) {
    const Page page = MustParseWith(PageBuilder::kLibxml2, html);
    EXPECT_EQ(String(page, "string(//b/@id)"), "i");
    EXPECT_EQ(String(page, "string(//b/like/@href)"), "h");
    EXPECT_EQ(String(page, "string(/html/body/p[2])"), "after");
    EXPECT_EQ(page.root().Text(), "xyzafter");
    Page moved = MustParseWith(PageBuilder::kLibxml2, "<p>1</p>");
    moved = MustParseWith(PageBuilder::kLibxml2, html);  // move-assignment frees the first
    EXPECT_EQ(moved.root().Text(), "xyzafter");
  }
}

TEST(Libxml2BuilderTest, EachPageHasADictionaryOfItsOwn) {
  // libxml2's dictionaries are not thread-safe and a Page may be freed on
  // another thread while its parser's thread parses the next page.
  Parser parser({.builder = PageBuilder::kLibxml2});
  absl::StatusOr<Page> first = parser.Parse("<div class=a>1</div>", "u1");
  absl::StatusOr<Page> second = parser.Parse("<div class=a>2</div>", "u2");
  ASSERT_TRUE(first.ok() && second.ok());
  ASSERT_NE(first->doc()->dict, nullptr);
  EXPECT_NE(first->doc()->dict, second->doc()->dict);
  EXPECT_EQ(String(*first, "string(//div[@class='a'])"), "1");
  EXPECT_EQ(String(*second, "string(//div[@class='a'])"), "2");
}

TEST(Libxml2BuilderTest, ParsersOnManyThreadsGiveTheSamePages) {
  demo::SiteOptions options;
  options.product_pages = 8;
  options.category_pages = 4;
  options.review_pages = 4;
  options.store_pages = 4;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  std::vector<std::string> expected;
  for (const auto& p : pages) expected.push_back(SerializeXhtml(MustParseWith(PageBuilder::kLibxml2, p.html)).value());
  std::vector<std::thread> threads;
  std::vector<int> mismatches(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      Parser parser({.builder = PageBuilder::kLibxml2});
      for (int round = 0; round < 3; ++round) {
        for (size_t i = 0; i < pages.size(); ++i) {
          absl::StatusOr<Page> page = parser.Parse(pages[i].html, pages[i].url);
          if (!page.ok() || SerializeXhtml(*page).value_or("") != expected[i]) ++mismatches[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < 4; ++t) EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

}  // namespace
}  // namespace vertex::html
