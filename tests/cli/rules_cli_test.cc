// Runs vertexctl learn / extract / rules / site / tasks / eval-swde offline
// (--store) as a user would, on a generated demo site, checks the errors bad
// input gets, and that extract prints what the library computes.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/eval/score.h"
#include "common/extract/record_export.h"
#include "common/extract/site_extractor.h"
#include "common/schema/schema.h"
#include "common/site/page_file.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "common/workflow/batch_extract.h"
#include "common/workflow/site_store.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

struct Result {
  int exit_code;
  std::string out, err;
};

// Runs `command` in the shell, stderr kept apart.
Result Shell(const std::string& command) {
  const std::string err_file = (fs::temp_directory_path() / ("rules_cli_err_" + std::to_string(getpid()))).string();
  FILE* p = popen((command + " 2>" + err_file).c_str(), "r");
  Result r;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = util::ReadFile(err_file).value_or("");
  return r;
}

Result Vertexctl(const std::string& args) { return Shell(std::string(VERTEXCTL_PATH) + " " + args); }

google::protobuf::Struct ParseJson(const std::string& json) {
  google::protobuf::Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &s).ok()) << json.substr(0, 300);
  return s;
}

std::string Tmp(const std::string& name) {
  return (fs::temp_directory_path() / (name + "_" + std::to_string(getpid()))).string();
}

// A small demo site and annotations of two product pages from its truth.
struct Site {
  std::string dir, annotations;
  eval::GroundTruth truth;
};

const Site& DemoSite() {
  static const Site site = [] {
    Site s;
    s.dir = Tmp("rules_cli_demo");
    fs::remove_all(s.dir);
    const Result r = Vertexctl("gen-demo --out " + s.dir + " --products 120 --categories 40 --reviews 30 --stores 30");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    s.truth = eval::LoadGroundTruth(s.dir + "/groundtruth/product", "vertexdemo").value();
    std::vector<std::string> ids;
    for (const auto& [id, attrs] : s.truth.pages) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    std::string lines;
    for (size_t i = 0; i < 2; ++i) {
      for (const auto& [attr, values] : s.truth.pages.at(ids[i])) {
        for (const std::string& v : values) {
          lines += "{\"file\": \"" + ids[i] + ".htm\", \"attribute\": \"" + attr + "\", \"value\": \"" + v + "\"}\n";
        }
      }
    }
    s.annotations = s.dir + "/../" + fs::path(s.dir).filename().string() + ".jsonl";
    EXPECT_TRUE(util::WriteFile(s.annotations, lines).ok());
    return s;
  }();
  return site;
}

std::string LearnArgs(const std::string& store, const std::string& annotations) {
  return "learn --store " + store + " --site demo --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json" +
         " --annotations " + annotations + " --sample " + DemoSite().dir;
}

// Pages extraction must refuse or cannot match, in a directory.
std::string BadPages() {
  const std::string bad = Tmp("rules_cli_bad_pages");
  fs::remove_all(bad);
  fs::create_directories(bad);
  const std::string base = "<base href=\"http://shop.vertex-demo.test/p/x-1.html\"/>\n";
  std::string deep = base;
  for (int i = 0; i < 100000; ++i) deep += "<div>";
  EXPECT_TRUE(util::WriteFile(bad + "/a_empty.htm", "").ok());
  EXPECT_TRUE(util::WriteFile(bad + "/b_binary.htm", base + "\xff\xfe<html>\x80\x81<body>x</body></html>").ok());
  EXPECT_TRUE(util::WriteFile(bad + "/c_deep.htm", deep).ok());
  EXPECT_TRUE(util::WriteFile(bad + "/d_local.htm", "<html><body><p>no base href</p></body></html>").ok());
  return bad;
}

