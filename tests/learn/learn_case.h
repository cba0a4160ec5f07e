// The learn-then-extract harness of the value-model tables
// (value_model_test, value_selection_test, value_source_test): one schema
// attribute, a few pages, the first `annotated` of them annotated with their
// values; LearnRule learns a rule and the compiled rule is applied to every
// page.
#ifndef VERTEX_TESTS_LEARN_LEARN_CASE_H_
#define VERTEX_TESTS_LEARN_LEARN_CASE_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"

namespace vertex::learn::testing {

struct CaseDocument {
  std::string html;
  std::string url;
  std::vector<std::string> values;  // the attribute's values on this page
};

struct LearntCase {
  schema::CompiledSchema schema;
  std::vector<html::Page> pages;  // parallel to the documents
  RuleLearnResult result;
};

// Parses the documents and learns attribute 0 of `attribute_json` (one
// attribute's schema, e.g. {"name": "price", "type": "price"}) from the
// first `annotated`. Errors: the schema, a page or LearnRule failing.
inline absl::StatusOr<LearntCase> LearnCase(const std::string& name, const std::string& attribute_json,
                                            const std::vector<CaseDocument>& documents, size_t annotated) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(
      absl::StrCat(R"({"vertical": "t", "attributes": [)", attribute_json, "]}"), name);
  if (!schema.ok()) return schema.status();
  html::Parser parser;
  std::vector<html::Page> pages;
  for (const CaseDocument& d : documents) {
    absl::StatusOr<html::Page> page = parser.Parse(d.html, d.url);
    if (!page.ok()) return page.status();
    pages.push_back(*std::move(page));
  }
  RuleLearnInput input;
  for (const html::Page& p : pages) input.pages.push_back(&p);
  for (size_t i = 0; i < annotated && i < documents.size(); ++i) {
    input.annotations.push_back({i, schema->attribute(0).name(), documents[i].values, ""});
  }
  absl::StatusOr<RuleLearnResult> result = LearnRule(*schema, input);
  if (!result.ok()) return result.status();
  return LearntCase{*std::move(schema), std::move(pages), *std::move(result)};
}

// "" when the learnt rule gives every page its document's values (each
// whitespace-normalised first when `normalize`), else the pages that differ
// and the rule.
inline std::string ExtractionMismatches(const LearntCase& c, const std::vector<CaseDocument>& documents,
                                        bool normalize = false) {
  const AttributeDiagnostic& d = c.result.diagnostics[0];
  if (!d.learnt) return absl::StrCat("not learnt: ", DiagnosticCodeName(d.code), ": ", d.message);
  absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(c.result.rule, c.schema);
  if (!rule.ok()) return std::string(rule.status().message());
  std::string errors;
  for (size_t i = 0; i < c.pages.size(); ++i) {
    absl::StatusOr<std::vector<extract::AttributeResult>> got = rule->Apply(c.pages[i]);
    if (!got.ok()) return std::string(got.status().message());
    std::vector<std::string> values = (*got)[0].values;
    if (normalize) {
      for (std::string& v : values) v = html::NormalizeSpace(v);
    }
    if (values != documents[i].values) {
      absl::StrAppend(&errors, "page ", i, ": got [", absl::StrJoin(values, " | "), "] want [",
                      absl::StrJoin(documents[i].values, " | "), "] ");
    }
  }
  if (!errors.empty()) absl::StrAppend(&errors, "(rule ", c.result.rule.attributes(0).ShortDebugString(), ")");
  return errors;
}

}  // namespace vertex::learn::testing

#endif  // VERTEX_TESTS_LEARN_LEARN_CASE_H_
