// Writes the seed corpus of the fuzz targets (tests/fuzz/corpus/<target>/)
// from the demo site generator and a few hand-written inputs, so the
// committed corpus can be regenerated and reviewed: the seeds are the
// project's own inputs, never third-party pages.
//
// Usage: fuzz_make_seeds CORPUS_DIR   (writes CORPUS_DIR/<target>/<seed>)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "google/protobuf/util/json_util.h"
#include "tests/fuzz/fuzz_demo.h"

namespace vertex::fuzz {
namespace {

std::string g_dir;

void Write(const std::string& target, const std::string& name, const std::string& bytes) {
  const std::filesystem::path dir = std::filesystem::path(g_dir) / target;
  std::filesystem::create_directories(dir);
  std::ofstream out(dir / name, std::ios::binary);
  out << bytes;
  Check(out.good(), "writing " + (dir / name).string());
}

std::string Json(const google::protobuf::Message& m) {
  std::string json;
  Check(google::protobuf::util::MessageToJsonString(m, &json).ok(), "MessageToJsonString");
  return json;
}

const demo::GeneratedPage& First(const std::vector<demo::GeneratedPage>& pages, const std::string& kind) {
  for (const demo::GeneratedPage& p : pages) {
    if (p.template_name == kind) return p;
  }
  Fail("no demo page of template " + kind);
}

void PageSeeds(const std::vector<demo::GeneratedPage>& pages) {
  const demo::GeneratedPage& store = First(pages, "store");
  Write("page_parse", "demo_store_head", absl::StrCat(store.url, "\n\n", store.html.substr(0, 6000)));
  Write("page_parse", "latin1_meta",
        "http://x.test/a\n\n<html><head><meta charset=\"iso-8859-1\"><title>Caf\xe9</title></head>"
        "<body><p>na\xefve &amp; co</p></body></html>");
  Write("page_parse", "http_shift_jis", "http://x.test/b\ntext/html; charset=Shift_JIS\n<p>\x82\xa0\x82\xa2</p>");
  Write("page_parse", "utf16_bom", std::string("http://x.test/c\n\n\xff\xfe<\0p\0>\0h\0i\0", 25));
  Write("page_parse", "nesting", "http://x.test/d\n\n" + absl::StrJoin(std::vector<std::string>(70, "<div><span>"), "") +
                                     "<!-- <div> --><script><div></script><p><li>t");
  Write("page_parse", "table_form", "http://x.test/e\n\n<table><tr><td>a<td>b<form><input name=q></form>"
                                    "<textarea>  x </textarea><pre>\n y</pre></table>");
}

void ExtractSeeds(const std::vector<demo::GeneratedPage>& pages) {
  Write("extract", "demo_product", First(pages, "product").html);
  Write("extract", "demo_category_head", First(pages, "category").html.substr(0, 8000));
  Write("extract", "tiny", "<html><body><h1>Dune</h1><span class=price>$9.99</span></body></html>");
}

void SchemaSeeds() {
  Write("schema_json", "product", demo::SchemaJson("product"));
  Write("schema_json", "business", demo::SchemaJson("business"));
  Write("schema_json", "regex",
        R"({"vertical": "book", "attributes": [{"name": "edition", "regex": "(\\d+)(?:st|nd|rd|th) edition"},)"
        R"( {"name": "isbn_13", "type": "isbn", "mandatory": true}, {"name": "author", "multi_valued": true}]})");
}

void AnnotationSeeds(const std::vector<demo::GeneratedPage>& products) {
  std::vector<std::string> lines;
  for (size_t i = 0; i < 3; ++i) {
    for (const auto& [attribute, values] : products[i].truth) {
      v1::Annotation a;
      a.set_file(products[i].file_name);
      a.set_attribute(attribute);
      if (values.empty()) {
        a.set_absent(true);
      } else {
        for (const std::string& v : values) a.add_values(v);
      }
      lines.push_back(Json(a));
    }
  }
  Write("annotations", "demo_three_pages", absl::StrJoin(lines, "\n") + "\n");
  Write("annotations", "forms",
        "# comment\n\n" + absl::StrCat(R"({"file": ")", products[0].file_name,
                                       R"(", "attribute": "title", "xpath": "//h1"})", "\n",
                                       R"({"url": "http://x.test/1", "attribute": "price", "value": "$1"})", "\n",
                                       R"({"file": ")", products[1].file_name,
                                       R"(", "attribute": "sku", "absent": true})", "\n"));
}

