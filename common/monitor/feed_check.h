// The feed test of a Monitor run (issue 15 item 4): the site's RSS/Atom
// feed as an oracle of non-constant attributes, which golden values cannot
// judge (a blog's home page changes every day; its feed says what it must
// show today).
//
// For every page the run obtains and routes to a cluster, the cluster's
// current rule output is judged against the feed:
//   entry page  the page whose URL (feed::NormalizeUrl) is an item's link:
//               per checked field the rule's first value must agree with
//               the item (feed::ValueMatchesFeed; "categories": every
//               value). A field the item lacks (no author, no date) is not
//               judged on that page.
//   list page   another page where the rule gives at least two titles, or
//               any page of a list cluster (most of its golden extractions
//               hold several titles). The home page (the feed's own link)
//               shows every post: its first k titles must be the feed's
//               first k items, k = min(titles, items). Another list page
//               (older page, monthly archive, category) shows a newest-first
//               selection: the titles that are feed items must come first
//               and in feed order (titles after them are older posts); it
//               is not judged when none of its titles is a feed item (an
//               archive older than the feed). A list page with no title
//               fails.
// Per cluster and field, the share of judged pages that disagree; above
// the run's threshold the field fails and so does the cluster's feed test.
//
// Thread-safety: a FeedTest is used by one Monitor call (not thread-safe);
// the free functions are pure.
#ifndef VERTEX_COMMON_MONITOR_FEED_CHECK_H_
#define VERTEX_COMMON_MONITOR_FEED_CHECK_H_

#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/feed/feed.h"
#include "common/schema/schema.h"
#include "vertex/v1/monitoring.pb.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::monitor {

// The field judged on list pages (ClusterFeedCheck.Field.field).
inline constexpr char kListTitlesField[] = "list_titles";

// The feed fields the test judges, each with its schema attribute.
// `mapping` empty: "title", "date", "author" and "link", each with the
// attribute of its name where `schema` has one. InvalidArgument naming the
// entry for a field that is not one of title, date, author, link, body,
// categories, or an attribute `schema` does not have.
absl::StatusOr<std::map<std::string, std::string>> FeedFieldsToCheck(const schema::CompiledSchema& schema,
                                                                     const std::map<std::string, std::string>& mapping);

// Whether a cluster's pages are list pages: more than half of its golden
// extractions hold at least two values of `title_attribute`.
bool IsListCluster(const v1::ClusterRecord& record, const std::string& title_attribute);

class FeedTest {
 public:
  // `fields` as FeedFieldsToCheck returns them.
  FeedTest(feed::Feed feed, std::map<std::string, std::string> fields);

  const feed::Feed& feed() const { return feed_; }

  // The index of the item whose entry page `url` is (normalised URLs; the
  // first item of a repeated link), or -1.
  int ItemOf(const std::string& url) const;

  // Judges `results`, the rule's output on the page at `url` of cluster
  // `cluster_id`, as the entry page of item `item` when it is >= 0, else as
  // a list page when the rule gives several titles or `list_cluster`.
  // Returns whether the page was judged.
  bool Judge(const std::string& cluster_id, const std::string& url, int item,
             const std::vector<extract::AttributeResult>& results, bool list_cluster);

  // The test's outcome: per cluster judged, its fields and whether it
  // failed at `threshold` (the share of judged pages allowed to disagree);
  // feed_format, items, entry_pages and list_pages set.
  v1::FeedCheck Summarise(double threshold) const;

 private:
  const std::vector<std::string>* ValuesOf(const std::string& field,
                                           const std::vector<extract::AttributeResult>& results) const;
  void JudgeEntry(v1::ClusterFeedCheck* check, const std::string& url, const feed::FeedItem& item,
                  const std::vector<extract::AttributeResult>& results) const;
  bool JudgeList(v1::ClusterFeedCheck* check, const std::string& url, const std::vector<std::string>& titles) const;
  std::string HomeMismatch(const std::string& url, const std::vector<std::string>& titles) const;
  std::string ListMismatch(const std::string& url, const std::vector<std::string>& titles) const;
  v1::ClusterFeedCheck* ClusterCheck(const std::string& cluster_id);

  feed::Feed feed_;
  std::map<std::string, std::string> fields_;  // feed field -> attribute
  std::map<std::string, int> item_of_;         // normalised link -> item
  std::string home_;                           // the feed's link, normalised
  std::map<std::string, v1::ClusterFeedCheck> clusters_;
  uint32_t entry_pages_ = 0;
  uint32_t list_pages_ = 0;
};

// Folds a cluster's feed test into its verdict: a failed test makes OK,
// NO_PAGES and UNREACHABLE BROKEN (CHANGED stays: the template changed);
// a passed test makes NO_PAGES OK (the feed's pages were tested). The
// test's summary is appended to the reason and its evidence added, up to
// 5 lines in all.
void ApplyFeedCheck(const v1::ClusterFeedCheck& check, double threshold, v1::ClusterVerdict* verdict);

// "feed test failed: title agrees on 1 of 10 pages, date 10 of 10 (threshold
// 0.2)" or "feed test passed: ...".
std::string FeedSummary(const v1::ClusterFeedCheck& check, double threshold);

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_FEED_CHECK_H_
