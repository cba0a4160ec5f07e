// Extraction of a record from one page with the rules of a site (Vertex
// paper, IV-A). Rule matching: the URL regexes of all the site's rules are
// tried first, as one RE2::Set (a page matching none is answered without
// parsing: NO_URL_MATCH); the page is then parsed, its shingle vector
// computed in the same walk, and the matching rules whose masked signature
// covers it are kept (none: NO_SHINGLE_MATCH); the one with the highest
// importance wins (ties: the smaller cluster id). Its attributes give the
// record; a mandatory attribute without a value makes the record PARTIAL.
//
// Thread-safety: immutable after Create(); Extract() may be called from
// many threads at once, each with its own html::Parser.
#ifndef VERTEX_COMMON_EXTRACT_SITE_EXTRACTOR_H_
#define VERTEX_COMMON_EXTRACT_SITE_EXTRACTOR_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "common/urlpattern/url_regex.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::extract {

enum class RecordStatus { kOk, kPartial, kNoUrlMatch, kNoShingleMatch };

// "OK", "PARTIAL", "NO_URL_MATCH", "NO_SHINGLE_MATCH".
const char* RecordStatusName(RecordStatus status);

struct Record {
  std::string url;
  RecordStatus status = RecordStatus::kNoUrlMatch;
  // The rule used; empty and 0 for NO_URL_MATCH / NO_SHINGLE_MATCH.
  std::string cluster_id;
  int64_t rule_version = 0;
  // Schema order; empty for NO_URL_MATCH / NO_SHINGLE_MATCH.
  std::vector<AttributeResult> attributes;
  // Mandatory attributes without a value (PARTIAL).
  std::vector<std::string> missing_mandatory;
  // Whether the page was parsed (false for NO_URL_MATCH).
  bool parsed = false;
};

class SiteExtractor {
 public:
  // Compiles `rules` (one current rule per cluster) for `schema`.
  // InvalidArgument naming the cluster when a rule does not compile or its
  // URL regex is not a valid RE2 pattern.
  static absl::StatusOr<SiteExtractor> Create(const schema::CompiledSchema& schema,
                                              const std::vector<v1::Rule>& rules);

  SiteExtractor(SiteExtractor&&) noexcept;
  SiteExtractor& operator=(SiteExtractor&&) noexcept;
  ~SiteExtractor();

  // The record of the page `bytes` fetched from `url`. Errors: the parser's
  // (InvalidArgument for an empty page, ResourceExhausted over a limit),
  // Internal when libxml2 fails to evaluate a rule.
  absl::StatusOr<Record> Extract(std::string_view bytes, const std::string& url, html::Parser& parser,
                                 std::string_view http_content_type = "") const;

  // Rule matching alone: indices into rules() of the rules whose URL regex
  // matches `url`, by decreasing importance.
  std::vector<size_t> MatchUrl(std::string_view url) const;

  // The record of an already parsed page whose shingle vector is `vector`.
  absl::StatusOr<Record> ExtractParsed(const html::Page& page, const shingle::ShingleVector& vector) const;

  const std::vector<CompiledRule>& rules() const;
  const schema::CompiledSchema& schema() const;

 private:
  struct State;
  explicit SiteExtractor(std::unique_ptr<State> state);
  absl::StatusOr<Record> ExtractMatched(const html::Page& page, const shingle::ShingleVector& vector,
                                        const std::vector<size_t>& by_url) const;
  std::unique_ptr<State> state_;
};

// The record as one JSON object: {"url","status","cluster","rule_version",
// "attributes":{"name":["value",...]}} plus, when `details`, per attribute
// method and score under "details". `file` is added first when non-empty.
std::string RecordToJson(const Record& record, const std::string& file, bool details);

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_SITE_EXTRACTOR_H_
