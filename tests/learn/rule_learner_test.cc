// Tests of LearnRule (Vertex III-C) on small template sites generated here
// from a seed: each generator writes one template's pages with varying
// content and records their true values, a few pages are annotated the way
// an editor would, and the learnt rule (applied with CompiledRule, as the
// engine does) must give the true values on every page. No expected XPath
// is written down: only values, diagnostics and the rule's range and
// position fields are checked.
#include "common/learn/rule_learner.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/schema/schema.h"
#include "common/util/random.h"
#include "gtest/gtest.h"

namespace vertex::learn {
namespace {

constexpr char kSchemaJson[] = R"({"vertical": "book", "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "author", "multi_valued": true},
  {"name": "isbn_13", "type": "isbn"},
  {"name": "publisher"},
  {"name": "price", "type": "price"},
  {"name": "byline"},
  {"name": "format"},
  {"name": "binding"},
  {"name": "edition"}]})";

const schema::CompiledSchema& TestSchema() {
  static const schema::CompiledSchema* schema =
      new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "test schema").value());
  return *schema;
}

// ---- Generated sites ----

// Attribute -> true values on one page (empty: absent).
using Truth = std::map<std::string, std::vector<std::string>>;
// Writes the main content of page `id` and its truth.
using PageBody = std::string (*)(util::Rng& rng, int id, Truth* truth);

template <typename T>
T Pick(util::Rng& rng, const std::vector<T>& pool) {
  return pool[rng.Uniform(pool.size())];
}

const std::vector<std::string> kWords = {"amber", "birch",   "cedar",  "delta",  "ember",
                                         "fjord", "garnet",  "harbor", "indigo", "juniper",
                                         "onyx",  "prairie", "quartz", "raven",  "sierra"};

// A one-word text unique to cell `k` of page `id`.
std::string Token(util::Rng& rng, int id, int k) { return absl::StrCat(Pick(rng, kWords), "-", id, "-", k); }

std::string Title(util::Rng& rng) {
  return Pick<std::string>(rng, {"Silent", "Crimson", "Hidden", "Golden", "Broken"}) + " " +
         Pick<std::string>(rng, {"River", "Mountain", "Lantern", "Orchard", "Compass"}) + " " +
         Pick<std::string>(rng, {"Chronicles", "Saga", "Diaries", "Letters"});
}

struct Site {
  std::vector<html::Page> pages;
  std::vector<Truth> truth;

  std::vector<const html::Page*> Pointers() const {
    std::vector<const html::Page*> out;
    for (const html::Page& p : pages) out.push_back(&p);
    return out;
  }
  // The first `n` pages where `attribute` has a value.
  std::vector<size_t> WithValue(const std::string& attribute, size_t n) const {
    std::vector<size_t> out;
    for (size_t p = 0; p < pages.size() && out.size() < n; ++p) {
      if (!truth[p].at(attribute).empty()) out.push_back(p);
    }
    return out;
  }
};

Site MakeSite(PageBody body, int n, uint64_t seed) {
  util::Rng rng(seed);
  html::Parser parser;
  Site site;
  for (int i = 0; i < n; ++i) {
    Truth truth;
    const std::string main = body(rng, i, &truth);
    const std::string html = absl::StrCat(
        "<html><head><title>Item ", i, "</title></head><body><div id=nav><a href=/>Home</a> <a href=/books>Books</a>",
        "</div><div id=main>", main, "</div><div id=footer>Example Books, since 1999</div></body></html>");
    site.pages.push_back(parser.Parse(html, absl::StrCat("http://books.test/item/", i)).value());
    site.truth.push_back(std::move(truth));
  }
  return site;
}

// (a) Label/value rows in mixed content, each row present or not.
std::string DetailsPage(util::Rng& rng, int id, Truth* t) {
  const std::string title = Title(rng);
  std::string isbn = "978";
  for (int i = 0; i < 10; ++i) isbn += static_cast<char>('0' + rng.Uniform(10));
  const std::vector<std::pair<std::string, std::string>> publishers = {
      {"Knopf", "Knopf"},         {"Penguin Books", "Penguin Books"}, {"Faber &amp; Faber", "Faber & Faber"},
      {"Tor Books", "Tor Books"}, {"Orbit", "Orbit"},                 {"Vintage", "Vintage"}};
  const auto& [publisher_html, publisher] = Pick(rng, publishers);
  const bool has_isbn = rng.Bernoulli(0.8), has_publisher = rng.Bernoulli(0.7);
  std::string rows;
  if (has_isbn) rows += "<b>ISBN-13:</b> " + isbn + "<br>";
  if (rng.Bernoulli(0.5)) rows += absl::StrCat("<b>Pages:</b> ", rng.Range(90, 900), "<br>");
  if (has_publisher) rows += "<b>Publisher:</b> " + publisher_html + "<br>";
  if (rng.Bernoulli(0.5)) rows += "<b>Language:</b> " + Pick<std::string>(rng, {"English", "French"}) + "<br>";
  (*t)["title"] = {title};
  (*t)["isbn_13"] = has_isbn ? std::vector<std::string>{isbn} : std::vector<std::string>{};
  (*t)["publisher"] = has_publisher ? std::vector<std::string>{publisher} : std::vector<std::string>{};
  return "<h1>" + title + "</h1><p class=details>" + rows + "</p><div class=desc>" + Token(rng, id, 0) + " is a story of" +
         ".</div>";
}

