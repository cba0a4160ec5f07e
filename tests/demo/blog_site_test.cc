#include "common/demo/blog_site.h"

#include <libxml/parser.h>
#include <libxml/tree.h>

#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "common/feed/feed.h"
#include "common/html/entities.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/sample/annotation_sample.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "common/site/site_clusterer.h"
#include "common/util/file.h"
#include "gtest/gtest.h"
#include "re2/re2.h"

namespace vertex::demo {
namespace {

constexpr BlogTemplate kTemplates[] = {BlogTemplate::kWordPress, BlogTemplate::kBlogger, BlogTemplate::kMovableType,
                                       BlogTemplate::kTable};
constexpr feed::FeedFormat kFormats[] = {feed::FeedFormat::kRss09x, feed::FeedFormat::kRss10, feed::FeedFormat::kRss20,
                                         feed::FeedFormat::kAtom10};

BlogSite Generate(const BlogSiteOptions& options) {
  absl::StatusOr<BlogSite> site = GenerateBlogSite(options);
  EXPECT_TRUE(site.ok()) << site.status();
  return site.ok() ? *std::move(site) : BlogSite{};
}

BlogSiteOptions With(BlogTemplate t, feed::FeedFormat f = feed::FeedFormat::kRss20) {
  BlogSiteOptions o;
  o.templ = t;
  o.feed_format = f;
  return o;
}

BlogSiteOptions Knob(const std::string& knob, BlogTemplate t = BlogTemplate::kWordPress,
                     feed::FeedFormat f = feed::FeedFormat::kRss20) {
  BlogSiteOptions o = With(t, f);
  EXPECT_TRUE(ApplyBlogKnob(knob, &o).ok()) << knob;
  return o;
}

// ---------------------------------------------------------------------------
// The feed as libxml2 reads it (no feed parser of the project).
// ---------------------------------------------------------------------------

struct XmlDocDeleter {
  void operator()(xmlDoc* d) const { xmlFreeDoc(d); }
};
using XmlDoc = std::unique_ptr<xmlDoc, XmlDocDeleter>;

XmlDoc ParseXml(const std::string& xml) {
  return XmlDoc(xmlReadMemory(xml.data(), static_cast<int>(xml.size()), "feed.xml", nullptr,
                              XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING));
}

std::string Name(const xmlNode* n) { return reinterpret_cast<const char*>(n->name); }

std::string Content(const xmlNode* n) {
  xmlChar* text = xmlNodeGetContent(n);
  std::string out = text ? reinterpret_cast<const char*>(text) : "";
  xmlFree(text);
  return out;
}

std::string Attr(const xmlNode* n, const char* name) {
  xmlChar* v = xmlGetProp(n, reinterpret_cast<const xmlChar*>(name));
  std::string out = v ? reinterpret_cast<const char*>(v) : "";
  xmlFree(v);
  return out;
}

// One item's children by local name ("link" of Atom: its href).
using FeedItem = std::map<std::string, std::string>;

void CollectItems(const xmlNode* n, std::vector<FeedItem>* items) {
  for (; n; n = n->next) {
    if (n->type != XML_ELEMENT_NODE) continue;
    if (Name(n) == "item" || Name(n) == "entry") {
      FeedItem item;
      for (const xmlNode* c = n->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE) continue;
        item[Name(c)] = Name(c) == "link" && n->ns && Name(n) == "entry" ? Attr(c, "href") : Content(c);
        // Readers trim the whitespace around a link (noisy_whitespace).
        if (Name(c) == "link" || Name(c) == "origLink") item[Name(c)] = html::NormalizeSpace(item[Name(c)]);
      }
      items->push_back(item);
    } else {
      CollectItems(n->children, items);
    }
  }
}

std::vector<FeedItem> Items(const BlogSite& site) {
  XmlDoc doc = ParseXml(site.feed_xml);
  std::vector<FeedItem> items;
  if (doc) CollectItems(xmlDocGetRootElement(doc.get()), &items);
  return items;
}

// The HTML of an item's description (or summary), and of its content when
// there is one.
std::string DescriptionHtml(const FeedItem& item) {
  for (const char* key : {"description", "summary"}) {
    if (auto it = item.find(key); it != item.end()) return it->second;
  }
  return "";
}

std::string ContentHtml(const FeedItem& item) {
  for (const char* key : {"encoded", "content"}) {
    if (auto it = item.find(key); it != item.end()) return it->second;
  }
  return "";
}

// Tags dropped, entities decoded, whitespace normalised.
std::string HtmlText(const std::string& html) {
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text += c;
    if (c == '>') in_tag = false;
  }
  return html::NormalizeSpace(html::DecodeHtmlEntities(text));
}

const BlogPage* EntryPage(const BlogSite& site, const std::string& permalink) {
  for (const BlogPage& p : site.pages) {
    if (p.kind == "entry" && p.url == permalink) return &p;
  }
  return nullptr;
}

// ---------------------------------------------------------------------------
// Page text.
// ---------------------------------------------------------------------------

struct PageIndex {
  std::set<std::string> texts;  // Text() of every element
  std::set<std::string> hrefs;  // every <a href>, resolved
};

