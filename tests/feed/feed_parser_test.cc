// ParseFeed on hand-written samples of each format as real blog engines
// write them, and every refusal; FetchFeed through a fake fetcher.
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/feed/feed.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::feed {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Feed MustParse(const std::string& xml, const FeedParseOptions& options = {}) {
  absl::StatusOr<Feed> feed = ParseFeed(xml, options);
  EXPECT_TRUE(feed.ok()) << feed.status();
  return feed.ok() ? *std::move(feed) : Feed{};
}

absl::Status ParseError(const std::string& xml, const FeedParseOptions& options = {}) {
  return ParseFeed(xml, options).status();
}

// WordPress 6: content:encoded in CDATA, an entity-escaped description,
// dc:creator, categories, a non-permalink guid, typographic entities.
constexpr char kWordPress[] = R"(<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"
	xmlns:content="http://purl.org/rss/1.0/modules/content/"
	xmlns:wfw="http://wellformedweb.org/CommentAPI/"
	xmlns:dc="http://purl.org/dc/elements/1.1/"
	xmlns:atom="http://www.w3.org/2005/Atom"
	xmlns:sy="http://purl.org/rss/1.0/modules/syndication/">
<channel>
	<title>Cooking &#038; Code</title>
	<atom:link href="https://cook.example/feed/" rel="self" type="application/rss+xml" />
	<link>https://cook.example</link>
	<description>Recipes and programs</description>
	<lastBuildDate>Mon, 06 Mar 2023 09:12:44 +0000</lastBuildDate>
	<item>
		<title>Grandma&#8217;s &#8220;Best&#8221; Bread</title>
		<link>https://cook.example/2023/03/grandmas-bread/</link>
		<comments>https://cook.example/2023/03/grandmas-bread/#respond</comments>
		<dc:creator><![CDATA[Ann Baker]]></dc:creator>
		<pubDate>Mon, 06 Mar 2023 09:12:40 +0000</pubDate>
		<category><![CDATA[Baking]]></category>
		<category><![CDATA[Family]]></category>
		<guid isPermaLink="false">https://cook.example/?p=42</guid>
		<description><![CDATA[Flour, water &#38; patience. [&#8230;]]]></description>
		<content:encoded><![CDATA[<p>Flour, water &amp; patience.</p>
<p>Knead <em>ten</em> minutes.</p>]]></content:encoded>
		<wfw:commentRss>https://cook.example/2023/03/grandmas-bread/feed/</wfw:commentRss>
	</item>
	<item>
		<title>Sorting &lt;b&gt;fast&lt;/b&gt; &amp;amp; &amp;lt;b&amp;gt;</title>
		<link>https://cook.example/2023/02/sorting/</link>
		<pubDate>Tue, 28 Feb 2023 18:00:00 +0000</pubDate>
		<description>&lt;p&gt;Quick &amp;amp; &lt;b&gt;merge&lt;/b&gt; sort.&lt;/p&gt;</description>
	</item>
</channel>
</rss>
)";

TEST(ParseFeed, ReadsWordPressRss20) {
  const Feed feed = MustParse(kWordPress);
  EXPECT_EQ(feed.format, FeedFormat::kRss20);
  EXPECT_STREQ(FeedFormatName(feed.format), "rss2.0");
  EXPECT_EQ(feed.title, "Cooking & Code");
  EXPECT_EQ(feed.link, "https://cook.example");
  ASSERT_EQ(feed.items.size(), 2u);
  const FeedItem& bread = feed.items[0];
  EXPECT_EQ(bread.title, "Grandma\u2019s \u201cBest\u201d Bread");
  EXPECT_EQ(bread.link, "https://cook.example/2023/03/grandmas-bread/");
  EXPECT_EQ(bread.proxy_link, "");
  EXPECT_EQ(bread.guid, "https://cook.example/?p=42");
  EXPECT_THAT(bread.authors, ElementsAre("Ann Baker"));
  EXPECT_THAT(bread.categories, ElementsAre("Baking", "Family"));
  ASSERT_TRUE(bread.date.has_value()) << bread.date_error;
  EXPECT_EQ(bread.date->raw, "Mon, 06 Mar 2023 09:12:40 +0000");
  EXPECT_EQ(bread.date->day, 6);
  // CDATA is taken as is: its character references stay references.
  EXPECT_EQ(bread.description_html, "Flour, water &#38; patience. [&#8230;]");
  EXPECT_EQ(bread.content_html, "<p>Flour, water &amp; patience.</p>\n<p>Knead <em>ten</em> minutes.</p>");
  const FeedItem& sorting = feed.items[1];
  // Escaped markup in the title is stripped and its references decoded;
  // doubly escaped markup is text the page shows.
  EXPECT_EQ(sorting.title, "Sorting fast & <b>");
  // Entity-escaped HTML is unescaped once.
  EXPECT_EQ(sorting.description_html, "<p>Quick &amp; <b>merge</b> sort.</p>");
  EXPECT_EQ(sorting.content_html, "");
  EXPECT_TRUE(sorting.authors.empty());
}

// Blogger: Atom with type="html" content, feed-level author, several link
// relations, an entry without its own author.
constexpr char kBlogger[] = R"(<?xml version='1.0' encoding='UTF-8'?><?xml-stylesheet href="http://www.blogger.com/styles/atom.css" type="text/css"?><feed xmlns='http://www.w3.org/2005/Atom' xmlns:openSearch='http://a9.com/-/spec/opensearchrss/1.0/' xmlns:blogger='http://schemas.google.com/blogger/2008' xmlns:thr='http://purl.org/syndication/thread/1.0'><id>tag:blogger.com,1999:blog-123</id><updated>2011-04-05T10:03:26.110-07:00</updated><category term="travel"/><title type='text'>Hiking Notes</title><subtitle type='html'></subtitle><link rel='http://schemas.google.com/g/2005#feed' type='application/atom+xml' href='https://hiking.blogspot.com/feeds/posts/default'/><link rel='self' type='application/atom+xml' href='https://www.blogger.com/feeds/123/posts/default'/><link rel='alternate' type='text/html' href='https://hiking.blogspot.com/'/><author><name>Pat Trail</name><uri>https://www.blogger.com/profile/1</uri><email>noreply@blogger.com</email></author><generator version='7.00' uri='http://www.blogger.com'>Blogger</generator><entry><id>tag:blogger.com,1999:blog-123.post-9</id><published>2011-04-05T09:58:00.000-07:00</published><updated>2011-04-05T10:03:26.119-07:00</updated><category scheme='http://www.blogger.com/atom/ns#' term='travel'/><category scheme='http://www.blogger.com/atom/ns#' term='alps' label='The Alps'/><title type='text'>Up the "Hörnli" &amp; back</title><content type='html'>&lt;div&gt;We left at &lt;b&gt;4am&lt;/b&gt;.&lt;br /&gt;Cold.&lt;/div&gt;</content><link rel='replies' type='application/atom+xml' href='https://hiking.blogspot.com/feeds/9/comments/default' title='Post Comments'/><link rel='replies' type='text/html' href='https://hiking.blogspot.com/2011/04/hornli.html#comment-form' title='2 Comments'/><link rel='edit' type='application/atom+xml' href='https://www.blogger.com/feeds/123/posts/default/9'/><link rel='alternate' type='text/html' href='https://hiking.blogspot.com/2011/04/hornli.html' title='Up the Hörnli'/><thr:total>2</thr:total></entry></feed>)";

TEST(ParseFeed, ReadsBloggerAtom) {
  const Feed feed = MustParse(kBlogger);
  EXPECT_EQ(feed.format, FeedFormat::kAtom10);
  EXPECT_EQ(feed.title, "Hiking Notes");
  EXPECT_EQ(feed.link, "https://hiking.blogspot.com/");
  ASSERT_EQ(feed.items.size(), 1u);
  const FeedItem& item = feed.items[0];
  EXPECT_EQ(item.title, "Up the \"H\u00f6rnli\" & back");
  EXPECT_EQ(item.link, "https://hiking.blogspot.com/2011/04/hornli.html");
  EXPECT_EQ(item.guid, "tag:blogger.com,1999:blog-123.post-9");
  EXPECT_THAT(item.authors, ElementsAre("Pat Trail"));  // the feed's
  EXPECT_THAT(item.categories, ElementsAre("travel", "The Alps"));
  ASSERT_TRUE(item.date.has_value()) << item.date_error;
  EXPECT_EQ(item.date->raw, "2011-04-05T09:58:00.000-07:00");  // published over updated
  EXPECT_EQ(item.date->utc_offset_minutes, -420);
  EXPECT_EQ(item.content_html, "<div>We left at <b>4am</b>.<br />Cold.</div>");
  EXPECT_EQ(item.description_html, "");
}

// RSS 1.0: items are siblings of the channel; Dublin Core metadata.
constexpr char kRdf[] = R"(<?xml version="1.0" encoding="utf-8"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="http://purl.org/dc/elements/1.1/"
         xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="http://mt.example/index.rdf">
    <title>Movable Notes</title>
    <link>http://mt.example/</link>
    <description>A Movable Type blog</description>
    <dc:date>2004-05-11T08:00:00+09:00</dc:date>
    <items><rdf:Seq><rdf:li rdf:resource="http://mt.example/archives/000123.html" /></rdf:Seq></items>
  </channel>
  <item rdf:about="http://mt.example/archives/000123.html">
    <title>Spring cleaning</title>
    <link>http://mt.example/archives/000123.html</link>
    <description>Out with the old &lt;em&gt;junk&lt;/em&gt;.</description>
    <dc:subject>Home</dc:subject>
    <dc:creator>Kei</dc:creator>
    <dc:date>2004-05-10T22:15:03+09:00</dc:date>
  </item>
  <item rdf:about="http://mt.example/archives/000122.html">
    <title>Undated</title>
    <link>http://mt.example/archives/000122.html</link>
    <dc:date>last Tuesday</dc:date>
  </item>
</rdf:RDF>)";

TEST(ParseFeed, ReadsRdfRss10WithDublinCore) {
  const Feed feed = MustParse(kRdf);
  EXPECT_EQ(feed.format, FeedFormat::kRss10);
  EXPECT_EQ(feed.title, "Movable Notes");
  EXPECT_EQ(feed.link, "http://mt.example/");
  ASSERT_EQ(feed.items.size(), 2u);
  const FeedItem& item = feed.items[0];
  EXPECT_EQ(item.title, "Spring cleaning");
  EXPECT_EQ(item.link, "http://mt.example/archives/000123.html");
  EXPECT_EQ(item.description_html, "Out with the old <em>junk</em>.");
  EXPECT_THAT(item.categories, ElementsAre("Home"));
  EXPECT_THAT(item.authors, ElementsAre("Kei"));
  ASSERT_TRUE(item.date.has_value()) << item.date_error;
  EXPECT_EQ(item.date->hour, 22);
  EXPECT_EQ(item.date->utc_offset_minutes, 540);
  // A date that does not parse: no date, the reason kept.
  EXPECT_FALSE(feed.items[1].date.has_value());
  EXPECT_THAT(feed.items[1].date_error, HasSubstr("\"last Tuesday\""));
}

TEST(ParseFeed, ReadsRss090) {
  const Feed feed = MustParse(R"(<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
      xmlns="http://my.netscape.com/rdf/simple/0.9/"><channel><title>Old</title><link>http://old.example/</link>
      </channel><item><title>First</title><link>http://old.example/1</link></item></rdf:RDF>)");
  EXPECT_EQ(feed.format, FeedFormat::kRss10);
  ASSERT_EQ(feed.items.size(), 1u);
  EXPECT_EQ(feed.items[0].link, "http://old.example/1");
}

// RSS 0.91 with Netscape's DOCTYPE (never loaded) and HTML entities.
constexpr char kRss091[] = R"(<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN"
 "http://my.netscape.com/publish/formats/rss-0.91.dtd">
<rss version="0.91">
<channel>
<title>Caf&eacute; News</title>
<link>http://cafe.example/</link>
<description>News&nbsp;from the caf&eacute;</description>
<language>fr</language>
<item>
<title>Cr&egrave;me br&ucirc;l&eacute;e&nbsp;&mdash; today only</title>
<link>http://cafe.example/news/1.html</link>
<description>&lt;p&gt;Served&nbsp;cold, 4&nbsp;&euro;&lt;/p&gt; <![CDATA[&nbsp;as is]]></description>
</item>
</channel>
</rss>)";

TEST(ParseFeed, ReadsRss091WithNetscapeDoctypeAndHtmlEntities) {
  const Feed feed = MustParse(kRss091);
  EXPECT_EQ(feed.format, FeedFormat::kRss09x);
  EXPECT_STREQ(FeedFormatName(feed.format), "rss0.9x");
  EXPECT_EQ(feed.title, "Caf\u00e9 News");
  ASSERT_EQ(feed.items.size(), 1u);
  // NO-BREAK SPACE collapses with the other white space in a title.
  EXPECT_EQ(feed.items[0].title, "Cr\u00e8me br\u00fbl\u00e9e \u2014 today only");
  EXPECT_EQ(feed.items[0].description_html, "<p>Served\u00a0cold, 4\u00a0\u20ac</p> &nbsp;as is");
}

TEST(ParseFeed, ReadsIso88591Bytes) {
  const Feed feed =
      MustParse("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><rss version=\"2.0\"><channel><title>Caf\xE9"
                "</title></channel></rss>");
  EXPECT_EQ(feed.title, "Caf\u00e9");
}

// FeedBurner: the feed's links go through the proxy; origLink is the page.
constexpr char kFeedBurner[] = R"(<?xml version="1.0" encoding="UTF-8"?>
<rss xmlns:feedburner="http://rssnamespace.org/feedburner/ext/1.0" version="2.0"><channel>
<title>Gadget Log</title><link>http://gadgets.example/</link>
<item><title>Phone review</title>
<link>http://feedproxy.google.com/~r/GadgetLog/~3/abc/</link>
<guid isPermaLink="false">http://gadgets.example/?p=7</guid>
<author>ed@gadgets.example (Ed Itor)</author>
<pubDate>Sun, 03 Jan 2010 11:00:00 PST</pubDate>
<feedburner:origLink>http://gadgets.example/2010/01/phone-review/</feedburner:origLink></item>
<item><title>Guid only</title><guid>http://gadgets.example/2010/01/guid-only/</guid></item>
<item><title>No link</title><guid isPermaLink="false">http://gadgets.example/?p=5</guid></item>
</channel></rss>)";

