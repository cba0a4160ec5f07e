#include "common/feed/field_matchers.h"

#include <algorithm>
#include <string_view>
#include <tuple>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/feed/matcher_internal.h"
#include "common/html/editor_html.h"
#include "common/html/rendered_text.h"
#include "common/html/text.h"

namespace vertex::feed {
namespace {

// A candidate node for a field: its indexed node, how good a match it is
// (lower is better) and the value's byte range in its normalised text.
struct Candidate {
  const IndexedNode* n = nullptr;
  int cls = 0;
  size_t begin = 0, end = 0;
  std::string how;
};

bool Inside(size_t rank, const Hit& h) { return h.found && h.rank != kNoRank && rank >= h.rank && rank <= h.end_rank; }

Hit HitAt(const IndexedNode& n, std::string how, std::string value) {
  Hit h;
  h.found = true;
  h.error = WtmError::kNone;
  h.how = std::move(how);
  h.value = std::move(value);
  h.node = n.node;
  h.rank = n.rank;
  h.end_rank = n.end_rank;
  return h;
}

Hit Miss(WtmError error, std::string how) {
  Hit h;
  h.error = error;
  h.how = std::move(how);
  return h;
}

// The page's own text behind a candidate's range, whitespace-normalised.
std::string ValueOf(const Candidate& c) {
  return html::NormalizeSpace(c.n->m.Original(c.n->original, c.begin, c.end));
}

// Of candidates, the one nearest `place`'s title inside its region, else
// the nearest before the title, else the nearest after the region; ties go
// to the better class, then document order. Null when there are none.
const Candidate* PickNear(const std::vector<Candidate>& cands, const ItemPlace& place) {
  const size_t anchor = place.title && place.title->found ? place.title->rank : 0;
  auto key = [&](const Candidate& c) {
    const size_t r = c.n->rank;
    const int tier = (r >= anchor && r < place.region_end) ? 0 : r < anchor ? 1 : 2;
    const size_t distance = r >= anchor ? r - anchor : anchor - r;
    return std::make_tuple(tier, distance, c.cls, r);
  };
  const Candidate* best = nullptr;
  for (const Candidate& c : cands) {
    if (best == nullptr || key(c) < key(*best)) best = &c;
  }
  return best;
}

// Byte length of the common prefix of a and b, backed off to a word end.
size_t CommonPrefix(std::string_view a, std::string_view b) {
  size_t n = 0;
  while (n < a.size() && n < b.size() && a[n] == b[n]) ++n;
  if (n == a.size() || n == b.size()) return n;
  if ((n > 0 && a[n - 1] == ' ') || a[n] == ' ' || b[n] == ' ') return n;
  const size_t space = a.rfind(' ', n);
  return space == std::string_view::npos ? 0 : space;
}

size_t WordCount(std::string_view s) { return Words(s).size(); }

}  // namespace

FeedText ItemBodyText(const FeedItem& item, html::Parser& parser) {
  FeedText t;
  t.from_content = !item.content_html.empty();
  const std::string& html = t.from_content ? item.content_html : item.description_html;
  if (html.empty()) return t;
  absl::StatusOr<html::Page> page =
      parser.Parse(absl::StrCat("<html><body><div>", html, "</div></body></html>"), "http://feed.invalid/");
  html::Node body = page.ok() ? page->root().first_element_child() : html::Node();
  while (body && body.tag() != "body") body = body.next_element_sibling();
  const std::vector<std::string> lines = body ? html::RenderedLines(body) : std::vector<std::string>{html};
  for (const std::string& line : lines) {
    const std::string norm = NormalizeForMatch(line).text;
    if (norm.empty()) continue;
    if (!t.text.empty()) t.text += ' ';
    t.text += norm;
    t.paragraph_ends.push_back(t.text.size());
  }
  t.text = StripMarkupRemnants(t.text, &t.remnants);
  if (t.remnants) t.paragraph_ends.clear();
  t.ellipsis = StripTrailingEllipsis(&t.text);
  t.words = WordCount(t.text);
  return t;
}

// ---- Body ----

// The feed text's first words, searched in the whole page's text before any
// per-element scan; also the fewest words of whole paragraphs a "Read more"
// excerpt is taken from.
constexpr size_t kLeadWords = 8;

namespace {

// The smallest element satisfying `ok` (shortest text; equal texts: the
// outermost, the template's container).
template <typename Pred>
const IndexedNode* Smallest(const PageIndex& index, Pred ok) {
  const IndexedNode* best = nullptr;
  for (const IndexedNode& e : index.elements()) {
    if (ok(e) && (best == nullptr || e.m.text.size() < best->m.text.size())) best = &e;
  }
  return best;
}

// The summary rule: from the smallest element whose text starts with the
// summary's, up through the ancestors whose text still starts with it (the
// first paragraph, then the body's container; an entry's wrapper starts
// with its title and stops the walk).
const IndexedNode* SummaryBody(const PageIndex& index, const std::string& text) {
  const IndexedNode* e = Smallest(index, [&](const IndexedNode& n) { return absl::StartsWith(n.m.text, text); });
  while (e != nullptr) {
    const html::Node parent = e->node.parent();
    if (!parent || parent.tag() == "body" || parent.tag() == "html") break;
    const IndexedNode* up = nullptr;
    for (size_t i = e - index.elements().data(); i-- > 0;) {  // ancestors precede in document order
      if (index.elements()[i].node == parent) {
        up = &index.elements()[i];
        break;
      }
    }
    if (up == nullptr || !absl::StartsWith(up->m.text, text)) break;
    e = up;
  }
  return e;
}

// The element whose text is the longest prefix of the feed's (word-aligned,
// at most a short tail of its own after it: "… Read more »").
const IndexedNode* LongestPrefix(const PageIndex& index, const std::string& text, size_t* common) {
  const IndexedNode* best = nullptr;
  *common = 0;
  for (const IndexedNode& e : index.elements()) {
    const size_t c = CommonPrefix(e.m.text, text);
    if (c == 0 || e.m.text.size() - c > 40) continue;
    if (c > *common || (c == *common && best && e.m.text.size() < best->m.text.size())) {
      best = &e;
      *common = c;
    }
  }
  return best;
}

Hit BodyHit(const IndexedNode& e, std::string how) {
  Hit h = HitAt(e, std::move(how), "");
  return h;
}

}  // namespace

namespace {

// The feed's text is in an element, whole or as a summary of it.
Hit ContainedBody(const PageIndex& index, const FeedText& text, const std::string& remnants) {
  const IndexedNode* e =
      Smallest(index, [&](const IndexedNode& n) { return n.m.text.find(text.text) != std::string::npos; });
  if (e == nullptr) return Miss(WtmError::kMissingValue, "");
  const bool page_longer = e->m.text.size() >= text.text.size() + text.text.size() / 2 + 20 &&
                           absl::StartsWith(e->m.text, text.text);
  if (text.ellipsis || page_longer) {
    const IndexedNode* s = SummaryBody(index, text.text);
    return BodyHit(s ? *s : *e, "summary is a prefix of the page's body" + remnants);
  }
  return BodyHit(*e, std::string("smallest element containing the ") + (text.from_content ? "content" : "description") +
                         remnants);
}

// An element shows the start of the feed's text only: "Read more" on a
// list page (found), else a partial description.
Hit PrefixBody(const PageIndex& index, const FeedText& text, bool list_page) {
  size_t common = 0;
  const IndexedNode* p = LongestPrefix(index, text.text, &common);
  const size_t words = WordCount(std::string_view(text.text).substr(0, common));
  // At least 20 words, or whole paragraphs (a short first one) of at least
  // the lead's words.
  size_t end = common;
  while (end > 0 && text.text[end - 1] == ' ') --end;
  const bool whole_paragraphs = std::binary_search(text.paragraph_ends.begin(), text.paragraph_ends.end(), end);
  if (p && list_page && (words >= 20 || (whole_paragraphs && words >= kLeadWords))) {
    return BodyHit(*p, absl::StrCat("the page shows the first ", words, " of the feed's ", text.words,
                                    " words (\"read more\" truncation)"));
  }
  if (p && (common * 2 >= text.text.size() || words >= 20)) {
    Hit h = Miss(WtmError::kPartialDescription,
                 absl::StrCat("the page shows ", common, " of the feed's ", text.text.size(), " characters"));
    h.node = p->node;
    return h;
  }
  return Miss(WtmError::kMissingValue, "no element's text contains the feed's text");
}

// The feed's text is found only once tags or entities the page shows as
// text are stripped from an element's.
Hit NoiseBody(const PageIndex& index, const FeedText& text) {
  for (const IndexedNode& n : index.elements()) {
    if (n.m.text.find_first_of("<&") == std::string::npos) continue;
    bool removed = false;
    const std::string stripped = StripMarkupRemnants(n.m.text, &removed);
    if (removed && stripped.find(text.text) != std::string::npos) {
      Hit h = Miss(WtmError::kNoise, "the page's text matches only after stripping markup remnants from it");
      h.node = n.node;
      return h;
    }
  }
  return Miss(WtmError::kMissingValue, "no element's text contains the feed's text");
}

}  // namespace

Hit MatchBody(const PageIndex& index, const FeedText& text, bool list_page) {
  if (text.text.empty()) return Miss(WtmError::kFeedLimitation, "the feed gives no description or content");
  // Every rule but the noise one needs the text's first words on the page:
  // one search of the whole page's text spares the per-element scans.
  const std::vector<std::string_view> words = Words(text.text);
  const std::string_view lead(text.text.data(),
                              words.size() > kLeadWords ? words[kLeadWords].data() - text.text.data() - 1 : text.text.size());
  const bool lead_on_page = !index.elements().empty() && index.elements().front().m.text.find(lead) != std::string::npos;
  if (lead_on_page) {
    Hit h = ContainedBody(index, text, text.remnants ? " (markup remnants stripped from the feed's text)" : "");
    if (h.found) return h;
    h = PrefixBody(index, text, list_page);
    if (h.found || h.error == WtmError::kPartialDescription) return h;
  }
  return NoiseBody(index, text);
}

// ---- Title ----

int ClassifyTitle(const MatchText& t, const MatchText& title, std::string* how) {
  const std::string& T = title.text;
  if (T.empty() || t.text.empty()) return -1;
  const std::string typo = t.typographic || title.typographic ? ", typographic characters folded" : "";
  if (t.text == T) return *how = "exact" + typo, 0;
  if (t.folded == title.folded) return *how = "ASCII case differs" + typo, 1;
  if (t.text.size() > T.size() && t.text.size() <= T.size() + 40) {
    const size_t p = FindWord(t.folded, title.folded);
    if (p != std::string::npos) {
      const std::string before = t.text.substr(0, p), after = t.text.substr(p + T.size());
      *how = before.empty() ? absl::StrCat("suffix added by the page: \"", after, "\"")
             : after.empty() ? absl::StrCat("prefix added by the page: \"", before, "\"")
                             : absl::StrCat("prefix \"", before, "\" and suffix \"", after, "\" added by the page");
      return 2;
    }
  }
  if (absl::EndsWith(t.text, "...") && t.text.size() > 3) {
    std::string p = t.folded.substr(0, t.text.size() - 3);
    while (!p.empty() && p.back() == ' ') p.pop_back();
    if (!p.empty() && p.size() < T.size() && absl::StartsWith(title.folded, p) && p.size() * 2 >= T.size()) {
      *how = absl::StrCat("truncated to ", p.size(), " of ", T.size(), " characters") + typo;
      return 3;
    }
  }
  return -1;
}

namespace {

// Title candidates: text nodes, then elements none of whose descendants is
// one (a title split by markup), outside the body.
std::vector<Candidate> TitleCandidates(const PageIndex& index, const MatchText& title, const Hit& body) {
  std::vector<Candidate> out;
  std::string how;
  for (const IndexedNode& n : index.texts()) {
    const int cls = Inside(n.rank, body) ? -1 : ClassifyTitle(n.m, title, &how);
    if (cls >= 0) out.push_back({&n, cls, 0, n.m.text.size(), how});
  }
  std::vector<Candidate> elements;
  for (const IndexedNode& e : index.elements()) {
    if (e.m.text.size() > title.text.size() + 40 || Inside(e.rank, body)) continue;
    const int cls = ClassifyTitle(e.m, title, &how);
    if (cls >= 0) elements.push_back({&e, cls, 0, e.m.text.size(), how});
  }
  for (const Candidate& e : elements) {
    bool has_inner = false;
    for (const Candidate& c : out) has_inner = has_inner || (c.n->rank > e.n->rank && c.n->rank <= e.n->end_rank);
    for (const Candidate& c : elements) has_inner = has_inner || (c.n->rank > e.n->rank && c.n->rank <= e.n->end_rank);
    if (has_inner) continue;
    Candidate m = e;
    m.cls = 4;  // after every single-node match
    m.how = e.how + ", feed title with markup (the page's title spans several text nodes)";
    out.push_back(std::move(m));
  }
  return out;
}

bool InHeading(html::Node n) {
  for (html::Node e = PageIndex::ElementOf(n); e; e = e.parent()) {
    const std::string_view t = e.tag();
    if (t.size() == 2 && t[0] == 'h' && t[1] >= '1' && t[1] <= '6') return true;
  }
  return false;
}

bool InMainOrArticle(html::Node n) {
  for (html::Node e = PageIndex::ElementOf(n); e; e = e.parent()) {
    if (e.tag() == "main" || e.tag() == "article") return true;
  }
  return false;
}

// Whether another text node of the page sits in `n`'s template slot (a
// list of titles, like a sidebar's "Recent posts").
bool InRepeatedSlot(const PageIndex& index, const IndexedNode& n) {
  const std::string key = PageIndex::StructuralKey(n.node);
  for (const IndexedNode& t : index.texts()) {
    if ((t.rank < n.rank || t.rank > n.end_rank) && PageIndex::StructuralKey(t.node) == key) return true;
  }
  return false;
}

// Of the title candidates: nearest the body (those before it first), else
// the best class, alone in its template slot (not one of a list of
// titles), inside <main>/<article>, in a heading, first in document order.
const Candidate* PickTitle(const PageIndex& index, const std::vector<Candidate>& cands, const Hit& body) {
  auto key = [&](const Candidate& c) {
    const size_t r = c.n->rank;
    if (!body.found) {
      const size_t place = (InRepeatedSlot(index, *c.n) ? 4 : 0) + (InMainOrArticle(c.n->node) ? 0 : 2) +
                           (InHeading(c.n->node) ? 0 : 1);
      return std::make_tuple(0, size_t(c.cls), place, r);
    }
    const bool before = r < body.rank;
    return std::make_tuple(before ? 0 : 1, before ? body.rank - r : r - body.end_rank, size_t(c.cls), r);
  };
  const Candidate* best = nullptr;
  for (const Candidate& c : cands) {
    if (best == nullptr || key(c) < key(*best)) best = &c;
  }
  return best;
}

// Why the title is not found: a short node sharing >= 60% of the title's
// words in order (kDifferentTitle), a truncation keeping less than half
// (kAbbreviated), else kMissingValue.
Hit TitleMiss(const PageIndex& index, const MatchText& title, const Hit& body) {
  const std::vector<std::string_view> tw = Words(title.folded);
  for (const IndexedNode& n : index.texts()) {
    if (Inside(n.rank, body)) continue;
    const std::string& t = n.m.folded;
    if (absl::EndsWith(t, "...") && t.size() > 3) {
      std::string p = t.substr(0, t.size() - 3);
      while (!p.empty() && p.back() == ' ') p.pop_back();
      if (!p.empty() && absl::StartsWith(title.folded, p)) {
        return Miss(WtmError::kAbbreviated, absl::StrCat("the page abbreviates the title to \"",
                                                         html::NormalizeSpace(n.original), "\" (", p.size(), " of ",
                                                         title.text.size(), " characters)"));
      }
    }
    const std::vector<std::string_view> pw = Words(t);
    if (pw.empty() || pw.size() > 2 * tw.size() + 3) continue;
    if (CommonWordsInOrder(pw, tw) * 10 >= tw.size() * 6) {
      return Miss(WtmError::kDifferentTitle,
                  absl::StrCat("the page's title differs: \"", html::NormalizeSpace(n.original), "\""));
    }
  }
  return Miss(WtmError::kMissingValue, "no text on the page equals the title");
}

}  // namespace

Hit MatchTitle(const PageIndex& index, const FeedItem& item, const Hit& body) {
  const MatchText title = NormalizeForMatch(item.title);
  if (title.text.empty()) return Miss(WtmError::kFeedLimitation, "the item has no title");
  const std::vector<Candidate> cands = TitleCandidates(index, title, body);
  const Candidate* c = PickTitle(index, cands, body);
  if (c == nullptr) return TitleMiss(index, title, body);
  std::string how = c->how;
  if (cands.size() > 1) absl::StrAppend(&how, "; ", cands.size(), " occurrences, the one nearest the body");
  return HitAt(*c->n, how, ValueOf(*c));
}

// ---- Date ----

namespace {

size_t Distance(size_t a, size_t b) { return a > b ? a - b : b - a; }

// A found hit at a node that is not indexed as text (an <a>, a <time>).
Hit NodeHit(html::Node node, size_t rank, std::string how, std::string value) {
  Hit h;
  h.found = true;
  h.error = WtmError::kNone;
  h.how = std::move(how);
  h.value = std::move(value);
  h.node = node;
  h.rank = h.end_rank = rank;
  return h;
}

// Whether text[i] exists and is an ASCII letter or digit.
bool IsWordChar(const std::string& text, size_t i) {
  if (i >= text.size()) return false;
  const char c = text[i];
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Widens a date found at folded[*begin, *end) over the weekday the page
// writes next to it ("2005/07/22 Fri", "Fri 22 Jul 2005", "(Friday)"):
// the value is the date as the page shows it.
void ExtendOverWeekday(const std::string& folded, const FeedDate& date, size_t* begin, size_t* end) {
  const std::string full = AsciiLower(internal::WeekdayName(date));
  if (full.empty()) return;
  for (const std::string& wd : {full, full.substr(0, 3)}) {
    for (const std::string& after : {" " + wd, " (" + wd + ")", ", " + wd}) {
      if (folded.compare(*end, after.size(), after) == 0 && !IsWordChar(folded, *end + after.size())) {
        *end += after.size();
        break;
      }
    }
    for (const std::string& before : {wd + ", ", wd + " ", wd + ". "}) {
      if (*begin >= before.size() && folded.compare(*begin - before.size(), before.size(), before) == 0 &&
          (*begin == before.size() || !IsWordChar(folded, *begin - before.size() - 1))) {
        *begin -= before.size();
        break;
      }
    }
  }
}

// Text nodes outside the body containing a rendering (word-bounded, ASCII
// case folded), each with its most specific one: full dates, and WTM's
// month-and-year fallbacks. Candidate::cls is the rendering's index.
void DateCandidates(const PageIndex& index, const FeedDate& date, const std::vector<DateRendering>& renderings,
                    const Hit& body, std::vector<Candidate>* full, std::vector<Candidate>* fallback) {
  std::vector<std::string> lower;
  for (const DateRendering& r : renderings) lower.push_back(AsciiLower(r.text));
  const std::string yy = absl::StrFormat("%02d", date.year % 100);  // in every rendering
  for (const IndexedNode& n : index.texts()) {
    if (Inside(n.rank, body) || n.m.text.find(yy) == std::string::npos) continue;
    for (size_t r = 0; r < renderings.size(); ++r) {
      const size_t p = FindWord(n.m.folded, lower[r]);
      if (p == std::string::npos) continue;
      const bool fb = internal::IsMonthYearFallback(renderings[r].format);
      size_t begin = p, end = p + lower[r].size();
      if (!fb) ExtendOverWeekday(n.m.folded, date, &begin, &end);
      (fb ? fallback : full)->push_back({&n, int(r), begin, end, "date as " + renderings[r].format});
      break;
    }
  }
}

// Whether `rank` lies in `place`'s region [region_begin, region_end).
bool InRegion(size_t rank, const ItemPlace& place) { return rank >= place.region_begin && rank < place.region_end; }

// The title's rank (0 when it is not found): dates are placed by it.
size_t TitleAnchor(const ItemPlace& place) { return place.title && place.title->found ? place.title->rank : 0; }

// The <time datetime> of the item's day nearest the title inside the
// item's region, else nearest outside; null when there is none.
const IndexedTime* NearestTime(const PageIndex& index, const FeedDate& date, const ItemPlace& place) {
  const std::string iso = absl::StrFormat("%04d-%02d-%02d", date.year, date.month, date.day);
  const size_t anchor = TitleAnchor(place);
  auto key = [&](const IndexedTime& t) { return std::make_pair(!InRegion(t.rank, place), Distance(t.rank, anchor)); };
  const IndexedTime* best = nullptr;
  for (const IndexedTime& t : index.times()) {
    if (TrimAscii(t.datetime).substr(0, iso.size()) != iso) continue;
    if (!best || key(t) < key(*best)) best = &t;
  }
  return best;
}

// The full-date candidate nearest the title inside the item's region,
// else nearest outside; the more specific rendering on a tie. Null when
// there are none.
const Candidate* NearestDate(const std::vector<Candidate>& full, const ItemPlace& place) {
  const size_t anchor = TitleAnchor(place);
  auto key = [&](const Candidate& c) {
    return std::make_tuple(!InRegion(c.n->rank, place), Distance(c.n->rank, anchor), c.cls);
  };
  const Candidate* best = nullptr;
  for (const Candidate& c : full) {
    if (!best || key(c) < key(*best)) best = &c;
  }
  return best;
}

}  // namespace

Hit MatchDate(const PageIndex& index, const FeedItem& item, const ItemPlace& place) {
  if (!item.date) {
    return Miss(WtmError::kFeedLimitation, "the feed gives no date" + (item.date_error.empty() ? "" : ": " + item.date_error));
  }
  const std::vector<DateRendering> renderings = RenderDateFormats(*item.date);
  std::vector<Candidate> full, fallback;
  DateCandidates(index, *item.date, renderings, place.body ? *place.body : Hit(), &full, &fallback);
  if (const Candidate* best = NearestDate(full, place)) return HitAt(*best->n, best->how, ValueOf(*best));
  if (const IndexedTime* t = renderings.empty() ? nullptr : NearestTime(index, *item.date, place)) {
    return NodeHit(t->node, t->rank, "<time datetime>", std::string(TrimAscii(t->datetime)));
  }
  if (!fallback.empty()) {
    const Candidate& c = fallback.front();
    return Miss(WtmError::kNotSupported,
                absl::StrCat("no full-date rendering on the page; only WTM's month-and-year fallback \"", ValueOf(c),
                             "\" (", renderings[c.cls].format, ") matches"));
  }
  return Miss(WtmError::kMissingValue, absl::StrCat("no rendering of ", item.date->raw, " on the page"));
}

// ---- Link ----

namespace {

bool Contains(html::Node outer, html::Node n) {
  for (; n; n = n.parent()) {
    if (n == outer) return true;
  }
  return false;
}


}  // namespace

namespace {

// The anchors whose href resolves to one of the item's URL forms.
std::vector<const IndexedAnchor*> LinkAnchors(const PageIndex& index, const FeedItem& item) {
  const std::vector<std::string> forms = internal::ItemUrlForms(item);
  std::vector<const IndexedAnchor*> out;
  for (const IndexedAnchor& a : index.anchors()) {
    for (const std::string& f : a.forms) {
      if (std::find(forms.begin(), forms.end(), f) != forms.end()) {
        out.push_back(&a);
        break;
      }
    }
  }
  return out;
}

// The anchor wrapping the title (or inside the title's element), else the
// one PickNear chooses; `*how` says which.
const IndexedAnchor* PickAnchor(const std::vector<const IndexedAnchor*>& anchors, const ItemPlace& place,
                                std::string* how) {
  if (place.title && place.title->found) {
    const html::Node title_element = PageIndex::ElementOf(place.title->node);
    for (const IndexedAnchor* a : anchors) {
      if (Contains(a->node, place.title->node) || Contains(title_element, a->node)) {
        *how = "the anchor wrapping the title";
        return a;
      }
    }
  }
  std::vector<IndexedNode> holders(anchors.size());
  std::vector<Candidate> cands;
  for (size_t i = 0; i < anchors.size(); ++i) holders[i].rank = anchors[i]->rank;
  for (size_t i = 0; i < anchors.size(); ++i) cands.push_back({&holders[i], 0, 0, 0, ""});
  const IndexedAnchor* a = anchors[PickNear(cands, place) - cands.data()];
  const size_t title = place.title && place.title->found ? place.title->rank : 0;
  *how = a->rank >= title ? "the anchor nearest after the title" : "the anchor nearest before the title";
  return a;
}

// What the match went through: a relative href, origLink or the proxy's
// link, tracking parameters.
std::string LinkHow(const IndexedAnchor& a, const FeedItem& item) {
  const std::string link = NormalizeUrl(item.link), proxy = NormalizeUrl(item.proxy_link);
  const std::string& norm = a.forms.front();
  std::string how;
  if (a.raw_href.find("://") == std::string::npos) how += ", href resolved";
  const bool via_proxy = !proxy.empty() && internal::StripTrackingParameters(norm) ==
                                               internal::StripTrackingParameters(proxy);
  if (via_proxy) {
    how += ", the feed's proxy link";
  } else if (!item.proxy_link.empty()) {
    how += ", feedburner:origLink";
  }
  if (norm != link && norm != proxy) how += ", tracking parameters stripped";
  return how;
}

}  // namespace

Hit MatchLink(const PageIndex& index, const FeedItem& item, const ItemPlace& place) {
  const std::vector<const IndexedAnchor*> anchors = LinkAnchors(index, item);
  if (anchors.empty()) {
    if (item.proxy_link.empty() &&
        internal::HostOf(NormalizeUrl(item.link)) != internal::HostOf(NormalizeUrl(index.page().url()))) {
      return Miss(WtmError::kFeedLimitation, absl::StrCat("the item's link ", item.link,
                                                          " is on another host than the page (a feed proxy?) and the "
                                                          "feed gives no origLink"));
    }
    return Miss(WtmError::kMissingValue, "no <a href> on the page resolves to the item's link");
  }
  std::string how;
  const IndexedAnchor* a = PickAnchor(anchors, place, &how);
  return NodeHit(a->node, a->rank, how + LinkHow(*a, item), a->href);
}

// ---- Author and categories ----

std::vector<Hit> MatchAuthors(const PageIndex& index, const FeedItem& item, const ItemPlace& place) {
  std::vector<Hit> out;
  const Hit empty;
  for (const std::string& author : item.authors) {
    const MatchText name = NormalizeForMatch(author);
    std::vector<Candidate> cands;
    for (const IndexedNode& n : index.texts()) {
      if (name.folded.empty() || Inside(n.rank, place.body ? *place.body : empty)) continue;
      if (n.m.folded == name.folded) {
        cands.push_back({&n, 0, 0, n.m.text.size(), "a text node equal to the author's name"});
        continue;
      }
      const size_t p = FindWord(n.m.folded, "by " + name.folded);
      if (p != std::string::npos) cands.push_back({&n, 1, p + 3, p + 3 + name.text.size(), "\"by NAME\""});
    }
    const Candidate* c = PickNear(cands, place);
    out.push_back(c ? HitAt(*c->n, c->how, ValueOf(*c))
                    : Miss(WtmError::kMissingValue, "the page does not show the author \"" + author + "\""));
  }
  return out;
}

std::vector<Hit> MatchCategories(const PageIndex& index, const FeedItem& item, const ItemPlace& place) {
  std::vector<Hit> out;
  const Hit empty;
  for (const std::string& category : item.categories) {
    const MatchText name = NormalizeForMatch(category);
    std::vector<Candidate> cands;
    for (const IndexedNode& e : index.elements()) {
      if (name.folded.empty() || e.m.folded != name.folded || Inside(e.rank, place.body ? *place.body : empty)) continue;
      // The innermost element with this text (an <a> inside an <li>).
      if (!cands.empty() && Contains(cands.back().n->node, e.node)) cands.pop_back();
      cands.push_back({&e, e.node.tag() == "a" ? 0 : 1, 0, e.m.text.size(), "an element whose text is the category"});
    }
    const Candidate* c = PickNear(cands, place);
    out.push_back(c ? HitAt(*c->n, c->how, ValueOf(*c))
                    : Miss(WtmError::kMissingValue, "the page does not show the category \"" + category + "\""));
  }
  return out;
}

}  // namespace vertex::feed