// (b) "Our Price: $25.99" in one text node, after a list price on some
// pages; "By: <1-4 words>".
std::string PricePage(util::Rng& rng, int id, Truth* t) {
  const int cents = static_cast<int>(rng.Range(10, 99)), dollars = static_cast<int>(rng.Range(5, 80));
  const std::string price = absl::StrCat("$", dollars, ".", cents);
  std::vector<std::string> name;
  const int words = static_cast<int>(rng.Range(1, 4));
  if (words >= 2) name.push_back(Pick<std::string>(rng, {"Ursula", "Gabriel", "Toni", "Haruki", "Chinua"}));
  for (int i = 2; i < words; ++i) name.push_back(Pick<std::string>(rng, {"K.", "R.", "J."}));
  name.push_back(Pick<std::string>(rng, {"Le Guin", "Marquez", "Morrison", "Murakami", "Achebe"}));
  const std::string author = absl::StrJoin(name, " ");
  (*t)["price"] = {price};
  (*t)["byline"] = {author};
  const std::string list =
      rng.Bernoulli(0.6) ? absl::StrCat("<span class=list>List Price: $", dollars + 10, ".", cents, "</span> ") : "";
  return absl::StrCat("<h1>", Title(rng), "</h1><div class=buy>", list, "<span class=price>Our Price: ", price,
                      "</span></div><div class=byline>By: ", author, "</div>");
}

// (c) Cells whose labels are images: the attribute is the 2nd value cell.
std::string FactsPage(util::Rng& rng, int id, Truth* t) {
  const int cells = static_cast<int>(rng.Range(4, 6));
  std::string row;
  for (int k = 0; k < cells; ++k) {
    const std::string value = Token(rng, id, k);
    if (k == 1) (*t)["format"] = {value};
    row += absl::StrCat("<td><img src=\"/img/label", k, ".gif\" alt=\"\"></td><td class=v>", value, "</td>");
  }
  return "<h1>" + Title(rng) + "</h1><table class=facts><tr>" + row + "</tr></table>";
}

// (d) One row of cells; only the value's has width=120. It sits at cell 1..4
// (pages 0-3: 1, 2, 3, 4) with 4 or 5 cells after it.
std::string GridPage(util::Rng& rng, int id, Truth* t) {
  const int at = id < 4 ? id + 1 : static_cast<int>(rng.Range(1, 4));
  const int cells = at + 5 + (id < 4 ? id % 2 : static_cast<int>(rng.Uniform(2)));
  std::string row;
  for (int k = 0; k < cells; ++k) {
    const std::string value = Token(rng, id, k);
    if (k == at) (*t)["binding"] = {value};
    row += absl::StrCat("<td width=", k == at ? 120 : 60, ">", value, "</td>");
  }
  return "<h1>" + Title(rng) + "</h1><table class=grid><tr>" + row + "</tr></table>";
}

// (e) 1-5 authors, and a "related" sidebar (before them) naming some of
// them again among others.
std::string AuthorsPage(util::Rng& rng, int id, Truth* t) {
  std::vector<std::string> pool;
  for (const char* first : {"Alice", "Bruno", "Carla", "Dmitri", "Elena", "Farid"}) {
    for (const char* last : {"Okafor", "Petrov", "Quintana", "Rossi", "Tanaka"}) pool.push_back(absl::StrCat(first, " ", last));
  }
  for (size_t i = pool.size() - 1; i > 0; --i) std::swap(pool[i], pool[rng.Uniform(i + 1)]);
  const size_t n = static_cast<size_t>(rng.Range(1, 5));
  const std::vector<std::string> authors(pool.begin(), pool.begin() + n);
  std::vector<std::string> related = {authors[rng.Uniform(n)], pool[n], pool[n + 1]};
  if (n > 1 && rng.Bernoulli(0.5)) related.push_back(authors[n - 1]);
  std::string sidebar = "<div class=related><h3>More from these authors</h3><ul>";
  for (const std::string& r : related) sidebar += "<li><a href=/a>" + r + "</a> &ndash; <i>" + Title(rng) + "</i></li>";
  std::vector<std::string> links;
  for (const std::string& a : authors) links.push_back("<a href=/a>" + a + "</a>");
  (*t)["author"] = authors;
  return sidebar + "</ul></div><h1>" + Title(rng) + "</h1><div class=authors>by " + absl::StrJoin(links, ", ") +
         "</div>";
}

// (f) An edition row on some pages; the others show a format in the same
// structure.
std::string EditionPage(util::Rng& rng, int id, Truth* t) {
  const bool has = rng.Bernoulli(0.6);
  const std::string edition =
      Pick<std::string>(rng, {"1st edition", "2nd edition", "3rd revised edition", "Collector's edition"});
  const std::string label = has ? "Edition:" : "Format:";
  const std::string value = has ? edition : Pick<std::string>(rng, {"Hardcover", "Paperback"});
  (*t)["edition"] = has ? std::vector<std::string>{edition} : std::vector<std::string>{};
  return "<h1>" + Title(rng) + "</h1><div class=info><span class=label>" + label + "</span> <span class=val>" +
         value + "</span></div>";
}

