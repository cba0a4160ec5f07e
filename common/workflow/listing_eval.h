// Evaluating AMBER and the record-level rules learnt from it on generated
// result-list sites (demo/listing_site.h), as AMBER's paper evaluates
// itself (precision and recall of data areas, records and attributes,
// perfect records; location accuracy at partial gazetteer coverage), plus
// what AMBER leaves open: the compiled rule's quality and cost on every
// page of the site.
//
//   AMBER     each page: annotate (the schema's regexes and the gazetteers)
//             and amber::Run, scored against the page's truth.
//   rule      the first `learn_pages` pages' typings (and `support_pages`
//             more pages) -> learn::LearnRecordRule -> CompiledRule;
//             ApplyRecords on every page, scored the same way.
//
// Thread-safety: functions of their inputs.
#ifndef VERTEX_COMMON_WORKFLOW_LISTING_EVAL_H_
#define VERTEX_COMMON_WORKFLOW_LISTING_EVAL_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/amber/amber.h"
#include "common/annotate/annotator.h"
#include "common/demo/listing_site.h"
#include "common/eval/list_truth.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "vertex/v1/extraction.pb.h"

namespace vertex::workflow {

// The shipped schema of a listing domain (deploy/schemas/real_estate.json
// and used_cars.json, compiled into the binary from those files).
absl::StatusOr<schema::CompiledSchema> ListingSchema(demo::ListingDomain domain);
// Its JSON text.
const char* ListingSchemaJson(demo::ListingDomain domain);

// The gazetteers of a generated listing site's vocabulary at `coverage`
// (0..1) of its terms: uk_places (the generator's place names), and for used
// cars car_makes and car_models. Nested samples: a lower coverage is a
// subset of a higher one for the same seed.
annotate::GazetteerSet ListingGazetteers(demo::ListingDomain domain, double coverage, uint64_t seed);

// AMBER's typing as the scorer's prediction: per record every resolved
// <a href> of its elements, and per attribute its value and its node's
// normalised text.
eval::PredictedPage PredictionOfTyping(const amber::Typing& typing, const html::Page& page,
                                       const schema::CompiledSchema& schema);

// A page's list records (as Extract answers them) as the scorer's
// prediction: the values of url attributes are the records' links; each
// attribute's first value is its value and text.
eval::PredictedPage PredictionOfResponse(const v1::ExtractResponse& response, const schema::CompiledSchema& schema);

// The same for a record-level rule's records on a page (ApplyRecords), by
// way of the response Extract would give.
eval::PredictedPage PredictionOfRecords(const extract::ListResult& list, const schema::CompiledSchema& schema);

struct ListingEvalOptions {
  amber::Options amber;
  // Pages AMBER analyses to learn the rule (the site's first ones), and
  // pages more the record XPath's support is checked on.
  size_t learn_pages = 10;
  size_t support_pages = 10;
  // Learn and score the rule (else AMBER only).
  bool rule = true;
};

struct ListingEvalReport {
  size_t pages = 0;
  eval::ListScores amber;
  eval::ListScores rule;
  // The learnt rule, and why none when learning failed.
  v1::RecordRule record_rule;
  std::string rule_error;
  std::vector<std::string> rule_notes;
  // CPU-free wall times over all pages (single thread, same run): parsing,
  // annotating + AMBER, the rule's ApplyRecords.
  double parse_seconds = 0;
  double amber_seconds = 0;
  double rule_seconds = 0;
};

// Evaluates `site` with `gazetteers`. Errors: a page that does not parse,
// a rule that does not compile (a bug), libxml2's.
absl::StatusOr<ListingEvalReport> EvalListingSite(const schema::CompiledSchema& schema, const demo::ListingSite& site,
                                                  const annotate::GazetteerSet& gazetteers,
                                                  const ListingEvalOptions& options = {});

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_LISTING_EVAL_H_
