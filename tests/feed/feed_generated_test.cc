// The matcher over generated blogs (common/demo/blog_site.h): every
// template x failure-class knob, the feed parsed from the generated XML
// (feed.h), every page matched; per field the share of the feed's entry
// pages annotated with the page's true value (BlogEntryTruth), printed as a
// table. The test fails on a wrong annotation (a value found that is not
// the page's truth: the annotator must never teach the learner a wrong
// node); how many are found is reported, not asserted.
#include <cstdio>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/demo/blog_site.h"
#include "common/feed/feed.h"
#include "common/feed/feed_matcher.h"
#include "common/html/page.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "gtest/gtest.h"

namespace vertex::feed {
namespace {

struct Knob {
  const char* name;
  std::function<void(demo::BlogSiteOptions*)> set;
};

const std::vector<Knob>& Knobs() {
  static const std::vector<Knob>* knobs = new std::vector<Knob>{
      {"base", [](demo::BlogSiteOptions*) {}},
      {"partial_description", [](demo::BlogSiteOptions* o) { o->partial_description = true; }},
      {"title_prefix", [](demo::BlogSiteOptions* o) { o->title_variation = demo::TitleVariation::kPrefix; }},
      {"title_typographic", [](demo::BlogSiteOptions* o) { o->title_variation = demo::TitleVariation::kTypographicQuotes; }},
      {"title_abbreviated", [](demo::BlogSiteOptions* o) { o->title_variation = demo::TitleVariation::kAbbreviated; }},
      {"shared_date_headers", [](demo::BlogSiteOptions* o) { o->shared_date_headers = true; }},
      {"unusual_date_format", [](demo::BlogSiteOptions* o) { o->unusual_date_format = true; }},
      {"link_proxy", [](demo::BlogSiteOptions* o) { o->link_variation = demo::LinkVariation::kProxy; }},
      {"link_relative", [](demo::BlogSiteOptions* o) { o->link_variation = demo::LinkVariation::kRelative; }},
      {"link_tracking", [](demo::BlogSiteOptions* o) { o->link_variation = demo::LinkVariation::kTracking; }},
      {"cdata_description", [](demo::BlogSiteOptions* o) { o->escaped_description = false; }},
      {"noisy_whitespace", [](demo::BlogSiteOptions* o) { o->noisy_whitespace = true; }},
      {"read_more", [](demo::BlogSiteOptions* o) { o->read_more = true; }},
  };
  return *knobs;
}

const char* const kFields[] = {"title", "link", "date", "author", "body", "categories"};

// The rendered text of the node an XPath names.
std::string NodeText(const html::Page& page, const std::string& xpath) {
  absl::StatusOr<html::XPath> x = html::XPath::Compile(xpath);
  if (!x.ok()) return "";
  absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
  if (!nodes.ok() || nodes->size() != 1) return "";
  return html::NormalizeSpace(absl::StrJoin(html::RenderedLines(nodes->front()), " "));
}

// Whether a report's value is the page's truth for its field.
bool Correct(const std::string& field, const FieldMatch& m, const demo::BlogEntryTruth& t, const html::Page& page) {
  if (field == "title") return html::FoldText(m.value) == html::FoldText(t.title);
  if (field == "link") return NormalizeUrl(m.value) == NormalizeUrl(t.permalink);
  if (field == "date") return html::FoldText(m.value) == html::FoldText(t.date);
  if (field == "author") return html::FoldText(m.value) == html::FoldText(t.author);
  if (field == "body") return html::FoldText(NodeText(page, m.xpath)) == html::FoldText(t.body);
  for (const std::string& c : t.categories) {
    if (html::FoldText(c) == html::FoldText(m.value)) return true;
  }
  return false;
}

bool HasTruth(const std::string& field, const demo::BlogEntryTruth& t) {
  if (field == "date") return !t.date.empty();
  if (field == "author") return !t.author.empty();
  if (field == "categories") return !t.categories.empty();
  return true;
}

struct Tally {
  int pages = 0;
  // List pages showing >= 2 feed items; those whose title annotation is
  // the page's titles in order (the first ones when partial); wrong ones.
  int list_pages = 0, list_right = 0, list_wrong = 0;
  std::map<std::string, int> correct, truth;
};

// List pages: those showing >= 2 feed items (by permalink) count; one is
// right when its title annotation's values are its entries' titles in page
// order (all of them, or the first ones with `partial`), wrong when
// annotated otherwise.
void CountListPages(const Feed& feed, const demo::BlogSite& site, const FeedMatchResult& r, Tally* t) {
  for (const demo::BlogPage& p : site.pages) {
    if (p.kind == "entry") continue;
    int shown = 0;
    for (const demo::BlogEntryTruth& e : p.entries) {
      for (const FeedItem& i : feed.items) shown += ValueMatchesFeed("link", e.permalink, i, p.url);
    }
    if (shown < 2) continue;
    ++t->list_pages;
    for (const PageAnnotations& pa : r.pages) {
      if (pa.url != p.url) continue;
      for (const v1::Annotation& a : pa.annotations) {
        if (a.attribute() != "title") continue;
        bool right = a.partial() ? a.values_size() <= static_cast<int>(p.entries.size())
                                 : a.values_size() == static_cast<int>(p.entries.size());
        for (int k = 0; right && k < a.values_size(); ++k) {
          right = html::FoldText(a.values(k)) == html::FoldText(p.entries[k].title);
        }
        ++(right ? t->list_right : t->list_wrong);
        if (!right) ADD_FAILURE() << p.url << ": title annotation " << absl::StrJoin(a.values(), " | ");
      }
    }
  }
}

TEST(FeedMatcherGenerated, EveryTemplateAndKnob) {
  const demo::BlogTemplate templates[] = {demo::BlogTemplate::kWordPress, demo::BlogTemplate::kBlogger,
                                          demo::BlogTemplate::kMovableType, demo::BlogTemplate::kTable};
  const FeedFormat formats[] = {FeedFormat::kRss20, FeedFormat::kAtom10, FeedFormat::kRss10, FeedFormat::kRss09x};
  std::printf("%-12s %-20s %6s", "template", "knob", "pages");
  for (const char* f : kFields) std::printf(" %11s", f);
  std::printf("\n");
  std::map<std::string, Tally> totals;
  for (size_t ti = 0; ti < 4; ++ti) {
    for (size_t ki = 0; ki < Knobs().size(); ++ki) {
      demo::BlogSiteOptions o;
      o.templ = templates[ti];
      o.feed_format = formats[(ti + ki) % 4];
      o.posts = 40;
      o.seed = 7 + ti * 31 + ki;
      Knobs()[ki].set(&o);
      absl::StatusOr<demo::BlogSite> site = demo::GenerateBlogSite(o);
      ASSERT_TRUE(site.ok()) << site.status();
      FeedParseOptions po;
      po.url = site->feed_url;
      absl::StatusOr<Feed> feed = ParseFeed(site->feed_xml, po);
      ASSERT_TRUE(feed.ok()) << feed.status();
      html::Parser parser;
      std::vector<html::Page> pages;
      std::vector<const demo::BlogPage*> sources;
      for (const demo::BlogPage& p : site->pages) {
        pages.push_back(parser.Parse(p.html, p.url).value());
        sources.push_back(&p);
      }
      std::vector<const html::Page*> ptrs;
      for (const html::Page& p : pages) ptrs.push_back(&p);
      const FeedMatchResult r = MatchFeed(*feed, ptrs);
      Tally tally;
      for (size_t p = 0; p < pages.size(); ++p) {
        if (sources[p]->kind != "entry" || !sources[p]->in_feed || sources[p]->entries.empty()) continue;
        const demo::BlogEntryTruth& truth = sources[p]->entries[0];
        ++tally.pages;
        for (const std::string field : kFields) {
          if (!HasTruth(field, truth)) continue;
          ++tally.truth[field];
          bool ok = false;
          for (const FieldMatch& m : r.matches) {
            if (m.page_url != pages[p].url() || m.field != field || !m.found) continue;
            const bool right = Correct(field, m, truth, pages[p]);
            EXPECT_TRUE(right) << demo::BlogTemplateName(o.templ) << " " << Knobs()[ki].name << " " << pages[p].url()
                               << " " << field << ": annotated \"" << m.value << "\" (" << m.how << "), truth title \""
                               << truth.title << "\"";
            ok = ok || right;
          }
          tally.correct[field] += ok;
        }
      }
      CountListPages(*feed, *site, r, &tally);
      std::printf("%-12s %-20s %6d", demo::BlogTemplateName(o.templ).c_str(), Knobs()[ki].name, tally.pages);
      for (const char* f : kFields) std::printf(" %5d/%-5d", tally.correct[f], tally.truth[f]);
      std::printf("  lists %d/%d\n", tally.list_right, tally.list_pages);
      EXPECT_EQ(tally.list_wrong, 0) << demo::BlogTemplateName(o.templ) << " " << Knobs()[ki].name;
      Tally& all = totals[Knobs()[ki].name];
      all.pages += tally.pages;
      all.list_pages += tally.list_pages;
      all.list_right += tally.list_right;
      for (const char* f : kFields) {
        all.correct[f] += tally.correct[f];
        all.truth[f] += tally.truth[f];
      }
    }
  }
  std::printf("\nper knob, all templates (share of the feed's entry pages annotated correctly)\n");
  for (const Knob& k : Knobs()) {
    const Tally& t = totals[k.name];
    std::printf("%-20s", k.name);
    for (const char* f : kFields) {
      const auto truth = t.truth.find(f);
      const auto correct = t.correct.find(f);
      const int n = truth == t.truth.end() ? 0 : truth->second, c = correct == t.correct.end() ? 0 : correct->second;
      std::printf(" %s %d/%d", f, c, n);
    }
    std::printf(" list-titles %d/%d", t.list_right, t.list_pages);
    std::printf("\n");
  }
}

}  // namespace
}  // namespace vertex::feed
