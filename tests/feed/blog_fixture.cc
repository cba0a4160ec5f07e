#include "tests/feed/blog_fixture.h"

#include <array>
#include <cstdio>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace vertex::feed::testing_blog {
namespace {

constexpr std::array<const char*, 12> kMonths = {"January", "February", "March",     "April",   "May",      "June",
                                                 "July",    "August",   "September", "October", "November", "December"};

std::string Escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else if (c == '"') out += "&quot;";
    else out += c;
  }
  return out;
}

std::string Href(const Blog& blog, const std::string& absolute) {
  if (!blog.relative_links || absolute.rfind(blog.home_url, 0) != 0) return absolute;
  return "/" + absolute.substr(blog.home_url.size());
}

void SetDate(Post* p, int year, int month, int day) {
  p->year = year;
  p->month = month;
  p->day = day;
  p->date_text = absl::StrCat(kMonths[month - 1], " ", day, ", ", year);
  char iso[16];
  std::snprintf(iso, sizeof iso, "%04d-%02d-%02d", year, month, day);
  p->iso_date = iso;
  p->month_year = absl::StrCat(kMonths[month - 1], " ", year);
  p->link = absl::StrCat("http://blog.example/", year, "/", month, "/", day, "/", p->slug, "/");
}

FeedDate DateOf(const Post& p) {
  FeedDate d;
  d.year = p.year;
  d.month = p.month;
  d.day = p.day;
  d.hour = 9;
  d.minute = 15;
  d.raw = p.iso_date + "T09:15:00Z";
  return d;
}

std::string TitleHtml(const Post& p) {
  return p.page_title_html.empty() ? Escape(p.page_title) : p.page_title_html;
}

std::string DateHtml(const Post& p) { return p.date_html.empty() ? Escape(p.date_text) : p.date_html; }

// The body as a list page shows it: whole, or cut with "Read more".
std::string ListBody(const Blog& b, const Post& p) {
  if (b.read_more_words == 0 || !p.page_body_html.empty()) return p.page_body_html.empty() ? p.BodyHtml() : p.page_body_html;
  return absl::StrCat("<p>", Escape(p.FirstWords(b.read_more_words)), "\xE2\x80\xA6</p><p><a class=\"more-link\" href=\"",
                      Href(b, p.link), "\">Read more \xC2\xBB</a></p>");
}

std::string Body(const Blog& b, const Post& p, bool list) {
  if (list) return ListBody(b, p);
  return p.page_body_html.empty() ? p.BodyHtml() : p.page_body_html;
}

std::string Sidebar(const Blog& b) {
  std::string s = "<div id=\"sidebar\"><h3>Recent posts</h3><ul>";
  for (const Post& p : b.posts) absl::StrAppend(&s, "<li><a href=\"", Href(b, p.link), "\">", TitleHtml(p), "</a></li>");
  s += "</ul><h3>Categories</h3><ul>";
  for (const char* c : {"News", "Tech", "Life", "Garden"}) {
    absl::StrAppend(&s, "<li><a href=\"/category/", c, "/\">", c, "</a></li>");
  }
  return s + "</ul><h3>Blogroll</h3><ul><li><a href=\"http://friend.example/\">A friend</a></li></ul></div>";
}

std::string WordPressPost(const Blog& b, const Post& p, bool list) {
  return absl::StrCat("<div class=\"post\"><h2 class=\"entry-title\"><a href=\"", Href(b, p.link), "\" rel=\"bookmark\">",
                      TitleHtml(p), "</a></h2><div class=\"entry-meta\">Posted on <span class=\"date\">", DateHtml(p),
                      "</span> by <span class=\"author\">", Escape(p.author), "</span></div><div class=\"entry-content\">",
                      Body(b, p, list), "</div><div class=\"entry-footer\">Filed under <a href=\"/category/", p.category,
                      "/\">", p.category, "</a> | <a href=\"", Href(b, p.link), "#comments\">Comments (2)</a></div></div>");
}

std::string BloggerPost(const Blog& b, const Post& p, bool list) {
  return absl::StrCat("<div class=\"post\"><h3 class=\"post-title\"><a href=\"", Href(b, p.link), "\">", TitleHtml(p),
                      "</a></h3><div class=\"post-body\">", Body(b, p, list),
                      "</div><div class=\"post-footer\">posted by <span class=\"post-author\">", Escape(p.author),
                      "</span> at <a class=\"timestamp-link\" href=\"", Href(b, p.link),
                      "\">4:24 PM</a> Labels: <a href=\"/search/label/", p.category, "\">", p.category, "</a></div></div>");
}

