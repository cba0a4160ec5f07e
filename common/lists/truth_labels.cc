#include "common/lists/truth_labels.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "common/lists/link_discovery.h"
#include "common/rule/url.h"

namespace vertex::lists {
namespace {

// Record index of every anchor whose href resolves to a record's link.
absl::flat_hash_map<const _xmlNode*, size_t> RecordAnchors(const std::vector<std::string>& links,
                                                           const html::Page& page) {
  absl::flat_hash_map<std::string, size_t> record_of;
  for (size_t r = 0; r < links.size(); ++r) record_of.try_emplace(NormalizeUrl(links[r]), r);
  const std::string base = rule::PageBaseUrl(page);
  absl::flat_hash_map<const _xmlNode*, size_t> anchors;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (n.tag() != "a" || !n.has_attribute("href")) continue;
    absl::StatusOr<std::string> url = rule::ResolveUrl(base, n.attribute_view("href"));
    if (!url.ok()) continue;
    auto it = record_of.find(NormalizeUrl(*url));
    if (it != record_of.end()) anchors.emplace(n.raw(), it->second);
  }
  return anchors;
}

// Whether the subtree of `node` holds an anchor of a record other than `r`.
bool HoldsOther(html::Node node, size_t r, const absl::flat_hash_map<const _xmlNode*, size_t>& anchors) {
  for (html::Node n = node; n; n = n.NextInDocument(node)) {
    auto it = anchors.find(n.raw());
    if (it != anchors.end() && it->second != r) return true;
  }
  return false;
}

}  // namespace

absl::StatusOr<LabelledPage> LabelledPageFromTruth(const eval::ListTruthPage& truth, const html::Page& page) {
  std::vector<std::string> links;
  for (const eval::TruthArea& area : truth.areas) {
    for (const eval::TruthRecord& record : area.records) links.push_back(record.link);
  }
  const std::string name = truth.file.empty() ? truth.url : truth.file;
  // A product listed twice is one record index (the first) for both tiles.
  const absl::flat_hash_map<const _xmlNode*, size_t> anchors = RecordAnchors(links, page);
  absl::flat_hash_set<size_t> found;
  for (const auto& [node, r] : anchors) found.insert(r);
  for (size_t r = 0; r < links.size(); ++r) {
    if (!found.contains(r) && std::find(links.begin(), links.begin() + r, links[r]) == links.begin() + r) {
      return absl::InvalidArgumentError(absl::StrCat(name, ": no anchor links to record ", links[r]));
    }
  }
  LabelledPage labelled;
  labelled.page = &page;
  labelled.name = name;
  absl::flat_hash_set<const _xmlNode*> positive;
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    auto it = anchors.find(n.raw());
    if (it == anchors.end()) continue;
    html::Node item = n;
    while (found.size() > 1 && item.parent() && !HoldsOther(item.parent(), it->second, anchors)) item = item.parent();
    positive.insert(item.raw());
    positive.insert(n.raw());
  }
  for (html::Node n = page.root(); n; n = n.NextInDocument(page.root())) {
    if (positive.contains(n.raw())) labelled.positives.push_back(n);
  }
  return labelled;
}

}  // namespace vertex::lists
