// Differential tests of the XSLT export: for rules learnt on real and
// generated sites and for hand-written rules, the rule engine
// (CompiledRule::Apply) and xsltproc running the exported stylesheet on each
// page's XHTML serialisation must give the same values per attribute (the
// schema's SelectValue applied to xsltproc's values where the record gives a
// regex, as the export's consumers do). Record-level rules: xsltproc's
// <record> elements equal the engine's records (ApplyRecords) in number,
// index, data area and values.
#include "common/extract/xslt_export.h"

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/extract/compiled_rule.h"
#include "common/html/page.h"
#include "common/html/serialize.h"
#include "common/html/xpath.h"
#include "common/rule/url.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/site/site_clusterer.h"
#include "common/util/file.h"
#include "common/util/status_macros.h"
#include "common/util/utf8.h"
#include "common/workflow/cluster_learner.h"
#include "common/workflow/simulated_editor.h"
#include "gtest/gtest.h"
#include "tests/testing/rule_builders.h"
#include "tests/testing/temp_dir.h"

namespace vertex::extract {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr char kInstallHint[] =
    "xsltproc is not installed, and the differential tests of the XSLT export run it: install the "
    "Debian package xsltproc (`bash deploy/vertex.sh build` does, or `apt-get install xsltproc`)";

// Pages per xsltproc run (one stylesheet, many input files).
constexpr size_t kPagesPerRun = 250;

// Demo pages compared per learnt rule: xsltproc takes about 0.3 s per demo
// page (its rules use preceding::/following:: axes, which libxml2 evaluates
// in time quadratic in the page), so the test compares an even spread.
constexpr size_t kDemoPagesPerRule = 120;

double Since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool HaveXsltproc() { return std::system("xsltproc --version >/dev/null 2>&1") == 0; }

using TempDir = vertex::test_support::TempDir;

// ---- xsltproc's output ----

struct XsltAttribute {
  std::map<std::string, std::string> tag;  // name, exported, reason, regex, multi-valued
  std::vector<std::string> values;
};

struct XsltRecord {
  std::map<std::string, std::string> tag;  // site, cluster, version
  std::vector<XsltAttribute> attributes;
};

// `s` with XML's predefined entities and character references decoded.
std::string DecodeXml(std::string_view s) {
  static const std::map<std::string_view, char> kNamed = {
      {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    const size_t semi = s[i] == '&' ? s.find(';', i) : std::string_view::npos;
    if (semi == std::string_view::npos) {
      out += s[i];
      continue;
    }
    const std::string entity(s.substr(i + 1, semi - i - 1));
    if (entity[0] == '#') {
      const bool hex = entity.size() > 1 && entity[1] == 'x';
      util::AppendUtf8(static_cast<char32_t>(std::strtoul(entity.c_str() + (hex ? 2 : 1), nullptr, hex ? 16 : 10)),
                       &out);
    } else {
      out += kNamed.count(entity) ? kNamed.at(entity) : '?';
    }
    i = semi;
  }
  return out;
}

// The attributes of a start tag ("<name a="1" b="2"" without the '>').
std::map<std::string, std::string> TagAttributes(std::string_view tag) {
  std::map<std::string, std::string> out;
  size_t pos = tag.find(' ');
  while (pos != std::string_view::npos) {
    const size_t eq = tag.find("=\"", pos);
    if (eq == std::string_view::npos) break;
    const size_t close = tag.find('"', eq + 2);
    out[std::string(tag.substr(pos + 1, eq - pos - 1))] = DecodeXml(tag.substr(eq + 2, close - eq - 2));
    pos = close + 1 < tag.size() && tag[close + 1] == ' ' ? close + 1 : std::string_view::npos;
  }
  return out;
}

std::vector<std::string> Values(std::string_view body) {
  std::vector<std::string> out;
  for (size_t pos = body.find("<value"); pos != std::string_view::npos; pos = body.find("<value", pos)) {
    if (body.substr(pos, 8) == "<value/>") {
      out.emplace_back();
      pos += 8;
      continue;
    }
    const size_t close = body.find("</value>", pos);
    out.push_back(DecodeXml(body.substr(pos + 7, close - pos - 7)));
    pos = close;
  }
  return out;
}

XsltRecord ParseRecord(std::string_view r) {
  XsltRecord record;
  record.tag = TagAttributes(r.substr(0, r.find('>')));
  for (size_t pos = r.find("<attribute "); pos != std::string_view::npos; pos = r.find("<attribute ", pos)) {
    const size_t gt = r.find('>', pos);
    XsltAttribute a;
    a.tag = TagAttributes(r.substr(pos, gt - pos));
    pos = gt + 1;
    if (r[gt - 1] != '/') {
      const size_t close = r.find("</attribute>", pos);
      a.values = Values(r.substr(pos, close - pos));
      pos = close;
    }
    record.attributes.push_back(std::move(a));
  }
  return record;
}

std::vector<XsltRecord> ParseRecords(std::string_view out) {
  std::vector<XsltRecord> records;
  for (size_t pos = out.find("<record"); pos != std::string_view::npos; pos = out.find("<record", pos)) {
    const size_t end = out.find("</record>", pos);
    if (end == std::string_view::npos) break;
    records.push_back(ParseRecord(out.substr(pos, end - pos)));
    pos = end;
  }
  return records;
}

// ---- running xsltproc ----

absl::StatusOr<std::string> RunCommand(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return absl::InternalError("cannot run: " + command);
  std::string out;
  char buffer[1 << 16];
  for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = pclose(pipe);
  if (status != 0) return absl::InternalError(absl::StrCat("exit status ", status, " from: ", command));
  return out;
}

struct Chunk {
  size_t begin, end;
};

// Runs xsltproc once on pages[chunk] and parses its records.
absl::StatusOr<std::vector<XsltRecord>> RunChunk(const std::string& stylesheet, const std::vector<std::string>& pages,
                                                 Chunk chunk, const std::string& dir) {
  std::string command = "xsltproc --nonet '" + stylesheet + "'";
  for (size_t i = chunk.begin; i < chunk.end; ++i) command += " '" + pages[i] + "'";
  const std::string errors = absl::StrCat(dir, "/xsltproc", chunk.begin, ".stderr");
  absl::StatusOr<std::string> out = RunCommand(command + " 2>'" + errors + "'");
  if (!out.ok()) {
    return absl::InternalError(std::string(out.status().message()) +
                               "\nstderr: " + util::ReadFile(errors, 4096).value_or("(none)"));
  }
  std::vector<XsltRecord> records = ParseRecords(*out);
  if (records.size() != chunk.end - chunk.begin) {
    return absl::InternalError(
        absl::StrCat("xsltproc wrote ", records.size(), " records for ", chunk.end - chunk.begin, " pages"));
  }
  return records;
}

// xsltproc's records for `pages` (files), in order: a few hundred pages per
// run, as many runs at once as there are cores.
absl::StatusOr<std::vector<XsltRecord>> RunXsltproc(const std::string& stylesheet,
                                                    const std::vector<std::string>& pages, const std::string& dir) {
  const size_t jobs = std::max(2u, std::thread::hardware_concurrency());
  const size_t per_run = std::min(kPagesPerRun, (pages.size() + jobs - 1) / jobs);
  std::vector<std::future<absl::StatusOr<std::vector<XsltRecord>>>> runs;
  for (size_t begin = 0; begin < pages.size(); begin += per_run) {
    if (runs.size() >= jobs) runs[runs.size() - jobs].wait();
    const Chunk chunk{begin, std::min(pages.size(), begin + per_run)};
    runs.push_back(std::async(std::launch::async, [&, chunk] { return RunChunk(stylesheet, pages, chunk, dir); }));
  }
  std::vector<XsltRecord> records;
  for (auto& run : runs) {
    absl::StatusOr<std::vector<XsltRecord>> some = run.get();
    if (!some.ok()) return some.status();
    for (XsltRecord& r : *some) records.push_back(std::move(r));
  }
  return records;
}

// ---- comparing ----

struct DiffCount {
  size_t pages = 0;
  size_t values = 0;  // the engine's values on exported attributes
  size_t mismatches = 0;
  // Attribute results declared unexported (XsltUnexportedReason).
  size_t unexported = 0;
  double engine_s = 0, xsltproc_s = 0;
};

std::string TagOr(const XsltAttribute& a, const std::string& key) { return a.tag.count(key) ? a.tag.at(key) : ""; }

// What a consumer of the record gets: URL values (resolve="url")
// resolved against the <base> the stylesheet reports, itself
// resolved against the page's URL (xslt_export.h); then, with a regex, the
// schema's SelectValue on each value, the first success only when
// single-valued.
std::vector<std::string> ConsumerValues(const XsltAttribute& a, const schema::CompiledSchema& schema, size_t i,
                                        const std::string& page_url) {
  std::vector<std::string> values = a.values;
  if (TagOr(a, "resolve") == "url") {
    std::string base = page_url;
    if (a.tag.count("base") && !a.tag.at("base").empty()) {
      absl::StatusOr<std::string> b = rule::ResolveUrl(page_url, a.tag.at("base"));
      if (b.ok()) base = *b;
    }
    for (std::string& v : values) {
      absl::StatusOr<std::string> r = rule::ResolveUrl(base, v);
      if (r.ok()) v = *r;
    }
  }
  if (!a.tag.count("regex")) return values;
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::optional<std::string> selected = schema.SelectValue(i, v);
    if (!selected) continue;
    out.push_back(*selected);
    if (a.tag.at("multi-valued") == "false") break;
  }
  return out;
}

std::string Quoted(const std::vector<std::string>& v) { return "[\"" + absl::StrJoin(v, "\", \"") + "\"]"; }

const v1::AttributeRule* FindRule(const v1::Rule& rule, const std::string& attribute) {
  for (const v1::AttributeRule& a : rule.has_record() ? rule.record().attributes() : rule.attributes()) {
    if (a.attribute() == attribute) return &a;
  }
  return nullptr;
}


void CompareAttribute(const AttributeResult& engine, const XsltAttribute& xslt, const v1::Rule& rule,
                      const schema::CompiledSchema& schema, size_t i, const std::string& url, DiffCount* count) {
  const v1::AttributeRule* part = FindRule(rule, engine.attribute);
  if (part == nullptr || part->method() == v1::AttributeRule::CLASSIFIER) {
    EXPECT_EQ(TagOr(xslt, "exported"), "false") << engine.attribute;
    EXPECT_EQ(TagOr(xslt, "reason"), part == nullptr ? "no-rule" : "classifier") << engine.attribute;
    EXPECT_TRUE(xslt.values.empty()) << engine.attribute;
    if (part == nullptr) {
      EXPECT_TRUE(engine.values.empty()) << url << " " << engine.attribute;
    }
    return;
  }
  // A rule part XSLT 1.0 cannot express (json-path, nearest-match, split,
  // character-range, srcset) is declared unexported with its reason.
  if (const std::string reason = XsltUnexportedReason(*part); !reason.empty()) {
    EXPECT_EQ(TagOr(xslt, "exported"), "false") << engine.attribute;
    EXPECT_FALSE(TagOr(xslt, "reason").empty()) << engine.attribute;
    EXPECT_TRUE(xslt.values.empty()) << engine.attribute;
    ++count->unexported;
    return;
  }
  EXPECT_EQ(TagOr(xslt, "exported"), "") << engine.attribute;
  EXPECT_EQ(TagOr(xslt, "multi-valued"), part->multi_valued() ? "true" : "false") << engine.attribute;
  const RE2* regex = schema.ValueRegex(i);
  EXPECT_EQ(TagOr(xslt, "regex"), regex ? regex->pattern() : "") << engine.attribute;
  const std::vector<std::string> got = ConsumerValues(xslt, schema, i, url);
  count->values += engine.values.size();
  if (got == engine.values || ++count->mismatches > 20) return;
  ADD_FAILURE() << url << " attribute " << engine.attribute << " (XPath " << part->xpath() << "): engine "
                << Quoted(engine.values) << ", xsltproc " << Quoted(got) << " (raw " << Quoted(xslt.values) << ")";
}

void CompareRecord(const std::vector<AttributeResult>& engine, const XsltRecord& xslt, const v1::Rule& rule,
                   const schema::CompiledSchema& schema, const std::string& url, DiffCount* count) {
  EXPECT_EQ(xslt.tag.at("cluster"), rule.cluster_id());
  EXPECT_EQ(xslt.tag.at("version"), absl::StrCat(rule.version()));
  ASSERT_EQ(xslt.attributes.size(), schema.size()) << url;
  for (size_t i = 0; i < schema.size(); ++i) {
    ASSERT_EQ(xslt.attributes[i].tag.at("name"), schema.attribute(i).name()) << url;
    CompareAttribute(engine[i], xslt.attributes[i], rule, schema, i, url, count);
  }
  ++count->pages;
}

// Serialises `pages` into `dir` and extracts them with the engine.
void PreparePages(const CompiledRule& compiled, const std::vector<const html::Page*>& pages, const std::string& dir,
                  std::vector<std::string>* files, std::vector<std::vector<AttributeResult>>* engine,
                  DiffCount* count) {
  for (size_t k = 0; k < pages.size(); ++k) {
    absl::StatusOr<std::string> xhtml = html::SerializeXhtml(*pages[k]);
    ASSERT_TRUE(xhtml.ok()) << xhtml.status();
    files->push_back(absl::StrCat(dir, "/page", k, ".xhtml"));
    ASSERT_TRUE(util::WriteFile(files->back(), *xhtml).ok()) << files->back();
    const Clock::time_point t = Clock::now();
    absl::StatusOr<std::vector<AttributeResult>> r = compiled.Apply(*pages[k]);
    count->engine_s += Since(t);
    ASSERT_TRUE(r.ok()) << r.status();
    engine->push_back(*std::move(r));
  }
}

// Runs `rule` on `pages` with the engine and with xsltproc; adds to `count`.
void Differential(const v1::Rule& rule, const schema::CompiledSchema& schema,
                  const std::vector<const html::Page*>& pages, const std::string& dir, DiffCount* count) {
  absl::StatusOr<std::string> xsl = ExportXslt(rule, schema);
  ASSERT_TRUE(xsl.ok()) << xsl.status();
  absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(rule, schema);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  const std::string stylesheet = dir + "/rule.xsl";
  ASSERT_TRUE(util::WriteFile(stylesheet, *xsl).ok());
  std::vector<std::string> files;
  std::vector<std::vector<AttributeResult>> engine;
  PreparePages(*compiled, pages, dir, &files, &engine, count);
  const Clock::time_point t = Clock::now();
  absl::StatusOr<std::vector<XsltRecord>> records = RunXsltproc(stylesheet, files, dir);
  count->xsltproc_s += Since(t);
  ASSERT_TRUE(records.ok()) << records.status() << "\nstylesheet:\n" << *xsl;
  for (size_t k = 0; k < pages.size(); ++k) {
    CompareRecord(engine[k], (*records)[k], rule, schema, pages[k]->url(), count);
  }
}

// ---- learnt rules ----

struct ClusterRule {
  v1::Rule rule;
  std::vector<size_t> pages;  // the cluster's pages, indices into clustering.pages
};

// A clustered site whose pages stay parsed in the pool.
struct Site {
  std::unique_ptr<site::SiteClustering> clustering;
  std::unique_ptr<workflow::PagePool> pool;
};

absl::StatusOr<Site> ClusterPages(const std::string& dir) {
  VERTEX_ASSIGN_OR_RETURN(std::vector<std::string> files, site::ExpandPagePaths({dir}));
  Site s;
  VERTEX_ASSIGN_OR_RETURN(site::SiteClustering clustering, site::ClusterSite(files, {}));
  s.clustering = std::make_unique<site::SiteClustering>(std::move(clustering));
  s.pool = std::make_unique<workflow::PagePool>(*s.clustering, html::ParseOptions{});
  return s;
}

// The rules an editor simulated from the ground truth gets learnt, as
// `vertexctl eval-swde` does.
absl::StatusOr<std::vector<ClusterRule>> LearnRules(Site& s, const schema::CompiledSchema& schema,
                                                    const std::string& truth_dir, const std::string& site_name) {
  VERTEX_ASSIGN_OR_RETURN(eval::GroundTruth truth, eval::LoadGroundTruth(truth_dir, site_name));
  VERTEX_ASSIGN_OR_RETURN(std::vector<workflow::SimulatedCluster> clusters,
                          workflow::SimulateEditor(schema, *s.clustering, truth, *s.pool, {}));
  std::vector<ClusterRule> rules;
  for (const workflow::SimulatedCluster& c : clusters) {
    if (c.result.learnt.rule.attributes_size() == 0) continue;
    rules.push_back({c.result.learnt.rule, s.clustering->clusters[c.cluster].pages});
  }
  return rules;
}

// Compares every learnt rule on the pages of its cluster: all of them, or
// `max_pages` spread evenly over them.
DiffCount CompareLearnt(Site& s, const std::vector<ClusterRule>& rules, const schema::CompiledSchema& schema,
                        const std::string& dir, size_t max_pages = SIZE_MAX) {
  DiffCount count;
  for (const ClusterRule& r : rules) {
    std::vector<const html::Page*> pages;
    const size_t n = std::min(max_pages, r.pages.size());
    for (size_t k = 0; k < n; ++k) {
      absl::StatusOr<const html::Page*> page = s.pool->Page(r.pages[k * r.pages.size() / n]);
      EXPECT_TRUE(page.ok()) << page.status();
      if (page.ok()) pages.push_back(*page);
    }
    const std::string rule_dir = dir + "/" + r.rule.cluster_id();
    fs::create_directories(rule_dir);
    Differential(r.rule, schema, pages, rule_dir, &count);
  }
  return count;
}

void PrintCount(const std::string& what, size_t rules, const DiffCount& c, double total_s) {
  std::printf(
      "%s: %zu rules, %zu pages, %zu engine values compared, %zu mismatches, %zu attribute results "
      "declared unexported; engine %.2f s, xsltproc %.2f s, test %.2f s\n",
      what.c_str(), rules, c.pages, c.values, c.mismatches, c.unexported, c.engine_s, c.xsltproc_s, total_s);
}

schema::CompiledSchema MustLoadSchema(const std::string& name) {
  absl::StatusOr<schema::CompiledSchema> s =
      schema::CompiledSchema::FromFile(std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/" + name);
  EXPECT_TRUE(s.ok()) << s.status();
  return *std::move(s);
}

class XsltDifferentialTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(HaveXsltproc()) << kInstallHint;
    ASSERT_FALSE(dir_.path().empty()) << "cannot create a temporary directory";
  }
  TempDir dir_;
};