TEST(ParseFeed, PrefersFeedBurnerOrigLinkAndFallsBackToPermalinkGuid) {
  const Feed feed = MustParse(kFeedBurner);
  ASSERT_EQ(feed.items.size(), 3u);
  EXPECT_EQ(feed.items[0].link, "http://gadgets.example/2010/01/phone-review/");
  EXPECT_EQ(feed.items[0].proxy_link, "http://feedproxy.google.com/~r/GadgetLog/~3/abc/");
  EXPECT_THAT(feed.items[0].authors, ElementsAre("Ed Itor"));
  ASSERT_TRUE(feed.items[0].date.has_value());
  EXPECT_EQ(feed.items[0].date->utc_offset_minutes, -480);
  EXPECT_EQ(feed.items[1].link, "http://gadgets.example/2010/01/guid-only/");
  EXPECT_EQ(feed.items[2].link, "");
  EXPECT_EQ(feed.items[2].guid, "http://gadgets.example/?p=5");
}

TEST(ParseFeed, ResolvesRelativeLinksAgainstXmlBaseAndTheFeedUrl) {
  const std::string atom = R"(<feed xmlns="http://www.w3.org/2005/Atom" xml:base="/blog/">
    <title>B</title><link href="./"/>
    <entry xml:base="2020/"><title>One</title><link rel="alternate" href="one.html"/></entry>
    <entry><title>Two</title><link href="../two.html"/></entry>
    <entry xml:base="http://other.example/x/"><title>Three</title><link href="/three"/></entry>
  </feed>)";
  FeedParseOptions options;
  options.url = "https://site.example/feeds/atom.xml";
  const Feed feed = MustParse(atom, options);
  EXPECT_EQ(feed.url, options.url);
  EXPECT_EQ(feed.link, "https://site.example/blog/");
  ASSERT_EQ(feed.items.size(), 3u);
  EXPECT_EQ(feed.items[0].link, "https://site.example/blog/2020/one.html");
  EXPECT_EQ(feed.items[1].link, "https://site.example/two.html");
  EXPECT_EQ(feed.items[2].link, "http://other.example/three");

  const std::string rss = R"(<rss version="2.0"><channel><link>/</link>
    <item><link> posts/1 </link></item></channel></rss>)";
  const Feed relative = MustParse(rss, options);
  EXPECT_EQ(relative.link, "https://site.example/");
  EXPECT_EQ(relative.items[0].link, "https://site.example/feeds/posts/1");
  // No feed URL: relative links stay as written.
  EXPECT_EQ(MustParse(rss).items[0].link, "posts/1");
}

