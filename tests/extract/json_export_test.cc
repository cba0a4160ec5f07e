// Tests of the fields export (json_export.h): the range regexes against
// ApplyTextRange, the fields of hand-written rules (what is exported, what
// is left out and why, CSS), and a differential test: a consumer following
// the export's recipe with libxml2 (the exported XPath, string(.) or the
// attribute, the range regex, the split, the typed regex) must give the
// engine's values (CompiledRule::Apply) for every exported field on every
// page of the generated demo site and of SWDE booksamillion (when present);
// for a record-level rule, the consumer's records (the record XPath's
// starts, each field with the start as context node) equal the engine's.
#include "common/extract/json_export.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/html/text.h"
#include "common/html/xpath.h"
#include "common/rule/text_range.h"
#include "common/rule/url.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/util/random.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/simulated_editor.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "re2/re2.h"
#include "tests/testing/rule_builders.h"
#include "tests/testing/temp_dir.h"

namespace vertex::extract {
namespace {

namespace fs = std::filesystem;

// ---- Range regexes ----

v1::TextRange Range(int skip_start, int skip_end, int length, bool anchor_end) {
  v1::TextRange r;
  r.set_skip_start(skip_start);
  r.set_skip_end(skip_end);
  r.set_length(length);
  r.set_anchor_end(anchor_end);
  return r;
}

TEST(RangeRegexTest, WordRangesAgreeWithApplyTextRange) {
  const std::vector<std::string> texts = {"", "a", "a b", "Our Price: $25.99", "ISBN-13: 978 0 1 2",
                                          "By: Lynn A. Coleman, Rachel Hauck", "x y z w v u"};
  size_t compared = 0;
  for (int s = 0; s <= 3; ++s) {
    for (int e = 0; e <= 3; ++e) {
      for (int length = -1; length <= 3; ++length) {  // negative: no length
        for (bool anchor_end : {false, true}) {
          const v1::TextRange r = Range(s, e, length, anchor_end);
          absl::StatusOr<std::string> pattern = RangeRegex(r);
          ASSERT_TRUE(pattern.ok()) << pattern.status() << " " << r.ShortDebugString();
          const RE2 re(*pattern);
          ASSERT_TRUE(re.ok()) << *pattern << ": " << re.error();
          for (const std::string& text : texts) {
            std::string group;
            const bool matched = RE2::PartialMatch(text, re, &group);
            const std::optional<std::string> want = rule::ApplyTextRange(r, text);
            EXPECT_EQ(matched ? std::optional<std::string>(group) : std::nullopt, want)
                << r.ShortDebugString() << " on \"" << text << "\", regex " << *pattern;
            ++compared;
          }
        }
      }
    }
  }
  EXPECT_EQ(compared, 4u * 4 * 5 * 2 * texts.size());
}

TEST(RangeRegexTest, CharacterRangesCountCodePoints) {
  v1::TextRange r = Range(1, 10, 0, false);
  r.set_unit(v1::TextRange::CHARACTERS);
  const std::string pattern = RangeRegex(r).value();
  std::string group;
  ASSERT_TRUE(RE2::PartialMatch("\xC2\xA3" "340.00 (inc VAT)", pattern, &group)) << pattern;  // £340.00 (inc VAT)
  EXPECT_EQ(group, "340.00");
}

TEST(RangeRegexTest, RejectsRangesThatSelectNothing) {
  for (const v1::TextRange& r : {Range(-1, 0, 0, false), Range(0, -2, 0, false)}) {
    EXPECT_EQ(RangeRegex(r).status().code(), absl::StatusCode::kInvalidArgument) << r.ShortDebugString();
  }
}

// ---- Fields of hand-written rules ----

schema::CompiledSchema TestSchema() {
  v1::Schema s;
  s.set_vertical("test");
  for (const auto& [name, type, multi] : std::vector<std::tuple<std::string, std::string, bool>>{
           {"title", "", false}, {"link", "url", false}, {"price", "price", false}, {"authors", "", true}}) {
    v1::AttributeSchema* a = s.add_attributes();
    a->set_name(name);
    a->set_type(type);
    a->set_multi_valued(multi);
    if (name == "link") a->set_regex("\\S+");  // shorter than the url type's
  }
  return schema::CompiledSchema::FromProto(s).value();
}

v1::AttributeRule XPathRule(const std::string& attribute, const std::string& xpath) {
  v1::AttributeRule a;
  a.set_attribute(attribute);
  a.set_method(v1::AttributeRule::XPATH);
  a.set_xpath(xpath);
  return a;
}

v1::XPathFeature ProtoFeature(const std::string& kind, int level, std::vector<std::string> values) {
  v1::XPathFeature f;
  f.set_kind(kind);
  f.set_level(level);
  for (const std::string& v : values) f.add_values(v);
  return f;
}

struct FieldCase {
  std::string name;
  v1::AttributeRule rule;
  // Expected: the field's JSON (FieldsJson of it alone, without the
  // wrapper).
  std::string json;
};

std::vector<FieldCase> FieldCases() {
  std::vector<FieldCase> cases;
  cases.push_back({"text node, no range", XPathRule("title", "//h1/text()"),
                   R"j({"name":"title","xpath":"//h1/text()","attribute":null,"range":null,"regex":null,)j"
                   R"j("multiple":false,"split":null})j"});
  {
    v1::AttributeRule a = XPathRule("title", "//td/text()");  // the features win
    *a.add_features() = ProtoFeature("out-left-text", 0, {"ISBN-13:"});
    *a.add_features() = ProtoFeature("tag", 1, {"td"});
    a.set_text_nodes(true);
    cases.push_back({"label-first from features", a,
                     R"j({"name":"title","xpath":"//text()[normalize-space()='ISBN-13:']/)j"
                     R"j(following::text()[normalize-space()][1][parent::td]","attribute":null,"range":null,)j"
                     R"j("regex":null,"multiple":false,"split":null})j"});
  }
  {
    v1::AttributeRule a = XPathRule("link", "//*[@class='buy now']/a");
    *a.add_features() = ProtoFeature("tag", 0, {"a"});
    *a.add_features() = ProtoFeature("class", 1, {"buy now"});
    a.set_value_attribute("href");
    cases.push_back({"href of an element, CSS", a,
                     R"j({"name":"link","xpath":"//*[@class='buy now']/a","attribute":"href","range":null,)j"
                     R"j("regex":"\\S+","multiple":false,"split":null,"resolve":"url","css":"*[class=\"buy now\"] > a"})j"});
  }
  {
    v1::AttributeRule a = XPathRule("title", "//h1");
    *a.add_features() = ProtoFeature("tag", 0, {"h1"});
    cases.push_back({"element text", a,
                     R"j({"name":"title","unexported":"the value is the element's rendered text, which XPath's )j"
                     R"j(string() does not give"})j"});
  }
  {
    v1::AttributeRule a = XPathRule("price", "//span/text()");
    *a.mutable_range() = Range(1, 0, 0, false);
    cases.push_back({"word range and the type's regex", a, ""});
  }
  {
    v1::AttributeRule a = XPathRule("authors", "//p/text()");
    a.set_multi_valued(true);
    a.mutable_split()->add_separators(",");
    a.mutable_split()->add_separators(" and ");
    cases.push_back({"split", a,
                     R"j({"name":"authors","xpath":"//p/text()","attribute":null,"range":null,"regex":null,)j"
                     R"j("multiple":true,"split":[","," and "]})j"});
  }
  {
    v1::AttributeRule a = XPathRule("title", "//script");
    a.set_json_path("name");
    cases.push_back({"JSON-LD", a,
                     R"j({"name":"title","unexported":"the value is read from JSON-LD by a JSON path, which an XPath )j"
                     R"j(cannot express"})j"});
  }
  {
    v1::AttributeRule a = XPathRule("price", "//span/text()");
    *a.mutable_range() = Range(1, 0, 0, false);
    a.mutable_range()->set_nearest_match(true);
    cases.push_back({"nearest typed match", a,
                     R"j({"name":"price","unexported":"the value is the typed match nearest a learnt offset, which a )j"
                     R"j(regex cannot express"})j"});
  }
  {
    v1::AttributeRule a = XPathRule("title", "//h1");
    a.set_method(v1::AttributeRule::CLASSIFIER);
    a.mutable_classifier()->set_log_prior_pos(-1);
    cases.push_back({"classifier", a,
                     R"j({"name":"title","unexported":"picked by a classifier, which an XPath cannot express"})j"});
  }
  {
    v1::AttributeRule a = XPathRule("title", "//h1[ends-with(@id, 'x')]");
    cases.push_back({"ends-with rewritten", a,
                     R"j({"name":"title","xpath":"//h1[(substring(string(@id), string-length(string(@id)) - )j"
                     R"j(string-length(string('x')) + 1) = string('x'))]","attribute":null,"range":null,"regex":null,)j"
                     R"j("multiple":false,"split":null})j"});
  }
  return cases;
}