TEST_F(XsltDifferentialTest, SwdeBooksamillionLearntRules) {
  const fs::path pages = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/book/booksamillion";
  const fs::path truth = fs::path(VERTEX_SHARED_DATA_DIR) / "swde/groundtruth/book";
  if (!fs::is_directory(pages) || !fs::is_directory(truth)) {
    GTEST_SKIP() << "SWDE data not found at " << pages << " and " << truth;
  }
  const Clock::time_point t = Clock::now();
  const schema::CompiledSchema schema = MustLoadSchema("book.json");
  absl::StatusOr<Site> site = ClusterPages(pages.string());
  ASSERT_TRUE(site.ok()) << site.status();
  absl::StatusOr<std::vector<ClusterRule>> rules = LearnRules(*site, schema, truth.string(), "booksamillion");
  ASSERT_TRUE(rules.ok()) << rules.status();
  ASSERT_FALSE(rules->empty());
  const DiffCount count = CompareLearnt(*site, *rules, schema, dir_.path());
  PrintCount("booksamillion", rules->size(), count, Since(t));
  EXPECT_GE(count.pages, 1900u);
  EXPECT_GE(count.values, 5000u);
  EXPECT_EQ(count.mismatches, 0u);
}

TEST_F(XsltDifferentialTest, DemoSiteLearntRules) {
  const Clock::time_point t = Clock::now();
  const std::string site_dir = dir_.path() + "/site";
  ASSERT_TRUE(demo::WriteSite(demo::GenerateSite({}), site_dir).ok());
  absl::StatusOr<Site> site = ClusterPages(site_dir);
  ASSERT_TRUE(site.ok()) << site.status();
  for (const auto& [vertical, schema_file] : {std::pair{"product", "product.json"}, {"business", "business.json"}}) {
    const schema::CompiledSchema schema = MustLoadSchema(schema_file);
    absl::StatusOr<std::vector<ClusterRule>> rules =
        LearnRules(*site, schema, site_dir + "/groundtruth/" + vertical, "vertexdemo");
    ASSERT_TRUE(rules.ok()) << rules.status();
    ASSERT_FALSE(rules->empty()) << vertical;
    const DiffCount count = CompareLearnt(*site, *rules, schema, dir_.path() + "/" + vertical, kDemoPagesPerRule);
    PrintCount(std::string("demo ") + vertical, rules->size(), count, Since(t));
    EXPECT_GE(count.pages, 100u) << vertical;
    EXPECT_GE(count.values, 500u) << vertical;
    EXPECT_EQ(count.mismatches, 0u) << vertical;
  }
}

