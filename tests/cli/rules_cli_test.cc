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

#include "absl/strings/str_split.h"
#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/eval/score.h"
#include "common/extract/site_extractor.h"
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

Result Vertexctl(const std::string& args) {
  const std::string err_file = (fs::temp_directory_path() / ("rules_cli_err_" + std::to_string(getpid()))).string();
  FILE* p = popen((std::string(VERTEXCTL_PATH) + " " + args + " 2>" + err_file).c_str(), "r");
  Result r;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = util::ReadFile(err_file).value_or("");
  return r;
}

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
