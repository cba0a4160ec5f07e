// The blog's pages (blog_site.h) in four templates, each in two designs
// (redesign 0 and 1): list pages (home and older pages, monthly archives,
// category pages) and entry pages, with the sidebar every page shares and
// the truth of the entries each page shows.
#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/demo/blog_model.h"
#include "common/demo/markup_util.h"
#include "common/demo/text_util.h"

namespace vertex::demo::blog {
namespace {

using internal::Esc;
using internal::Pick;
using internal::Slugify;

constexpr const char* kCommenters[] = {"Marta S.", "Pete from Leeds", "anonymous", "R. Gupta",
                                       "Olu",      "Sam W.",          "Kate",      "J. Ferreira"};
constexpr const char* kCommentTexts[] = {"Great post, thanks.",
                                         "I&rsquo;m not sure I agree with the second point.",
                                         "Do you have a source for the numbers?",
                                         "This matches what we saw last year.",
                                         "Bookmarked &mdash; will read it properly tonight.",
                                         "Could you write more about this?"};
constexpr std::pair<const char*, const char*> kBlogroll[] = {
    {"Kitchen Table Economics", "http://kitchentable.example.org/"},
    {"The Tinkerer", "http://tinkerer.example.net/"},
    {"Long Division", "http://longdivision.example.com/"},
    {"Notes from the Stacks", "http://stacks.example.org/blog/"},
    {"Rail & Road", "http://railandroad.example.net/"},
    {"Photo a Day", "http://photoaday.example.com/"}};
constexpr const char* kRoman[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};

// Percent-encodes the bytes URLs in the query and path of the generated
// pages need encoded.
std::string UrlPart(absl::string_view s) {
  return absl::StrReplaceAll(s, {{"%", "%25"}, {":", "%3A"}, {"+", "%2B"}, {" ", "%20"}, {"&", "%26"}});
}

// How the posts of a list page are grouped under date headers.
struct Group {
  std::string header;  // "" for none
  std::vector<const Post*> posts;
};

class Pages {
 public:
  explicit Pages(const Blog& blog)
      : b_(blog),
        o_(blog.options),
        r_(blog.options.redesign == 1),
        noise_(util::Mix64(blog.options.seed ^ 0x9a9e5000e0000000ULL)) {
    sidebar_ = Sidebar();
  }

  std::vector<BlogPage> All();

 private:
  // --- URLs and text ---
  std::string Href(const Post& p) const;
  std::string Path(const std::string& path) const { return absl::StrCat("http://", o_.host, path); }
  std::string OlderPageUrl(int page, const Post& last_shown) const;
  std::string ArchiveUrl(int year, int month) const;
  std::string CategoryUrl(int c) const;
  // Page k (from 0) of category c's list.
  std::string CategoryPageUrl(int c, size_t k) const;
  std::string DateText(const LocalTime& t) const;
  std::string TimeText(const LocalTime& t) const;
  std::string TitleMarkup(const Post& p, bool list_page) const;
  std::string Body(const Post& p, bool list_page, std::string* text, bool* cut);
  std::string Categories(const Post& p, const char* rel) const;
  const char* C(const char* before, const char* after) const { return r_ ? after : before; }

  // --- list pages ---
  BlogPage List(const std::string& kind, const std::string& url, const std::string& heading,
                const std::vector<const Post*>& posts, const std::string& newer, const std::string& older);
  std::vector<Group> Groups(const std::vector<const Post*>& posts) const;
  std::string DayOpen(const std::string& date) const;
  std::string DayClose() const;
  std::string ListEntry(const Post& p, bool own_date, BlogEntryTruth* truth);
  std::string WordPressEntry(const Post& p, bool own_date, const std::string& body, bool cut);
  std::string BloggerEntry(const Post& p, const std::string& body, bool cut, bool list_page);
  std::string MovableTypeEntry(const Post& p, bool own_date, const std::string& body, bool cut);
  std::string TableEntry(const Post& p, bool own_date, const std::string& body, bool cut);
  std::string ReadMore(const Post& p) const;
  std::string ShareBar(const Post& p) const;
  std::string Pager(const std::string& newer, const std::string& older) const;
  std::string Heading(const std::string& heading) const;

  // --- entry pages ---
  BlogPage Entry(const Post& p, const Post* newer, const Post* older);
  std::string EntryArticle(const Post& p, const std::string& body);
  std::string Comments(const Post& p);
  std::string EntryNav(const Post* newer, const Post* older) const;
  std::string CommentForm() const;
  std::string Related(const Post& p) const;

  // --- chrome ---
  std::string Sidebar() const;
  std::string Widget(const std::string& title, const std::vector<std::string>& items) const;
  std::string Calendar() const;
  std::string Document(const std::string& title, const std::string& body_class, const std::string& main) const;

  const Blog& b_;
  const BlogSiteOptions& o_;
  const bool r_;
  util::Rng noise_;  // whitespace noise of page text (noisy_whitespace)
  std::string sidebar_;
};

// ---------------------------------------------------------------------------
// URLs and text.
// ---------------------------------------------------------------------------

std::string Pages::Href(const Post& p) const {
  const std::string url = Permalink(b_, p);
  if (o_.link_variation != LinkVariation::kRelative) return url;
  return url.substr(url.find('/', std::string("http://").size()));
}

std::string Pages::OlderPageUrl(int page, const Post& last_shown) const {
  if (o_.templ == BlogTemplate::kBlogger) {
    return Path(absl::StrCat("/search?updated-max=", UrlPart(Rfc3339(last_shown.time, b_.utc_offset_minutes)),
                             "&max-results=", o_.home_entries));
  }
  return Path(absl::StrCat("/page/", page, "/"));
}

std::string Pages::ArchiveUrl(int year, int month) const {
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return Path(absl::StrFormat("/%04d/%02d/", year, month));
    case BlogTemplate::kBlogger:
      return Path(absl::StrFormat("/%04d_%02d_01_archive.html", year, month));
    case BlogTemplate::kMovableType:
      return Path(absl::StrFormat("/archives/%04d/%02d/", year, month));
    case BlogTemplate::kTable:
      return Path(absl::StrFormat("/archive/%04d-%02d.html", year, month));
  }
  return "";
}

std::string Pages::CategoryUrl(int c) const {
  const std::string& name = b_.categories[c];
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return Path("/category/" + Slugify(name) + "/");
    case BlogTemplate::kBlogger:
      return Path("/search/label/" + UrlPart(name));
    case BlogTemplate::kMovableType:
      return Path("/archives/" + Slugify(name) + "/");
    case BlogTemplate::kTable:
      return Path("/topics/" + Slugify(name) + ".html");
  }
  return "";
}

