// The blog's feed (blog_site.h): the latest posts as RSS 0.93, RSS 1.0
// (RDF, with dc:date, dc:creator, dc:subject), RSS 2.0 (content:encoded,
// dc:creator, category) or Atom 1.0 (content type="html", author,
// published/updated, link rel="alternate"), written here with XML escaping
// (no feed library).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/demo/blog_model.h"
#include "common/demo/markup_util.h"

namespace vertex::demo::blog {
namespace {

using internal::Esc;

// Words of a partial description (the summary).
constexpr int kSummaryWords = 40;

// What the feed says about one post.
struct FeedEntry {
  std::string title;      // text
  std::string link;       // as the feed gives it (proxy, tracking)
  std::string orig_link;  // feedburner:origLink, "" when none
  std::string date_822;   // RSS
  std::string date_3339;  // Atom, dc:date
  std::string html;       // description or content (HTML)
  bool full = true;       // html is the whole body
  std::string author;
  std::vector<std::string> categories;
  std::string guid;
};

std::string ProxyLink(const Blog& blog, const Post& post) {
  return absl::StrCat("http://feeds.feedburner.test/", internal::Slugify(blog.name), "/~3/",
                      util::Mix64(post.id * 7919 + blog.options.seed) % 1000000000, "/", post.slug);
}

// The feed title: with noise, one space becomes a tab (WTM cleans feed
// titles only of long white space, so a single tab stays).
std::string NoisyTitle(const std::string& title) {
  const size_t space = title.find(' ', title.size() / 2);
  if (space == std::string::npos) return title;
  std::string out = title;
  out[space] = '\t';
  return out;
}

FeedEntry EntryOf(const Blog& blog, const Post& post, util::Rng* noise) {
  const BlogSiteOptions& o = blog.options;
  FeedEntry e;
  e.title = o.noisy_whitespace ? NoisyTitle(post.title) : post.title;
  e.link = Permalink(blog, post);
  if (o.link_variation == LinkVariation::kTracking) e.link += "?utm_source=feed&utm_medium=rss";
  if (o.link_variation == LinkVariation::kProxy) {
    e.orig_link = e.link;
    e.link = ProxyLink(blog, post);
  }
  e.date_822 = Rfc822(post.time, blog.utc_offset_minutes);
  e.date_3339 = Rfc3339(post.time, blog.utc_offset_minutes);
  e.full = !o.partial_description;
  e.html = e.full ? RenderSpaces(BodyMarkup(blog, post), noise) : Esc(Summary(post, kSummaryWords));
  e.author = blog.authors[post.author];
  for (int c : post.categories) e.categories.push_back(blog.categories[c]);
  e.guid = absl::StrCat(HomeUrl(blog), "?p=", post.id);
  return e;
}

// HTML inside an XML element: entity-escaped or CDATA.
std::string HtmlContent(const std::string& html, bool escaped) {
  if (escaped) return Esc(html);
  std::string safe = html;
  for (size_t at = safe.find("]]>"); at != std::string::npos; at = safe.find("]]>", at + 15)) {
    safe.replace(at, 3, "]]]]><![CDATA[>");
  }
  return absl::StrCat("<![CDATA[", safe, "]]>");
}

// RSS <link> text: with noise, padded with newlines and indentation (WTM
// takes <link> as is).
std::string LinkText(const Blog& blog, const std::string& link) {
  return blog.options.noisy_whitespace ? absl::StrCat("\n      ", Esc(link), "\n    ") : Esc(link);
}

std::string Elem(const char* tag, const std::string& escaped) {
  return absl::StrCat("      <", tag, ">", escaped, "</", tag, ">\n");
}

std::string Rss09Item(const Blog& blog, const FeedEntry& e) {
  std::string out = "    <item>\n";
  out += Elem("title", Esc(e.title));
  out += Elem("link", LinkText(blog, e.link));
  if (!e.orig_link.empty()) out += Elem("feedburner:origLink", Esc(e.orig_link));
  out += Elem("description", HtmlContent(e.html, blog.options.escaped_description));
  out += Elem("pubDate", e.date_822);
  for (const std::string& c : e.categories) out += Elem("category", Esc(c));
  return out + "    </item>\n";
}

std::string Rss10Item(const Blog& blog, const FeedEntry& e) {
  std::string out = absl::StrCat("  <item rdf:about=\"", Esc(e.link, true), "\">\n");
  out += Elem("title", Esc(e.title));
  out += Elem("link", LinkText(blog, e.link));
  if (!e.orig_link.empty()) out += Elem("feedburner:origLink", Esc(e.orig_link));
  out += Elem("description", HtmlContent(e.html, blog.options.escaped_description));
  out += Elem("dc:date", e.date_3339);
  out += Elem("dc:creator", Esc(e.author));
  for (const std::string& c : e.categories) out += Elem("dc:subject", Esc(c));
  return out + "  </item>\n";
}

std::string Rss20Item(const Blog& blog, const FeedEntry& e) {
  const bool escaped = blog.options.escaped_description;
  std::string out = "    <item>\n";
  out += Elem("title", Esc(e.title));
  out += Elem("link", LinkText(blog, e.link));
  out += Elem("comments", Esc(e.orig_link.empty() ? e.link : e.orig_link) + "#comments");
  out += Elem("pubDate", e.date_822);
  out += Elem("dc:creator", Esc(e.author));
  for (const std::string& c : e.categories) out += Elem("category", Esc(c));
  out += absl::StrCat("      <guid isPermaLink=\"false\">", Esc(e.guid), "</guid>\n");
  out += Elem("description", HtmlContent(e.html, escaped));
  if (e.full) out += Elem("content:encoded", HtmlContent(e.html, escaped));
  if (!e.orig_link.empty()) out += Elem("feedburner:origLink", Esc(e.orig_link));
  return out + "    </item>\n";
}

std::string AtomEntry(const Blog& blog, const FeedEntry& e, const Post& post) {
  LocalTime updated = post.time;
  updated.hour = updated.hour < 23 ? updated.hour + 1 : updated.hour;
  std::string out = "  <entry>\n";
  out += absl::StrCat("    <title type=\"text\">", Esc(e.title), "</title>\n");
  out += absl::StrCat("    <link rel=\"alternate\" type=\"text/html\" href=\"", Esc(e.link, true), "\"/>\n");
  out += absl::StrCat("    <id>tag:", blog.options.host, ",", post.time.year, ":post-", post.id, "</id>\n");
  out += absl::StrCat("    <published>", e.date_3339, "</published>\n");
  out += absl::StrCat("    <updated>", Rfc3339(updated, blog.utc_offset_minutes), "</updated>\n");
  out += absl::StrCat("    <author><name>", Esc(e.author), "</name></author>\n");
  for (const std::string& c : e.categories) {
    out += absl::StrCat("    <category term=\"", Esc(c, true), "\"/>\n");
  }
  const char* tag = e.full ? "content" : "summary";
  out += absl::StrCat("    <", tag, " type=\"html\">", HtmlContent(e.html, blog.options.escaped_description), "</", tag,
                      ">\n");
  return out + "  </entry>\n";
}

std::string ChannelHead(const Blog& blog) {
  return absl::StrCat("    <title>", Esc(blog.name), "</title>\n    <link>", Esc(HomeUrl(blog)),
                      "</link>\n    <description>", Esc(blog.tagline), "</description>\n");
}

const char* FeedburnerNs(const Blog& blog) {
  return blog.options.link_variation == LinkVariation::kProxy
             ? " xmlns:feedburner=\"http://rssnamespace.org/feedburner/ext/1.0\""
             : "";
}

}  // namespace

std::string FeedXml(const Blog& blog) {
  util::Rng noise(util::Mix64(blog.options.seed ^ 0xfeed0015e0000000ULL));
  util::Rng* noise_rng = blog.options.noisy_whitespace ? &noise : nullptr;
  const size_t items = std::min<size_t>(blog.posts.size(), blog.options.feed_items);
  std::string body;
  std::string rdf_seq;
  for (size_t i = 0; i < items; ++i) {
    const FeedEntry e = EntryOf(blog, blog.posts[i], noise_rng);
    switch (blog.options.feed_format) {
      case feed::FeedFormat::kRss09x:
        body += Rss09Item(blog, e);
        break;
      case feed::FeedFormat::kRss10:
        body += Rss10Item(blog, e);
        absl::StrAppend(&rdf_seq, "        <rdf:li rdf:resource=\"", Esc(e.link, true), "\"/>\n");
        break;
      case feed::FeedFormat::kRss20:
        body += Rss20Item(blog, e);
        break;
      case feed::FeedFormat::kAtom10:
        body += AtomEntry(blog, e, blog.posts[i]);
        break;
    }
  }
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  const std::string updated = blog.posts.empty() ? "" : Rfc3339(blog.posts[0].time, blog.utc_offset_minutes);
  switch (blog.options.feed_format) {
    case feed::FeedFormat::kRss09x:
      return absl::StrCat(xml, "<rss version=\"0.93\"", FeedburnerNs(blog), ">\n  <channel>\n", ChannelHead(blog),
                          "    <language>en-us</language>\n", body, "  </channel>\n</rss>\n");
    case feed::FeedFormat::kRss10:
      return absl::StrCat(xml,
                          "<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" "
                          "xmlns=\"http://purl.org/rss/1.0/\" xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
                          FeedburnerNs(blog), ">\n  <channel rdf:about=\"", Esc(FeedUrl(blog), true), "\">\n",
                          ChannelHead(blog), "    <dc:date>", updated, "</dc:date>\n    <items>\n      <rdf:Seq>\n",
                          rdf_seq, "      </rdf:Seq>\n    </items>\n  </channel>\n", body, "</rdf:RDF>\n");
    case feed::FeedFormat::kRss20:
      return absl::StrCat(xml,
                          "<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" "
                          "xmlns:dc=\"http://purl.org/dc/elements/1.1/\"",
                          FeedburnerNs(blog), ">\n  <channel>\n", ChannelHead(blog), "    <lastBuildDate>",
                          blog.posts.empty() ? "" : Rfc822(blog.posts[0].time, blog.utc_offset_minutes),
                          "</lastBuildDate>\n", body, "  </channel>\n</rss>\n");
    case feed::FeedFormat::kAtom10:
      return absl::StrCat(xml, "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n  <title>", Esc(blog.name),
                          "</title>\n  <subtitle>", Esc(blog.tagline),
                          "</subtitle>\n  <link rel=\"alternate\" "
                          "type=\"text/html\" href=\"",
                          Esc(HomeUrl(blog), true), "\"/>\n  <link rel=\"self\" type=\"application/atom+xml\" href=\"",
                          Esc(FeedUrl(blog), true), "\"/>\n  <id>", Esc(HomeUrl(blog)), "</id>\n  <updated>", updated,
                          "</updated>\n", body, "</feed>\n");
  }
  return xml;
}

}  // namespace vertex::demo::blog