// ---- hand-written rules ----

std::vector<html::Page> ParsePages(const std::vector<std::string>& htmls) {
  html::Parser parser;
  std::vector<html::Page> pages;
  for (size_t i = 0; i < htmls.size(); ++i) {
    absl::StatusOr<html::Page> page = parser.Parse(htmls[i], absl::StrCat("http://hand.test/", i));
    EXPECT_TRUE(page.ok()) << page.status();
    if (page.ok()) pages.push_back(*std::move(page));
  }
  return pages;
}

std::vector<const html::Page*> Pointers(const std::vector<html::Page>& pages) {
  std::vector<const html::Page*> out;
  for (const html::Page& p : pages) out.push_back(&p);
  return out;
}

using test_support::XPathAttributeRule;

// Divs holding 0..12 words separated by assorted whitespace (tabs, line
// breaks, runs, U+00A0), in the order of `counts`.
std::string WordsPage(const std::vector<int>& counts) {
  const char* kWords[] = {"one",  "Two",   "caf\xC3\xA9", "\xE6\x97\xA5\xE6\x9C\xAC",
                          "five", "$6.99", "a&amp;b",     "8",
                          "nine", "ten",   "eleven",      "12"};
  const char* kSeparators[] = {" ", "\t", "\n  ", "&nbsp;", " &nbsp; ", "\xC2\xA0"};
  std::string html = "<html><body>";
  for (int n : counts) {
    html += "<div class='w'>&nbsp;";
    for (int i = 0; i < n; ++i) html += std::string(kWords[i]) + kSeparators[(i + n) % 6];
    html += "</div>\n";
  }
  return html + "</body></html>";
}

