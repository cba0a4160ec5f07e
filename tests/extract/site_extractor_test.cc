// Tests of SiteExtractor (Vertex IV-A) with rules written by hand on
// synthetic pages: rule matching by URL (without parsing), then by shingle
// signature (extra signatures included), then importance; the nearest
// fallback for pages no signature covers (order, checks, rejection, off);
// record statuses; per-attribute value selection (first node and 1/n score,
// lists, TextRange, typed regex, classifier); every documented error;
// RecordToJson and RecordToProto; and concurrent use.
#include "common/extract/site_extractor.h"

#include <bit>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/extract/record_proto.h"
#include "common/html/page.h"
#include "common/html/xpath.h"
#include "common/learn/classifier_trainer.h"
#include "common/rule/classifier.h"
#include "common/schema/schema.h"
#include "common/shingle/shingle.h"
#include "common/util/random.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/testing/rule_builders.h"

namespace vertex::extract {
namespace {

constexpr char kSchemaJson[] = R"({"vertical": "book", "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "mandatory": true},
  {"name": "author", "multi_valued": true},
  {"name": "isbn", "type": "isbn"},
  {"name": "byline"}]})";

const schema::CompiledSchema& Schema() {
  static const schema::CompiledSchema* schema =
      new schema::CompiledSchema(schema::CompiledSchema::FromJson(kSchemaJson, "test schema").value());
  return *schema;
}

constexpr char kItemUrl[] = R"(http://books\.test/item/[0-9]+)";

// A book page (template "item"): title, price text, authors, ISBN, byline.
std::string ItemPage(const std::string& title, const std::string& price, const std::vector<std::string>& authors) {
  std::string list;
  for (const std::string& a : authors) list += "<li>" + a + "</li>";
  return "<html><body><div id=main><h1>" + title + "</h1><span class=price>" + price +
         "</span><ul class=authors>" + list + "</ul><p class=isbn>ISBN: 978-0-307-27240-9 (hardcover)</p>" +
         "<div class=by>By: Ann Lee</div><script>var x = 'Our Price: $1.00';</script><p> </p></div></body></html>";
}

// A page of another template: a table of links, no heading.
constexpr char kListPage[] =
    "<html><body><table><tr><td><a href=/1>One</a></td></tr><tr><td><a href=/2>Two</a></td></tr>"
    "<tr><td><a href=/3>Three</a></td></tr></table><form><input name=q><select><option>a</option></select></form>"
    "</body></html>";

using test_support::XPathAttributeRule;

v1::Rule MakeRule(const std::string& cluster, const std::string& url_regex, const std::string& signature,
                  int64_t importance, const std::vector<v1::AttributeRule>& parts) {
  v1::Rule r;
  r.set_site("books");
  r.set_cluster_id(cluster);
  r.set_version(7);
  r.set_url_regex(url_regex);
  r.set_signature(signature);
  r.set_importance(importance);
  for (const v1::AttributeRule& p : parts) *r.add_attributes() = p;
  return r;
}

// The item template's rule: title, price (typed), authors, ISBN (typed),
// byline (range).
v1::Rule ItemRule(const std::string& signature = "", int64_t importance = 10) {
  v1::AttributeRule byline = XPathAttributeRule("byline", "//div[@class='by']/text()");
  byline.mutable_range()->set_skip_start(1);
  return MakeRule("c0", kItemUrl, signature, importance,
                  {XPathAttributeRule("title", "//h1/text()"), XPathAttributeRule("price", "//span[@class='price']/text()"),
                   XPathAttributeRule("author", "//ul[@class='authors']/li/text()", true), XPathAttributeRule("isbn", "//p[@class='isbn']"),
                   byline});
}

SiteExtractor MustCreate(const std::vector<v1::Rule>& rules, SiteExtractorOptions options = {}) {
  absl::StatusOr<SiteExtractor> e = SiteExtractor::Create(Schema(), rules, options);
  EXPECT_TRUE(e.ok()) << e.status();
  return *std::move(e);
}

html::ParseOptions WithBuilder(html::PageBuilder builder) {
  html::ParseOptions o;
  o.builder = builder;
  return o;
}

shingle::ShingleVector VectorOf(const std::string& html, html::PageBuilder builder = html::ParseOptions{}.builder) {
  html::Parser parser(WithBuilder(builder));
  shingle::Shingler shingler;
  EXPECT_TRUE(parser.Parse(html, "http://books.test/x", "", &shingler).ok());
  return shingler.Finish();
}

// The exact (8/8) signature of `html`'s vector.
std::string SignatureOf(const std::string& html, html::PageBuilder builder = html::ParseOptions{}.builder) {
  return shingle::MaskedVector(VectorOf(html, builder), 0).ToText();
}

Record MustExtract(const SiteExtractor& e, const std::string& html, const std::string& url,
                   html::PageBuilder builder = html::ParseOptions{}.builder) {
  html::Parser parser(WithBuilder(builder));
  absl::StatusOr<Record> r = e.Extract(html, url, parser);
  EXPECT_TRUE(r.ok()) << r.status();
  return r.ok() ? *std::move(r) : Record{};
}

const AttributeResult& Attribute(const Record& r, const std::string& name) {
  static const AttributeResult kNone{.attribute = "(missing)"};
  for (const AttributeResult& a : r.attributes) {
    if (a.attribute == name) return a;
  }
  return kNone;
}

using Values = std::vector<std::string>;

// ---- Rule matching and statuses ----

