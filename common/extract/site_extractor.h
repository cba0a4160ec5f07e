// Extraction of a record from one page with the rules of a site (Vertex
// paper, IV-A, with a nearest-signature fallback beyond the paper).
//
// Rule matching:
//  1. URL. The URL regexes of all the site's rules are tried as one
//     RE2::Set. A page matching none is answered without parsing:
//     NO_URL_MATCH.
//  2. Signature. The page is parsed, its shingle vector computed in the same
//     walk. A rule covers the page when its masked signature, or one of its
//     Rule.extra_signatures (clusters merged into it), covers the vector.
//     Among the URL-matching rules that cover it, the one with the highest
//     importance wins (ties: the smaller cluster id); its attributes give
//     the record, matched_by kSignature, agreement = the kept bytes of its
//     first covering signature (signature, then extra_signatures in order;
//     e.g. 6 for a 6/8 signature, 0 for a rule without signature). A
//     mandatory attribute without a value makes the record PARTIAL.
//  3. Nearest (options.nearest, on by default). When no URL-matching rule
//     covers the page, those rules are ordered nearest first: the most
//     bytes agreeing with any of the rule's signatures
//     (CompiledRule::Agreement), then importance, then the smaller cluster
//     id. Each is applied in turn; the first whose record passes its own
//     checks (NearestMatchFailure: every mandatory and always_extracted
//     attribute present, every typed value valid) gives the record: OK,
//     matched_by kNearest, agreement = that rule's. No further rule is
//     applied. When none passes: NO_SHINGLE_MATCH with nearest_cluster,
//     agreement and nearest_rejected of the nearest rule (the first tried).
//     Agreements are computed only for pages no signature covers.
//     A record-level rule's checks are ListMatchFailure's (compiled_rule.h):
//     at least one record, one with every regular attribute, every typed
//     value valid.
//
// List pages (the chosen rule is record-level, CompiledRule::ApplyRecords):
// the Record has record_level set, no attributes, and its records in
// list_records, each OK or PARTIAL by its regular attributes
// (ListRecordResult.missing_regular). The page's status is OK when it has
// at least one record (whatever their own statuses: a list with a few
// records missing an optional-looking regular attribute is still a list),
// PARTIAL when it has none. `notes` says when records were cut or short.
//     With options.nearest off: NO_SHINGLE_MATCH at once, with no rule
//     applied and nearest_cluster, nearest_rejected empty, agreement 0.
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

// How the record's rule was chosen (see the matching procedure above):
// kNone for NO_URL_MATCH and NO_SHINGLE_MATCH.
enum class MatchedBy { kNone, kSignature, kNearest };

// "", "signature", "nearest".
const char* MatchedByName(MatchedBy matched_by);

struct Record {
  std::string url;
  RecordStatus status = RecordStatus::kNoUrlMatch;
  // The rule used; empty and 0 for NO_URL_MATCH / NO_SHINGLE_MATCH.
  std::string cluster_id;
  int64_t rule_version = 0;
  MatchedBy matched_by = MatchedBy::kNone;
  // Kept bytes of the chosen rule's signatures agreeing with the page's
  // vector: kSignature, the kept bytes of the covering signature; kNearest,
  // the rule's Agreement; NO_SHINGLE_MATCH, the nearest rule's Agreement
  // (0 with the fallback off); NO_URL_MATCH, 0.
  int agreement = 0;
  // NO_SHINGLE_MATCH with the fallback on: the nearest rule's cluster and
  // why its record was rejected (NearestMatchFailure, e.g. "title
  // missing"). Empty otherwise.
  std::string nearest_cluster;
  std::string nearest_rejected;
  // Schema order; empty for NO_URL_MATCH / NO_SHINGLE_MATCH.
  std::vector<AttributeResult> attributes;
  // Mandatory attributes without a value (PARTIAL).
  std::vector<std::string> missing_mandatory;
  // Whether the page was parsed (false for NO_URL_MATCH).
  bool parsed = false;
  // The chosen rule is record-level: the page's records are list_records
  // (attributes and missing_mandatory are then empty).
  bool record_level = false;
  std::vector<ListRecordResult> list_records;
  // ListResult.notes of a list page (records cut or short); empty
  // otherwise.
  std::vector<std::string> notes;
};

struct SiteExtractorOptions {
  // Step 3 of rule matching: give a page no signature covers the record of
  // the nearest URL-matching rule whose record passes its checks. Off: the
  // paper's rule matching (such a page is NO_SHINGLE_MATCH).
  bool nearest = true;
};

class SiteExtractor {
 public:
  // Compiles `rules` (one current rule per cluster) for `schema`.
  // InvalidArgument naming the cluster when a rule does not compile (its
  // signature or an extra signature included) or its URL regex is not a
  // valid RE2 pattern.
  static absl::StatusOr<SiteExtractor> Create(const schema::CompiledSchema& schema,
                                              const std::vector<v1::Rule>& rules,
                                              SiteExtractorOptions options = {});

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
  const SiteExtractorOptions& options() const;

 private:
  struct State;
  explicit SiteExtractor(std::unique_ptr<State> state);
  absl::StatusOr<Record> ExtractMatched(const html::Page& page, const shingle::ShingleVector& vector,
                                        const std::vector<size_t>& by_url) const;
  absl::StatusOr<Record> ExtractNearest(const html::Page& page, const shingle::ShingleVector& vector,
                                        const std::vector<size_t>& by_url) const;
  std::unique_ptr<State> state_;
};

// The record as one JSON object: {"url","status","cluster","rule_version",
// "matched_by","agreement","attributes":{"name":["value",...]}}, with
// "nearest_cluster" and "nearest_rejected" before "attributes" for
// NO_SHINGLE_MATCH, plus, when `details`, per attribute method and score
// under "details" and "missing_mandatory". `file` is added first when
// non-empty.
//
// A list page (record_level with at least one record) gives ONE LINE PER
// RECORD, joined by "\n" (no newline after the last):
//   {"file","url","status","cluster","rule_version","matched_by",
//    "agreement","record":0,"data_area":0,"attributes":{...}}
// where "status" is the record's (OK or PARTIAL; the page's is OK, as it
// has a record), plus, when `details`, "details", "missing_regular" and, on
// the first line, "notes". A list page without records gives one line as a
// page without attributes.
std::string RecordToJson(const Record& record, const std::string& file, bool details);

}  // namespace vertex::extract

#endif  // VERTEX_COMMON_EXTRACT_SITE_EXTRACTOR_H_