TEST(RulesCli, LearnExtractAndExport) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_store");
  fs::remove_all(store);
  Result r = Vertexctl(LearnArgs(store, site.annotations));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::Struct learnt = ParseJson(r.out);
  EXPECT_EQ(learnt.fields().at("site").string_value(), "demo");
  const auto& clusters = learnt.fields().at("clusters").list_value().values();
  EXPECT_EQ(clusters.size(), 4u);
  int with_rule = 0;
  for (const auto& c : clusters) with_rule += c.struct_value().fields().at("current_version").string_value() != "0";
  EXPECT_EQ(with_rule, 1) << r.out.substr(0, 500);
  const auto& calls = learnt.fields().at("learnt").list_value().values();
  ASSERT_EQ(calls.size(), 1u);  // one cluster has annotated pages
  const auto& call = calls[0].struct_value().fields();
  const std::string cluster = call.at("cluster_id").string_value();
  EXPECT_EQ(call.at("version").string_value(), "1");
  EXPECT_EQ(call.at("rule").struct_value().fields().at("cluster_id").string_value(), cluster);
  for (const auto& d : call.at("diagnostics").list_value().values()) {
    const std::string attribute = d.struct_value().fields().at("attribute").string_value();
    EXPECT_TRUE(d.struct_value().fields().at("learnt").bool_value()) << attribute << " " << r.out.substr(0, 2000);
  }
  EXPECT_EQ(call.at("annotated_urls").list_value().values().size(), 2u);
  EXPECT_FALSE(call.at("preview").list_value().values().empty());
  // The other templates need annotation: Algorithm 2's picks, by URL.
  EXPECT_NE(r.out.find("\"needs_annotation\":[{\"site\":\"demo\",\"cluster_id\":\""), std::string::npos);
  EXPECT_NE(r.out.find("Algorithm 2 pick 1"), std::string::npos);
  EXPECT_NE(r.out.find("\"unassigned_pages\":0,\"errors\":[]}"), std::string::npos);

  r = Vertexctl("extract --store " + store + " --site demo " + site.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  eval::Scorer scorer;
  std::map<std::string, int> statuses;
  for (size_t start = 0, end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const google::protobuf::Struct line = ParseJson(r.out.substr(start, end - start));
    ++statuses[line.fields().at("status").string_value()];
    auto page = site.truth.pages.find(eval::PageIdOfFile(line.fields().at("file").string_value()));
    if (page == site.truth.pages.end()) continue;
    const auto& attrs = line.fields().at("attributes").struct_value().fields();
    for (const auto& [attr, truth] : page->second) {
      std::vector<std::string> got;
      if (auto it = attrs.find(attr); it != attrs.end()) {
        for (const auto& v : it->second.list_value().values()) got.push_back(v.string_value());
      }
      scorer.Add(attr, got, truth);
    }
  }
  EXPECT_EQ(statuses["OK"] + statuses["PARTIAL"] + statuses["NO_SHINGLE_MATCH"], 120);
  EXPECT_EQ(statuses["NO_URL_MATCH"], 100);  // the templates without a rule
  for (const auto& [attr, s] : scorer.scores()) {
    EXPECT_GE(s.precision(), 0.98) << attr;
    EXPECT_GE(s.recall(), 0.9) << attr;
  }

  // A second learn keeps the cluster's id and adds version 2.
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  r = Vertexctl("rules list --store " + store + " --site demo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("{\"site\":\"demo\",\"vertical\":\"product\",\"clusters\":[{\"cluster\":{\"cluster_id\":\"" +
                       cluster + "\""),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"current_version\":\"2\",\"latest_version\":\"2\",\"state\":\"NEEDS_MORE_PAGES\","
                       "\"candidate_version\":\"0\",\"attached_pages\":0,\"merged_clusters\":0},"
                       "\"versions\":[\"1\",\"2\"]"),
            std::string::npos)
      << r.out;
  r = Vertexctl("rules export --store " + store + " --site demo --cluster " + cluster + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ParseJson(r.out).fields().at("version").string_value(), "2");
  r = Vertexctl("rules export --store " + store + " --site demo --cluster " + cluster + " --version 1 --format xslt");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<xsl:stylesheet"), std::string::npos);
  EXPECT_NE(r.out.find("version=\"1\""), std::string::npos);
  const std::string xsl = Tmp("rules_cli.xsl");
  ASSERT_TRUE(util::WriteFile(xsl, r.out).ok());

  // The fields export: one field per schema attribute, each with its XPath
  // or why it is left out.
  r = Vertexctl("rules export --store " + store + " --site demo --cluster " + cluster + " --format fields");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct exported_fields = ParseJson(r.out);
  const auto& fields = exported_fields.fields().at("fields").list_value().values();
  EXPECT_EQ(fields.size(), demo::ProductAttributes().size()) << r.out;  // product.json's attributes
  int exported = 0;
  for (const auto& f : fields) {
    const auto& m = f.struct_value().fields();
    EXPECT_TRUE(m.count("name")) << r.out;
    EXPECT_TRUE(m.count("xpath") != m.count("unexported")) << r.out;
    exported += m.count("xpath");
  }
  EXPECT_GE(exported, 3) << r.out;

  // vertexctl xhtml writes what xsltproc reads as XML, without --html.
  std::string page;
  for (const fs::directory_entry& e : fs::directory_iterator(site.dir)) {
    if (e.is_regular_file() && e.path().extension() == ".htm") page = e.path().string();
  }
  ASSERT_FALSE(page.empty()) << site.dir;
  const std::string xhtml = Tmp("rules_cli_page.xhtml");
  r = Vertexctl("xhtml " + page + " --out " + xhtml);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(util::ReadFile(xhtml).value().rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html", 0), 0u);
  if (std::system("command -v xsltproc >/dev/null 2>&1") == 0) {
    const std::string err = Tmp("rules_cli_xsltproc.err");
    EXPECT_EQ(std::system(("xsltproc " + xsl + " " + xhtml + " >/dev/null 2>" + err).c_str()), 0);
    EXPECT_EQ(util::ReadFile(err).value(), "");  // no parser warnings
  }
  EXPECT_EQ(Vertexctl("xhtml").exit_code, 2);
  EXPECT_EQ(Vertexctl("xhtml /no/such/page.htm").exit_code, 1);
}

