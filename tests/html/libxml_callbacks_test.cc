// The libxml2 builder's own SAX callbacks (libxml_builder.h
// TreeCallbacks::kOwn) against libxml2's xmlSAX2 ones: the same node model
// (every node in document order with its kind, name, attributes and text,
// text node boundaries included), the same element sequence to the
// TagSink, node count and depth, on the generated demo site, the SWDE
// pages beside the project, the page_parse fuzz seeds and small pages made
// for each case the callbacks handle apart.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <libxml/tree.h>

#include "common/demo/site_generator.h"
#include "common/html/libxml_builder.h"
#include "common/html/page.h"
#include "gtest/gtest.h"

namespace vertex::html {
namespace {

class RecordingSink : public TagSink {
 public:
  void OnTag(uint32_t token) override { tokens.push_back(token); }
  std::vector<uint32_t> tokens;
};

// Every node under the document, preorder, one line each: its depth, kind,
// and name, attributes and value or text.
std::string Dump(xmlDocPtr doc) {
  std::string out;
  int depth = 0;
  for (xmlNodePtr n = doc->children; n != nullptr;) {
    out += std::to_string(depth) + " ";
    if (n->type == XML_ELEMENT_NODE) {
      out += "<" + std::string(reinterpret_cast<const char*>(n->name));
      for (xmlAttrPtr a = n->properties; a != nullptr; a = a->next) {
        out += " " + std::string(reinterpret_cast<const char*>(a->name)) + "=";
        for (xmlNodePtr t = a->children; t != nullptr; t = t->next) {
          out += "[" + std::to_string(t->type) + ":" +
                 (t->content ? reinterpret_cast<const char*>(t->content) : "(null)") + "]";
        }
      }
      out += n->nsDef != nullptr || n->ns != nullptr ? " +ns>\n" : ">\n";
    } else {
      out += "#" + std::to_string(n->type) + " " +
             (n->content ? reinterpret_cast<const char*>(n->content) : "(null)") + "\n";
    }
    if (n->children != nullptr && n->type == XML_ELEMENT_NODE) {
      n = n->children;
      ++depth;
      continue;
    }
    while (n != nullptr && n->next == nullptr) {
      n = n->parent == reinterpret_cast<xmlNodePtr>(doc) ? nullptr : n->parent;
      --depth;
    }
    if (n != nullptr) n = n->next;
  }
  return out;
}

struct Built {
  std::string error;  // the status message, empty when built
  std::string dump;
  std::vector<uint32_t> tags;
  size_t node_count = 0;
  int depth = 0;
};

Built Build(std::string_view html, TreeCallbacks callbacks, ParseOptions options = {}) {
  options.builder = PageBuilder::kLibxml2;
  RecordingSink sink;
  absl::StatusOr<BuiltDocument> built = BuildWithLibxml2(html, "http://example.test/p", options, &sink, callbacks);
  Built out;
  if (!built.ok()) {
    out.error = std::string(built.status().message());
    return out;
  }
  out.dump = Dump(built->doc);
  out.tags = std::move(sink.tokens);
  out.node_count = built->node_count;
  out.depth = built->depth;
  FreeDocument(built->doc);
  return out;
}

// The first line where two dumps part, for the failure message.
std::string FirstDifference(const std::string& a, const std::string& b) {
  std::istringstream sa(a), sb(b);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ga = static_cast<bool>(std::getline(sa, la));
    const bool gb = static_cast<bool>(std::getline(sb, lb));
    if (!ga && !gb) return "same";
    if (!ga || !gb || la != lb) {
      return "line " + std::to_string(line) + ": own '" + (ga ? la : "(end)") + "' vs xmlSAX2 '" +
             (gb ? lb : "(end)") + "'";
    }
  }
}

void ExpectSameTree(std::string_view html, const std::string& what) {
  const Built own = Build(html, TreeCallbacks::kOwn);
  const Built sax2 = Build(html, TreeCallbacks::kXmlSax2);
  ASSERT_EQ(own.error, sax2.error) << what;
  EXPECT_TRUE(own.dump == sax2.dump) << what << ": " << FirstDifference(own.dump, sax2.dump);
  EXPECT_EQ(own.tags, sax2.tags) << what;
  EXPECT_EQ(own.node_count, sax2.node_count) << what;
  EXPECT_EQ(own.depth, sax2.depth) << what;
}

TEST(LibxmlCallbacksTest, SameTreeOnPagesMadeForEachCase) {
  const std::string long_script = "<script>" + std::string(2500, 'x') + "</script>";
  const std::vector<std::string> pages = {
      "<p>a<!-- c -->b<?pi x?>c</p>",                            // runs split by a comment and a PI
      "<p>a&amp;b&#65;&nosuch;c</p>",                             // entities: one merged run
      "<html><head>" + long_script + "<style>s{}</style></head><body>t" + long_script + "u</body></html>",
      "<input disabled><div hidden x y=''>t</div><option selected>o</option>",  // valueless attributes
      "<div CLASS=A Id=b>x</div><DIV>y</DIV>",                    // case
      "<fb:like href=x>u</fb:like><svg:rect/><p>v</p>",          // prefixed names (xmlSAX2's path)
      "<!DOCTYPE html><html><body><p>a</p></body></html>\n<p>after</p> tail <b>x</b>",
      "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01//EN\"><html><body>\n <b>x</b> \n<p> </p>\n</body></html>",
      "text before <html> mid <body> in</body></html> out",
      "<table><tr><td>1<td>2</table><ul><li>a<li>b</ul><p>p1<p>p2<div>d</div>",
      "</p></div><//><<>><a <b <c</a></b>",
      std::string("<p>a\0b</p>\0<div\0>c</div>", 22),
      "   \n\t ",
      "plain text only",
      "<title>a<b>c</b></title><textarea><i>t</i></textarea><body><xmp><u>x</u></xmp></body>",
      "<a href='/x?a=1&b=2' title=\"q'\">l</a><img src=a alt>",
      "<html><body>" + std::string(5000, 'y') + "<p>" + std::string(300, ' ') + "</p></body></html>",
  };
  for (size_t i = 0; i < pages.size(); ++i) ExpectSameTree(pages[i], "page " + std::to_string(i));
}

TEST(LibxmlCallbacksTest, SameTreeOnTheGeneratedDemoSite) {
  demo::SiteOptions options;
  options.product_pages = 12;
  options.category_pages = 6;
  options.review_pages = 6;
  options.store_pages = 6;
  const std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
  ASSERT_FALSE(pages.empty());
  for (const demo::GeneratedPage& p : pages) ExpectSameTree(p.html, p.template_name + " " + p.url);
}

std::vector<std::string> FilesUnder(const std::filesystem::path& dir) {
  std::vector<std::string> out;
  if (!std::filesystem::is_directory(dir)) return out;
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    out.push_back(bytes.str());
  }
  return out;
}

