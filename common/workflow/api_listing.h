// A record-level site's life through the vertex.v1 APIs (api.h), with no
// editor: register the site with its record-level schema, add its pages,
// Learn every cluster with no annotation (AMBER annotates, record_learner.h
// compiles), extract every page through ExtractMany, and score the list
// records against the pages' list truth (eval/list_truth.h). The same code
// runs in process and against a server.
//
// Thread-safety: a function of its inputs and the APIs' state.
#ifndef VERTEX_COMMON_WORKFLOW_API_LISTING_H_
#define VERTEX_COMMON_WORKFLOW_API_LISTING_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/eval/list_truth.h"
#include "common/schema/schema.h"
#include "common/workflow/api.h"
#include "common/workflow/api_editor.h"

namespace vertex::workflow {

struct ListingRunReport {
  v1::AddSamplePagesResponse sample;
  // The Learn response of each cluster, by cluster id.
  std::map<std::string, v1::LearnResponse> learnt;
  size_t clusters_with_rule = 0;
  std::vector<v1::ExtractResponse> records;  // one per page, in input order
  eval::ListScores scores;
  double learn_seconds = 0;
  double extract_seconds = 0;
};

// Runs the site; `truth` by page URL (pages without truth are extracted,
// not scored). Errors: the APIs'.
absl::StatusOr<ListingRunReport> RunListingSiteThroughApi(LearningApi& learning, ExtractionApi& extraction,
                                                          const std::string& site,
                                                          const schema::CompiledSchema& schema,
                                                          const std::vector<ClientPage>& pages,
                                                          const std::map<std::string, eval::ListTruthPage>& truth,
                                                          const ApiRunOptions& options = {});

// The run's table as the demo prints it.
std::string FormatListingReport(const std::string& site, const ListingRunReport& report);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_API_LISTING_H_
