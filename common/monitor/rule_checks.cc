#include "common/monitor/rule_checks.h"

#include <algorithm>
#include <map>

#include "absl/strings/str_cat.h"
#include "common/util/status_macros.h"

namespace vertex::monitor {
namespace {

std::vector<std::string> Sorted(const google::protobuf::RepeatedPtrField<std::string>& values) {
  std::vector<std::string> out(values.begin(), values.end());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

v1::GoldenExtraction GoldenOf(const std::string& url, const std::vector<extract::AttributeResult>& results) {
  v1::GoldenExtraction golden;
  golden.set_url(url);
  for (const extract::AttributeResult& r : results) {
    v1::AttributeValues* values = golden.add_attributes();
    values->set_attribute(r.attribute);
    for (const std::string& v : r.values) values->add_values(v);
  }
  return golden;
}

v1::GoldenExtraction GoldenOfRecords(const std::string& url, const std::vector<extract::ListRecordResult>& records,
                                     const schema::CompiledSchema& schema) {
  v1::GoldenExtraction golden;
  golden.set_url(url);
  golden.set_record_count(static_cast<uint32_t>(records.size()));
  for (size_t i = 0; i < schema.size(); ++i) {
    v1::AttributeValues* values = golden.add_attributes();
    values->set_attribute(schema.attribute(i).name());
    for (const extract::ListRecordResult& r : records) {
      const bool has = i < r.attributes.size() && !r.attributes[i].values.empty();
      values->add_values(has ? r.attributes[i].values.front() : "");
    }
  }
  return golden;
}

std::vector<std::string> ListFieldTest(const schema::CompiledSchema& schema,
                                       const std::vector<extract::ListRecordResult>& records,
                                       const v1::GoldenExtraction* golden, const ListFieldTestOptions& options) {
  std::vector<std::string> failures;
  const size_t n = records.size();
  if (n == 0) failures.push_back("no record");
  if (golden != nullptr && static_cast<double>(n) < (1 - options.delta) * golden->record_count()) {
    failures.push_back(absl::StrCat(n, n == 1 ? " record" : " records", ", golden ", golden->record_count()));
  }
  if (n == 0) return failures;
  for (size_t i = 0; i < schema.size(); ++i) {
    const v1::AttributeSchema& a = schema.attribute(i);
    if (!(a.has_regular() ? a.regular() : a.mandatory())) continue;
    size_t present = 0;
    for (const extract::ListRecordResult& r : records) {
      present += i < r.attributes.size() && !r.attributes[i].values.empty() ? 1 : 0;
    }
    // More than half (Θ_infer = 50%, strict): 2 of 4 fails.
    if (2 * present <= n) {
      failures.push_back(absl::StrCat(a.name(), " in ", present, " of ", n, n == 1 ? " record" : " records"));
    }
  }
  return failures;
}

void FieldTest(const schema::CompiledSchema& schema, const std::vector<extract::AttributeResult>& results,
               const v1::GoldenExtraction* golden, v1::PageCheck* check) {
  std::map<std::string, const v1::AttributeValues*> old;
  if (golden != nullptr) {
    for (const v1::AttributeValues& a : golden->attributes()) old[a.attribute()] = &a;
  }
  for (const extract::AttributeResult& r : results) {
    const int k = schema.Find(r.attribute);
    if (k < 0) continue;
    const v1::AttributeSchema& a = schema.attribute(static_cast<size_t>(k));
    if (a.mandatory() && r.values.empty()) check->add_missing_mandatory(r.attribute);
    if (!a.constant()) continue;
    auto it = old.find(r.attribute);
    if (it == old.end()) continue;
    std::vector<std::string> fresh = r.values;
    std::sort(fresh.begin(), fresh.end());
    if (fresh == Sorted(it->second->values())) continue;
    v1::AttributeChange* change = check->add_changed_constants();
    change->set_attribute(r.attribute);
    *change->mutable_golden() = it->second->values();
    for (const std::string& v : r.values) change->add_fresh(v);
  }
}

std::vector<std::string> LostAttributes(const std::vector<extract::AttributeResult>& results,
                                        const v1::GoldenExtraction& golden) {
  std::map<std::string, bool> had;
  for (const v1::AttributeValues& a : golden.attributes()) had[a.attribute()] = a.values_size() > 0;
  std::vector<std::string> lost;
  for (const extract::AttributeResult& r : results) {
    if (r.values.empty() && had[r.attribute]) lost.push_back(r.attribute);
  }
  return lost;
}

bool FailsFieldTest(const v1::PageCheck& check) {
  return !check.parse_error().empty() || check.missing_mandatory_size() > 0 || check.changed_constants_size() > 0 ||
         check.record_failures_size() > 0;
}

ParsedPage ParseForChecks(std::string_view html, const std::string& url, html::Parser& parser) {
  ParsedPage parsed;
  shingle::Shingler shingler;
  parsed.page = parser.Parse(html, url, "", &shingler);
  if (parsed.page.ok()) parsed.vector = shingler.Finish();
  return parsed;
}

std::vector<shingle::MaskedVector> RuleSignatures(const extract::CompiledRule& rule) {
  std::vector<shingle::MaskedVector> out = {rule.signature()};
  for (const std::string& text : rule.proto().extra_signatures()) {
    if (absl::StatusOr<shingle::MaskedVector> m = shingle::MaskedVector::Parse(text); m.ok()) out.push_back(*m);
  }
  return out;
}

bool AnyCovers(const std::vector<shingle::MaskedVector>& signatures, const shingle::ShingleVector& v) {
  return std::any_of(signatures.begin(), signatures.end(),
                     [&](const shingle::MaskedVector& m) { return m.Covers(v); });
}

Agreement BestAgreement(const std::vector<shingle::MaskedVector>& signatures, const shingle::ShingleVector& v) {
  Agreement best;
  for (const shingle::MaskedVector& m : signatures) {
    const int bytes = m.Agreement(v);
    if (best.kept == 0 || bytes > best.bytes) best = Agreement{bytes, m.kept()};
  }
  return best;
}

absl::StatusOr<std::vector<extract::AttributeResult>> CheckParsedPage(const extract::CompiledRule& rule,
                                                                      const ParsedPage& parsed, const std::string& url,
                                                                      const v1::GoldenExtraction* golden,
                                                                      v1::PageCheck* check,
                                                                      const ListFieldTestOptions& list_options) {
  check->set_url(url);
  check->set_has_golden(golden != nullptr);
  if (!parsed.page.ok()) {
    check->set_parse_error(std::string(parsed.page.status().message()));
    return std::vector<extract::AttributeResult>();
  }
  check->set_covered(rule.signature().Covers(parsed.vector) || AnyCovers(RuleSignatures(rule), parsed.vector));
  VERTEX_ASSIGN_OR_RETURN(std::vector<extract::AttributeResult> results, rule.Apply(*parsed.page));
  if (rule.record_level()) {
    VERTEX_ASSIGN_OR_RETURN(extract::ListResult list, rule.ApplyRecords(*parsed.page));
    for (std::string& f : ListFieldTest(rule.schema(), list.records, golden, list_options)) {
      check->add_record_failures(std::move(f));
    }
    return results;
  }
  FieldTest(rule.schema(), results, golden, check);
  return results;
}

absl::StatusOr<std::vector<extract::AttributeResult>> CheckPage(const extract::CompiledRule& rule,
                                                                std::string_view html, const std::string& url,
                                                                const v1::GoldenExtraction* golden,
                                                                html::Parser& parser, v1::PageCheck* check) {
  return CheckParsedPage(rule, ParseForChecks(html, url, parser), url, golden, check);
}

}  // namespace vertex::monitor