PageIndex IndexPage(const BlogPage& page) {
  html::Parser parser;
  absl::StatusOr<html::Page> parsed = parser.Parse(page.html, page.url);
  EXPECT_TRUE(parsed.ok()) << page.url << ": " << parsed.status();
  PageIndex index;
  if (!parsed.ok()) return index;
  const std::string origin = page.url.substr(0, page.url.find('/', 7));
  for (html::Node n = parsed->root(); n; n = n.NextInDocument(parsed->root())) {
    if (!n.is_element()) continue;
    index.texts.insert(n.Text());
    if (n.tag() == "a" && n.has_attribute("href")) {
      std::string href = n.attribute("href");
      if (absl::StartsWith(href, "/")) href = origin + href;
      index.hrefs.insert(href);
    }
  }
  return index;
}

// Every truth value of `page` is the text of an element (or, for the
// permalink, an href) of the page.
void ExpectTruthOnPage(const BlogPage& page) {
  const PageIndex index = IndexPage(page);
  for (const BlogEntryTruth& e : page.entries) {
    EXPECT_TRUE(index.texts.count(e.title)) << page.url << " title '" << e.title << "'";
    EXPECT_TRUE(index.hrefs.count(e.permalink)) << page.url << " permalink " << e.permalink;
    EXPECT_TRUE(index.texts.count(e.body)) << page.url << " body '" << e.body.substr(0, 80) << "'";
    if (!e.date.empty()) {
      EXPECT_TRUE(index.texts.count(e.date)) << page.url << " date '" << e.date << "'";
    }
    if (!e.author.empty()) {
      EXPECT_TRUE(index.texts.count(e.author)) << page.url << " author " << e.author;
    }
    for (const std::string& c : e.categories) EXPECT_TRUE(index.texts.count(c)) << page.url << " category " << c;
    EXPECT_EQ(e.title, html::NormalizeSpace(e.title));
    EXPECT_EQ(e.body, html::NormalizeSpace(e.body));
    EXPECT_TRUE(RE2::FullMatch(e.date_iso, R"(\d{4}-\d\d-\d\d)")) << e.date_iso;
  }
}

// ---------------------------------------------------------------------------
// Tests.
// ---------------------------------------------------------------------------

TEST(BlogSiteTest, NamesRoundTripAndBadInputIsRefused) {
  for (BlogTemplate t : kTemplates) {
    absl::StatusOr<BlogTemplate> parsed = ParseBlogTemplate(BlogTemplateName(t));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, t);
  }
  absl::StatusOr<BlogTemplate> bad = ParseBlogTemplate("tumblr");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "tumblr"));
  EXPECT_TRUE(absl::StrContains(bad.status().message(), "movabletype"));
  BlogSiteOptions o;
  const absl::Status knob = ApplyBlogKnob("sparkles", &o);
  EXPECT_EQ(knob.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(absl::StrContains(knob.message(), "sparkles"));
  EXPECT_EQ(BlogKnobsString(o), "clean");
  for (const std::string& name : BlogKnobNames()) {
    BlogSiteOptions one;
    ASSERT_TRUE(ApplyBlogKnob(name, &one).ok());
    EXPECT_EQ(BlogKnobsString(one), name);
  }
}

