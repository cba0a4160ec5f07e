#include "common/html/page.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "common/html/charset.h"
#include "common/html/document_order.h"
#include "common/html/nesting.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"

namespace vertex::html {
namespace {

class RecordingSink : public TagSink {
 public:
  void OnTag(uint32_t token) override { tokens.push_back(token); }
  std::vector<uint32_t> tokens;
};

Page MustParse(std::string_view html, ParseOptions options = {}, TagSink* sink = nullptr) {
  Parser parser(options);
  absl::StatusOr<Page> page = parser.Parse(html, "http://example.test/p", "", sink);
  EXPECT_TRUE(page.ok()) << page.status();
  return std::move(page).value();
}

// The tests that both page builders must pass alike (their known
// differences are in page_builders_test.cc).
class BothBuilders : public ::testing::TestWithParam<PageBuilder> {
 protected:
  ParseOptions Options(ParseOptions options = {}) const {
    options.builder = GetParam();
    return options;
  }
};

INSTANTIATE_TEST_SUITE_P(Builders, BothBuilders, ::testing::Values(PageBuilder::kGumbo, PageBuilder::kLibxml2),
                         [](const ::testing::TestParamInfo<PageBuilder>& info) {
                           return std::string(PageBuilderName(info.param));
                         });

std::vector<std::string> Texts(const Page& page, const std::string& xpath) {
  absl::StatusOr<XPath> x = XPath::Compile(xpath);
  EXPECT_TRUE(x.ok()) << x.status();
  absl::StatusOr<std::vector<Node>> nodes = x->Select(page);
  EXPECT_TRUE(nodes.ok()) << nodes.status();
  std::vector<std::string> out;
  for (const Node& n : *nodes) out.push_back(n.Text());
  return out;
}

TEST_P(BothBuilders, MirrorsElementsAttributesAndDecodedText) {
  Page page = MustParse(
      "<html><head><title>T &amp; U</title></head><body>"
      "<div id=main class='a b'><span>Our  Price:&nbsp;<b>$25.99</b></span><!-- c --></div>"
      "<P>unclosed<P>second</body></html>",
      Options());
  EXPECT_EQ(page.root().tag(), "html");
  EXPECT_EQ(Texts(page, "//title"), std::vector<std::string>{"T & U"});
  EXPECT_EQ(Texts(page, "//div[@id='main']/span"), std::vector<std::string>{"Our Price: $25.99"});
  EXPECT_EQ(Texts(page, "//p"), (std::vector<std::string>{"unclosed", "second"}));
  absl::StatusOr<XPath> div = XPath::Compile("//div");
  ASSERT_TRUE(div.ok());
  std::vector<Node> nodes = div->Select(page).value();
  ASSERT_EQ(nodes.size(), 1u);
  EXPECT_EQ(nodes[0].attribute("class"), "a b");
  EXPECT_TRUE(nodes[0].has_attribute("id"));
  EXPECT_FALSE(nodes[0].has_attribute("style"));
  EXPECT_EQ(nodes[0].attribute("style"), "");
  EXPECT_EQ(nodes[0].parent().tag(), "body");
  EXPECT_EQ(nodes[0].first_child().tag(), "span");
  EXPECT_FALSE(nodes[0].first_child().next_sibling());  // the comment is dropped
  EXPECT_GT(page.node_count(), 8u);
}

// Gumbo's tree: its implied <head> is reported too (libxml2 implies none;
// page_builders_test.cc).
TEST(PageTest, ReportsEveryElementStartAndEndToTheSink) {
  ParseOptions gumbo;
  gumbo.builder = PageBuilder::kGumbo;
  RecordingSink sink;
  Page page = MustParse("<html><body><div><p>a</p><br></div></body></html>", gumbo, &sink);
  // html head /head body div p /p br /br /div /body /html
  ASSERT_EQ(sink.tokens.size(), 12u);
  EXPECT_EQ(sink.tokens[0], sink.tokens[11] & ~TagSink::kEndTag);
  EXPECT_TRUE(sink.tokens[11] & TagSink::kEndTag);
  EXPECT_EQ(sink.tokens[5] | TagSink::kEndTag, sink.tokens[6]);  // p, /p
  EXPECT_NE(sink.tokens[4], sink.tokens[5]);                     // div != p
  // Tokens are stable across pages and parsers.
  RecordingSink again;
  MustParse("<div><p>other text</p><br></div>", gumbo, &again);
  EXPECT_EQ(sink.tokens, again.tokens);
}

TEST_P(BothBuilders, NextInDocumentWalksInXPathDocumentOrder) {
  Page page = MustParse("<div><p>a<b>b</b></p>c</div><ul><li>d</li><li></li></ul><i>e</i>", Options());
  std::vector<Node> walked;
  for (Node n = page.root(); n; n = n.NextInDocument(page.root())) walked.push_back(n);
  const XPath all = XPath::Compile("/html/descendant-or-self::node()").value();
  EXPECT_EQ(walked, all.Select(page).value());
  // Within a subtree, the walk stops at its end.
  const XPath ul = XPath::Compile("//ul").value();
  const Node list = ul.Select(page).value()[0];
  size_t in_list = 0;
  for (Node n = list; n; n = n.NextInDocument(list)) ++in_list;
  EXPECT_EQ(in_list, 4u);  // ul, li, "d", li
}

TEST_P(BothBuilders, PreorderRanksFollowXPathDocumentOrder) {
  Page page = MustParse("<div><p>a<b>b</b></p>c</div><ul><li>d</li><li></li></ul><i>e</i>", Options());
  const absl::flat_hash_map<const void*, size_t> rank = PreorderRanks(page);
  const std::vector<Node> all = XPath::Compile("/html/descendant-or-self::node()").value().Select(page).value();
  ASSERT_EQ(rank.size(), all.size());
  for (size_t i = 0; i < all.size(); ++i) EXPECT_EQ(rank.at(all[i].raw()), i) << i;
}

TEST_P(BothBuilders, UnknownTagsGetTheirOwnLowercaseNames) {
  RecordingSink sink;
  Page page =
      MustParse("<body><My-Widget x=1>w</My-Widget><other-widget>o</other-widget></body>", Options(), &sink);
  EXPECT_EQ(Texts(page, "//my-widget"), std::vector<std::string>{"w"});
  EXPECT_EQ(Texts(page, "//other-widget"), std::vector<std::string>{"o"});
  const std::vector<uint32_t>& t = sink.tokens;
  EXPECT_NE(std::find(t.begin(), t.end(), TagToken("my-widget")), t.end());
  EXPECT_NE(std::find(t.begin(), t.end(), TagToken("other-widget")), t.end());
  EXPECT_NE(TagToken("my-widget"), TagToken("other-widget"));
}

TEST(XPathTest, EndsWithIsAvailable) {
  Page page = MustParse("<ul><li>5 reviews</li><li>1 review</li><li>reviewer</li></ul>");
  EXPECT_EQ(Texts(page, "//li[ends-with(., 'review') or ends-with(., 'reviews')]"),
            (std::vector<std::string>{"5 reviews", "1 review"}));
}

TEST(XPathTest, SelectsTextNodesAndEvaluatesStrings) {
  Page page = MustParse("<div><b>SKU:</b> AB-12<br><b>Brand:</b> Acme</div>");
  EXPECT_EQ(Texts(page, "//b[.='SKU:']/following-sibling::text()[1]"), std::vector<std::string>{"AB-12"});
  absl::StatusOr<XPath> count = XPath::Compile("count(//b)");
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(count->EvaluateString(page).value(), "2");
}

TEST(XPathTest, RejectsBadExpressionsWithTheirText) {
  for (const char* bad : {"//div[", "//*[@id=='x']", "///", "", "count(("}) {
    absl::StatusOr<XPath> x = XPath::Compile(bad);
    ASSERT_FALSE(x.ok()) << bad;
    EXPECT_EQ(x.status().code(), absl::StatusCode::kInvalidArgument) << bad;
    if (*bad) {
      EXPECT_NE(x.status().message().find(bad), std::string::npos) << x.status();
    }
  }
  Page page = MustParse("<p>x</p>");
  absl::StatusOr<XPath> not_nodes = XPath::Compile("1 + 1");
  ASSERT_TRUE(not_nodes.ok());
  EXPECT_EQ(not_nodes->Select(page).status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<XPath> unknown = XPath::Compile("//p[no-such-function(.)]");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->Select(page).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(XPathTest, ContextNodeIsHonoured) {
  Page page = MustParse("<div id=a><i>1</i></div><div id=b><i>2</i></div>");
  absl::StatusOr<XPath> divs = XPath::Compile("//div");
  absl::StatusOr<XPath> rel = XPath::Compile("./i");
  ASSERT_TRUE(divs.ok() && rel.ok());
  std::vector<Node> d = divs->Select(page).value();
  ASSERT_EQ(d.size(), 2u);
  std::vector<Node> in_b = rel->Select(page, d[1]).value();
  ASSERT_EQ(in_b.size(), 1u);
  EXPECT_EQ(in_b[0].Text(), "2");
}

TEST(XPathTest, EvaluateBooleanCastsEachValueTypeWithTheContextNode) {
  Page page = MustParse("<table><tr><td width=10>$5</td><td>x</td></tr></table><p>0</p>");
  const std::vector<Node> cells = XPath::Compile("//td/text()").value().Select(page).value();
  ASSERT_EQ(cells.size(), 2u);
  struct Case {
    const char* expression;
    Node context;
    bool want;
  };
  const Case cases[] = {
      {"parent::td[@width='10']", cells[0], true},
      {"parent::td[@width='10']", cells[1], false},
      {"self::text()", cells[0], true},
      {"ancestor::table", cells[1], true},
      {"preceding::text()[normalize-space()!=''][1][.='$5']", cells[1], true},
      {"//p", Node(), true},           // node-set, document as context
      {"//h1", Node(), false},         // empty node-set
      {"string(//p)", Node(), true},   // the string "0" is not empty
      {"number(//p)", Node(), false},  // 0
      {"1 div 0", Node(), true},       // Infinity
      {"0 div 0", Node(), false},      // NaN
      {"''", Node(), false},
  };
  for (const Case& c : cases) {
    absl::StatusOr<XPath> x = XPath::Compile(c.expression);
    ASSERT_TRUE(x.ok()) << x.status();
    absl::StatusOr<bool> got = x->EvaluateBoolean(page, c.context);
    ASSERT_TRUE(got.ok()) << c.expression << ": " << got.status();
    EXPECT_EQ(*got, c.want) << c.expression;
  }
  absl::StatusOr<XPath> unknown = XPath::Compile("no-such-function(.)");
  ASSERT_TRUE(unknown.ok());
  EXPECT_EQ(unknown->EvaluateBoolean(page).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(XPathTest, AttributeAxisListsEveryAttributeInOrder) {
  Page page = MustParse("<font color=red size='2' data-x=\"a&amp;b\" empty>t</font>");
  const std::vector<Node> font = XPath::Compile("//font").value().Select(page).value();
  ASSERT_EQ(font.size(), 1u);
  using Attrs = std::vector<std::pair<std::string, std::string>>;
  EXPECT_EQ(AttributeAxis(font[0]),
            (Attrs{{"color", "red"}, {"size", "2"}, {"data-x", "a&b"}, {"empty", ""}}));
  EXPECT_EQ(XPath::Compile("count(@*)").value().EvaluateString(page, font[0]).value(), "4");
  EXPECT_TRUE(AttributeAxis(font[0].first_child()).empty());  // a text node
  EXPECT_TRUE(AttributeAxis(Node()).empty());
}

TEST(TextTest, NormalizeSpace) {
  EXPECT_EQ(NormalizeSpace("  a \t\n b\xC2\xA0\xC2\xA0 c  "), "a b c");
  EXPECT_EQ(NormalizeSpace(""), "");
  EXPECT_EQ(NormalizeSpace(" \n "), "");
  EXPECT_TRUE(IsBlank(" \xC2\xA0\t"));
  EXPECT_FALSE(IsBlank(" x "));
}

// ---- charsets ----

TEST(CharsetTest, DetectsTheDeclaredOrGuessedEncoding) {
  struct Case {
    std::string bytes, content_type, encoding, utf8_contains;
    CharsetSource source;
  };
  const std::vector<Case> cases = {
      {"\xEF\xBB\xBF<p>caf\xC3\xA9</p>", "", "UTF-8", "caf\xC3\xA9", CharsetSource::kBom},
      {"<p>caf\xE9</p>", "text/html; charset=ISO-8859-1", "windows-1252", "caf\xC3\xA9",
       CharsetSource::kHttpHeader},
      {"<meta charset=\"windows-1252\"><p>\x93quoted\x94</p>", "", "windows-1252",
       "\xE2\x80\x9Cquoted\xE2\x80\x9D", CharsetSource::kMetaTag},
      {"<meta http-equiv=Content-Type content='text/html; charset=Shift_JIS'><p>\x93\xfa\x96\x7b\x8c\xea</p>",
       "", "Shift_JIS", "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E", CharsetSource::kMetaTag},
      {"<p>caf\xE9 au lait</p>", "", "windows-1252", "caf\xC3\xA9", CharsetSource::kDefault},
      {"<p>plain \xE2\x82\xAC</p>", "", "UTF-8", "\xE2\x82\xAC", CharsetSource::kDefault},
      {"<meta charset=no-such-charset><p>ok</p>", "", "UTF-8", "ok", CharsetSource::kDefault},
  };
  for (const Case& c : cases) {
    DecodedText d = DecodeToUtf8(c.bytes, c.content_type);
    EXPECT_EQ(d.encoding, c.encoding) << c.bytes;
    EXPECT_EQ(d.source, c.source) << c.bytes;
    EXPECT_NE(d.utf8().find(c.utf8_contains), std::string::npos) << c.bytes << " -> " << d.utf8();
  }
}

TEST(CharsetTest, InvalidUtf8IsReplacedAndCounted) {
  DecodedText d = DecodeToUtf8("<meta charset=utf-8><p>a\xC3\x28 b\xFF c\xED\xA0\x80</p>", "");
  EXPECT_EQ(d.encoding, "UTF-8");
  EXPECT_GE(d.replacements, 3u);
  EXPECT_NE(d.utf8().find("a\xEF\xBF\xBD("), std::string::npos);
  Page page = MustParse("<p>a\xC3\x28 b\xFF</p>");
  EXPECT_EQ(Texts(page, "//p"), std::vector<std::string>{"a\xC3\x83( b\xC3\xBF"})
      << "no charset declared and not UTF-8: guessed windows-1252";
}

TEST_P(BothBuilders, ShiftJisPageParses) {
  Page page = MustParse(
      "<html><head><meta charset=shift_jis></head><body><h1>\x93\xfa\x96\x7b\x8c\xea</h1></body></html>",
      Options());
  EXPECT_EQ(page.encoding(), "Shift_JIS");
  EXPECT_EQ(Texts(page, "//h1"), std::vector<std::string>{"\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E"});
}

// ---- limits and bad input ----

TEST_P(BothBuilders, EmptyPageIsAnError) {
  Parser parser(Options());
  absl::StatusOr<Page> page = parser.Parse("", "http://x.test/empty");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(page.status().message().find("http://x.test/empty"), std::string::npos);
}

TEST_P(BothBuilders, BinaryGarbageYieldsAPage) {
  std::string garbage;
  uint32_t x = 12345;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1103515245 + 12345;
    garbage.push_back(static_cast<char>(x >> 16));
  }
  Parser parser(Options());
  absl::StatusOr<Page> page = parser.Parse(garbage, "http://x.test/bin");
  ASSERT_TRUE(page.ok()) << page.status();
  EXPECT_EQ(page->root().tag(), "html");
}

TEST_P(BothBuilders, PageOverTheSizeLimitIsRefusedFast) {
  const std::string huge(50 * 1024 * 1024, 'a');
  Parser parser(Options());
  absl::StatusOr<Page> page = parser.Parse(huge, "http://x.test/huge");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(page.status().message().find("8388608"), std::string::npos) << page.status();
  EXPECT_NE(page.status().message().find("52428800"), std::string::npos) << page.status();
}

TEST_P(BothBuilders, LimitsAreConfigurable) {
  ParseOptions small;
  small.max_page_bytes = 100;
  Parser parser(Options(small));
  EXPECT_EQ(parser.Parse(std::string(101, 'x'), "u").status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(parser.Parse(std::string(100, 'x'), "u").ok());
}

std::string Nested(const std::string& tag, int n) {
  std::string s = "<html><body>";
  for (int i = 0; i < n; ++i) s += "<" + tag + ">";
  s += "deep";
  for (int i = 0; i < n; ++i) s += "</" + tag + ">";
  return s + "</body></html>";
}

TEST_P(BothBuilders, HundredThousandNestedDivsAreRefused) {
  Parser parser(Options());
  absl::StatusOr<Page> page = parser.Parse(Nested("div", 100000), "http://x.test/deep");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(page.status().message().find("depth limit of 512"), std::string::npos) << page.status();
  // Unclosed formatting elements nest too.
  std::string bs = "<body>";
  for (int i = 0; i < 100000; ++i) bs += "<b>";
  EXPECT_EQ(parser.Parse(bs, "u").status().code(), absl::StatusCode::kResourceExhausted);
}

TEST_P(BothBuilders, DeepButAllowedPagesParseAndReportTheirDepth) {
  Page page = MustParse(Nested("div", 500), Options());
  EXPECT_EQ(page.depth(), 502);  // html, body, 500 divs
  EXPECT_EQ(Texts(page, "//div[not(div)]"), std::vector<std::string>{"deep"});
  ParseOptions options;
  options.max_depth = 2000;
  Page deeper = MustParse(Nested("section", 1500), Options(options));
  EXPECT_EQ(deeper.depth(), 1502);
}

TEST_P(BothBuilders, ManyUnclosedImplicitlyClosedElementsAreNotDeep) {
  std::string s = "<ul>";
  for (int i = 0; i < 5000; ++i) s += "<li>item <p>para";
  s += "</ul><table>";
  for (int i = 0; i < 3000; ++i) s += "<tr><td>a<td>b";
  s += "</table>";
  Page page = MustParse(s, Options());
  EXPECT_LT(page.depth(), 20);
  EXPECT_EQ(Texts(page, "//li").size(), 5000u);
}

TEST_P(BothBuilders, ParserIsReusableAfterErrors) {
  Parser parser(Options());
  EXPECT_FALSE(parser.Parse(Nested("div", 1000), "u").ok());
  EXPECT_FALSE(parser.Parse("", "u").ok());
  for (int i = 0; i < 50; ++i) {
    absl::StatusOr<Page> page = parser.Parse("<p>page " + std::to_string(i) + "</p>", "u");
    ASSERT_TRUE(page.ok());
    EXPECT_EQ(page->root().Text(), "page " + std::to_string(i));
  }
}

// ---- the nesting estimate ----

TEST(NestingTest, EstimatesDepthWithoutCountingVoidRawOrImplicitElements) {
  struct Case {
    std::string html;
    int expected;
  };
  const std::vector<Case> cases = {
      {"<div><div><span>x</span></div></div>", 3},
      {"<div><br><img src=x><input></div>", 1},
      {"<ul><li>a<li>b<li>c</ul>", 1},
      {"<script>if (a<b) { x = '<div><div><div>'; }</script><div></div>", 1},
      {"<!-- <div><div><div> --><div></div>", 1},
      {"<div title='a > b'><span></span></div>", 2},
      {"<DIV><Div></dIV></div>", 2},
      {"</div></div><div></div>", 1},
      {"<div/><div/><div/>", 3},  // self-closing syntax does not close a div
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PreScanStructure(c.html, {.max_depth = 100}).max_depth, c.expected) << c.html;
  }
  const PreScanResult over = PreScanStructure("<div><div><div><div>", {.max_depth = 2});
  EXPECT_EQ(over.over, PreScanResult::Over::kDepth);
  EXPECT_EQ(over.offset_over_limit, 10u);
  EXPECT_EQ(over.tag, "div");
}

TEST(NestingTest, CountsAttributesAsTheTokenizerSplitsThem) {
  struct Case {
    std::string html;
    int expected;
  };
  const std::vector<Case> cases = {
      {"<div></div>", 0},
      {"<div id=a class=\"b c\" hidden>", 3},
      {"<div a = 'x > y' b=\"q'r\"  c>", 3},
      {"<input a=1/ b c=d/>", 3},  // '/' ends an unquoted value only with the space
      {"<a href=x?a=1&b=2 title=t>", 2},
      {"<div a=\"1\"b=2>", 2},  // no space after a quoted value: a new attribute
      {"</div x y z>", 3},  // end tags are tokenized (and checked) too
      {"<script a b>var s = '<div c d e f>';</script>", 2},
      {"<!-- <div a b c d e> --><p a>", 1},
      {"<div a a a a>", 4},  // duplicates count: Gumbo compares them too
      {"<div a='x\" y>' b=\"'\" c>", 3},
      {"<div a b='never closed>", 2},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(PreScanStructure(c.html, {}).max_attributes, c.expected) << c.html;
  }
  const PreScanResult over = PreScanStructure("<p>\n<div a b>\n<span a b c>", {.max_attributes = 2});
  EXPECT_EQ(over.over, PreScanResult::Over::kAttributes);
  EXPECT_EQ(over.offset_over_limit, 14u);
  EXPECT_EQ(over.tag, "span");
  EXPECT_EQ(LineAt("<p>\n<div a b>\n<span a b c>", 14), 3u);
}

TEST(NestingTest, Libxml2ScanCountsAttributesOnlyAndSkipsOnlyScriptAndStyle) {
  // libxml2's HTML parser reads tags inside <title> and <textarea> (HTML5
  // makes text of them) and compares a tag's attributes pairwise: they
  // count. <script> and <style> content is raw text to both.
  const std::string html = "<title><div a b c></title><script>'<p x y z w>'</script>";
  EXPECT_EQ(PreScanStructure(html, {}).max_attributes, 0);
  const PreScanResult libxml2 = PreScanStructure(html, {.max_attributes = 2, .libxml2 = true});
  EXPECT_EQ(libxml2.over, PreScanResult::Over::kAttributes);
  EXPECT_EQ(libxml2.tag, "div");
  EXPECT_EQ(libxml2.offset_over_limit, 7u);
  // Depth is the libxml2 builder's own check: the scan leaves it.
  const PreScanResult deep = PreScanStructure("<div><div><div><a b>", {.max_depth = 1, .libxml2 = true});
  EXPECT_EQ(deep.over, PreScanResult::Over::kNone);
  EXPECT_EQ(deep.max_depth, 0);
  EXPECT_EQ(deep.max_attributes, 1);
}

// One <div> with `n` distinct attributes, in a page.
std::string ManyAttributes(int n) {
  std::string s = "<html><body><p>before</p>\n<div";
  for (int i = 0; i < n; ++i) s += " a" + std::to_string(i) + "=\"v" + std::to_string(i) + "\"";
  return s + ">x</div></body></html>";
}

TEST_P(BothBuilders, TagWithTooManyAttributesIsRefusedNamingTheLimitAndLine) {
  Parser parser(Options());
  absl::StatusOr<Page> page = parser.Parse(ManyAttributes(100000), "http://x.test/attrs");
  ASSERT_FALSE(page.ok());
  EXPECT_EQ(page.status().code(), absl::StatusCode::kResourceExhausted);
  const std::string message(page.status().message());
  EXPECT_NE(message.find("more than 1000 attributes"), std::string::npos) << message;
  EXPECT_NE(message.find("<div> at line 2"), std::string::npos) << message;
  EXPECT_NE(message.find("http://x.test/attrs"), std::string::npos) << message;
}

TEST_P(BothBuilders, TagAtTheAttributeLimitParsesWithEveryAttributeInOrder) {
  Page page = MustParse(ManyAttributes(1000), Options());
  const std::vector<Node> divs = XPath::Compile("//div").value().Select(page).value();
  ASSERT_EQ(divs.size(), 1u);
  const std::vector<std::pair<std::string, std::string>> attrs = AttributeAxis(divs[0]);
  ASSERT_EQ(attrs.size(), 1000u);
  for (size_t i = 0; i < attrs.size(); ++i) {
    EXPECT_EQ(attrs[i].first, "a" + std::to_string(i));
    EXPECT_EQ(attrs[i].second, "v" + std::to_string(i));
  }
  EXPECT_EQ(Texts(page, "//div[@a999='v999']"), std::vector<std::string>{"x"});
  ParseOptions options;
  options.max_attributes = 999;
  Parser strict(Options(options));
  EXPECT_EQ(strict.Parse(ManyAttributes(1000), "u").status().code(), absl::StatusCode::kResourceExhausted);
  options.max_attributes = 5000;
  Parser lenient(Options(options));
  EXPECT_TRUE(lenient.Parse(ManyAttributes(3000), "u").ok());
}

TEST_P(BothBuilders, AttributeValuesKeepAmpersandsAndSurviveTheLinearMirror) {
  Page page = MustParse("<a href='/p?a=1&amp;b=2&c=3' title=\"x &lt; y\" data-x>t</a>", Options());
  EXPECT_EQ(XPath::Compile("string(//a/@href)").value().EvaluateString(page).value(), "/p?a=1&b=2&c=3");
  EXPECT_EQ(XPath::Compile("string(//a/@title)").value().EvaluateString(page).value(), "x < y");
  EXPECT_EQ(Texts(page, "//a[@data-x='']"), std::vector<std::string>{"t"});
}

// ---- XPath limits ----

// A page of `n` nested-list items: <ul><li><span>i</span></li>...</ul>.
std::string ListPage(int n) {
  std::string s = "<html><body><ul>";
  for (int i = 0; i < n; ++i) s += "<li><span>" + std::to_string(i) + "</span></li>";
  return s + "</ul></body></html>";
}

TEST(XPathLimitTest, OverlongExpressionIsRefusedNamingTheLimit) {
  std::string unions = "//p";
  while (unions.size() <= kMaxXPathBytes) unions += " | //p";
  absl::StatusOr<XPath> x = XPath::Compile(unions);
  ASSERT_FALSE(x.ok());
  EXPECT_EQ(x.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(x.status().message().find("XPath length limit of 16384 bytes"), std::string::npos) << x.status();
  EXPECT_TRUE(XPath::Compile(unions.substr(0, 3 + (kMaxXPathBytes - 3) / 6 * 6)).ok());
}

TEST(XPathLimitTest, ExplosiveExpressionsStopAtTheBudgetNamingIt) {
  Page page = MustParse(ListPage(1000));
  // Long axes walked again for every node of every node: n^3 node visits.
  for (const std::string expr : {"//li[count(preceding::li[count(following::li) > 0]) > 0]"}) {
    absl::StatusOr<std::vector<Node>> nodes = XPath::Compile(expr).value().Select(page);
    ASSERT_FALSE(nodes.ok()) << expr;
    EXPECT_EQ(nodes.status().code(), absl::StatusCode::kResourceExhausted) << expr;
    EXPECT_NE(nodes.status().message().find("XPath evaluation budget of " +
                                            std::to_string(XPathOperationBudget(page)) + " operations"),
              std::string::npos)
        << nodes.status();
    EXPECT_NE(nodes.status().message().find("http://example.test/p"), std::string::npos) << nodes.status();
  }
  // Ordinary expressions, positional and label-first ones included, stay
  // within it on the same page.
  for (const std::string expr : {"//li[span='999']", "//ul/li[last()]/span", "(//span)[500]",
                                 "//text()[normalize-space(.)='7']/following::text()[normalize-space(.)!=''][1]",
                                 "//li[count(span) = 1][not(@class)]//text()", "//*"}) {
    absl::StatusOr<std::vector<Node>> nodes = XPath::Compile(expr).value().Select(page);
    ASSERT_TRUE(nodes.ok()) << expr << ": " << nodes.status();
    EXPECT_FALSE(nodes->empty()) << expr;
  }
}

TEST(XPathLimitTest, SharedBudgetIsSpentAcrossEvaluationsAndThenRefuses) {
  Page page = MustParse(ListPage(100));
  const XPath all = XPath::Compile("//*").value();
  const std::vector<Node> items = XPath::Compile("//li").value().Select(page).value();
  ASSERT_EQ(items.size(), 100u);
  // Without a budget, each evaluation gets the page's own.
  XPathBudget budget(page);
  EXPECT_EQ(budget.total(), XPathOperationBudget(page));
  ASSERT_TRUE(all.Select(page, Node(), &budget).ok());
  const unsigned long after_one = budget.remaining();
  EXPECT_LT(after_one, budget.total());
  ASSERT_TRUE(all.Select(page, items[0], &budget).ok());
  EXPECT_LT(budget.remaining(), after_one);
  // A small shared budget: the evaluations that fit pass, the first past it
  // fails naming the shared budget, and every later one fails at once.
  const unsigned long one = budget.total() - after_one;  // "//*" costs the same from any node
  XPathBudget tiny(5 * one / 2);
  const XPath rel = XPath::Compile("preceding::*").value();
  size_t passed = 0;
  absl::Status failed;
  for (Node item : items) {
    absl::StatusOr<std::vector<Node>> nodes = all.Select(page, item, &tiny);
    if (!nodes.ok()) {
      failed = nodes.status();
      break;
    }
    ++passed;
  }
  EXPECT_EQ(passed, 2u);
  EXPECT_EQ(failed.code(), absl::StatusCode::kResourceExhausted) << failed;
  EXPECT_NE(failed.message().find("shared XPath evaluation budget"), std::string::npos) << failed;
  absl::StatusOr<std::vector<Node>> later = rel.Select(page, items[99], &tiny);
  EXPECT_EQ(later.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_NE(later.status().message().find("is spent"), std::string::npos) << later.status();
  // A null budget is Select()'s own.
  EXPECT_TRUE(rel.Select(page, items[99], nullptr).ok());
  // The budget's reused context follows the page it is used on, and each
  // evaluation starts from its own context node.
  Page other = MustParse("<html><body><ul><li>x</li><li>y</li></ul></body></html>");
  XPathBudget shared(page);
  const XPath text = XPath::Compile("descendant::text()").value();
  ASSERT_EQ(text.Select(page, items[3], &shared).value().size(), 1u);
  const std::vector<Node> other_items = XPath::Compile("//li").value().Select(other).value();
  const std::vector<Node> y = text.Select(other, other_items[1], &shared).value();
  ASSERT_EQ(y.size(), 1u);
  EXPECT_EQ(y[0].Text(), "y");
  EXPECT_EQ(XPath::Compile("count(preceding::li)").value().EvaluateString(other, other_items[1]).value(), "1");
  EXPECT_EQ(XPath::Compile("//li").value().Select(page, Node(), &shared).value().size(), 100u);
}

TEST(XPathLimitTest, AbsolutePathsInsidePredicatesAreRefusedAtCompile) {
  for (const std::string expr : {"//*[count(//*) > count(//*//*)]", "//li[. = //span]", "//li[string(/html) = 'x']",
                                 "//a[b and //c]", "//a[1 | /x]", "//a[b][c or\n//d]", "//a[f(1, //b)]",
                                 "//a[3 * //b]", "//a[x[y = /z]]"}) {
    absl::StatusOr<XPath> x = XPath::Compile(expr);
    ASSERT_FALSE(x.ok()) << expr;
    EXPECT_EQ(x.status().code(), absl::StatusCode::kInvalidArgument) << expr;
    EXPECT_NE(x.status().message().find("absolute location path inside a predicate"), std::string::npos)
        << x.status();
  }
  for (const std::string expr : {"//a[b//c]", "//a[.//c]", "(//a)[1]", "//a[@x='//y']", "//a[@x=\"[//y\"]",
                                 "//*[a/b]", "//a[count(*//b) > 1]", "//a[following-sibling::*[1]/b]", "//a | //b",
                                 "//a[x]/following::b", "//a[band//c]", "//a[*//b]", "/html/body//a[last()]"}) {
    EXPECT_TRUE(XPath::Compile(expr).ok()) << expr << ": " << XPath::Compile(expr).status();
  }
}

// ---- the arena ----

TEST(ArenaTest, AlignsReusesAndHandlesLargeObjects) {
  Arena arena(1024);
  void* a = arena.Allocate(3);
  void* b = arena.Allocate(5);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % 16, 0u);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % 16, 0u);
  EXPECT_NE(a, b);
  void* big = arena.Allocate(100000);
  std::memset(big, 1, 100000);
  void* c = arena.Allocate(8);
  EXPECT_EQ(static_cast<char*>(c) - static_cast<char*>(b), 16);  // same block continues
  arena.Reset();
  EXPECT_EQ(arena.bytes_allocated(), 0u);
  for (int i = 0; i < 1000; ++i) std::memset(arena.Allocate(100), 2, 100);
  EXPECT_GE(arena.bytes_allocated(), 100000u);
}

}  // namespace
}  // namespace vertex::html