// A list with one item on pages 0-3 and 2-3 elsewhere, between unique texts.
std::string ListPage(util::Rng& rng, int id, Truth* t) {
  std::string items;
  const int n = id < 4 ? 1 : static_cast<int>(rng.Range(2, 3));
  for (int k = 0; k < n; ++k) {
    const std::string value = Token(rng, id, k);
    if (k == 0) (*t)["format"] = {value};
    items += "<li>" + value + "</li>";
  }
  return "<h2>" + Token(rng, id, 8) + "</h2><ul class=fmt>" + items + "</ul><p>" + Token(rng, id, 9) + "</p>";
}

// ---- Learning and checking ----

// Value annotations of `attribute` on `pages`: the truth, or absent.
std::vector<AttributeAnnotation> Annotate(const Site& site, const std::string& attribute,
                                          const std::vector<size_t>& pages) {
  std::vector<AttributeAnnotation> out;
  for (size_t p : pages) out.push_back({p, attribute, site.truth[p].at(attribute), ""});
  return out;
}

RuleLearnResult Learn(const Site& site, const std::vector<AttributeAnnotation>& annotations,
                      const RuleLearnOptions& options = {}) {
  absl::StatusOr<RuleLearnResult> r = LearnRule(TestSchema(), {site.Pointers(), annotations}, options);
  EXPECT_TRUE(r.ok()) << r.status();
  if (!r.ok()) return {};
  EXPECT_EQ(r->diagnostics.size(), TestSchema().size());
  return *std::move(r);
}

const AttributeDiagnostic& Diagnostic(const RuleLearnResult& r, const std::string& attribute) {
  static const AttributeDiagnostic kNone{.attribute = "(missing)", .message = "no diagnostic"};
  for (const AttributeDiagnostic& d : r.diagnostics) {
    if (d.attribute == attribute) return d;
  }
  return kNone;
}

const v1::AttributeRule* RuleOf(const v1::Rule& rule, const std::string& attribute) {
  for (const v1::AttributeRule& a : rule.attributes()) {
    if (a.attribute() == attribute) return &a;
  }
  return nullptr;
}

std::string Describe(const RuleLearnResult& r, const std::string& attribute) {
  const AttributeDiagnostic& d = Diagnostic(r, attribute);
  const v1::AttributeRule* a = RuleOf(r.rule, attribute);
  return absl::StrCat(attribute, ": ", DiagnosticCodeName(d.code), " (", d.message, ") rule ",
                      a ? a->ShortDebugString() : "none");
}

// The values `rule` extracts for `attribute` on `page`.
std::vector<std::string> Extract(const v1::Rule& rule, const std::string& attribute, const html::Page& page) {
  absl::StatusOr<extract::CompiledRule> compiled = extract::CompiledRule::Create(rule, TestSchema());
  EXPECT_TRUE(compiled.ok()) << compiled.status();
  if (!compiled.ok()) return {"<no rule>"};
  absl::StatusOr<std::vector<extract::AttributeResult>> r = compiled->Apply(page);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? (*r)[TestSchema().Find(attribute)].values : std::vector<std::string>{"<error>"};
}

// Expects the learnt rule to extract the true values of `attribute` from
// every page not in `annotated`; returns how many pages it compared.
size_t ExpectHeldOutValues(const Site& site, const RuleLearnResult& learnt, const std::string& attribute,
                           const std::vector<size_t>& annotated) {
  const std::set<size_t> skip(annotated.begin(), annotated.end());
  size_t compared = 0;
  for (size_t p = 0; p < site.pages.size(); ++p) {
    if (skip.count(p)) continue;
    EXPECT_EQ(Extract(learnt.rule, attribute, site.pages[p]), site.truth[p].at(attribute))
        << site.pages[p].url() << "\n" << Describe(learnt, attribute);
    ++compared;
  }
  return compared;
}

// ---- (a) mixed content ----

TEST(RuleLearnerTest, MixedContentValuesLearntFromThreePagesByValue) {
  const Site site = MakeSite(&DetailsPage, 25, 11);
  for (const char* attribute : {"publisher", "isbn_13"}) {
    SCOPED_TRACE(attribute);
    const std::vector<size_t> annotated = site.WithValue(attribute, 3);
    ASSERT_EQ(annotated.size(), 3u);
    const RuleLearnResult r = Learn(site, Annotate(site, attribute, annotated));
    const AttributeDiagnostic& d = Diagnostic(r, attribute);
    EXPECT_EQ(d.code, DiagnosticCode::kLearnt) << Describe(r, attribute);
    EXPECT_TRUE(d.learnt);
    EXPECT_EQ(r.rule.attributes_size(), 1);
    size_t absent = 0;
    for (size_t p = 0; p < site.pages.size(); ++p) absent += site.truth[p].at(attribute).empty();
    EXPECT_GT(absent, 0u) << "the site should miss the row on some pages";
    EXPECT_EQ(ExpectHeldOutValues(site, r, attribute, annotated), 22u);
  }
}