TEST(BlogSiteTest, OutOfRangeOptionsAreNamed) {
  struct Case {
    const char* name;
    void (*set)(BlogSiteOptions*);
  };
  const Case cases[] = {
      {"posts", [](BlogSiteOptions* o) { o->posts = 0; }},
      {"posts", [](BlogSiteOptions* o) { o->posts = 10001; }},
      {"home_entries", [](BlogSiteOptions* o) { o->home_entries = 0; }},
      {"feed_items", [](BlogSiteOptions* o) { o->feed_items = -1; }},
      {"redesign", [](BlogSiteOptions* o) { o->redesign = 2; }},
      {"host", [](BlogSiteOptions* o) { o->host = "a/b"; }},
      {"host", [](BlogSiteOptions* o) { o->host = ""; }},
  };
  for (const Case& c : cases) {
    BlogSiteOptions o;
    c.set(&o);
    absl::StatusOr<BlogSite> site = GenerateBlogSite(o);
    EXPECT_EQ(site.status().code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_TRUE(absl::StrContains(site.status().message(), c.name)) << site.status();
  }
}

TEST(BlogSiteTest, DeterministicAndSeeded) {
  BlogSiteOptions o = Knob("noisy", BlogTemplate::kBlogger);
  const BlogSite a = Generate(o), b = Generate(o);
  ASSERT_EQ(a.pages.size(), b.pages.size());
  for (size_t i = 0; i < a.pages.size(); ++i) EXPECT_EQ(a.pages[i].html, b.pages[i].html) << i;
  EXPECT_EQ(a.feed_xml, b.feed_xml);
  o.seed = 2;
  const BlogSite c = Generate(o);
  EXPECT_NE(a.feed_xml, c.feed_xml);
  EXPECT_NE(a.pages[0].html, c.pages[0].html);
}

TEST(BlogSiteTest, DefaultSiteHasEnoughListAndEntryPages) {
  for (BlogTemplate t : kTemplates) {
    const BlogSite site = Generate(With(t));
    std::map<std::string, int> kinds;
    std::set<std::string> urls, files;
    int in_feed = 0, entries = 0;
    for (const BlogPage& p : site.pages) {
      entries += p.kind == "entry";
      ++kinds[p.kind];
      EXPECT_TRUE(urls.insert(p.url).second) << p.url;
      EXPECT_TRUE(files.insert(p.file_name).second) << p.file_name;
      in_feed += p.in_feed;
      EXPECT_EQ(p.in_feed, p.kind == "entry" && entries <= 15) << p.url;  // the newest 15
      if (p.kind == "entry") {
        EXPECT_EQ(p.entries.size(), 1u);
      }
      if (p.kind != "entry") {
        EXPECT_GE(p.entries.size(), 1u);
      }
    }
    EXPECT_EQ(kinds["home"], 12) << BlogTemplateName(t);  // 120 posts, 10 per page
    EXPECT_GE(kinds["home"] + kinds["archive"] + kinds["category"], 25) << BlogTemplateName(t);
    EXPECT_EQ(kinds["entry"], 120);
    EXPECT_EQ(in_feed, 15);
    // About 14 months of posts, some days with several.
    std::set<std::string> days, months;
    int same_day = 0;
    std::string previous;
    for (const BlogPage& p : site.pages) {
      if (p.kind != "entry") continue;
      const std::string& day = p.entries[0].date_iso;
      same_day += day == previous;
      previous = day;
      days.insert(day);
      months.insert(day.substr(0, 7));
    }
    EXPECT_GE(months.size(), 12u);
    EXPECT_LE(months.size(), 17u);
    EXPECT_GE(same_day, 5);
  }
}

TEST(BlogSiteTest, ContentHasTheHardCases) {
  const BlogSite site = Generate(With(BlogTemplate::kWordPress));
  std::set<std::string> authors, categories;
  int long_titles = 0, amp_titles = 0, quote_titles = 0, links = 0, images = 0, entities = 0, multi = 0;
  for (const BlogPage& p : site.pages) {
    if (p.kind != "entry") continue;
    const BlogEntryTruth& e = p.entries[0];
    authors.insert(e.author);
    categories.insert(e.categories.begin(), e.categories.end());
    long_titles += e.title.size() > 50;
    amp_titles += absl::StrContains(e.title, "&");
    quote_titles += absl::StrContains(e.title, "\"") || absl::StrContains(e.title, "'");
    links += absl::StrContains(p.html, "<a href=\"http://www.example.org/") ||
             absl::StrContains(p.html, "<a href=\"http://news.example.com/");
    images += absl::StrContains(p.html, "<img src=\"/images/");
    entities += absl::StrContains(p.html, "&rsquo;") || absl::StrContains(p.html, "&nbsp;percent");
    multi += absl::StrContains(e.body, "\u201c") || absl::StrContains(e.body, "\u2013");
  }
  std::set<std::string> titles;
  for (const BlogPage& p : site.pages) {
    if (p.kind == "entry") {
      EXPECT_TRUE(titles.insert(p.entries[0].title).second) << "title twice: " << p.entries[0].title;
    }
  }
  EXPECT_GE(authors.size(), 3u);
  EXPECT_LE(authors.size(), 5u);
  EXPECT_GE(categories.size(), 6u);
  EXPECT_GE(long_titles, 10);
  EXPECT_GE(amp_titles, 3);
  EXPECT_GE(quote_titles, 10);
  EXPECT_GE(links, 20);
  EXPECT_GE(images, 10);
  EXPECT_GE(entities, 20);
  EXPECT_GE(multi, 10);  // curly quotes and dashes decoded in the truth
}

TEST(BlogSiteTest, TemplatesAreDifferent) {
  std::map<std::string, std::string> marker = {{"wordpress", "class=\"entry-title\""},
                                               {"blogger", "class=\"post-title entry-title\""},
                                               {"movabletype", "<!-- entry -->"},
                                               {"table", "<font face=\"Verdana\" size=\"3\"><b>"}};
  for (BlogTemplate t : kTemplates) {
    const BlogSite site = Generate(With(t));
    for (const auto& [name, m] : marker) {
      EXPECT_EQ(absl::StrContains(site.pages[0].html, m), name == BlogTemplateName(t))
          << BlogTemplateName(t) << " vs " << name;
    }
    // The sidebar repeats the latest titles on every page; the entry page
    // uses another layout than the list pages.
    const std::string latest = site.pages[0].entries[0].title;
    for (const BlogPage& p : site.pages) EXPECT_TRUE(absl::StrContains(p.html, "Recent Posts")) << p.url;
    const BlogPage& entry = site.pages.back();
    EXPECT_TRUE(absl::StrContains(entry.html, "id=\"comments\"") || absl::StrContains(entry.html, "<b>Comments</b>"));
    EXPECT_FALSE(absl::StrContains(site.pages[0].html, "id=\"comments\""));
  }
}

TEST(BlogSiteTest, TruthValuesAreOnThePages) {
  for (BlogTemplate t : kTemplates) {
    for (int redesign : {0, 1}) {
      SCOPED_TRACE(absl::StrCat(BlogTemplateName(t), " redesign ", redesign));
      BlogSiteOptions o = With(t);
      o.posts = 40;
      o.redesign = redesign;
      for (const BlogPage& p : Generate(o).pages) ExpectTruthOnPage(p);
    }
  }
}

TEST(BlogSiteTest, TruthValuesAreOnThePagesWithEveryKnob) {
  for (BlogTemplate t : kTemplates) {
    for (const std::string& knob : BlogKnobNames()) {
      SCOPED_TRACE(absl::StrCat(BlogTemplateName(t), " ", knob));
      BlogSiteOptions o = Knob(knob, t);
      o.posts = 30;
      for (const BlogPage& p : Generate(o).pages) ExpectTruthOnPage(p);
    }
  }
}

TEST(BlogSiteTest, EveryTemplateAndFormatGivesAWellFormedFeed) {
  const std::map<feed::FeedFormat, std::string> roots = {{feed::FeedFormat::kRss09x, "rss"},
                                                         {feed::FeedFormat::kRss10, "RDF"},
                                                         {feed::FeedFormat::kRss20, "rss"},
                                                         {feed::FeedFormat::kAtom10, "feed"}};
  for (BlogTemplate t : kTemplates) {
    for (feed::FeedFormat f : kFormats) {
      for (bool escaped : {true, false}) {
        SCOPED_TRACE(absl::StrCat(BlogTemplateName(t), " ", static_cast<int>(f), escaped ? " escaped" : " cdata"));
        BlogSiteOptions o = With(t, f);
        o.escaped_description = escaped;
        const BlogSite site = Generate(o);
        XmlDoc doc = ParseXml(site.feed_xml);
        ASSERT_TRUE(doc) << site.feed_xml.substr(0, 400);
        EXPECT_EQ(Name(xmlDocGetRootElement(doc.get())), roots.at(f));
        EXPECT_EQ(absl::StrContains(site.feed_xml, "<![CDATA["), !escaped);
        const std::vector<FeedItem> items = Items(site);
        ASSERT_EQ(items.size(), 15u);
        for (const FeedItem& item : items) {
          const BlogPage* page = EntryPage(site, item.at("link"));
          ASSERT_NE(page, nullptr) << item.at("link");
          EXPECT_TRUE(page->in_feed);
          EXPECT_EQ(item.at("title"), page->entries[0].title);
          // The full body, as the page shows it.
          const std::string body = ContentHtml(item).empty() ? DescriptionHtml(item) : ContentHtml(item);
          EXPECT_EQ(HtmlText(body), page->entries[0].body);
          const bool has_author = item.count("creator") || item.count("author");
          EXPECT_EQ(has_author, f != feed::FeedFormat::kRss09x);
        }
        // Dates: RFC 822 in RSS 0.9x/2.0, RFC 3339 in dc:date and Atom, in
        // the blog's zone, the page's civil date.
        const FeedItem& first = items[0];
        const std::string iso = EntryPage(site, first.at("link"))->entries[0].date_iso;
        if (f == feed::FeedFormat::kRss09x || f == feed::FeedFormat::kRss20) {
          EXPECT_TRUE(RE2::FullMatch(first.at("pubDate"),
                                     R"([A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [-+]\d{4})"))
              << first.at("pubDate");
        } else {
          const std::string date = f == feed::FeedFormat::kRss10 ? first.at("date") : first.at("published");
          EXPECT_TRUE(RE2::FullMatch(date, R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[-+]\d\d:\d\d)")) << date;
          EXPECT_EQ(date.substr(0, 10), iso);
        }
      }
    }
  }
}

// The project's feed parser (common/feed/feed.h) reads every feed the
// generator writes, and what it reads agrees with the pages' truth.
TEST(BlogSiteTest, TheFeedParserReadsEveryFeed) {
  const std::vector<std::string> knob_sets[] = {{}, {"partial"}, {"link-proxy"}, {"link-tracking"}, {"noisy", "cdata"}};
  for (BlogTemplate t : kTemplates) {
    for (feed::FeedFormat f : kFormats) {
      for (const std::vector<std::string>& knobs : knob_sets) {
        BlogSiteOptions o = With(t, f);
        o.posts = 30;
        for (const std::string& k : knobs) ASSERT_TRUE(ApplyBlogKnob(k, &o).ok());
        SCOPED_TRACE(absl::StrCat(BlogTemplateName(t), " ", feed::FeedFormatName(f), " ", BlogKnobsString(o)));
        const BlogSite site = Generate(o);
        feed::FeedParseOptions parse;
        parse.url = site.feed_url;
        absl::StatusOr<feed::Feed> parsed = feed::ParseFeed(site.feed_xml, parse);
        ASSERT_TRUE(parsed.ok()) << parsed.status();
        EXPECT_EQ(parsed->format, f);
        ASSERT_EQ(parsed->items.size(), 15u);
        for (const feed::FeedItem& item : parsed->items) {
          std::string link = item.link;
          if (o.link_variation == LinkVariation::kTracking) link = link.substr(0, link.find('?'));
          const BlogPage* page = EntryPage(site, link);
          if (o.link_variation == LinkVariation::kProxy && f == feed::FeedFormat::kAtom10) {
            EXPECT_EQ(page, nullptr) << "Atom has the proxy's link only";
            continue;
          }
          ASSERT_NE(page, nullptr) << item.link;
          const BlogEntryTruth& e = page->entries[0];
          EXPECT_EQ(item.title, e.title);
          ASSERT_TRUE(item.date.has_value()) << item.date_error;
          EXPECT_EQ(absl::StrFormat("%04d-%02d-%02d", item.date->year, item.date->month, item.date->day), e.date_iso);
          EXPECT_EQ(item.authors.empty(), f == feed::FeedFormat::kRss09x);
          if (!item.authors.empty()) {
            EXPECT_EQ(item.authors[0], e.author);
          }
          EXPECT_EQ(item.categories, e.categories);
          const std::string html = item.content_html.empty() ? item.description_html : item.content_html;
          if (o.partial_description) {
            EXPECT_EQ(item.content_html, "");
            EXPECT_TRUE(absl::StartsWith(e.body, HtmlText(html).substr(0, 20))) << HtmlText(html);
          } else {
            EXPECT_EQ(HtmlText(html), e.body);
          }
        }
      }
    }
  }
}

TEST(BlogSiteTest, DatesAreTheWritersCivilTime) {
  // RFC 822 "Fri, 22 Jul 2005 16:24:55 -0500": the day and month the page
  // shows, whatever the zone.
  for (uint64_t seed : {1, 2, 3, 4, 5, 6}) {
    BlogSiteOptions o = With(BlogTemplate::kTable);
    o.seed = seed;
    const BlogSite site = Generate(o);
    for (const FeedItem& item : Items(site)) {
      const BlogPage* page = EntryPage(site, item.at("link"));
      ASSERT_NE(page, nullptr);
      const std::string& shown = page->entries[0].date;  // 07/22/2005
      std::vector<std::string> parts = absl::StrSplit(item.at("pubDate"), ' ');
      ASSERT_EQ(parts.size(), 6u);
      EXPECT_EQ(shown.substr(3, 2), parts[1]) << item.at("pubDate") << " vs " << shown;
      EXPECT_EQ(shown.substr(6, 4), parts[3]);
    }
  }
}

TEST(BlogSiteTest, PartialDescriptionIsASummaryInEveryFormat) {
  for (feed::FeedFormat f : kFormats) {
    const BlogSite site = Generate(Knob("partial", BlogTemplate::kWordPress, f));
    int shorter = 0;
    for (const FeedItem& item : Items(site)) {
      EXPECT_EQ(ContentHtml(item), "") << "no full content with a partial description";
      const std::string summary = HtmlText(DescriptionHtml(item));
      const std::string body = EntryPage(site, item.at("link"))->entries[0].body;
      EXPECT_LE(std::vector<std::string>(absl::StrSplit(summary, ' ')).size(), 41u);
      if (summary.size() < body.size()) {
        ++shorter;
        EXPECT_TRUE(absl::EndsWith(summary, " [...]")) << summary;
        EXPECT_TRUE(absl::StartsWith(body, summary.substr(0, summary.size() - 6))) << summary;
      }
    }
    EXPECT_GE(shorter, 10);
    EXPECT_EQ(site.expected_wtm.at("body"), 4);
  }
}

TEST(BlogSiteTest, SharedDateHeadersPutADaysPostsUnderOneHeader) {
  for (BlogTemplate t : kTemplates) {
    const BlogSite site = Generate(Knob("shared-dates", t));
    int sharing = 0;
    for (const BlogPage& p : site.pages) {
      if (p.kind == "entry") continue;
      std::string header = p.entries.empty() ? "" : p.entries[0].date;
      for (size_t i = 1; i < p.entries.size(); ++i) {
        if (p.entries[i].date_iso != p.entries[i - 1].date_iso) {
          header = p.entries[i].date;
          EXPECT_FALSE(p.entries[i].date.empty()) << p.url << " a new day has its header";
          continue;
        }
        ++sharing;
        EXPECT_EQ(p.entries[i].date, "") << p.url << " " << p.entries[i].title;
        // One header for the day: its date appears once on the page.
        ASSERT_FALSE(header.empty());
        const size_t first = p.html.find(">" + header + "<");
        ASSERT_NE(first, std::string::npos) << header;
        EXPECT_EQ(p.html.find(">" + header + "<", first + 1), std::string::npos) << p.url << " " << header;
      }
    }
    EXPECT_GE(sharing, 5) << BlogTemplateName(t);
    EXPECT_EQ(site.expected_wtm.at("date"), 2);
    // Without the knob each list entry shows its own date.
    for (const BlogPage& p : Generate(With(t)).pages) {
      for (const BlogEntryTruth& e : p.entries) EXPECT_FALSE(e.date.empty()) << p.url;
    }
  }
}

TEST(BlogSiteTest, TitleVariations) {
  // Prefix: "[Updated] " on some titles of the pages, never in the feed.
  BlogSite site = Generate(Knob("title-prefix"));
  int prefixed = 0;
  for (const BlogPage& p : site.pages) {
    for (const BlogEntryTruth& e : p.entries) prefixed += absl::StartsWith(e.title, "[Updated] ");
  }
  EXPECT_GE(prefixed, 20);
  EXPECT_FALSE(absl::StrContains(site.feed_xml, "[Updated]"));
  EXPECT_EQ(site.expected_wtm.at("title"), 3);
  // Typographic quotes: the page curls what the feed has straight.
  site = Generate(Knob("title-quotes"));
  int curled = 0;
  for (const FeedItem& item : Items(site)) {
    const std::string& feed_title = item.at("title");
    const std::string& page_title = EntryPage(site, item.at("link"))->entries[0].title;
    if (absl::StrContains(feed_title, "'") || absl::StrContains(feed_title, "\"") ||
        absl::StrContains(feed_title, " - ")) {
      ++curled;
      EXPECT_NE(feed_title, page_title);
      EXPECT_TRUE(absl::StrContains(page_title, "\u2019") || absl::StrContains(page_title, "\u201c") ||
                  absl::StrContains(page_title, "\u2013"))
          << page_title;
    } else {
      EXPECT_EQ(feed_title, page_title);
    }
  }
  EXPECT_GE(curled, 1);
  // Abbreviated: list pages cut long titles, entry pages show them whole.
  site = Generate(Knob("title-abbreviated"));
  int cut = 0;
  for (const BlogPage& p : site.pages) {
    if (p.kind == "entry") continue;
    for (const BlogEntryTruth& e : p.entries) {
      if (!absl::EndsWith(e.title, "...")) continue;
      ++cut;
      const std::string full = EntryPage(site, e.permalink)->entries[0].title;
      EXPECT_TRUE(absl::StartsWith(full, e.title.substr(0, e.title.size() - 3))) << e.title;
      EXPECT_EQ(full[e.title.size() - 3], ' ') << "cut after a whole word: " << e.title;
    }
  }
  EXPECT_GE(cut, 10);
  EXPECT_EQ(site.expected_wtm.at("title"), 1);
}

TEST(BlogSiteTest, UnusualDateFormat) {
  for (BlogTemplate t : kTemplates) {
    const BlogSite site = Generate(Knob("unusual-dates", t));
    for (const BlogPage& p : site.pages) {
      for (const BlogEntryTruth& e : p.entries) {
        EXPECT_TRUE(RE2::FullMatch(e.date, R"(\d{1,2}\.[IVX]+\.\d{4}|\d{4}/\d\d/\d\d [A-Z][a-z]{2})")) << e.date;
      }
    }
    EXPECT_EQ(site.expected_wtm.at("date"), 7);
  }
}

TEST(BlogSiteTest, LinkVariations) {
  for (feed::FeedFormat f : kFormats) {
    SCOPED_TRACE(static_cast<int>(f));
    // Proxy: the feed's link goes through feedburner; RSS keeps origLink,
    // Atom has only the proxy.
    BlogSite site = Generate(Knob("link-proxy", BlogTemplate::kWordPress, f));
    for (const FeedItem& item : Items(site)) {
      EXPECT_TRUE(absl::StartsWith(item.at("link"), "http://feeds.feedburner.test/")) << item.at("link");
      EXPECT_EQ(EntryPage(site, item.at("link")), nullptr);
      if (f == feed::FeedFormat::kAtom10) {
        EXPECT_EQ(item.count("origLink"), 0u);
      } else {
        ASSERT_NE(EntryPage(site, item.at("origLink")), nullptr) << item.at("origLink");
      }
    }
    EXPECT_EQ(site.expected_wtm.at("link"), 5);
    // Tracking: the feed adds utm parameters the pages' hrefs do not have.
    site = Generate(Knob("link-tracking", BlogTemplate::kWordPress, f));
    for (const FeedItem& item : Items(site)) {
      const std::string link = item.at("link");
      ASSERT_TRUE(absl::StrContains(link, "?utm_source=feed")) << link;
      const std::string page_url = link.substr(0, link.find('?'));
      ASSERT_NE(EntryPage(site, page_url), nullptr);
      EXPECT_FALSE(absl::StrContains(site.pages[0].html, "utm_source"));
    }
    EXPECT_EQ(site.expected_wtm.at("link"), 8);
  }
  // Relative: the pages link posts by a root-relative href.
  const BlogSite site = Generate(Knob("link-relative", BlogTemplate::kMovableType));
  const BlogEntryTruth& e = site.pages[0].entries[0];
  const std::string path = e.permalink.substr(e.permalink.find('/', 7));
  EXPECT_TRUE(absl::StrContains(site.pages[0].html, "href=\"" + path + "\""));
  EXPECT_FALSE(absl::StrContains(site.pages[0].html, "href=\"" + e.permalink + "\""));
  EXPECT_EQ(site.expected_wtm.at("link"), 8);
}

TEST(BlogSiteTest, NoisyWhitespaceInPagesAndFeed) {
  for (feed::FeedFormat f : kFormats) {
    const BlogSite noisy = Generate(Knob("noisy", BlogTemplate::kBlogger, f));
    const BlogSite clean = Generate(With(BlogTemplate::kBlogger, f));
    EXPECT_TRUE(absl::StrContains(noisy.pages[0].html, "\r\n"));
    EXPECT_TRUE(absl::StrContains(noisy.pages[0].html, "\t"));
    EXPECT_TRUE(absl::StrContains(noisy.pages[0].html, "&nbsp;&nbsp;"));
    EXPECT_FALSE(absl::StrContains(clean.pages[0].html, "\t"));
    EXPECT_TRUE(absl::StrContains(noisy.feed_xml, "\t"));
    // The same truth: noise is whitespace only.
    ASSERT_EQ(noisy.pages.size(), clean.pages.size());
    for (size_t i = 0; i < noisy.pages.size(); ++i) {
      ASSERT_EQ(noisy.pages[i].entries.size(), clean.pages[i].entries.size());
      for (size_t j = 0; j < noisy.pages[i].entries.size(); ++j) {
        EXPECT_EQ(noisy.pages[i].entries[j].title, clean.pages[i].entries[j].title);
        EXPECT_EQ(noisy.pages[i].entries[j].body, clean.pages[i].entries[j].body);
      }
    }
    // The feed's copy of a body is noisy in other places than the page's.
    const std::vector<FeedItem> items = Items(noisy);
    ASSERT_FALSE(items.empty());
    ASSERT_NE(EntryPage(noisy, items[0].at("link")), nullptr) << items[0].at("link");
    const std::string feed_body = ContentHtml(items[0]).empty() ? DescriptionHtml(items[0]) : ContentHtml(items[0]);
    EXPECT_EQ(HtmlText(feed_body), EntryPage(noisy, items[0].at("link"))->entries[0].body);
    EXPECT_EQ(noisy.expected_wtm.at("title"), 6);
    EXPECT_EQ(noisy.expected_wtm.at("body"), 6);
    EXPECT_EQ(noisy.expected_wtm.at("link"), f == feed::FeedFormat::kAtom10 ? 0 : 6);
  }
}

TEST(BlogSiteTest, ReadMoreTruncatesListBodiesOnly) {
  const BlogSite site = Generate(Knob("read-more", BlogTemplate::kTable));
  int truncated = 0;
  for (const BlogPage& p : site.pages) {
    if (p.kind == "entry") continue;
    for (const BlogEntryTruth& e : p.entries) {
      const std::string& full = EntryPage(site, e.permalink)->entries[0].body;
      if (e.body == full) continue;
      ++truncated;
      EXPECT_TRUE(absl::StartsWith(full, e.body)) << e.body;
    }
    bool cut_here = false;
    for (const BlogEntryTruth& e : p.entries) cut_here |= e.body != EntryPage(site, e.permalink)->entries[0].body;
    EXPECT_EQ(absl::StrContains(p.html, "Read more"), cut_here) << p.url;
  }
  EXPECT_GE(truncated, 50);
  EXPECT_EQ(site.expected_wtm.at("body"), 1);
}

TEST(BlogSiteTest, CleanSiteExpectsNoFailure) {
  for (BlogTemplate t : kTemplates) {
    for (feed::FeedFormat f : kFormats) {
      const BlogSite site = Generate(With(t, f));
      EXPECT_EQ(site.expected_wtm, (std::map<std::string, int>{{"title", 0}, {"body", 0}, {"link", 0}, {"date", 0}}));
    }
  }
  // CDATA and read-more-free knobs leave other fields alone.
  const BlogSite cdata = Generate(Knob("cdata"));
  EXPECT_EQ(cdata.expected_wtm.at("body"), 0);
}

TEST(BlogSiteTest, RedesignKeepsPostsAndChangesMarkup) {
  for (BlogTemplate t : kTemplates) {
    BlogSiteOptions o = With(t);
    const BlogSite before = Generate(o);
    o.redesign = 1;
    const BlogSite after = Generate(o);
    ASSERT_EQ(before.pages.size(), after.pages.size());
    EXPECT_EQ(before.feed_xml, after.feed_xml);
    for (size_t i = 0; i < before.pages.size(); ++i) {
      EXPECT_EQ(before.pages[i].url, after.pages[i].url);
      EXPECT_NE(before.pages[i].html, after.pages[i].html);
      ASSERT_EQ(before.pages[i].entries.size(), after.pages[i].entries.size());
      for (size_t j = 0; j < before.pages[i].entries.size(); ++j) {
        EXPECT_EQ(before.pages[i].entries[j].title, after.pages[i].entries[j].title);
        EXPECT_EQ(before.pages[i].entries[j].body, after.pages[i].entries[j].body);
      }
    }
  }
}

TEST(BlogSiteTest, SchemaIsTheDeployedOneAndCompiles) {
  absl::StatusOr<std::string> file = util::ReadFile(VERTEX_SOURCE_DIR "/deploy/schemas/blog.json");
  ASSERT_TRUE(file.ok()) << file.status();
  EXPECT_EQ(BlogSchemaJson(), *file);
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(BlogSchemaJson(), "blog");
  ASSERT_TRUE(schema.ok()) << schema.status();
  EXPECT_EQ(schema->size(), 6u);
}

TEST(BlogSiteTest, WritesPagesFeedTruthAndSchema) {
  const std::string dir = (std::filesystem::temp_directory_path() / "vertex-blog-site-test").string();
  std::filesystem::remove_all(dir);
  BlogSiteOptions o = With(BlogTemplate::kMovableType, feed::FeedFormat::kAtom10);
  o.posts = 25;
  const BlogSite site = Generate(o);
  ASSERT_TRUE(WriteBlogSite(site, dir).ok());
  absl::StatusOr<std::string> first = util::ReadFile(dir + "/" + site.pages[0].file_name);
  ASSERT_TRUE(first.ok());
  EXPECT_TRUE(absl::StartsWith(*first, "<base href=\"" + site.pages[0].url + "\"/>\n"));
  absl::StatusOr<std::string> truth = util::ReadFile(dir + "/truth.jsonl");
  ASSERT_TRUE(truth.ok());
  const std::vector<std::string> lines = absl::StrSplit(*truth, '\n', absl::SkipEmpty());
  EXPECT_EQ(lines.size(), site.pages.size());
  EXPECT_TRUE(absl::StrContains(lines[0], "\"kind\":\"home\""));
  EXPECT_EQ(*util::ReadFile(dir + "/feed.xml"), site.feed_xml);
  EXPECT_EQ(*util::ReadFile(dir + "/schema.json"), BlogSchemaJson());
  EXPECT_TRUE(absl::StrContains(*util::ReadFile(dir + "/expected_wtm.json"), "\"date\":0"));
  std::filesystem::remove_all(dir);
}

// ---------------------------------------------------------------------------
// Clustering: one list cluster and one entry cluster with Vertex's pruning
// threshold 20, for every template, before and after a redesign.
// ---------------------------------------------------------------------------

site::SiteClustering Cluster(const BlogSite& site) {
  std::vector<site::SitePage> pages;
  html::Parser parser;
  for (const BlogPage& p : site.pages) {
    shingle::Shingler shingler;
    EXPECT_TRUE(parser.Parse(p.html, p.url, "", &shingler).ok()) << p.url;
    pages.push_back({"", p.url, shingler.Finish(), false});
  }
  site::SiteClusterOptions options;
  options.cluster.prune_threshold = 20;
  const site::XPathsOfPage no_xpaths = [](size_t) -> absl::StatusOr<sample::PageXPaths> {
    return sample::PageXPaths{};
  };
  absl::StatusOr<site::SiteClustering> clustering = site::ClusterKnownPages(pages, no_xpaths, options);
  EXPECT_TRUE(clustering.ok()) << clustering.status();
  return clustering.ok() ? *std::move(clustering) : site::SiteClustering{};
}

// Exactly two clusters: one of list pages, one of entry pages (by their
// members); every entry page is in (or attached to) the entry cluster and
// every list page of two or more entries in the list cluster. A list page
// of one entry (a month with one post) has an entry page's structure, so
// it may go either way.
TEST(BlogSiteTest, ClustersIntoOneListAndOneEntryCluster) {
  for (BlogTemplate t : kTemplates) {
    for (int redesign : {0, 1}) {
      SCOPED_TRACE(absl::StrCat(BlogTemplateName(t), " redesign ", redesign));
      BlogSiteOptions o = With(t);
      o.redesign = redesign;
      const BlogSite site = Generate(o);
      const site::SiteClustering clustering = Cluster(site);
      ASSERT_EQ(clustering.clusters.size(), 2u);
      std::vector<int> cluster_of(site.pages.size(), -1);
      std::map<int, std::set<std::string>> member_kinds;
      for (const site::SiteCluster& c : clustering.clusters) {
        for (size_t i : c.pages) {
          cluster_of[i] = static_cast<int>(c.id);
          member_kinds[c.id].insert(site.pages[i].kind == "entry" ? "entry" : "list");
        }
        for (size_t i : c.attached) cluster_of[i] = static_cast<int>(c.id);
      }
      ASSERT_EQ(member_kinds[0].size(), 1u) << "cluster 0 mixes list and entry pages";
      ASSERT_EQ(member_kinds[1].size(), 1u) << "cluster 1 mixes list and entry pages";
      ASSERT_NE(*member_kinds[0].begin(), *member_kinds[1].begin());
      const int entry_cluster = *member_kinds[0].begin() == "entry" ? 0 : 1;
      int single = 0;
      for (size_t i = 0; i < site.pages.size(); ++i) {
        const BlogPage& p = site.pages[i];
        if (p.kind == "entry") {
          EXPECT_EQ(cluster_of[i], entry_cluster) << p.url;
        } else if (p.entries.size() >= 2) {
          EXPECT_EQ(cluster_of[i], 1 - entry_cluster) << p.url << " (" << p.entries.size() << " entries)";
        } else {
          ++single;
        }
      }
      EXPECT_LE(single, 2);
    }
  }
}

// Prints each template's clusters (kinds of pages per cluster).
TEST(BlogSiteTest, DISABLED_PrintClusterings) {
  for (BlogTemplate t : kTemplates) {
    for (int redesign : {0, 1}) {
      BlogSiteOptions o = With(t);
      o.redesign = redesign;
      const BlogSite site = Generate(o);
      const site::SiteClustering clustering = Cluster(site);
      std::printf("%s redesign %d: threshold %ld, %zu clusters, %zu unassigned\n", BlogTemplateName(t).c_str(),
                  redesign, static_cast<long>(clustering.prune_threshold), clustering.clusters.size(),
                  clustering.unassigned.size());
      for (const site::SiteCluster& c : clustering.clusters) {
        std::map<std::string, int> kinds, attached;
        for (size_t i : c.pages) ++kinds[site.pages[i].kind];
        for (size_t i : c.attached) ++attached[site.pages[i].kind];
        std::printf("  cluster %zu %s:", c.id, c.signature.ToText().c_str());
        for (const auto& [k, n] : kinds) std::printf(" %s %d", k.c_str(), n);
        std::printf(" | attached");
        for (const auto& [k, n] : attached) std::printf(" %s %d", k.c_str(), n);
        std::printf("\n");
      }
      std::map<std::string, int> un;
      for (size_t i : clustering.unassigned) ++un[site.pages[i].kind];
      std::printf("  unassigned:");
      for (const auto& [k, n] : un) std::printf(" %s %d", k.c_str(), n);
      std::printf("\n");
    }
  }
}

}  // namespace
}  // namespace vertex::demo
