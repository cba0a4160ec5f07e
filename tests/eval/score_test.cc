#include "common/eval/score.h"

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "common/eval/ground_truth.h"
#include "common/html/entities.h"
#include "common/html/text.h"
#include "common/util/file.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::eval {
namespace {

using ::testing::DoubleEq;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(NormalizeForComparison, Table) {
  const struct {
    std::string_view input, want;
  } kCases[] = {
      {"", ""},
      {"Zebra", "zebra"},
      {"  The\tOverton \n Window ", "the overton window"},
      {"AT&amp;T", "at&t"},
      {"a&nbsp;&nbsp;b", "a b"},               // U+00A0 is space to NormalizeSpace
      {"CAF&Eacute;", "caf\xC3\x89"},          // only ASCII letters are folded
      {": 9780316125581", ": 9780316125581"},  // punctuation kept
  };
  for (const auto& c : kCases) EXPECT_EQ(NormalizeForComparison(c.input), c.want) << c.input;
}

TEST(TrimEdgePunctuation, Table) {
  const struct {
    std::string_view input, want;
  } kCases[] = {
      {"", ""},
      {": ", ""},
      {": 9780316125581", "9780316125581"},
      {" - Foo Bar, ", "Foo Bar"},
      {"Little Brown & Co.", "Little Brown & Co"},
      {"\xE2\x80\x93 Foo \xC2\xBB", "Foo"},  // en dash, guillemet
      {"\302\240Foo\302\240", "Foo"},        // no-break spaces
      {"$12.99", "$12.99"},                  // $ belongs to the value
      {"(Hardcover)", "(Hardcover)"},        // brackets are kept
      {"\"Quoted\"", "\"Quoted\""},
      {"a:b", "a:b"},  // inner punctuation stays
  };
  for (const auto& c : kCases) EXPECT_EQ(TrimEdgePunctuation(c.input), c.want) << c.input;
}

TEST(EditorValueForms, Table) {
  const struct {
    std::string_view input;
    std::vector<std::string> want;
  } kCases[] = {
      {"Zebra", {"Zebra"}},
      {": Zebra", {": Zebra", "Zebra"}},
      {"  AT&amp;T  ", {"AT&T"}},
      {" - Foo,", {"- Foo,", "Foo"}},
      {"Game  Over!", {"Game Over!", "Game Over"}},
      {"", {}},
      {" &nbsp; ", {}},
      {": ", {":"}},  // the trimmed form would be empty
  };
  for (const auto& c : kCases) EXPECT_EQ(EditorValueForms(c.input), c.want) << c.input;
}

struct ScoreCase {
  std::string name;
  std::vector<std::string> extracted, truth;
  Scorer::AttributeScore want;  // the counts
  double precision, recall, f1;
};

TEST(Scorer, OnePageTable) {
  // Fields of `want`: pages_with_truth, pages_extracted, values_extracted,
  // values_correct, truth_values, truth_found.
  const ScoreCase kCases[] = {
      {"exact", {"Zebra"}, {"Zebra"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      {"truth keeps punctuation", {"Zebra"}, {": Zebra"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      {"untrimmed also matches", {": Zebra"}, {": Zebra"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      // Both sides without edge punctuation.
      {"extracted punctuation", {": Zebra"}, {"Zebra"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      {"truth drops a period", {"Scholastic Inc."}, {": Scholastic Inc"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      {"punctuation alone never matches", {":"}, {"."}, {1, 1, 1, 0, 1, 0}, 0, 0, 0},
      {"different words", {"Zebras"}, {": Zebra"}, {1, 1, 1, 0, 1, 0}, 0, 0, 0},
      {"case and space",
       {"  the  OVERTON\nwindow"},
       {"The Overton Window"},
       {1, 1, 1, 1, 1, 1},
       1,
       1,
       1},
      {"entities", {"AT&T"}, {"AT&amp;T"}, {1, 1, 1, 1, 1, 1}, 1, 1, 1},
      {"wrong", {"Foo"}, {"Bar"}, {1, 1, 1, 0, 1, 0}, 0, 0, 0},
      {"substring is wrong", {"Over"}, {"Game Over"}, {1, 1, 1, 0, 1, 0}, 0, 0, 0},
      {"nothing extracted", {}, {"a"}, {1, 0, 0, 0, 1, 0}, 1, 0, 0},
      {"no truth", {"a"}, {}, {0, 1, 1, 0, 0, 0}, 0, 1, 0},
      {"both empty", {}, {}, {0, 0, 0, 0, 0, 0}, 1, 1, 1},
      {"multi-valued",
       {"A", "B", "C"},
       {"a", "b", "d", "e"},
       {1, 1, 3, 2, 4, 2},
       2.0 / 3,
       0.5,
       4.0 / 7},
      {"duplicate extracted", {"a", "a"}, {"a"}, {1, 1, 2, 2, 1, 1}, 1, 1, 1},
      {"one value, two truths", {"x"}, {"x", ": x"}, {1, 1, 1, 1, 2, 2}, 1, 1, 1},
  };
  for (const ScoreCase& c : kCases) {
    SCOPED_TRACE(c.name);
    Scorer scorer;
    scorer.Add("attr", c.extracted, c.truth);
    ASSERT_EQ(scorer.scores().size(), 1u);
    const Scorer::AttributeScore& got = scorer.scores().at("attr");
    EXPECT_EQ(got.pages_with_truth, c.want.pages_with_truth);
    EXPECT_EQ(got.pages_extracted, c.want.pages_extracted);
    EXPECT_EQ(got.values_extracted, c.want.values_extracted);
    EXPECT_EQ(got.values_correct, c.want.values_correct);
    EXPECT_EQ(got.truth_values, c.want.truth_values);
    EXPECT_EQ(got.truth_found, c.want.truth_found);
    EXPECT_THAT(got.precision(), DoubleEq(c.precision));
    EXPECT_THAT(got.recall(), DoubleEq(c.recall));
    EXPECT_THAT(got.f1(), DoubleEq(c.f1));
  }
}

TEST(Scorer, SumsOverPagesPerAttribute) {
  Scorer scorer;
  scorer.Add("title", {"A"}, {"A"});
  scorer.Add("title", {"B"}, {"C"});
  scorer.Add("title", {}, {"D"});
  scorer.Add("author", {"x", "y"}, {"x", "z"});
  scorer.Add("author", {}, {});
  ASSERT_EQ(scorer.scores().size(), 2u);
  const Scorer::AttributeScore& title = scorer.scores().at("title");
  EXPECT_EQ(title.pages_with_truth, 3u);
  EXPECT_EQ(title.pages_extracted, 2u);
  EXPECT_EQ(title.values_extracted, 2u);
  EXPECT_EQ(title.values_correct, 1u);
  EXPECT_EQ(title.truth_values, 3u);
  EXPECT_EQ(title.truth_found, 1u);
  EXPECT_THAT(title.precision(), DoubleEq(0.5));
  EXPECT_THAT(title.recall(), DoubleEq(1.0 / 3));
  EXPECT_THAT(title.f1(), DoubleEq(0.4));
  const Scorer::AttributeScore& author = scorer.scores().at("author");
  EXPECT_EQ(author.pages_with_truth, 1u);
  EXPECT_EQ(author.values_correct, 1u);
  EXPECT_EQ(author.truth_found, 1u);
}

TEST(ScoresToJson, Format) {
  EXPECT_EQ(ScoresToJson(Scorer()), R"({"attributes":{}})");
  Scorer scorer;
  scorer.Add("title", {"A", "B", "C"}, {"a", "b", "d", "e"});
  scorer.Add("author", {}, {});
  EXPECT_EQ(
      ScoresToJson(scorer),
      R"({"attributes":{)"
      R"("author":{"pages_with_truth":0,"pages_extracted":0,"values_extracted":0,)"
      R"("values_correct":0,"truth_values":0,"truth_found":0,"precision":1,"recall":1,"f1":1},)"
      R"("title":{"pages_with_truth":1,"pages_extracted":1,"values_extracted":3,)"
      R"("values_correct":2,"truth_values":4,"truth_found":2,"precision":0.666667,)"
      R"("recall":0.5,"f1":0.571429}}})");
}

// --- Real data ---------------------------------------------------------------

const std::string kSwde = std::string(VERTEX_SHARED_DATA_DIR) + "/swde";

// The page's text, crudely: tags replaced by spaces, entities decoded,
// whitespace normalised. Independent of common/html's parser on purpose.
std::string CrudePageText(const std::string& html) {
  std::string text;
  bool in_tag = false;
  for (char c : html) {
    if (c == '<') in_tag = true;
    if (!in_tag) text.push_back(c);
    if (c == '>') {
      in_tag = false;
      text.push_back(' ');
    }
  }
  return html::NormalizeSpace(html::DecodeHtmlEntities(text));
}

TEST(Score, SwdeTruthAgainstItselfAndEditorForms) {
  const std::string root = kSwde + "/groundtruth";
  if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no SWDE data at " << root;
  const absl::StatusOr<GroundTruth> truth = LoadGroundTruth(root, "booksamillion");
  ASSERT_TRUE(truth.ok()) << truth.status().ToString();
  Scorer raw;
  Scorer trimmed;
  for (const auto& [id, attributes] : truth->pages) {
    const auto html = util::ReadFile(kSwde + "/book/booksamillion/" + id + ".htm");
    ASSERT_TRUE(html.ok()) << html.status().ToString();
    const std::string text = CrudePageText(*html);
    for (const auto& [attribute, values] : attributes) {
      std::vector<std::string> editor_values;
      for (const std::string& value : values) {
        const std::vector<std::string> forms = EditorValueForms(value);
        ASSERT_FALSE(forms.empty()) << id << " " << attribute;
        // An editor finds the value (some form of it) in the page text.
        const bool found = text.find(forms.front()) != std::string::npos ||
                           text.find(forms.back()) != std::string::npos;
        EXPECT_TRUE(found) << id << " " << attribute << ": " << value;
        editor_values.push_back(forms.back());
      }
      raw.Add(attribute, values, values);
      trimmed.Add(attribute, editor_values, values);
    }
  }
  for (const Scorer* scorer : {&raw, &trimmed}) {
    ASSERT_EQ(scorer->scores().size(), 5u);
    for (const auto& [attribute, score] : scorer->scores()) {
      EXPECT_EQ(score.pages_with_truth, 2000u) << attribute;
      EXPECT_THAT(score.f1(), DoubleEq(1.0)) << attribute;
    }
  }
  // The trimmed forms drop booksamillion's leading ": ".
  EXPECT_THAT(EditorValueForms(truth->pages.at("0000").at("isbn_13").at(0)),
              ElementsAre(": 9780316125581", "9780316125581"));
}

}  // namespace
}  // namespace vertex::eval
