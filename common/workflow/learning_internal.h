// Helpers shared by the LearningEngine's source files (learning_engine.cc,
// learn_call.cc) and relearning (common/monitor/relearn.cc); not an API.
//
// Thread-safety: functions of their inputs (a Parser is not thread-safe).
#ifndef VERTEX_COMMON_WORKFLOW_LEARNING_INTERNAL_H_
#define VERTEX_COMMON_WORKFLOW_LEARNING_INTERNAL_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "common/html/page.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::workflow::internal {

int64_t NowMs();

// The cluster as LearningService reports it, with `pages` sample pages.
v1::ClusterSummary Summary(const v1::ClusterRecord& r, uint32_t pages);
// The same, with the pages and attached pages of its sample cluster `c`.
v1::ClusterSummary SummaryOf(const v1::ClusterRecord& r, const v1::SampleCluster& c);

// `page` parsed for its shingle vector, as a sample page to store; when it
// cannot be parsed, nullopt and the error added to `errors`.
std::optional<v1::SamplePage> SamplePageOf(html::Parser& parser, const v1::Page& page,
                                           google::protobuf::RepeatedPtrField<v1::PageError>* errors);

// Algorithm 2's picks of sample cluster `c` (of record `r`), as tasks.
std::vector<v1::AnnotationTask> SampleTasks(const v1::ClusterRecord& r, const v1::SampleCluster& c,
                                            const v1::SampleState& state);

}  // namespace vertex::workflow::internal

#endif  // VERTEX_COMMON_WORKFLOW_LEARNING_INTERNAL_H_