// Every TextRange form (skip_start, skip_end, length, anchor_end, negative
// skips), single- and multi-valued, on texts of 0 to 12 words.
TEST_F(XsltDifferentialTest, TextRangesOnEveryWordCount) {
  v1::Schema proto;
  proto.set_vertical("ranges");
  v1::Rule rule;
  rule.set_cluster_id("ranges");
  for (int start : {0, 1, 2, -1}) {
    for (int end : {0, 1, 3}) {
      for (int length : {0, 1, 2, 5}) {
        for (bool anchor : {false, true}) {
          for (bool multi : {false, true}) {
            const std::string name = absl::StrCat("r_", start < 0 ? "n" : "", std::abs(start), "_", end, "_", length,
                                                  anchor ? "_a" : "_f", multi ? "_m" : "_s");
            proto.add_attributes()->set_name(name);
            v1::AttributeRule a = XPathAttributeRule(name, "//div[@class='w']", multi);
            a.mutable_range()->set_skip_start(start);
            a.mutable_range()->set_skip_end(end);
            a.mutable_range()->set_length(length);
            a.mutable_range()->set_anchor_end(anchor);
            *rule.add_attributes() = a;
          }
        }
      }
    }
  }
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(proto);
  ASSERT_TRUE(schema.ok()) << schema.status();
  const std::vector<html::Page> pages =
      ParsePages({WordsPage({0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}),
                  WordsPage({12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}), WordsPage({0}), WordsPage({3, 0, 7})});
  DiffCount count;
  Differential(rule, *schema, Pointers(pages), dir_.path(), &count);
  EXPECT_EQ(count.pages, 4u);
  EXPECT_GE(count.values, 500u);
  EXPECT_EQ(count.mismatches, 0u);
}

constexpr char kHandSchema[] = R"json({"vertical": "hand", "attributes": [
  {"name": "price", "type": "price"},
  {"name": "authors", "multi_valued": true},
  {"name": "isbn", "type": "isbn"},
  {"name": "by"},
  {"name": "texts", "multi_valued": true},
  {"name": "weight"},
  {"name": "nested"},
  {"name": "nbsp"},
  {"name": "scripts", "multi_valued": true},
  {"name": "picked"},
  {"name": "links", "multi_valued": true},
  {"name": "last_item"},
  {"name": "absent"},
  {"name": "unruled"}]})json";