TEST(ParseFeed, ReadsAtomTextConstructs) {
  const Feed feed = MustParse(R"(<feed xmlns="http://www.w3.org/2005/Atom">
    <author><name>Feed Author</name></author>
    <entry><title type="html">&lt;b&gt;Bold&lt;/b&gt; &amp;amp; plain</title>
      <author><name>A One</name></author><author><name>B Two</name></author>
      <summary>1 &lt; 2 &amp; 3</summary>
      <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Hi <em>there</em></p></div></content>
      <updated>2020-01-02T03:04:05Z</updated></entry>
    <entry><title type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml">An <b>xhtml</b>
      title</div></title><content type="image/png">iVBORw0KGgo=</content>
      <content src="http://x.example/out-of-line"/></entry>
    <entry><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p title="é">Café &#8212; 1 &lt; 2</p></div></content></entry>
  </feed>)");
  ASSERT_EQ(feed.items.size(), 3u);
  const FeedItem& first = feed.items[0];
  EXPECT_EQ(first.title, "Bold & plain");
  EXPECT_THAT(first.authors, ElementsAre("A One", "B Two"));
  EXPECT_EQ(first.description_html, "1 &lt; 2 &amp; 3");  // type="text" escaped into HTML
  EXPECT_EQ(first.content_html, "<p>Hi <em>there</em></p>");
  ASSERT_TRUE(first.date.has_value());
  EXPECT_EQ(first.date->raw, "2020-01-02T03:04:05Z");  // updated when no published
  EXPECT_EQ(feed.items[1].title, "An xhtml title");
  EXPECT_EQ(feed.items[2].content_html, "<p title=\"\u00e9\">Caf\u00e9 \u2014 1 &lt; 2</p>");
  EXPECT_EQ(feed.items[1].content_html, "");
  EXPECT_THAT(feed.items[1].authors, ElementsAre("Feed Author"));
}