std::string Pages::CategoryPageUrl(int c, size_t k) const {
  const std::string first = CategoryUrl(c);
  if (k == 0) return first;
  if (o_.templ == BlogTemplate::kBlogger)
    return absl::StrCat(first, "?max-results=", o_.home_entries, "&start=", k * o_.home_entries);
  if (o_.templ == BlogTemplate::kTable) return absl::StrCat(first, "?page=", k + 1);
  return absl::StrCat(first, "page/", k + 1, "/");
}

// The date as the template prints it (unusual_date_format: Roman months
// or "2005/07/22 Fri").
std::string Pages::DateText(const LocalTime& t) const {
  const bool roman_style = o_.templ == BlogTemplate::kWordPress || o_.templ == BlogTemplate::kTable;
  if (o_.unusual_date_format && roman_style) return absl::StrCat(t.day, ".", kRoman[t.month - 1], ".", t.year);
  if (o_.unusual_date_format) {
    return absl::StrFormat("%04d/%02d/%02d %s", t.year, t.month, t.day, WeekdayAbbr(t.Weekday()));
  }
  switch (o_.templ) {
    case BlogTemplate::kBlogger:
      return absl::StrFormat("%s, %s %d, %d", WeekdayName(t.Weekday()), MonthName(t.month), t.day, t.year);
    case BlogTemplate::kTable:
      return absl::StrFormat("%02d/%02d/%04d", t.month, t.day, t.year);
    default:
      return absl::StrFormat("%s %d, %d", MonthName(t.month), t.day, t.year);
  }
}

std::string Pages::TimeText(const LocalTime& t) const {
  const int h12 = t.hour % 12 == 0 ? 12 : t.hour % 12;
  const char* ampm = t.hour < 12 ? "AM" : "PM";
  if (o_.templ == BlogTemplate::kMovableType) return absl::StrFormat("%02d:%02d %s", h12, t.minute, ampm);
  return absl::StrFormat("%d:%02d %s", h12, t.minute, ampm);
}

// The title's markup: with noise, CR LF and tabs around it and one space
// as "&nbsp; ".
std::string Pages::TitleMarkup(const Post& p, bool list_page) const {
  std::string title = Esc(PageTitle(p, o_.title_variation, list_page));
  if (!o_.noisy_whitespace) return title;
  if (const size_t space = title.find(' '); space != std::string::npos) title.replace(space, 1, "&nbsp; ");
  return absl::StrCat("\r\n\t\t", title, "\t\r\n");
}

// The body's markup on a list page (the first paragraph only with
// read_more: `cut`) or an entry page; `text` its text.
std::string Pages::Body(const Post& p, bool list_page, std::string* text, bool* cut) {
  *cut = list_page && o_.read_more && p.paragraphs.size() > 1;
  const std::string markup = BodyMarkup(b_, p, *cut ? 1 : SIZE_MAX);
  std::string rendered = RenderSpaces(markup, o_.noisy_whitespace ? &noise_ : nullptr);
  *text = TextOf(rendered);
  return rendered;
}

std::string Pages::Categories(const Post& p, const char* rel) const {
  std::vector<std::string> links;
  for (int c : p.categories) {
    links.push_back(internal::Link(CategoryUrl(c), Esc(b_.categories[c]), rel));
  }
  return absl::StrJoin(links, ", ");
}

// ---------------------------------------------------------------------------
// List pages.
// ---------------------------------------------------------------------------

// Posts under date headers: one per day with shared_date_headers, one per
// post in Blogger's template otherwise, none in the others.
std::vector<Group> Pages::Groups(const std::vector<const Post*>& posts) const {
  std::vector<Group> groups;
  for (const Post* p : posts) {
    const bool same_day = !groups.empty() && groups.back().posts.back()->time.Days() == p->time.Days();
    if (o_.shared_date_headers && same_day) {
      groups.back().posts.push_back(p);
    } else if (o_.shared_date_headers || o_.templ == BlogTemplate::kBlogger) {
      groups.push_back({DateText(p->time), {p}});
    } else {
      groups.push_back({"", {p}});
    }
  }
  return groups;
}

std::string Pages::DayOpen(const std::string& date) const {
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<h2 class=\"", C("day-heading", "date-line"), "\">", Esc(date), "</h2>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"", C("date-outer", "day"), "\">\n<h2 class=\"", C("date-header", "day-title"),
                          "\"><span>", Esc(date), "</span></h2>\n<div class=\"", C("date-posts", "day-entries"),
                          "\">\n");
    case BlogTemplate::kMovableType:
      return absl::StrCat("<h2 class=\"", C("date-header", "asset-date"), "\">", Esc(date), "</h2>\n");
    case BlogTemplate::kTable:
      return r_ ? absl::StrCat("<div align=\"right\"><font size=\"1\"><i>", Esc(date), "</i></font></div>\n")
                : absl::StrCat("<p><font size=\"2\" color=\"#666666\"><b>", Esc(date), "</b></font></p>\n");
  }
  return "";
}

std::string Pages::DayClose() const { return o_.templ == BlogTemplate::kBlogger ? "</div>\n</div>\n" : ""; }

std::string Pages::ReadMore(const Post& p) const {
  return absl::StrCat("<p class=\"", C("more-link", "continue"), "\"><a href=\"", Esc(Href(p), true),
                      "#more\">Read more &raquo;</a></p>\n");
}

