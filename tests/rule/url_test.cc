// URL resolution (RFC 3986 section 5.4's examples plus what pages write),
// srcset, URL attributes and the value an attribute offers a rule.
#include "common/rule/url.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"

namespace vertex::rule {
namespace {

struct ResolveCase {
  const char* base;
  const char* reference;
  const char* want;
};

TEST(UrlTest, ResolvesReferences) {
  const char* rfc = "http://a/b/c/d;p?q";
  const std::vector<ResolveCase> cases = {
      // RFC 3986 5.4.1, normal examples.
      {rfc, "g:h", "g:h"},
      {rfc, "g", "http://a/b/c/g"},
      {rfc, "./g", "http://a/b/c/g"},
      {rfc, "g/", "http://a/b/c/g/"},
      {rfc, "/g", "http://a/g"},
      {rfc, "//g", "http://g"},
      {rfc, "?y", "http://a/b/c/d;p?y"},
      {rfc, "g?y", "http://a/b/c/g?y"},
      {rfc, "#s", "http://a/b/c/d;p?q#s"},
      {rfc, "g?y#s", "http://a/b/c/g?y#s"},
      {rfc, ";x", "http://a/b/c/;x"},
      {rfc, "", "http://a/b/c/d;p?q"},
      {rfc, ".", "http://a/b/c/"},
      {rfc, "./", "http://a/b/c/"},
      {rfc, "..", "http://a/b/"},
      {rfc, "../", "http://a/b/"},
      {rfc, "../g", "http://a/b/g"},
      {rfc, "../..", "http://a/"},
      {rfc, "../../g", "http://a/g"},
      // 5.4.2, abnormal examples.
      {rfc, "../../../g", "http://a/g"},
      {rfc, "/./g", "http://a/g"},
      {rfc, "/../g", "http://a/g"},
      {rfc, "g.", "http://a/b/c/g."},
      {rfc, "..g", "http://a/b/c/..g"},
      {rfc, "./../g", "http://a/b/g"},
      {rfc, "g/./h", "http://a/b/c/g/h"},
      {rfc, "g/../h", "http://a/b/c/h"},
      {rfc, "g;x=1/../y", "http://a/b/c/y"},
      {rfc, "g?y/../x", "http://a/b/c/g?y/../x"},
      {rfc, "g#s/../x", "http://a/b/c/g#s/../x"},
      // What pages write.
      {"http://shop.test/item/101", "/p/4411", "http://shop.test/p/4411"},
      {"http://shop.test/item/101", "../p/7?ref=x", "http://shop.test/p/7?ref=x"},
      {"http://shop.test/item/101", "  /p/1\n", "http://shop.test/p/1"},
      {"http://shop.test/item/101", "HTTPS://Cdn.test/a", "https://Cdn.test/a"},
      {"https://shop.test/a/b", "//cdn.test/x.jpg", "https://cdn.test/x.jpg"},
      {"http://shop.test", "x", "http://shop.test/x"},
      {"http://static.test/shop/", "x/1", "http://static.test/shop/x/1"},
      {"not a url", "https://abs.test/", "https://abs.test/"},
      {"http://shop.test/a", "mailto:me@shop.test", "mailto:me@shop.test"},
  };
  for (const ResolveCase& c : cases) {
    absl::StatusOr<std::string> got = ResolveUrl(c.base, c.reference);
    ASSERT_TRUE(got.ok()) << c.base << " + " << c.reference << ": " << got.status();
    EXPECT_EQ(*got, c.want) << c.base << " + " << c.reference;
  }
}

TEST(UrlTest, RejectsWhatCannotBeResolved) {
  EXPECT_EQ(ResolveUrl("", "g").status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ResolveUrl("/a/b", "g").status().code(), absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::string> relative = ResolveUrl("u0", "/p/1");
  ASSERT_FALSE(relative.ok());
  EXPECT_NE(relative.status().message().find("\"u0\""), std::string::npos) << relative.status();
}

TEST(UrlTest, LongPathsResolveInLinearTime) {
  // A data: URL of megabytes with a "/" every few bytes (base64).
  std::string data = "data:image/png;base64,";
  for (int i = 0; i < 200000; ++i) data += "ab/c";
  absl::StatusOr<std::string> got = ResolveUrl("http://a/", data);
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->size(), data.size());
}

TEST(UrlTest, FirstSrcsetUrl) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"/img/a-1x.jpg 1x, /img/a-2x.jpg 2x", "/img/a-1x.jpg"},
      {"  /img/c.jpg", "/img/c.jpg"},
      {"a.jpg 480w,b.jpg 800w", "a.jpg"},
      {"a.jpg, b.jpg 2x", "a.jpg"},  // commas ending a URL separate candidates
      {"a.jpg,b.jpg 2x", "a.jpg,b.jpg"},  // inside a URL they are part of it
      {", ,x.webp 1x", "x.webp"},
      {"", ""},
      {" , ", ""},
  };
  for (const auto& [srcset, want] : cases) EXPECT_EQ(FirstSrcsetUrl(srcset), want) << srcset;
}

