// The byte-level guards and rewriting before libxml2 (feed_input.h) and the
// text helpers of the reader (feed_xml.h).
#include "common/feed/feed_input.h"

#include <string>

#include "common/feed/feed_xml.h"
#include "gtest/gtest.h"

namespace vertex::feed {
namespace {

TEST(CheckFeedProlog, RefusesEntityDeclarationsOnly) {
  const char* kRefused[] = {
      "<!DOCTYPE rss [<!ENTITY a \"x\">]><rss/>",
      "<?xml version=\"1.0\"?>\n<!-- c -->\n<!DOCTYPE rss [\n<!ELEMENT rss ANY>\n<!ENTITY % p \"x\">\n]><rss/>",
      "\xEF\xBB\xBF<!DOCTYPE rss SYSTEM \"a.dtd\" [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><rss/>",
      "<!DOCTYPE rss [<!ATTLIST rss a CDATA \"]\"><!ENTITY a \"x\">]><rss/>",  // ']' quoted
      "<!DOCTYPE rss [<!ENTITY a \"x\">",                                     // unterminated
  };
  for (const char* xml : kRefused) {
    absl::Status status = CheckFeedProlog(xml);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << xml;
    EXPECT_EQ(status.message(), "feed declares entities in its DTD: refused") << xml;
  }
  const char* kAccepted[] = {
      "<rss version=\"2.0\"><channel/></rss>",
      "<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD RSS 0.91//EN\" "
      "\"http://my.netscape.com/publish/formats/rss-0.91.dtd\"><rss/>",
      "<!DOCTYPE rss [<!ELEMENT rss ANY>]><rss><![CDATA[<!ENTITY a \"x\">]]></rss>",
      "<!-- <!DOCTYPE rss [<!ENTITY a \"x\">]> --><rss/>",
      "<rss><description>&lt;!DOCTYPE x [&lt;!ENTITY a \"x\"&gt;]&gt;</description></rss>",
  };
  for (const char* xml : kAccepted) EXPECT_TRUE(CheckFeedProlog(xml).ok()) << xml;
}

TEST(ReplaceHtmlEntities, MakesHtmlNamesNumericOutsideCdataCommentsAndPis) {
  EXPECT_EQ(ReplaceHtmlEntities("<t>a&nbsp;b&eacute;&mdash;</t>"), "<t>a&#160;b&#233;&#8212;</t>");
  EXPECT_EQ(ReplaceHtmlEntities("<t a=\"&copy;\">&amp;&lt;&gt;&quot;&apos;&#233;</t>"),
            "<t a=\"&#169;\">&amp;&lt;&gt;&quot;&apos;&#233;</t>");
  EXPECT_EQ(ReplaceHtmlEntities("<t><![CDATA[&nbsp;]]>&nbsp;<!--&nbsp;--><?pi &nbsp;?></t>"),
            "<t><![CDATA[&nbsp;]]>&#160;<!--&nbsp;--><?pi &nbsp;?></t>");
  // Unknown names, a missing ';', case and a lone '&' are left to libxml2.
  EXPECT_EQ(ReplaceHtmlEntities("&bogus; &nbsp &NBSP; & &;"), "&bogus; &nbsp &NBSP; & &;");
  EXPECT_EQ(ReplaceHtmlEntities("<![CDATA[&nbsp;"), "<![CDATA[&nbsp;");
}

TEST(IsAsciiCompatible, RecognisesUtf16AndUtf32) {
  EXPECT_TRUE(IsAsciiCompatible("<?xml version=\"1.0\"?><rss/>"));
  EXPECT_TRUE(IsAsciiCompatible("\xEF\xBB\xBF<rss/>"));
  EXPECT_FALSE(IsAsciiCompatible("\xFF\xFE<\0r\0"));
  EXPECT_FALSE(IsAsciiCompatible(std::string("<\0?\0", 4)));
  EXPECT_FALSE(IsAsciiCompatible(std::string("\0<\0?", 4)));
}

TEST(LooksLikeHtml, SeesAnHtmlStartAfterTheProlog) {
  EXPECT_TRUE(LooksLikeHtml("<!DOCTYPE html><html><body><p>x</body>"));
  EXPECT_TRUE(LooksLikeHtml("\n<!-- x -->\n<HTML><br></HTML>"));
  EXPECT_FALSE(LooksLikeHtml("<rss version=\"2.0\"><channel><br></channel></rss>"));
}

TEST(HtmlToPlainText, StripsTagsDecodesAndCollapses) {
  EXPECT_EQ(HtmlToPlainText("  <b>Bold</b>\n &amp; <i>italic</i>&nbsp;&#8217;s "), "Bold & italic \xE2\x80\x99s");
  EXPECT_EQ(HtmlToPlainText("Why x < y and a<b"), "Why x < y and a<b");  // no '>': no tag
  EXPECT_EQ(HtmlToPlainText("a<b>c"), "a c");
  EXPECT_EQ(HtmlToPlainText("3 < 4 > 2"), "3 < 4 > 2");
  EXPECT_EQ(HtmlToPlainText("&amp;amp;"), "&amp;");  // one decoding pass
  EXPECT_EQ(HtmlToPlainText("a<br/>b"), "a b");
}

TEST(RssAuthorName, TakesTheNameAfterAnEmail) {
  EXPECT_EQ(RssAuthorName("joe@example.com (Joe  Smith)"), "Joe Smith");
  EXPECT_EQ(RssAuthorName(" Joe Smith "), "Joe Smith");
  EXPECT_EQ(RssAuthorName("Smith (the elder)"), "Smith (the elder)");
  EXPECT_EQ(RssAuthorName("joe@example.com"), "joe@example.com");
  EXPECT_EQ(RssAuthorName("joe@example.com ()"), "joe@example.com ()");
}

}  // namespace
}  // namespace vertex::feed