TEST(ExportFieldsTest, Table) {
  const schema::CompiledSchema schema = TestSchema();
  for (const FieldCase& c : FieldCases()) {
    v1::Rule rule;
    rule.set_cluster_id("c0");
    *rule.add_attributes() = c.rule;
    absl::StatusOr<std::vector<ExportedField>> fields = ExportFields(rule, schema);
    ASSERT_TRUE(fields.ok()) << c.name << ": " << fields.status();
    ASSERT_EQ(fields->size(), schema.size()) << c.name;
    const int index = schema.Find(c.rule.attribute());
    const absl::StatusOr<std::string> json = FieldsJson({(*fields)[index]});
    ASSERT_TRUE(json.ok()) << c.name;
    if (c.json.empty()) {  // checked below
      EXPECT_FALSE((*fields)[index].range.empty()) << c.name;
      EXPECT_FALSE((*fields)[index].regex.empty()) << c.name;
      continue;
    }
    EXPECT_EQ(*json, "{\"fields\":[\n  " + c.json + "\n]}\n") << c.name;
    // Every other attribute has no rule part.
    for (size_t i = 0; i < fields->size(); ++i) {
      if (static_cast<int>(i) != index) {
        EXPECT_EQ((*fields)[i].unexported, "the rule has no part for the attribute");
      }
    }
  }
}

