// A site's whole life through the vertex.v1 APIs (api.h), as the quick
// start runs it: register the site, add its pages, let an editor simulated
// from ground truth annotate the pages GetAnnotationTasks asks for (Learn
// after each, at most K per cluster), extract every page through
// ExtractMany (ExtractStream over gRPC) and score the records against the
// ground truth. The same code runs in process (the engines) and against a
// server (services/client), so both give the same figures.
//
// Thread-safety: a function of its inputs and the APIs' state.
#ifndef VERTEX_COMMON_WORKFLOW_API_EDITOR_H_
#define VERTEX_COMMON_WORKFLOW_API_EDITOR_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/eval/ground_truth.h"
#include "common/eval/score.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/workflow/api.h"
#include "common/workflow/proposal_editor.h"

namespace vertex::workflow {

// A page as the client holds it.
struct ClientPage {
  std::string file;  // names the page in the ground truth (eval::PageIdOfFile)
  std::string url;
  std::string bytes;
};

struct ApiRunOptions {
  // K: pages annotated per cluster at most.
  size_t max_pages = 3;
  // "List first K" (SimulatedEditorOptions::list_first): multi-valued
  // attributes are annotated with their first K values only, partial; 0 =
  // all values.
  size_t list_first = 0;
  // AddSamplePages and ExtractMany batches: at most this many pages and
  // bytes per call.
  size_t batch_pages = 200;
  size_t batch_bytes = 32 << 20;
  // Parses pages client-side to locate the ground truth's values (the
  // builder is the registered site's).
  html::ParseOptions parse;
  // Sent with RegisterSite when set (e.g. no_rule_transfer, to measure it).
  std::optional<v1::SiteSettings> settings;
  // The editor answers the list finder's proposals for multi-valued
  // attributes (AnnotationTask.proposed; proposal_editor.h) instead of
  // labelling every value.
  bool use_proposals = false;
};

struct ApiRunReport {
  v1::AddSamplePagesResponse sample;        // the AddSamplePages responses merged
  std::vector<v1::LearnResponse> learnt;    // the last Learn response of each cluster annotated
  size_t pages_annotated = 0;
  // Values the editor typed, in all and of multi-valued attributes (with
  // use_proposals: the values of its annotations, accepted proposals'
  // included; `inputs` says what they cost).
  size_t values_typed = 0;
  size_t list_values_typed = 0;
  size_t clusters_with_rule = 0;
  std::vector<v1::ExtractResponse> records;  // one per page, in input order
  eval::Scorer scorer;
  double learn_seconds = 0;    // register, add pages, annotate and learn
  double extract_seconds = 0;  // ExtractMany over every page
  // The editor's inputs per attribute (proposal_editor.h), over the pages
  // annotated: as it answered, and labelling every value.
  std::map<std::string, AttributeInputs> inputs;
};

// Adds `from` (the response of a later AddSamplePages call) to `into`, the
// responses so far: pages added are summed and errors kept, the rest (sample
// size, clusters) becomes `from`'s.
void MergeAddedPages(v1::AddSamplePagesResponse from, v1::AddSamplePagesResponse* into);

// Pages read from files (site::ExpandPagePaths order, URL per page_file.h).
absl::StatusOr<std::vector<ClientPage>> ReadClientPages(const std::vector<std::string>& paths,
                                                        size_t max_page_bytes);

// AddSamplePages in batches of options.batch_pages / batch_bytes (the last
// one clusters); the responses merged.
absl::StatusOr<v1::AddSamplePagesResponse> AddPages(LearningApi& api, const std::string& site,
                                                    const std::vector<ClientPage>& pages, const ApiRunOptions& options);

// ExtractMany in batches; one response per page, in order, appended to
// `out`.
absl::Status ExtractPages(ExtractionApi& api, const std::string& site, const std::vector<ClientPage>& pages,
                          const ApiRunOptions& options, std::vector<v1::ExtractResponse>* out);

// Runs the site's life as the file comment says. Errors: the APIs'.
absl::StatusOr<ApiRunReport> RunSiteThroughApi(LearningApi& learning, ExtractionApi& extraction,
                                               const std::string& site, const schema::CompiledSchema& schema,
                                               const std::vector<ClientPage>& pages, const eval::GroundTruth& truth,
                                               const ApiRunOptions& options = {});

// The per-attribute precision/recall table and the extraction rate, as the
// quick start prints them.
std::string FormatRunReport(const std::string& site, const schema::CompiledSchema& schema,
                            const ApiRunReport& report);

// The editor's inputs on `schema`'s multi-valued attributes (report.inputs),
// one line each: inputs as answered, labelling every value, proposals seen
// and how they were answered.
std::string FormatInputReport(const schema::CompiledSchema& schema, const ApiRunReport& report);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_API_EDITOR_H_
