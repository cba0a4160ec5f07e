// The Gumbo builder's libxml2 mirror (page.cc) against a plain reference
// mirror written here with libxml2's ordinary constructors (xmlNewDocNode,
// xmlNewProp, xmlNewDocText; recursive, for small trees): the optimised
// mirror (names interned in the document's dictionary, attributes built by
// hand) must serialise to the same XML on the demo site's pages, the SWDE
// pages beside the project and hand-made edge cases.
#include <gumbo.h>
#include <libxml/tree.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "common/demo/site_generator.h"
#include "common/html/charset.h"
#include "common/html/page.h"
#include "gtest/gtest.h"

namespace vertex::html {
namespace {

std::string ReferenceName(const GumboElement& e) {
  if (e.tag != GUMBO_TAG_UNKNOWN) return gumbo_normalized_tagname(e.tag);
  GumboStringPiece piece = e.original_tag;
  if (piece.length == 0) return "unknown";
  gumbo_tag_from_original_text(&piece);
  std::string name = absl::AsciiStrToLower(std::string(piece.data, piece.length));
  return name.empty() ? "unknown" : name;
}

void ReferenceChildren(const GumboVector& children, xmlDocPtr doc, xmlNodePtr parent) {
  for (unsigned i = 0; i < children.length; ++i) {
    const auto* child = static_cast<const GumboNode*>(children.data[i]);
    switch (child->type) {
      case GUMBO_NODE_ELEMENT:
      case GUMBO_NODE_TEMPLATE: {
        const GumboElement& e = child->v.element;
        xmlNodePtr node = xmlNewDocNode(doc, nullptr, BAD_CAST ReferenceName(e).c_str(), nullptr);
        for (unsigned a = 0; a < e.attributes.length; ++a) {
          const auto* attr = static_cast<const GumboAttribute*>(e.attributes.data[a]);
          xmlNewProp(node, BAD_CAST attr->name, BAD_CAST attr->value);
        }
        if (parent == reinterpret_cast<xmlNodePtr>(doc)) {
          xmlDocSetRootElement(doc, node);
        } else {
          LinkLastChild(parent, node);
        }
        ReferenceChildren(e.children, doc, node);
        break;
      }
      case GUMBO_NODE_TEXT:
      case GUMBO_NODE_CDATA:
      case GUMBO_NODE_WHITESPACE:
        if (parent != reinterpret_cast<xmlNodePtr>(doc)) {
          LinkLastChild(parent, xmlNewDocText(doc, BAD_CAST child->v.text.text));
        }
        break;
      default:
        break;
    }
  }
}

std::string Dump(xmlDocPtr doc) {
  xmlBufferPtr buffer = xmlBufferCreate();
  xmlNodeDump(buffer, doc, xmlDocGetRootElement(doc), 0, 0);
  std::string out(reinterpret_cast<const char*>(xmlBufferContent(buffer)), xmlBufferLength(buffer));
  xmlBufferFree(buffer);
  return out;
}

// The reference mirror of `bytes`, decoded as Parser::Parse decodes them.
std::string ReferenceXml(const std::string& bytes) {
  const DecodedText text = DecodeToUtf8(bytes, "");
  GumboOutput* output = gumbo_parse_with_options(&kGumboDefaultOptions, text.utf8().data(), text.utf8().size());
  xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
  ReferenceChildren(output->document->v.document.children, doc, reinterpret_cast<xmlNodePtr>(doc));
  gumbo_destroy_output(&kGumboDefaultOptions, output);
  std::string out = Dump(doc);
  xmlFreeDoc(doc);
  return out;
}

// The Gumbo builder's mirror: Gumbo named, as libxml2 is the default.
ParseOptions GumboOptions() {
  ParseOptions options;
  options.builder = PageBuilder::kGumbo;
  return options;
}

void ExpectSameMirror(const std::string& bytes, const std::string& what) {
  Parser parser(GumboOptions());
  absl::StatusOr<Page> page = parser.Parse(bytes, "http://example.test/" + what);
  ASSERT_TRUE(page.ok()) << what << ": " << page.status();
  const std::string got = Dump(page->doc());
  const std::string want = ReferenceXml(bytes);
  if (got == want) return;
  const size_t at = std::mismatch(got.begin(), got.end(), want.begin(), want.end()).first - got.begin();
  ADD_FAILURE() << what << ": mirrors differ at byte " << at << ": ..." << got.substr(at > 60 ? at - 60 : 0, 120)
                << "... vs ..." << want.substr(at > 60 ? at - 60 : 0, 120) << "...";
}

TEST(MirrorTest, EdgeCasesMirrorAsTheReference) {
  const std::vector<std::string> pages = {
      "<p>plain</p>",
      "<DIV Class='a b' ID=x data-X=\"q&amp;r\" empty>t<!-- c --> u</DIV>",
      "<My-Widget A=1 b='2'>w</My-Widget><other-widget>o</other-widget>",
      "<svg viewBox='0 0 1 1'><circle r=1 /><foreignObject><p>f</p></foreignObject></svg><math><mi>x</mi></math>",
      "<template><p>t</p></template><table><tr><td>1<td>2</table>",
      "<a href='/p?a=1&b=2' title=\"x &lt; y\">l</a><p>\n  \n</p><pre>\nx</pre><textarea><b>r</b></textarea>",
      "<div a1=1 a2=2 a3=3 a4=4 a5=5 a6=6 a7=7 a8=8 a9=9 a10=10 a1=dup>many</div>",
  };
  for (size_t i = 0; i < pages.size(); ++i) ExpectSameMirror(pages[i], "edge" + std::to_string(i));
}

TEST(MirrorTest, DemoSitePagesMirrorAsTheReference) {
  demo::SiteOptions options;
  options.product_pages = 10;
  options.category_pages = 5;
  options.review_pages = 5;
  options.store_pages = 5;
  for (const demo::GeneratedPage& p : demo::GenerateSite(options)) ExpectSameMirror(p.html, p.file_name);
}

TEST(MirrorTest, SwdePagesMirrorAsTheReference) {
  const std::filesystem::path dir = std::filesystem::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << dir << " is absent";
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  if (files.size() > 30) files.resize(30);
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    ExpectSameMirror(bytes.str(), file.filename().string());
  }
}

}  // namespace
}  // namespace vertex::html