TEST(ExportFieldsTest, RejectsBadRules) {
  const schema::CompiledSchema schema = TestSchema();
  const std::vector<std::pair<std::string, v1::AttributeRule>> cases = {
      {"not in the schema", XPathRule("colour", "//b")},
      {"XPath does not compile", XPathRule("title", "//b[")},
      {"ends-with with one argument", XPathRule("title", "//b[ends-with(@id)]")},
  };
  for (const auto& [name, a] : cases) {
    v1::Rule rule;
    *rule.add_attributes() = a;
    EXPECT_EQ(ExportFields(rule, schema).status().code(), absl::StatusCode::kInvalidArgument) << name;
  }
  ExportedField bad;
  bad.name = "title";
  bad.xpath = "//b[@x='\xFF']";
  EXPECT_EQ(FieldsJson({bad}).status().code(), absl::StatusCode::kInvalidArgument);
}

// ---- The consumer's recipe, with libxml2, against the engine ----

struct CompiledField {
  ExportedField field;
  html::XPath xpath;
  std::unique_ptr<RE2> range, regex;
};

bool InSkipped(html::Node n) {
  for (html::Node p = n.parent(); p; p = p.parent()) {
    if (p.tag() == "script" || p.tag() == "style" || p.tag() == "noscript") return true;
  }
  return false;
}

std::vector<std::string> Split(const std::string& text, const std::vector<std::string>& separators) {
  if (separators.empty()) return {text};
  const std::string lower = absl::AsciiStrToLower(text);
  std::vector<std::string> out;
  size_t start = 0, i = 0;
  while (i < text.size()) {
    size_t matched = 0;
    for (const std::string& s : separators) {
      if (!s.empty() && lower.compare(i, s.size(), absl::AsciiStrToLower(s)) == 0) matched = std::max(matched, s.size());
    }
    if (matched == 0) {
      ++i;
      continue;
    }
    out.push_back(text.substr(start, i - start));
    i += matched;
    start = i;
  }
  out.push_back(text.substr(start));
  return out;
}