TEST(RuleLearnerTest, MixedContentLearntFromTwoPages) {
  const Site site = MakeSite(&DetailsPage, 20, 5);
  const std::vector<size_t> annotated = site.WithValue("publisher", 2);
  const RuleLearnResult r = Learn(site, Annotate(site, "publisher", annotated));
  EXPECT_EQ(Diagnostic(r, "publisher").code, DiagnosticCode::kLearnt) << Describe(r, "publisher");
  EXPECT_EQ(ExpectHeldOutValues(site, r, "publisher", annotated), 18u);
}

// On seed 28 the three pages annotated for the publisher also fit a rule
// anchored on the label after it ("Language:"), present on more pages than
// the publisher, hence of higher support. As an editor would, annotate the
// first page where the rule is wrong (as absent where it extracts a value
// the page does not have), at most twice. (Seeds 15 and 27 misled the
// ISBN-13 the same way, with "Publisher:", until support counted only nodes
// holding an ISBN.)
TEST(RuleLearnerTest, MixedContentAmbiguousSampleIsSettledByCorrections) {
  for (const uint64_t seed : {15, 27, 28}) {
    SCOPED_TRACE(seed);
    const Site site = MakeSite(&DetailsPage, 25, seed);
    for (const char* attribute : {"publisher", "isbn_13"}) {
      SCOPED_TRACE(attribute);
      std::vector<size_t> annotated = site.WithValue(attribute, 3);
      RuleLearnResult r = Learn(site, Annotate(site, attribute, annotated));
      for (int round = 0; round < 2; ++round) {
        size_t wrong = 0;
        while (wrong < site.pages.size() &&
               Extract(r.rule, attribute, site.pages[wrong]) == site.truth[wrong].at(attribute)) {
          ++wrong;
        }
        if (wrong == site.pages.size()) break;
        annotated.push_back(wrong);
        r = Learn(site, Annotate(site, attribute, annotated));
      }
      EXPECT_EQ(Diagnostic(r, attribute).code, DiagnosticCode::kLearnt) << Describe(r, attribute);
      EXPECT_EQ(ExpectHeldOutValues(site, r, attribute, annotated), 25 - annotated.size());
    }
  }
}

// ---- (b) range pruner ----

TEST(RuleLearnerTest, RangePrunerCutsLabelsOffTheValue) {
  const Site site = MakeSite(&PricePage, 15, 3);
  // Two bylines of different lengths: skip_start and skip_end are constant,
  // the length is not.
  std::vector<size_t> annotated = {0};
  const auto words = [&](size_t p) { return std::count(site.truth[p].at("byline")[0].begin(),
                                                      site.truth[p].at("byline")[0].end(), ' '); };
  for (size_t p = 1; p < site.pages.size() && annotated.size() < 2; ++p) {
    if (words(p) != words(0)) annotated.push_back(p);
  }
  ASSERT_EQ(annotated.size(), 2u);
  std::vector<AttributeAnnotation> anns = Annotate(site, "price", annotated);
  for (const AttributeAnnotation& a : Annotate(site, "byline", annotated)) anns.push_back(a);
  const RuleLearnResult r = Learn(site, anns);
  for (const char* attribute : {"price", "byline"}) {
    SCOPED_TRACE(attribute);
    EXPECT_EQ(Diagnostic(r, attribute).code, DiagnosticCode::kLearnt) << Describe(r, attribute);
    EXPECT_EQ(ExpectHeldOutValues(site, r, attribute, annotated), 13u);
  }
  const v1::AttributeRule* price = RuleOf(r.rule, "price");
  ASSERT_NE(price, nullptr);
  ASSERT_TRUE(price->has_range()) << price->ShortDebugString();
  EXPECT_EQ(price->range().skip_start(), 2);  // "Our Price:"
  EXPECT_EQ(price->range().skip_end(), 0);
  const v1::AttributeRule* byline = RuleOf(r.rule, "byline");
  ASSERT_NE(byline, nullptr);
  ASSERT_TRUE(byline->has_range()) << byline->ShortDebugString();
  EXPECT_EQ(byline->range().skip_start(), 1);  // "By:"
  EXPECT_EQ(byline->range().skip_end(), 0);
  EXPECT_EQ(byline->range().length(), 0);
}

// ---- (c) positional predicate ----

TEST(RuleLearnerTest, OnlyAPositionalPredicateIsPrecise) {
  const Site site = MakeSite(&FactsPage, 16, 21);
  // Four pages: the neighbours' texts are then too many for a disjunction.
  const std::vector<size_t> annotated = {0, 1, 2, 3};
  const RuleLearnResult r = Learn(site, Annotate(site, "format", annotated));
  EXPECT_EQ(Diagnostic(r, "format").code, DiagnosticCode::kLearnt) << Describe(r, "format");
  const v1::AttributeRule* rule = RuleOf(r.rule, "format");
  ASSERT_NE(rule, nullptr);
  EXPECT_NE(rule->position().kind(), v1::Position::NONE) << rule->ShortDebugString();
  EXPECT_GT(rule->position().n(), 0) << rule->ShortDebugString();
  EXPECT_EQ(rule->method(), v1::AttributeRule::XPATH);
  EXPECT_EQ(rule->precision(), 1.0);
  EXPECT_EQ(rule->support(), 1.0);
  EXPECT_EQ(ExpectHeldOutValues(site, r, "format", annotated), 12u);
}