TEST(SiteExtractorTest, AUrlMatchingNoRuleIsAnsweredWithoutParsing) {
  const SiteExtractor e = MustCreate({ItemRule()});
  html::Parser tiny(html::ParseOptions{.max_page_bytes = 10});
  const std::string page = ItemPage("T", "$5.00", {"A"});
  // Neither an empty nor an oversized body is looked at.
  for (const std::string& bytes : {page, std::string(), page + page}) {
    absl::StatusOr<Record> r = e.Extract(bytes, "http://books.test/about", tiny);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->status, RecordStatus::kNoUrlMatch);
    EXPECT_FALSE(r->parsed);
    EXPECT_EQ(r->url, "http://books.test/about");
    EXPECT_TRUE(r->attributes.empty());
    EXPECT_TRUE(r->cluster_id.empty());
    EXPECT_EQ(r->rule_version, 0);
  }
  EXPECT_TRUE(e.MatchUrl("http://books.test/about").empty());
  EXPECT_EQ(e.MatchUrl("http://books.test/item/12"), std::vector<size_t>{0});
  // An already parsed page was parsed.
  html::Parser parser;
  const html::Page parsed = parser.Parse(page, "http://books.test/about").value();
  absl::StatusOr<Record> r = e.ExtractParsed(parsed, VectorOf(page));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->status, RecordStatus::kNoUrlMatch);
  EXPECT_TRUE(r->parsed);
}

TEST(SiteExtractorTest, ASignatureNotCoveringThePageIsNoShingleMatch) {
  const std::string item = ItemPage("Title", "$5.00", {"A", "B"});
  const shingle::ShingleVector list_vector = VectorOf(kListPage);
  const std::string signature = SignatureOf(item);
  ASSERT_FALSE(shingle::MaskedVector::Parse(signature)->Covers(list_vector)) << signature;
  const SiteExtractor e = MustCreate({ItemRule(signature)});
  const Record r = MustExtract(e, kListPage, "http://books.test/item/3");
  EXPECT_EQ(r.status, RecordStatus::kNoShingleMatch);
  EXPECT_TRUE(r.parsed);
  EXPECT_TRUE(r.attributes.empty());
  EXPECT_TRUE(r.cluster_id.empty());
  EXPECT_EQ(r.rule_version, 0);
  // The item page itself, and another with other texts, are covered.
  for (const std::string& html : {item, ItemPage("Other", "$7.50", {"C", "D"})}) {
    const Record ok = MustExtract(e, html, "http://books.test/item/4");
    EXPECT_EQ(ok.status, RecordStatus::kOk) << RecordStatusName(ok.status);
  }
  // A signature with wildcards covers whatever its kept bytes match.
  const shingle::MaskedVector all_but_one(list_vector, 0xfe);
  EXPECT_TRUE(all_but_one.Covers(list_vector));
  const SiteExtractor loose = MustCreate({ItemRule(all_but_one.ToText())});
  EXPECT_EQ(MustExtract(loose, kListPage, "http://books.test/item/3").status, RecordStatus::kPartial);
}

TEST(SiteExtractorTest, OkRecordHasEveryAttributeInSchemaOrder) {
  const SiteExtractor e = MustCreate({ItemRule(SignatureOf(ItemPage("x", "$1.00", {"a"})))});
  const Record r = MustExtract(e, ItemPage("The Road", "Our Price: $25.99", {"Cormac McCarthy"}),
                               "http://books.test/item/1");
  EXPECT_EQ(r.status, RecordStatus::kOk);
  EXPECT_TRUE(r.parsed);
  EXPECT_EQ(r.cluster_id, "c0");
  EXPECT_EQ(r.rule_version, 7);
  EXPECT_TRUE(r.missing_mandatory.empty());
  ASSERT_EQ(r.attributes.size(), Schema().size());
  for (size_t i = 0; i < Schema().size(); ++i) EXPECT_EQ(r.attributes[i].attribute, Schema().attribute(i).name());
  EXPECT_EQ(Attribute(r, "title").values, Values{"The Road"});
  EXPECT_EQ(Attribute(r, "price").values, Values{"$25.99"});
  EXPECT_EQ(Attribute(r, "author").values, Values{"Cormac McCarthy"});
  EXPECT_EQ(Attribute(r, "title").method, v1::AttributeRule::XPATH);
  EXPECT_EQ(Attribute(r, "title").score, 1.0);
}

TEST(SiteExtractorTest, AMissingMandatoryAttributeMakesThePartialRecordNameIt) {
  const SiteExtractor e = MustCreate({ItemRule()});
  // No price in the price's node: the typed regex finds none.
  const Record r = MustExtract(e, ItemPage("The Road", "Call for price", {}), "http://books.test/item/1");
  EXPECT_EQ(r.status, RecordStatus::kPartial);
  EXPECT_EQ(r.missing_mandatory, Values{"price"});
  EXPECT_TRUE(Attribute(r, "price").values.empty());
  EXPECT_EQ(Attribute(r, "price").score, 0.0);
  EXPECT_EQ(Attribute(r, "price").candidates, 1u);
  // An optional attribute without a value does not count.
  EXPECT_TRUE(Attribute(r, "author").values.empty());
  // Nor does an attribute the rule has no part for, unless mandatory.
  const SiteExtractor title_only = MustCreate({MakeRule("c1", "", "", 1, {XPathAttributeRule("title", "//h1/text()")})});
  const Record t = MustExtract(title_only, ItemPage("T", "$1.00", {}), "http://books.test/item/1");
  EXPECT_EQ(t.missing_mandatory, Values{"price"});
  EXPECT_EQ(Attribute(t, "byline").method, v1::AttributeRule::METHOD_UNSPECIFIED);
}

