#include "common/rule/split.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace vertex::rule {
namespace {

v1::ValueSplit Split(std::vector<std::string> separators) {
  v1::ValueSplit s;
  for (std::string& sep : separators) s.add_separators(std::move(sep));
  return s;
}

struct Case {
  const char* name;
  std::vector<std::string> separators;
  std::string text;
  std::vector<std::string> want;
};

TEST(SplitValues, Table) {
  const std::vector<Case> cases = {
      {"comma", {","}, "Lynn A. Coleman, Rachel Hauck", {"Lynn A. Coleman", "Rachel Hauck"}},
      {"semicolon", {";"}, "Ann Lee; Bo Chen; Cy Dorn", {"Ann Lee", "Bo Chen", "Cy Dorn"}},
      {"and, any case", {" and "}, "Ann Lee AND Bo Chen and Cy Dorn", {"Ann Lee", "Bo Chen", "Cy Dorn"}},
      {"and needs its spaces", {" and "}, "Anderson and Candace", {"Anderson", "Candace"}},
      {"ampersand", {"&"}, "Ann & Bo", {"Ann", "Bo"}},
      {"slash", {"/"}, "Ann/Bo / Cy", {"Ann", "Bo", "Cy"}},
      {"bar", {"|"}, "Ann | Bo", {"Ann", "Bo"}},
      {"line break", {"\n"}, "Ann Lee\nBo Chen", {"Ann Lee", "Bo Chen"}},
      {"a line break inside a part reads as a space", {","}, "Ann\nLee, Bo", {"Ann Lee", "Bo"}},
      {"a space in a separator matches a line break", {" and "}, "Ann\nand Bo", {"Ann", "Bo"}},
      {"comma then and", {",", " and "}, "Ann, Bo, and Cy", {"Ann", "Bo", "Cy"}},
      {"empty parts dropped", {","}, ", Ann,, Bo ,", {"Ann", "Bo"}},
      {"only separators", {","}, " , ,", {}},
      {"no separator in the text", {","}, "Dee Fox", {"Dee Fox"}},
      {"no separators at all", {}, " Dee  Fox ", {"Dee Fox"}},
      {"empty separators are ignored", {""}, "Dee Fox", {"Dee Fox"}},
      {"multi-byte text", {"/"}, "Zoë/Åsa", {"Zoë", "Åsa"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(SplitValues(Split(c.separators), c.text), c.want);
  }
}

}  // namespace
}  // namespace vertex::rule
