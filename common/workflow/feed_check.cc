#include "common/workflow/feed_check.h"

#include <algorithm>
#include <set>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/feed/feed_matcher.h"
#include "common/util/status_macros.h"

namespace vertex::workflow {
namespace {

// Up to 5 mismatches are kept per attribute (FeedClusterLearn).
constexpr size_t kMaxMismatches = 5;
constexpr size_t kMaxQuoted = 80;

// `s` cut to at most kMaxQuoted bytes at a character boundary, "..." added
// when cut.
std::string Cut(std::string_view s) {
  if (s.size() <= kMaxQuoted) return std::string(s);
  size_t end = kMaxQuoted;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0) == 0x80) --end;
  return std::string(s.substr(0, end)) + "...";
}

// The feed's value of `field` for `item`, as a mismatch quotes it.
std::string FeedValue(const std::string& field, const feed::FeedItem& item) {
  if (field == "title") return item.title;
  if (field == "link") return item.link;
  if (field == "date") return item.date ? item.date->raw : "(no date)";
  if (field == "author") return absl::StrJoin(item.authors, ", ");
  if (field == "categories") return absl::StrJoin(item.categories, ", ");
  return item.content_html.empty() ? item.description_html : item.content_html;
}

bool AgreesWithAny(const std::string& field, const std::string& value, const FeedAnnotatedPage& page) {
  for (const feed::FeedItem* item : page.items) {
    if (feed::ValueMatchesFeed(field, value, *item, page.url)) return true;
  }
  return false;
}

}  // namespace

std::vector<size_t> FeedLearnOrder(const std::vector<FeedAnnotatedPage>& pages,
                                   const std::vector<uint32_t>& annotation_order) {
  std::vector<size_t> out;
  for (uint32_t index : annotation_order) {
    for (size_t i = 0; i < pages.size(); ++i) {
      if (pages[i].index == index && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
    }
  }
  std::vector<size_t> rest;
  for (size_t i = 0; i < pages.size(); ++i) {
    if (std::find(out.begin(), out.end(), i) == out.end()) rest.push_back(i);
  }
  std::stable_sort(rest.begin(), rest.end(), [&](size_t a, size_t b) {
    if (pages[a].annotations.size() != pages[b].annotations.size()) {
      return pages[a].annotations.size() > pages[b].annotations.size();
    }
    return pages[a].index < pages[b].index;
  });
  out.insert(out.end(), rest.begin(), rest.end());
  return out;
}

size_t FeedLearnCount(size_t annotated, size_t learn_pages) {
  const size_t want = learn_pages == 0 ? 3 : learn_pages;
  if (annotated <= 1) return annotated;
  return std::min(want, annotated - 1);
}

size_t MinCheckedPages(const FeedClusterInput& input) {
  const bool list = std::any_of(input.pages.begin(), input.pages.end(), [](const FeedAnnotatedPage& p) { return p.list; });
  return list ? 2 : 1;
}

std::vector<const feed::FeedItem*> ExpectedFeedItems(const std::string& field, const v1::Annotation& annotation,
                                                     const FeedAnnotatedPage& page) {
  std::vector<const feed::FeedItem*> out;
  if (annotation.values().empty() && annotation.value().empty()) {
    auto it = page.found.find(field);
    if (it == page.found.end()) return out;
    for (size_t k : it->second) {
      if (k < page.items.size()) out.push_back(page.items[k]);
    }
    return out;
  }
  std::vector<std::string> values(annotation.values().begin(), annotation.values().end());
  if (values.empty()) values.push_back(annotation.value());
  const bool several_per_item = field == "categories";
  size_t next = 0;  // the first item the next value may stand for
  for (const std::string& v : values) {
    const feed::FeedItem* item = nullptr;
    for (size_t k = next; k < page.items.size(); ++k) {
      if (feed::ValueMatchesFeed(field, v, *page.items[k], page.url)) {
        item = page.items[k];
        next = several_per_item ? k : k + 1;
        break;
      }
    }
    out.push_back(item);
  }
  return out;
}

std::string FeedValueMismatch(const std::string& field, const std::vector<std::string>& values,
                              const v1::Annotation& annotation, const FeedAnnotatedPage& page) {
  const std::vector<const feed::FeedItem*> expected = ExpectedFeedItems(field, annotation, page);
  const bool too_few = values.size() < expected.size();
  const bool too_many = !annotation.partial() && values.size() > expected.size();
  if (too_few || too_many) {
    return absl::StrCat(page.url, ": rule gives ", values.size(), values.size() == 1 ? " value" : " values",
                        ", the feed ", expected.size());
  }
  for (size_t j = 0; j < expected.size(); ++j) {
    const bool agrees = expected[j] != nullptr ? feed::ValueMatchesFeed(field, values[j], *expected[j], page.url)
                                               : AgreesWithAny(field, values[j], page);
    if (agrees) continue;
    const std::string feed_value =
        expected[j] != nullptr ? FeedValue(field, *expected[j]) : std::string("(none of the page's items)");
    return absl::StrCat(page.url, ": rule gives \"", Cut(values[j]), "\", the feed \"", Cut(feed_value), "\"");
  }
  return "";
}

std::set<std::string> RuleAttributes(const v1::Rule& rule) {
  std::set<std::string> out;
  for (const v1::AttributeRule& a : rule.attributes()) out.insert(a.attribute());
  return out;
}

absl::StatusOr<FeedCheckResult> CheckRuleOnFeedPages(const extract::CompiledRule& rule,
                                                     const std::vector<const html::Page*>& pages,
                                                     const std::vector<const FeedAnnotatedPage*>& checked,
                                                     const std::map<std::string, std::string>& attribute_field) {
  if (rule.record_level()) {
    return absl::FailedPreconditionError("a record-level rule's records are not checked against the feed");
  }
  const std::set<std::string> has = RuleAttributes(rule.proto());
  FeedCheckResult out;
  std::map<std::string, size_t> slot;  // attribute -> index in out.checks
  for (size_t p = 0; p < pages.size() && p < checked.size(); ++p) {
    VERTEX_ASSIGN_OR_RETURN(const std::vector<extract::AttributeResult> results, rule.Apply(*pages[p]));
    std::set<std::string> seen;  // an attribute counts once per page
    bool failed = false;
    for (const v1::Annotation& a : checked[p]->annotations) {
      auto field = attribute_field.find(a.attribute());
      if (field == attribute_field.end() || a.absent() || !has.count(a.attribute()) ||
          !seen.insert(a.attribute()).second) {
        continue;
      }
      auto [it, added] = slot.try_emplace(a.attribute(), out.checks.size());
      if (added) out.checks.emplace_back().set_attribute(a.attribute());
      v1::FeedClusterLearn::AttributeCheck& check = out.checks[it->second];
      std::vector<std::string> values;
      for (const extract::AttributeResult& r : results) {
        if (r.attribute == a.attribute()) values = r.values;
      }
      check.set_pages(check.pages() + 1);
      const std::string mismatch = FeedValueMismatch(field->second, values, a, *checked[p]);
      if (mismatch.empty()) {
        check.set_reproduced(check.reproduced() + 1);
        continue;
      }
      failed = true;
      if (static_cast<size_t>(check.mismatches_size()) < kMaxMismatches) check.add_mismatches(mismatch);
    }
    if (failed) out.failed.push_back(p);
  }
  return out;
}

}  // namespace vertex::workflow
