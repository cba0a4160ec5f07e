// An editor simulated from ground truth (SWDE format, eval/ground_truth.h):
// for each cluster it annotates the first page of the annotation sample,
// learns, and keeps annotating the page the editor loop asks for until the
// loop is done or K pages are annotated. Annotating a page means, per schema
// attribute with ground truth, giving its values as the page shows them (the
// first of eval::EditorValueForms found in the page's text), or saying it is
// absent when the ground truth says <NULL>. With "list first K"
// (list_first > 0) a multi-valued attribute with more than K values is
// annotated with its first K values in page order and `partial` (issue 14:
// the editor types the start of a long list only).
//
// Used by `vertexctl eval-swde` and the quick start; the editor never sees
// more than the pages it annotates.
//
// Thread-safety: as LearnCluster (the PagePool is not thread-safe).
#ifndef VERTEX_COMMON_WORKFLOW_SIMULATED_EDITOR_H_
#define VERTEX_COMMON_WORKFLOW_SIMULATED_EDITOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "common/eval/ground_truth.h"
#include "common/workflow/cluster_learner.h"

namespace vertex::workflow {

struct SimulatedEditorOptions {
  // K: pages annotated per cluster at most.
  size_t max_pages = 3;
  // "List first K": multi-valued attributes get their first K values of a
  // page, in page order, as a partial annotation; 0 = all values.
  size_t list_first = 0;
  ClusterLearnOptions learn;
};

struct SimulatedCluster {
  size_t cluster = 0;  // index into clustering.clusters
  // Pages annotated, in order (indices into clustering.pages).
  std::vector<size_t> annotated;
  // Pages skipped because the ground truth does not know them.
  std::vector<size_t> unknown;
  // The last learning round.
  ClusterLearnResult result;
};

// The annotations of page `page` (an index into clustering.pages, parsed as
// `parsed`) from the ground truth of its page id. Empty when the ground truth
// does not know the page. `list_first` > 0: a multi-valued attribute with
// more values keeps its first `list_first` in page order (the order of their
// nodes, as learn::ResolveValues finds them; the ground truth's order when
// some is not found) and is marked partial.
std::vector<learn::AttributeAnnotation> AnnotateFromTruth(const schema::CompiledSchema& schema,
                                                          const eval::GroundTruth& truth, const std::string& file,
                                                          size_t page, const html::Page& parsed,
                                                          size_t list_first = 0);

// Runs the simulated editor on every cluster of `clustering`.
absl::StatusOr<std::vector<SimulatedCluster>> SimulateEditor(const schema::CompiledSchema& schema,
                                                             const site::SiteClustering& clustering,
                                                             const eval::GroundTruth& truth, PagePool& pool,
                                                             const SimulatedEditorOptions& options);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_SIMULATED_EDITOR_H_
