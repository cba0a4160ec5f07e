// ParseFeed against libxml2's bare xmlReadMemory of the same bytes (the
// floor: what parsing alone costs), on generated feeds of about 1 MB: a
// WordPress-like RSS 2.0 (content:encoded in CDATA, entity-escaped
// description) and a Blogger-like Atom (type="html" content). Compare the
// two rows of one run (ratio), not the wall time across runs.
#include <libxml/parser.h>

#include <string>

#include "absl/strings/str_cat.h"
#include "benchmark/benchmark.h"
#include "common/feed/feed.h"

namespace {

constexpr int kRssItems = 600;   // ~1.0 MB with the bodies below
constexpr int kAtomItems = 480;  // ~1.0 MB

std::string Body(int i) {
  std::string body;
  for (int p = 0; p < 8; ++p) {
    absl::StrAppend(&body, "<p>Paragraph ", p, " of post ", i,
                    " &amp; some <em>emphasis</em>, a <a href=\"/x/", p, "\">link</a> and text to read "
                    "through, long enough to look like a real post on a real blog.</p>\n");
  }
  return body;
}

std::string EscapedSummary(int i) {
  return absl::StrCat("&lt;p&gt;Summary of post ", i, " &amp;amp; more&lt;/p&gt; [&#8230;]");
}

std::string Rss(int items) {
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\" "
      "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
      "<channel><title>Bench &#038; Blog</title><link>https://bench.example/</link>\n";
  for (int i = 0; i < items; ++i) {
    absl::StrAppend(&xml, "<item><title>Post ", i, " &#8220;quoted&#8221;</title><link>https://bench.example/", i,
                    "/</link><dc:creator><![CDATA[Writer ", i % 7, "]]></dc:creator><pubDate>Mon, 06 Mar 2023 09:",
                    10 + i % 50, ":40 +0000</pubDate><category>Cat ", i % 5, "</category><guid isPermaLink=\"false\">"
                    "https://bench.example/?p=", i, "</guid><description>", EscapedSummary(i),
                    "</description><content:encoded><![CDATA[", Body(i), "]]></content:encoded></item>\n");
  }
  return xml + "</channel></rss>";
}

std::string Atom(int items) {
  std::string xml = "<?xml version='1.0' encoding='UTF-8'?><feed xmlns='http://www.w3.org/2005/Atom'>"
                    "<title>Bench</title><link rel='alternate' href='https://bench.example/'/>"
                    "<author><name>Writer</name></author>\n";
  for (int i = 0; i < items; ++i) {
    absl::StrAppend(&xml, "<entry><id>tag:bench,1:", i, "</id><published>2011-04-05T09:58:00.000-07:00</published>"
                    "<title type='text'>Post ", i, "</title><link rel='alternate' href='https://bench.example/", i,
                    ".html'/><category term='c", i % 5, "'/><content type='html'>", EscapedSummary(i), "</content>"
                    "<summary type='html'>", EscapedSummary(i), "</summary></entry>\n");
    absl::StrAppend(&xml, "<!-- ", std::string(1800, 'x'), " -->\n");  // the bulk, as Body() in RSS
  }
  return xml + "</feed>";
}

void ParseFeedRow(benchmark::State& state, const std::string& xml) {
  for (auto _ : state) {
    absl::StatusOr<vertex::feed::Feed> feed = vertex::feed::ParseFeed(xml);
    if (!feed.ok()) state.SkipWithError(std::string(feed.status().message()).c_str());
    benchmark::DoNotOptimize(feed);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(xml.size()));
  state.counters["bytes"] = static_cast<double>(xml.size());
}

void XmlReadMemoryRow(benchmark::State& state, const std::string& xml) {
  for (auto _ : state) {
    xmlDocPtr doc = xmlReadMemory(xml.data(), static_cast<int>(xml.size()), nullptr, nullptr,
                                  XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    if (doc == nullptr) state.SkipWithError("xmlReadMemory failed");
    xmlFreeDoc(doc);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(xml.size()));
}

void BM_ParseFeed_Rss(benchmark::State& state) { ParseFeedRow(state, Rss(kRssItems)); }
void BM_XmlReadMemory_Rss(benchmark::State& state) { XmlReadMemoryRow(state, Rss(kRssItems)); }
void BM_ParseFeed_Atom(benchmark::State& state) { ParseFeedRow(state, Atom(kAtomItems)); }
void BM_XmlReadMemory_Atom(benchmark::State& state) { XmlReadMemoryRow(state, Atom(kAtomItems)); }

BENCHMARK(BM_ParseFeed_Rss)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_XmlReadMemory_Rss)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParseFeed_Atom)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_XmlReadMemory_Atom)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
