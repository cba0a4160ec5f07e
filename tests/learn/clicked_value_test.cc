// Values annotated with the XPath of the node an editor clicked (the
// editor's page, issue 16): the occurrence is the editor's choice. The
// issue's case: a product's title is shown in its <h1> and, on the pages an
// editor annotates, as the text of a review link too; annotated by text
// alone the value is ambiguous (resolution prefers neither for a reason the
// editor sees), annotated by click in the <h1> the rule reads the <h1> on
// every page, also where the review link says something else. A part of a
// text (a selection) and an image's src work the same way.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/learn/annotation.h"
#include "common/learn/rule_learner.h"
#include "common/schema/schema.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

constexpr char kSchemaJson[] = R"({"vertical": "shop", "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "author"},
  {"name": "image"}]})";

struct Truth {
  std::string title, link_text, author, image;
};

const std::vector<std::string> kTitles = {"Silent River", "Crimson Lantern", "Hidden Orchard", "Golden Compass",
                                          "Broken Mountain", "Quiet Harbor", "Amber Fjord", "Onyx Prairie"};
const std::vector<std::string> kAuthors = {"Jane Doe", "Li Wei", "Ana Maria Souza", "Tom Kay",
                                           "Ife Okafor", "Max Roe", "Eva Lind", "Sam Ortiz"};

// Page `i`: the review link quotes the title on pages 0 and 1 (those
// annotated), and says something else elsewhere.
Truth TruthOf(int i) {
  Truth t;
  t.title = kTitles[i];
  t.link_text = i < 2 ? t.title : (i % 2 ? "Write the first review" : "Reviews of " + t.title);
  t.author = kAuthors[i];
  t.image = absl::StrCat("/img/", 100 + i, ".jpg");
  return t;
}

std::string PageHtml(const Truth& t) {
  return absl::StrCat("<html><body><aside><a class=\"rev\" href=\"/r\">", t.link_text,
                      "</a></aside><div class=\"main\"><h1>", t.title, "</h1><p class=\"by\">by ", t.author,
                      ", 2019</p><img class=\"cover\" src=\"", t.image, "\"></div></body></html>");
}

class ClickedValueTest : public testing::Test {
 protected:
  void SetUp() override {
    html::Parser parser;
    for (int i = 0; i < static_cast<int>(kTitles.size()); ++i) {
      absl::StatusOr<html::Page> p = parser.Parse(PageHtml(TruthOf(i)), absl::StrCat("http://shop.test/p/", i));
      ASSERT_TRUE(p.ok()) << p.status();
      pages_.push_back(*std::move(p));
    }
    for (const html::Page& p : pages_) input_.pages.push_back(&p);
  }

  void Annotate(size_t page, const std::string& attribute, const std::string& value, const std::string& xpath) {
    input_.annotations.push_back({page, attribute, {value}, xpath});
  }

  // The learnt rule's values of `attribute` on every page.
  std::vector<std::string> Extracted(const std::string& attribute) {
    absl::StatusOr<RuleLearnResult> r = LearnRule(schema_, input_);
    EXPECT_TRUE(r.ok()) << r.status();
    if (!r.ok()) return {};
    absl::StatusOr<extract::CompiledRule> rule = extract::CompiledRule::Create(r->rule, schema_);
    EXPECT_TRUE(rule.ok()) << rule.status();
    std::vector<std::string> out;
    for (const html::Page& p : pages_) {
      absl::StatusOr<std::vector<extract::AttributeResult>> a = rule->Apply(p);
      EXPECT_TRUE(a.ok()) << a.status();
      const int k = schema_.Find(attribute);
      out.push_back((*a)[k].values.empty() ? "" : (*a)[k].values.front());
    }
    return out;
  }

  template <typename F>
  std::vector<std::string> Truths(F field) {
    std::vector<std::string> out;
    for (int i = 0; i < static_cast<int>(kTitles.size()); ++i) out.push_back(field(TruthOf(i)));
    return out;
  }

  schema::CompiledSchema schema_ = schema::CompiledSchema::FromJson(kSchemaJson, "test").value();
  std::vector<html::Page> pages_;
  RuleLearnInput input_;
};

TEST_F(ClickedValueTest, TheTitleIsAmbiguousByTextAlone) {
  const std::vector<ResolvedAnnotation> r = ResolveValues({{&pages_[0], {kTitles[0]}, {}}});
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].occurrences, std::vector<size_t>{2});
}

TEST_F(ClickedValueTest, AClickInTheHeadingBeatsTheReviewLink) {
  Annotate(0, "title", kTitles[0], "/html[1]/body[1]/div[1]/h1[1]");
  Annotate(1, "title", kTitles[1], "/html[1]/body[1]/div[1]/h1[1]");
  EXPECT_EQ(Extracted("title"), Truths([](const Truth& t) { return t.title; }));
}

TEST_F(ClickedValueTest, AClickOnTheReviewLinkIsHonouredToo) {
  Annotate(0, "title", kTitles[0], "/html[1]/body[1]/aside[1]/a[1]");
  Annotate(1, "title", kTitles[1], "/html[1]/body[1]/aside[1]/a[1]");
  EXPECT_EQ(Extracted("title"), Truths([](const Truth& t) { return t.link_text; }));
}

TEST_F(ClickedValueTest, ASelectedPartOfATextLearnsItsRange) {
  Annotate(0, "author", kAuthors[0], "/html[1]/body[1]/div[1]/p[1]");
  Annotate(1, "author", kAuthors[1], "/html[1]/body[1]/div[1]/p[1]");
  Annotate(0, "title", kTitles[0], "/html[1]/body[1]/div[1]/h1[1]");
  EXPECT_EQ(Extracted("author"), Truths([](const Truth& t) { return t.author; }));
}

// The page sends a URL resolved against the page's base URL, as the value
// model's URL values are (a relative value would learn a character range).
TEST_F(ClickedValueTest, AClickedImageGivesItsSource) {
  Annotate(0, "image", "http://shop.test" + TruthOf(0).image, "/html[1]/body[1]/div[1]/img[1]");
  Annotate(1, "image", "http://shop.test" + TruthOf(1).image, "/html[1]/body[1]/div[1]/img[1]");
  EXPECT_EQ(Extracted("image"), Truths([](const Truth& t) { return "http://shop.test" + t.image; }));
}

TEST_F(ClickedValueTest, AValueNotInsideTheClickedNodeIsNotFound) {
  Annotate(0, "title", kTitles[0], "/html[1]/body[1]/div[1]/p[1]");
  absl::StatusOr<RuleLearnResult> r = LearnRule(schema_, input_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->diagnostics[0].code, DiagnosticCode::kValueNotFound);
  EXPECT_FALSE(r->diagnostics[0].learnt);
}

TEST_F(ClickedValueTest, AClickedXPathSelectingNothingIsReported) {
  Annotate(0, "title", kTitles[0], "/html[1]/body[1]/div[7]");
  absl::StatusOr<RuleLearnResult> r = LearnRule(schema_, input_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->diagnostics[0].code, DiagnosticCode::kXPathSelectsNothing);
}

}  // namespace
}  // namespace vertex::learn