// "Share this" links under each entry of a list page.
std::string Pages::ShareBar(const Post& p) const {
  const std::string url = UrlPart(Permalink(b_, p));
  const std::string links =
      absl::StrCat("<a class=\"share-email\" href=\"mailto:?subject=", internal::Slugify(p.title), "&amp;body=", url,
                   "\">Email</a> ", "<a class=\"share-twitter\" href=\"http://twitter.example.com/share?url=", url,
                   "\">Twitter</a> ", "<a class=\"share-facebook\" href=\"http://facebook.example.com/sharer?u=", url,
                   "\">Facebook</a>");
  if (o_.templ == BlogTemplate::kTable)
    return absl::StrCat("<tr><td colspan=\"2\"><font size=\"1\">Share: ", links, "</font></td></tr>\n");
  return absl::StrCat("<div class=\"", C("share-bar", "social"), "\"><span>Share this:</span> ", links, "</div>\n");
}

std::string Pages::WordPressEntry(const Post& p, bool own_date, const std::string& body, bool cut) {
  const std::string href = Esc(Href(p), true);
  const std::string title = absl::StrCat("<h2 class=\"", C("entry-title", "story-heading"), "\"><a href=\"", href,
                                         "\" rel=\"bookmark\">", TitleMarkup(p, true), "</a></h2>\n");
  std::string meta = absl::StrCat("<div class=\"", C("entry-meta", "story-meta"), "\">");
  if (own_date) {
    absl::StrAppend(&meta, "<span class=\"posted-on\">Posted on <a href=\"", href,
                    "\" rel=\"bookmark\"><time class=\"entry-date\" datetime=\"",
                    Rfc3339(p.time, b_.utc_offset_minutes), "\">", Esc(DateText(p.time)), "</time></a></span> ");
  }
  absl::StrAppend(&meta, "<span class=\"byline\">by <span class=\"author vcard\"><a class=\"url fn n\" href=\"",
                  Path("/author/" + Slugify(b_.authors[p.author]) + "/"), "\">", Esc(b_.authors[p.author]),
                  "</a></span></span></div>\n");
  std::string out = absl::StrCat("<article id=\"post-", p.id, "\" class=\"", C("post hentry", "story"), "\">\n");
  absl::StrAppend(&out, r_ ? meta : "",
                  r_ ? title : absl::StrCat("<header class=\"entry-header\">\n", title, "</header>\n"), r_ ? "" : meta);
  absl::StrAppend(&out, "<div class=\"", C("entry-content", "story-text"), "\">\n", body, "\n</div>\n");
  if (cut) out += ReadMore(p);
  absl::StrAppend(&out, "<footer class=\"", C("entry-footer", "story-footer"),
                  "\"><span class=\"cat-links\">Posted in ", Categories(p, "rel=\"category tag\""),
                  "</span> | <span class=\"comments-link\"><a href=\"", href, "#comments\">Comments (", p.comments,
                  ")</a></span> | <span class=\"permalink\"><a href=\"", href, "\">Permalink</a></span></footer>\n",
                  ShareBar(p), "</article>\n");
  return out;
}

std::string Pages::BloggerEntry(const Post& p, const std::string& body, bool cut, bool list_page) {
  const std::string href = Esc(Href(p), true);
  const std::string footer = absl::StrCat(
      "<div class=\"", C("post-footer", "entry-meta"), "\">\n<div class=\"post-footer-line post-footer-line-1\">",
      "<span class=\"post-author vcard\">posted by <span class=\"fn\">", Esc(b_.authors[p.author]),
      "</span></span> <span class=\"post-timestamp\">at <a class=\"timestamp-link\" href=\"", href,
      "\" rel=\"bookmark\" title=\"permanent link\"><abbr class=\"published\" title=\"",
      Rfc3339(p.time, b_.utc_offset_minutes), "\">", TimeText(p.time),
      "</abbr></a></span> <span class=\"post-comment-link\"><a class=\"comment-link\" href=\"", href, "#comments\">",
      p.comments, p.comments == 1 ? " comment" : " comments", "</a></span></div>\n",
      "<div class=\"post-footer-line post-footer-line-2\"><span class=\"post-labels\">Labels: ",
      Categories(p, "rel=\"tag\""), "</span></div>\n</div>\n");
  std::string out = absl::StrCat("<div class=\"", C("post-outer", "entry-wrap"), "\">\n<div class=\"",
                                 C("post hentry", "blog-entry"), "\">\n<a name=\"", p.id, "\"></a>\n");
  absl::StrAppend(&out, "<h3 class=\"", C("post-title entry-title", "entry-heading"), "\"><a href=\"", href, "\">",
                  TitleMarkup(p, list_page), "</a></h3>\n");
  if (r_) out += footer;
  absl::StrAppend(&out, "<div class=\"", C("post-body entry-content", "entry-text"), "\" id=\"post-body-", p.id,
                  "\">\n", body, "\n<div style=\"clear: both;\"></div>\n</div>\n");
  if (cut) out += ReadMore(p);
  if (!r_) out += footer;
  if (list_page) out += ShareBar(p);
  return out + "</div>\n</div>\n";
}

std::string Pages::MovableTypeEntry(const Post& p, bool own_date, const std::string& body, bool cut) {
  const std::string href = Esc(Href(p), true);
  std::string footer = absl::StrCat("<p class=\"", C("entry-footer", "asset-footer"),
                                    "\"><span class=\"post-footers\">Posted by <span class=\"author\">",
                                    Esc(b_.authors[p.author]), "</span>");
  if (own_date) absl::StrAppend(&footer, " on <span class=\"entry-date\">", Esc(DateText(p.time)), "</span>");
  absl::StrAppend(&footer, " at ", TimeText(p.time),
                  "</span> <span class=\"separator\">|</span> <a class=\"permalink\" href=\"", href,
                  "\">Permalink</a> <span class=\"separator\">|</span> <a href=\"", href, "#comments\">Comments (",
                  p.comments, ")</a> <span class=\"separator\">|</span> Filed under ", Categories(p, ""), "</p>\n");
  std::string out =
      absl::StrCat("<!-- entry -->\n<div class=\"", C("entry", "asset-item"), "\" id=\"", C("entry-", "asset-"), p.id,
                   "\">\n<h3 class=\"", C("entry-header", "asset-title"), "\">", TitleMarkup(p, true), "</h3>\n");
  if (r_) out += footer;
  absl::StrAppend(&out, "<div class=\"", C("entry-content", "asset-text"), "\">\n<div class=\"",
                  C("entry-body", "asset-main"), "\">\n", body, "\n</div>\n", cut ? ReadMore(p) : "", "</div>\n");
  if (!r_) out += footer;
  return out + ShareBar(p) + "</div>\n<!-- /entry -->\n";
}