std::string MovableTypePost(const Blog& b, const Post& p, bool list) {
  return absl::StrCat("<!-- entry --><div class=\"entry\"><h3 class=\"entry-header\">", TitleHtml(p),
                      "</h3><div class=\"entry-body\">", Body(b, p, list), "</div><p class=\"entry-footer\">Posted by ",
                      Escape(p.author), " on ", DateHtml(p), " | <a href=\"", Href(b, p.link),
                      "\">Permalink</a> | <a href=\"", Href(b, p.link), "#comments\">Comments (2)</a> | <a href=\"/cat/",
                      p.category, "\">", p.category, "</a></p></div><!-- /entry -->");
}

std::string TablePost(const Blog& b, const Post& p, bool list) {
  return absl::StrCat("<table class=\"post\"><tr><td class=\"title\"><b><a href=\"", Href(b, p.link), "\">", TitleHtml(p),
                      "</a></b></td></tr><tr><td class=\"date\"><font size=\"1\">", DateHtml(p),
                      "</font></td></tr><tr><td class=\"body\">", Body(b, p, list), "</td></tr><tr><td class=\"by\">by ",
                      Escape(p.author), " in <a href=\"/c/", p.category, "\">", p.category, "</a></td></tr></table>");
}

// The posts' blocks; Blogger groups posts of one day under one date header.
std::string Posts(const Blog& b, const std::vector<const Post*>& posts, Template t, bool list) {
  std::string out;
  const Post* previous = nullptr;
  for (const Post* p : posts) {
    switch (t) {
      case kWordPress: out += WordPressPost(b, *p, list); break;
      case kMovableType: out += MovableTypePost(b, *p, list); break;
      case kTable: out += TablePost(b, *p, list); break;
      case kBlogger:
        if (previous == nullptr || previous->iso_date != p->iso_date) {
          absl::StrAppend(&out, "<h2 class=\"date-header\"><span>", DateHtml(*p), "</span></h2>");
        }
        out += BloggerPost(b, *p, list);
        break;
    }
    previous = p;
  }
  return out;
}

std::string Wrap(const Blog& b, Template t, const std::string& head_title, const std::string& content) {
  const std::string top = "<div id=\"header\"><h1><a href=\"/\">Daily Blog</a></h1><p>Notes on everything</p></div>";
  const std::string foot = "<div id=\"footer\">Powered by a CMS. &copy; 2005</div>";
  std::string body;
  if (t == kTable) {
    body = absl::StrCat(top, "<table width=\"100%\"><tr><td class=\"nav\" valign=\"top\">", Sidebar(b),
                        "</td><td class=\"main\" valign=\"top\">", content, "</td></tr></table>", foot);
  } else {
    body = absl::StrCat(top, "<div id=\"content\">", content, "</div>", Sidebar(b), foot);
  }
  return absl::StrCat("<!DOCTYPE html><html><head><title>", Escape(head_title), " | Daily Blog</title></head><body>", body,
                      "</body></html>");
}

html::Page Parse(const std::string& html, const std::string& url) {
  html::Parser parser;
  return std::move(parser.Parse(html, url).value());
}

const std::vector<std::string> kTitles = {"Budget vote tonight",         "Why the river flooded again",
                                          "Ten tips for spring gardens", "A new bridge for the old town",
                                          "Notes from the harvest fair", "The library reopens on Monday",
                                          "Rain, rain and more rain",    "What the council decided"};
const std::vector<std::string> kAuthors = {"Ann Smith", "Bob Jones", "Carla Diaz"};
const std::vector<std::string> kCategories = {"News", "Tech", "Life", "Garden"};
const std::vector<std::string> kWords = {"amber",  "birch",  "cedar",   "delta", "ember",  "fjord",  "garnet", "harbor",
                                         "indigo", "juniper", "kettle", "lumen", "meadow", "nectar", "onyx",   "prairie",
                                         "quartz", "raven",  "sierra",  "tundra", "umber",  "violet", "willow", "yarrow"};

std::vector<std::string> Paragraphs(int n) {
  std::vector<std::string> out;
  for (int k = 0; k < 3; ++k) {
    std::vector<std::string> words;
    for (int w = 0; w < 22; ++w) words.push_back(kWords[(n * 7 + k * 5 + w * 3 + w / 8) % kWords.size()]);
    words[3] = absl::StrCat("post", n, "p", k);
    if (k == 1) words[8] = "don\xE2\x80\x99t";  // a typographic apostrophe, &#8217; in the feed
    if (k == 2) words[10] = "rock & roll";
    out.push_back(absl::StrJoin(words, " "));
  }
  return out;
}

}  // namespace

