#include "common/demo/blog_model.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "common/demo/markup_util.h"
#include "common/demo/text_util.h"
#include "common/html/entities.h"
#include "common/html/text.h"

namespace vertex::demo::blog {
namespace {

using internal::Count;
using internal::Pick;
using internal::Slugify;
using util::Rng;

constexpr const char* kBlogNames[] = {"Marginal Notes",    "The Daily Tinker", "Slow Reading",
                                      "Field Notes",       "The Back Bench",   "Loose Threads",
                                      "Against the Grain", "The Long Table",   "Second Drafts"};
constexpr const char* kTaglines[] = {"Notes on economics, books and the occasional train", "Small things, written down",
                                     "Thinking out loud since 2003", "Mostly about the things we build"};
constexpr const char* kAuthors[] = {"Alice Moreno",    "Ben Okafor",    "Clara Lindqvist", "Dmitri Havel",
                                    "Esther Nakamura", "Felix Brennan", "Grace Whitmore",  "Hugo Castellano"};
constexpr const char* kCategories[] = {"Economics",         "Technology",  "Books", "Travel", "Science",
                                       "Politics & Policy", "Photography", "Food",  "Music",  "Cities"};
constexpr const char* kTopics[] = {"Housing Markets", "Open Source",   "Rail Travel",      "Coffee",
                                   "Typography",      "Tax Reform",    "Bird Watching",    "Solar Power",
                                   "Small Banks",     "Sourdough",     "Chess Engines",    "Urban Cycling",
                                   "Patent Law",      "Jazz Records",  "Mountain Weather", "Library Funding",
                                   "Spreadsheets",    "Minimum Wages", "Space Probes",     "Old Cameras"};
// {T} and {U} are two topics; {D} "July 22".
constexpr const char* kShortTitles[] = {"Notes on {T}",
                                        "Why {T} Matters",
                                        "A Week of {T}",
                                        "{T} Revisited",
                                        "The Case Against {T}",
                                        "What I Learned About {T}",
                                        "Q&A: {T}",
                                        "{T} & {U}",
                                        "Links for {D}",
                                        "More on {T}",
                                        "{T}, Again"};
constexpr const char* kQuotedTitles[] = {"The \"{T}\" Problem", "Don't Panic About {T}", "{T} - A Second Look",
                                         "It's Not About {T}",  "\"{T}\" Explained",     "Why I'm Wrong About {T}"};
constexpr const char* kLongTitles[] = {"Some Longer Thoughts on {T}, {U} and What the Numbers Really Tell Us",
                                       "A Reader Asks Whether {T} Will Survive Another Decade of {U}",
                                       "Everything You Always Wanted to Know About {T} (But Were Afraid to Ask)",
                                       "How {T} Quietly Became the Most Interesting Thing in {U} This Year",
                                       "The Long, Strange and Mostly Forgotten History of {T} in Small Towns"};

// Sentences as markup: {t}/{u} topics (lower case), {n} a number, {a} an
// inline link, {q} a quoted phrase in curly quotes. kLinkSentences hold
// the post's inline link (about half of the posts have one).
constexpr const char* kSentences[] = {
    "I spent most of the week reading about {t}, and the picture is messier than the headlines "
    "suggest.",
    "The short version: {t} is cheaper than it was a year ago, but not by much.",
    "A reader wrote in to ask how {t} compares with {u}.",
    "It&rsquo;s worth remembering that nobody predicted this {n} years ago.",
    "The numbers for {t} went up by {n}&nbsp;percent last quarter.",
    "My colleague called it {q}, which seems about right.",
    "I&rsquo;m <em>not</em> convinced the trend will last.",
    "Prices rose from 2003&ndash;2004 and then flattened.",
    "Most of the R&amp;D money still goes to {t}.",
    "More on this tomorrow, if the weather holds.",
    "Several readers pointed out a mistake in the second table, now fixed.",
    "People who care about {t} will disagree, of course.",
    "Three things stood out: cost, speed &amp; reliability.",
    "I have been wrong about {t} before, and I may be wrong again.",
    "The meeting ran {n}&nbsp;minutes over, as usual.",
    "Nobody in the room had heard of {u} before.",
    "&ldquo;Just ship it,&rdquo; she said, and we did.",
    "The <em>real</em> question is who pays for {t}.",
    "Compare that with {u}, where the costs fell by half &mdash; or so they say."};
constexpr const char* kLinkSentences[] = {"There is {a} that makes the case better than I can.",
                                          "You can find the raw data in {a}.",
                                          "See {a} for the other side of the argument."};
constexpr const char* kLinkTexts[] = {"a long piece", "this report", "the full paper", "an interview",
                                      "a short thread"};
constexpr const char* kLinkHosts[] = {"www.example.org", "news.example.com", "papers.example.net"};
constexpr const char* kQuotes[] = {"a slow-motion revolution", "the quiet year", "good enough", "boring on purpose",
                                   "the usual suspects"};
constexpr const char* kMonths[] = {"January", "February", "March",     "April",   "May",      "June",
                                   "July",    "August",   "September", "October", "November", "December"};
constexpr const char* kMonthAbbrs[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
constexpr const char* kWeekdays[] = {"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"};
constexpr const char* kWeekdayAbbrs[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
// The writer's zones, minutes east of UTC.
constexpr int kZones[] = {-300, -420, 60, 330, -240, -300};

// H. Hinnant's civil-from-days.
LocalTime CivilFromDays(int64_t z) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const int64_t doe = z - era * 146097;
  const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const int64_t mp = (5 * doy + 2) / 153;
  LocalTime t;
  t.day = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
  t.month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
  t.year = static_cast<int>(yoe + era * 400 + (t.month <= 2));
  return t;
}

std::string Lower(std::string s) {
  for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
  return s;
}

std::string Title(Rng& rng, const LocalTime& t) {
  const double u = rng.UnitDouble();
  const char* pattern = u < 0.5    ? Pick(rng, kShortTitles)
                        : u < 0.75 ? Pick(rng, kQuotedTitles)
                                   : Pick(rng, kLongTitles);
  const std::string topic = Pick(rng, kTopics);
  std::string other = Pick(rng, kTopics);
  if (other == topic) other = kTopics[0] == topic ? kTopics[1] : kTopics[0];
  return absl::StrReplaceAll(pattern,
                             {{"{T}", topic}, {"{U}", other}, {"{D}", absl::StrCat(MonthName(t.month), " ", t.day)}});
}

// Every space outside a tag becomes kSoftSpace.
std::string SoftenSpaces(absl::string_view markup) {
  std::string out(markup);
  bool in_tag = false;
  for (char& c : out) {
    if (c == '<') in_tag = true;
    if (c == '>') in_tag = false;
    if (c == ' ' && !in_tag) c = kSoftSpace;
  }
  return out;
}

std::string Sentence(Rng& rng, const std::string& topic, const std::string& other, bool link_sentence) {
  const std::string link =
      absl::StrCat("<a href=\"http://", Pick(rng, kLinkHosts), "/", Slugify(topic), "/", rng.Range(100, 999), "\">",
                   Pick(rng, kLinkTexts), " on ", Lower(topic), "</a>");
  return absl::StrReplaceAll(link_sentence ? Pick(rng, kLinkSentences) : Pick(rng, kSentences),
                             {{"{t}", Lower(topic)},
                              {"{u}", Lower(other)},
                              {"{n}", absl::StrCat(rng.Range(2, 40))},
                              {"{a}", link},
                              {"{q}", absl::StrCat("&ldquo;", Pick(rng, kQuotes), "&rdquo;")}});
}

std::vector<std::string> Paragraphs(Rng& rng, const std::string& slug, const std::string& title) {
  const std::string topic = Pick(rng, kTopics);
  const std::string other = Pick(rng, kTopics);
  std::vector<std::string> paragraphs;
  const int n = static_cast<int>(rng.Range(1, 6));
  const bool image = rng.Bernoulli(0.3);  // a picture leads the first paragraph
  // About half of the posts link out once, at the end of the last paragraph.
  const int link_paragraph = rng.Bernoulli(0.5) ? n - 1 : -1;
  for (int i = 0; i < n; ++i) {
    std::string p = "<p>";
    if (i == 0 && image) {
      absl::StrAppend(&p, "<img src=\"/images/", slug, "-", i + 1, ".jpg\" alt=\"", internal::Esc(title, true),
                      "\" width=\"400\" height=\"300\">");
    }
    const int sentences = static_cast<int>(rng.Range(2, 5));
    for (int s = 0; s < sentences; ++s) {
      absl::StrAppend(&p, s ? " " : "", Sentence(rng, topic, other, i == link_paragraph && s == sentences - 1));
    }
    paragraphs.push_back(SoftenSpaces(absl::StrCat(p, "</p>")));
  }
  return paragraphs;
}

std::vector<std::string> Names(Rng& rng, const char* const* names, int count, int take) {
  std::vector<int> order(count);
  for (int i = 0; i < count; ++i) order[i] = i;
  for (int i = count - 1; i > 0; --i) std::swap(order[i], order[rng.Uniform(i + 1)]);
  std::vector<std::string> out;
  for (int i = 0; i < take; ++i) out.push_back(names[order[i]]);
  return out;
}

// The next post's time: the same day a little later, or 1-8 days on.
LocalTime NextTime(Rng& rng, const LocalTime& t, int64_t* days) {
  LocalTime next = t;
  if (rng.Bernoulli(0.22) && t.hour <= 19) {
    next.hour = t.hour + static_cast<int>(rng.Range(1, 3));
  } else {
    *days += rng.Range(1, 8);
    next = CivilFromDays(*days);
    next.hour = static_cast<int>(rng.Range(7, 20));
  }
  next.minute = static_cast<int>(rng.Range(0, 59));
  next.second = static_cast<int>(rng.Range(0, 59));
  return next;
}

Post MakePost(Rng& rng, const Blog& blog, const LocalTime& t, int id, std::set<std::string>* slugs) {
  Post p;
  p.id = id;
  p.time = t;
  // Titles are unique in the blog (a title shared by two posts would make
  // a feed item's title match two entries): drawn again, else numbered.
  p.title = Title(rng, t);
  for (int tries = 0; tries < 20 && slugs->count(Slugify(p.title)); ++tries) p.title = Title(rng, t);
  for (int k = 2; slugs->count(Slugify(p.title)); ++k) p.title = absl::StrCat(Title(rng, t), ", Part ", k);
  p.slug = Slugify(p.title);
  slugs->insert(p.slug);
  p.author = static_cast<int>(rng.Uniform(blog.authors.size()));
  const int categories = static_cast<int>(rng.Range(1, 3));
  for (int c = 0; c < categories; ++c) {
    const int pick = static_cast<int>(rng.Uniform(blog.categories.size()));
    bool seen = false;
    for (int have : p.categories) seen |= have == pick;
    if (!seen) p.categories.push_back(pick);
  }
  p.paragraphs = Paragraphs(rng, p.slug, p.title);
  p.comments = static_cast<int>(rng.Range(1, 6));
  p.updated = rng.Bernoulli(0.3) || id % 5 == 0;  // every fifth at least: each list page shows some
  return p;
}

}  // namespace

LocalTime FromDays(int64_t days) { return CivilFromDays(days); }

int64_t LocalTime::Days() const {
  const int y = year - (month <= 2);
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int LocalTime::Weekday() const {
  const int64_t d = Days();
  return static_cast<int>(d >= -4 ? (d + 4) % 7 : (d + 5) % 7 + 6);
}

Blog MakeBlog(const BlogSiteOptions& options) {
  Rng rng(util::Mix64(options.seed ^ 0xb10c5173e0000000ULL));
  Blog blog;
  blog.options = options;
  blog.name = Pick(rng, kBlogNames);
  blog.tagline = Pick(rng, kTaglines);
  blog.utc_offset_minutes = Pick(rng, kZones);
  blog.authors = Names(rng, kAuthors, Count(kAuthors), static_cast<int>(rng.Range(3, 5)));
  blog.categories = Names(rng, kCategories, Count(kCategories), static_cast<int>(rng.Range(6, 8)));
  std::set<std::string> slugs;
  int64_t days = LocalTime{2005, 1, 3}.Days() + static_cast<int64_t>(rng.Uniform(60));
  LocalTime t = CivilFromDays(days);
  t.hour = 9;
  for (int i = 0; i < options.posts; ++i) {
    if (i > 0) t = NextTime(rng, t, &days);
    blog.posts.push_back(MakePost(rng, blog, t, i + 1, &slugs));
  }
  // The newest post shares its day with the one before (so that the home
  // page always shows a day of two posts), 1-2 hours later.
  if (blog.posts.size() >= 2) {
    const LocalTime before = blog.posts[blog.posts.size() - 2].time;
    LocalTime& last = blog.posts.back().time;
    if (last.Days() != before.Days() && before.hour <= 21) {
      last = before;
      last.hour = before.hour + 1 + static_cast<int>(last.minute % 2);
    }
  }
  std::reverse(blog.posts.begin(), blog.posts.end());
  return blog;
}

std::string HomeUrl(const Blog& blog) { return absl::StrCat("http://", blog.options.host, "/"); }

std::string Permalink(const Blog& blog, const Post& post) {
  const LocalTime& t = post.time;
  switch (blog.options.templ) {
    case BlogTemplate::kWordPress:
      return absl::StrFormat("http://%s/%04d/%02d/%02d/%s/", blog.options.host, t.year, t.month, t.day, post.slug);
    case BlogTemplate::kBlogger:
      return absl::StrFormat("http://%s/%04d/%02d/%s.html", blog.options.host, t.year, t.month, post.slug);
    case BlogTemplate::kMovableType:
      return absl::StrFormat("http://%s/archives/%04d/%02d/%s.html", blog.options.host, t.year, t.month, post.slug);
    case BlogTemplate::kTable:
      return absl::StrFormat("http://%s/entries/%06d.html", blog.options.host, post.id);
  }
  return "";
}

std::string FeedUrl(const Blog& blog) {
  switch (blog.options.feed_format) {
    case feed::FeedFormat::kRss09x:
      return HomeUrl(blog) + "feed/rss/";
    case feed::FeedFormat::kRss10:
      return HomeUrl(blog) + "feed/rdf/";
    case feed::FeedFormat::kRss20:
      return HomeUrl(blog) + "feed/";
    case feed::FeedFormat::kAtom10:
      return HomeUrl(blog) + "feed/atom/";
  }
  return "";
}

const char* MonthName(int month) { return kMonths[(month + 11) % 12]; }
const char* MonthAbbr(int month) { return kMonthAbbrs[(month + 11) % 12]; }
const char* WeekdayName(int weekday) { return kWeekdays[weekday % 7]; }
const char* WeekdayAbbr(int weekday) { return kWeekdayAbbrs[weekday % 7]; }

std::string Rfc822(const LocalTime& t, int offset_minutes) {
  const int off = std::abs(offset_minutes);
  return absl::StrFormat("%s, %02d %s %04d %02d:%02d:%02d %c%02d%02d", WeekdayAbbr(t.Weekday()), t.day,
                         MonthAbbr(t.month), t.year, t.hour, t.minute, t.second, offset_minutes < 0 ? '-' : '+',
                         off / 60, off % 60);
}

std::string Rfc3339(const LocalTime& t, int offset_minutes) {
  const int off = std::abs(offset_minutes);
  return absl::StrFormat("%04d-%02d-%02dT%02d:%02d:%02d%c%02d:%02d", t.year, t.month, t.day, t.hour, t.minute, t.second,
                         offset_minutes < 0 ? '-' : '+', off / 60, off % 60);
}

std::string IsoDate(const LocalTime& t) { return absl::StrFormat("%04d-%02d-%02d", t.year, t.month, t.day); }

std::string BodyMarkup(const Blog& blog, const Post& post, size_t paragraphs) {
  const size_t n = std::min(paragraphs, post.paragraphs.size());
  const std::vector<std::string> shown(post.paragraphs.begin(), post.paragraphs.begin() + n);
  if (blog.options.templ == BlogTemplate::kWordPress) return absl::StrJoin(shown, "\n");
  std::vector<absl::string_view> inner;
  for (const std::string& p : shown) inner.push_back(absl::string_view(p).substr(3, p.size() - 7));  // <p>...</p>
  return absl::StrJoin(inner, "<br />\n<br />\n");
}

std::string RenderSpaces(absl::string_view markup, Rng* noise) {
  static constexpr const char* kNoise[] = {"\t", "\r\n    ", "&nbsp;&nbsp; ", "  ", " "};
  std::string out;
  out.reserve(markup.size() + markup.size() / 8);
  for (char c : markup) {
    if (c != kSoftSpace) {
      out += c;
    } else if (noise == nullptr || !noise->Bernoulli(0.3)) {
      out += ' ';
    } else {
      out += Pick(*noise, kNoise);
    }
  }
  return out;
}

std::string TextOf(absl::string_view markup) {
  std::string text;
  bool in_tag = false;
  for (char c : markup) {
    if (c == '<') {
      in_tag = true;
    } else if (c == '>') {
      in_tag = false;
    } else if (!in_tag) {
      text += c == kSoftSpace ? ' ' : c;
    }
  }
  return html::NormalizeSpace(html::DecodeHtmlEntities(text));
}

std::string Summary(const Post& post, int words) {
  const std::string text = TextOf(absl::StrJoin(post.paragraphs, "\n"));
  std::vector<absl::string_view> all = absl::StrSplit(text, ' ');
  if (static_cast<int>(all.size()) <= words) return text;
  all.resize(words);
  return absl::StrCat(absl::StrJoin(all, " "), " [...]");
}

namespace {

std::string Curl(const std::string& title) {
  std::string out;
  bool open = true;
  for (char c : title) {
    if (c == '"') {
      out += open ? "\u201c" : "\u201d";
      open = !open;
    } else if (c == '\'') {
      out += "\u2019";
    } else {
      out += c;
    }
  }
  return absl::StrReplaceAll(out, {{" - ", " \u2013 "}});
}

// The first kAbbreviateWords words and "...", as themes trim titles
// (WordPress's wp_trim_words).
std::string Abbreviate(const std::string& title) {
  std::vector<absl::string_view> words = absl::StrSplit(title, ' ');
  if (words.size() <= static_cast<size_t>(kAbbreviateWords)) return title;
  words.resize(kAbbreviateWords);
  std::string head = absl::StrJoin(words, " ");
  while (!head.empty() && (head.back() == ',' || head.back() == ':')) head.pop_back();
  return head + "...";
}

}  // namespace

std::string PageTitle(const Post& post, TitleVariation variation, bool list_page) {
  switch (variation) {
    case TitleVariation::kSame:
      return post.title;
    case TitleVariation::kPrefix:
      return post.updated ? "[Updated] " + post.title : post.title;
    case TitleVariation::kTypographicQuotes:
      return Curl(post.title);
    case TitleVariation::kAbbreviated:
      return list_page ? Abbreviate(post.title) : post.title;
  }
  return post.title;
}

}  // namespace vertex::demo::blog
