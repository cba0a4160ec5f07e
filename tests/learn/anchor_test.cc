// Template anchors (issue 12, Deliver 5): which texts Algorithm 3 may use as
// a label feature. One row per case: the cluster's sample pages given to
// LearnXPath (the first `annotated` of them annotated with their value),
// texts refused as annotated values, test pages the learner never sees, and
// the value every page must give. The learnt XPath must select exactly the
// value's text node on every page, must not test a forbidden text, and, when
// the row says so, must test the wanted label.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/learn/rule_learner.h"
#include "common/learn/xpath_learner.h"
#include "common/schema/schema.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

struct AnchorPage {
  std::string body;   // inside <body>
  std::string value;  // the normalised text of the value's text node
};

struct AnchorCase {
  const char* name;
  std::vector<AnchorPage> sample;  // given to the learner
  size_t annotated;                // the first `annotated` sample pages
  std::vector<std::string> refused;
  std::vector<AnchorPage> test;    // never seen by the learner
  std::string forbidden;           // no feature may test this text
  std::string wanted;              // "" or a label the XPath must test
};

std::string Document(const std::string& body) {
  return "<html><head><title>Shop</title></head><body><div id=nav><a href=/>Home</a></div>" + body +
         "<div id=foot>Contact us</div></body></html>";
}

html::Node FindText(const html::Page& page, const std::string& value) {
  const std::vector<html::Node> nodes = html::XPath::Compile("//text()").value().Select(page).value();
  for (html::Node n : nodes) {
    if (html::NormalizeSpace(n.RawText()) == value) return n;
  }
  return html::Node();
}

// The sentence of a review link, as shops print it.
constexpr char kReview[] = "I'm the author/artist and I want to review this item";
// A template sentence shown before the value on every page.
constexpr char kNotice[] = "Prices include VAT and free delivery on every order";

std::vector<AnchorCase> Cases() {
  const auto item = [](const std::string& price, const std::string& category) {
    return AnchorPage{"<div class=item><span>" + price + "</span><span>" + category + "</span><span>Sale</span></div>",
                      category};
  };
  const auto titled = [](const std::string& title, bool review) {
    return AnchorPage{absl::StrCat("<div class=p>", review ? absl::StrCat("<a href=/r>", kReview, "</a>") : "",
                                   "<span>", title, "</span><span>In stock</span></div>"),
                      title};
  };
  const auto noticed = [](const std::string& value) {
    return AnchorPage{absl::StrCat("<div class=q><p>", kNotice, "</p><span>", value, "</span><span>per unit</span></div>"),
                      value};
  };
  const auto pairs = [](const std::string& brand, bool brand_first) {
    const std::string b = "<b>Brand:</b> " + brand + "<br>", s = "<b>Colour:</b> Red<br>";
    return AnchorPage{"<div class=meta>" + (brand_first ? b + s : s + b) + "</div>", brand};
  };
  // The value's block and a "New" block swap places: "New" is template text
  // but follows the value on some pages only (elsewhere it follows "Home").
  const auto swapped = [](const std::string& value, bool value_first) {
    const std::string a = "<div class=a><span>" + value + "</span></div>";
    const std::string b = "<div class=b><span>New</span><span>Gift card</span></div>";
    return AnchorPage{value_first ? a + b : b + a, value};
  };
  // Two layouts of one page type, the date's row first or second: labels
  // tell the date from the format, and the list layout's labels are on a
  // minority of the sample pages.
  const auto layout = [](const std::string& date, bool list, bool date_first) {
    const std::string d = list ? "<li><span>Published:</span> <span>" + date + "</span></li>"
                               : "<tr><th>Publication date</th><td>" + date + "</td></tr>";
    const std::string f = list ? "<li><span>Format:</span> <span>Paper</span></li>" : "<tr><th>Format</th><td>Paper</td></tr>";
    const std::string rows = date_first ? d + f : f + d;
    return AnchorPage{list ? "<ul class=details>" + rows + "</ul>" : "<table class=details>" + rows + "</table>", date};
  };
  return {
      // Template labels alone give no precise rule: "Published:" is on 1 of
      // 5 sample pages, yet the label pair is the only precise rule.
      {"a minority layout's label anchors when template labels alone are not precise",
       {layout("2001-03-04", false, true), layout("2002-05-06", true, false), layout("2003-07-08", false, false),
        layout("2004-09-10", false, true), layout("2005-11-12", false, false)}, 2, {},
       {layout("2006-01-02", true, true), layout("2007-02-03", false, false)}, "", "Published:"},
      {"a template text beside the value on some pages only is not enough",
       {swapped("Garden", true), swapped("Kitchen", false), swapped("Books", true), swapped("Toys", false)}, 1, {},
       {swapped("Hats", false), swapped("Mugs", true)}, "New", ""},
      // Without the refusal, "$80" (on both sample pages) anchors the category.
      {"a price of the annotated page beside the category is refused",
       {item("$80", "Garden"), item("$80", "Kitchen")}, 1, {"$80", "Garden"},
       {item("$12", "Books"), item("$45", "Toys")}, "$80", "Sale"},
      {"one-page sample: a short label anchors",
       {pairs("Acme", true)}, 1, {},
       {pairs("Globex", false), pairs("Initech", true)}, "", "Brand:"},
      // The review link shows on 2 of 5 sample pages: not template text.
      {"a review-link sentence on some pages only is not an anchor",
       {titled("Silent River", true), titled("Hidden Orchard", true), titled("Golden Saga", false),
        titled("Broken Lantern", false), titled("Crimson Letters", false)}, 2, {},
       {titled("Quiet Harbor", false), titled("Amber Fjord", true)}, kReview, ""},
      // Both texts are template; the short label wins over the sentence and
      // over the sentence's last word.
      {"a short label is preferred over a long sentence",
       {noticed("Oak"), noticed("Pine"), noticed("Birch")}, 1, {},
       {noticed("Cedar")}, "order", "per unit"},
  };
}