TEST(RulesCli, BadInputIsAClearError) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_bad_store");
  const std::string ann = Tmp("rules_cli_bad") + ".jsonl";
  const std::string schema = Tmp("rules_cli_schema") + ".json";
  ASSERT_TRUE(
      util::WriteFile(schema, R"({"vertical": "x", "attributes": [{"name": "a", "regex": "(unclosed"}]})").ok());
  struct Case {
    std::string annotations;  // written to `ann` first, when not empty
    std::string args;
    int exit_code;
    std::string message;
  };
  const std::string learn = "learn --store " + store + " --site demo --sample " + site.dir + " --schema " +
                            VERTEX_SOURCE_DIR "/deploy/schemas/product.json --annotations ";
  const std::vector<Case> cases = {
      {"{\"file\": \"0000.htm\"", learn + ann, 2, ":1: bad annotation"},
      {"{\"file\": \"0000.htm\", \"attribute\": \"colour\", \"value\": \"red\"}", learn + ann, 2,
       ":1: unknown attribute \"colour\""},
      {"\n{\"file\": \"0000.htm\", \"attribute\": \"price\", \"xpath\": \"//span[\"}", learn + ann, 2, ":2: "},
      {"{\"file\": \"nope.htm\", \"attribute\": \"price\", \"value\": \"$1\"}", learn + ann, 2,
       "file nope.htm is not a page of the sample"},
      {"", learn + "/no/such/ann.jsonl", 1, "/no/such/ann.jsonl"},
      {"",
       "learn --store " + store + " --site demo --sample " + site.dir + " --annotations " + ann + " --schema " + schema,
       2, "invalid regex"},
      {"", "learn --site demo", 2, "give either --store DIR (offline) or --server HOST:PORT (online)"},
      {"", "learn --store " + store + " --site demo", 2, "--schema is required"},
      {"", "extract --store /no/such/store --site demo " + site.dir, 1, "/no/such/store"},
      {"", "rules export --store " + store + " --site demo --cluster c0 --format pdf", 2,
       "--format must be json, xslt or fields"},
      {"", "rules frob --store " + store + " --site demo", 2, "list, get, export, rollback, accept or reject"},
      {"", "rules get --store " + store + " --site demo", 2, "--cluster is required"},
      {"", "extract --store " + store + " " + site.dir, 2, "--site is required"},
      {"", "tasks --store /no/such/store --site demo", 1, "/no/such/store"},
      {"", "eval-swde --pages " + site.dir, 2, "--groundtruth is required"},
  };
  for (const Case& c : cases) {
    if (!c.annotations.empty()) {
      ASSERT_TRUE(util::WriteFile(ann, c.annotations).ok());
    }
    const Result r = Vertexctl(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

TEST(RulesCli, ALockedStoreAnUnknownSiteAndBadPagesAreClearErrors) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_locked");
  fs::remove_all(store);
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  Result r = Vertexctl("extract --store " + store + " --site nosuchsite " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nosuchsite"), std::string::npos) << r.err;
  {
    absl::StatusOr<std::unique_ptr<store::RuleStore>> held = store::OpenRocksDbStore(store);
    ASSERT_TRUE(held.ok()) << held.status();
    r = Vertexctl(LearnArgs(store, site.annotations));
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find(store), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("in use by another process"), std::string::npos) << r.err;
  }
  EXPECT_EQ(Vertexctl("extract --store " + store + " --site demo " + site.dir).exit_code, 0);

  // Bad pages: each gets its line, in input order; an unparseable one is an
  // ERROR naming the limit, and the exit status says so.
  const std::string bad = BadPages();
  r = Vertexctl("extract --store " + store + " --site demo " + bad);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const size_t a = r.out.find("a_empty.htm"), b = r.out.find("b_binary.htm"), c = r.out.find("c_deep.htm");
  const size_t d = r.out.find("d_local.htm");
  ASSERT_TRUE(a != std::string::npos && b != std::string::npos && c != std::string::npos && d != std::string::npos)
      << r.out;
  EXPECT_TRUE(a < b && b < c && c < d) << r.out;
  EXPECT_NE(r.out.find("\"status\":\"ERROR\",\"error\":\"INVALID_ARGUMENT: html is empty"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"status\":\"NO_URL_MATCH\""), std::string::npos) << r.out;  // file:// URL
  EXPECT_NE(r.out.find("\"status\":\"ERROR\",\"error\":\"RESOURCE_EXHAUSTED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("depth limit of 512"), std::string::npos) << r.out;
  // A page over --max-page-bytes is not even read: its line has no URL.
  r = Vertexctl("extract --store " + store + " --site demo --max-page-bytes 4000 " + bad + "/c_deep.htm");
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("\"url\":\"\",\"status\":\"ERROR\",\"error\":\"RESOURCE_EXHAUSTED"), std::string::npos) << r.out;
}

// The line the library path printed for a page it could not extract (what
// vertexctl extract printed before it went through ExtractionApi).
std::string LibraryErrorLine(const workflow::FileRecord& r) {
  util::JsonWriter w;
  w.BeginObject().Key("file").String(r.file).Key("url").String(r.url).Key("status").String("ERROR");
  w.Key("error").String(r.record.status().ToString()).EndObject();
  return w.Release();
}

// The records of `files` by the library directly: SiteExtractor over the
// store's rules, ExtractFiles, RecordToJson.
std::string LibraryOutput(const std::string& store_dir, const std::vector<std::string>& files, bool details,
                          size_t max_page_bytes, bool nearest) {
  store::StoreOptions options;
  options.create_if_missing = false;
  std::unique_ptr<store::RuleStore> store = store::OpenRocksDbStore(store_dir, options).value();
  const extract::SiteExtractor extractor = workflow::LoadSiteExtractor(*store, "demo", {.nearest = nearest}).value();
  html::ParseOptions parse;
  parse.max_page_bytes = max_page_bytes;
  std::string out;
  for (const workflow::FileRecord& r : workflow::ExtractFiles(extractor, files, parse, 2)) {
    out += (r.record.ok() ? extract::RecordToJson(*r.record, r.file, details) : LibraryErrorLine(r)) + "\n";
  }
  return out;
}

// Differential: offline extract, now through ExtractionApi (the engine),
// prints what the library computes, byte for byte, for every page but an
// empty one (which the ExtractionService contract makes an INVALID_ARGUMENT
// error; the library answered NO_URL_MATCH for its file:// URL).
TEST(RulesCli, ExtractPrintsWhatTheLibraryComputes) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_diff_store");
  fs::remove_all(store);
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  std::vector<std::string> files = site::ExpandPagePaths({site.dir}).value();
  const std::string bad = BadPages();
  for (const char* f : {"b_binary.htm", "c_deep.htm", "d_local.htm"}) files.push_back(bad + "/" + f);
  std::string args;
  for (const std::string& f : files) args += " " + f;
  struct Case {
    std::string flags;
    bool details;
    size_t max_page_bytes;
    bool nearest = true;
  };
  for (const Case& c : {Case{"", false, 8 << 20}, Case{"--details --threads 3", true, 8 << 20},
                        Case{"--max-page-bytes 30000 --threads 1", false, 30000},
                        Case{"--no-nearest --details", true, 8 << 20, false}}) {
    const Result r = Vertexctl("extract --store " + store + " --site demo " + c.flags + args);
    EXPECT_EQ(r.exit_code, 1) << c.flags << ": " << r.err;  // the bad pages
    const std::vector<std::string> got = absl::StrSplit(r.out, '\n');
    const std::vector<std::string> want =
        absl::StrSplit(LibraryOutput(store, files, c.details, c.max_page_bytes, c.nearest), '\n');
    ASSERT_EQ(got.size(), want.size()) << c.flags << ": " << r.err;
    for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], want[i]) << c.flags << ", line " << i + 1;
  }
}