// Found by the feed_parse fuzz target: links resolved against a feed URL
// holding a byte that is not UTF-8 carried it into the output.
TEST(ParseFeed, MakesAnInvalidFeedUrlValidUtf8) {
  FeedParseOptions options;
  options.url = "http://feeds.exa\x98ple/g";
  const Feed feed = MustParse("<rss version=\"2.0\"><channel><item><link>[x</link></item></channel></rss>", options);
  ASSERT_EQ(feed.items.size(), 1u);
  EXPECT_EQ(feed.items[0].link, "http://feeds.exa\uFFFDple/[x");
  EXPECT_EQ(feed.url, "http://feeds.exa\uFFFDple/g");
}

// Found by the fuzz target: a declared encoding the bytes do not follow made
// libxml2 print to stderr through the thread's generic handler.
TEST(ParseFeed, PrintsNothingForABadEncoding) {
  testing::internal::CaptureStderr();
  const absl::Status status =
      ParseError("<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><title>t</title></channel></rss>");
  const absl::Status status2 =
      ParseError("<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><rss><channel><title>\x82\xff\x82</title></channel></rss>");
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_EQ(status2.code(), absl::StatusCode::kInvalidArgument) << status2;
}

TEST(ParseFeed, KeepsTheFirstMaxItems) {
  std::string xml = "<rss version=\"2.0\"><channel>";
  for (int i = 0; i < 10; ++i) absl::StrAppend(&xml, "<item><title>t", i, "</title></item>");
  xml += "</channel></rss>";
  FeedParseOptions options;
  options.max_items = 3;
  const Feed feed = MustParse(xml, options);
  ASSERT_EQ(feed.items.size(), 3u);
  EXPECT_EQ(feed.items[2].title, "t2");
  EXPECT_EQ(MustParse(xml).items.size(), 10u);
}

