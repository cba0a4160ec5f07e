// The list finder's proposals in the editor loop (issue 14, deliverable 4):
// for a page to annotate, the lists the list model finds on it
// (lists::SuggestLists) assigned to the schema's multi-valued attributes,
// as pre-filled annotations (AnnotationTask.proposed) an editor accepts
// (one input) or corrects (a partial label: the first K values).
//
// Assignment, per attribute:
//   - with evidence in the cluster (annotated values on other pages, the
//     current rule's values on this page): the suggestion whose items share
//     the structure of the evidence's elements (their tag path with
//     classes, ItemPath) and/or whose values are the rule's values here;
//     nothing when no suggestion matches well enough;
//   - with none: the best unclaimed suggestion whose markup names the
//     attribute (a word of its name, stemmed, among the class/id words of
//     the items' path: ul.features for "features"), else the best
//     suggestion no other attribute claims; the reason says the editor
//     must confirm it;
//   - never a single-valued attribute; suggestions whose values mostly do
//     not fit the attribute's value type are not proposed for it.
// Record-level schemas get no proposals (left out).
//
// Thread-safety: pure functions; AddListProposals reads the store only.
#ifndef VERTEX_COMMON_WORKFLOW_LIST_PROPOSALS_H_
#define VERTEX_COMMON_WORKFLOW_LIST_PROPOSALS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/store/rule_store.h"
#include "vertex/v1/learning.pb.h"
#include "vertex/v1/list_model.pb.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::workflow {

// What the cluster says about one multi-valued attribute.
struct AttributeEvidence {
  // ItemPath of the elements holding its annotated or extracted values.
  std::set<std::string> item_paths;
  // Its values on the page proposed for (the current rule's), folded.
  std::set<std::string> page_values;
  // Pages whose annotations of it were seen, and whether the rule gave values.
  size_t annotated_pages = 0;
  bool rule_values = false;
  // Whether any annotation or rule speaks of the attribute.
  bool known() const { return annotated_pages > 0 || rule_values; }
};

struct ProposalOptions {
  // Proposals per task, at most.
  size_t max_per_task = 4;
  // Suggestions asked of the list finder per page.
  size_t suggestions = 8;
  // Least share of a suggestion's items (or values) that must match an
  // attribute's evidence for it to be proposed for that attribute.
  double min_match = 0.5;
};

// The element's tag path with the classes of its ancestors (not its own,
// which often alternate: odd/even, active):
// "/html/body/div.page/section#description/ul.features/li".
std::string ItemPath(html::Node element);

// The outermost elements of `page` whose whole text, folded
// (html::FoldText), is one of `values`, in document order.
std::vector<html::Node> ValueElements(const html::Page& page, const std::vector<std::string>& values);

// Adds the ItemPath of `values`' elements on `page` to `evidence`.
void AddValueEvidence(const html::Page& page, const std::vector<std::string>& values, AttributeEvidence* evidence);

// Assigns `suggestions` (best first, as SuggestLists ranks them, found on
// `page`) to `schema`'s multi-valued attributes as the file comment says.
// `evidence` is keyed by attribute name (a missing attribute has none).
// Proposals in schema order, at most options.max_per_task.
std::vector<v1::ProposedList> AssignSuggestions(const schema::CompiledSchema& schema,
                                                const std::vector<v1::ListSuggestion>& suggestions,
                                                const html::Page& page,
                                                const std::map<std::string, AttributeEvidence>& evidence,
                                                int64_t model_version, const ProposalOptions& options = {});

// SuggestLists on `page`, then AssignSuggestions. InvalidArgument for a
// model that does not load (SuggestLists').
absl::StatusOr<std::vector<v1::ProposedList>> ProposeLists(const v1::ListModel& model,
                                                           const schema::CompiledSchema& schema,
                                                           const html::Page& page,
                                                           const std::map<std::string, AttributeEvidence>& evidence,
                                                           const ProposalOptions& options = {});

// Fills `response`'s tasks' `proposed` (GetAnnotationTasks): for tasks of
// clusters of `site` whose schema has multi-valued attributes and is not
// record-level, when `store` holds a list model (the latest). Evidence:
// the cluster's annotations (on their sample pages) and its current rule
// applied to the task's page. No model, a model that does not load, a page
// that does not parse: no proposal for it, and no error. A cluster's next
// page (ClusterProgress.next) gets its task's proposals. Errors: the
// store's, reading the site, its sample state and its clusters.
absl::Status AddListProposals(const store::RuleStore& store, const std::string& site,
                              const html::ParseOptions& parse, v1::GetAnnotationTasksResponse* response,
                              const ProposalOptions& options = {});

// The proposals of `tasks` as annotation lines `vertexctl learn` reads
// (annotations.h): per proposal a "# ..." line (cluster, rank, score,
// reason, urls) and one JSON line {"file"|"url", "attribute", "values"}
// (the task's file when it has one, else its URL), which the editor keeps
// (accept), edits (deleting wrong values and adding "partial": true for
// the first K values of a longer list) or deletes.
std::string ProposalAnnotationLines(const v1::GetAnnotationTasksResponse& tasks);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_LIST_PROPOSALS_H_