std::string Pages::TableEntry(const Post& p, bool own_date, const std::string& body, bool cut) {
  const std::string href = Esc(Href(p), true);
  const std::string title_row = absl::StrCat(
      "<tr><td bgcolor=\"", C("#ccccff", "#ffeecc"), "\"><font face=\"Verdana\" size=\"3\"><b>", TitleMarkup(p, true),
      "</b></font></td><td align=\"right\" bgcolor=\"", C("#ccccff", "#ffeecc"), "\">",
      own_date ? absl::StrCat("<font size=\"1\">", Esc(DateText(p.time)), "</font>") : "&nbsp;", "</td></tr>\n");
  const std::string body_row = absl::StrCat("<tr><td colspan=\"2\">\n", body, "\n</td></tr>\n");
  std::string out = absl::StrCat("<table width=\"100%\" border=\"", C("0", "1"), "\" cellspacing=\"0\" cellpadding=\"",
                                 C("4", "6"), "\">\n");
  absl::StrAppend(&out, r_ ? body_row : title_row, r_ ? title_row : body_row);
  if (cut) absl::StrAppend(&out, "<tr><td colspan=\"2\"><a href=\"", href, "#more\">Read more...</a></td></tr>\n");
  absl::StrAppend(&out, "<tr><td colspan=\"2\" align=\"right\"><font size=\"1\"><a href=\"", href,
                  "\">link</a> | <a href=\"", href, "#comments\">", p.comments, " comments</a></font></td></tr>\n",
                  ShareBar(p), "</table>\n<br>\n");
  return out;
}

// One entry of a list page; fills `truth` but for its date.
std::string Pages::ListEntry(const Post& p, bool own_date, BlogEntryTruth* truth) {
  truth->title = PageTitle(p, o_.title_variation, true);
  truth->permalink = Permalink(b_, p);
  truth->date_iso = IsoDate(p.time);
  if (own_date) truth->date = DateText(p.time);
  bool cut = false;
  const std::string body = Body(p, true, &truth->body, &cut);
  if (o_.templ != BlogTemplate::kTable) {
    truth->author = b_.authors[p.author];
    for (int c : p.categories) truth->categories.push_back(b_.categories[c]);
  }
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return WordPressEntry(p, own_date, body, cut);
    case BlogTemplate::kBlogger:
      return BloggerEntry(p, body, cut, true);
    case BlogTemplate::kMovableType:
      return MovableTypeEntry(p, own_date, body, cut);
    case BlogTemplate::kTable:
      return TableEntry(p, own_date, body, cut);
  }
  return "";
}

std::string Pages::Pager(const std::string& newer, const std::string& older) const {
  auto link = [](const std::string& url, const char* text, const char* cls) {
    return url.empty() ? std::string()
                       : absl::StrCat("<a class=\"", cls, "\" href=\"", Esc(url, true), "\">", text, "</a>");
  };
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<nav class=\"", C("navigation posts-navigation", "pager"), "\"><div class=\"nav-links\">",
                          link(older, "Older posts", "nav-previous"), " ", link(newer, "Newer posts", "nav-next"),
                          "</div></nav>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"blog-pager\" id=\"blog-pager\">",
                          link(newer, "Newer Posts", "blog-pager-newer-link"), " <a class=\"home-link\" href=\"",
                          HomeUrl(b_), "\">Home</a> ", link(older, "Older Posts", "blog-pager-older-link"), "</div>\n");
    case BlogTemplate::kMovableType:
      return absl::StrCat("<div class=\"content-nav\">", link(newer, "&laquo; Newer", "newer"), " | <a href=\"",
                          HomeUrl(b_), "\">Main</a> | ", link(older, "Older &raquo;", "older"), "</div>\n");
    case BlogTemplate::kTable:
      return absl::StrCat("<p align=\"center\"><font size=\"2\">", link(newer, "&lt;&lt; newer", "n"), " | ",
                          link(older, "older &gt;&gt;", "o"), "</font></p>\n");
  }
  return "";
}

std::string Pages::Heading(const std::string& heading) const {
  if (heading.empty()) return "";
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<header class=\"page-header\"><h1 class=\"page-title\">", Esc(heading), "</h1></header>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"status-msg-wrap\"><div class=\"status-msg-body\">", Esc(heading),
                          "</div></div>\n");
    case BlogTemplate::kMovableType:
      return absl::StrCat("<h1 class=\"archive-title\">", Esc(heading), "</h1>\n");
    case BlogTemplate::kTable:
      return absl::StrCat("<font size=\"3\"><b>", Esc(heading), "</b></font><br><br>\n");
  }
  return "";
}

BlogPage Pages::List(const std::string& kind, const std::string& url, const std::string& heading,
                     const std::vector<const Post*>& posts, const std::string& newer, const std::string& older) {
  BlogPage page;
  page.kind = kind;
  page.url = url;
  std::string main = Heading(heading);
  if (heading.empty() && o_.templ == BlogTemplate::kWordPress) {  // as TwentySixteen titles its posts page
    main = "<header class=\"page-header\"><h1 class=\"page-title screen-reader-text\">Posts</h1></header>\n";
  }
  for (const Group& g : Groups(posts)) {
    if (!g.header.empty()) main += DayOpen(g.header);
    for (size_t i = 0; i < g.posts.size(); ++i) {
      BlogEntryTruth truth;
      main += ListEntry(*g.posts[i], g.header.empty(), &truth);
      if (!g.header.empty() && i == 0) truth.date = g.header;
      page.entries.push_back(std::move(truth));
    }
    if (!g.header.empty()) main += DayClose();
  }
  main += Pager(newer, older);
  page.html = Document(heading.empty() ? b_.name : absl::StrCat(b_.name, ": ", heading), kind, main);
  return page;
}

// ---------------------------------------------------------------------------
// Entry pages.
// ---------------------------------------------------------------------------

