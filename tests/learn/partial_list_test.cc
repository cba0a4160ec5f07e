// Partial list labels (issue 14, deliverable 5): an annotation giving the
// first K values of a page's list, with `partial`, judges only the nodes up
// to the K-th value's; the unlabelled rest of the list is neither right nor
// wrong. Generated pages: navigation links and the title before the feature
// list (negatives before the labelled values), the feature list (25-35 items; 30 on
// page 0), then a specification list of the same markup (the list must not
// run on into it: the learner prefers rules that stay in the labelled values'
// container; a bare <li> rule is precise on the judged nodes and nearer)
// and related-product tiles. The learnt rule must give every
// feature of the other pages; the same K values without `partial` must not.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "common/util/random.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

constexpr char kSchemaJson[] = R"({"vertical": "product", "attributes": [
  {"name": "title"},
  {"name": "feature", "multi_valued": true},
  {"name": "tag", "multi_valued": true}]})";

const schema::CompiledSchema& Schema() {
  static const schema::CompiledSchema* schema =
      new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "partial test").value());
  return *schema;
}

const std::vector<std::string> kWords = {"steel", "oak",   "linen", "quartz", "amber",  "cobalt",
                                         "slate", "maple", "wool",  "copper", "canvas", "granite"};

struct Site {
  std::vector<html::Page> pages;
  std::vector<std::string> titles;
  std::vector<std::vector<std::string>> features;  // in page order
  std::vector<std::vector<std::string>> tags;      // in one text, comma-separated
};

Site MakeSite(int n, uint64_t seed) {
  util::Rng rng(seed);
  html::Parser parser;
  Site site;
  for (int i = 0; i < n; ++i) {
    const int items = i == 0 ? 30 : static_cast<int>(rng.Range(25, 35));
    std::string nav, list, specs, tiles;
    for (int k = 0; k < 5; ++k) nav += absl::StrCat("<a href=/d/", k, ">", kWords[rng.Uniform(kWords.size())], " dept</a> ");
    std::vector<std::string> features;
    for (int k = 0; k < items; ++k) {
      features.push_back(absl::StrCat(kWords[rng.Uniform(kWords.size())], " finish ", i, "-", k));
      list += "<li>" + features.back() + "</li>";
    }
    for (int k = 0; k < 4; ++k) specs += absl::StrCat("<li>", kWords[rng.Uniform(kWords.size())], " spec ", i, "-", k, "</li>");
    for (int k = 0; k < 4; ++k) tiles += absl::StrCat("<div class=tile>", kWords[rng.Uniform(kWords.size())], " kit ", i, "-", k, "</div>");
    std::vector<std::string> tags;
    const int tag_count = static_cast<int>(rng.Range(4, 7));
    for (int k = 0; k < tag_count; ++k) tags.push_back(absl::StrCat(kWords[rng.Uniform(kWords.size())], "-tag", i, k));
    const std::string title = absl::StrCat(kWords[rng.Uniform(kWords.size())], " chair ", i);
    const std::string html = absl::StrCat("<html><body><div class=nav>", nav, "</div><h1>", title,
                                          "</h1><h3>Features</h3><ul class=features>", list,
                                          "</ul><h3>Specifications</h3><ul class=specs>", specs,
                                          "</ul><p class=tags>Tags: ", absl::StrJoin(tags, ", "), "</p><div class=related>", tiles,
                                          "</div></body></html>");
    site.pages.push_back(parser.Parse(html, absl::StrCat("http://shop.test/p/", i)).value());
    site.titles.push_back(title);
    site.features.push_back(std::move(features));
    site.tags.push_back(std::move(tags));
  }
  return site;
}

std::vector<const html::Page*> Pointers(const Site& site) {
  std::vector<const html::Page*> out;
  for (const html::Page& p : site.pages) out.push_back(&p);
  return out;
}

AttributeAnnotation FirstFeatures(const Site& site, size_t page, size_t k, bool partial) {
  AttributeAnnotation a;
  a.page = page;
  a.attribute = "feature";
  a.values.assign(site.features[page].begin(), site.features[page].begin() + static_cast<std::ptrdiff_t>(k));
  a.partial = partial;
  return a;
}

std::vector<std::string> Extract(const v1::Rule& rule, const html::Page& page,
                                 const std::string& attribute = "feature") {
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, Schema());
  if (!compiled.ok()) return {"<no rule>"};
  absl::StatusOr<std::vector<extract::AttributeResult>> r = compiled->Apply(page);
  return r.ok() ? (*r)[Schema().Find(attribute)].values : std::vector<std::string>{"<error>"};
}

// Pages 1.. where the rule gives exactly the page's features.
size_t PagesRight(const Site& site, const v1::Rule& rule) {
  size_t right = 0;
  for (size_t p = 1; p < site.pages.size(); ++p) right += Extract(rule, site.pages[p]) == site.features[p];
  return right;
}

std::string Message(const RuleLearnResult& r, const std::string& attribute = "feature") {
  for (const AttributeDiagnostic& d : r.diagnostics) {
    if (d.attribute == attribute) return absl::StrCat(DiagnosticCodeName(d.code), ": ", d.message);
  }
  return "no diagnostic";
}

TEST(PartialListTest, FirstThreeWithPartialLearnTheWholeList) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(seed);
    const Site site = MakeSite(12, seed);
    absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {FirstFeatures(site, 0, 3, true)}});
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(PagesRight(site, r->rule), site.pages.size() - 1) << Message(*r);
    // The annotated page too: all 30, not the 3 typed.
    EXPECT_EQ(Extract(r->rule, site.pages[0]).size(), 30u) << Message(*r);
  }
}