// The recipe of json_export.h, steps 1-6, with `context` as the XPath's
// context node (null: the document; a record's start for record fields).
std::vector<std::string> ConsumerValues(const CompiledField& f, const html::Page& page,
                                        html::Node context = html::Node()) {
  static const html::XPath kString = html::XPath::Compile("string(.)").value();
  std::vector<std::string> out;
  const std::vector<html::Node> nodes = f.xpath.Select(page, context).value();
  for (html::Node n : nodes) {
    std::string text;
    if (!f.field.attribute.empty()) {
      if (!n.is_element() || !n.has_attribute(f.field.attribute)) continue;
      text = html::NormalizeSpace(n.attribute(f.field.attribute));
      // "resolve": against the page's <base> (resolved against its URL), as
      // a consumer's urljoin would; "meta-url" only for URL-valued <meta>.
      if (f.field.resolve == "url" || (f.field.resolve == "meta-url" && rule::IsUrlAttribute(n, f.field.attribute))) {
        absl::StatusOr<std::string> r = rule::ResolveUrl(rule::PageBaseUrl(page), text);
        if (r.ok()) text = *std::move(r);
      }
    } else {
      text = html::NormalizeSpace(kString.EvaluateString(page, n).value());
      if (n.is_text() && (text.empty() || InSkipped(n))) continue;
    }
    if (f.range) {
      std::string cut;
      if (!RE2::PartialMatch(text, *f.range, &cut)) continue;
      text = cut;
    }
    for (std::string part : Split(text, f.field.split)) {
      part = std::string(absl::StripAsciiWhitespace(part));
      if (f.regex) {
        const int groups = f.regex->NumberOfCapturingGroups();
        re2::StringPiece sub[2];
        if (!f.regex->Match(part, 0, part.size(), RE2::UNANCHORED, sub, groups > 0 ? 2 : 1)) continue;
        const re2::StringPiece match = groups > 0 ? sub[1] : sub[0];
        part = std::string(absl::StripAsciiWhitespace(absl::string_view(match.data(), match.size())));
      }
      if (part.empty()) continue;
      out.push_back(part);
      if (!f.field.multiple) return out;
    }
  }
  return out;
}

struct SiteRules {
  schema::CompiledSchema schema;
  std::vector<v1::Rule> rules;
};