std::string Pages::Comments(const Post& p) {
  util::Rng rng(util::Mix64(o_.seed * 1000003 + p.id));
  std::string out;
  for (int i = 0; i < p.comments; ++i) {
    const int64_t days = p.time.Days() + rng.Range(0, 3);
    LocalTime t = FromDays(days);
    t.hour = days == p.time.Days() ? std::min(23, p.time.hour + static_cast<int>(rng.Range(1, 4)))
                                   : static_cast<int>(rng.Range(0, 23));
    t.minute = static_cast<int>(rng.Range(0, 59));
    const std::string who = Esc(Pick(rng, kCommenters));
    const std::string when = absl::StrCat(Esc(DateText(t)), " at ", TimeText(t));
    const std::string text = Pick(rng, kCommentTexts);
    switch (o_.templ) {
      case BlogTemplate::kWordPress:
        absl::StrAppend(
            &out,
            "<li class=\"comment\"><article class=\"comment-body\"><footer class=\"comment-meta\"><b class=\"fn\">",
            who, "</b> <span class=\"comment-date\">", when, "</span></footer><div class=\"comment-content\"><p>", text,
            "</p></div></article></li>\n");
        break;
      case BlogTemplate::kBlogger:
        absl::StrAppend(&out, "<dt class=\"comment-author\">", who, " said...</dt>\n<dd class=\"comment-body\"><p>",
                        text, "</p></dd>\n<dd class=\"comment-footer\"><span class=\"comment-timestamp\">", when,
                        "</span></dd>\n");
        break;
      case BlogTemplate::kMovableType:
        absl::StrAppend(&out, "<div class=\"comment\"><div class=\"comment-header\"><span class=\"vcard author\">", who,
                        "</span> | <span class=\"published\">", when, "</span></div><div class=\"comment-content\"><p>",
                        text, "</p></div></div>\n");
        break;
      case BlogTemplate::kTable:
        absl::StrAppend(&out, "<tr><td><font size=\"1\"><b>", who, "</b> wrote on ", when, ":</font><br>", text,
                        "</td></tr>\n");
        break;
    }
  }
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<div id=\"comments\" class=\"", C("comments-area", "responses"),
                          "\"><h2 class=\"comments-title\">", p.comments,
                          " thoughts</h2>\n<ol class=\"comment-list\">\n", out, "</ol></div>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"", C("comments", "feedback"), "\" id=\"comments\"><h4>", p.comments,
                          " comments:</h4>\n<dl id=\"comments-block\">\n", out, "</dl></div>\n");
    case BlogTemplate::kMovableType:
      return absl::StrCat("<div id=\"comments\" class=\"", C("comments", "asset-comments"),
                          "\"><h2 class=\"comments-header\">", p.comments,
                          " Comments</h2>\n<div class=\"comments-content\">\n", out, "</div></div>\n");
    case BlogTemplate::kTable:
      return absl::StrCat("<hr>\n<font size=\"2\"><b>Comments</b></font>\n<table width=\"100%\" cellpadding=\"",
                          C("2", "5"), "\">\n", out, "</table>\n");
  }
  return "";
}

std::string Pages::EntryNav(const Post* newer, const Post* older) const {
  auto link = [this](const Post* p, const char* before, const char* after) {
    return p == nullptr ? std::string()
                        : absl::StrCat("<a href=\"", Esc(Href(*p), true), "\">", before,
                                       Esc(PageTitle(*p, o_.title_variation, true)), after, "</a>");
  };
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<nav class=\"navigation post-navigation\"><div class=\"nav-previous\">",
                          link(older, "&laquo; ", ""), "</div><div class=\"nav-next\">", link(newer, "", " &raquo;"),
                          "</div></nav>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"blog-pager\" id=\"blog-pager\">", newer ? link(newer, "Newer Post: ", "") : "",
                          " <a class=\"home-link\" href=\"", HomeUrl(b_), "\">Home</a> ",
                          older ? link(older, "Older Post: ", "") : "", "</div>\n");
    case BlogTemplate::kMovableType:
      return absl::StrCat("<p class=\"content-nav\">", link(older, "&laquo; ", ""), " | <a href=\"", HomeUrl(b_),
                          "\">Main</a> | ", link(newer, "", " &raquo;"), "</p>\n");
    case BlogTemplate::kTable:
      return absl::StrCat("<p><font size=\"1\">", link(older, "&lt;&lt; ", ""), " | ", link(newer, "", " &gt;&gt;"),
                          "</font></p>\n");
  }
  return "";
}