std::string HandPage(int variant) {
  const std::string v = absl::StrCat(variant);
  return absl::StrCat(
      "<html><head><title>Hand ", v, "</title><script>var s = \"<b>Price</b> & more\"; if (a < b) {}</script>",
      "<style>.price > b { color: red }</style></head><body>", "<div class='price'>Our Price:&nbsp;$", 20 + variant,
      ".99 (save 10%)</div>", "<ul class='authors'><li>Jane&nbsp;Doe</li><li>  John \t  Smith ", v,
      "</li><li> &nbsp; </li>", variant % 2 ? "<li>Third Author</li>" : "", "</ul>",
      "<p>No number here</p><p id='isbn'>ISBN-13: 978031612558", variant % 10, " (paperback)</p>",
      "<span class='by'>By: Adam Smith", variant == 2 ? "" : " and Friends", "</span>",
      "<div id='mixed'>first <b>bold</b>\n <script>var hidden = 1;</script> <i> </i> last ", v,
      "<noscript>enable js</noscript><style>p{}</style></div>", "<p class='label'>Weight:</p><p>", 10 + variant,
      " kg</p>", "<p class='label'>Size (cm):</p><p>", 3 * variant, " x 4</p>",
      "<table><tr><td id='nb'>\xC2\xA0\xC2\xA0 A&nbsp;&nbsp;B", variant == 1 ? "" : " C", "&nbsp;</td></tr></table>",
      "<div class='pick'>picked ", v, "</div><div>not picked</div>",
      "<a href='/a?x=1&amp;y=\"2\"'>Link &lt;one&gt;</a><a href='/b'> </a><a href='/c'>three</a>",
      "<ol><li>i1</li><li>i2</li>", variant % 3 ? "<li>i3</li>" : "", "</ol>", "</body></html>");
}

v1::Rule HandRule() {
  v1::Rule rule;
  rule.set_site("hand.test");
  rule.set_cluster_id("c7");
  rule.set_version(3);
  *rule.add_attributes() = XPathAttributeRule("price", "//div[@class='price']");
  *rule.add_attributes() = XPathAttributeRule("authors", "//ul[@class='authors']/li", true);
  *rule.add_attributes() = XPathAttributeRule("isbn", "//p");  // the first <p> has no ISBN: the regex skips it
  v1::AttributeRule by = XPathAttributeRule("by", "//span[@class='by']/text()");
  by.mutable_range()->set_skip_start(1);
  *rule.add_attributes() = by;
  *rule.add_attributes() = XPathAttributeRule("texts", "//div[@id='mixed']//text()", true);
  *rule.add_attributes() = XPathAttributeRule("weight", "//p[ends-with(normalize-space(.), ':')]/following-sibling::p[1]");
  *rule.add_attributes() =
      XPathAttributeRule("nested",
                "//p[ends-with ( concat('(', normalize-space(substring-before(concat(., ')'), ')')), ')'),"
                " concat('m', ')') )][ends-with(preceding-sibling::p[1], '(cm):')]");
  v1::AttributeRule nbsp = XPathAttributeRule("nbsp", "//td[@id='nb']");
  nbsp.mutable_range()->set_skip_end(1);
  nbsp.mutable_range()->set_length(1);
  nbsp.mutable_range()->set_anchor_end(true);
  *rule.add_attributes() = nbsp;
  *rule.add_attributes() = XPathAttributeRule("scripts", "//script | //script/text() | //noscript | //style/text()", true);
  v1::AttributeRule picked = XPathAttributeRule("picked", "//div");
  picked.set_method(v1::AttributeRule::CLASSIFIER);
  picked.mutable_classifier()->set_log_prior_pos(-1.0);
  picked.mutable_classifier()->set_log_prior_neg(-0.5);
  v1::ClassifierFeature* f = picked.mutable_classifier()->add_features();
  f->set_test("self::*[@class='pick']");
  f->set_log_present_pos(-0.01);
  f->set_log_absent_pos(-5);
  f->set_log_present_neg(-5);
  f->set_log_absent_neg(-0.01);
  *rule.add_attributes() = picked;
  *rule.add_attributes() = XPathAttributeRule("links", "//a/@href | //a", true);
  *rule.add_attributes() = XPathAttributeRule("last_item", "(//ol/li)[last()]");
  *rule.add_attributes() = XPathAttributeRule("absent", "//table[@id='none']/tr");
  return rule;
}

// Ranges, U+00A0, script/style/noscript text, blank nodes, multi-valued
// attributes, attribute nodes, ends-with (nested parentheses, spaces before
// the parenthesis), a single-valued attribute whose first node fails the
// regex, a CLASSIFIER attribute and an attribute without a rule.
TEST_F(XsltDifferentialTest, HandWrittenRules) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kHandSchema, "hand schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  std::vector<std::string> htmls;
  for (int v = 0; v < 6; ++v) htmls.push_back(HandPage(v));
  const std::vector<html::Page> pages = ParsePages(htmls);
  const v1::Rule rule = HandRule();
  DiffCount count;
  Differential(rule, *schema, Pointers(pages), dir_.path(), &count);
  EXPECT_EQ(count.pages, 6u);
  EXPECT_GE(count.values, 6u * 15);
  EXPECT_EQ(count.mismatches, 0u);

  // The engine's values on page 0, which the differential run matched.
  absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(rule, *schema);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  absl::StatusOr<std::vector<AttributeResult>> r = compiled->Apply(pages[0]);
  ASSERT_TRUE(r.ok()) << r.status();
  const auto values = [&](const std::string& name) { return (*r)[schema->Find(name)].values; };
  EXPECT_EQ(values("price"), std::vector<std::string>{"$20.99"});
  EXPECT_EQ(values("authors"), (std::vector<std::string>{"Jane Doe", "John Smith 0"}));
  EXPECT_EQ(values("isbn"), std::vector<std::string>{"9780316125580"});
  EXPECT_EQ(values("by"), std::vector<std::string>{"Adam Smith and Friends"});
  EXPECT_EQ(values("texts"), (std::vector<std::string>{"first", "bold", "last 0"}));
  EXPECT_EQ(values("weight"), std::vector<std::string>{"10 kg"});
  EXPECT_EQ(values("nbsp"), std::vector<std::string>{"B"});
  EXPECT_EQ(values("links"), (std::vector<std::string>{"Link <one>", "three"}));
  EXPECT_EQ(values("last_item"), std::vector<std::string>{"i2"});
  EXPECT_TRUE(values("absent").empty());
}

// ---- record-level rules ----