// `csv_file` read by Python's csv module: its rows, each a list of cells.
std::vector<std::vector<std::string>> PythonCsvRows(const std::string& csv_file) {
  const Result r = Shell("python3 -c 'import csv, json, sys; "
                         "print(json.dumps(list(csv.reader(open(sys.argv[1], newline=\"\", encoding=\"utf-8\")))))' " +
                         csv_file);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::ListValue rows;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &rows).ok()) << r.out.substr(0, 300);
  std::vector<std::vector<std::string>> out;
  for (const auto& row : rows.values()) {
    std::vector<std::string>& cells = out.emplace_back();
    for (const auto& cell : row.list_value().values()) cells.push_back(cell.string_value());
  }
  return out;
}

// A JSON line's page field as a CSV cell: strings as they are, numbers in
// decimal, "" when absent.
std::string Cell(const google::protobuf::Struct& line, const std::string& field) {
  const auto it = line.fields().find(field);
  if (it == line.fields().end()) return "";
  if (it->second.has_number_value()) return absl::StrCat(static_cast<int64_t>(it->second.number_value()));
  return it->second.string_value();
}

TEST(RulesCli, ExtractCsvHasTheJsonLinesRecordsAndFieldsChooseColumns) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_csv_store");
  fs::remove_all(store);
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  const std::string bad = BadPages();
  const std::string pages = site.dir + " " + bad + "/c_deep.htm " + bad + "/d_local.htm";
  const Result jsonl = Vertexctl("extract --store " + store + " --site demo " + pages);
  EXPECT_EQ(jsonl.exit_code, 1) << jsonl.err;  // the page over the depth limit
  const std::string csv_file = Tmp("rules_cli_records") + ".csv";
  const Result csv = Vertexctl("extract --store " + store + " --site demo --format csv " + pages + " >" + csv_file);
  EXPECT_EQ(csv.exit_code, 1) << csv.err;
  // The columns: the page's, then the schema's attributes in schema order.
  const schema::CompiledSchema schema =
      schema::CompiledSchema::FromFile(VERTEX_SOURCE_DIR "/deploy/schemas/product.json").value();
  std::vector<std::string> header = {"file",      "url",  "status",    "cluster",         "rule_version",
                                     "matched_by", "agreement", "record", "data_area", "nearest_cluster",
                                     "nearest_rejected", "error"};
  const size_t page_columns = header.size();
  for (size_t i = 0; i < schema.size(); ++i) header.push_back(schema.attribute(i).name());
  const std::vector<std::vector<std::string>> rows = PythonCsvRows(csv_file);
  const std::vector<std::string> lines = absl::StrSplit(absl::StripSuffix(jsonl.out, "\n"), '\n');
  ASSERT_EQ(rows.size(), lines.size() + 1);
  EXPECT_EQ(rows[0], header);
  size_t multi_valued_cells = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    SCOPED_TRACE(lines[i].substr(0, 200));
    const google::protobuf::Struct line = ParseJson(lines[i]);
    const std::vector<std::string>& row = rows[i + 1];
    ASSERT_EQ(row.size(), header.size());
    for (size_t c = 0; c < page_columns; ++c) EXPECT_EQ(row[c], Cell(line, header[c])) << header[c];
    const auto attrs = line.fields().find("attributes");
    for (size_t c = page_columns; c < header.size(); ++c) {
      std::vector<std::string> values;
      if (attrs != line.fields().end()) {
        const auto& map = attrs->second.struct_value().fields();
        if (const auto v = map.find(header[c]); v != map.end()) {
          for (const auto& value : v->second.list_value().values()) values.push_back(value.string_value());
        }
      }
      EXPECT_EQ(extract::SplitValues(row[c]), values) << header[c];
      multi_valued_cells += values.size() > 1;
    }
  }
  EXPECT_GT(multi_valued_cells, 0u);  // the separator was exercised
  // --fields: exactly those columns, in that order; in JSON lines too.
  const Result chosen = Vertexctl("extract --store " + store + " --site demo --format csv --fields price,url,designers " +
                                  site.dir + " >" + csv_file);
  EXPECT_EQ(chosen.exit_code, 0) << chosen.err;
  const std::vector<std::vector<std::string>> chosen_rows = PythonCsvRows(csv_file);
  ASSERT_EQ(chosen_rows.size(), rows.size() - 2);  // no bad pages this time
  EXPECT_EQ(chosen_rows[0], (std::vector<std::string>{"price", "url", "designers"}));
  for (size_t i = 1; i < chosen_rows.size(); ++i) {
    const size_t url = std::find(header.begin(), header.end(), "url") - header.begin();
    const size_t price = std::find(header.begin(), header.end(), "price") - header.begin();
    EXPECT_EQ(chosen_rows[i][1], rows[i][url]);
    EXPECT_EQ(chosen_rows[i][0], rows[i][price]);
  }
  // JSON lines with --fields: the chosen page fields, then the attributes.
  const std::string product = site.dir + "/" + site.truth.pages.begin()->first + ".htm";
  const Result whole = Vertexctl("extract --store " + store + " --site demo " + product);
  const Result fields_jsonl = Vertexctl("extract --store " + store + " --site demo --fields status,title " + product);
  EXPECT_EQ(fields_jsonl.exit_code, 0) << fields_jsonl.err;
  const google::protobuf::Struct line = ParseJson(whole.out);
  util::JsonWriter want;
  want.BeginObject().Key("status").String(Cell(line, "status")).Key("attributes").BeginObject().Key("title");
  want.BeginArray();
  for (const auto& v : line.fields().at("attributes").struct_value().fields().at("title").list_value().values()) {
    want.String(v.string_value());
  }
  want.EndArray().EndObject().EndObject();
  EXPECT_EQ(fields_jsonl.out, want.Release() + "\n");
  // Bad flags: the field named and the valid ones listed; --details with CSV.
  Result r = Vertexctl("extract --store " + store + " --site demo --format csv --fields url,titel " + site.dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("--fields: unknown field \"titel\"; valid fields: file, url, status"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("title, brand, price"), std::string::npos) << r.err;
  r = Vertexctl("extract --store " + store + " --site demo --format xml " + site.dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--format: unknown format \"xml\""), std::string::npos) << r.err;
  r = Vertexctl("extract --store " + store + " --site demo --format csv --details " + site.dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--details applies to --format jsonl"), std::string::npos) << r.err;
}