SiteRules LearnSite(const std::vector<std::string>& files, const std::string& schema_file,
                    const std::string& truth_dir, const std::string& site_name) {
  SiteRules out{schema::CompiledSchema::FromFile(std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/" + schema_file)
                    .value(),
                {}};
  const eval::GroundTruth truth = eval::LoadGroundTruth(truth_dir, site_name).value();
  const site::SiteClustering clustering = site::ClusterSite(files, {}).value();
  workflow::PagePool pool(clustering, html::ParseOptions{});
  const std::vector<workflow::SimulatedCluster> clusters =
      workflow::SimulateEditor(out.schema, clustering, truth, pool, {}).value();
  for (const workflow::SimulatedCluster& c : clusters) {
    out.rules.push_back(c.result.learnt.rule);
  }
  return out;
}

struct Tally {
  size_t pages = 0, fields = 0, unexported = 0, comparisons = 0, values = 0, mismatches = 0;
  std::map<std::string, size_t> reasons;
};

void CompareOnSite(const std::string& site, const SiteRules& s, const std::vector<std::string>& files, Tally* t) {
  std::vector<CompiledRule> engines;
  std::vector<std::vector<CompiledField>> exported;
  for (const v1::Rule& rule : s.rules) {
    engines.push_back(CompiledRule::Create(rule, s.schema).value());
    std::vector<CompiledField>& fields = exported.emplace_back();
    std::vector<ExportedField> all = ExportFields(rule, s.schema).value();
    for (ExportedField& f : all) {
      if (!f.unexported.empty()) {
        ++t->unexported;
        ++t->reasons[f.unexported];
        fields.push_back({f, html::XPath::Compile("/..").value(), nullptr, nullptr});
        continue;
      }
      ++t->fields;
      absl::StatusOr<html::XPath> x = html::XPath::Compile(f.xpath);
      ASSERT_TRUE(x.ok()) << x.status();
      auto range = f.range.empty() ? nullptr : std::make_unique<RE2>(f.range);
      auto regex = f.regex.empty() ? nullptr : std::make_unique<RE2>(f.regex);
      fields.push_back({std::move(f), *std::move(x), std::move(range), std::move(regex)});
    }
  }
  html::Parser parser;
  for (const std::string& file : files) {
    absl::StatusOr<site::PageFile> bytes = site::ReadPageFile(file, 8 << 20);
    if (!bytes.ok()) continue;
    absl::StatusOr<html::Page> page = parser.Parse(bytes->bytes, bytes->url);
    if (!page.ok()) continue;
    ++t->pages;
    for (size_t r = 0; r < engines.size(); ++r) {
      const std::vector<AttributeResult> engine = engines[r].Apply(*page).value();
      for (size_t i = 0; i < exported[r].size(); ++i) {
        if (!exported[r][i].field.unexported.empty()) continue;
        const std::vector<std::string> got = ConsumerValues(exported[r][i], *page);
        ++t->comparisons;
        t->values += got.size();
        if (got == engine[i].values) continue;
        if (++t->mismatches <= 5) {
          ADD_FAILURE() << site << " " << file << " rule " << s.rules[r].cluster_id() << " field "
                        << exported[r][i].field.name << " (XPath " << exported[r][i].field.xpath << "): consumer "
                        << got.size() << " values" << (got.empty() ? "" : " first \"" + got[0] + "\"") << ", engine "
                        << engine[i].values.size() << " values"
                        << (engine[i].values.empty() ? "" : " first \"" + engine[i].values[0] + "\"");
        }
      }
    }
  }
}

void Report(const std::string& site, const Tally& t) {
  std::printf("%s: %zu pages, %zu exported fields, %zu left out; %zu comparisons, %zu values, %zu mismatches\n",
              site.c_str(), t.pages, t.fields, t.unexported, t.comparisons, t.values, t.mismatches);
  for (const auto& [reason, n] : t.reasons) std::printf("  left out %zu: %s\n", n, reason.c_str());
}

TEST(FieldsDifferentialTest, DemoSiteConsumerAgreesWithEngineOnEveryPage) {
  test_support::TempDir dir;
  ASSERT_FALSE(dir.path().empty());
  demo::SiteOptions o;
  o.product_pages = 60, o.category_pages = 20, o.review_pages = 12, o.store_pages = 24;
  ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(o), dir.path()).ok());
  const std::vector<std::string> files = site::ExpandPagePaths({dir.path()}).value();
  Tally t;
  for (const auto& [vertical, schema] : {std::pair{"product", "product.json"}, {"business", "business.json"}}) {
    const SiteRules s = LearnSite(files, schema, dir.path() + "/groundtruth/" + vertical, "vertexdemo");
    CompareOnSite(std::string("demo ") + vertical, s, files, &t);
  }
  Report("demo", t);
  EXPECT_GT(t.fields, 5u);
  EXPECT_GT(t.values, t.pages);
  EXPECT_EQ(t.mismatches, 0u);
}

TEST(FieldsDifferentialTest, SwdeBooksamillionConsumerAgreesWithEngineOnEveryPage) {
  const fs::path pages = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  const fs::path truth = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/groundtruth/book";
  if (!fs::is_directory(pages) || !fs::is_directory(truth)) {
    GTEST_SKIP() << "SWDE data not found at " << pages << " and " << truth;
  }
  const std::vector<std::string> files = site::ExpandPagePaths({pages.string()}).value();
  const SiteRules s = LearnSite(files, "book.json", truth.string(), "booksamillion");
  Tally t;
  CompareOnSite("booksamillion", s, files, &t);
  Report("booksamillion", t);
  EXPECT_EQ(t.pages, 2000u);
  EXPECT_GT(t.fields, 4u);
  EXPECT_EQ(t.mismatches, 0u);
}

// ---- record-level rules ----

constexpr char kListSchema[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true},
  {"name": "link", "type": "url"},
  {"name": "agent"}]})";

v1::Rule PairsRule() {
  v1::Rule rule;
  rule.set_cluster_id("pairs");
  rule.mutable_record()->set_record_xpath("//dl[ends-with(@class, 'list')]/dt");
  rule.mutable_record()->set_record_length(2);
  auto* parts = rule.mutable_record()->mutable_attributes();
  *parts->Add() = test_support::XPathAttributeRule("title", "text()");
  *parts->Add() = test_support::XPathAttributeRule("price", "following-sibling::*[1][self::dd]/span/text()");
  v1::AttributeRule link = test_support::XPathAttributeRule("link", "following-sibling::*[1]/a");
  link.set_value_attribute("href");
  *parts->Add() = link;
  return rule;
}