void ExpectInvalid(const std::string& xml, const std::string& message_part) {
  const absl::Status status = ParseError(xml);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << xml << " -> " << status;
  EXPECT_THAT(std::string(status.message()), HasSubstr(message_part)) << xml;
}

constexpr char kRefused[] = "feed declares entities in its DTD: refused";

TEST(ParseFeed, RefusesBillionLaughsAndQuadraticBlowup) {
  std::string laughs = "<?xml version=\"1.0\"?><!DOCTYPE lolz [<!ENTITY lol \"lol\">";
  for (int i = 1; i <= 9; ++i) {
    absl::StrAppend(&laughs, "<!ENTITY lol", i, " \"", std::string(i == 1 ? "&lol;" : ""));
    for (int j = 0; j < 10; ++j) absl::StrAppend(&laughs, i == 1 ? "&lol;" : absl::StrCat("&lol", i - 1, ";"));
    laughs += "\">";
  }
  laughs += "]><rss version=\"2.0\"><channel><title>&lol9;</title></channel></rss>";
  ExpectInvalid(laughs, kRefused);
  const std::string quadratic = "<!DOCTYPE rss [<!ENTITY a \"" + std::string(50000, 'a') +
                                "\">]><rss><channel><title>" + std::string(1000, ' ') + "&a;&a;&a;</title></channel></rss>";
  ExpectInvalid(quadratic, kRefused);
}