const char* Name(Template t) {
  switch (t) {
    case kWordPress: return "wordpress";
    case kBlogger: return "blogger";
    case kMovableType: return "movable_type";
    case kTable: return "table";
  }
  return "";
}

std::string Post::BodyHtml() const {
  std::string out;
  for (const std::string& p : paragraphs) absl::StrAppend(&out, "<p>", Escape(p), "</p>\n");
  return out;
}

std::string Post::Text() const { return absl::StrJoin(paragraphs, " "); }

size_t Post::WordCount() const { return std::vector<std::string>(absl::StrSplit(Text(), ' ')).size(); }

std::string Post::FirstWords(size_t n) const {
  std::vector<std::string> w = absl::StrSplit(Text(), ' ');
  w.resize(std::min(n, w.size()));
  return absl::StrJoin(w, " ");
}

std::string Post::WordsFrom(size_t n) const {
  std::vector<std::string> w = absl::StrSplit(Text(), ' ');
  return absl::StrJoin(w.begin() + std::min(n, w.size()), w.end(), " ");
}

Blog MakeBlog(int n) {
  Blog b;
  b.feed.format = FeedFormat::kRss20;
  b.feed.title = "Daily Blog";
  b.feed.link = b.home_url;
  for (int i = 0; i < n; ++i) {
    Post p;
    p.title = p.page_title = kTitles[i % kTitles.size()];
    p.slug = absl::StrCat("post-", i);
    p.author = kAuthors[i % kAuthors.size()];
    p.category = kCategories[i % kCategories.size()];
    p.paragraphs = Paragraphs(i);
    SetDate(&p, 2005, 7, 22 - 2 * i);
    b.posts.push_back(p);
    FeedItem item;
    item.title = p.title;
    item.link = p.link;
    item.guid = p.link;
    item.date = DateOf(p);
    item.authors = {p.author};
    item.categories = {p.category};
    // The feed's HTML: its own escaping, &#8217; for the apostrophe.
    std::string html = p.BodyHtml();
    for (size_t at; (at = html.find("\xE2\x80\x99")) != std::string::npos;) html.replace(at, 3, "&#8217;");
    item.content_html = html;
    item.description_html = p.FirstWords(20) + " [&#8230;]";
    b.feed.items.push_back(std::move(item));
  }
  return b;
}

void Blog::SameDay(int a, int b) {
  Post& p = posts[b];
  SetDate(&p, posts[a].year, posts[a].month, posts[a].day);
  feed.items[b].link = feed.items[b].guid = p.link;
  feed.items[b].date = DateOf(p);
}

html::Page Blog::EntryPage(int post, Template t) const {
  const Post& p = posts[post];
  const std::string comments =
      "<div class=\"comments\"><h3>2 Comments</h3><div class=\"comment\">Great post, thanks!</div>"
      "<div class=\"comment\">I disagree with the second point.</div></div>";
  return Parse(Wrap(*this, t, p.page_title, Posts(*this, {&p}, t, /*list=*/false) + comments), p.link);
}

html::Page Blog::ListPage(const std::string& url, const std::vector<int>& which, Template t) const {
  return Parse(ListHtml(which, t), url);
}

std::string Blog::ListHtml(const std::vector<int>& which, Template t) const {
  std::vector<const Post*> shown;
  for (int i : which) shown.push_back(&posts[i]);
  std::vector<Post> extra;
  for (int k = 0; k < extra_entries_on_home; ++k) {
    Post old = MakeBlog(8).posts[7 - k];
    old.title = old.page_title = absl::StrCat("An older entry ", k + 1);
    SetDate(&old, 2005, 6, 10 - k);
    extra.push_back(old);
  }
  for (const Post& old : extra) shown.push_back(&old);
  return Wrap(*this, t, "Home", Posts(*this, shown, t, /*list=*/true));
}

html::Page Blog::HomePage(Template t) const {
  std::vector<int> all;
  for (size_t i = 0; i < posts.size(); ++i) all.push_back(static_cast<int>(i));
  return ListPage(home_url, all, t);
}

html::Page Blog::OldArchivePage(Template t) const {
  Blog old = MakeBlog(8);
  std::vector<const Post*> shown;
  for (Post& p : old.posts) {
    p.title = p.page_title = "Archived: " + p.title + " (2004)";
    for (std::string& para : p.paragraphs) para = "archived " + para;
    SetDate(&p, 2004, 3, p.day - 10);
  }
  for (const Post& p : old.posts) shown.push_back(&p);
  return Parse(Wrap(*this, t, "March 2004", Posts(*this, shown, t, /*list=*/true)), "http://blog.example/2004/03/");
}

}  // namespace vertex::feed::testing_blog