constexpr char kListSchema[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true},
  {"name": "link", "type": "url"},
  {"name": "beds"},
  {"name": "tags", "multi_valued": true},
  {"name": "agent"}]})";

// List page `v`: one or two data areas of <li> records (some without a
// price or with an ad between them), relative and absolute links, a <base>
// on odd pages, and a <dl> of two-element records (dt + dd).
std::string ListPage(int v) {
  std::string html = "<html><head>";
  if (v % 2 == 1) html += "<base href=\"http://cdn.test/b/\">";
  html += "</head><body><h1>Results</h1>";
  const int areas = 1 + v % 2;
  int n = 0;
  for (int a = 0; a < areas; ++a) {
    html += "<ul class=\"results\">";
    for (int i = 0; i < 2 + (v + a) % 4; ++i, ++n) {
      html += absl::StrCat("<li><h3><a href=\"", n % 3 == 0 ? "/flat/" : "flat", n, "\">Flat  ", n, "</a></h3>");
      if ((n + v) % 4 != 1) html += absl::StrCat("<span class=\"price\">&#163;", 100 * (n + 1), " pcm</span>");
      html += absl::StrCat("<p>", 1 + n % 3, " bed flat to let</p><ul class=\"tags\"><li>garden</li>",
                           n % 2 ? "<li>parking</li>" : "", "</ul></li>");
      if (i == 1) html += "<li class=\"ad\">Advert</li>";
    }
    html += "</ul>";
  }
  html += "<dl>";
  for (int i = 0; i < 1 + v % 3; ++i) {
    html += absl::StrCat("<dt>House ", i, "</dt><dd><b>Agent ", v, "-", i, "</b></dd>");
  }
  return html + "<dt>Trailing</dt></dl></body></html>";
}

v1::Rule RecordRuleOf(const std::string& cluster, const std::string& xpath, int length,
                      const std::vector<v1::AttributeRule>& parts) {
  v1::Rule rule;
  rule.set_site("homes");
  rule.set_cluster_id(cluster);
  rule.set_version(2);
  rule.mutable_record()->set_record_xpath(xpath);
  rule.mutable_record()->set_record_length(length);
  for (const v1::AttributeRule& p : parts) *rule.mutable_record()->add_attributes() = p;
  return rule;
}

// xsltproc's records of one page: the <record> elements of the <list>.
absl::StatusOr<std::vector<XsltRecord>> XsltListRecords(const std::string& stylesheet, const std::string& file) {
  VERTEX_ASSIGN_OR_RETURN(std::string out, RunCommand("xsltproc --nonet '" + stylesheet + "' '" + file + "'"));
  if (out.find("<list ") == std::string::npos) return absl::InternalError("no <list> in: " + out);
  return ParseRecords(out);
}

// Runs the record-level `rule` on `pages` with the engine and with
// xsltproc; the records must agree in number, index, data area and values.
void RecordDifferential(const v1::Rule& rule, const schema::CompiledSchema& schema,
                        const std::vector<const html::Page*>& pages, const std::string& dir, DiffCount* count,
                        size_t* records) {
  absl::StatusOr<std::string> xsl = ExportXslt(rule, schema);
  ASSERT_TRUE(xsl.ok()) << xsl.status();
  const std::string stylesheet = absl::StrCat(dir, "/", rule.cluster_id(), ".xsl");
  ASSERT_TRUE(util::WriteFile(stylesheet, *xsl).ok());
  absl::StatusOr<CompiledRule> compiled = CompiledRule::Create(rule, schema);
  ASSERT_TRUE(compiled.ok()) << compiled.status();
  for (size_t k = 0; k < pages.size(); ++k) {
    absl::StatusOr<std::string> xhtml = html::SerializeXhtml(*pages[k]);
    ASSERT_TRUE(xhtml.ok()) << xhtml.status();
    const std::string file = absl::StrCat(dir, "/", rule.cluster_id(), "-", k, ".xhtml");
    ASSERT_TRUE(util::WriteFile(file, *xhtml).ok());
    absl::StatusOr<ListResult> engine = compiled->ApplyRecords(*pages[k]);
    ASSERT_TRUE(engine.ok()) << engine.status();
    absl::StatusOr<std::vector<XsltRecord>> xslt = XsltListRecords(stylesheet, file);
    ASSERT_TRUE(xslt.ok()) << xslt.status() << "\nstylesheet:\n" << *xsl;
    ASSERT_EQ(xslt->size(), engine->records.size()) << pages[k]->url();
    for (size_t i = 0; i < xslt->size(); ++i) {
      const ListRecordResult& e = engine->records[i];
      const XsltRecord& x = (*xslt)[i];
      EXPECT_EQ(x.tag.at("index"), absl::StrCat(e.index)) << pages[k]->url();
      EXPECT_EQ(x.tag.at("data-area"), absl::StrCat(e.data_area)) << pages[k]->url() << " record " << i;
      ASSERT_EQ(x.attributes.size(), schema.size());
      for (size_t a = 0; a < schema.size(); ++a) {
        CompareAttribute(e.attributes[a], x.attributes[a], rule, schema, a,
                         absl::StrCat(pages[k]->url(), " record ", i), count);
      }
      ++*records;
    }
    ++count->pages;
  }
}

// Record-level rules: one <li> per record (relative and absolute links
// resolved against <base>, ranges, multi-valued tags, a price missing in
// some records, ads selected as records too) and two-element records whose
// attributes reach the tail by following-sibling (a short last record).
TEST_F(XsltDifferentialTest, RecordLevelRules) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kListSchema, "list schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  std::vector<std::string> htmls;
  for (int v = 0; v < 6; ++v) htmls.push_back(ListPage(v));
  const std::vector<html::Page> pages = ParsePages(htmls);
  v1::AttributeRule link = XPathAttributeRule("link", "h3/a");
  link.set_value_attribute("href");
  v1::AttributeRule beds = XPathAttributeRule("beds", "p/text()");
  beds.mutable_range()->set_length(1);
  const v1::Rule items = RecordRuleOf("items", "//ul[@class='results']/li", 1,
                                      {XPathAttributeRule("title", "h3/a/text()"),
                                       XPathAttributeRule("price", "span[@class='price']/text()"), link, beds,
                                       XPathAttributeRule("tags", "ul[@class='tags']/li/text()", true)});
  const v1::Rule pairs = RecordRuleOf("pairs", "//dl/dt", 2,
                                      {XPathAttributeRule("title", "text()"),
                                       XPathAttributeRule("agent", "following-sibling::*[1][self::dd]/b")});
  DiffCount count;
  size_t records = 0;
  RecordDifferential(items, *schema, Pointers(pages), dir_.path(), &count, &records);
  RecordDifferential(pairs, *schema, Pointers(pages), dir_.path(), &count, &records);
  EXPECT_EQ(count.pages, 12u);
  EXPECT_GE(records, 40u);
  EXPECT_GE(count.values, 100u);
  EXPECT_EQ(count.mismatches, 0u);
  PrintCount("record-level rules", 2, count, 0);
  std::printf("record-level rules: %zu records compared\n", records);
}

