#include "common/demo/blog_site.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "common/demo/blog_model.h"
#include "common/demo/markup_util.h"
#include "common/demo/text_util.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "common/util/status_macros.h"

namespace vertex::demo {
namespace {

using blog::Blog;
using blog::Post;

constexpr int kMaxPosts = 10000;

absl::Status Validate(const BlogSiteOptions& o) {
  auto bad = [](const std::string& what) { return absl::InvalidArgumentError("blog site: " + what); };
  if (o.posts < 1 || o.posts > kMaxPosts) return bad(absl::StrCat("posts ", o.posts, " not in 1..", kMaxPosts));
  if (o.home_entries < 1 || o.home_entries > 100) {
    return bad(absl::StrCat("home_entries ", o.home_entries, " not in 1..100"));
  }
  if (o.feed_items < 1 || o.feed_items > 1000) {
    return bad(absl::StrCat("feed_items ", o.feed_items, " not in 1..1000"));
  }
  if (o.redesign < 0 || o.redesign > 1) return bad(absl::StrCat("redesign ", o.redesign, " not 0 or 1"));
  if (o.host.empty() || o.host.find_first_of("/?#@: \t\"'<>&") != std::string::npos) {
    return bad("host '" + o.host + "' is not a bare host name");
  }
  return absl::OkStatus();
}

// Whether some list page shows two posts of one day (on the home page,
// where WTM learns).
bool HomeSharesADay(const Blog& b) {
  const size_t n = std::min<size_t>(b.posts.size(), b.options.home_entries);
  for (size_t i = 1; i < n; ++i) {
    if (b.posts[i].time.Days() == b.posts[i - 1].time.Days()) return true;
  }
  return false;
}

// The posts both the feed and the home page carry: what WTM labels.
std::vector<const Post*> Labelled(const Blog& b) {
  std::vector<const Post*> out;
  const size_t n = std::min<size_t>(
      {b.posts.size(), static_cast<size_t>(b.options.home_entries), static_cast<size_t>(b.options.feed_items)});
  for (size_t i = 0; i < n; ++i) out.push_back(&b.posts[i]);
  return out;
}

int ExpectedTitle(const Blog& b) {
  const BlogSiteOptions& o = b.options;
  if (o.title_variation != TitleVariation::kSame) {
    for (const Post* p : Labelled(b)) {
      if (blog::PageTitle(*p, o.title_variation, true) != p->title) {
        return o.title_variation == TitleVariation::kAbbreviated ? 1 : 3;
      }
    }
  }
  return o.noisy_whitespace ? 6 : 0;
}

int ExpectedBody(const Blog& b) {
  const BlogSiteOptions& o = b.options;
  if (o.partial_description) return 4;
  if (o.read_more) {
    for (const Post* p : Labelled(b)) {
      if (p->paragraphs.size() > 1) return 1;
    }
  }
  return o.noisy_whitespace ? 6 : 0;
}

int ExpectedLink(const Blog& b) {
  const BlogSiteOptions& o = b.options;
  if (o.link_variation == LinkVariation::kProxy) return 5;
  if (o.link_variation != LinkVariation::kSame) return 8;
  return o.noisy_whitespace && o.feed_format != feed::FeedFormat::kAtom10 ? 6 : 0;
}

int ExpectedDate(const Blog& b) {
  if (b.options.shared_date_headers && HomeSharesADay(b)) return 2;
  return b.options.unusual_date_format ? 7 : 0;
}

}  // namespace

std::string BlogTemplateName(BlogTemplate t) {
  switch (t) {
    case BlogTemplate::kWordPress:
      return "wordpress";
    case BlogTemplate::kBlogger:
      return "blogger";
    case BlogTemplate::kMovableType:
      return "movabletype";
    case BlogTemplate::kTable:
      return "table";
  }
  return "";
}

absl::StatusOr<BlogTemplate> ParseBlogTemplate(absl::string_view name) {
  for (BlogTemplate t :
       {BlogTemplate::kWordPress, BlogTemplate::kBlogger, BlogTemplate::kMovableType, BlogTemplate::kTable}) {
    if (name == BlogTemplateName(t)) return t;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown blog template '", name, "': expected wordpress, blogger, movabletype or table"));
}

namespace {

// Each knob's name, how to set it on options and how to see it set.
struct Knob {
  const char* name;
  void (*set)(BlogSiteOptions*);
  bool (*is_set)(const BlogSiteOptions&);
};

constexpr Knob kKnobs[] = {
    {"partial", [](BlogSiteOptions* o) { o->partial_description = true; },
     [](const BlogSiteOptions& o) { return o.partial_description; }},
    {"title-prefix", [](BlogSiteOptions* o) { o->title_variation = TitleVariation::kPrefix; },
     [](const BlogSiteOptions& o) { return o.title_variation == TitleVariation::kPrefix; }},
    {"title-quotes", [](BlogSiteOptions* o) { o->title_variation = TitleVariation::kTypographicQuotes; },
     [](const BlogSiteOptions& o) { return o.title_variation == TitleVariation::kTypographicQuotes; }},
    {"title-abbreviated", [](BlogSiteOptions* o) { o->title_variation = TitleVariation::kAbbreviated; },
     [](const BlogSiteOptions& o) { return o.title_variation == TitleVariation::kAbbreviated; }},
    {"shared-dates", [](BlogSiteOptions* o) { o->shared_date_headers = true; },
     [](const BlogSiteOptions& o) { return o.shared_date_headers; }},
    {"unusual-dates", [](BlogSiteOptions* o) { o->unusual_date_format = true; },
     [](const BlogSiteOptions& o) { return o.unusual_date_format; }},
    {"link-proxy", [](BlogSiteOptions* o) { o->link_variation = LinkVariation::kProxy; },
     [](const BlogSiteOptions& o) { return o.link_variation == LinkVariation::kProxy; }},
    {"link-relative", [](BlogSiteOptions* o) { o->link_variation = LinkVariation::kRelative; },
     [](const BlogSiteOptions& o) { return o.link_variation == LinkVariation::kRelative; }},
    {"link-tracking", [](BlogSiteOptions* o) { o->link_variation = LinkVariation::kTracking; },
     [](const BlogSiteOptions& o) { return o.link_variation == LinkVariation::kTracking; }},
    {"cdata", [](BlogSiteOptions* o) { o->escaped_description = false; },
     [](const BlogSiteOptions& o) { return !o.escaped_description; }},
    {"noisy", [](BlogSiteOptions* o) { o->noisy_whitespace = true; },
     [](const BlogSiteOptions& o) { return o.noisy_whitespace; }},
    {"read-more", [](BlogSiteOptions* o) { o->read_more = true; },
     [](const BlogSiteOptions& o) { return o.read_more; }},
};

}  // namespace

const std::vector<std::string>& BlogKnobNames() {
  static const std::vector<std::string>* const kNames = [] {
    auto* names = new std::vector<std::string>;
    for (const Knob& k : kKnobs) names->push_back(k.name);
    return names;
  }();
  return *kNames;
}

absl::Status ApplyBlogKnob(absl::string_view knob, BlogSiteOptions* options) {
  for (const Knob& k : kKnobs) {
    if (knob == k.name) {
      k.set(options);
      return absl::OkStatus();
    }
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown blog knob '", knob, "': expected one of ", absl::StrJoin(BlogKnobNames(), ", ")));
}

std::string BlogKnobsString(const BlogSiteOptions& options) {
  std::vector<std::string> set;
  for (const Knob& k : kKnobs) {
    if (k.is_set(options)) set.push_back(k.name);
  }
  return set.empty() ? "clean" : absl::StrJoin(set, "+");
}

absl::StatusOr<BlogSite> GenerateBlogSite(const BlogSiteOptions& options) {
  VERTEX_RETURN_IF_ERROR(Validate(options));
  const Blog b = blog::MakeBlog(options);
  BlogSite site;
  site.options = options;
  site.pages = blog::RenderPages(b);
  for (size_t i = 0; i < site.pages.size(); ++i) site.pages[i].file_name = internal::Pad(i, 4) + ".htm";
  site.feed_url = blog::FeedUrl(b);
  site.feed_xml = blog::FeedXml(b);
  site.expected_wtm = {
      {"title", ExpectedTitle(b)}, {"body", ExpectedBody(b)}, {"link", ExpectedLink(b)}, {"date", ExpectedDate(b)}};
  return site;
}

namespace {

void WriteEntry(const BlogEntryTruth& e, util::JsonWriter& w) {
  w.BeginObject();
  w.Key("title").String(e.title);
  w.Key("permalink").String(e.permalink);
  w.Key("date").String(e.date);
  w.Key("date_iso").String(e.date_iso);
  w.Key("author").String(e.author);
  w.Key("body").String(e.body);
  w.Key("categories").BeginArray();
  for (const std::string& c : e.categories) w.String(c);
  w.EndArray();
  w.EndObject();
}

std::string TruthLine(const BlogPage& page) {
  util::JsonWriter w;
  w.BeginObject();
  w.Key("file").String(page.file_name);
  w.Key("url").String(page.url);
  w.Key("kind").String(page.kind);
  w.Key("in_feed").Bool(page.in_feed);
  w.Key("entries").BeginArray();
  for (const BlogEntryTruth& e : page.entries) WriteEntry(e, w);
  w.EndArray();
  w.EndObject();
  return w.Release() + "\n";
}

}  // namespace

absl::Status WriteBlogSite(const BlogSite& site, const std::string& dir) {
  std::string truth;
  for (const BlogPage& page : site.pages) {
    VERTEX_RETURN_IF_ERROR(
        util::WriteFile(dir + "/" + page.file_name, absl::StrCat("<base href=\"", page.url, "\"/>\n", page.html)));
    truth += TruthLine(page);
  }
  VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/feed.xml", site.feed_xml));
  VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/truth.jsonl", truth));
  util::JsonWriter w;
  w.BeginObject();
  for (const auto& [field, code] : site.expected_wtm) w.Key(field).Int(code);
  w.EndObject();
  VERTEX_RETURN_IF_ERROR(util::WriteFile(dir + "/expected_wtm.json", w.Release() + "\n"));
  return util::WriteFile(dir + "/schema.json", BlogSchemaJson());
}

std::string BlogSchemaJson() {
  return R"({
  "vertical": "blog",
  "attributes": [
    {"name": "title", "mandatory": true, "multi_valued": true},
    {"name": "link", "type": "url", "multi_valued": true},
    {"name": "date", "multi_valued": true},
    {"name": "author", "multi_valued": true},
    {"name": "body", "mandatory": true, "multi_valued": true},
    {"name": "categories", "multi_valued": true}
  ]
}
)";
}

}  // namespace vertex::demo