// ---- (d) classifier ----

TEST(RuleLearnerTest, AWeakAttributeNeedsTheClassifier) {
  const Site site = MakeSite(&GridPage, 16, 8);
  const std::vector<size_t> annotated = {0, 1, 2, 3};
  const RuleLearnResult r = Learn(site, Annotate(site, "binding", annotated));
  const AttributeDiagnostic& d = Diagnostic(r, "binding");
  EXPECT_EQ(d.code, DiagnosticCode::kLearntClassifier) << Describe(r, "binding");
  EXPECT_TRUE(d.learnt);
  const v1::AttributeRule* rule = RuleOf(r.rule, "binding");
  ASSERT_NE(rule, nullptr);
  EXPECT_EQ(rule->method(), v1::AttributeRule::CLASSIFIER);
  EXPECT_GT(rule->classifier().features_size(), 0);
  EXPECT_EQ(rule->position().kind(), v1::Position::NONE);
  EXPECT_EQ(ExpectHeldOutValues(site, r, "binding", annotated), 12u);
}

// ---- (e) multi-valued ----

TEST(RuleLearnerTest, MultiValuedTakesEveryAuthorAndNoneFromTheRelatedBlock) {
  const Site site = MakeSite(&AuthorsPage, 20, 4);
  // Pages with at least two authors show what makes a list.
  std::vector<size_t> annotated;
  for (size_t p = 0; p < site.pages.size() && annotated.size() < 2; ++p) {
    if (site.truth[p].at("author").size() >= 2) annotated.push_back(p);
  }
  ASSERT_EQ(annotated.size(), 2u);
  const RuleLearnResult r = Learn(site, Annotate(site, "author", annotated));
  EXPECT_EQ(Diagnostic(r, "author").code, DiagnosticCode::kLearnt) << Describe(r, "author");
  const v1::AttributeRule* rule = RuleOf(r.rule, "author");
  ASSERT_NE(rule, nullptr);
  EXPECT_TRUE(rule->multi_valued());
  EXPECT_EQ(ExpectHeldOutValues(site, r, "author", annotated), 18u);
}

// ---- (f) absent annotations ----

TEST(RuleLearnerTest, AnAbsentAnnotationRulesOutASelectingRule) {
  const Site site = MakeSite(&EditionPage, 20, 9);
  std::vector<size_t> annotated = site.WithValue("edition", 2);
  size_t without = 0;
  while (without < site.pages.size() && !site.truth[without].at("edition").empty()) ++without;
  ASSERT_LT(without, site.pages.size());
  // Without the absent page, the most supported precise XPath is the value
  // span's, which selects the format where there is no edition.
  const RuleLearnResult loose = Learn(site, Annotate(site, "edition", annotated));
  ASSERT_TRUE(Diagnostic(loose, "edition").learnt) << Describe(loose, "edition");
  EXPECT_FALSE(Extract(loose.rule, "edition", site.pages[without]).empty()) << Describe(loose, "edition");

  annotated.push_back(without);
  const RuleLearnResult r = Learn(site, Annotate(site, "edition", annotated));
  EXPECT_EQ(Diagnostic(r, "edition").code, DiagnosticCode::kLearnt) << Describe(r, "edition");
  ASSERT_NE(RuleOf(r.rule, "edition"), nullptr);
  EXPECT_EQ(RuleOf(r.rule, "edition")->precision(), 1.0);
  EXPECT_TRUE(Extract(r.rule, "edition", site.pages[without]).empty());
  EXPECT_EQ(ExpectHeldOutValues(site, r, "edition", annotated), 17u);
}

// ---- (g) diagnostics ----

struct DiagnosticCase {
  const char* name;
  std::vector<AttributeAnnotation> annotations;
  const char* attribute;
  DiagnosticCode code;
  bool learnt;
  std::vector<std::string> message_has;
};

