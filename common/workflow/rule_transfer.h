// Rule transfer between the clusters of one site (beyond the Vertex paper).
// A site's pages of one page type often split into several clusters
// (optional blocks, layout variants): before such a cluster is queued for
// an editor, the rules already learnt for the site's other clusters are
// tried on its sample pages with the editor loop's checks, and a rule that
// passes is adopted: the cluster is merged into the rule's cluster, whose
// rule then covers its signature too (Rule.extra_signatures), so tasks,
// rule lists and monitoring see one cluster.
//
// A rule passes on a cluster when, on every one of its sample pages
// (members and attached), every mandatory attribute has a value, no
// single-valued attribute is ambiguous, no runner-up XPath of the rule
// (Rule.alternatives) gives another value, and every attribute the rule
// extracted on all of its own cluster's pages (Rule.always_extracted) has a
// value.
//
// Thread-safety: functions of their inputs.
#ifndef VERTEX_COMMON_WORKFLOW_RULE_TRANSFER_H_
#define VERTEX_COMMON_WORKFLOW_RULE_TRANSFER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/urlpattern/url_regex.h"
#include "common/workflow/cluster_learner.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::workflow {

struct TransferVerdict {
  bool passes = false;
  // Pages checked, and why the rule passed or the first failure, e.g.
  // "passed on 12 of 12 sample pages" or "price missing on 3 of 12 sample
  // pages, first https://...".
  size_t pages = 0;
  std::string reason;
};

// Tries `rule` on `pages` (indices into the pool's clustering) on
// `threads` threads (0: one per core). A page's read or parse error, or the
// rule's.
absl::StatusOr<TransferVerdict> TryRule(const extract::CompiledRule& rule, const std::vector<size_t>& pages,
                                        const PagePool& pool, int threads);

// Moves sample cluster `from`'s pages, attached pages and annotation order
// into sample cluster `into` of `state` (kept ascending; the order
// appended) and removes `from`. InvalidArgument when either is missing or
// they are the same.
absl::Status MergeSampleClusters(const std::string& into, const std::string& from, v1::SampleState* state);

// Records `from` as merged into `into` (its own merged clusters carried
// over), adds its importance to `into`'s, and infers `into`'s URL regex
// again over its pages in `state` (members and attached, after
// MergeSampleClusters). The URL regex inference's error.
absl::Status MergeClusterRecords(const v1::ClusterRecord& from, int64_t rule_version, const std::string& reason,
                                 int64_t now_ms, const v1::SampleState& state,
                                 const urlpattern::UrlRegexOptions& url_options, v1::ClusterRecord* into);

// `rule` as the rule of `into` after merges: its signatures covering the
// merged clusters, URL regex and importance from the record; version and
// creation time cleared for the store to assign.
v1::Rule MergedRule(const v1::Rule& rule, const v1::ClusterRecord& into, int64_t now_ms);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_RULE_TRANSFER_H_
