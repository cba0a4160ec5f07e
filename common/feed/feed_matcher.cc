// MatchFeed and ValueMatchesFeed (feed_matcher.h): pages classified as entry
// or list pages, each item's fields matched (field_matchers.h), reports and
// annotations written.
#include "common/feed/feed_matcher.h"

#include <algorithm>
#include <memory>
#include <string_view>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/feed/field_matchers.h"
#include "common/feed/match_text.h"
#include "common/feed/matcher_internal.h"
#include "common/feed/page_index.h"
#include "common/html/editor_html.h"

namespace vertex::feed {
namespace {

// Every field of one item on one page.
struct ItemHits {
  int item = 0;
  Hit title, body, date, link;
  std::vector<Hit> authors, categories;
};

// The item whose entry page this is (its link, normalised, or without
// tracking parameters, is the page's URL), or -1.
int EntryItem(const Feed& feed, const html::Page& page) {
  const std::string url = NormalizeUrl(page.url());
  const std::string stripped = internal::StripTrackingParameters(url);
  for (size_t i = 0; i < feed.items.size(); ++i) {
    for (const std::string& f : internal::ItemUrlForms(feed.items[i])) {
      if (f == url || f == stripped) return static_cast<int>(i);
    }
  }
  return -1;
}

// The fields after title and body, which are placed by the title and the
// item's region [region_begin, region_end) (ItemPlace).
void MatchRest(const PageIndex& index, const FeedItem& item, size_t region_begin, size_t region_end, ItemHits* h) {
  const ItemPlace place{&h->title, &h->body, region_end, region_begin};
  h->date = MatchDate(index, item, place);
  h->link = MatchLink(index, item, place);
  h->authors = MatchAuthors(index, item, place);
  h->categories = MatchCategories(index, item, place);
}

// The items a page shows with their bodies (a sidebar's "Recent posts"
// shows titles only), in page order; title and body matched.
std::vector<ItemHits> ShownItems(const Feed& feed, const std::vector<FeedText>& texts, const PageIndex& index) {
  std::vector<ItemHits> shown;
  for (size_t i = 0; i < feed.items.size(); ++i) {
    ItemHits h;
    h.item = static_cast<int>(i);
    h.body = MatchBody(index, texts[i], /*list_page=*/true);
    if (!h.body.found) continue;
    h.title = MatchTitle(index, feed.items[i], h.body);
    if (h.title.found) shown.push_back(std::move(h));
  }
  std::sort(shown.begin(), shown.end(), [](const ItemHits& a, const ItemHits& b) { return a.title.rank < b.title.rank; });
  return shown;
}

// Every field of item `e` on its entry page.
ItemHits EntryHits(const Feed& feed, const std::vector<FeedText>& texts, const PageIndex& index, int e) {
  ItemHits h;
  h.item = e;
  h.body = MatchBody(index, texts[e], /*list_page=*/false);
  h.title = MatchTitle(index, feed.items[e], h.body);
  MatchRest(index, feed.items[e], 0, kNoRank, &h);
  return h;
}

// The rank just past the last node of `h`'s found hits before `limit`
// (the next item's title): where the next item's region begins.
size_t PastLastHit(const ItemHits& h, size_t limit) {
  size_t past = 0;
  auto note = [&](const Hit& x) {
    if (!x.found || x.rank >= limit) return;
    const size_t last = x.end_rank == kNoRank ? x.rank : std::min(x.end_rank, limit - 1);
    past = std::max(past, std::max(x.rank, last) + 1);
  };
  for (const Hit* x : {&h.title, &h.body, &h.date, &h.link}) note(*x);
  for (const Hit& x : h.authors) note(x);
  for (const Hit& x : h.categories) note(x);
  return past;
}

// Shared date headers: the items after the first under one date node get
// kSharedDate (the header is annotated once, for the first).
void MarkSharedDates(std::vector<ItemHits>* items) {
  for (size_t k = 0; k < items->size(); ++k) {
    Hit& d = (*items)[k].date;
    if (!d.found) continue;
    size_t sharing = 0, first = k;
    for (size_t j = 0; j < items->size(); ++j) {
      if ((*items)[j].date.found && (*items)[j].date.node == d.node) {
        ++sharing;
        first = std::min(first, j);
      }
    }
    if (first == k) continue;
    d.found = false;
    d.error = WtmError::kSharedDate;
    d.how = absl::StrCat(sharing, " entries share the date header \"", d.value, "\"");
  }
}

Hit MissHit(WtmError error, std::string how) {
  Hit h;
  h.error = error;
  h.how = std::move(how);
  return h;
}

void Report(const FeedItem& item, std::string_view field, const std::string& url, const Hit& h,
            std::vector<FieldMatch>* out) {
  FieldMatch m;
  m.item_link = item.link;
  m.field = std::string(field);
  m.page_url = url;
  m.found = h.found;
  m.wtm_error = h.found ? WtmError::kNone : h.error;
  m.how = h.how;
  if (h.found) {
    m.value = h.value;
    m.xpath = html::NodeXPath(h.node);
  }
  out->push_back(std::move(m));
}

void ReportMany(const FeedItem& item, std::string_view field, const std::string& url, const std::vector<Hit>& hits,
                std::string_view what, std::vector<FieldMatch>* out) {
  if (hits.empty()) {
    Report(item, field, url, MissHit(WtmError::kFeedLimitation, "the feed gives no " + std::string(what)), out);
  }
  for (const Hit& h : hits) Report(item, field, url, h, out);
}

void ReportItem(const FeedItem& item, const std::string& url, const ItemHits& h, std::vector<FieldMatch>* out) {
  Report(item, "title", url, h.title, out);
  Report(item, "link", url, h.link, out);
  Report(item, "date", url, h.date, out);
  ReportMany(item, "author", url, h.authors, "author", out);
  Report(item, "body", url, h.body, out);
  ReportMany(item, "categories", url, h.categories, "category", out);
}

// One attribute's annotated nodes on a page: value (or none: body) and the
// node, in page order.
struct Labelled {
  size_t rank;
  std::string value;
  html::Node node;
};

void Collect(const Hit& h, bool with_value, std::vector<Labelled>* out) {
  if (!h.found) return;
  for (const Labelled& l : *out) {
    if (l.node == h.node && l.value == h.value) return;  // one node, annotated once
  }
  out->push_back({h.rank, with_value ? h.value : "", h.node});
}

// "(/a/b)|(/c/d)" of the distinct scope elements, or the one XPath.
std::string ScopeXPath(const std::vector<Labelled>& labels, bool element_scope) {
  std::vector<std::string> paths;
  for (const Labelled& l : labels) {
    std::string p = html::NodeXPath(element_scope ? PageIndex::ElementOf(l.node) : l.node);
    if (std::find(paths.begin(), paths.end(), p) == paths.end()) paths.push_back(std::move(p));
  }
  if (paths.size() == 1) return paths.front();
  for (std::string& p : paths) p = absl::StrCat("(", p, ")");
  return absl::StrJoin(paths, "|");
}

// Whether no other text on the page sits in the title's template slot (the
// page shows one entry, not a list).
bool AloneInItsSlot(const PageIndex& index, const Hit& title) {
  const std::string key = PageIndex::StructuralKey(title.node);
  for (const IndexedNode& t : index.texts()) {
    if ((t.rank < title.rank || t.rank > title.end_rank) && PageIndex::StructuralKey(t.node) == key) return false;
  }
  return true;
}

// The hits of `field` of one item (several for author and categories).
std::vector<const Hit*> FieldHits(const ItemHits& h, const std::string& field) {
  if (field == "title") return {&h.title};
  if (field == "link") return {&h.link};
  if (field == "date") return {&h.date};
  if (field == "body") return {&h.body};
  std::vector<const Hit*> out;
  for (const Hit& m : field == "author" ? h.authors : h.categories) out.push_back(&m);
  return out;
}

// The labelled nodes of `field` on the page; none when an entry shown on a
// list page lacks a value the feed gives (an incomplete list would teach
// the learner that the missing entry's node is no value), a shared date
// header excepted (found once, for its first entry).
std::vector<Labelled> FieldLabels(const std::vector<ItemHits>& items, const std::string& field) {
  std::vector<Labelled> labels;
  for (const ItemHits& h : items) {
    for (const Hit* hit : FieldHits(h, field)) {
      const bool feed_lacks = !hit->found && hit->error == WtmError::kFeedLimitation && field != "link";
      if (items.size() > 1 && !hit->found && hit->error != WtmError::kSharedDate && !feed_lacks) return {};
      Collect(*hit, field != "body", &labels);
    }
  }
  std::stable_sort(labels.begin(), labels.end(), [](const Labelled& a, const Labelled& b) { return a.rank < b.rank; });
  return labels;
}

void Annotate(const std::string& url, const std::vector<ItemHits>& items, bool partial, const FeedMatchOptions& options,
              std::vector<v1::Annotation>* out) {
  for (const std::string field : {"title", "link", "date", "author", "body", "categories"}) {
    auto it = options.field_to_attribute.find(field);
    if (it == options.field_to_attribute.end() || it->second.empty()) continue;
    const bool body = field == "body";
    if (body && partial) continue;  // an XPath label cannot be partial: the unlabelled entries would count as wrong
    const std::vector<Labelled> labels = FieldLabels(items, field);
    if (labels.empty()) continue;
    v1::Annotation a;
    a.set_url(url);
    a.set_attribute(it->second);
    for (const Labelled& l : labels) {
      if (!body) a.add_values(l.value);
    }
    a.set_xpath(ScopeXPath(labels, /*element_scope=*/!body && field != "link"));
    a.set_partial(partial && !body);
    out->push_back(std::move(a));
  }
}

// For each item no page given is the entry page of, one "page" report: a
// feed limitation when its link is on no page's host and the feed gives no
// origLink (a proxy), else a missing value.
void ReportPagesNotGiven(const Feed& feed, const std::vector<const html::Page*>& pages,
                         const std::vector<bool>& has_entry, std::vector<FieldMatch>* out) {
  std::vector<std::string> hosts;
  for (const html::Page* p : pages) {
    if (p) hosts.push_back(internal::HostOf(NormalizeUrl(p->url())));
  }
  for (size_t i = 0; i < feed.items.size(); ++i) {
    if (has_entry[i]) continue;
    const FeedItem& item = feed.items[i];
    const std::string host = internal::HostOf(NormalizeUrl(item.link));
    const bool proxy = item.proxy_link.empty() && !hosts.empty() &&
                       std::find(hosts.begin(), hosts.end(), host) == hosts.end();
    Report(item, "page", "",
           MissHit(proxy ? WtmError::kFeedLimitation : WtmError::kMissingValue,
                   proxy ? "the item's link " + item.link + " is on no page's host and the feed gives no origLink"
                         : "no page given is the item's entry page (" + item.link + ")"),
           out);
  }
}

// Keeps the list's items up to the first entry of the page the matcher
// missed: the titles found must be the first ones of the titles' template
// slot (the text nodes sharing the first title's structural key), in
// order, or the labels would skip an entry. Whether entries follow the
// kept ones goes to `*partial`.
void KeepLeadingRun(const PageIndex& index, std::vector<ItemHits>* items, bool* partial) {
  const std::string key = PageIndex::StructuralKey(items->front().title.node);
  size_t kept = 0;
  *partial = false;
  for (const IndexedNode& t : index.texts()) {
    if (PageIndex::StructuralKey(t.node) != key) continue;
    if (kept < items->size() && t.rank >= (*items)[kept].title.rank && t.rank <= (*items)[kept].title.end_rank) {
      ++kept;
      continue;
    }
    if (kept > 0 && kept < items->size() && t.rank < (*items)[kept].title.rank && t.rank > (*items)[kept - 1].title.end_rank) {
      break;  // an entry between two found ones: the run ends here
    }
    if (kept == 0 && t.rank < items->front().title.rank) {
      kept = items->size() + 1;  // an entry before the first found one
      break;
    }
    if (kept == items->size()) *partial = true;
  }
  if (kept > items->size()) items->clear();
  else if (kept < items->size()) {
    items->resize(kept);
    *partial = true;
  }
}

// The items page `index` shows and its kind: the entry page of item
// `entry` (by URL); else a list page (>= 2 items shown with their bodies);
// else the entry page of the one item it shows with its whole body when no
// page is that item's by URL (the feed's link is a proxy's).
std::vector<ItemHits> PageItems(const Feed& feed, const std::vector<FeedText>& texts, const PageIndex& index, int entry,
                                const FeedMatchOptions& options, std::vector<bool>* has_entry, PageKind* kind,
                                bool* partial) {
  if (entry >= 0) {
    *kind = PageKind::kEntry;
    return {EntryHits(feed, texts, index, entry)};
  }
  std::vector<ItemHits> items = ShownItems(feed, texts, index);
  if (items.size() == 1 && !(*has_entry)[items[0].item] && !absl::StrContains(items[0].body.how, "summary") &&
      !absl::StrContains(items[0].body.how, "read more") && AloneInItsSlot(index, items[0].title)) {
    const int e = items[0].item;
    (*has_entry)[e] = true;
    *kind = PageKind::kEntry;
    ItemHits h = EntryHits(feed, texts, index, e);
    h.title.how += "; the entry page found by its title and whole body (the item's link is not its URL)";
    return {std::move(h)};
  }
  if (items.size() < 2 || !options.list_pages) return {};
  *kind = PageKind::kList;
  for (size_t k = 0; k < items.size(); ++k) {
    const size_t begin = k > 0 ? PastLastHit(items[k - 1], items[k].title.rank) : 0;
    const size_t end = k + 1 < items.size() ? items[k + 1].title.rank : kNoRank;
    MatchRest(index, feed.items[items[k].item], begin, end, &items[k]);
  }
  MarkSharedDates(&items);
  KeepLeadingRun(index, &items, partial);
  if (items.empty()) *kind = PageKind::kNone;
  return items;
}

}  // namespace

FeedMatchResult MatchFeed(const Feed& feed, const std::vector<const html::Page*>& pages,
                          const FeedMatchOptions& options) {
  FeedMatchResult result;
  html::Parser parser;
  std::vector<FeedText> texts;
  for (const FeedItem& item : feed.items) texts.push_back(ItemBodyText(item, parser));
  // Entry pages by URL first: a page showing one item whose link is no
  // page's URL (a proxy link) is then taken as that item's entry page.
  std::vector<int> entry_of(pages.size(), -1);
  std::vector<bool> has_entry(feed.items.size(), false);
  for (size_t p = 0; p < pages.size(); ++p) {
    if (pages[p] != nullptr && (entry_of[p] = EntryItem(feed, *pages[p])) >= 0) has_entry[entry_of[p]] = true;
  }
  for (size_t p = 0; p < pages.size(); ++p) {
    if (pages[p] == nullptr) continue;
    const PageIndex index = PageIndex::Build(*pages[p]);
    PageAnnotations pa;
    pa.url = pages[p]->url();
    bool partial = false;
    std::vector<ItemHits> items = PageItems(feed, texts, index, entry_of[p], options, &has_entry, &pa.kind, &partial);
    if (items.empty()) continue;
    for (const ItemHits& h : items) {
      pa.items.push_back(h.item);
      ReportItem(feed.items[h.item], pa.url, h, &result.matches);
    }
    Annotate(pa.url, items, partial, options, &pa.annotations);
    result.pages.push_back(std::move(pa));
  }
  ReportPagesNotGiven(feed, pages, has_entry, &result.matches);
  return result;
}

// ---- ValueMatchesFeed ----

namespace {

bool DateMatches(std::string_view value, const FeedItem& item) {
  if (!item.date) return false;
  const std::string folded = NormalizeForMatch(value).folded;
  const std::string iso = absl::StrFormat("%04d-%02d-%02d", item.date->year, item.date->month, item.date->day);
  if (absl::StartsWith(folded, iso)) return true;
  for (const DateRendering& r : RenderDateFormats(*item.date)) {
    if (!internal::IsMonthYearFallback(r.format) && FindWord(folded, AsciiLower(r.text)) != std::string::npos) {
      return true;
    }
  }
  return false;
}

bool BodyMatches(std::string_view value, const FeedItem& item) {
  html::Parser parser;
  const FeedText feed = ItemBodyText(item, parser);
  bool removed = false;
  const std::string v = StripMarkupRemnants(NormalizeForMatch(value).text, &removed);
  if (feed.text.empty() || v.empty()) return false;
  return feed.text.find(v) != std::string::npos || v.find(feed.text) != std::string::npos;
}

bool NameMatches(std::string_view value, const std::vector<std::string>& names, bool by) {
  const std::string v = NormalizeForMatch(value).folded;
  for (const std::string& n : names) {
    const std::string f = NormalizeForMatch(n).folded;
    if (!f.empty() && (v == f || (by && FindWord(v, "by " + f) != std::string::npos))) return true;
  }
  return false;
}

}  // namespace

bool ValueMatchesFeed(std::string_view field, std::string_view value, const FeedItem& item,
                      std::string_view page_url) {
  if (NormalizeForMatch(value).text.empty()) return false;
  if (field == "title") {
    std::string how;
    return ClassifyTitle(NormalizeForMatch(value), NormalizeForMatch(item.title), &how) >= 0;
  }
  if (field == "link") {
    const std::string n = NormalizeUrl(TrimAscii(value), page_url);
    const std::vector<std::string> forms = internal::ItemUrlForms(item);
    return !n.empty() && (std::find(forms.begin(), forms.end(), n) != forms.end() ||
                          std::find(forms.begin(), forms.end(), internal::StripTrackingParameters(n)) != forms.end());
  }
  if (field == "date") return DateMatches(value, item);
  if (field == "author") return NameMatches(value, item.authors, /*by=*/true);
  if (field == "body") return BodyMatches(value, item);
  if (field == "categories") return NameMatches(value, item.categories, /*by=*/false);
  return false;
}

}  // namespace vertex::feed