std::string Pages::EntryArticle(const Post& p, const std::string& body) {
  const std::string href = Esc(Href(p), true);
  const std::string author = Esc(b_.authors[p.author]);
  const std::string date = Esc(DateText(p.time));
  const std::string iso = Rfc3339(p.time, b_.utc_offset_minutes);
  const std::string title = TitleMarkup(p, false);
  switch (o_.templ) {
    case BlogTemplate::kWordPress: {
      const std::string head = absl::StrCat("<h1 class=\"", C("entry-title", "story-title"), "\">", title, "</h1>\n");
      const std::string meta =
          absl::StrCat("<div class=\"", C("entry-meta", "story-byline"), "\">Posted on <a href=\"", href,
                       "\" rel=\"bookmark\"><time class=\"entry-date published\" datetime=\"", iso, "\">", date,
                       "</time></a> by <span class=\"author vcard\"><a class=\"url fn n\" href=\"",
                       Path("/author/" + Slugify(b_.authors[p.author]) + "/"), "\">", author, "</a></span></div>\n");
      return absl::StrCat("<nav class=\"breadcrumbs\"><a href=\"", HomeUrl(b_), "\">Home</a> &raquo; <a href=\"",
                          CategoryUrl(p.categories[0]), "\">", Esc(b_.categories[p.categories[0]]), "</a></nav>\n",
                          "<article id=\"post-", p.id, "\" class=\"", C("post single hentry", "story story-single"),
                          "\">\n<header class=\"entry-header\">\n", r_ ? meta + head : head + meta,
                          "</header>\n<div class=\"", C("entry-content", "story-text"), "\">\n", body,
                          "\n</div>\n<footer class=\"entry-footer\">Posted in ", Categories(p, "rel=\"category tag\""),
                          ". Bookmark the <a href=\"", href,
                          "\" rel=\"bookmark\">permalink</a>.</footer>\n</article>\n");
    }
    case BlogTemplate::kBlogger:
      return absl::StrCat(DayOpen(DateText(p.time)), BloggerEntry(p, body, false, false), DayClose());
    case BlogTemplate::kMovableType: {
      const std::string meta =
          absl::StrCat("<div class=\"asset-meta\"><span class=\"byline\">By <span class=\"vcard author\">", author,
                       "</span> on <abbr class=\"published\" title=\"", iso, "\">", date, "</abbr></span></div>\n");
      return absl::StrCat("<div class=\"", C("entry-asset asset", "asset-single"), "\" id=\"entry-", p.id,
                          "\">\n<div class=\"asset-header\">\n<h1 class=\"",
                          C("asset-name entry-title", "asset-heading"), "\">", title, "</h1>\n", meta,
                          "</div>\n<div class=\"", C("asset-content", "asset-text"),
                          "\">\n<div class=\"asset-body\">\n", body, "\n</div>\n</div>\n<div class=\"asset-footer\">",
                          "<div class=\"entry-categories\"><h4>Categories</h4> ", Categories(p, "rel=\"tag\""),
                          "</div> <a class=\"permalink\" href=\"", href, "\">Permalink</a></div>\n</div>\n");
    }
    case BlogTemplate::kTable: {
      const std::string head = absl::StrCat("<h2><font face=\"Verdana\">", title, "</font></h2>\n");
      const std::string meta = absl::StrCat("<p><font size=\"1\">Posted on <font color=\"#666666\">", date,
                                            "</font> at ", TimeText(p.time), " by <b>", author, "</b></font></p>\n");
      return absl::StrCat("<div align=\"", C("left", "center"), "\">\n", r_ ? meta + head : head + meta, "<div>\n",
                          body, "\n</div>\n<p><font size=\"1\">Filed under: ", Categories(p, ""), " | <a href=\"", href,
                          "\">Permalink</a></font></p>\n</div>\n");
    }
  }
  return "";
}

// The "Leave a comment" form under the comments.
std::string Pages::CommentForm() const {
  struct Field {
    const char* name;
    const char* label;
  };
  static constexpr Field kFields[] = {{"author", "Name"}, {"email", "Email"}, {"url", "Website"}};
  const std::string action =
      Path(o_.templ == BlogTemplate::kMovableType ? "/cgi-bin/mt/mt-comments.cgi" : "/comments/post");
  if (o_.templ == BlogTemplate::kTable) {
    std::string rows;
    for (const Field& f : kFields) {
      absl::StrAppend(&rows, "<tr><td><font size=\"1\">", f.label, ":</font></td><td><input type=\"text\" name=\"",
                      f.name, "\" size=\"30\"></td></tr>\n");
    }
    return absl::StrCat("<form method=\"post\" action=\"", action, "\">\n<table border=\"0\">\n", rows,
                        "<tr><td colspan=\"2\"><textarea name=\"text\" rows=\"8\" cols=\"50\"></textarea></td></tr>\n",
                        "<tr><td colspan=\"2\"><input type=\"submit\" value=\"Post\"></td></tr>\n</table>\n</form>\n");
  }
  std::string fields;
  for (const Field& f : kFields) {
    absl::StrAppend(&fields, "<p class=\"comment-form-", f.name, "\"><label for=\"", f.name, "\">", f.label,
                    "</label> <input id=\"", f.name, "\" name=\"", f.name, "\" type=\"text\" size=\"30\"></p>\n");
  }
  return absl::StrCat(
      "<div id=\"respond\" class=\"", C("comment-respond", "reply-box"), "\">\n<h3 class=\"",
      C("comment-reply-title", "reply-title"), "\">Leave a comment</h3>\n<form action=\"", action,
      "\" method=\"post\" id=\"commentform\">\n",
      "<p class=\"comment-notes\">Your email address will not be published.</p>\n", fields,
      "<p class=\"comment-form-comment\"><label for=\"comment\">Comment</label> <textarea id=\"comment\" ",
      "name=\"comment\" cols=\"45\" rows=\"8\"></textarea></p>\n<p class=\"form-submit\"><input name=\"submit\" ",
      "type=\"submit\" value=\"Post Comment\"></p>\n</form>\n</div>\n");
}

// "Related posts": the latest other posts of the post's first category.
std::string Pages::Related(const Post& p) const {
  std::vector<std::string> items;
  for (const Post& other : b_.posts) {
    if (items.size() == 4) break;
    if (&other == &p || other.categories.empty() || other.categories[0] != p.categories[0]) continue;
    items.push_back(absl::StrCat("<a href=\"", Esc(Href(other), true), "\">",
                                 Esc(PageTitle(other, o_.title_variation, true)), "</a>"));
  }
  if (items.empty()) return "";
  std::string list;
  for (const std::string& item : items)
    absl::StrAppend(&list, o_.templ == BlogTemplate::kTable ? "" : "<li>", item,
                    o_.templ == BlogTemplate::kTable ? "<br>\n" : "</li>\n");
  if (o_.templ == BlogTemplate::kTable)
    return absl::StrCat("<p><font size=\"2\"><b>Related</b></font><br>\n", list, "</p>\n");
  return absl::StrCat("<div class=\"", C("related-posts", "more-reading"), "\"><h3>Related posts</h3>\n<ul>\n", list,
                      "</ul>\n</div>\n");
}

BlogPage Pages::Entry(const Post& p, const Post* newer, const Post* older) {
  BlogPage page;
  page.kind = "entry";
  page.url = Permalink(b_, p);
  BlogEntryTruth truth;
  truth.title = PageTitle(p, o_.title_variation, false);
  truth.permalink = page.url;
  truth.date = DateText(p.time);
  truth.date_iso = IsoDate(p.time);
  truth.author = b_.authors[p.author];
  for (int c : p.categories) truth.categories.push_back(b_.categories[c]);
  bool cut = false;
  const std::string body = Body(p, false, &truth.body, &cut);
  page.entries.push_back(std::move(truth));
  const std::string main =
      absl::StrCat(EntryArticle(p, body), Related(p), EntryNav(newer, older), Comments(p), CommentForm());
  page.html = Document(absl::StrCat(b_.name, ": ", PageTitle(p, o_.title_variation, false)), "single", main);
  return page;
}