void RuleSeeds(const LearntRule& learnt) {
  Write("rule_import", "demo_rule_json", Json(learnt.rule));
  Write("rule_import", "demo_rule_binary", "B" + learnt.rule.SerializeAsString());
  Write("rule_import", "xpath_only",
        R"({"attributes": [{"attribute": "title", "method": "XPATH", "xpath": "//h1[ends-with(@class, 'x')]"}]})");
}

void UrlSeeds(const std::vector<demo::GeneratedPage>& pages) {
  for (const char* kind : {"product", "category", "reviews"}) {
    std::vector<std::string> urls;
    for (const demo::GeneratedPage& p : pages) {
      if (p.template_name == kind && urls.size() < 6) urls.push_back(p.url);
    }
    Write("url_regex", absl::StrCat("demo_", kind), absl::StrJoin(urls, "\n") + "\n");
  }
  Write("url_regex", "queries",
        "http://x.test/list?id=1&page=2\nhttps://x.test/list?page=3&id=12#top\nhttp://x.test/list\n"
        "http://X.test:8080/list?id=%41&q=caf\xc3\xa9\n");
  Write("url_regex", "files", "file:///srv/pages/0001.htm\nfile:///srv/pages/0002.htm\n");
}

void RobotsSeeds() {
  Write("robots", "groups",
        "VertexMonitor/1.0 (+http://x.test/bot)\t/private/a?x=1\n"
        "User-agent: *\nDisallow: /private\nAllow: /private/public\n\n"
        "User-agent: vertexmonitor\nUser-agent: other\nDisallow: /*.pdf$\nAllow: /\n# end\n");
  Write("robots", "crlf_bom", "/a/b\n\xEF\xBB\xBFuser-agent:*\r\ndisallow: /a\r\nallow:/a/b$\r\nsitemap: x\r\n");
  // The first thing the target found: a User-Agent with leading blanks (the
  // token is taken after them; the target's check was wrong, not the parser).
  Write("robots", "leading_blank_agent", "  VertexMonitor/1.0\t/a/x\nUser-agent: vertexmonitor\nDisallow: /a\n");
  Write("robots", "wildcards", "/shop/item/12.html\nUser-agent: *\nDisallow: /*/item/*.html\nAllow: /shop/*$\n");
}

void FeedSeeds() {
  Write("feed_parse", "rss20_wordpress",
        "https://cook.example/feed/\n<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss version=\"2.0\" "
        "xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\">"
        "<channel><title>Cooking &#038; Code</title><link>https://cook.example</link><item>"
        "<title>Grandma&#8217;s &lt;b&gt;Bread&lt;/b&gt;</title><link>/2023/03/bread/</link>"
        "<dc:creator><![CDATA[Ann]]></dc:creator><pubDate>Mon, 06 Mar 2023 09:12:40 +0000</pubDate>"
        "<category>Baking</category><guid isPermaLink=\"false\">https://cook.example/?p=42</guid>"
        "<description>Flour &amp;amp; &lt;em&gt;water&lt;/em&gt;</description>"
        "<content:encoded><![CDATA[<p>Flour &amp; water.</p>]]></content:encoded></item></channel></rss>");
  Write("feed_parse", "atom_blogger",
        "Fri, 22 Jul 2005 16:24:55 -0400\n<feed xmlns='http://www.w3.org/2005/Atom' xml:base='http://h.example/b/'>"
        "<title type='html'>&lt;i&gt;Hiking&lt;/i&gt;</title><link rel='alternate' href='./'/>"
        "<author><name>Pat</name></author><entry xml:base='2011/'><id>tag:x,1:9</id>"
        "<published>2011-04-05T09:58:00.000-07:00</published><updated>2011-04-05T10:03:26Z</updated>"
        "<category term='alps' label='The Alps'/><title>Up &amp; back</title>"
        "<content type='html'>&lt;div&gt;4am&lt;/div&gt;</content><summary>1 &lt; 2</summary>"
        "<link href='hornli.html'/></entry><entry><title type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'>"
        "A <b>b</b></div></title><content type='xhtml'><div xmlns='http://www.w3.org/1999/xhtml'><p>x</p></div>"
        "</content></entry></feed>");
  Write("feed_parse", "rdf10_dc",
        "2004-05-10T22:15:03+09:00\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
        "xmlns:dc=\"http://purl.org/dc/elements/1.1/\" xmlns=\"http://purl.org/rss/1.0/\"><channel><title>M</title>"
        "<link>http://mt.example/</link></channel><item><title>Spring</title><link>http://mt.example/1.html</link>"
        "<dc:subject>Home</dc:subject><dc:date>2004-05-10T22:15:03+09:00</dc:date></item></rdf:RDF>");
  Write("feed_parse", "rss091_netscape",
        "\n<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<!DOCTYPE rss PUBLIC \"-//Netscape Communications//DTD "
        "RSS 0.91//EN\" \"http://my.netscape.com/publish/formats/rss-0.91.dtd\">\n<rss version=\"0.91\"><channel>"
        "<title>Caf\xe9 &eacute;</title><item><title>Cr&egrave;me&nbsp;&mdash;</title><link>http://c.example/1</link>"
        "<description>&lt;p&gt;4&nbsp;&euro;&lt;/p&gt;<![CDATA[&nbsp;]]></description></item></channel></rss>");
  Write("feed_parse", "feedburner",
        "http://feeds.example/g\n<rss xmlns:feedburner=\"http://rssnamespace.org/feedburner/ext/1.0\" version=\"2.0\">"
        "<channel><item><title>P</title><link>http://feedproxy.google.com/~r/G/~3/abc/</link>"
        "<author>ed@g.example (Ed)</author><pubDate>Sun, 03 Jan 10 11:00 PST</pubDate>"
        "<feedburner:origLink>http://g.example/p/</feedburner:origLink></item>"
        "<item><guid>http://g.example/q/</guid><pubDate>Feb 30</pubDate></item></channel></rss>");
  Write("feed_parse", "billion_laughs",
        "\n<!DOCTYPE r [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\"><!ENTITY c \"&b;&b;&b;&b;\">]><rss><channel>"
        "<title>&c;</title></channel></rss>");
  Write("feed_parse", "utf16_entity", std::string("\n\xff\xfe<\0!\0D\0O\0C\0T\0Y\0P\0E\0 \0r\0 \0[\0<\0!\0E\0N\0T\0"
                                                  "I\0T\0Y\0 \0a\0 \0'\0x\0'\0>\0]\0>\0<\0r\0/\0>\0", 71));
  Write("feed_parse", "html_page", "http://x.example/\n<!DOCTYPE html><html><body><p>not a feed<br></body></html>");
}

// The engines' requests, with the cluster ids of the demo site as learnt.
void EngineSeeds(const std::vector<demo::GeneratedPage>& pages) {
  auto kv_store = store::NewInMemoryStore();
  workflow::ExtractionEngine extraction(kv_store.get(), {});
  workflow::LearningEngine learning(kv_store.get(), {});
  std::vector<workflow::ClientPage> client;
  for (const demo::GeneratedPage& p : pages) client.push_back({p.file_name, p.url, p.html});
  Check(workflow::RunSiteThroughApi(learning, extraction, "shop", ProductSchema(), client, ProductTruth(pages)).ok(),
        "learning the demo site");
  v1::ListRulesRequest list;
  list.set_site("shop");
  absl::StatusOr<v1::ListRulesResponse> rules = learning.ListRules(list);
  Check(rules.ok() && rules->clusters_size() > 0, "ListRules");
  const std::string cluster = rules->clusters(0).cluster().cluster_id();
  const demo::GeneratedPage& product = First(pages, "product");
  auto seed = [](int call, const google::protobuf::Message& m) { return std::string(1, char(call)) + m.SerializeAsString(); };

  v1::ExtractRequest extract;
  extract.set_site("shop");
  extract.set_url(product.url);
  extract.set_html(product.html.substr(0, 12000));
  Write("engine_rpc", "00_extract", seed(0, extract));
  extract.clear_site();
  extract.set_html("<html><body><h1>t</h1></body></html>");
  Write("engine_rpc", "01_extract_many_no_site", seed(1, extract));
  v1::RegisterSiteRequest reg;
  reg.set_site("other");
  *reg.mutable_schema() = ProductSchema().proto();
  Write("engine_rpc", "02_register", seed(2, reg));
  v1::AddSamplePagesRequest add;
  add.set_site("shop");
  for (int i = 0; i < 2; ++i) {
    v1::Page* p = add.add_pages();
    p->set_url(absl::StrCat("http://shop.vertex-demo.test/extra/", i, ".html"));
    p->set_html("<html><body><div><h1>x</h1><p>y</p></div></body></html>");
  }
  Write("engine_rpc", "03_add_pages", seed(3, add));
  v1::GetAnnotationTasksRequest tasks;
  tasks.set_site("shop");
  Write("engine_rpc", "04_tasks", seed(4, tasks));
  v1::LearnRequest learn;
  learn.set_site("shop");
  learn.set_cluster_id(cluster);
  Write("engine_rpc", "05_learn", seed(5, learn));
  v1::GetRuleRequest get;
  get.set_site("shop");
  get.set_cluster_id(cluster);
  Write("engine_rpc", "06_get_rule", seed(6, get));
  Write("engine_rpc", "07_list_rules", seed(7, list));
  v1::ExportRuleRequest export_rule;
  export_rule.set_site("shop");
  export_rule.set_cluster_id(cluster);
  export_rule.set_format(v1::ExportRuleRequest::XSLT);
  Write("engine_rpc", "08_export_xslt", seed(8, export_rule));
  v1::RollbackRuleRequest rollback;
  rollback.set_site("shop");
  rollback.set_cluster_id(cluster);
  rollback.set_version(1);
  Write("engine_rpc", "09_rollback", seed(9, rollback));
  v1::DeleteSiteRequest del;
  del.set_site("shop");
  Write("engine_rpc", "10_delete", seed(10, del));
  v1::MonitorRequest monitor;
  monitor.set_site("shop");
  v1::Page* mp = monitor.add_pages();
  mp->set_url(product.url);
  mp->set_html(product.html);
  Write("engine_rpc", "15_monitor", seed(15, monitor));
  v1::GetHistoryRequest history;
  history.set_site("shop");
  Write("engine_rpc", "16_history", seed(16, history));
  v1::AnnotateFromFeedRequest feed;
  feed.set_site("shop");
  feed.set_feed_url("http://shop.vertex-demo.test/feed.xml");
  feed.set_feed_xml(absl::StrCat("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>shop</title>"
                                 "<link>http://shop.vertex-demo.test/</link><item><title>x</title><link>",
                                 product.url, "</link><pubDate>Fri, 22 Jul 2005 16:24:55 -0400</pubDate>"
                                 "<description>y</description></item></channel></rss>"));
  feed.set_learn(true);
  Write("engine_rpc", "19_annotate_from_feed", seed(19, feed));
}

}  // namespace
}  // namespace vertex::fuzz

int main(int argc, char** argv) {
  using namespace vertex;
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  fuzz::g_dir = argv[1];
  const std::vector<demo::GeneratedPage> pages = fuzz::DemoPages();
  fuzz::PageSeeds(pages);
  fuzz::ExtractSeeds(pages);
  fuzz::SchemaSeeds();
  fuzz::AnnotationSeeds(fuzz::ProductPages());
  fuzz::RuleSeeds(fuzz::LearnProductRule());
  fuzz::UrlSeeds(pages);
  fuzz::RobotsSeeds();
  fuzz::FeedSeeds();
  fuzz::EngineSeeds(pages);
  return 0;
}