TEST(RuleLearnerTest, EachDiagnosticNamesItsCause) {
  const Site site = MakeSite(&DetailsPage, 12, 11);
  const std::vector<size_t> pub = site.WithValue("publisher", 3);
  ASSERT_EQ(pub.size(), 3u);
  const std::string url0 = site.pages[pub[0]].url();
  const std::string title0 = site.truth[pub[0]].at("title")[0], title1 = site.truth[pub[1]].at("title")[0];
  const std::string first_word = title0.substr(0, title0.find(' '));
  const std::string last_word = title1.substr(title1.rfind(' ') + 1);
  const std::string publisher0 = site.truth[pub[0]].at("publisher")[0];
  const std::vector<DiagnosticCase> cases = {
      {"value not found", {{pub[0], "publisher", {"Nonexistent Press"}, ""}}, "publisher",
       DiagnosticCode::kValueNotFound, false, {url0, "Nonexistent Press"}},
      {"XPath selects nothing", {{pub[0], "publisher", {}, "//p[@class='nothing']/text()"}}, "publisher",
       DiagnosticCode::kXPathSelectsNothing, false, {url0}},
      {"not annotated", {{pub[0], "publisher", {publisher0}, ""}}, "edition", DiagnosticCode::kNotAnnotated, false,
       {"no annotation"}},
      {"only absent", {{pub[0], "edition", {}, ""}, {pub[1], "edition", {}, ""}}, "edition",
       DiagnosticCode::kNotAnnotated, false, {"absent"}},
      // The publisher's text holds no price.
      {"value mismatch", {{pub[0], "price", {publisher0}, ""}}, "price", DiagnosticCode::kValueMismatch, false,
       {url0, "<none>"}},
      // The first word of one title, the last of another: no range form fits.
      {"range inconsistent", {{pub[0], "byline", {first_word}, ""}, {pub[1], "byline", {last_word}, ""}}, "byline",
       DiagnosticCode::kRangeInconsistent, false, {}},
      // Part of a word: no run of whole words, but a character range.
      {"range in characters", {{pub[0], "byline", {title0.substr(1)}, ""}}, "byline", DiagnosticCode::kLearnt, true,
       {}},
      // Parts of words cut differently: neither words nor characters fit.
      {"range not whole words", {{pub[0], "byline", {title0.substr(1)}, ""},
                                 {pub[1], "byline", {title1.substr(0, title1.size() - 2)}, ""}},
       "byline", DiagnosticCode::kRangeInconsistent, false, {"not a run of whole words", "characters: 1+"}},
      {"text and element", {{pub[0], "title", {}, "//h1"}, {pub[1], "title", {}, "//h1/text()"}}, "title",
       DiagnosticCode::kNoRecallOneXPath, false, {"mix"}},
  };
  for (const DiagnosticCase& c : cases) {
    SCOPED_TRACE(c.name);
    const RuleLearnResult r = Learn(site, c.annotations);
    const AttributeDiagnostic& d = Diagnostic(r, c.attribute);
    EXPECT_EQ(DiagnosticCodeName(d.code), std::string(DiagnosticCodeName(c.code))) << d.message;
    EXPECT_EQ(d.learnt, c.learnt) << d.message;
    EXPECT_EQ(RuleOf(r.rule, c.attribute) != nullptr, c.learnt);
    for (const std::string& s : c.message_has) EXPECT_NE(d.message.find(s), std::string::npos) << s << " in " << d.message;
  }
}

TEST(RuleLearnerTest, AValueNotFoundOnOnePageIsReportedWhenTheOthersLearn) {
  const Site site = MakeSite(&DetailsPage, 12, 11);
  const std::vector<size_t> pub = site.WithValue("publisher", 3);
  std::vector<AttributeAnnotation> anns = Annotate(site, "publisher", {pub[1], pub[2]});
  anns.push_back({pub[0], "publisher", {"Nonexistent Press"}, ""});
  const RuleLearnResult r = Learn(site, anns);
  const AttributeDiagnostic& d = Diagnostic(r, "publisher");
  // Issue 16: a value that is not on its page is never reported "learnt",
  // even when the other pages teach a rule (which is kept: learnt is true).
  EXPECT_EQ(d.code, DiagnosticCode::kValueNotFound) << d.message;
  EXPECT_TRUE(d.learnt);
  EXPECT_NE(RuleOf(r.rule, "publisher"), nullptr);
  EXPECT_EQ(d.pages, std::vector<std::string>{site.pages[pub[0]].url() + ": Nonexistent Press"});
  EXPECT_NE(d.message.find("\"Nonexistent Press\" is not on page " + site.pages[pub[0]].url()), std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("learnt from the other annotated pages: XPath "), std::string::npos) << d.message;
}

// A typo in a value: reported not found, with the page's text it most
// likely meant, where it is, and how many edits away.
TEST(RuleLearnerTest, ATypoIsReportedWithTheClosestTextOnThePage) {
  const Site site = MakeSite(&DetailsPage, 12, 11);
  const std::vector<size_t> pub = site.WithValue("publisher", 3);
  const std::string real = site.truth[pub[0]].at("publisher")[0];
  ASSERT_GE(real.size(), 3u);  // a third of it: at least one edit allowed
  std::string typo = real;
  typo[real.size() / 2] = typo[real.size() / 2] == 'q' ? 'z' : 'q';  // one substitution
  std::vector<AttributeAnnotation> anns = Annotate(site, "publisher", {pub[1], pub[2]});
  anns.push_back({pub[0], "publisher", {typo}, ""});
  for (const bool alone : {false, true}) {
    SCOPED_TRACE(alone ? "the typo alone" : "with two good pages");
    const RuleLearnResult r = Learn(site, alone ? std::vector<AttributeAnnotation>{anns.back()} : anns);
    const AttributeDiagnostic& d = Diagnostic(r, "publisher");
    EXPECT_EQ(d.code, DiagnosticCode::kValueNotFound) << d.message;
    EXPECT_EQ(d.learnt, !alone) << d.message;
    const std::string closest = "closest: \"" + real + "\" at /html/";
    EXPECT_NE(d.message.find("\"" + typo + "\" is not on page " + site.pages[pub[0]].url()), std::string::npos)
        << d.message;
    EXPECT_NE(d.message.find(closest), std::string::npos) << d.message;
    EXPECT_NE(d.message.find("(1 edit)"), std::string::npos) << d.message;
  }
}

