// Learn-then-extract cases of value selection (issue 12: character ranges,
// nearest typed matches, split lists), one row per case: a few pages of one
// template, the values an editor types on the first page(s), and the values
// the learnt rule must give on every page — or the diagnostic it must give.
// Every row goes through LearnRule over all of its pages and
// CompiledRule::Apply, as the engine does. No XPath is written down.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "tests/learn/learn_case.h"

namespace vertex::learn {
namespace {

struct CasePage {
  std::string inner;                // the value's markup inside the page's product block
  std::vector<std::string> values;  // typed (annotated pages) or expected (the others)
};

struct Case {
  std::string name;
  const char* attribute_json;  // one attribute: {"name": ..., ...}
  std::vector<CasePage> pages;
  size_t annotated = 1;  // the first `annotated` pages
  // Learnt: every page gives its values. Else the diagnostic's code and a
  // part of its message.
  DiagnosticCode code = DiagnosticCode::kLearnt;
  std::string message_has;
};

std::string Document(const CasePage& p, size_t i) {
  return absl::StrCat("<html><head><title>Shop</title></head><body><div id=nav><a href=/>Home</a></div>",
                      "<div class=product><h2 class=name>Item ", 10 + 7 * i, "</h2>", p.inner,
                      "<p class=stock>In stock: ", 3 + i, "</p></div><div id=foot>Terms</div></body></html>");
}

// "" when the case behaves as its row says, else what went wrong.
std::string RunCase(const Case& c) {
  std::vector<testing::CaseDocument> documents;
  for (size_t i = 0; i < c.pages.size(); ++i) {
    documents.push_back({Document(c.pages[i], i), absl::StrCat("http://shop.test/p/", i), c.pages[i].values});
  }
  absl::StatusOr<testing::LearntCase> learnt = testing::LearnCase(c.name, c.attribute_json, documents, c.annotated);
  if (!learnt.ok()) return std::string(learnt.status().message());
  const AttributeDiagnostic& d = learnt->result.diagnostics[0];
  if (c.code != DiagnosticCode::kLearnt) {
    if (d.code != c.code || d.message.find(c.message_has) == std::string::npos) {
      return absl::StrCat("got ", DiagnosticCodeName(d.code), ": ", d.message);
    }
    return "";
  }
  return testing::ExtractionMismatches(*learnt, documents);
}

constexpr char kPrice[] = R"({"name": "price", "type": "price"})";
constexpr char kAuthors[] = R"({"name": "author", "multi_valued": true})";

std::string P(const std::string& text) { return "<p class=v>" + text + "</p>"; }

std::vector<Case> Cases() {
  std::vector<Case> cases = {
      {"£ price with a suffix, one annotated page",
       kPrice,
       {{P("£340.00 (inc VAT)"), {"340.00"}}, {P("£47.82 (inc VAT)"), {"47.82"}}, {P("£1,299.00 (inc VAT)"), {"1,299.00"}}}},
      {"£ price with a suffix, two annotated pages",
       kPrice,
       {{P("£340.00 (inc VAT)"), {"340.00"}}, {P("£47.82 (inc VAT)"), {"47.82"}}, {P("£5.10 (inc VAT)"), {"5.10"}}},
       2},
      {"€ glued to the amount",
       kPrice,
       {{P("€13.00"), {"13.00"}}, {P("€7.50"), {"7.50"}}, {P("€120.99"), {"120.99"}}}},
      {"$ amount with its currency and a unit suffix",
       kPrice,
       {{P("$ 5.99 each"), {"$ 5.99"}}, {P("$ 12.50 each"), {"$ 12.50"}}, {P("$ 0.99 each"), {"$ 0.99"}}}},
      {"Price: $80 each, in one text node",
       kPrice,
       {{P("Price: $80 each"), {"$80"}}, {P("Price: $7 each"), {"$7"}}, {P("Price: $120 each"), {"$120"}}}},
      // Length and tail vary: the typed match nearest the learnt offset.
      {"label kept, tail varies: nearest typed match",
       kPrice,
       {{P("Price: £340.00 (inc VAT)"), {"340.00"}},
        {P("Price: £47.82 + p&p"), {"47.82"}},
        {P("Price: £5.00 incl. delivery"), {"5.00"}},
        {P("Price: £1,299.00"), {"1,299.00"}}},
       2},
      // Only the end is constant: the typed match ending nearest it, not the
      // leftmost ("£50.00").
      {"was/now: the nearest match, not the leftmost",
       kPrice,
       {{P("Was £50.00 now £40.00"), {"40.00"}},
        {P("Was £9.99 now £7.49"), {"7.49"}},
        {P("Was £120.00 now £99.00"), {"99.00"}},
        {P("Was £1,250.00 now £999.50"), {"999.50"}}},
       2},
      {"2 and 3 values annotated, one on the test page",
       kAuthors,
       {{P("By: Ann Lee, Bo Chen"), {"Ann Lee", "Bo Chen"}},
        {P("By: Cy Dorn, Dee Fox, Eve Gray"), {"Cy Dorn", "Dee Fox", "Eve Gray"}},
        {P("By: Flo Hart"), {"Flo Hart"}}},
       2},
      {"an extra list item on the test page",
       kAuthors,
       {{P("By: Ann Lee; Bo Chen"), {"Ann Lee", "Bo Chen"}},
        {P("By: Cy Dorn; Dee Fox; Eve Gray; Flo Hart"), {"Cy Dorn", "Dee Fox", "Eve Gray", "Flo Hart"}}}},
      {"comma and 'and' in one list",
       kAuthors,
       {{P("By: Ann Lee, Bo Chen and Cy Dorn"), {"Ann Lee", "Bo Chen", "Cy Dorn"}},
        {P("By: Dee Fox and Eve Gray"), {"Dee Fox", "Eve Gray"}},
        {P("By: Flo Hart, Gus Ives, Hal Jo and Ida Kay"), {"Flo Hart", "Gus Ives", "Hal Jo", "Ida Kay"}}}},
      {"authors in list items, one more on the test page",
       kAuthors,
       {{"<ul class=by><li>Ann Lee</li><li>Bo Chen</li></ul>", {"Ann Lee", "Bo Chen"}},
        {"<ul class=by><li>Cy Dorn</li><li>Dee Fox</li><li>Eve Gray</li></ul>", {"Cy Dorn", "Dee Fox", "Eve Gray"}}}},
      // Diagnostics.
      {"no separator between two values",
       kAuthors,
       {{P("By: Ann Lee Bo Chen"), {"Ann Lee", "Bo Chen"}}, {P("By: Cy Dorn"), {"Cy Dorn"}}},
       1,
       DiagnosticCode::kRangeInconsistent,
       "split: list \"By: Ann Lee Bo Chen\": no separator between two values"},
      {"the separator cuts inside a value",
       kAuthors,
       {{P("By: Lee, Ann; Chen, Bo"), {"Lee, Ann", "Chen, Bo"}}, {P("By: Dorn, Cy, Fox, Dee"), {"Dorn, Cy", "Fox, Dee"}}},
       2,
       DiagnosticCode::kValueMismatch,
       "split: splitting \"Lee, Ann; Chen, Bo\" at [, ;] gives [lee | ann | chen | bo]"},
  };
  // Multi-author strings, one row per separator.
  const std::vector<std::pair<std::string, std::string>> separators = {
      {"comma", ", "}, {"semicolon", "; "}, {"and", " and "}, {"ampersand", " & "}, {"slash", " / "}, {"bar", " | "}};
  for (const auto& [label, sep] : separators) {
    cases.push_back({"authors split at " + label,
                     kAuthors,
                     {{P("By: Lynn A. Coleman" + sep + "Rachel Hauck"), {"Lynn A. Coleman", "Rachel Hauck"}},
                      {P("By: Ann Lee" + sep + "Bo Chen" + sep + "Cy Dorn"), {"Ann Lee", "Bo Chen", "Cy Dorn"}},
                      {P("By: Dee Fox"), {"Dee Fox"}}}});
  }
  return cases;
}

TEST(ValueSelectionTest, EveryCaseLearnsAndExtractsItsValues) {
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(RunCase(c), "");
  }
}

}  // namespace
}  // namespace vertex::learn