std::string PairsPage(int v) {
  std::string html = "<html><body><dl class=\"a-list\">";
  for (int i = 0; i < 2 + v; ++i) {
    html += absl::StrCat("<dt>House ", v, "-", i, "</dt><dd>", i % 3 == 1 ? "" : absl::StrCat("<span>$", i + 1, ".50</span>"),
                         "<a href=\"h/", i, "\">more</a></dd>");
  }
  return html + "</dl></body></html>";
}

TEST(RecordFieldsTest, JsonWrapsTheRelativeFieldsInTheRecord) {
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kListSchema, "list").value();
  absl::StatusOr<std::string> json = RuleFieldsJson(PairsRule(), schema);
  ASSERT_TRUE(json.ok()) << json.status();
  google::protobuf::Struct doc;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(*json, &doc).ok()) << *json;
  const auto& record = doc.fields().at("record").struct_value().fields();
  // ends-with rewritten to XPath 1.0.
  EXPECT_EQ(record.at("xpath").string_value().find("ends-with"), std::string::npos) << *json;
  EXPECT_EQ(record.at("length").number_value(), 2);
  const auto& fields = record.at("fields").list_value().values();
  ASSERT_EQ(fields.size(), 4);
  EXPECT_EQ(fields[1].struct_value().fields().at("xpath").string_value(),
            "following-sibling::*[1][self::dd]/span/text()");
  EXPECT_EQ(fields[2].struct_value().fields().at("resolve").string_value(), "url");
  EXPECT_TRUE(fields[3].struct_value().fields().contains("unexported"));
  // A detail rule's export is FieldsJson's, unchanged.
  v1::Rule detail;
  *detail.add_attributes() = test_support::XPathAttributeRule("title", "//h1/text()");
  EXPECT_EQ(RuleFieldsJson(detail, schema).value(), FieldsJson(ExportFields(detail, schema).value()).value());
}

TEST(RecordFieldsTest, ConsumerFollowingTheRecipeGetsTheEnginesRecords) {
  const schema::CompiledSchema schema = schema::CompiledSchema::FromJson(kListSchema, "list").value();
  const v1::Rule rule = PairsRule();
  google::protobuf::Struct doc;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(RuleFieldsJson(rule, schema).value(), &doc).ok());
  const html::XPath starts =
      html::XPath::Compile(doc.fields().at("record").struct_value().fields().at("xpath").string_value()).value();
  std::vector<CompiledField> fields;
  std::vector<ExportedField> exported = ExportFields(rule, schema).value();
  for (ExportedField& f : exported) {
    html::XPath x = html::XPath::Compile(f.unexported.empty() ? f.xpath : "/..").value();
    auto regex = f.regex.empty() ? nullptr : std::make_unique<RE2>(f.regex);
    fields.push_back({std::move(f), std::move(x), nullptr, std::move(regex)});
  }
  const CompiledRule engine = CompiledRule::Create(rule, schema).value();
  html::Parser parser;
  size_t records = 0, values = 0;
  for (int v = 0; v < 4; ++v) {
    const html::Page page = parser.Parse(PairsPage(v), absl::StrCat("http://homes.test/s/", v)).value();
    const ListResult list = engine.ApplyRecords(page).value();
    std::vector<html::Node> consumer_starts;
    const std::vector<html::Node> selected = starts.Select(page).value();
    for (html::Node n : selected) {
      if (n.is_element()) consumer_starts.push_back(n);
    }
    ASSERT_EQ(consumer_starts.size(), list.records.size());
    for (size_t r = 0; r < list.records.size(); ++r) {
      for (size_t i = 0; i < fields.size(); ++i) {
        if (!fields[i].field.unexported.empty()) continue;
        const std::vector<std::string> got = ConsumerValues(fields[i], page, consumer_starts[r]);
        EXPECT_EQ(got, list.records[r].attributes[i].values) << v << " record " << r << " " << fields[i].field.name;
        values += got.size();
      }
      ++records;
    }
  }
  EXPECT_EQ(records, 2u + 3 + 4 + 5);
  EXPECT_GE(values, 30u);
}

}  // namespace
}  // namespace vertex::extract