TEST(ExportXslt, RecordRuleIsAForEachOverTheStarts) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kListSchema, "list schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  const v1::Rule rule = RecordRuleOf("c9", "//li[ends-with(@id, 'x')]", 3, {XPathAttributeRule("title", "h3")});
  absl::StatusOr<std::string> xsl = ExportXslt(rule, *schema);
  ASSERT_TRUE(xsl.ok()) << xsl.status();
  EXPECT_NE(xsl->find("<list site=\"homes\" cluster=\"c9\" version=\"2\" length=\"3\">"), std::string::npos) << *xsl;
  EXPECT_NE(xsl->find("<xsl:for-each select=\"(//li[(substring(string(@id)"), std::string::npos) << *xsl;
  EXPECT_NE(xsl->find("[position() &lt;= 10000]"), std::string::npos) << *xsl;
  EXPECT_EQ(xsl->find("<record site="), std::string::npos) << *xsl;
  // A record XPath that cannot be rewritten names the cluster.
  const absl::Status bad = ExportXslt(RecordRuleOf("c9", "//li[ends-with(@id)]", 1, {}), *schema).status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument) << bad;
}

// ---- RewriteEndsWith ----

std::string Equivalent(const std::string& a, const std::string& b) {
  return "(substring(string(" + a + "), string-length(string(" + a + ")) - string-length(string(" + b +
         ")) + 1) = string(" + b + "))";
}

TEST(RewriteEndsWith, Table) {
  const struct {
    std::string xpath, want;
  } kCases[] = {
      {"//a", "//a"},
      {"//a[ends-with(@href, '.pdf')]", "//a[" + Equivalent("@href", "'.pdf'") + "]"},
      {"//a[ends-with (@href,'.pdf')]", "//a[" + Equivalent("@href", "'.pdf'") + "]"},
      {"//p[ends-with(concat('(', substring(., 1, 2), ')'), \"x)\")]",
       "//p[" + Equivalent("concat('(', substring(., 1, 2), ')')", "\"x)\"") + "]"},
      {"//p[ends-with(ends-with(., 'a'), 'true')]", "//p[" + Equivalent(Equivalent(".", "'a'"), "'true'") + "]"},
      {"//p[ends-with(//x[ends-with(@c, ',')], ')')]",
       "//p[" + Equivalent("//x[" + Equivalent("@c", "','") + "]", "')'") + "]"},
      {"//p[.='ends-with(x, y)']", "//p[.='ends-with(x, y)']"},
      {"//p[x-ends-with(a, b)]", "//p[x-ends-with(a, b)]"},
      {"//ends-with/p", "//ends-with/p"},
      {"//p[ends-with(.,'a') or ends-with(.,'b')]",
       "//p[" + Equivalent(".", "'a'") + " or " + Equivalent(".", "'b'") + "]"},
  };
  for (const auto& c : kCases) {
    absl::StatusOr<std::string> got = RewriteEndsWith(c.xpath);
    ASSERT_TRUE(got.ok()) << c.xpath << ": " << got.status();
    EXPECT_EQ(*got, c.want) << c.xpath;
  }
}

TEST(RewriteEndsWith, RejectsMalformedCalls) {
  const char* kCases[] = {
      "//p[ends-with(.)]",
      "//p[ends-with(., 'a', 'b')]",
      "//p[ends-with(., 'a]",
      "//p[ends-with(., concat('a', 'b')]",
      "//p[ends-with(, 'a')]",
      "//p[ends-with(., )]",
      "//p[ends-with(ends-with(ends-with(ends-with(ends-with(ends-with(ends-with(ends-with(ends-with(.,"
      "'a'),'b'),'c'),'d'),'e'),'f'),'g'),'h'),'i')]",
  };
  for (const char* xpath : kCases) {
    absl::StatusOr<std::string> got = RewriteEndsWith(xpath);
    EXPECT_EQ(got.status().code(), absl::StatusCode::kInvalidArgument) << xpath;
    EXPECT_NE(got.status().message().find(xpath), std::string::npos) << got.status();
  }
}

// The rewrite gives what the engine's ends-with gives, on strings, node-sets
// and numbers.
TEST(RewriteEndsWith, AgreesWithTheEngine) {
  html::Parser parser;
  absl::StatusOr<html::Page> page =
      parser.Parse("<p>caf\xC3\xA9 au lait</p><p>second</p><b></b>", "http://hand.test/ends-with");
  ASSERT_TRUE(page.ok()) << page.status();
  const char* kCalls[] = {
      "ends-with('abc', 'bc')",
      "ends-with('abc', 'abc')",
      "ends-with('abc', '')",
      "ends-with('', '')",
      "ends-with('bc', 'abc')",
      "ends-with('abc', 'ab')",
      "ends-with('h\xC3\xA9llo', 'llo')",
      "ends-with('\xE6\x97\xA5\xE6\x9C\xAC', '\xE6\x9C\xAC')",
      "ends-with('aa', 'a')",
      "ends-with(//p, 'lait')",
      "ends-with(//p, 'second')",
      "ends-with(//nothing, '')",
      "ends-with(//p, //p[2])",
      "ends-with(12.50, '.5')",
      "ends-with(//p, '\xC3\xA9 au lait')",
      "ends-with(//b, '')",
      "ends-with('x', //nothing)",
  };
  for (const char* call : kCalls) {
    absl::StatusOr<html::XPath> engine = html::XPath::Compile(call);
    ASSERT_TRUE(engine.ok()) << engine.status();
    absl::StatusOr<std::string> rewritten = RewriteEndsWith(call);
    ASSERT_TRUE(rewritten.ok()) << rewritten.status();
    absl::StatusOr<html::XPath> xpath10 = html::XPath::Compile(*rewritten);
    ASSERT_TRUE(xpath10.ok()) << xpath10.status();
    absl::StatusOr<bool> want = engine->EvaluateBoolean(*page);
    absl::StatusOr<bool> got = xpath10->EvaluateBoolean(*page);
    ASSERT_TRUE(want.ok() && got.ok()) << call;
    EXPECT_EQ(*got, *want) << call << " rewritten " << *rewritten;
  }
}