// Two identical pages annotated with different items: no XPath, position or
// classifier can tell the annotated item from the other.
TEST(RuleLearnerTest, ContradictoryAnnotationsLeaveTheClassifierBelowThreshold) {
  html::Parser parser;
  const std::string html =
      "<html><body><h2>Formats</h2><ul class=fmt><li>Hardcover</li><li>Paperback</li></ul><p>End</p></body></html>";
  std::vector<html::Page> pages;
  for (int i = 0; i < 2; ++i) pages.push_back(parser.Parse(html, absl::StrCat("http://books.test/", i)).value());
  const RuleLearnInput input{{&pages[0], &pages[1]},
                             {{0, "format", {"Hardcover"}, ""}, {1, "format", {"Paperback"}, ""}}};
  absl::StatusOr<RuleLearnResult> r = LearnRule(TestSchema(), input);
  ASSERT_TRUE(r.ok()) << r.status();
  const AttributeDiagnostic& d = Diagnostic(*r, "format");
  EXPECT_EQ(DiagnosticCodeName(d.code), std::string("classifier_below_threshold")) << d.message;
  EXPECT_FALSE(d.learnt);
  EXPECT_EQ(r->rule.attributes_size(), 0);
}

// One node on the annotated pages, several elsewhere, and no positions
// tried: the rule is kept but called ambiguous.
TEST(RuleLearnerTest, SeveralNodesOnUnannotatedPagesIsAmbiguous) {
  const Site site = MakeSite(&ListPage, 10, 2);
  RuleLearnOptions options;
  options.max_position = 0;
  const RuleLearnResult r = Learn(site, Annotate(site, "format", {0, 1, 2, 3}), options);
  const AttributeDiagnostic& d = Diagnostic(r, "format");
  EXPECT_EQ(DiagnosticCodeName(d.code), std::string("ambiguous")) << Describe(r, "format");
  EXPECT_TRUE(d.learnt);
  EXPECT_NE(d.message.find("annotate"), std::string::npos) << d.message;
  // With positions, the first item is precise.
  const RuleLearnResult positional = Learn(site, Annotate(site, "format", {0, 1, 2, 3}));
  EXPECT_EQ(Diagnostic(positional, "format").code, DiagnosticCode::kLearnt) << Describe(positional, "format");
  EXPECT_EQ(ExpectHeldOutValues(site, positional, "format", {0, 1, 2, 3}), 6u);
}

// ---- (h) invalid annotations ----

struct InvalidCase {
  const char* name;
  std::vector<AttributeAnnotation> annotations;
  std::vector<std::string> message_has;
};

TEST(RuleLearnerTest, AttributesLearntOnSeveralThreadsGiveTheOneThreadResult) {
  // Every attribute annotated (a diagnostic per cause too): the rule, its
  // alternatives and the diagnostics are the same, in schema order, for
  // any thread count.
  const Site site = MakeSite(&DetailsPage, 12, 11);
  std::vector<AttributeAnnotation> annotations;
  for (size_t i = 0; i < TestSchema().size(); ++i) {
    const std::string& name = TestSchema().attribute(i).name();
    if (!site.truth[0].count(name)) continue;  // not on this kind of page
    for (const AttributeAnnotation& a : Annotate(site, name, site.WithValue(name, 2))) annotations.push_back(a);
  }
  annotations.push_back({0, "publisher", {"Nonexistent Press"}, ""});
  RuleLearnOptions one, many;
  one.threads = 1;
  many.threads = 4;
  const RuleLearnResult a = Learn(site, annotations, one), b = Learn(site, annotations, many);
  EXPECT_EQ(a.rule.SerializeAsString(), b.rule.SerializeAsString());
  ASSERT_EQ(a.alternatives.size(), b.alternatives.size());
  for (size_t i = 0; i < a.alternatives.size(); ++i) {
    EXPECT_EQ(a.alternatives[i].SerializeAsString(), b.alternatives[i].SerializeAsString()) << i;
  }
  ASSERT_EQ(a.diagnostics.size(), b.diagnostics.size());
  for (size_t i = 0; i < a.diagnostics.size(); ++i) {
    EXPECT_EQ(a.diagnostics[i].attribute, b.diagnostics[i].attribute);
    EXPECT_EQ(a.diagnostics[i].code, b.diagnostics[i].code) << a.diagnostics[i].attribute;
    EXPECT_EQ(a.diagnostics[i].message, b.diagnostics[i].message);
  }
  EXPECT_GT(a.rule.attributes_size(), 1);
}