TEST(ParseFeed, RefusesExternalAndParameterEntities) {
  ExpectInvalid(R"(<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
      <rss version="2.0"><channel><title>&xxe;</title></channel></rss>)",
                kRefused);
  ExpectInvalid(R"(<!DOCTYPE rss [<!ENTITY % remote SYSTEM "http://evil.example/x.dtd"> %remote;]><rss/>)", kRefused);
  ExpectInvalid(R"(<!DOCTYPE rss [<!ENTITY % p "<!ENTITY q 'x'>"> %p;]><rss>&q;</rss>)", kRefused);
}

TEST(ParseFeed, RefusesEntitiesTheByteScanCannotRead) {
  // UTF-16LE with a byte-order mark: the SAX guard stops it.
  const std::string text = "<!DOCTYPE rss [<!ENTITY a \"x\">]><rss version=\"2.0\"><channel/></rss>";
  std::string utf16 = "\xFF\xFE";
  for (char c : text) utf16.append({c, '\0'});
  ExpectInvalid(utf16, kRefused);
  // A declared encoding that hides "<!ENTITY" from the byte scan (UTF-7:
  // "+ADwAIQ-" is "<!").
  ExpectInvalid("<?xml version=\"1.0\" encoding=\"UTF-7\"?><!DOCTYPE rss [+ADwAIQ-ENTITY a \"x\">]>"
                "<rss version=\"2.0\"><channel><title>&a;</title></channel></rss>",
                kRefused);
  std::string plain = "\xFF\xFE";
  for (char c : std::string("<rss version=\"2.0\"><channel><title>T</title></channel></rss>")) {
    plain.append({c, '\0'});
  }
  EXPECT_EQ(MustParse(plain).title, "T");
}

TEST(ParseFeed, RefusesOversizedEmptyAndMalformedInput) {
  FeedParseOptions options;
  options.max_bytes = 100;
  const absl::Status big = ParseError(kWordPress, options);
  EXPECT_EQ(big.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(big.message(), "feed larger than 100 bytes");
  ExpectInvalid("", "empty feed");
  ExpectInvalid(" \n\t", "empty feed");
  ExpectInvalid("\xEF\xBB\xBF", "empty feed");
  ExpectInvalid("this is not XML", "feed is not well-formed XML: ");
  ExpectInvalid("<rss version=\"2.0\"><channel>\n<title>x</channel></rss>",
                "(line 2, column");
  ExpectInvalid("<rss><channel><title>&undeclared;</title></channel></rss>", "undeclared");
  ExpectInvalid("{\"items\": []}", "not well-formed XML");
}

TEST(ParseFeed, NamesWhatANonFeedIs) {
  ExpectInvalid("<!DOCTYPE html>\n<html><head><title>Blog</title><meta charset=utf-8></head><body><p>Hi<br></body></html>",
                "not a feed: root element <html>");
  ExpectInvalid(R"(<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"
      "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">
      <html xmlns="http://www.w3.org/1999/xhtml"><head><title>x&nbsp;y</title></head><body/></html>)",
                "not a feed: root element <html>");
  ExpectInvalid("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>", "not a feed: root element <urlset>");
  ExpectInvalid("<atom:feed xmlns:atom=\"http://purl.org/atom/ns#\"/>", "not a feed: root element <atom:feed>");
  ExpectInvalid("<rss version=\"2.0\"><item/></rss>", "not a feed: <rss> has no <channel>");
  ExpectInvalid("<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>", "not a feed: <rdf:RDF>");
}