// ---------------------------------------------------------------------------
// Chrome: the sidebar and the document around the main column.
// ---------------------------------------------------------------------------

std::string Pages::Widget(const std::string& title, const std::vector<std::string>& items) const {
  std::string list;
  switch (o_.templ) {
    case BlogTemplate::kTable:
      for (const std::string& item : items) absl::StrAppend(&list, item, "<br>\n");
      return absl::StrCat("<font size=\"2\"><b>", title, "</b></font><br>\n<font size=\"1\">\n", list, "</font><br>\n");
    default:
      for (const std::string& item : items) absl::StrAppend(&list, "<li>", item, "</li>\n");
  }
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrCat("<section class=\"", C("widget", "box"), "\"><h2 class=\"", C("widget-title", "box-title"),
                          "\">", title, "</h2>\n<ul>\n", list, "</ul></section>\n");
    case BlogTemplate::kBlogger:
      return absl::StrCat("<div class=\"widget ", C("LinkList", "Gadget"), "\"><h2>", title,
                          "</h2>\n<div class=\"widget-content\"><ul>\n", list, "</ul></div></div>\n");
    default:
      return absl::StrCat("<div class=\"", C("module", "widget-box"), "\"><h2 class=\"module-header\">", title,
                          "</h2>\n<div class=\"module-content\"><ul class=\"module-list\">\n", list,
                          "</ul></div></div>\n");
  }
}

// The archive calendar of the newest post's month: its caption links to
// the month's archive, days with posts are bold.
std::string Pages::Calendar() const {
  const LocalTime month = b_.posts.front().time;
  std::map<int, const Post*> first_of_day;
  for (const Post& p : b_.posts) {
    if (p.time.year == month.year && p.time.month == month.month) first_of_day[p.time.day] = &p;
  }
  std::string out = absl::StrCat(
      "<table class=\"", C("calendar", "cal"), "\"><caption><a href=\"", ArchiveUrl(month.year, month.month), "\">",
      MonthName(month.month), " ", month.year,
      "</a></caption>\n<tr><th>M</th><th>T</th><th>W</th><th>T</th><th>F</th><th>S</th><th>S</th></tr>\n<tr>");
  const LocalTime first{month.year, month.month, 1};
  int column = (first.Weekday() + 6) % 7;
  for (int i = 0; i < column; ++i) out += "<td></td>";
  for (int day = 1; day <= 31; ++day) {
    const LocalTime t{month.year, month.month, day};
    if (FromDays(t.Days()).month != month.month) break;
    auto it = first_of_day.find(day);
    out += it == first_of_day.end() ? absl::StrCat("<td>", day, "</td>") : absl::StrCat("<td><b>", day, "</b></td>");
    if (++column % 7 == 0) out += "</tr>\n<tr>";
  }
  return out + "</tr>\n</table>\n";
}

std::string Pages::Sidebar() const {
  std::vector<std::string> recent, categories, archives, blogroll;
  for (size_t i = 0; i < std::min<size_t>(8, b_.posts.size()); ++i) {
    recent.push_back(absl::StrCat("<a href=\"", Esc(Href(b_.posts[i]), true), "\">",
                                  Esc(PageTitle(b_.posts[i], o_.title_variation, true)), "</a>"));
  }
  std::map<int, int> per_category;
  std::map<std::pair<int, int>, int> per_month;
  for (const Post& p : b_.posts) {
    for (int c : p.categories) ++per_category[c];
    ++per_month[{p.time.year, p.time.month}];
  }
  for (const auto& [c, n] : per_category) {
    categories.push_back(absl::StrCat("<a href=\"", CategoryUrl(c), "\">", Esc(b_.categories[c]), "</a> (", n, ")"));
  }
  for (auto it = per_month.rbegin(); it != per_month.rend(); ++it) {
    archives.push_back(absl::StrCat("<a href=\"", ArchiveUrl(it->first.first, it->first.second), "\">",
                                    MonthName(it->first.second), " ", it->first.first, "</a>&nbsp;(", it->second, ")"));
  }
  for (const auto& [name, url] : kBlogroll)
    blogroll.push_back(absl::StrCat("<a href=\"", url, "\">", Esc(name), "</a>"));
  return absl::StrCat(Widget("Recent Posts", recent), Calendar(), Widget("Categories", categories),
                      Widget("Archives", archives), Widget("Blogroll", blogroll));
}

