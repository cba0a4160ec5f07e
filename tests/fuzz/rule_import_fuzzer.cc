// Fuzz target: importing a rule, as JSON (protobuf's JSON mapping of
// v1::Rule, what `vertexctl rules export --format json` prints and the
// RuleStore's readers take back) or as a binary v1::Rule (how the rule
// store keeps it): the parsed rule is compiled against the demo product
// schema (extract::CompiledRule::Create) and, when it compiles, applied to a
// demo product page, exported as fields (ExportFields) and as XSLT
// (ExportXslt).
//
// Input: a first byte 'B' means the rest is a binary v1::Rule; otherwise
// the whole input is the rule's JSON (so an exported rule is a seed as is).
//
// Checked beyond "no crash": Create fails only with InvalidArgument; Apply
// of a compiled rule gives one result per schema attribute; the exports
// fail only with their documented codes (never Internal).
#include <cstdint>
#include <string>

#include "common/extract/compiled_rule.h"
#include "common/extract/json_export.h"
#include "common/extract/xslt_export.h"
#include "google/protobuf/util/json_util.h"
#include "tests/fuzz/fuzz_demo.h"

namespace vertex::fuzz {
namespace {

struct Target {
  schema::CompiledSchema schema = ProductSchema();
  std::unique_ptr<html::Page> page;
};

const Target& DemoTarget() {
  static const Target* target = [] {
    QuietProtobufLogs();
    auto* t = new Target;
    const std::vector<demo::GeneratedPage> products = ProductPages();
    html::Parser parser;
    absl::StatusOr<html::Page> page = parser.Parse(products.at(0).html, products.at(0).url);
    Check(page.ok(), "a demo page parses: " + page.status().ToString());
    t->page = std::make_unique<html::Page>(*std::move(page));
    return t;
  }();
  return *target;
}

bool ParseRule(std::string_view bytes, bool json, v1::Rule* rule) {
  if (!json) return rule->ParseFromArray(bytes.data(), static_cast<int>(bytes.size()));
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  return google::protobuf::util::JsonStringToMessage(std::string(bytes), rule, options).ok();
}

}  // namespace
}  // namespace vertex::fuzz

// The learning at start-up runs here, before libFuzzer's per-input timeout
// applies.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  vertex::fuzz::DemoTarget();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  const fuzz::Target& target = fuzz::DemoTarget();
  const bool binary = size > 0 && data[0] == 'B';
  v1::Rule rule;
  if (!fuzz::ParseRule(binary ? fuzz::AsView(data + 1, size - 1) : fuzz::AsView(data, size), !binary, &rule)) {
    return 0;
  }
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, target.schema);
  if (!compiled.ok()) {
    fuzz::Check(compiled.status().code() == absl::StatusCode::kInvalidArgument,
                "CompiledRule::Create: " + compiled.status().ToString());
    return 0;
  }
  absl::StatusOr<std::vector<extract::AttributeResult>> results = compiled->Apply(*target.page);
  if (results.ok()) {
    fuzz::Check(results->size() == target.schema.size(), "Apply: one result per attribute");
    extract::NearestMatchFailure(*compiled, *results);
  }
  absl::StatusOr<std::vector<extract::ExportedField>> fields = extract::ExportFields(rule, target.schema);
  if (fields.ok()) {
    fuzz::CheckNotInternal(extract::FieldsJson(*fields).status(), "FieldsJson");
  } else {
    fuzz::CheckNotInternal(fields.status(), "ExportFields");
  }
  fuzz::CheckNotInternal(extract::ExportXslt(rule, target.schema).status(), "ExportXslt");
  return 0;
}
