#include "common/rule/value.h"

#include <google/protobuf/text_format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vertex::rule {
namespace {

const schema::CompiledSchema& Schema() {
  static const schema::CompiledSchema* schema = new schema::CompiledSchema(
      schema::CompiledSchema::FromJson(
          R"({"vertical": "t", "attributes": [{"name": "text"}, {"name": "price", "type": "price"}]})", "test")
          .value());
  return *schema;
}

constexpr size_t kText = 0, kPrice = 1;

struct Case {
  const char* name;
  std::string rule;  // AttributeRule in text format
  size_t attribute;
  std::string text;
  std::vector<std::string> want;
};

TEST(TextValues, RangeThenSplitThenRegex) {
  const std::vector<Case> cases = {
      {"whole text, line breaks read as spaces", "", kText, "  a \n b ", {"a b"}},
      {"word range keeps the line breaks for the split",
       R"(range { skip_start: 1 } split { separators: "\n" })", kText, "By:\nAnn Lee\nBo Chen",
       {"Ann Lee", "Bo Chen"}},
      {"character range, then the type's regex", R"(range { skip_start: 1 skip_end: 10 unit: CHARACTERS })", kPrice,
       "£340.00 (inc VAT)", {"340.00"}},
      {"nearest typed match", R"(range { skip_start: 8 unit: CHARACTERS nearest_match: true })", kPrice,
       "Price: £47.82 + p&p", {"47.82"}},
      {"nearest_match without a regex is the plain range", R"(range { skip_start: 1 nearest_match: true })", kText,
       "By: Ann Lee", {"Ann Lee"}},
      {"nearest_match with a split is the plain range",
       R"(range { skip_start: 1 nearest_match: true } split { separators: "," })", kPrice, "Prices: $5.00, $7.00",
       {"$5.00", "$7.00"}},
      {"the regex on each part", R"(split { separators: "/" })", kPrice, "$5.00 / $7.00", {"$5.00", "$7.00"}},
      {"a part without a valid value gives nothing", R"(split { separators: "/" })", kPrice, "$5.00 / call us",
       {"$5.00"}},
      {"a range the text is too short for gives nothing", R"(range { skip_start: 3 })", kText, "a b", {}},
      {"an empty text gives nothing", "", kText, " \n ", {}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    v1::AttributeRule rule;
    ASSERT_TRUE(google::protobuf::TextFormat::ParseFromString(c.rule, &rule));
    EXPECT_EQ(TextValues(c.text, rule, Schema(), c.attribute), c.want);
  }
}

}  // namespace
}  // namespace vertex::rule