TEST(LibxmlCallbacksTest, SameTreeOnTheSwdePages) {
  const std::filesystem::path dir = std::filesystem::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  const std::vector<std::string> pages = FilesUnder(dir);
  if (pages.empty()) GTEST_SKIP() << dir << " is absent";
  // The bytes as the builder gets them: decoded to UTF-8 by Parser::Parse;
  // these pages are ASCII/UTF-8 already.
  for (size_t i = 0; i < pages.size(); ++i) ExpectSameTree(pages[i], "swde page " + std::to_string(i));
}

TEST(LibxmlCallbacksTest, SameTreeOnThePageParseFuzzSeeds) {
  const std::vector<std::string> pages =
      FilesUnder(std::filesystem::path(VERTEX_SOURCE_DIR) / "tests/fuzz/corpus/page_parse");
  ASSERT_FALSE(pages.empty());
  for (size_t i = 0; i < pages.size(); ++i) ExpectSameTree(pages[i], "seed " + std::to_string(i));
}

TEST(LibxmlCallbacksTest, OwnCallbacksStopADeepPageAtTheLimitNamingWhere) {
  std::string html = "<html><body>\n";
  for (int i = 0; i < 100000; ++i) html += "<div>";
  const Built own = Build(html, TreeCallbacks::kOwn);
  EXPECT_NE(own.error.find("depth limit of 512 (<div> at line 2, byte "), std::string::npos) << own.error;
  // The tag named starts at the byte given: html, body and 510 divs fit.
  const size_t at = std::stoul(own.error.substr(own.error.rfind("byte ") + 5));
  EXPECT_EQ(at, 13u + 510 * 5);
  EXPECT_EQ(html.compare(at, 5, "<div>"), 0);
  // At the limit exactly, the page is whole (html, body, 510 divs).
  std::string fits = "<html><body>";
  for (int i = 0; i < 510; ++i) fits += "<div>";
  EXPECT_EQ(Build(fits, TreeCallbacks::kOwn).depth, 512);
}

}  // namespace
}  // namespace vertex::html
