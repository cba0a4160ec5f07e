#include "common/monitor/feed_check.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/feed/feed_matcher.h"

namespace vertex::monitor {
namespace {

constexpr int kMaxEvidence = 5;
constexpr char kNotJudged[] = "-";
constexpr size_t kMaxShown = 80;  // characters of a value in evidence

const std::vector<std::string>& KnownFields() {
  static const auto* const kFields =
      new std::vector<std::string>{"title", "date", "author", "link", "body", "categories"};
  return *kFields;
}

// `text` cut to kMaxShown characters (at a UTF-8 boundary), for evidence.
std::string Shown(const std::string& text) {
  if (text.size() <= kMaxShown) return text;
  size_t end = kMaxShown;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end) + "...";
}

// The item's value of `field` as evidence shows it; "" when it has none
// (the field is then not judged).
std::string FeedValue(const std::string& field, const feed::FeedItem& item) {
  if (field == "title") return item.title;
  if (field == "link") return item.link;
  if (field == "date") return item.date.has_value() ? item.date->raw : "";
  if (field == "author") return absl::StrJoin(item.authors, " | ");
  if (field == "categories") return absl::StrJoin(item.categories, " | ");
  if (field == "body") return item.content_html.empty() ? item.description_html : item.content_html;
  return "";
}

v1::ClusterFeedCheck::Field* FieldOf(v1::ClusterFeedCheck* check, const std::string& field) {
  for (v1::ClusterFeedCheck::Field& f : *check->mutable_fields()) {
    if (f.field() == field) return &f;
  }
  v1::ClusterFeedCheck::Field* f = check->add_fields();
  f->set_field(field);
  return f;
}

void Count(v1::ClusterFeedCheck::Field* f, bool agree, const std::string& evidence) {
  f->set_pages(f->pages() + 1);
  if (agree) {
    f->set_agree(f->agree() + 1);
  } else if (f->evidence_size() < kMaxEvidence) {
    f->add_evidence(evidence);
  }
}

bool Fails(const v1::ClusterFeedCheck::Field& f, double threshold) {
  return f.pages() > 0 && static_cast<double>(f.pages() - f.agree()) / f.pages() > threshold;
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> FeedFieldsToCheck(
    const schema::CompiledSchema& schema, const std::map<std::string, std::string>& mapping) {
  std::map<std::string, std::string> fields;
  if (mapping.empty()) {
    for (const char* field : {"title", "date", "author", "link"}) {
      if (schema.Find(field) >= 0) fields[field] = field;
    }
    return fields;
  }
  for (const auto& [field, attribute] : mapping) {
    const std::vector<std::string>& known = KnownFields();
    if (std::find(known.begin(), known.end(), field) == known.end()) {
      return absl::InvalidArgumentError("feed_field_to_attribute: \"" + field + "\" is no feed field (one of " +
                                        absl::StrJoin(known, ", ") + ")");
    }
    if (schema.Find(attribute) < 0) {
      return absl::InvalidArgumentError("feed_field_to_attribute: " + field + " -> \"" + attribute +
                                        "\": the site's schema has no such attribute");
    }
    fields[field] = attribute;
  }
  return fields;
}

bool IsListCluster(const v1::ClusterRecord& record, const std::string& title_attribute) {
  int lists = 0;
  for (const v1::GoldenExtraction& g : record.golden()) {
    for (const v1::AttributeValues& a : g.attributes()) {
      if (a.attribute() == title_attribute && a.values_size() >= 2) ++lists;
    }
  }
  return record.golden_size() > 0 && 2 * lists > record.golden_size();
}

FeedTest::FeedTest(feed::Feed feed, std::map<std::string, std::string> fields)
    : feed_(std::move(feed)), fields_(std::move(fields)), home_(feed::NormalizeUrl(feed_.link)) {
  for (size_t i = 0; i < feed_.items.size(); ++i) {
    const std::string link = feed::NormalizeUrl(feed_.items[i].link);
    if (!link.empty()) item_of_.try_emplace(link, static_cast<int>(i));
  }
}

int FeedTest::ItemOf(const std::string& url) const {
  auto it = item_of_.find(feed::NormalizeUrl(url));
  return it == item_of_.end() ? -1 : it->second;
}

const std::vector<std::string>* FeedTest::ValuesOf(const std::string& field,
                                                   const std::vector<extract::AttributeResult>& results) const {
  auto f = fields_.find(field);
  if (f == fields_.end()) return nullptr;
  for (const extract::AttributeResult& r : results) {
    if (r.attribute == f->second) return &r.values;
  }
  static const auto* const kNone = new std::vector<std::string>();
  return kNone;
}

v1::ClusterFeedCheck* FeedTest::ClusterCheck(const std::string& cluster_id) {
  auto [it, added] = clusters_.try_emplace(cluster_id);
  if (added) it->second.set_cluster_id(cluster_id);
  return &it->second;
}

bool FeedTest::Judge(const std::string& cluster_id, const std::string& url, int item,
                     const std::vector<extract::AttributeResult>& results, bool list_cluster) {
  if (item >= 0 && static_cast<size_t>(item) < feed_.items.size()) {
    v1::ClusterFeedCheck* check = ClusterCheck(cluster_id);
    JudgeEntry(check, url, feed_.items[static_cast<size_t>(item)], results);
    check->set_pages(check->pages() + 1);
    ++entry_pages_;
    return true;
  }
  const std::vector<std::string>* titles = ValuesOf("title", results);
  if (titles == nullptr || (titles->size() < 2 && !list_cluster)) return false;
  v1::ClusterFeedCheck probe;
  if (!JudgeList(&probe, url, *titles)) return false;
  v1::ClusterFeedCheck* check = ClusterCheck(cluster_id);
  const v1::ClusterFeedCheck::Field& judged = probe.fields(0);
  Count(FieldOf(check, kListTitlesField), judged.agree() > 0, judged.evidence_size() > 0 ? judged.evidence(0) : "");
  check->set_pages(check->pages() + 1);
  check->set_list_pages(check->list_pages() + 1);
  ++list_pages_;
  return true;
}

void FeedTest::JudgeEntry(v1::ClusterFeedCheck* check, const std::string& url, const feed::FeedItem& item,
                          const std::vector<extract::AttributeResult>& results) const {
  for (const auto& [field, attribute] : fields_) {
    const std::string want = FeedValue(field, item);
    if (want.empty()) continue;  // the feed does not say
    const std::vector<std::string>& got = *ValuesOf(field, results);
    bool agree = !got.empty();
    if (field == "categories") {
      for (const std::string& v : got) agree = agree && feed::ValueMatchesFeed(field, v, item, url);
    } else if (agree) {
      agree = feed::ValueMatchesFeed(field, got.front(), item, url);
    }
    const std::string gives = got.empty() ? "nothing" : "\"" + Shown(got.front()) + "\"";
    Count(FieldOf(check, field), agree, absl::StrCat(url, ": rule gives ", gives, ", the feed \"", Shown(want), "\""));
  }
}

// Judges the titles of a list page into check's one field; false when the
// page is not judged (no title is a feed item, and it is not the home page).
bool FeedTest::JudgeList(v1::ClusterFeedCheck* check, const std::string& url,
                         const std::vector<std::string>& titles) const {
  v1::ClusterFeedCheck::Field* f = FieldOf(check, kListTitlesField);
  if (titles.empty()) {
    Count(f, false, url + ": rule gives no title on a list page");
    return true;
  }
  const std::string why = !home_.empty() && feed::NormalizeUrl(url) == home_ ? HomeMismatch(url, titles)
                                                                              : ListMismatch(url, titles);
  if (why == kNotJudged) return false;
  Count(f, why.empty(), why);
  return true;
}

// The home page shows every post, newest first: its titles are the feed's
// first k items. "" when they are; else why not.
std::string FeedTest::HomeMismatch(const std::string& url, const std::vector<std::string>& titles) const {
  const size_t k = std::min(titles.size(), feed_.items.size());
  for (size_t j = 0; j < k; ++j) {
    if (!feed::ValueMatchesFeed("title", titles[j], feed_.items[j], url)) {
      return absl::StrCat(url, ": title ", j + 1, " of ", titles.size(), " is \"", Shown(titles[j]),
                          "\", the feed's item ", j + 1, " \"", Shown(feed_.items[j].title), "\"");
    }
  }
  return "";
}

// Another list page (older page, archive, category) shows a newest-first
// selection of posts: the titles that are feed items come first, in feed
// order; titles after them are older than the feed. kNotJudged when no
// title is a feed item; "" when the order holds; else why not.
std::string FeedTest::ListMismatch(const std::string& url, const std::vector<std::string>& titles) const {
  const size_t n = feed_.items.size();
  auto item_of = [&](size_t title, size_t from) {
    for (size_t i = from; i < n; ++i) {
      if (feed::ValueMatchesFeed("title", titles[title], feed_.items[i], url)) return i;
    }
    return n;
  };
  size_t next = 0;             // feed items before it are taken
  size_t first_other = n;      // the first title that is no feed item after `next`
  bool any = false;
  for (size_t t = 0; t < titles.size(); ++t) {
    const size_t i = item_of(t, next);
    if (i < n && first_other == n) {
      next = i + 1;
      any = true;
      continue;
    }
    if (i < n || (next > 0 && item_of(t, 0) < next)) {
      return absl::StrCat(url, ": title ", t + 1, " of ", titles.size(), " \"", Shown(titles[t]),
                          "\" is out of the feed's order");
    }
    if (first_other == n) first_other = t;
  }
  return any ? "" : kNotJudged;
}

v1::FeedCheck FeedTest::Summarise(double threshold) const {
  v1::FeedCheck out;
  out.set_feed_format(feed::FeedFormatName(feed_.format));
  out.set_items(static_cast<uint32_t>(feed_.items.size()));
  out.set_entry_pages(entry_pages_);
  out.set_list_pages(list_pages_);
  for (const auto& [id, check] : clusters_) {
    v1::ClusterFeedCheck* c = out.add_clusters();
    *c = check;
    for (const v1::ClusterFeedCheck::Field& f : c->fields()) {
      if (Fails(f, threshold)) c->add_failing_fields(f.field());
    }
    c->set_failed(c->failing_fields_size() > 0);
  }
  return out;
}

std::string FeedSummary(const v1::ClusterFeedCheck& check, double threshold) {
  std::vector<std::string> fields;
  for (const v1::ClusterFeedCheck::Field& f : check.fields()) {
    fields.push_back(absl::StrCat(f.field(), " ", f.agree(), " of ", f.pages()));
  }
  return absl::StrCat("feed test ", check.failed() ? "failed" : "passed", " on ", check.pages(),
                      check.pages() == 1 ? " page" : " pages", " (agree: ", absl::StrJoin(fields, ", "),
                      check.failed() ? "; failing: " + absl::StrJoin(check.failing_fields(), ", ") : "",
                      "; threshold ", threshold, ")");
}

void ApplyFeedCheck(const v1::ClusterFeedCheck& check, double threshold, v1::ClusterVerdict* verdict) {
  const std::string summary = FeedSummary(check, threshold);
  const v1::ClusterVerdict::Verdict was = verdict->verdict();
  const bool no_pages = was == v1::ClusterVerdict::NO_PAGES || was == v1::ClusterVerdict::VERDICT_UNSPECIFIED;
  if (check.failed() && was != v1::ClusterVerdict::CHANGED && was != v1::ClusterVerdict::BROKEN) {
    verdict->set_verdict(v1::ClusterVerdict::BROKEN);
  } else if (!check.failed() && no_pages) {
    verdict->set_verdict(v1::ClusterVerdict::OK);
  }
  verdict->set_reason(no_pages || verdict->reason().empty() ? summary : verdict->reason() + "; " + summary);
  if (!check.failed()) return;
  for (const v1::ClusterFeedCheck::Field& f : check.fields()) {
    if (std::find(check.failing_fields().begin(), check.failing_fields().end(), f.field()) ==
        check.failing_fields().end()) {
      continue;
    }
    for (const std::string& e : f.evidence()) {
      if (verdict->evidence_size() >= kMaxEvidence) return;
      verdict->add_evidence("feed " + f.field() + ": " + e);
    }
  }
}

}  // namespace vertex::monitor