// --url: the URL of one page file without <base href>; an error with more.
TEST(RulesCli, UrlNamesTheUrlOfASinglePageFile) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_url_store");
  fs::remove_all(store);
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  // A product page without its <base href> line extracts as file:// (no
  // rule's URL regex matches) and, given its URL, as the product it is.
  const std::string product = site.dir + "/" + site.truth.pages.begin()->first + ".htm";
  const std::string page = util::ReadFile(product).value();
  const std::string url = site::BaseUrlOnFirstLine(page);
  ASSERT_FALSE(url.empty());
  const std::string bare = Tmp("rules_cli_bare") + ".htm";
  ASSERT_TRUE(util::WriteFile(bare, page.substr(page.find('\n') + 1)).ok());
  Result r = Vertexctl("extract --store " + store + " --site demo --fields url,status " + bare);
  EXPECT_EQ(r.out, "{\"url\":\"file://" + fs::absolute(bare).lexically_normal().string() +
                       "\",\"status\":\"NO_URL_MATCH\"}\n");
  const std::string fields = " --fields url,status,title,price,designers ";
  const Result with_base = Vertexctl("extract --store " + store + " --site demo" + fields + product);
  r = Vertexctl("extract --store " + store + " --site demo --url '" + url + "'" + fields + bare);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, with_base.out);
  EXPECT_NE(r.out.find("{\"url\":\"" + url + "\",\"status\":\"OK\""), std::string::npos) << r.out;
  for (const std::string& command :
       {"extract --store " + store + " --site demo", "site add-pages --store " + store + " --site demo",
        "monitor demo --store " + store, "relearn demo --store " + store}) {
    r = Vertexctl(command + " --url '" + url + "' " + bare + " " + site.dir + "/0001.htm");
    // A usage error: 2, or monitor's 1 for any error.
    EXPECT_EQ(r.exit_code, command.rfind("monitor", 0) == 0 ? 1 : 2) << command;
    EXPECT_NE(r.err.find("--url names the URL of one page file; 2 files given"), std::string::npos) << r.err;
    EXPECT_NE(Vertexctl(command + " --help").out.find("--url URL"), std::string::npos) << command;
  }
  r = Vertexctl("site register --store " + store + " --site demo --url '" + url + "' --schema x.json");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--url applies to add-pages only"), std::string::npos) << r.err;
  r = Vertexctl("extract --store " + store + " --site demo --url not-a-url " + bare);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--url 'not-a-url' is not an absolute URL"), std::string::npos) << r.err;
  r = Vertexctl("learn --store " + store + " --site demo --schema " VERTEX_SOURCE_DIR
                "/deploy/schemas/product.json --annotations " + site.annotations + " --sample " + site.dir +
                " --url '" + url + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--url names the URL of one page file"), std::string::npos) << r.err;
}

