#include "common/learn/split_learner.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vertex::learn {
namespace {

struct Case {
  const char* name;
  std::vector<ListExample> examples;
  std::vector<std::string> want;  // separators; empty: no split
};

std::vector<std::string> Separators(const std::optional<v1::ValueSplit>& split) {
  if (!split) return {};
  return {split->separators().begin(), split->separators().end()};
}

TEST(LearnSplit, LearnsTheSeparatorsBetweenValues) {
  // Once a text is a list, every punctuation separator is admitted, not only
  // those seen between the annotated values (a site may vary them from page
  // to page), except one inside an annotated value; a line break only when
  // seen.
  const std::vector<std::string> all = {",", ";", " and ", "&", "/", "|"};
  const std::vector<Case> cases = {
      {"comma", {{"By: Lynn A. Coleman, Rachel Hauck", {"Lynn A. Coleman", "Rachel Hauck"}}}, all},
      {"semicolon", {{"By: Ann Lee; Bo Chen", {"Ann Lee", "Bo Chen"}}}, all},
      {"and, any case", {{"Ann Lee AND Bo Chen", {"Ann Lee", "Bo Chen"}}}, all},
      {"ampersand", {{"Ann & Bo", {"Ann", "Bo"}}}, all},
      {"slash", {{"Ann/Bo", {"Ann", "Bo"}}}, all},
      {"bar", {{"Ann | Bo", {"Ann", "Bo"}}}, all},
      {"line break", {{"Ann Lee\nBo Chen", {"Ann Lee", "Bo Chen"}}}, {",", ";", " and ", "&", "/", "|", "\n"}},
      {"a comma at a line break is a comma", {{"Ann Lee,\nBo Chen", {"Ann Lee", "Bo Chen"}}}, all},
      {"comma then and", {{"Ann, Bo, and Cy", {"Ann", "Bo", "Cy"}}}, all},
      {"annotated out of text order", {{"Ann; Bo; Cy", {"Cy", "Ann", "Bo"}}}, all},
      {"separators of several lists", {{"Ann; Bo", {"Ann", "Bo"}}, {"Cy / Di", {"Cy", "Di"}}}, all},
      {"one value per text: no split", {{"By: Dee Fox", {"Dee Fox"}}, {"Bo", {"Bo"}}}, {}},
      {"a value repeated in its list", {{"Ann, Bo, Ann", {"Ann", "Bo", "Ann"}}}, all},
      {"separators inside values are not admitted",
       {{"Smith & Sons, AC/DC", {"Smith & Sons", "AC/DC"}}},
       {",", ";", " and ", "|"}},
      {"nor is and inside a value", {{"Procter and Gamble; Bo", {"Procter and Gamble", "Bo"}}}, {",", ";", "&", "/", "|"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<std::optional<v1::ValueSplit>> split = LearnSplit(c.examples);
    ASSERT_TRUE(split.ok()) << split.status();
    EXPECT_EQ(Separators(*split), c.want);
  }
}

TEST(LearnSplit, Rejects) {
  struct Row {
    const char* name;
    std::vector<ListExample> examples;
    absl::StatusCode code;
    std::string message_has;
  };
  const std::vector<Row> rows = {
      {"nothing between", {{"Ann LeeBo Chen", {"Ann Lee", "Bo Chen"}}}, absl::StatusCode::kInvalidArgument,
       "no separator"},
      {"only a space between", {{"Ann Lee Bo Chen", {"Ann Lee", "Bo Chen"}}}, absl::StatusCode::kInvalidArgument,
       "no separator"},
      {"a word between", {{"Ann with Bo", {"Ann", "Bo"}}}, absl::StatusCode::kInvalidArgument,
       "\" with \" between two values is not a separator"},
      {"a value not in its text", {{"Ann, Bo", {"Ann", "Cy"}}}, absl::StatusCode::kInvalidArgument,
       "\"cy\" is not in the text"},
      {"an empty value", {{"Ann, Bo", {"Ann", " "}}}, absl::StatusCode::kInvalidArgument, "empty value"},
      // The comma between "Lee, Ann" and "Chen, Bo" also cuts inside them.
      {"the separator cuts a value", {{"Lee, Ann; Chen, Bo", {"Lee, Ann", "Chen, Bo"}}, {"X, Y", {"X", "Y"}}},
       absl::StatusCode::kFailedPrecondition, "gives [lee | ann | chen | bo] where the annotation says"},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    absl::StatusOr<std::optional<v1::ValueSplit>> split = LearnSplit(row.examples);
    EXPECT_EQ(split.status().code(), row.code) << split.status();
    EXPECT_THAT(std::string(split.status().message()), testing::HasSubstr(row.message_has));
  }
}

TEST(ListSpan, FromTheFirstValueToTheLast) {
  struct Row {
    ListExample example;
    std::string want;
  };
  const std::vector<Row> rows = {
      {{"By: Lynn A. Coleman, Rachel Hauck", {"Rachel Hauck", "Lynn A. Coleman"}}, "Lynn A. Coleman, Rachel Hauck"},
      {{"By: Dee Fox (editor)", {"Dee Fox"}}, "Dee Fox"},
      {{"  By:\n Ann\nBo  ", {"ann", "bo"}}, "Ann\nBo"},
  };
  for (const Row& row : rows) {
    absl::StatusOr<RangeExample> span = ListSpan(row.example);
    ASSERT_TRUE(span.ok()) << span.status();
    EXPECT_EQ(span->value, row.want);
    EXPECT_EQ(span->node_text, row.example.text);
  }
  EXPECT_EQ(ListSpan({"Ann", {}}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ListSpan({"Ann", {"Bo"}}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::learn