TEST(RuleLearnerTest, RejectsInvalidAnnotations) {
  const Site site = MakeSite(&DetailsPage, 3, 1);
  const std::vector<InvalidCase> cases = {
      {"page out of range", {{3, "publisher", {"Knopf"}, ""}}, {"annotation 0", "page 3", "3 sample pages"}},
      {"unknown attribute",
       {{0, "title", {"x"}, ""}, {0, "colour", {"red"}, ""}},
       {"annotation 1", "\"colour\"", "title, author, isbn_13, publisher, price, byline, format, binding, edition"}},
      // Values with an XPath are an editor's click (clicked_value_test.cc);
      // the XPath is checked all the same.
      {"values and a bad XPath", {{0, "publisher", {"Knopf"}, "//b["}}, {"annotation 0", "//b["}},
      {"several values, single-valued", {{1, "publisher", {"Knopf", "Orbit"}, ""}}, {"annotation 0", "single-valued"}},
      {"annotated twice",
       {{0, "publisher", {"Knopf"}, ""}, {1, "publisher", {}, ""}, {0, "publisher", {}, ""}},
       {"annotation 2", "twice", site.pages[0].url()}},
      {"XPath does not compile", {{0, "publisher", {}, "//p[@class="}}, {"annotation 0", "//p[@class="}},
      {"not a node-set", {{2, "publisher", {}, "1+1"}}, {"annotation 0"}},
      {"blank value", {{0, "publisher", {" \n"}, ""}}, {"annotation 0", "empty"}},
      {"too many values",
       {{0, "title", {"x"}, ""}, {0, "author", std::vector<std::string>(kMaxValuesPerAnnotation + 1, "A"), ""}},
       {"annotation 1", "1001 values", "limit of 1000 values per annotation"}},
      {"value too long",
       {{1, "publisher", {std::string(kMaxAnnotatedValueBytes + 1, 'k')}, ""}},
       {"annotation 0", "65537 bytes", "annotated value length limit of 65536 bytes"}},
      {"too many annotations",
       std::vector<AttributeAnnotation>(kMaxAnnotations + 1, {0, "publisher", {"Knopf"}, ""}),
       {"10001 annotations", "limit of 10000 annotations per learn call"}},
  };
  for (const InvalidCase& c : cases) {
    SCOPED_TRACE(c.name);
    absl::StatusOr<RuleLearnResult> r = LearnRule(TestSchema(), {site.Pointers(), c.annotations});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), absl::StatusCode::kInvalidArgument) << r.status();
    for (const std::string& s : c.message_has) {
      EXPECT_NE(r.status().message().find(s), std::string::npos) << s << " in " << r.status();
    }
  }
  // A null page is not one of the sample pages either.
  absl::StatusOr<RuleLearnResult> null_page =
      LearnRule(TestSchema(), {{&site.pages[0], nullptr}, {{1, "publisher", {"Knopf"}, ""}}});
  EXPECT_EQ(null_page.status().code(), absl::StatusCode::kInvalidArgument) << null_page.status();
  // Several values are fine on a multi-valued attribute.
  EXPECT_TRUE(LearnRule(TestSchema(), {site.Pointers(), {{0, "author", {"A", "B"}, ""}}}).ok());
}

// ---- (i) bounded learning ----

TEST(RuleLearnerTest, TheCandidateCapBoundsLearningAndIsReported) {
  const Site site = MakeSite(&DetailsPage, 25, 11);
  const std::vector<AttributeAnnotation> anns = Annotate(site, "publisher", site.WithValue("publisher", 3));
  const RuleLearnResult full = Learn(site, anns);
  const AttributeDiagnostic& unbounded = Diagnostic(full, "publisher");
  EXPECT_FALSE(unbounded.cap_hit) << unbounded.sets_evaluated;
  RuleLearnOptions options;
  options.xpath.max_candidates_per_level = 5;
  const RuleLearnResult capped = Learn(site, anns, options);
  const AttributeDiagnostic& d = Diagnostic(capped, "publisher");
  EXPECT_TRUE(d.cap_hit) << Describe(capped, "publisher");
  EXPECT_GT(d.sets_evaluated, 0u);
  EXPECT_LT(d.sets_evaluated, unbounded.sets_evaluated);
  // Every level past the first (all single features) holds 5 sets at most.
  RuleLearnOptions one_level;
  one_level.xpath.max_features = 1;
  const size_t singles = Diagnostic(Learn(site, anns, one_level), "publisher").sets_evaluated;
  EXPECT_LE(d.sets_evaluated, singles + 5 * (options.xpath.max_features - 1));
  // Regression: the level after max_features is never evaluated, so building
  // it cuts nothing (it was built, and reported as cut at the cap).
  one_level.xpath.max_candidates_per_level = 1;
  EXPECT_FALSE(Diagnostic(Learn(site, anns, one_level), "publisher").cap_hit);
  std::printf("sets evaluated: %zu unbounded, %zu capped at 5, %zu single features\n", unbounded.sets_evaluated,
              d.sets_evaluated, singles);
}

}  // namespace
}  // namespace vertex::learn