TEST(ParseFeed, AcceptsNamespacesByUriNotPrefix) {
  const Feed feed = MustParse(R"(<a:feed xmlns:a="http://www.w3.org/2005/Atom" xmlns:d="http://purl.org/dc/elements/1.1/">
      <a:entry><a:title>T</a:title><d:creator>C</d:creator><title>not atom</title></a:entry></a:feed>)");
  ASSERT_EQ(feed.items.size(), 1u);
  EXPECT_EQ(feed.items[0].title, "T");
  EXPECT_THAT(feed.items[0].authors, ElementsAre("C"));
}

TEST(ParseFeed, ParsesFromManyThreadsAtOnce) {
  const std::string hostile = "<!DOCTYPE r [<!ENTITY a \"x\">]><rss/>";
  std::vector<std::thread> threads;
  std::vector<int> good(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        absl::StatusOr<Feed> feed = ParseFeed(t % 2 == 0 ? kBlogger : kRss091);
        absl::StatusOr<Feed> refused = ParseFeed(hostile);
        absl::StatusOr<Feed> broken = ParseFeed("<rss><channel></rss>");
        if (feed.ok() && feed->items.size() == 1 && !refused.ok() && !broken.ok() &&
            absl::StrContains(broken.status().message(), "line 1")) {
          ++good[t];
        }
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_THAT(good, ElementsAre(50, 50, 50, 50));
}

// A fetcher that answers from a table, recording what was asked.
class FakeFetcher : public fetch::Fetcher {
 public:
  absl::StatusOr<fetch::FetchResult> Fetch(const std::string& url) override {
    asked.push_back(url);
    if (url == "https://blog.example/feed") {
      fetch::FetchResult result;
      result.url = url;
      result.final_url = "https://blog.example/feeds/rss.xml";
      result.http_status = 200;
      result.body = "<rss version=\"2.0\"><channel><item><link>p/1</link></item></channel></rss>";
      return result;
    }
    return absl::NotFoundError(url + ": HTTP 404");
  }
  std::vector<std::string> asked;
};

TEST(FetchFeed, ParsesTheBodyWithTheFinalUrlAsBase) {
  FakeFetcher fetcher;
  absl::StatusOr<Feed> feed = FetchFeed(fetcher, "https://blog.example/feed");
  ASSERT_TRUE(feed.ok()) << feed.status();
  EXPECT_THAT(fetcher.asked, ElementsAre("https://blog.example/feed"));
  EXPECT_EQ(feed->url, "https://blog.example/feeds/rss.xml");
  ASSERT_EQ(feed->items.size(), 1u);
  EXPECT_EQ(feed->items[0].link, "https://blog.example/feeds/p/1");
}

TEST(FetchFeed, PrefixesTheFetchersErrors) {
  FakeFetcher fetcher;
  absl::StatusOr<Feed> feed = FetchFeed(fetcher, "https://blog.example/missing");
  EXPECT_EQ(feed.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(feed.status().message(), "feed URL: https://blog.example/missing: HTTP 404");
}

TEST(FetchFeed, AppliesTheOptionsToTheBody) {
  FakeFetcher fetcher;
  FeedParseOptions options;
  options.max_bytes = 10;
  EXPECT_EQ(FetchFeed(fetcher, "https://blog.example/feed", options).status().code(),
            absl::StatusCode::kResourceExhausted);
}

}  // namespace
}  // namespace vertex::feed