// ---- ExportXslt errors and format ----

TEST(ExportXslt, ErrorsNameTheAttribute) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kHandSchema, "hand schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  const struct {
    v1::AttributeRule rule;
    std::string attribute;
  } kCases[] = {
      {XPathAttributeRule("nosuch", "//p"), "nosuch"},
      {XPathAttributeRule("price", "//p[ends-with(., 'a', 'b')]"), "price"},
      {XPathAttributeRule("weight", "//p[ends-with(.)]"), "weight"},
      {XPathAttributeRule("authors", "//p[", true), "authors"},
      {XPathAttributeRule("isbn", "//p[.='a\x01']"), "isbn"},
  };
  for (const auto& c : kCases) {
    v1::Rule rule;
    *rule.add_attributes() = c.rule;
    absl::StatusOr<std::string> xsl = ExportXslt(rule, *schema);
    EXPECT_EQ(xsl.status().code(), absl::StatusCode::kInvalidArgument) << c.rule.xpath();
    EXPECT_NE(xsl.status().message().find("\"" + c.attribute + "\""), std::string::npos) << xsl.status();
  }
  v1::Rule unspecified;
  *unspecified.add_attributes() = XPathAttributeRule("by", "//p");
  unspecified.mutable_attributes(0)->set_method(v1::AttributeRule::METHOD_UNSPECIFIED);
  EXPECT_EQ(ExportXslt(unspecified, *schema).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(ExportXslt, ListsEveryAttributeInSchemaOrder) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(kHandSchema, "hand schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  absl::StatusOr<std::string> xsl = ExportXslt(HandRule(), *schema);
  ASSERT_TRUE(xsl.ok()) << xsl.status();
  EXPECT_EQ(xsl->rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>", 0), 0u);
  EXPECT_NE(xsl->find("<record site=\"hand.test\" cluster=\"c7\" version=\"3\">"), std::string::npos);
  EXPECT_NE(xsl->find("<attribute name=\"picked\" exported=\"false\" reason=\"classifier\"/>"), std::string::npos);
  EXPECT_NE(xsl->find("<attribute name=\"unruled\" exported=\"false\" reason=\"no-rule\"/>"), std::string::npos);
  EXPECT_EQ(xsl->find("ends-with("), std::string::npos) << "ends-with left in the stylesheet";
  size_t last = 0;
  for (size_t i = 0; i < schema->size(); ++i) {
    const size_t at = xsl->find("<attribute name=\"" + schema->attribute(i).name() + "\"");
    ASSERT_NE(at, std::string::npos) << schema->attribute(i).name();
    EXPECT_GT(at, last) << schema->attribute(i).name();
    last = at;
  }
}

// The value model's fields: an attribute value is read as @name (URLs marked
// for the consumer to resolve); selections XSLT 1.0 is not given are left
// out with their reason. (The engine's side of these is checked where the
// value model is: the differential tests above run on learnt rules.)
TEST(ExportXslt, ValueModelFields) {
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromJson(
      R"json({"vertical": "v", "attributes": [{"name": "link", "type": "url"}, {"name": "when"},
              {"name": "authors", "multi_valued": true}]})json",
      "value schema");
  ASSERT_TRUE(schema.ok()) << schema.status();
  const auto with = [](v1::AttributeRule a, const std::function<void(v1::AttributeRule*)>& set) {
    set(&a);
    return a;
  };
  const struct {
    std::string name;
    v1::AttributeRule rule;
    std::vector<std::string> want;  // substrings of the stylesheet
  } kCases[] = {
      {"href, resolved", with(XPathAttributeRule("link", "//a[@class='buy']"),
                              [](v1::AttributeRule* a) { a->set_value_attribute("href"); }),
       {"<attribute name=\"link\" multi-valued=\"false\"", "resolve=\"url\" page-url=\"{$page-url}\"",
        "base=\"{string((//base[@href])[1]/@href)}\"", "/@href)"}},
      {"datetime, not a URL", with(XPathAttributeRule("when", "//time"),
                                   [](v1::AttributeRule* a) { a->set_value_attribute("datetime"); }),
       {"/@datetime)"}},
      {"JSON-LD", with(XPathAttributeRule("when", "//script"), [](v1::AttributeRule* a) { a->set_json_path("date"); }),
       {"<attribute name=\"when\" exported=\"false\" reason=\"json-path\"/>"}},
      {"nearest match", with(XPathAttributeRule("when", "//p"),
                             [](v1::AttributeRule* a) { a->mutable_range()->set_nearest_match(true); }),
       {"reason=\"nearest-match\""}},
      {"split", with(XPathAttributeRule("authors", "//p", true),
                     [](v1::AttributeRule* a) { a->mutable_split()->add_separators(","); }),
       {"<attribute name=\"authors\" exported=\"false\" reason=\"split\"/>"}},
      {"character range", with(XPathAttributeRule("when", "//p"),
                               [](v1::AttributeRule* a) { a->mutable_range()->set_unit(v1::TextRange::CHARACTERS); }),
       {"reason=\"character-range\""}},
      {"srcset", with(XPathAttributeRule("link", "//img"), [](v1::AttributeRule* a) { a->set_value_attribute("srcset"); }),
       {"reason=\"srcset\""}},
  };
  for (const auto& c : kCases) {
    v1::Rule rule;
    *rule.add_attributes() = c.rule;
    absl::StatusOr<std::string> xsl = ExportXslt(rule, *schema);
    ASSERT_TRUE(xsl.ok()) << c.name << ": " << xsl.status();
    for (const std::string& w : c.want) EXPECT_NE(xsl->find(w), std::string::npos) << c.name << ": " << w << "\n" << *xsl;
    const bool left_out = c.want[0].find("reason=") != std::string::npos;
    EXPECT_EQ(!XsltUnexportedReason(c.rule).empty(), left_out)
        << c.name;
  }
  v1::AttributeRule bad = XPathAttributeRule("when", "//p");
  bad.set_value_attribute("a b");
  v1::Rule rule;
  *rule.add_attributes() = bad;
  EXPECT_EQ(ExportXslt(rule, *schema).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::extract