TEST(SiteExtractorTest, TheMostImportantCoveringRuleWins) {
  const std::string item = ItemPage("T", "$1.00", {"A"});
  const std::string miss = SignatureOf(kListPage);  // does not cover the item page
  const auto rule = [](const std::string& cluster, int64_t importance, const std::string& signature) {
    return MakeRule(cluster, ".*", signature, importance, {XPathAttributeRule("title", "//h1/text()")});
  };
  struct Case {
    const char* name;
    std::vector<v1::Rule> rules;
    const char* winner;
  };
  const std::vector<Case> cases = {
      {"highest importance", {rule("a", 5, ""), rule("b", 10, ""), rule("c", 1, "")}, "b"},
      {"tie: smaller cluster id", {rule("z", 10, ""), rule("m", 10, ""), rule("y", 3, "")}, "m"},
      {"the most important does not cover", {rule("b", 10, miss), rule("a", 5, ""), rule("c", 1, "")}, "a"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Record r = MustExtract(MustCreate(c.rules), item, "http://books.test/item/1");
    EXPECT_EQ(r.status, RecordStatus::kPartial);  // the rules have no price
    EXPECT_EQ(r.cluster_id, c.winner);
  }
  // MatchUrl lists the URL-matching rules by decreasing importance.
  const SiteExtractor e = MustCreate({MakeRule("low", ".*", "", 1, {}), MakeRule("none", "ftp:.*", "", 50, {}),
                                      MakeRule("high", "http://.*", "", 20, {})});
  std::vector<std::string> order;
  for (size_t i : e.MatchUrl("http://books.test/item/1")) order.push_back(e.rules()[i].proto().cluster_id());
  EXPECT_EQ(order, (Values{"high", "low"}));
}

google::protobuf::Struct ParseJson(const std::string& json) {
  google::protobuf::Struct s;
  const auto status = google::protobuf::util::JsonStringToMessage(json, &s);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  return s;
}

std::vector<std::string> StringList(const google::protobuf::Value& v) {
  std::vector<std::string> out;
  for (const google::protobuf::Value& e : v.list_value().values()) out.push_back(e.string_value());
  return out;
}

// ---- Nearest match: pages no signature covers ----

v1::Rule WithExtraSignatures(v1::Rule rule, const std::vector<std::string>& extra) {
  for (const std::string& s : extra) rule.add_extra_signatures(s);
  return rule;
}

v1::Rule WithAlwaysExtracted(v1::Rule rule, const std::vector<std::string>& names) {
  for (const std::string& n : names) rule.add_always_extracted(n);
  return rule;
}

v1::Rule WithCluster(v1::Rule rule, const std::string& cluster, int64_t importance) {
  rule.set_cluster_id(cluster);
  rule.set_importance(importance);
  return rule;
}

// A 6/8 signature of `annotated`'s vector that does not cover `page`'s: its
// wildcards where the two vectors agree (the last such positions), so every
// differing byte is kept. Fails the test when the vectors are equal.
shingle::MaskedVector SixOfEight(const std::string& annotated, const std::string& page,
                                 html::PageBuilder builder = html::ParseOptions{}.builder) {
  const shingle::ShingleVector a = VectorOf(annotated, builder), p = VectorOf(page, builder);
  uint8_t wildcards = 0;
  for (int i = shingle::kVectorBytes - 1; i >= 0 && std::popcount(wildcards) < 2; --i) {
    if (a[i] == p[i]) wildcards |= static_cast<uint8_t>(1 << i);
  }
  for (int i = shingle::kVectorBytes - 1; i >= 0 && std::popcount(wildcards) < 2; --i) {
    wildcards |= static_cast<uint8_t>(1 << i);
  }
  const shingle::MaskedVector signature(a, wildcards);
  EXPECT_EQ(signature.kept(), 6);
  EXPECT_TRUE(signature.Covers(a));
  EXPECT_FALSE(signature.Covers(p)) << shingle::ToText(a) << " vs " << shingle::ToText(p);
  return signature;
}

// The annotated page of the item template, and one with one more <li>.
const std::string& Annotated() {
  static const std::string* page = new std::string(ItemPage("Annotated", "$5.00", {"Ann", "Bob"}));
  return *page;
}
std::string OneMoreLi(const std::string& title, const std::string& price) {
  return ItemPage(title, price, {"Ann", "Bob", "Cy"});
}

TEST(SiteExtractorTest, APageWithOneMoreListItemIsMatchedByTheNearestRule) {
  const std::string page = OneMoreLi("The Road", "Our Price: $25.99");
  const shingle::MaskedVector signature = SixOfEight(Annotated(), page);
  const SiteExtractor e = MustCreate({ItemRule(signature.ToText())});
  const Record r = MustExtract(e, page, "http://books.test/item/1");
  EXPECT_EQ(r.status, RecordStatus::kOk) << RecordToJson(r, "", true);
  EXPECT_EQ(r.matched_by, MatchedBy::kNearest);
  EXPECT_EQ(r.agreement, signature.Agreement(VectorOf(page)));
  EXPECT_LT(r.agreement, 6);
  EXPECT_EQ(r.cluster_id, "c0");
  EXPECT_EQ(r.rule_version, 7);
  EXPECT_TRUE(r.nearest_cluster.empty());
  EXPECT_TRUE(r.nearest_rejected.empty());
  EXPECT_EQ(Attribute(r, "title").values, Values{"The Road"});
  EXPECT_EQ(Attribute(r, "price").values, Values{"$25.99"});
  EXPECT_EQ(Attribute(r, "author").values, (Values{"Ann", "Bob", "Cy"}));
  EXPECT_EQ(Attribute(r, "isbn").values, Values{"978-0-307-27240-9"});
  EXPECT_EQ(Attribute(r, "byline").values, Values{"Ann Lee"});
  const google::protobuf::Struct json = ParseJson(RecordToJson(r, "", false));
  EXPECT_EQ(json.fields().at("matched_by").string_value(), "nearest");
  EXPECT_EQ(json.fields().at("agreement").number_value(), r.agreement);
  EXPECT_EQ(json.fields().count("nearest_cluster"), 0u);
}

TEST(SiteExtractorTest, ACoveredPagesRecordIsTheSameWithOrWithoutTheFallback) {
  const std::string page = OneMoreLi("T", "$1.00");
  const shingle::MaskedVector signature = SixOfEight(Annotated(), page);
  const std::vector<v1::Rule> rules = {ItemRule(signature.ToText())};
  const Record on = MustExtract(MustCreate(rules), ItemPage("Covered", "$3.00", {"Di", "Ed"}), "http://books.test/item/2");
  const Record off = MustExtract(MustCreate(rules, {.nearest = false}), ItemPage("Covered", "$3.00", {"Di", "Ed"}),
                                 "http://books.test/item/2");
  EXPECT_EQ(on.status, RecordStatus::kOk);
  EXPECT_EQ(on.matched_by, MatchedBy::kSignature);
  EXPECT_EQ(on.agreement, 6);  // the kept bytes of the 6/8 signature
  EXPECT_EQ(Attribute(on, "title").values, Values{"Covered"});
  EXPECT_EQ(RecordToJson(on, "", true), RecordToJson(off, "", true));
  // An 8/8 signature: 8; a rule without signature: 0.
  EXPECT_EQ(MustExtract(MustCreate({ItemRule(SignatureOf(page))}), page, "http://books.test/item/2").agreement, 8);
  const Record bare = MustExtract(MustCreate({ItemRule()}), page, "http://books.test/item/2");
  EXPECT_EQ(bare.matched_by, MatchedBy::kSignature);
  EXPECT_EQ(bare.agreement, 0);
}

TEST(SiteExtractorTest, TheNearestRulesRecordMustPassItsChecks) {
  const std::string signature = SixOfEight(Annotated(), OneMoreLi("T", "$1.00")).ToText();
  // One fewer <li> than the annotated page: not covered either.
  const std::string no_author = ItemPage("No Author", "$2.00", {"Ann"});
  ASSERT_FALSE(shingle::MaskedVector::Parse(signature)->Covers(VectorOf(no_author)));
  struct Case {
    const char* name;
    v1::Rule rule;
    std::string page;
    RecordStatus status;
    const char* rejected;  // "" when the record is kept
  };
  const std::vector<Case> cases = {
      {"complete", ItemRule(signature), OneMoreLi("T", "$1.00"), RecordStatus::kOk, ""},
      {"mandatory title empty", ItemRule(signature), OneMoreLi("", "$1.00"), RecordStatus::kNoShingleMatch,
       "title missing"},
      {"mandatory price not found", ItemRule(signature), OneMoreLi("T", "Call for price"), RecordStatus::kNoShingleMatch,
       "price missing"},
      {"optional attribute missing", ItemRule(signature), ItemPage("T", "$1.00", {}), RecordStatus::kOk, ""},
      {"always_extracted attribute missing", WithAlwaysExtracted(ItemRule(signature), {"author"}),
       ItemPage("T", "$1.00", {}), RecordStatus::kNoShingleMatch, "author missing"},
      {"always_extracted attribute present", WithAlwaysExtracted(ItemRule(signature), {"author", "isbn"}), no_author,
       RecordStatus::kOk, ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    ASSERT_FALSE(shingle::MaskedVector::Parse(signature)->Covers(VectorOf(c.page)));
    const Record r = MustExtract(MustCreate({c.rule}), c.page, "http://books.test/item/1");
    EXPECT_EQ(r.status, c.status) << RecordToJson(r, "", true);
    const int agreement = shingle::MaskedVector::Parse(signature)->Agreement(VectorOf(c.page));
    EXPECT_EQ(r.agreement, agreement);
    EXPECT_EQ(r.nearest_rejected, c.rejected);
    if (c.status == RecordStatus::kOk) {
      EXPECT_EQ(r.matched_by, MatchedBy::kNearest);
      EXPECT_EQ(r.cluster_id, "c0");
      EXPECT_TRUE(r.nearest_cluster.empty());
      continue;
    }
    EXPECT_EQ(r.matched_by, MatchedBy::kNone);
    EXPECT_EQ(r.nearest_cluster, "c0");
    EXPECT_TRUE(r.cluster_id.empty());
    EXPECT_EQ(r.rule_version, 0);
    EXPECT_TRUE(r.attributes.empty());
    const google::protobuf::Struct json = ParseJson(RecordToJson(r, "", false));
    EXPECT_EQ(json.fields().at("status").string_value(), "NO_SHINGLE_MATCH");
    EXPECT_EQ(json.fields().at("matched_by").string_value(), "");
    EXPECT_EQ(json.fields().at("agreement").number_value(), agreement);
    EXPECT_EQ(json.fields().at("nearest_cluster").string_value(), "c0");
    EXPECT_EQ(json.fields().at("nearest_rejected").string_value(), c.rejected);
  }
}

TEST(SiteExtractorTest, NearestMatchFailureNamesTheFirstFailingCheck) {
  const CompiledRule rule =
      CompiledRule::Create(WithAlwaysExtracted(ItemRule(), {"byline", "nosuch"}), Schema()).value();
  const auto results = [](Values title, Values price, Values isbn, Values byline) {
    std::vector<AttributeResult> out(5);
    const char* names[] = {"title", "price", "author", "isbn", "byline"};
    for (size_t i = 0; i < out.size(); ++i) out[i].attribute = names[i];
    out[0].values = std::move(title);
    out[1].values = std::move(price);
    out[3].values = std::move(isbn);
    out[4].values = std::move(byline);
    return out;
  };
  struct Case {
    const char* name;
    std::vector<AttributeResult> results;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"complete", results({"T"}, {"$1.00"}, {"978-0-307-27240-9"}, {"Ann"}), ""},
      {"optional isbn missing", results({"T"}, {"$1.00"}, {}, {"Ann"}), ""},
      {"mandatory title missing", results({}, {"$1.00"}, {}, {"Ann"}), "title missing"},
      {"always_extracted byline missing", results({"T"}, {"$1.00"}, {}, {}), "byline missing"},
      {"typed price invalid", results({"T"}, {"n/a"}, {}, {"Ann"}), "price \"n/a\" is not a price"},
      {"typed isbn invalid", results({"T"}, {"$1.00"}, {"12"}, {"Ann"}), "isbn \"12\" is not a isbn"},
      {"the first failure is named", results({}, {"n/a"}, {}, {}), "title missing"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    EXPECT_EQ(NearestMatchFailure(rule, c.results), c.want);
  }
}

// Regression: a value regex with a capturing group yields the group (the
// code "A-12" out of "code: A-12"), which need not match the whole regex
// again; the check used to reject every such record.
TEST(SiteExtractorTest, NearestMatchFailureAcceptsTheGroupOfARegexWithAGroup) {
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(
      R"js({"vertical": "part", "attributes": [{"name": "code", "regex": "code: ([A-Z]-[0-9]+)", "mandatory": true}]})js",
      "group schema").value();
  v1::Rule r = MakeRule("c0", kItemUrl, "", 1, {XPathAttributeRule("code", "//p/text()")});
  const CompiledRule rule = CompiledRule::Create(r, schema).value();
  std::vector<AttributeResult> results(1);
  results[0].attribute = "code";
  results[0].values = {"A-12"};
  EXPECT_EQ(NearestMatchFailure(rule, results), "");
  results[0].values = {};
  EXPECT_EQ(NearestMatchFailure(rule, results), "code missing");
}

// Gumbo's trees: these small pages need a "near" signature that agrees
// with the page in more kept bytes than the list page's; with libxml2's
// trees (no implied <head>) both agree in 0 of them.
TEST(SiteExtractorTest, TheNearerSignatureIsTriedFirstThenTheNext) {
  constexpr html::PageBuilder kGumbo = html::PageBuilder::kGumbo;
  const std::string page = OneMoreLi("T", "$1.00");
  const shingle::ShingleVector vector = VectorOf(page, kGumbo);
  const shingle::MaskedVector near = SixOfEight(Annotated(), page, kGumbo);
  const shingle::MaskedVector far = shingle::MaskedVector::Parse(SignatureOf(kListPage, kGumbo)).value();
  ASSERT_GT(near.Agreement(vector), far.Agreement(vector));
  const auto broken = [](const shingle::MaskedVector& signature) {  // its title XPath finds nothing
    v1::Rule rule = ItemRule(signature.ToText());
    *rule.mutable_attributes(0) = XPathAttributeRule("title", "//h2/text()");
    return rule;
  };
  struct Case {
    const char* name;
    std::vector<v1::Rule> rules;
    RecordStatus status;
    const char* cluster;  // the record's, or nearest_cluster for NO_SHINGLE_MATCH
    int agreement;
  };
  const std::vector<Case> cases = {
      {"the nearer wins over importance",
       {WithCluster(ItemRule(near.ToText()), "near", 1), WithCluster(ItemRule(far.ToText()), "far", 50)},
       RecordStatus::kOk, "near", near.Agreement(vector)},
      {"the nearer fails: the next is tried",
       {WithCluster(broken(near), "near", 1), WithCluster(ItemRule(far.ToText()), "far", 50)}, RecordStatus::kOk, "far",
       far.Agreement(vector)},
      {"equally near: importance",
       {WithCluster(ItemRule(near.ToText()), "a", 5), WithCluster(ItemRule(near.ToText()), "b", 10)},
       RecordStatus::kOk, "b", near.Agreement(vector)},
      {"none passes: the nearest is named",
       {WithCluster(broken(near), "near", 1), WithCluster(broken(far), "far", 50)}, RecordStatus::kNoShingleMatch, "near",
       near.Agreement(vector)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const Record r = MustExtract(MustCreate(c.rules), page, "http://books.test/item/1", kGumbo);
    EXPECT_EQ(r.status, c.status) << RecordToJson(r, "", true);
    EXPECT_EQ(r.agreement, c.agreement);
    if (c.status == RecordStatus::kOk) {
      EXPECT_EQ(r.matched_by, MatchedBy::kNearest);
      EXPECT_EQ(r.cluster_id, c.cluster);
    } else {
      EXPECT_EQ(r.nearest_cluster, c.cluster);
      EXPECT_EQ(r.nearest_rejected, "title missing");
    }
  }
  // A rule whose URL regex does not match is not tried.
  const Record r = MustExtract(
      MustCreate({WithCluster(broken(near), "near", 1), MakeRule("other", "http://elsewhere\\.test/.*", near.ToText(), 9,
                                                           {XPathAttributeRule("title", "//h1/text()")})}),
      page, "http://books.test/item/1");
  EXPECT_EQ(r.status, RecordStatus::kNoShingleMatch);
  EXPECT_EQ(r.nearest_cluster, "near");
}

TEST(SiteExtractorTest, ExtraSignaturesCoverAndCountForAgreement) {
  const std::string page = OneMoreLi("T", "$1.00");
  const shingle::MaskedVector six = SixOfEight(Annotated(), page);
  const std::string miss = SignatureOf(kListPage);
  // An extra signature that covers: matched by signature, its kept bytes.
  const Record covered = MustExtract(MustCreate({WithExtraSignatures(ItemRule(miss), {SignatureOf(page)})}), page,
                                     "http://books.test/item/1");
  EXPECT_EQ(covered.status, RecordStatus::kOk);
  EXPECT_EQ(covered.matched_by, MatchedBy::kSignature);
  EXPECT_EQ(covered.agreement, 8);
  // The first covering one counts: the signature, then the extras in order.
  const shingle::MaskedVector seven(VectorOf(page), 0x01);
  const Record first = MustExtract(
      MustCreate({WithExtraSignatures(ItemRule(miss), {seven.ToText(), SignatureOf(page)})}), page,
      "http://books.test/item/1");
  EXPECT_EQ(first.agreement, 7);
  // None covers: the agreement is the best over all the rule's signatures.
  const CompiledRule compiled = CompiledRule::Create(WithExtraSignatures(ItemRule(miss), {six.ToText()}), Schema()).value();
  ASSERT_EQ(compiled.signatures().size(), 2u);
  EXPECT_EQ(compiled.signatures()[1], six);
  EXPECT_EQ(compiled.CoveringSignature(VectorOf(page)), nullptr);
  EXPECT_EQ(compiled.Agreement(VectorOf(page)), std::max(six.Agreement(VectorOf(page)),
                                                         compiled.signature().Agreement(VectorOf(page))));
  const Record nearest =
      MustExtract(MustCreate({WithExtraSignatures(ItemRule(miss), {six.ToText()})}), page, "http://books.test/item/1");
  EXPECT_EQ(nearest.matched_by, MatchedBy::kNearest);
  EXPECT_EQ(nearest.agreement, compiled.Agreement(VectorOf(page)));
}

TEST(SiteExtractorTest, WithTheFallbackOffAnUncoveredPageIsNoShingleMatchAsBefore) {
  const std::string page = OneMoreLi("T", "$1.00");
  const SiteExtractor e = MustCreate({ItemRule(SixOfEight(Annotated(), page).ToText())}, {.nearest = false});
  EXPECT_FALSE(e.options().nearest);
  EXPECT_TRUE(MustCreate({}).options().nearest);  // the default
  const Record r = MustExtract(e, page, "http://books.test/item/1");
  EXPECT_EQ(r.status, RecordStatus::kNoShingleMatch);
  EXPECT_EQ(r.matched_by, MatchedBy::kNone);
  EXPECT_EQ(r.agreement, 0);
  EXPECT_TRUE(r.nearest_cluster.empty());
  EXPECT_TRUE(r.nearest_rejected.empty());
  EXPECT_TRUE(r.cluster_id.empty());
  EXPECT_TRUE(r.attributes.empty());
  EXPECT_EQ(RecordToJson(r, "", false),
            R"({"url":"http://books.test/item/1","status":"NO_SHINGLE_MATCH","cluster":"","rule_version":0,)"
            R"("matched_by":"","agreement":0,"nearest_cluster":"","nearest_rejected":"","attributes":{}})");
}

// ---- Value selection ----

TEST(SiteExtractorTest, SingleValuedTakesTheFirstNodeMultiValuedAll) {
  const std::string page = ItemPage("T", "$1.00", {"Ann", "Bob", "Cy", "Di"});
  const SiteExtractor e = MustCreate({MakeRule(
      "c0", "", "", 1,
      {XPathAttributeRule("title", "//li/text()"), XPathAttributeRule("author", "//li/text()", true),
       // Blank text and script text are not candidates.
       XPathAttributeRule("byline", "//div[@id='main']//text()[not(ancestor::h1 or ancestor::li)]")})});
  const Record r = MustExtract(e, page, "http://books.test/item/1");
  const AttributeResult& title = Attribute(r, "title");
  EXPECT_EQ(title.values, Values{"Ann"});
  EXPECT_EQ(title.candidates, 4u);
  EXPECT_EQ(title.winners, 4u);
  EXPECT_DOUBLE_EQ(title.score, 0.25);
  const AttributeResult& author = Attribute(r, "author");
  EXPECT_EQ(author.values, (Values{"Ann", "Bob", "Cy", "Di"}));
  EXPECT_EQ(author.winners, 4u);
  EXPECT_DOUBLE_EQ(author.score, 0.25);
  const AttributeResult& byline = Attribute(r, "byline");
  EXPECT_EQ(byline.candidates, 3u);  // price, ISBN, byline; not the script, not "<p> </p>"
  EXPECT_EQ(byline.values, Values{"$1.00"});
}

TEST(SiteExtractorTest, RangeAndTypedRegexSelectTheValue) {
  v1::AttributeRule price = XPathAttributeRule("price", "//span[@class='price']/text()");
  v1::AttributeRule title = XPathAttributeRule("title", "//span[@class='price']/text()");
  title.mutable_range()->set_skip_start(1);
  title.mutable_range()->set_length(1);
  v1::AttributeRule byline = XPathAttributeRule("byline", "//div[@class='by']/text()");
  byline.mutable_range()->set_skip_start(1);
  v1::AttributeRule isbn = XPathAttributeRule("isbn", "//p[@class='isbn']");
  const SiteExtractor e = MustCreate({MakeRule("c0", "", "", 1, {price, title, byline, isbn})});
  const Record r = MustExtract(e, ItemPage("T", "Our Price: $25.99 (save 10%)", {}), "http://books.test/item/1");
  EXPECT_EQ(Attribute(r, "price").values, Values{"$25.99"});  // the price regex
  EXPECT_EQ(Attribute(r, "title").values, Values{"Price:"});  // word 2
  EXPECT_EQ(Attribute(r, "byline").values, Values{"Ann Lee"});
  EXPECT_EQ(Attribute(r, "isbn").values, Values{"978-0-307-27240-9"});
  // A range past the text's words, or a regex finding nothing, gives no value.
  const Record none = MustExtract(e, ItemPage("T", "Unavailable", {}), "http://books.test/item/2");
  EXPECT_TRUE(Attribute(none, "price").values.empty());
  EXPECT_TRUE(Attribute(none, "title").values.empty());
  // A single-valued attribute takes the first node that gives a value.
  const SiteExtractor first = MustCreate({MakeRule("c0", "", "", 1, {XPathAttributeRule("price", "//li/text()")})});
  const Record r2 = MustExtract(first, ItemPage("T", "$3.00", {"Call us", "$4.50", "$5.00"}), "http://books.test/item/3");
  EXPECT_EQ(Attribute(r2, "price").values, Values{"$4.50"});
}

// Cells of one row; only the value's has width=120 (no XPath feature tells it).
std::string GridPage(util::Rng& rng, int id, std::string* value) {
  const int at = static_cast<int>(rng.Range(0, 5)), cells = at + static_cast<int>(rng.Range(2, 4));
  std::string row;
  for (int k = 0; k < cells; ++k) {
    const std::string text = absl::StrCat("cell-", id, "-", k);
    if (k == at) *value = text;
    row += absl::StrCat("<td width=", k == at ? 120 : 60, ">", text, "</td>");
  }
  return absl::StrCat("<html><body><h1>Item ", id, "</h1><span class=price>$", id, ".00</span><table><tr>", row,
                      "</tr></table></body></html>");
}

TEST(SiteExtractorTest, ClassifierPicksTheValueAmongTheCandidates) {
  util::Rng rng(5);
  html::Parser parser;
  const html::XPath cells = html::XPath::Compile("//td/text()").value();
  std::vector<html::Page> train;
  std::vector<html::Node> positives, negatives;
  for (int i = 0; i < 3; ++i) {
    std::string value;
    train.push_back(parser.Parse(GridPage(rng, i, &value), absl::StrCat("http://books.test/item/", i)).value());
    const std::vector<html::Node> nodes = cells.Select(train.back()).value();
    for (html::Node n : nodes) (n.Text() == value ? positives : negatives).push_back(n);
  }
  absl::StatusOr<v1::Classifier> classifier = learn::TrainClassifier(positives, negatives);
  ASSERT_TRUE(classifier.ok()) << classifier.status();
  v1::AttributeRule byline = XPathAttributeRule("byline", "//td/text()");
  byline.set_method(v1::AttributeRule::CLASSIFIER);
  *byline.mutable_classifier() = *classifier;
  const SiteExtractor e = MustCreate({MakeRule("c0", kItemUrl, "", 1, {byline})});
  for (int i = 3; i < 13; ++i) {
    std::string value;
    const std::string html = GridPage(rng, i, &value);
    const Record r = MustExtract(e, html, absl::StrCat("http://books.test/item/", i));
    const AttributeResult& a = Attribute(r, "byline");
    EXPECT_EQ(a.values, Values{value}) << html;
    EXPECT_EQ(a.method, v1::AttributeRule::CLASSIFIER);
    EXPECT_EQ(a.winners, 1u);
    EXPECT_EQ(a.candidates, cells.Select(parser.Parse(html, "u").value()).value().size());
    EXPECT_GT(a.score, 0.5);
    EXPECT_LE(a.score, 1.0);
  }
}

// ---- Errors ----

TEST(SiteExtractorTest, CreateRejectsBadRules) {
  v1::AttributeRule unspecified = XPathAttributeRule("title", "//h1");
  unspecified.set_method(v1::AttributeRule::METHOD_UNSPECIFIED);
  v1::AttributeRule bad_classifier = XPathAttributeRule("title", "//h1");
  bad_classifier.set_method(v1::AttributeRule::CLASSIFIER);
  bad_classifier.mutable_classifier()->add_features()->set_test("self::[");
  struct Case {
    const char* name;
    v1::Rule rule;
    std::vector<std::string> message_has;
  };
  const std::vector<Case> cases = {
      {"attribute not in schema", MakeRule("c3", "", "", 1, {XPathAttributeRule("colour", "//b")}), {"c3", "colour", "book"}},
      {"XPath does not compile", MakeRule("c3", "", "", 1, {XPathAttributeRule("title", "//h1[")}), {"c3", "title", "//h1["}},
      {"attribute twice", MakeRule("c3", "", "", 1, {XPathAttributeRule("title", "//h1"), XPathAttributeRule("title", "//h2")}),
       {"c3", "title", "twice"}},
      {"bad signature", MakeRule("c3", "", "0a.zz.*", 1, {XPathAttributeRule("title", "//h1")}), {"c3", "signature", "0a.zz.*"}},
      {"bad extra signature", WithExtraSignatures(MakeRule("c3", "", "", 1, {XPathAttributeRule("title", "//h1")}),
                                                  {"00.00.00.00.00.00.00.00", "01.02"}),
       {"c3", "extra signature", "01.02"}},
      {"bad URL regex", MakeRule("c3", "http://(unclosed", "", 1, {XPathAttributeRule("title", "//h1")}),
       {"c3", "http://(unclosed"}},
      {"method unspecified", MakeRule("c3", "", "", 1, {unspecified}), {"c3", "title", "method"}},
      {"classifier test does not compile", MakeRule("c3", "", "", 1, {bad_classifier}), {"c3", "title", "self::["}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    // The bad rule among good ones.
    absl::StatusOr<SiteExtractor> e =
        SiteExtractor::Create(Schema(), {MakeRule("c1", ".*", "", 9, {XPathAttributeRule("title", "//h1")}), c.rule});
    ASSERT_FALSE(e.ok());
    EXPECT_EQ(e.status().code(), absl::StatusCode::kInvalidArgument) << e.status();
    for (const std::string& s : c.message_has) {
      EXPECT_NE(e.status().message().find(s), std::string::npos) << s << " in " << e.status();
    }
  }
  // No rule at all is valid: every page is NO_URL_MATCH.
  const SiteExtractor none = MustCreate({});
  EXPECT_EQ(MustExtract(none, kListPage, "http://books.test/item/1").status, RecordStatus::kNoUrlMatch);
}

TEST(SiteExtractorTest, ExtractPassesOnParseErrors) {
  const SiteExtractor e = MustCreate({ItemRule()});
  html::Parser parser;
  absl::StatusOr<Record> empty = e.Extract("", "http://books.test/item/1", parser);
  EXPECT_EQ(empty.status().code(), absl::StatusCode::kInvalidArgument) << empty.status();
  html::Parser small(html::ParseOptions{.max_page_bytes = 100});
  const std::string page = ItemPage("T", "$1.00", {"A"});
  ASSERT_GT(page.size(), 100u);
  absl::StatusOr<Record> big = e.Extract(page, "http://books.test/item/1", small);
  EXPECT_EQ(big.status().code(), absl::StatusCode::kResourceExhausted) << big.status();
  // The same parser goes on working.
  EXPECT_TRUE(e.Extract(page.substr(0, 90), "http://books.test/item/1", small).ok());
}

// ---- JSON ----

TEST(SiteExtractorTest, RecordToJsonRoundTrips) {
  Record none;
  none.url = "http://books.test/about";
  EXPECT_EQ(RecordToJson(none, "", false),
            R"({"url":"http://books.test/about","status":"NO_URL_MATCH","cluster":"","rule_version":0,)"
            R"("matched_by":"","agreement":0,"attributes":{}})");
  EXPECT_EQ(RecordToJson(none, "a.htm", false).rfind(R"({"file":"a.htm","url":)", 0), 0u);

  const SiteExtractor e = MustCreate({ItemRule()});
  const Record r = MustExtract(e, ItemPage("Say \"it's\" &amp; more\\", "Call for price", {"Ann", "Bob"}),
                               "http://books.test/item/1");
  ASSERT_EQ(r.status, RecordStatus::kPartial);
  const google::protobuf::Struct plain = ParseJson(RecordToJson(r, "", false));
  const auto& f = plain.fields();
  EXPECT_EQ(f.count("file"), 0u);
  EXPECT_EQ(f.count("details"), 0u);
  EXPECT_EQ(f.at("url").string_value(), "http://books.test/item/1");
  EXPECT_EQ(f.at("status").string_value(), "PARTIAL");
  EXPECT_EQ(f.at("cluster").string_value(), "c0");
  EXPECT_EQ(f.at("rule_version").number_value(), 7);
  EXPECT_EQ(f.at("matched_by").string_value(), "signature");
  EXPECT_EQ(f.at("agreement").number_value(), 0);  // no signature: all wildcards
  EXPECT_EQ(f.count("nearest_cluster"), 0u);
  EXPECT_EQ(f.count("nearest_rejected"), 0u);
  const auto& attributes = f.at("attributes").struct_value().fields();
  EXPECT_EQ(attributes.size(), Schema().size());
  EXPECT_EQ(StringList(attributes.at("title")), Values{"Say \"it's\" & more\\"});
  EXPECT_EQ(StringList(attributes.at("author")), (Values{"Ann", "Bob"}));
  EXPECT_TRUE(StringList(attributes.at("price")).empty());

  const google::protobuf::Struct detailed = ParseJson(RecordToJson(r, "pages/0001.htm", true));
  EXPECT_EQ(detailed.fields().at("file").string_value(), "pages/0001.htm");
  const auto& details = detailed.fields().at("details").struct_value().fields();
  const auto& author = details.at("author").struct_value().fields();
  EXPECT_EQ(author.at("method").string_value(), "xpath");
  EXPECT_EQ(author.at("score").number_value(), 0.5);
  EXPECT_EQ(author.at("candidates").number_value(), 2);
  EXPECT_EQ(details.at("price").struct_value().fields().at("score").number_value(), 0);
  EXPECT_EQ(StringList(detailed.fields().at("missing_mandatory")), Values{"price"});
}

TEST(SiteExtractorTest, RecordProtoRoundTripsHowTheRecordWasMatched) {
  Record nearest;
  nearest.url = "http://books.test/item/1";
  nearest.status = RecordStatus::kOk;
  nearest.cluster_id = "c0";
  nearest.rule_version = 7;
  nearest.matched_by = MatchedBy::kNearest;
  nearest.agreement = 5;
  nearest.parsed = true;
  Record rejected;
  rejected.url = "http://books.test/item/2";
  rejected.status = RecordStatus::kNoShingleMatch;
  rejected.agreement = 4;
  rejected.nearest_cluster = "c0";
  rejected.nearest_rejected = "title missing";
  rejected.parsed = true;
  Record covered = nearest;
  covered.matched_by = MatchedBy::kSignature;
  covered.agreement = 6;
  for (const Record& r : {nearest, rejected, covered}) {
    SCOPED_TRACE(r.url + " " + MatchedByName(r.matched_by));
    const v1::ExtractedRecord proto = RecordToProto(r, "books", false);
    EXPECT_EQ(proto.matched_by(), MatchedByName(r.matched_by));
    EXPECT_EQ(proto.agreement(), static_cast<uint32_t>(r.agreement));
    EXPECT_EQ(proto.nearest_cluster(), r.nearest_cluster);
    EXPECT_EQ(proto.nearest_rejected(), r.nearest_rejected);
    EXPECT_EQ(RecordToJson(RecordFromProto(proto), "", true), RecordToJson(r, "", true));
  }
  v1::ExtractedRecord unknown;
  unknown.set_matched_by("telepathy");
  EXPECT_EQ(RecordFromProto(unknown).matched_by, MatchedBy::kNone);
}

// ---- Threads ----

TEST(SiteExtractorTest, ConcurrentExtractionGivesIdenticalRecords) {
  util::Rng rng(17);
  std::vector<std::string> pages, urls;
  for (int i = 0; i < 40; ++i) {
    std::vector<std::string> authors;
    for (int k = static_cast<int>(rng.Range(0, 4)); k > 0; --k) authors.push_back(absl::StrCat("Author ", rng.Uniform(99)));
    pages.push_back(i % 5 == 4 ? std::string(kListPage)
                               : ItemPage(absl::StrCat("Book ", i), absl::StrCat("$", rng.Range(1, 99), ".99"), authors));
    urls.push_back(i % 7 == 6 ? "http://books.test/about" : absl::StrCat("http://books.test/item/", i));
  }
  const SiteExtractor e = MustCreate({ItemRule(SignatureOf(pages[0])), MakeRule("c1", kItemUrl, "", 1, {XPathAttributeRule("title", "//a/text()")})});
  const auto run = [&](std::vector<std::string>* out) {
    html::Parser parser;
    for (size_t i = 0; i < pages.size(); ++i) {
      absl::StatusOr<Record> r = e.Extract(pages[i], urls[i], parser);
      out->push_back(r.ok() ? RecordToJson(*r, "", true) : r.status().ToString());
    }
  };
  std::vector<std::string> want;
  run(&want);
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (auto& g : got) threads.emplace_back(run, &g);
  for (std::thread& t : threads) t.join();
  for (size_t t = 0; t < got.size(); ++t) {
    for (size_t i = 0; i < pages.size(); ++i) EXPECT_EQ(got[t][i], want[i]) << "thread " << t << " page " << i;
  }
  std::map<std::string, int> statuses;
  for (const std::string& j : want) ++statuses[ParseJson(j).fields().at("status").string_value()];
  EXPECT_GT(statuses["OK"], 0);
  EXPECT_GT(statuses["NO_URL_MATCH"], 0);
  EXPECT_GT(statuses["PARTIAL"], 0);  // list pages fall back to c1, which has no price
}

}  // namespace
}  // namespace vertex::extract
