// The extraction service's operation over the rule store, free of gRPC:
// the record of a page from the current rules of its site. Each site's
// rules are compiled once (extract::SiteExtractor) and kept; Refresh()
// re-reads what rule matching depends on (the site's schema and the
// current version of each cluster's rule) and recompiles a site whose rules
// changed. A service calls Refresh() after its store instance catches up
// with the writer, so a rule Learn stores is used by the next request.
//
// Thread-safety: Extract() and Refresh() may be called from many threads at
// once; a request is answered with the rules compiled when it started.
#ifndef VERTEX_COMMON_WORKFLOW_EXTRACTION_ENGINE_H_
#define VERTEX_COMMON_WORKFLOW_EXTRACTION_ENGINE_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "common/extract/site_extractor.h"
#include "common/html/page.h"
#include "common/store/rule_store.h"
#include "common/workflow/api.h"
#include "vertex/v1/extraction.pb.h"

namespace vertex::workflow {

struct ExtractionEngineOptions {
  // max_page_bytes and max_depth bound every page; the builder is each
  // site's (SiteSettings.page_builder), never this one.
  html::ParseOptions parse;
  // Rule matching (nearest: the fallback for pages no signature covers,
  // on by default).
  extract::SiteExtractorOptions extractor;
};

class ExtractionEngine final : public ExtractionApi {
 public:
  // `store` must outlive the engine.
  ExtractionEngine(const store::RuleStore* store, ExtractionEngineOptions options);
  ~ExtractionEngine();

  // The record of request.html. Errors: InvalidArgument naming the field
  // for an empty url or html, or a page that cannot be parsed;
  // ResourceExhausted for a page over options.parse.max_page_bytes (or too
  // deep); NotFound for a named site that is not registered;
  // FailedPrecondition for a named site without rules. A request without
  // site tries the registered sites in order and answers NO_URL_MATCH when
  // no site's URL regexes match.
  absl::StatusOr<v1::ExtractResponse> Extract(const v1::ExtractRequest& request) override;
  absl::StatusOr<v1::ExtractResponse> ExtractConst(const v1::ExtractRequest& request) const;
  absl::StatusOr<std::vector<v1::ExtractResponse>> ExtractMany(
      const std::vector<v1::ExtractRequest>& requests) override;

  // Re-reads every site seen so far (and the list of sites); recompiles
  // those whose schema or current rules changed and forgets deleted ones.
  // Returns how many sites changed. Errors: the store's.
  absl::StatusOr<size_t> Refresh();

  const ExtractionEngineOptions& options() const { return options_; }

 private:
  struct SiteRules;
  class ParserPool;

  absl::StatusOr<std::shared_ptr<const SiteRules>> Rules(const std::string& site) const;
  absl::StatusOr<std::vector<std::string>> Sites() const;
  absl::StatusOr<std::shared_ptr<const SiteRules>> Load(const std::string& site) const;

  const store::RuleStore* store_;
  ExtractionEngineOptions options_;
  std::unique_ptr<ParserPool> parsers_;
  mutable absl::Mutex mu_;
  mutable std::map<std::string, std::shared_ptr<const SiteRules>> sites_ ABSL_GUARDED_BY(mu_);
  mutable std::optional<std::vector<std::string>> site_list_ ABSL_GUARDED_BY(mu_);
};

// The response ExtractMany (and ExtractStream) gives a page that failed
// with `status`: the request's id, the canonical code and the message.
v1::ExtractResponse FailedExtractResponse(const std::string& id, const absl::Status& status);

}  // namespace vertex::workflow

#endif  // VERTEX_COMMON_WORKFLOW_EXTRACTION_ENGINE_H_
