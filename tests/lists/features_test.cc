#include "common/lists/features.h"

#include <string>
#include <vector>

#include "common/html/page.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::lists {
namespace {

using ::testing::ElementsAre;

html::Page Parse(const std::string& html) {
  html::Parser parser;
  absl::StatusOr<html::Page> page = parser.Parse(html, "http://lists.test/p");
  EXPECT_TRUE(page.ok()) << page.status();
  return *std::move(page);
}

// Column of the feature called `name`.
struct Column {
  FeatureKind kind;
  int column;
};
Column Of(const std::string& name) {
  for (const FeatureSpec& s : FeatureSpecs(FeatureSet::kPaperAndMarkup)) {
    if (name == s.name) return {s.kind, s.column};
  }
  ADD_FAILURE() << "no feature " << name;
  return {FeatureKind::kNumeric, 0};
}
double Num(const PageFeatures& f, const std::string& name, size_t i) { return f.numeric[Of(name).column][i]; }
std::string Sym(const PageFeatures& f, const std::string& name, size_t i) {
  return std::string(f.symbol[Of(name).column][i]);
}
std::vector<std::string> Set(const PageFeatures& f, const std::string& name, size_t i) {
  std::vector<std::string> out;
  for (std::string_view v : f.sets[Of(name).column][i]) out.emplace_back(v);
  return out;
}

TEST(FeaturesTest, PaperSetHasNineteenFeaturesAndMarkupFourMore) {
  EXPECT_EQ(FeatureSpecs(FeatureSet::kPaper).size(), 19u);
  EXPECT_EQ(FeatureSpecs(FeatureSet::kPaperAndMarkup).size(), 23u);
  // The paper's features keep their columns in the markup set, so a model of
  // either set scores features computed with the markup set.
  for (size_t i = 0; i < 19; ++i) {
    EXPECT_STREQ(FeatureSpecs(FeatureSet::kPaper)[i].name, FeatureSpecs(FeatureSet::kPaperAndMarkup)[i].name);
    EXPECT_EQ(FeatureSpecs(FeatureSet::kPaper)[i].column, FeatureSpecs(FeatureSet::kPaperAndMarkup)[i].column);
  }
  FeatureSet set;
  EXPECT_TRUE(ParseFeatureSet("paper", &set));
  EXPECT_EQ(set, FeatureSet::kPaper);
  EXPECT_TRUE(ParseFeatureSet(FeatureSetName(FeatureSet::kPaperAndMarkup), &set));
  EXPECT_EQ(set, FeatureSet::kPaperAndMarkup);
  EXPECT_FALSE(ParseFeatureSet("ripper", &set));
}

// Elements in document order: 0 html, 1 head, 2 body, 3 ul, 4 li, 5 li,
// 6 b, 7 p. Leaves (no element children): head, li#4, b, p.
constexpr char kPage[] =
    "<html><head></head><body><ul class='menu  main' id='m'><li>ab</li><li class=x>c <b>d</b></li></ul>"
    "<p>x</p></body></html>";

TEST(FeaturesTest, StructureAndTextByHand) {
  const html::Page page = Parse(kPage);
  const PageFeatures f = ComputeFeatures(page, FeatureSet::kPaperAndMarkup);
  ASSERT_EQ(f.size(), 8u);
  EXPECT_EQ(Sym(f, "tagName", 6), "b");
  EXPECT_EQ(Sym(f, "parentTagName", 6), "li");
  EXPECT_EQ(Sym(f, "parentTagName", 0), "");
  EXPECT_EQ(Num(f, "textLength", 4), 2);
  EXPECT_EQ(Num(f, "textLength", 5), 2);  // "c " directly; "d" is in <b>
  EXPECT_EQ(Num(f, "nonWhiteTextLength", 5), 1);
  EXPECT_EQ(Num(f, "recursiveTextLength", 5), 3);
  EXPECT_EQ(Num(f, "recursiveNonWhiteTextLength", 5), 2);
  EXPECT_EQ(Num(f, "recursiveTextLength", 3), 5);
  EXPECT_EQ(Num(f, "recursiveTextLength", 0), 6);
  EXPECT_EQ(Num(f, "depth", 0), 1);
  EXPECT_EQ(Num(f, "depth", 6), 5);
  EXPECT_EQ(Num(f, "numChildren", 0), 2);
  EXPECT_EQ(Num(f, "numChildren", 5), 1);
  EXPECT_EQ(Num(f, "numSiblings", 4), 1);
  EXPECT_EQ(Num(f, "numSiblings", 0), 0);
  EXPECT_EQ(Num(f, "numChildrenByMaxDegree", 5), 0.5);
  EXPECT_EQ(Num(f, "numSiblingsByMaxDegree", 7), 0.5);
  EXPECT_EQ(Num(f, "numDescendantsByTotalNodes", 0), 7.0 / 8);
  EXPECT_EQ(Num(f, "numDescendantsByTotalNodes", 3), 3.0 / 8);
  EXPECT_THAT(Set(f, "ancestorTagNames", 6), ElementsAre("body", "html", "li", "ul"));
  EXPECT_THAT(Set(f, "childTagNames", 2), ElementsAre("p", "ul"));
  EXPECT_THAT(Set(f, "descendantTagNames", 3), ElementsAre("b", "li"));
  EXPECT_THAT(Set(f, "descendantTagNames", 4), ElementsAre());
  EXPECT_THAT(Set(f, "classTokens", 3), ElementsAre("main", "menu"));
  EXPECT_THAT(Set(f, "parentClassTokens", 6), ElementsAre("x"));
  EXPECT_EQ(Sym(f, "id", 3), "m");
  EXPECT_EQ(Sym(f, "parentId", 4), "m");
  EXPECT_EQ(Sym(f, "parentId", 6), "");
}

TEST(FeaturesTest, PrefixAndSuffixCountsFollowTagSequencesNotAncestry) {
  const html::Page page = Parse(kPage);
  const PageFeatures f = ComputeFeatures(page, FeatureSet::kPaper);
  // Leaf tag sequences: html/head, html/body/ul/li, html/body/ul/li/b,
  // html/body/p.
  EXPECT_EQ(Num(f, "prefixCount", 0), 4);
  EXPECT_EQ(Num(f, "suffixCount", 0), 4);
  EXPECT_EQ(Num(f, "prefixCount", 3), 2);
  // Both li share the sequence html/body/ul/li: the first li (a leaf) counts
  // the <b> leaf below the *second* li, and itself, which ends there.
  EXPECT_EQ(Num(f, "prefixCount", 4), 2);
  EXPECT_EQ(Num(f, "suffixCount", 4), 1);
  EXPECT_EQ(Num(f, "prefixCount", 5), 2);
  EXPECT_EQ(Num(f, "suffixCount", 5), 1);
  EXPECT_EQ(Num(f, "prefixCount", 6), 1);
  EXPECT_EQ(Num(f, "suffixCount", 6), 0);
  EXPECT_EQ(Num(f, "normalizedNodePrefixCount", 4), 0.5);
  EXPECT_EQ(Num(f, "normalizedNodeSuffixCount", 4), 0.25);
  EXPECT_EQ(Num(f, "normalizedNodePrefixCount", 2), 0.75);
  // The paper set has no markup columns.
  EXPECT_EQ(f.symbol.size(), 2u);
  EXPECT_EQ(f.sets.size(), 3u);
}

TEST(FeaturesTest, DeepPageIsWalkedWithoutRecursion) {
  // <head> written out: both page builders give the same tree.
  std::string html = "<html><head></head><body>";
  for (int i = 0; i < 500; ++i) html += "<div>";
  html += "t";
  for (int i = 0; i < 500; ++i) html += "</div>";
  html += "</body></html>";
  const html::Page page = Parse(html);
  const PageFeatures f = ComputeFeatures(page, FeatureSet::kPaperAndMarkup);
  ASSERT_EQ(f.size(), 503u);  // html, head, body, 500 div
  EXPECT_EQ(Num(f, "depth", 502), 502);
  EXPECT_EQ(Num(f, "recursiveTextLength", 0), 1);
  EXPECT_EQ(Num(f, "prefixCount", 3), 1);
  EXPECT_EQ(Set(f, "ancestorTagNames", 502).size(), 3u);
}

TEST(FeaturesTest, TextLengthCountsCharactersNotBytes) {
  const html::Page page = Parse("<html><head></head><body><p>\xC3\xA9t\xC3\xA9 \t</p></body></html>");
  const PageFeatures f = ComputeFeatures(page, FeatureSet::kPaper);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(Num(f, "textLength", 3), 5);
  EXPECT_EQ(Num(f, "nonWhiteTextLength", 3), 3);
}

}  // namespace
}  // namespace vertex::lists
