// Fuzz target: a schema's JSON (schema::CompiledSchema::FromJson), then its
// value selection (SelectValue) on fixed texts and on the input itself.
//
// Input: the JSON text.
//
// Checked beyond "no crash": errors are InvalidArgument (the only code
// FromJson documents); an accepted schema compiles again from its own proto
// (FromProto) with the same attributes; a selected value is a substring of
// the text it was selected from.
#include <cstdint>
#include <string>
#include <string_view>

#include "common/schema/schema.h"
#include "tests/fuzz/fuzz_check.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace vertex;
  const std::string_view json = fuzz::AsView(data, size);
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(json, "fuzz.json");
  if (!schema.ok()) {
    fuzz::Check(schema.status().code() == absl::StatusCode::kInvalidArgument,
                "FromJson: " + schema.status().ToString());
    return 0;
  }
  absl::StatusOr<schema::CompiledSchema> again = schema::CompiledSchema::FromProto(schema->proto());
  fuzz::Check(again.ok(), "FromProto of an accepted schema: " + again.status().ToString());
  fuzz::Check(again->size() == schema->size(), "FromProto changed the number of attributes");
  const std::string_view texts[] = {"Our Price: $25.99", "Published 12 March 2021 by Ann Lee",
                                    "ISBN 978-0-306-40615-7", "", json};
  for (size_t i = 0; i < schema->size(); ++i) {
    fuzz::Check(schema->Find(schema->attribute(i).name()) == static_cast<int>(i),
                "Find(" + schema->attribute(i).name() + ")");
    for (std::string_view text : texts) {
      std::optional<std::string> value = schema->SelectValue(i, text);
      if (value.has_value()) {
        fuzz::Check(text.find(*value) != std::string_view::npos || value->empty(),
                    "SelectValue gave \"" + *value + "\", not in its text");
      }
    }
  }
  return 0;
}
