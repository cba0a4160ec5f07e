// A cluster's bellwether pages (Vertex IV-B): the pages monitoring tests
// the cluster's rule on, chosen when a rule is learnt (or reused, or
// repaired), stored with the rule's output on them (golden extractions)
// and their bytes (snapshots).
//
// Thread-safety: functions of their inputs (a PagePool is not thread-safe:
// give each thread its own).
#ifndef VERTEX_COMMON_MONITOR_BELLWETHERS_H_
#define VERTEX_COMMON_MONITOR_BELLWETHERS_H_

#include <vector>

#include "absl/status/status.h"
#include "common/extract/compiled_rule.h"
#include "common/shingle/shingle.h"
#include "common/store/rule_store.h"
#include "common/workflow/cluster_learner.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::monitor {

// Bellwethers of a cluster: `first` (the annotated pages, in order, at most
// `count`), then members chosen greedily for structural diversity: each
// next one is the member whose shingle vector differs in the most
// positions from its nearest already chosen one (ties: the earliest).
// Pages are indices into `vectors` (page i's shingle vector); `first` pages
// need not be members. Returns at most `count` pages, `first` ones first.
std::vector<size_t> ChooseBellwethers(const std::vector<size_t>& members, const std::vector<size_t>& first,
                                      const std::vector<shingle::ShingleVector>& vectors, size_t count);

// Chooses the bellwether pages of sample cluster `sc` for `rule`
// (ChooseBellwethers: the `annotated` pages, then structurally diverse
// members; members on which the rule misses a mandatory attribute are
// passed over) and adds to `commit` their URLs (bellwether_urls), the
// rule's output on them (golden) and their bytes (snapshots, unless there
// already). At most `count`. The pages' load or parse error, or the rule's.
absl::Status AddBellwethers(const extract::CompiledRule& rule, const v1::SampleState& state,
                            const v1::SampleCluster& sc, const std::vector<size_t>& annotated,
                            workflow::PagePool& pool, size_t count, store::RuleCommit* commit);

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_BELLWETHERS_H_
