// The checks monitoring and relearning run on a rule (Vertex IV-B, IV-C):
//   shingle test  does the rule's masked signature cover a page's vector?
//   field test    does the rule extract every mandatory attribute, and do
//                 constant attributes keep their golden (or old) values?
//                 For a record-level rule (list pages): are there at least
//                 (1 - delta) x the golden count of records, and is every
//                 regular attribute in more than half of them (the AMBER
//                 digest's 3.5.6, Θ_infer = 50%)?
// (bellwethers.h chooses the pages they run on).
//
// Thread-safety: functions of their inputs (a Parser is not thread-safe:
// give each thread its own).
#ifndef VERTEX_COMMON_MONITOR_RULE_CHECKS_H_
#define VERTEX_COMMON_MONITOR_RULE_CHECKS_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/shingle/shingle.h"
#include "vertex/v1/rule.pb.h"

namespace vertex::monitor {

// The rule's output on a page, as stored for monitoring.
v1::GoldenExtraction GoldenOf(const std::string& url, const std::vector<extract::AttributeResult>& results);

// The golden extraction of a list page: record_count, and per schema
// attribute (schema order) one value per record, in record order: the
// record's first value, "" when it has none.
v1::GoldenExtraction GoldenOfRecords(const std::string& url, const std::vector<extract::ListRecordResult>& records,
                                     const schema::CompiledSchema& schema);

struct ListFieldTestOptions {
  // A page fails with fewer than (1 - delta) x the golden record count.
  double delta = 0.2;
};

// The field test of a record-level rule's records on a page against
// `golden` (its GoldenOfRecords on the page's earlier version; nullptr when
// unknown: the count is then not compared). The failures in words, in this
// order, empty when it passes: "no record" (a list page with no record
// fails, golden or not), "12 records, golden 20" (fewer than (1 - delta) x
// golden's record_count), "price in 3 of 12 records" (per regular
// attribute, AttributeSchema.regular or else mandatory, present in at most
// half of the records; not said when there is no record).
std::vector<std::string> ListFieldTest(const schema::CompiledSchema& schema,
                                       const std::vector<extract::ListRecordResult>& records,
                                       const v1::GoldenExtraction* golden, const ListFieldTestOptions& options = {});

// The field test of `results` (a rule's output on a fresh page) against
// `golden` (the rule's output on the page's earlier version; nullptr when
// unknown: then only mandatory attributes are checked). Values compare
// exactly, multi-valued ones as sets. Fills check's missing_mandatory and
// changed_constants.
void FieldTest(const schema::CompiledSchema& schema, const std::vector<extract::AttributeResult>& results,
               const v1::GoldenExtraction* golden, v1::PageCheck* check);

// Attributes `golden` has values for and `results` has none: what a rule
// that still "works" should not lose (the stricter test of field-match
// reuse).
std::vector<std::string> LostAttributes(const std::vector<extract::AttributeResult>& results,
                                        const v1::GoldenExtraction& golden);

// Whether the check failed the field test.
bool FailsFieldTest(const v1::PageCheck& check);

// A page parsed once for the checks: its DOM and shingle vector (computed
// in the same walk), or why it could not be parsed.
struct ParsedPage {
  absl::StatusOr<html::Page> page = absl::UnknownError("not parsed");
  shingle::ShingleVector vector{};
};

// Parses `html` (as fetched from `url`) with a shingle::Shingler as the
// parser's TagSink. The page refers to `parser`'s arena: use it before the
// next parse.
ParsedPage ParseForChecks(std::string_view html, const std::string& url, html::Parser& parser);

// The masked signatures a rule matches pages by: its own, then those of
// clusters merged into its cluster (Rule.extra_signatures; one that does
// not parse is passed over).
std::vector<shingle::MaskedVector> RuleSignatures(const extract::CompiledRule& rule);

// Whether one of `signatures` covers `v`.
bool AnyCovers(const std::vector<shingle::MaskedVector>& signatures, const shingle::ShingleVector& v);

// The most bytes of `v` one of `signatures` agrees with
// (MaskedVector::Agreement), and that signature's kept bytes; {0, 0} when
// there is no signature.
struct Agreement {
  int bytes = 0;
  int kept = 0;
};
Agreement BestAgreement(const std::vector<shingle::MaskedVector>& signatures, const shingle::ShingleVector& v);

// Runs the shingle test (the rule's signature or one of its
// extra_signatures covers the page) and field test of `rule` on `parsed`
// and fills `check` (url, parse_error, covered, missing_mandatory,
// changed_constants, has_golden; record_failures for a record-level rule,
// by ListFieldTest with `list_options`, whose output then has no values). Returns the rule's output (empty when the
// page could not be parsed). Errors only for a failure of the rule itself
// (an XPath evaluation error).
absl::StatusOr<std::vector<extract::AttributeResult>> CheckParsedPage(const extract::CompiledRule& rule,
                                                                      const ParsedPage& parsed, const std::string& url,
                                                                      const v1::GoldenExtraction* golden,
                                                                      v1::PageCheck* check,
                                                                      const ListFieldTestOptions& list_options = {});

// ParseForChecks, then CheckParsedPage: parses `html` (as fetched from
// `url`), runs the shingle and field tests of `rule` on it and fills `check` (url, parse_error, covered,
// missing_mandatory, changed_constants, has_golden). Returns the rule's
// output (empty when the page could not be parsed). Errors only for a
// failure of the rule itself (an XPath evaluation error).
absl::StatusOr<std::vector<extract::AttributeResult>> CheckPage(const extract::CompiledRule& rule,
                                                                std::string_view html, const std::string& url,
                                                                const v1::GoldenExtraction* golden,
                                                                html::Parser& parser, v1::PageCheck* check);

}  // namespace vertex::monitor

#endif  // VERTEX_COMMON_MONITOR_RULE_CHECKS_H_