// Runs `args` (vertexctl's) with its stderr on a pseudo-terminal (python3's
// pty module) and stdout to /dev/null; returns what the terminal showed.
Result VertexctlOnATerminal(const std::string& args) {
  const std::string script = Tmp("rules_cli_pty") + ".py";
  EXPECT_TRUE(util::WriteFile(script,
                              "import os, pty, subprocess, sys\n"
                              "master, slave = pty.openpty()\n"
                              "p = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=slave)\n"
                              "os.close(slave)\n"
                              "seen = b''\n"
                              "while True:\n"
                              "    try:\n"
                              "        data = os.read(master, 65536)\n"
                              "    except OSError:\n"
                              "        break\n"
                              "    if not data:\n"
                              "        break\n"
                              "    seen += data\n"
                              "sys.stdout.buffer.write(seen)\n"
                              "sys.exit(p.wait())\n")
                  .ok());
  return Shell("python3 " + script + " " + VERTEXCTL_PATH + " " + args);
}

TEST(RulesCli, ProgressIsDrawnOnATerminalOnly) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_progress_store");
  fs::remove_all(store);
  ASSERT_EQ(Vertexctl(LearnArgs(store, site.annotations)).exit_code, 0);
  const size_t pages = site::ExpandPagePaths({site.dir}).value().size();
  const std::string done = absl::StrCat(pages, "/", pages, " pages (100%)");
  const std::string extract = "extract --store " + store + " --site demo " + site.dir;
  Result r = VertexctlOnATerminal(extract);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(r.out.rfind("\rextract: 0/", 0), 0u) << r.out;  // drawn at once, rewritten in place
  EXPECT_NE(r.out.find("\rextract: " + done + ", "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" pages/s, ETA 0:00"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;  // one line, ended once (the tty shows \r\n)
  // Not a terminal: nothing, unless forced; forced off on a terminal.
  r = Vertexctl(extract);
  EXPECT_EQ(r.err, "");
  r = Vertexctl(extract + " --progress");
  EXPECT_NE(r.err.find("\rextract: " + done), std::string::npos) << r.err;
  r = VertexctlOnATerminal(extract + " --no-progress");
  EXPECT_EQ(r.out, "");
  r = Vertexctl(extract + " --progress --no-progress");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--progress and --no-progress"), std::string::npos) << r.err;
  // add-pages and monitor (pages sent) too.
  r = VertexctlOnATerminal("site add-pages --defer --store " + store + " --site demo " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("\radd-pages: " + done), std::string::npos) << r.out;
  r = VertexctlOnATerminal("monitor demo --dry-run --store " + store + " " + site.dir);
  EXPECT_NE(r.out.find("\rmonitor (pages sent): " + done), std::string::npos) << r.out;
}

// The site's life offline, command by command: register, a deferred
// add-pages, tasks refused until the sample is clustered, add-pages that
// clusters, tasks, rollback refused without rule, delete.
TEST(RulesCli, SiteCommandsOffline) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_site_store");
  fs::remove_all(store);
  const std::string on = " --store " + store + " --site s1";
  Result r = Vertexctl("site register --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json" + on);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::Struct json = ParseJson(r.out);
  EXPECT_TRUE(json.fields().at("created").bool_value());
  EXPECT_EQ(json.fields()
                .at("site")
                .struct_value()
                .fields()
                .at("schema")
                .struct_value()
                .fields()
                .at("vertical")
                .string_value(),
            "product");
  r = Vertexctl("site add-pages --defer" + on + " " + site.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "{\"pages_added\":220,\"sample_pages\":220,\"errors\":[],\"clusters\":[],\"unassigned_pages\":0,"
            "\"clustered\":false,\"settings\":{\"prune_threshold\":0,\"sample_rate\":0.2,\"no_rule_transfer\":false,"
            "\"page_builder\":\"PAGE_BUILDER_LIBXML2\"},\"prune_threshold\":0,\"transferred\":[]}\n");
  r = Vertexctl("tasks" + on);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("was never clustered"), std::string::npos) << r.err;
  r = Vertexctl("site add-pages" + on + " " + site.dir + "/0000.htm " + site.dir + "/0001.htm");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json = ParseJson(r.out);
  EXPECT_EQ(json.fields().at("pages_added").number_value(), 2);
  EXPECT_EQ(json.fields().at("sample_pages").number_value(), 220);  // the same URLs: replaced
  EXPECT_EQ(json.fields().at("clusters").list_value().values().size(), 4u);
  r = Vertexctl("tasks --max-pages 2" + on);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ParseJson(r.out).fields().at("tasks").list_value().values().size(), 8u);  // 2 per cluster
  r = Vertexctl("rules rollback --cluster c0 --version 1" + on);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("c0"), std::string::npos) << r.err;
  r = Vertexctl("site delete" + on);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "{}\n");
  r = Vertexctl("rules list" + on);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("site \"s1\" not found"), std::string::npos) << r.err;
}

