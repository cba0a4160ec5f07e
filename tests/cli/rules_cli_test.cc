// Runs vertexctl learn / extract / rules / eval-swde as a user would, on a
// generated demo site, and checks the errors bad input gets.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "common/eval/ground_truth.h"
#include "common/eval/score.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
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

TEST(RulesCli, LearnExtractAndExport) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_store");
  fs::remove_all(store);
  Result r = Vertexctl(LearnArgs(store, site.annotations));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::Struct learnt = ParseJson(r.out);
  const auto& clusters = learnt.fields().at("clusters").list_value().values();
  int versions = 0;
  for (const auto& c : clusters) versions += c.struct_value().fields().at("rule_version").number_value() > 0;
  EXPECT_EQ(versions, 1) << r.out.substr(0, 500);
  EXPECT_NE(r.out.find("\"needs_annotation\":[{\"cluster\""), std::string::npos);  // the other templates

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
  EXPECT_NE(r.out.find("\"current_version\":2,\"latest_version\":2,\"versions\":[1,2]"), std::string::npos) << r.out;
  const std::string cluster = r.out.substr(r.out.find("\"id\":\"") + 6, 2);
  r = Vertexctl("rules export --store " + store + " --site demo --cluster " + cluster + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ParseJson(r.out).fields().at("version").string_value(), "2");
  r = Vertexctl("rules export --store " + store + " --site demo --cluster " + cluster + " --version 1 --format xslt");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<xsl:stylesheet"), std::string::npos);
  EXPECT_NE(r.out.find("version=\"1\""), std::string::npos);
}

TEST(RulesCli, BadInputIsAClearError) {
  const Site& site = DemoSite();
  const std::string store = Tmp("rules_cli_bad_store");
  const std::string ann = Tmp("rules_cli_bad") + ".jsonl";
  const std::string schema = Tmp("rules_cli_schema") + ".json";
  ASSERT_TRUE(util::WriteFile(schema, R"({"vertical": "x", "attributes": [{"name": "a", "regex": "(unclosed"}]})").ok());
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
      {"", "learn --store " + store + " --site demo --sample " + site.dir + " --annotations " + ann + " --schema " +
               schema, 2, "invalid regex"},
      {"", "learn --site demo", 2, "--store is required"},
      {"", "extract --store /no/such/store --site demo " + site.dir, 1, "/no/such/store"},
      {"", "rules export --store " + store + " --site demo --cluster c0 --format pdf", 2, "--format must be xslt or json"},
      {"", "rules frob --store " + store + " --site demo", 2, "list or export"},
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
  const std::string bad = Tmp("rules_cli_bad_pages");
  fs::remove_all(bad);
  fs::create_directories(bad);
  const std::string base = "<base href=\"http://shop.vertex-demo.test/p/x-1.html\"/>\n";
  std::string deep = base;
  for (int i = 0; i < 100000; ++i) deep += "<div>";
  ASSERT_TRUE(util::WriteFile(bad + "/a_empty.htm", "").ok());
  ASSERT_TRUE(util::WriteFile(bad + "/b_binary.htm", base + "\xff\xfe<html>\x80\x81<body>x</body></html>").ok());
  ASSERT_TRUE(util::WriteFile(bad + "/c_deep.htm", deep).ok());
  r = Vertexctl("extract --store " + store + " --site demo " + bad);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  const size_t a = r.out.find("a_empty.htm"), b = r.out.find("b_binary.htm"), c = r.out.find("c_deep.htm");
  ASSERT_TRUE(a != std::string::npos && b != std::string::npos && c != std::string::npos) << r.out;
  EXPECT_TRUE(a < b && b < c) << r.out;
  EXPECT_NE(r.out.find("\"status\":\"NO_URL_MATCH\""), std::string::npos) << r.out;  // file:// URL
  EXPECT_NE(r.out.find("\"status\":\"ERROR\",\"error\":\"RESOURCE_EXHAUSTED"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("depth limit of 512"), std::string::npos) << r.out;
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
  EXPECT_EQ(attrs.size(), 7u);
  for (const auto& [name, s] : attrs) EXPECT_GE(s.struct_value().fields().at("precision").number_value(), 0.98) << name;
}

}  // namespace
}  // namespace vertex::cli
