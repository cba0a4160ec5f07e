// How AnnotateFromFeed (feed_call.cc) chooses the pages a cluster's rule is
// learnt from and judges the candidate rule on the others: the rule's
// values of each annotated attribute on a page it was not learnt from are
// compared with the feed's (feed::ValueMatchesFeed), value by value in page
// order, as many as the matcher annotated there.
//
// Thread-safety: pure functions of their inputs; the feed items and pages
// pointed to must outlive the calls.
#ifndef VERTEX_COMMON_WORKFLOW_FEED_CHECK_H_
#define VERTEX_COMMON_WORKFLOW_FEED_CHECK_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/feed/feed.h"
#include "common/html/page.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::workflow {

// One sample page the feed annotated, as a cluster is learnt and checked
// from it.
struct FeedAnnotatedPage {
  uint32_t index = 0;  // the page's sample index
  std::string url;
  bool list = false;  // a list page (home, archive); else an entry page
  // The feed items it shows, in page order (one on an entry page).
  std::vector<const feed::FeedItem*> items;
  // The matcher's annotations of the page (url and attribute set).
  std::vector<v1::Annotation> annotations;
  // Per feed field, the positions in `items` of the items whose field the
  // matcher found on the page, ascending.
  std::map<std::string, std::vector<size_t>> found;
};

// One cluster's part of an AnnotateFromFeed call.
struct FeedClusterInput {
  std::string cluster_id;
  std::vector<FeedAnnotatedPage> pages;
  // Schema attribute -> the feed field annotating it.
  std::map<std::string, std::string> attribute_field;
  // Pages to learn from (AnnotateFromFeedRequest.learn_pages; 0: 3).
  size_t learn_pages = 3;
  // AnnotateFromFeedRequest.allow_attribute_loss, passed to Learn.
  bool allow_attribute_loss = false;
};

// The positions in `pages` in the order they are chosen to learn from: the
// pages of Algorithm 2's `annotation_order` (sample indices) in that order,
// then the others by decreasing number of annotations (ties: sample index).
std::vector<size_t> FeedLearnOrder(const std::vector<FeedAnnotatedPage>& pages,
                                   const std::vector<uint32_t>& annotation_order);

// How many of `annotated` pages are learnt from: learn_pages (0: 3), but at
// most annotated - 1 when there are two or more, so that one checks.
size_t FeedLearnCount(size_t annotated, size_t learn_pages);

// The pages a candidate must be checked on before it is accepted: 2 for a
// cluster of list pages (any of its pages a list: a list's rule checked on
// one page may have passed on a page that shows no pagination or sidebar
// the rule would also pick), 1 for entry pages.
size_t MinCheckedPages(const FeedClusterInput& input);

// The feed items the values of `annotation` (for feed field `field`) on
// `page` stand for, one per value, in page order: each annotated value is
// given the next item of the page it agrees with (ValueMatchesFeed; the
// same item again for "categories", several per item), null when none
// does. An annotation by XPath only (a body) stands for the items whose
// field was found on the page.
std::vector<const feed::FeedItem*> ExpectedFeedItems(const std::string& field, const v1::Annotation& annotation,
                                                     const FeedAnnotatedPage& page);

// Whether the rule's `values` of the attribute `annotation` annotates
// reproduce the feed on `page`: as many values as expected (at least as
// many when the annotation is partial: the page shows more entries than
// the feed), each agreeing with its item (ValueMatchesFeed; an expected
// value with no item agrees with any item of the page). "" when they do;
// else "URL: rule gives "x", the feed "y"" (values cut at 80 characters)
// or "URL: rule gives N values, the feed M".
std::string FeedValueMismatch(const std::string& field, const std::vector<std::string>& values,
                              const v1::Annotation& annotation, const FeedAnnotatedPage& page);

// What CheckRuleOnFeedPages found.
struct FeedCheckResult {
  // Per attribute checked, in the order first annotated: pages, pages
  // reproduced, up to 5 mismatches.
  std::vector<v1::FeedClusterLearn::AttributeCheck> checks;
  // The pages (positions in `checked`) where an attribute did not
  // reproduce the feed, ascending.
  std::vector<size_t> failed;
};

// Applies `rule` to each of `pages` (parallel to `checked`, the same pages
// parsed) and, per attribute annotated on them that the rule has a part for
// and whose feed field is in `attribute_field`, counts the pages where the
// rule reproduced the feed (FeedValueMismatch). FailedPrecondition for a
// record-level rule (its records are not checked against the feed); the
// rule's evaluation error.
absl::StatusOr<FeedCheckResult> CheckRuleOnFeedPages(const extract::CompiledRule& rule,
                                                     const std::vector<const html::Page*>& pages,
                                                     const std::vector<const FeedAnnotatedPage*>& checked,
                                                     const std::map<std::string, std::string>& attribute_field);

// The attributes `rule` has a part for (Rule.attributes).
std::set<std::string> RuleAttributes(const v1::Rule& rule);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_FEED_CHECK_H_