// "" when the row holds, else what went wrong.
std::string RunCase(const AnchorCase& c) {
  html::Parser parser;
  std::vector<html::Page> pages;
  for (const AnchorPage& p : c.sample) pages.push_back(parser.Parse(Document(p.body), "http://s.test/" + p.value).value());
  std::vector<ExamplePage> examples;
  for (size_t i = 0; i < pages.size(); ++i) {
    ExamplePage e{&pages[i], {}, i < c.annotated};
    if (e.annotated) e.positives = {FindText(pages[i], c.sample[i].value)};
    if (e.annotated && !e.positives[0]) return "value not on sample page " + std::to_string(i);
    examples.push_back(e);
  }
  XPathLearnOptions options;
  options.refused_anchor_texts = c.refused;
  absl::StatusOr<LearnedXPath> learnt = LearnXPath(examples, options);
  if (!learnt.ok()) return learnt.status().ToString();
  std::string errors;
  for (const rule::Feature& f : learnt->features) {
    for (const std::string& v : f.values) {
      if (!c.forbidden.empty() && v.find(c.forbidden) != std::string::npos) errors += "anchored on " + f.DebugString() + "; ";
    }
  }
  if (!c.wanted.empty() && learnt->xpath.find(c.wanted) == std::string::npos) errors += "does not test \"" + c.wanted + "\"; ";
  for (const AnchorPage& p : c.test) pages.push_back(parser.Parse(Document(p.body), "http://t.test/" + p.value).value());
  const html::XPath x = html::XPath::Compile(learnt->xpath).value();
  for (size_t i = 0; i < pages.size(); ++i) {
    const std::string& want = i < c.sample.size() ? c.sample[i].value : c.test[i - c.sample.size()].value;
    const std::vector<html::Node> got = x.Select(pages[i]).value();
    if (got.size() != 1 || got[0] != FindText(pages[i], want)) {
      errors += absl::StrCat("page ", i, ": ", got.size(), " nodes, not \"", want, "\"; ");
    }
  }
  return errors.empty() ? "" : errors + "(XPath " + learnt->xpath + ")";
}

TEST(TemplateAnchorTest, EveryCase) {
  for (const AnchorCase& c : Cases()) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(RunCase(c), "");
  }
}

// LearnRule refuses the values annotated for every attribute as anchors of
// every other: the price of the annotated pages does not anchor the category.
TEST(TemplateAnchorTest, LearnRuleRefusesEveryAttributesAnnotatedValues) {
  const schema::CompiledSchema schema =
      schema::CompiledSchema::FromJson(
          R"({"vertical": "t", "attributes": [{"name": "category"}, {"name": "price", "type": "price"}]})", "anchors")
          .value();
  const auto body = [](const std::string& price, const std::string& category) {
    return Document("<div class=item><span class=price>" + price + "</span><span>" + category +
                    "</span><span>Sale</span></div>");
  };
  html::Parser parser;
  std::vector<html::Page> pages;
  pages.push_back(parser.Parse(body("$80", "Garden"), "http://s.test/0").value());
  pages.push_back(parser.Parse(body("$80", "Kitchen"), "http://s.test/1").value());
  RuleLearnInput input;
  for (const html::Page& p : pages) input.pages.push_back(&p);
  input.annotations = {{0, "category", {"Garden"}, ""}, {0, "price", {"$80"}, ""}};
  absl::StatusOr<RuleLearnResult> learnt = LearnRule(schema, input);
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  ASSERT_TRUE(learnt->diagnostics[0].learnt) << learnt->diagnostics[0].message;
  const v1::AttributeRule& category = learnt->rule.attributes(0);
  EXPECT_EQ(category.xpath().find("$80"), std::string::npos) << category.xpath();
  const extract::CompiledRule rule = extract::CompiledRule::Create(learnt->rule, schema).value();
  for (const auto& [price, want] : std::vector<std::pair<std::string, std::string>>{{"$12", "Books"}, {"$45", "Toys"}}) {
    const html::Page test = parser.Parse(body(price, want), "http://t.test/" + want).value();
    const std::vector<extract::AttributeResult> got = rule.Apply(test).value();
    EXPECT_EQ(got[0].values, std::vector<std::string>{want}) << category.xpath();
  }
}

}  // namespace
}  // namespace vertex::learn
