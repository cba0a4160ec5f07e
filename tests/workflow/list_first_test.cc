// The simulated editor's "list first K" (SimulatedEditorOptions::list_first):
// a multi-valued attribute with more than K values is annotated with its
// first K values in page order (whatever the ground truth's order) and
// marked partial; single-valued attributes and short lists are untouched.
#include <string>
#include <vector>

#include "common/eval/ground_truth.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/workflow/simulated_editor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::workflow {
namespace {

using ::testing::ElementsAre;

constexpr char kSchemaJson[] = R"({"vertical": "product", "attributes": [
  {"name": "title"},
  {"name": "feature", "multi_valued": true},
  {"name": "tag", "multi_valued": true}]})";

struct Fixture {
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kSchemaJson, "list first").value();
  html::Page page = html::Parser()
                        .Parse("<html><body><h1>Oak chair</h1><ul><li>Alpha</li><li>Bravo</li><li>Charlie</li>"
                               "<li>Delta</li><li>Echo</li></ul><p>Tags: red, green</p></body></html>",
                               "http://shop.test/0001.htm")
                        .value();
  eval::GroundTruth truth;
  Fixture() {
    auto& p = truth.pages["0001"];
    p["title"] = {"Oak chair"};
    p["feature"] = {"Delta", "Alpha", "Echo", "Bravo", "Charlie"};  // not in page order
    p["tag"] = {"red", "green"};
  }
  const learn::AttributeAnnotation& Of(const std::vector<learn::AttributeAnnotation>& all, const std::string& name) {
    for (const learn::AttributeAnnotation& a : all) {
      if (a.attribute == name) return a;
    }
    static const learn::AttributeAnnotation kNone;
    ADD_FAILURE() << "no annotation of " << name;
    return kNone;
  }
};

TEST(ListFirstTest, FirstKValuesInPageOrderArePartial) {
  Fixture f;
  const std::vector<learn::AttributeAnnotation> a = AnnotateFromTruth(f.schema, f.truth, "0001.htm", 0, f.page, 3);
  EXPECT_THAT(f.Of(a, "feature").values, ElementsAre("Alpha", "Bravo", "Charlie"));
  EXPECT_TRUE(f.Of(a, "feature").partial);
  // Two tags are not more than K: all given, not partial.
  EXPECT_THAT(f.Of(a, "tag").values, ElementsAre("red", "green"));
  EXPECT_FALSE(f.Of(a, "tag").partial);
  EXPECT_FALSE(f.Of(a, "title").partial);
}

TEST(ListFirstTest, ZeroGivesEveryValueAsTheTruthListsThem) {
  Fixture f;
  const std::vector<learn::AttributeAnnotation> a = AnnotateFromTruth(f.schema, f.truth, "0001.htm", 0, f.page, 0);
  EXPECT_THAT(f.Of(a, "feature").values, ElementsAre("Delta", "Alpha", "Echo", "Bravo", "Charlie"));
  EXPECT_FALSE(f.Of(a, "feature").partial);
}

TEST(ListFirstTest, OneValueInSplitTextKeepsTheTextOrder) {
  Fixture f;
  f.truth.pages["0001"]["tag"] = {"green", "red"};
  const std::vector<learn::AttributeAnnotation> a = AnnotateFromTruth(f.schema, f.truth, "0001.htm", 0, f.page, 1);
  EXPECT_THAT(f.Of(a, "tag").values, ElementsAre("red"));
  EXPECT_TRUE(f.Of(a, "tag").partial);
}

}  // namespace
}  // namespace vertex::workflow