TEST(PartialListTest, TheSameThreeWithoutPartialDoNot) {
  for (uint64_t seed = 1; seed <= 8; ++seed) {
    SCOPED_TRACE(seed);
    const Site site = MakeSite(12, seed);
    absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {FirstFeatures(site, 0, 3, false)}});
    ASSERT_TRUE(r.ok()) << r.status();
    // The 27 unlabelled items are negatives: no rule, or one that does not
    // give the whole list.
    EXPECT_EQ(PagesRight(site, r->rule), 0u) << Message(*r);
  }
}

TEST(PartialListTest, AnUnlabelledNodeBeforeTheLastLabelledOneIsWrong) {
  const Site site = MakeSite(12, 7);
  // Values 1, 2 and 4: item 3 comes before the last labelled one, so the
  // list rule is imprecise; it must not be learnt as if 3 were a value.
  AttributeAnnotation a = FirstFeatures(site, 0, 4, true);
  a.values.erase(a.values.begin() + 2);
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {a}});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(PagesRight(site, r->rule), 0u) << Message(*r);
}

TEST(PartialListTest, ValuesOutOfPageOrderAreRefusedNamingPageAndAttribute) {
  const Site site = MakeSite(4, 7);
  AttributeAnnotation a = FirstFeatures(site, 2, 3, true);
  std::swap(a.values[0], a.values[2]);
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {a}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("\"feature\" on http://shop.test/p/2"));
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("not in page order"));
  // Without partial the order does not matter.
  a.partial = false;
  EXPECT_TRUE(LearnRule(Schema(), {Pointers(site), {a}}).ok());
}

// Regression (issue 15): a list page's partial label repeats a value (two
// entries by one author: "Ann", "Bo", "Ann"); it is in page order and the
// repeated value's second node is a positive, not the first one twice.
TEST(PartialListTest, ARepeatedValueInPageOrderIsAccepted) {
  const std::vector<std::vector<std::string>> authors = {
      {"Ann", "Bo", "Ann", "Cy", "Bo", "Dee"}, {"Bo", "Bo", "Ann", "Eve"}, {"Cy", "Ann", "Cy", "Dee", "Ann"}};
  html::Parser parser;
  std::vector<html::Page> pages;
  for (size_t p = 0; p < authors.size(); ++p) {
    std::string entries;
    for (const std::string& a : authors[p]) entries += "<div class=entry><h2>Post</h2><span class=by>" + a + "</span></div>";
    pages.push_back(parser.Parse("<html><body><h1>Blog</h1>" + entries +
                                     "</body></html>",
                                 absl::StrCat("http://blog.test/page/", p))
                        .value());
  }
  AttributeAnnotation a;
  a.page = 0;
  a.attribute = "feature";
  a.values = {"Ann", "Bo", "Ann"};
  a.partial = true;
  std::vector<const html::Page*> pointers;
  for (const html::Page& p : pages) pointers.push_back(&p);
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {pointers, {a}});
  ASSERT_TRUE(r.ok()) << r.status();
  for (size_t p = 0; p < pages.size(); ++p) EXPECT_EQ(Extract(r->rule, pages[p]), authors[p]) << p << " " << Message(*r);
}

TEST(PartialListTest, PartialOnASingleValuedAttributeIsRefused) {
  const Site site = MakeSite(4, 7);
  AttributeAnnotation a;
  a.page = 0;
  a.attribute = "title";
  a.values = {site.titles[0]};
  a.partial = true;
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {a}});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("multi-valued attributes only"));
}

TEST(PartialListTest, PartialNeedsValues) {
  const Site site = MakeSite(4, 7);
  AttributeAnnotation a;
  a.page = 0;
  a.attribute = "feature";
  a.xpath = "//ul[@class='features']/li";
  a.partial = true;
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {a}});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), testing::HasSubstr("needs values"));
}

// K = 1 (documented in rule_learner.h): accepted and learnt, but one value
// does not tell a list from its first item: the rule gives the first feature
// of every page, not necessarily the rest.
TEST(PartialListTest, OneValueWithPartialIsAcceptedAndGivesAtLeastTheFirstItem) {
  const Site site = MakeSite(12, 5);
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {FirstFeatures(site, 0, 1, true)}});
  ASSERT_TRUE(r.ok()) << r.status();
  for (size_t p = 1; p < site.pages.size(); ++p) {
    EXPECT_THAT(Extract(r->rule, site.pages[p]), testing::Contains(site.features[p][0])) << p << " " << Message(*r);
  }
}

// Values sharing one text: the first two of "Tags: a, b, c, d" with partial
// teach the split and no range ending at the second (the text goes on).
TEST(PartialListTest, FirstTwoOfASplitTextGiveTheWholeText) {
  const Site site = MakeSite(12, 3);
  AttributeAnnotation a;
  a.page = 0;
  a.attribute = "tag";
  a.values = {site.tags[0][0], site.tags[0][1]};
  a.partial = true;
  absl::StatusOr<RuleLearnResult> r = LearnRule(Schema(), {Pointers(site), {a}});
  ASSERT_TRUE(r.ok()) << r.status();
  for (size_t p = 0; p < site.pages.size(); ++p) {
    EXPECT_EQ(Extract(r->rule, site.pages[p], "tag"), site.tags[p]) << p << " " << Message(*r, "tag");
  }
}

}  // namespace
}  // namespace vertex::learn
