// Fuzz target: a feed item and a page -> the feed matcher (MatchFeed,
// feed/feed_matcher.h).
//
// Input: line 1 the item's title, line 2 its date (ParseFeedDate: RFC 822 or
// RFC 3339), line 3 its link, line 4 "author|category", line 5 its content
// HTML, line 6 "entry" to put the page at the item's link (else at the
// site's home), the rest the page bytes. A second item copies the first
// with "2" appended to title and link, so that list detection runs too.
//
// Checked beyond "no crash": a report is found exactly when its error is
// kNone; a found value passes ValueMatchesFeed for its item (title, link,
// date, author, categories: the matcher and the judge agree), and is valid
// UTF-8 when the URLs given are; every annotation's XPath compiles and
// selects at least one node of its page; a partial one has values.
#include <cstdint>
#include <string>
#include <vector>

#include "common/feed/feed.h"
#include "common/feed/feed_matcher.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/util/utf8.h"
#include "tests/fuzz/fuzz_check.h"

namespace vertex::fuzz {
namespace {

feed::FeedItem Item(std::string_view title, std::string_view date, std::string_view link, std::string_view who,
                    std::string_view content) {
  feed::FeedItem item;
  item.title = std::string(title);
  item.link = std::string(link);
  if (absl::StatusOr<feed::FeedDate> d = feed::ParseFeedDate(date); d.ok()) item.date = *d;
  const size_t bar = who.find('|');
  if (!who.substr(0, bar).empty()) item.authors.emplace_back(who.substr(0, bar));
  if (bar != std::string_view::npos && bar + 1 < who.size()) item.categories.emplace_back(who.substr(bar + 1));
  item.content_html = std::string(content);
  return item;
}

const feed::FeedItem* ItemOf(const feed::Feed& f, const std::string& link) {
  for (const feed::FeedItem& i : f.items) {
    if (i.link == link) return &i;
  }
  return nullptr;
}

// `utf8_input`: the page's URL and the item's fields are valid UTF-8 (a
// link resolved against a URL with other bytes carries them, as the
// learner's own resolution of the same href does).
void CheckReports(const feed::Feed& f, const feed::FeedMatchResult& r, bool utf8_input) {
  for (const feed::FieldMatch& m : r.matches) {
    Check(m.found == (m.wtm_error == feed::WtmError::kNone), "found iff no WTM error: " + m.field);
    if (!m.found) continue;
    Check(!utf8_input || util::IsValidUtf8(m.value), "a found value is not valid UTF-8: " + m.field);
    const feed::FeedItem* item = ItemOf(f, m.item_link);
    Check(item != nullptr, "a report names no item");
    if (m.field != "body") {
      Check(feed::ValueMatchesFeed(m.field, m.value, *item, m.page_url),
            "ValueMatchesFeed rejects what the matcher found: " + m.field + " \"" + m.value + "\" (" + m.how + ")");
    }
  }
}

void CheckAnnotations(const html::Page& page, const feed::FeedMatchResult& r) {
  for (const feed::PageAnnotations& p : r.pages) {
    Check(p.url == page.url(), "annotations of another page");
    for (const v1::Annotation& a : p.annotations) {
      absl::StatusOr<html::XPath> x = html::XPath::Compile(a.xpath());
      Check(x.ok(), "an annotation's XPath does not compile: " + a.xpath());
      absl::StatusOr<std::vector<html::Node>> nodes = x->Select(page);
      Check(nodes.ok() && !nodes->empty(), "an annotation's XPath selects nothing: " + a.xpath());
      Check(!a.partial() || a.values_size() > 0, "a partial annotation without values");
    }
  }
}

}  // namespace
}  // namespace vertex::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  std::string_view rest = fuzz::AsView(data, size);
  std::string_view line[6];
  for (std::string_view& l : line) std::tie(l, rest) = fuzz::CutLine(rest);
  feed::Feed f;
  f.link = "http://blog.fuzz.test/";
  f.items.push_back(fuzz::Item(line[0], line[1], line[2], line[3], line[4]));
  feed::FeedItem second = f.items[0];
  second.title += "2";
  second.link += "2";
  f.items.push_back(second);
  html::Parser parser;
  const std::string url = line[5] == "entry" ? std::string(line[2]) : f.link;
  absl::StatusOr<html::Page> page = parser.Parse(rest, url);
  if (!page.ok()) return 0;
  const feed::FeedMatchResult r = feed::MatchFeed(f, {&*page});
  const bool utf8_input = util::IsValidUtf8(url) && util::IsValidUtf8(f.items[0].link);
  fuzz::CheckReports(f, r, utf8_input);
  fuzz::CheckAnnotations(*page, r);
  return 0;
}