TEST(RulesCli, EvalSwdeScoresTheDemoSite) {
  const Site& site = DemoSite();
  const Result r = Vertexctl("eval-swde --pages " + site.dir + " --groundtruth " + site.dir +
                             "/groundtruth/product --site vertexdemo --schema " VERTEX_SOURCE_DIR
                             "/deploy/schemas/product.json --max-k 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct report = ParseJson(r.out);
  EXPECT_LE(report.fields().at("max_annotated_per_cluster").number_value(), 2);
  const auto& attrs = report.fields().at("attributes").struct_value().fields();
  EXPECT_EQ(attrs.size(), demo::ProductAttributes().size());
  for (const auto& [name, s] : attrs) {
    EXPECT_GE(s.struct_value().fields().at("precision").number_value(), 0.98) << name;
  }
}

TEST(RulesCli, EvalSwdeWithStoreKeepsWhatItLearnt) {
  const Site& site = DemoSite();
  const std::string store = Tmp("eval_store");
  fs::remove_all(store);
  const std::string eval = "eval-swde --pages " + site.dir + " --groundtruth " + site.dir +
                           "/groundtruth/product --site vertexdemo --schema " VERTEX_SOURCE_DIR
                           "/deploy/schemas/product.json --max-k 2 --store " + store;
  Result r = Vertexctl(eval);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const google::protobuf::Struct report = ParseJson(r.out);
  const auto& attrs = report.fields().at("attributes").struct_value().fields();
  // The records `extract` gives from the kept store score as eval-swde did.
  r = Vertexctl("extract --store " + store + " --site vertexdemo " + site.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  eval::Scorer scorer;
  for (size_t start = 0, end; (end = r.out.find('\n', start)) != std::string::npos; start = end + 1) {
    const google::protobuf::Struct line = ParseJson(r.out.substr(start, end - start));
    auto page = site.truth.pages.find(eval::PageIdOfFile(line.fields().at("file").string_value()));
    if (page == site.truth.pages.end()) continue;
    const auto& got_attrs = line.fields().at("attributes").struct_value().fields();
    for (const auto& [attr, truth] : page->second) {
      std::vector<std::string> got;
      if (auto it = got_attrs.find(attr); it != got_attrs.end()) {
        for (const auto& v : it->second.list_value().values()) got.push_back(v.string_value());
      }
      scorer.Add(attr, got, truth);
    }
  }
  for (const auto& [name, s] : scorer.scores()) {
    ASSERT_TRUE(attrs.count(name)) << name;
    EXPECT_NEAR(s.precision(), attrs.at(name).struct_value().fields().at("precision").number_value(), 1e-3) << name;
    EXPECT_NEAR(s.recall(), attrs.at(name).struct_value().fields().at("recall").number_value(), 1e-3) << name;
  }
  // Run again on the kept store: the site is kept, its rules get a new version.
  r = Vertexctl(eval);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Vertexctl("rules list --store " + store + " --site vertexdemo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"versions\":[\"1\",\"2\"]"), std::string::npos) << r.out.substr(0, 2000);
  // Without --store nothing is written; a store that cannot be created is an error.
  r = Vertexctl(eval.substr(0, eval.find(" --store")) + " --store /proc/no/such/dir");
  EXPECT_EQ(r.exit_code, 1);
  fs::remove_all(store);
}

// eval-swde --store without --page-builder evaluates a site the store has
// with the site's own builder: a Gumbo site stays Gumbo under the libxml2
// default (it failed with FAILED_PRECONDITION after the whole evaluation
// when it took the default); naming another builder for it fails at once.
TEST(RulesCli, EvalSwdeWithStoreKeepsTheStoredSitesBuilder) {
  const Site& site = DemoSite();
  const std::string store = Tmp("eval_builder_store");
  fs::remove_all(store);
  const std::string eval = "eval-swde --pages " + site.dir + " --groundtruth " + site.dir +
                           "/groundtruth/product --site vertexdemo --schema " VERTEX_SOURCE_DIR
                           "/deploy/schemas/product.json --max-k 1 --store " + store;
  const auto stored_builder = [&] {
    std::unique_ptr<store::RuleStore> s = store::OpenRocksDbStore(store).value();
    return s->GetSite("vertexdemo").value().settings().page_builder();
  };
  Result r = Vertexctl(eval + " --page-builder gumbo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(stored_builder(), v1::PAGE_BUILDER_GUMBO);
  r = Vertexctl(eval);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(stored_builder(), v1::PAGE_BUILDER_GUMBO);
  r = Vertexctl(eval + " --page-builder libxml2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("site \"vertexdemo\" is built with page builder gumbo"), std::string::npos) << r.err;
  EXPECT_EQ(stored_builder(), v1::PAGE_BUILDER_GUMBO);
  fs::remove_all(store);
}

}  // namespace
}  // namespace vertex::cli