std::string Pages::Document(const std::string& title, const std::string& body_class, const std::string& main) const {
  const bool atom = o_.feed_format == feed::FeedFormat::kAtom10;
  const std::string head =
      absl::StrCat("<head>\n<meta charset=\"utf-8\">\n<title>", Esc(title), "</title>\n<link rel=\"alternate\" type=\"",
                   atom ? "application/atom+xml" : "application/rss+xml", "\" title=\"", Esc(b_.name, true),
                   "\" href=\"", FeedUrl(b_), "\">\n</head>\n");
  const std::string home = HomeUrl(b_);
  std::string masthead, content, side, footer;
  switch (o_.templ) {
    case BlogTemplate::kWordPress:
      masthead = absl::StrCat("<header id=\"masthead\" class=\"site-header\"><p class=\"site-title\"><a href=\"", home,
                              "\" rel=\"home\">", Esc(b_.name), "</a></p><p class=\"site-description\">",
                              Esc(b_.tagline), "</p>\n<nav class=\"main-navigation\"><ul><li><a href=\"", home,
                              "\">Home</a></li><li><a href=\"", home, "about/\">About</a></li></ul></nav></header>\n");
      content = absl::StrCat("<div id=\"primary\" class=\"content-area\"><main id=\"main\" class=\"site-main\">\n",
                             main, "</main></div>\n");
      side = absl::StrCat("<aside id=\"secondary\" class=\"", C("widget-area", "sidebar-column"), "\">\n", sidebar_,
                          "</aside>\n");
      footer = "<footer class=\"site-footer\"><div class=\"site-info\">Proudly powered by WordPress</div></footer>\n";
      break;
    case BlogTemplate::kBlogger:
      masthead =
          absl::StrCat("<div id=\"header-wrapper\"><div class=\"header\"><h1 class=\"title\"><a href=\"", home, "\">",
                       Esc(b_.name), "</a></h1><p class=\"description\">", Esc(b_.tagline), "</p></div></div>\n");
      content = absl::StrCat(
          "<div id=\"main-wrapper\"><div class=\"main section\" id=\"main\"><div class=\"blog-posts hfeed\">\n", main,
          "</div></div></div>\n");
      side = absl::StrCat("<div id=\"sidebar-wrapper\"><div class=\"sidebar section\">\n", sidebar_, "</div></div>\n");
      footer = "<div id=\"footer-wrapper\">Powered by Blogger</div>\n";
      break;
    case BlogTemplate::kMovableType:
      masthead =
          absl::StrCat("<div id=\"banner\"><h1 id=\"banner-header\"><a href=\"", home, "\" accesskey=\"1\">",
                       Esc(b_.name), "</a></h1><h2 id=\"banner-description\">", Esc(b_.tagline), "</h2></div>\n");
      content =
          absl::StrCat("<div id=\"", C("alpha", "center"), "\"><div class=\"content\">\n", main, "</div></div>\n");
      side = absl::StrCat("<div id=\"", C("beta", "right"), "\"><div class=\"sidebar\">\n", sidebar_, "</div></div>\n");
      footer = "<div id=\"footer\">Powered by Movable Type</div>\n";
      break;
    case BlogTemplate::kTable:
      return absl::StrCat(
          "<html>\n", head, "<body bgcolor=\"#ffffff\">\n<table width=\"760\" align=\"center\" border=\"0\">\n",
          "<tr><td colspan=\"2\" bgcolor=\"", C("#336699", "#993333"), "\"><font size=\"5\" color=\"white\"><b>",
          Esc(b_.name), "</b></font><br><font size=\"2\" color=\"white\">", Esc(b_.tagline), "</font></td></tr>\n<tr>",
          r_ ? absl::StrCat("<td width=\"200\" valign=\"top\" bgcolor=\"#eeeeee\">\n", sidebar_, "</td>") : "",
          "<td width=\"560\" valign=\"top\">\n", main, "</td>",
          r_ ? "" : absl::StrCat("<td width=\"200\" valign=\"top\" bgcolor=\"#eeeeee\">\n", sidebar_, "</td>"),
          "</tr>\n<tr><td colspan=\"2\"><font size=\"1\">&copy; ", Esc(b_.name),
          "</font></td></tr>\n</table>\n</body>\n</html>\n");
  }
  const char* wrapper = o_.templ == BlogTemplate::kWordPress ? C("page", "wrap")
                        : o_.templ == BlogTemplate::kBlogger ? C("outer-wrapper", "shell")
                                                             : C("container", "frame");
  return absl::StrCat("<!DOCTYPE html>\n<html lang=\"en\">\n", head, "<body class=\"", body_class, "\">\n<div id=\"",
                      wrapper, "\" class=\"site\">\n", masthead, "<div id=\"content\" class=\"",
                      C("site-content", "columns"), "\">\n", r_ ? side + content : content + side, "</div>\n", footer,
                      "</div>\n</body>\n</html>\n");
}

// ---------------------------------------------------------------------------
// The site.
// ---------------------------------------------------------------------------

std::vector<BlogPage> Pages::All() {
  std::vector<const Post*> all;
  for (const Post& p : b_.posts) all.push_back(&p);
  const size_t per_page = o_.home_entries;
  const size_t home_pages = (all.size() + per_page - 1) / per_page;
  std::vector<BlogPage> pages;
  std::vector<std::string> urls(home_pages);
  for (size_t k = 0; k < home_pages; ++k) {
    urls[k] = k == 0 ? HomeUrl(b_) : OlderPageUrl(static_cast<int>(k + 1), *all[k * per_page - 1]);
  }
  for (size_t k = 0; k < home_pages; ++k) {
    const std::vector<const Post*> shown(all.begin() + k * per_page,
                                         all.begin() + std::min(all.size(), (k + 1) * per_page));
    pages.push_back(List("home", urls[k], "", shown, k ? urls[k - 1] : "", k + 1 < home_pages ? urls[k + 1] : ""));
  }
  std::map<std::pair<int, int>, std::vector<const Post*>> months;
  for (const Post* p : all) months[{p->time.year, p->time.month}].push_back(p);
  for (auto it = months.rbegin(); it != months.rend(); ++it) {
    const auto [year, month] = it->first;
    pages.push_back(List("archive", ArchiveUrl(year, month), absl::StrCat(MonthName(month), " ", year, " Archives"),
                         it->second, "", ""));
  }
  for (size_t c = 0; c < b_.categories.size(); ++c) {
    std::vector<const Post*> filed;
    for (const Post* p : all) {
      if (std::count(p->categories.begin(), p->categories.end(), static_cast<int>(c))) filed.push_back(p);
    }
    const size_t n = (filed.size() + per_page - 1) / per_page;
    for (size_t k = 0; k < n; ++k) {
      const std::vector<const Post*> shown(filed.begin() + k * per_page,
                                           filed.begin() + std::min(filed.size(), (k + 1) * per_page));
      pages.push_back(List("category", CategoryPageUrl(static_cast<int>(c), k),
                           absl::StrCat("Posts filed under ", b_.categories[c]), shown,
                           k ? CategoryPageUrl(static_cast<int>(c), k - 1) : "",
                           k + 1 < n ? CategoryPageUrl(static_cast<int>(c), k + 1) : ""));
    }
  }
  for (size_t i = 0; i < all.size(); ++i) {
    pages.push_back(Entry(*all[i], i ? all[i - 1] : nullptr, i + 1 < all.size() ? all[i + 1] : nullptr));
    pages.back().in_feed = static_cast<int>(i) < o_.feed_items;
  }
  return pages;
}

}  // namespace

std::vector<BlogPage> RenderPages(const Blog& blog) { return Pages(blog).All(); }

}  // namespace vertex::demo::blog
