// Learn-then-extract for values outside single text nodes (issue 12,
// Deliver 1 and 2), one row per case: pages of one template, the values an
// editor types on the first page(s), and the values the learnt rule must
// give on every page — links (relative, absolute, against <base>), images
// (src, srcset), <meta> og:title, <time datetime>, data-*, inline markup,
// an address with <br>, th/td, JSON-LD. Each row goes through LearnRule over all its
// pages and CompiledRule::Apply, as the engine does, and says which
// attribute (if any) the rule reads. Values are compared whitespace-
// normalised: an element value's lines are joined by "\n" in SourceTexts.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/learn/learn_case.h"

namespace vertex::learn {
namespace {

struct Row {
  const char* name;
  const char* attribute_json;  // one attribute's schema
  const char* value_attribute;  // what the learnt rule must read ("": text)
  std::vector<std::pair<std::string, std::vector<std::string>>> pages;  // body (or whole document), values
  size_t annotated = 1;
};

std::string Document(const std::string& body) {
  if (body.rfind("<html", 0) == 0) return body;
  return "<html><head><title>Blog</title></head><body><ul class=menu><li><a href=/>Home</a></li>"
         "<li><a href=/archive>Archive</a></li></ul>" + body + "<p class=legal>(c) Blog</p></body></html>";
}

std::string Post(const std::string& inner, int i) {
  return absl::StrCat("<article class=post><h2 class=headline>Post number ", i, "</h2>", inner,
                      "<p class=words>", 100 * i, " words</p></article>");
}

std::string RunRow(const Row& row) {
  std::vector<testing::CaseDocument> documents;
  for (size_t i = 0; i < row.pages.size(); ++i) {
    documents.push_back(
        {Document(row.pages[i].first), absl::StrCat("http://blog.test/2026/post-", i), row.pages[i].second});
  }
  absl::StatusOr<testing::LearntCase> learnt = testing::LearnCase(row.name, row.attribute_json, documents, row.annotated);
  if (!learnt.ok()) return std::string(learnt.status().message());
  std::string errors;
  if (learnt->result.diagnostics[0].learnt) {
    const std::string& read = learnt->result.rule.attributes(0).value_attribute();
    if (read != row.value_attribute) absl::StrAppend(&errors, "reads @", read, " want @", row.value_attribute, "; ");
  }
  return errors + testing::ExtractionMismatches(*learnt, documents, /*normalize=*/true);
}

std::vector<Row> Rows() {
  std::vector<Row> rows;
  rows.push_back({"relative permalinks", R"({"name": "permalink", "type": "url"})", "href",
                  {{Post("<a class=permalink href='p/first-light'>Permalink</a>", 1), {"http://blog.test/2026/p/first-light"}},
                   {Post("<a class=permalink href='../2025/p/snow'>Permalink</a>", 2), {"http://blog.test/2025/p/snow"}},
                   {Post("<a class=permalink href='/tags/x?page=2#c'>Permalink</a>", 3), {"http://blog.test/tags/x?page=2#c"}}}});
  rows.push_back({"permalink annotated as written", R"({"name": "permalink", "type": "url"})", "href",
                  {{Post("<a class=permalink href='/p/41'>Permalink</a>", 1), {"http://blog.test/p/41"}},
                   {Post("<a class=permalink href='https://mirror.test/p/7'>Permalink</a>", 2), {"https://mirror.test/p/7"}}}});
  rows.push_back({"absolute links", R"({"name": "source", "type": "url"})", "href",
                  {{Post("<p>Via <a class=src href='https://news.test/a/1'>News</a></p>", 1), {"https://news.test/a/1"}},
                   {Post("<p>Via <a class=src href='https://wire.test/b'>Wire</a></p>", 2), {"https://wire.test/b"}},
                   {Post("<p>Via <a class=src href='http://x.test/'>X</a></p>", 3), {"http://x.test/"}}},
                  2});
  rows.push_back({"links against <base>", R"({"name": "download", "type": "url"})", "href",
                  {{"<html><head><base href='http://files.test/d/'></head><body><a id=dl href='a.pdf'>Get</a><p>one</p></body></html>",
                    {"http://files.test/d/a.pdf"}},
                   {"<html><head><base href='http://files.test/d/'></head><body><a id=dl href='../b.pdf'>Get</a><p>two</p></body></html>",
                    {"http://files.test/b.pdf"}},
                   {"<html><head></head><body><a id=dl href='c.pdf'>Get</a><p>three</p></body></html>",
                    {"http://blog.test/2026/c.pdf"}}}});
  rows.push_back({"img src", R"({"name": "photo", "type": "image"})", "src",
                  {{Post("<figure><img class=hero src='/media/fox.jpg' alt='A fox'></figure>", 1), {"http://blog.test/media/fox.jpg"}},
                   {Post("<figure><img class=hero src='media/owl.png' alt='An owl'></figure>", 2), {"http://blog.test/2026/media/owl.png"}},
                   {Post("<figure><img class=hero src='//cdn.test/elk.webp' alt='An elk'></figure>", 3), {"http://cdn.test/elk.webp"}}}});
  rows.push_back({"img srcset", R"({"name": "photo", "type": "image"})", "srcset",
                  {{Post("<img class=hero srcset='/m/fox-640.jpg 640w, /m/fox-1280.jpg 1280w'>", 1), {"http://blog.test/m/fox-640.jpg"}},
                   {Post("<img class=hero srcset='/m/owl-640.jpg 640w, /m/owl-1280.jpg 1280w'>", 2), {"http://blog.test/m/owl-640.jpg"}},
                   {Post("<img class=hero srcset='/m/elk.jpg'>", 3), {"http://blog.test/m/elk.jpg"}}}});
  rows.push_back({"meta og:title", R"({"name": "title"})", "content",
                  {{"<html><head><title>Blog</title><meta property='og:title' content='First light over the bay'></head><body><h2>Bay</h2></body></html>",
                    {"First light over the bay"}},
                   {"<html><head><title>Blog</title><meta property='og:title' content='Snow in April'></head><body><h2>Snow</h2></body></html>",
                    {"Snow in April"}},
                   {"<html><head><title>Blog</title><meta property='og:title' content='Owls'></head><body><h2>Birds</h2></body></html>",
                    {"Owls"}}}});
  rows.push_back({"time datetime", R"({"name": "published"})", "datetime",
                  {{Post("<p class=meta>Posted <time datetime='2026-02-11T08:00'>Feb 11</time></p>", 1), {"2026-02-11T08:00"}},
                   {Post("<p class=meta>Posted <time datetime='2025-12-24T18:30'>Dec 24</time></p>", 2), {"2025-12-24T18:30"}},
                   {Post("<p class=meta>Posted <time datetime='2024-01-01T00:00'>Jan 1</time></p>", 3), {"2024-01-01T00:00"}}}});
  rows.push_back({"data-* attribute", R"({"name": "post_id"})", "data-post-id",
                  {{Post("<div class=share data-post-id='88120'>Share</div>", 1), {"88120"}},
                   {Post("<div class=share data-post-id='7'>Share</div>", 2), {"7"}},
                   {Post("<div class=share data-post-id='90210'>Share</div>", 3), {"90210"}}}});
  rows.push_back({"inline markup", R"({"name": "title"})", "",
                  {{Post("<h1 class=title>A <em>very</em> <b>long</b> winter</h1>", 1), {"A very long winter"}},
                   {Post("<h1 class=title><em>Snow</em> in April</h1>", 2), {"Snow in April"}},
                   {Post("<h1 class=title>Owls</h1>", 3), {"Owls"}}}});
  rows.push_back({"address with <br>", R"({"name": "address"})", "",
                  {{Post("<address class=venue>Town Hall<br>1 High St<br>Leeds LS1 1AA</address>", 1), {"Town Hall 1 High St Leeds LS1 1AA"}},
                   {Post("<address class=venue>The Barn<br>Mill Lane, York</address>", 2), {"The Barn Mill Lane, York"}},
                   {Post("<address class=venue>Online</address>", 3), {"Online"}}}});
  rows.push_back({"th/td row", R"({"name": "location"})", "",
                  {{Post("<table class=facts><tr><th>Where</th><td>Leeds, <i>UK</i></td></tr></table>", 1), {"Leeds, UK"}},
                   {Post("<table class=facts><tr><th>Where</th><td>York, <i>UK</i></td></tr></table>", 2), {"York, UK"}},
                   {Post("<table class=facts><tr><th>Where</th><td>Online</td></tr></table>", 3), {"Online"}}}});
  // Found nowhere but in JSON-LD; other JSON-LD scripts (a breadcrumb) and
  // a script that is not JSON do not disturb the rule.
  const auto ld = [](const std::string& json) { return "<script type='application/ld+json'>" + json + "</script>"; };
  const std::string crumbs = ld(R"({"@type": "BreadcrumbList", "itemListElement": [{"name": "Blog"}]})");
  rows.push_back({"JSON-LD list of authors", R"({"name": "author", "multi_valued": true})", "",
                  {{Post(crumbs + ld(R"({"@type": "BlogPosting", "author": [{"name": "Ann Lee"}, {"name": "Bo Chen"}]})"), 1),
                    {"Ann Lee", "Bo Chen"}},
                   {Post(ld(R"({"@type": "BlogPosting", "author": [{"name": "Cy Dorn"}]})") + crumbs, 2), {"Cy Dorn"}},
                   {Post(crumbs + "<script type='application/ld+json'>{broken</script>" +
                             ld(R"({"@type": "BlogPosting", "author": {"name": "Dee Fox"}})"), 3),
                    {"Dee Fox"}}}});
  return rows;
}

TEST(ValueSourceTest, LearnThenExtract) {
  for (const Row& row : Rows()) EXPECT_EQ(RunRow(row), "") << row.name;
}

// One rule reads one attribute: values held by different attributes on
// different pages are refused with a message naming them.
TEST(ValueSourceTest, ValuesInDifferentAttributesAreRefused) {
  const Row row{"different attributes", R"({"name": "ref"})", "",
                {{Post("<a class=x href='/r/1' title='Ref A'>x</a>", 1), {"http://blog.test/r/1"}},
                 {Post("<a class=x href='/r/2' title='Ref B'>x</a>", 2), {"Ref B"}}},
                2};
  const std::string error = RunRow(row);
  EXPECT_NE(error.find("value_mismatch"), std::string::npos) << error;
  EXPECT_NE(error.find("different attributes (href, title)"), std::string::npos) << error;
}

}  // namespace
}  // namespace vertex::learn
