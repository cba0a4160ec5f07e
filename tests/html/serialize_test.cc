#include "common/html/serialize.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "common/html/page.h"
#include "common/util/file.h"
#include "gtest/gtest.h"

namespace vertex::html {
namespace {

struct DocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using DocPtr = std::unique_ptr<xmlDoc, DocDeleter>;

constexpr PageBuilder kBuilders[] = {PageBuilder::kGumbo, PageBuilder::kLibxml2};

Page MustParse(std::string_view html, PageBuilder builder = ParseOptions{}.builder) {
  ParseOptions options;
  options.builder = builder;
  Parser parser(options);
  absl::StatusOr<Page> page = parser.Parse(html, "http://example.test/p");
  EXPECT_TRUE(page.ok()) << page.status();
  return std::move(page).value();
}

std::string View(const xmlChar* s) { return s ? reinterpret_cast<const char*>(s) : ""; }

std::string Content(const xmlNode* n) {
  xmlChar* c = xmlNodeGetContent(n);
  std::string s = View(c);
  xmlFree(c);
  return s;
}

// Parses `xml` with libxml2's XML parser (no recovery); null when it is not
// well-formed.
DocPtr ReparseXml(const std::string& xml) {
  return DocPtr(xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "serialized.xhtml", "UTF-8",
                              XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
}

// The mirror's text as the serialisation must carry it: U+000B/U+000C become
// spaces, other forbidden controls and U+FFFE/U+FFFF become U+FFFD.
std::string ExpectedText(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\f' || c == '\v') {
      out += ' ';
    } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
      out += "\xEF\xBF\xBD";
    } else if (s.substr(i, 3) == "\xEF\xBF\xBE" || s.substr(i, 3) == "\xEF\xBF\xBF") {
      out += "\xEF\xBF\xBD";
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

const xmlNode* SkipComments(const xmlNode* n) {
  while (n != nullptr && n->type == XML_COMMENT_NODE) n = n->next;
  return n;
}

// Walks the mirror and the reparsed document side by side (comments in the
// reparsed one skipped) and compares every node: type, name (when it is a
// plain XML name), attributes, and the text of every node (a text node's
// content, an element's string-value). Returns the number of nodes compared.
size_t ExpectSameTree(const xmlNode* want, const xmlNode* got, const std::string& where) {
  size_t compared = 0;
  std::vector<std::pair<const xmlNode*, const xmlNode*>> stack = {{want, got}};
  while (!stack.empty()) {
    auto [w, g] = stack.back();
    stack.pop_back();
    for (; w != nullptr; w = w->next, g = g->next) {
      g = SkipComments(g);
      if (g == nullptr) {
        ADD_FAILURE() << where << ": reparsed tree lacks a node for " << View(w->name) << " " << Content(w);
        return compared;
      }
      ++compared;
      EXPECT_EQ(g->type, w->type) << where;
      EXPECT_EQ(Content(g), ExpectedText(Content(w))) << where << " in <" << View(w->parent->name) << ">";
      if (w->type != XML_ELEMENT_NODE) continue;
      if (xmlValidateNCName(w->name, 0) == 0) {
        EXPECT_EQ(View(g->name), View(w->name)) << where;
      }
      const xmlAttr* ga = g->properties;
      for (const xmlAttr* wa = w->properties; wa != nullptr; wa = wa->next, ga = ga->next) {
        if (ga == nullptr) {
          ADD_FAILURE() << where << ": attribute " << View(wa->name) << " lost";
          return compared;
        }
        if (xmlValidateNCName(wa->name, 0) == 0 && View(wa->name) != "xmlns") {
          EXPECT_EQ(View(ga->name), View(wa->name)) << where;
        }
        EXPECT_EQ(Content(reinterpret_cast<const xmlNode*>(ga)),
                  ExpectedText(Content(reinterpret_cast<const xmlNode*>(wa))))
            << where << " @" << View(wa->name);
      }
      EXPECT_EQ(ga, nullptr) << where << ": extra attribute in <" << View(w->name) << ">";
      if (w->children != nullptr) stack.push_back({w->children, g->children});
    }
    EXPECT_EQ(SkipComments(g), nullptr) << where << ": reparsed tree has an extra node";
  }
  return compared;
}

// Serialises `html` as `builder` builds it, reparses it as XML and
// compares the trees.
std::string RoundTrip(std::string_view html, PageBuilder builder) {
  SCOPED_TRACE(PageBuilderName(builder));
  Page page = MustParse(html, builder);
  absl::StatusOr<std::string> xml = SerializeXhtml(page);
  EXPECT_TRUE(xml.ok()) << xml.status();
  if (!xml.ok()) return "";
  DocPtr doc = ReparseXml(*xml);
  EXPECT_NE(doc, nullptr) << "not well-formed XML:\n" << *xml;
  if (doc == nullptr) return *xml;
  const size_t n = ExpectSameTree(page.root().raw(), xmlDocGetRootElement(doc.get()), std::string(html));
  EXPECT_EQ(n, page.node_count()) << html;
  return *xml;
}

// The tests with an exact expected serialisation use Gumbo's tree (its
// implied <head>; the control characters and names XML cannot keep, which
// libxml2's parser drops or renames before the serialiser sees them).
TEST(SerializeXhtml, WritesXmlDeclarationAndNoNamespace) {
  const std::string xml = RoundTrip("<html><body><p>x</p></body></html>", PageBuilder::kGumbo);
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u) << xml;
  EXPECT_NE(xml.find("<html><head></head><body><p>x</p></body></html>"), std::string::npos) << xml;
  EXPECT_EQ(xml.find("xmlns"), std::string::npos) << xml;
}

TEST(SerializeXhtml, RoundTripsTable) {
  const char* kPages[] = {
      // Entities, numeric references, non-ASCII.
      "<p>AT&amp;T &lt;tag&gt; &quot;q&quot; &apos;a&apos; caf&eacute; &#x1F600; &#169;</p>",
      // No-break spaces, as entities and raw.
      "<p>Our&nbsp;Price:&nbsp; <b>$25.99</b>\xC2\xA0\xC2\xA0x</p>",
      // Script and style text with '<', '&' and markup-like content.
      "<head><script>if (a < b && c > d) { s = \"</p><b>&amp;\"; } // ]]></script>"
      "<style>a > b { content: \"&\"; }</style></head><body><noscript>x < y</noscript></body>",
      // Attributes with quotes, '<', '&', tabs, newlines and CR.
      "<div title='say \"hi\"' data-x=\"it's\" onclick=\"a<b&&c>d\" data-ws=\"a\tb\nc&#13;d\">x</div>",
      // Whitespace-only text is kept; <pre> keeps its text.
      "<ul>\n  <li>one</li>\n  <li> two </li>\n</ul><pre>\n  a\n   b\n</pre><textarea>  t </textarea>",
      // Text split by a comment the mirror drops: two text nodes.
      "<p>before<!-- comment -->after</p><p>a<!--x-->  <!--y-->b</p>",
      // CDATA in foreign content, SVG and MathML names.
      "<svg viewBox='0 0 1 1'><![CDATA[x < y]]><foreignObject><p>in</p></foreignObject></svg>"
      "<math><mi>x</mi></math>",
      // Namespaced-looking names and namespace declarations.
      "<html xmlns='http://www.w3.org/1999/xhtml' xmlns:fb='http://ogp.me/ns/fb#' xml:lang='en'>"
      "<body><o:p class='x'>word</o:p><a xlink:href='#a' data-a:b:c='1'>l</a></body></html>",
      // Names that are not XML names, and a collision with a renamed one.
      "<div a\"b='1' _a_b='2' 1x='3'><foo$bar>y</foo$bar><x:1>z</x:1></div>",
      // Characters XML 1.0 forbids: C0 controls, U+FFFE, U+FFFF.
      "<p title='t\x01t\x0Bt'>a\x01"
      "b\x0C"
      "c\x0B"
      "d\x1F"
      "e\xEF\xBF\xBE"
      "f\xEF\xBF\xBF"
      "g</p>",
      // Unclosed and misnested tags, a table with foster-parented text.
      "<table>loose<tr><td>1<td>2</table><b><i>x</b>y</i>",
  };
  for (PageBuilder builder : kBuilders) {
    for (const char* html : kPages) RoundTrip(html, builder);
  }
}

TEST(SerializeXhtml, ReplacesForbiddenCharacters) {
  const std::string xml = RoundTrip(
      "<p>a\x01"
      "b\x0C"
      "c</p>",
      PageBuilder::kGumbo);
  EXPECT_NE(xml.find("<p>a\xEF\xBF\xBD"
                     "b c</p>"),
            std::string::npos)
      << xml;
}

TEST(SerializeXhtml, RenamesNamesXmlCannotKeep) {
  const std::string xml = RoundTrip(
      "<html xmlns='http://www.w3.org/1999/xhtml' xmlns:fb='u'><body>"
      "<div a\"b='1' _a_b='2'><o:p>w</o:p></div></body></html>",
      PageBuilder::kGumbo);
  EXPECT_NE(xml.find("<html _xmlns=\"http://www.w3.org/1999/xhtml\" _xmlns_fb=\"u\">"), std::string::npos) << xml;
  EXPECT_NE(xml.find("<div _a_b_=\"1\" _a_b=\"2\"><o:p>w</o:p></div>"), std::string::npos) << xml;
}

TEST(SerializeXhtml, SeparatesAdjacentTextNodes) {
  for (PageBuilder builder : kBuilders) {
    const std::string xml = RoundTrip("<p>before<!-- c -->after</p>", builder);
    EXPECT_NE(xml.find("<p>before<!---->after</p>"), std::string::npos) << PageBuilderName(builder) << xml;
  }
}

TEST(SerializeXhtml, EscapesScriptText) {
  for (PageBuilder builder : kBuilders) {
    const std::string xml = RoundTrip("<script>if (a < b && c) {}</script>", builder);
    EXPECT_NE(xml.find("<script>if (a &lt; b &amp;&amp; c) {}</script>"), std::string::npos)
        << PageBuilderName(builder) << xml;
  }
}

TEST(SerializeXhtml, MovedFromPageIsFailedPrecondition) {
  Page page = MustParse("<p>x</p>");
  Page other = std::move(page);
  absl::StatusOr<std::string> xml = SerializeXhtml(page);  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(xml.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(SerializeXhtml(other).ok());
}

TEST(SerializeXhtml, RoundTripsSwdePages) {
  const std::filesystem::path dir = std::filesystem::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no SWDE pages at " << dir;
  absl::StatusOr<std::vector<std::string>> files = util::ListFiles(dir.string(), {".htm"});
  ASSERT_TRUE(files.ok()) << files.status();
  for (size_t i = 0; i < 2 * files->size() && i < 200; ++i) {
    absl::StatusOr<std::string> bytes = util::ReadFile((*files)[i / 2]);
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    // Each page with each builder.
    ParseOptions options;
    options.builder = kBuilders[i % 2];
    Parser parser(options);
    absl::StatusOr<Page> page = parser.Parse(*bytes, (*files)[i / 2]);
    ASSERT_TRUE(page.ok()) << page.status();
    absl::StatusOr<std::string> xml = SerializeXhtml(*page);
    ASSERT_TRUE(xml.ok()) << xml.status();
    DocPtr doc = ReparseXml(*xml);
    const std::string where = (*files)[i / 2] + " (" + std::string(PageBuilderName(options.builder)) + ")";
    ASSERT_NE(doc, nullptr) << where << " is not well-formed once serialised";
    EXPECT_EQ(ExpectSameTree(page->root().raw(), xmlDocGetRootElement(doc.get()), where), page->node_count());
  }
}

}  // namespace
}  // namespace vertex::html