struct AttributeCase {
  const char* html;  // inside <body> unless it starts with "<html"
  const char* tag;
  const char* attribute;
  bool url;
  const char* want;
};

TEST(UrlTest, AttributeSourceText) {
  const std::vector<AttributeCase> cases = {
      {"<a href='../p/7?ref=x'>x</a>", "a", "href", true, "http://shop.test/p/7?ref=x"},
      {"<a href='#top'>x</a>", "a", "href", true, "http://shop.test/item/101#top"},
      {"<img src='//cdn.test/a.jpg'>", "img", "src", true, "http://cdn.test/a.jpg"},
      {"<img srcset='/a-1x.jpg 1x, /a-2x.jpg 2x'>", "img", "srcset", true, "http://shop.test/a-1x.jpg"},
      {"<form action='/buy'></form>", "form", "action", true, "http://shop.test/buy"},
      {"<video poster='p.png'></video>", "video", "poster", true, "http://shop.test/item/p.png"},
      {"<time datetime=' 2026-03-01 '>x</time>", "time", "datetime", false, "2026-03-01"},
      {"<button data-sku='SKU-1'>x</button>", "button", "data-sku", false, "SKU-1"},
      {"<img alt='Red  chair'>", "img", "alt", false, "Red chair"},
      {"<a title='/not/a/url'>x</a>", "a", "title", false, "/not/a/url"},
      {"<a>x</a>", "a", "href", true, ""},
      {"<html><head><meta property='og:image' content='/i.jpg'></head><body></body></html>", "meta", "content", true,
       "http://shop.test/i.jpg"},
      {"<html><head><meta name='twitter:image:alt' content='/i'></head><body></body></html>", "meta", "content",
       false, "/i"},
      {"<html><head><meta itemprop='url' content='x'></head><body></body></html>", "meta", "content", true,
       "http://shop.test/item/x"},
      {"<html><head><base href='http://static.test/shop/'></head><body><a href='x/1'>x</a></body></html>", "a",
       "href", true, "http://static.test/shop/x/1"},
      {"<html><head><base href='/root/'></head><body><a href='x'>x</a></body></html>", "a", "href", true,
       "http://shop.test/root/x"},
  };
  html::Parser parser;
  for (const AttributeCase& c : cases) {
    std::string doc = c.html;
    if (doc.rfind("<html", 0) != 0) doc = "<html><body>" + doc + "</body></html>";
    html::Page page = parser.Parse(doc, "http://shop.test/item/101").value();
    html::Node e;
    const html::Node root = page.root();
    for (html::Node n = root; n && !e; n = n.NextInDocument(root)) {
      if (n.tag() == c.tag) e = n;
    }
    ASSERT_TRUE(e) << c.html;
    EXPECT_EQ(IsUrlAttribute(e, c.attribute), c.url) << c.html;
    EXPECT_EQ(AttributeSourceText(e, c.attribute, PageBaseUrl(page)), c.want) << c.html;
  }
}

TEST(UrlTest, AnnotatedUrlsAreResolvedLikePageUrls) {
  EXPECT_EQ(NormalizeAnnotatedUrl("/p/1", "http://shop.test/a/b"), "http://shop.test/p/1");
  EXPECT_EQ(NormalizeAnnotatedUrl("http://x.test/p", "http://shop.test/a/b"), "http://x.test/p");
  EXPECT_EQ(NormalizeAnnotatedUrl(" /p/1 ", "u0"), "/p/1");  // no absolute base: as typed
}

}  // namespace
}  // namespace vertex::rule
