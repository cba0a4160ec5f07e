// vertexctl online (--server, against an in-process server whose services
// delegate to the engines: engine_services.h) and offline (--store) on the
// same demo site: every command must print the same, byte for byte
// (timestamps aside), and exit the same. Plus the online-only concerns:
// tokens, health, unreachable servers, flags that apply offline only.
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "absl/strings/str_replace.h"
#include "common/demo/site_generator.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

constexpr char kToken[] = "online-test-token";

struct Result {
  int exit_code;
  std::string out, err;
};

// Runs vertexctl with `args`; `env` ("NAME=value ...") is set for it, and
// VERTEX_AUTH_TOKEN is unset unless `env` sets it.
Result Vertexctl(const std::string& args, const std::string& env = "") {
  const std::string err_file = (fs::temp_directory_path() / ("online_err_" + std::to_string(getpid()))).string();
  const std::string cmd = "env -u VERTEX_AUTH_TOKEN " + env + " " VERTEXCTL_PATH " " + args + " 2>" + err_file;
  FILE* p = popen(cmd.c_str(), "r");
  Result r;
  char buf[65536];
  for (size_t n; (n = fread(buf, 1, sizeof(buf), p)) > 0;) r.out.append(buf, n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.err = util::ReadFile(err_file).value_or("");
  return r;
}

std::string Tmp(const std::string& name) {
  return (fs::temp_directory_path() / (name + "_" + std::to_string(getpid()))).string();
}

// `out` with every *_unix_ms and elapsed_ms value (JSON) and every UTC
// time (history's report) replaced by "T".
std::string MaskTimes(const std::string& out) {
  static const std::regex kTime("\"(\\w+_unix_ms|elapsed_ms)\": ?\"\\d+\"");
  static const std::regex kUtc("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
  return std::regex_replace(std::regex_replace(out, kTime, "\"$1\":\"T\""), kUtc, "T");
}

// The demo site as files, annotations of two product pages, and changed
// versions of the product pages (another template).
struct Site {
  std::string dir, annotations, changed;
};

const Site& DemoSite() {
  static const Site site = [] {
    Site s{Tmp("online_demo"), Tmp("online_demo") + ".jsonl", Tmp("online_changed")};
    fs::remove_all(s.dir);
    fs::remove_all(s.changed);
    demo::SiteOptions options;
    options.product_pages = 60;
    options.category_pages = 25;
    options.review_pages = 25;
    options.store_pages = 25;
    std::vector<demo::GeneratedPage> pages = demo::GenerateSite(options);
    EXPECT_TRUE(demo::WriteSite(pages, s.dir).ok());
    std::string lines;
    int annotated = 0;
    std::vector<demo::GeneratedPage> changed;
    for (const demo::GeneratedPage& p : pages) {
      if (p.template_name != "product") continue;
      demo::GeneratedPage c = p;
      c.html =
          absl::StrReplaceAll(c.html, {{"<div", "<section><article><div"}, {"</div>", "</div></article></section>"}});
      changed.push_back(std::move(c));
      if (annotated++ >= 2) continue;
      for (const auto& [attr, values] : p.truth) {
        for (const std::string& v : values) {
          lines += "{\"file\": \"" + p.file_name + "\", \"attribute\": \"" + attr + "\", \"value\": \"" + v + "\"}\n";
        }
      }
    }
    EXPECT_TRUE(demo::WriteSite(changed, s.changed).ok());
    EXPECT_TRUE(util::WriteFile(s.annotations, lines).ok());
    return s;
  }();
  return site;
}

class VertexctlOnlineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::EngineServer::Start(kToken);
    ASSERT_NE(server_, nullptr);
    store_ = Tmp("online_store");
    fs::remove_all(store_);
  }

  // Runs `command` + " " + `args` offline and online (with the token) and
  // expects the same output and exit code; returns the offline result.
  Result Both(const std::string& command, const std::string& args) {
    const Result offline = Vertexctl(command + " --store " + store_ + " " + args);
    const Result online =
        Vertexctl(command + " --server " + server_->address() + " " + args, std::string("VERTEX_AUTH_TOKEN=") + kToken);
    EXPECT_EQ(online.exit_code, offline.exit_code) << command << " " << args << ": " << online.err << offline.err;
    EXPECT_EQ(MaskTimes(online.out), MaskTimes(offline.out)) << command << " " << args;
    EXPECT_EQ(online.err, offline.err) << command << " " << args;
    return offline;
  }

  std::string LearnArgs() const {
    const Site& s = DemoSite();
    return "--site demo --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json --annotations " + s.annotations +
           " --sample " + s.dir;
  }

  std::unique_ptr<testing::EngineServer> server_;
  std::string store_;
};

TEST_F(VertexctlOnlineTest, EveryCommandPrintsWhatOfflinePrints) {
  const Site& site = DemoSite();
  Result r = Both("learn", LearnArgs());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"learnt\":[{\"cluster_id\":\"c0\""), std::string::npos) << r.out.substr(0, 300);
  r = Both("extract", "--site demo " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"status\":\"OK\""), std::string::npos);
  Both("extract", "--site demo --details " + site.dir + "/0000.htm " + site.dir + "/0003.htm");
  // Feed exports: the same CSV and chosen fields offline (the store's
  // schema) and online (the schema read from the records).
  r = Both("extract", "--site demo --format csv " + site.dir);
  EXPECT_EQ(r.out.rfind("file,url,status,cluster,rule_version,matched_by,agreement,record,data_area,", 0), 0u);
  Both("extract", "--site demo --fields designers,url,status " + site.dir);
  Both("extract", "--site demo --format csv --fields price,file " + site.dir);
  r = Both("extract", "--site demo --format csv --fields url,titel " + site.dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown field \"titel\""), std::string::npos) << r.err;
  Both("tasks", "--site demo");
  Both("tasks", "--site demo --cluster c1 --max-pages 1");
  Both("rules", "list --site demo");
  Both("rules", "get --site demo --cluster c0");
  Both("rules", "export --site demo --cluster c0 --format json");
  Both("rules", "export --site demo --cluster c0 --format xslt");
  r = Both("monitor", "demo --json " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"verdict\":\"OK\""), std::string::npos) << r.out;
  r = Both("monitor", "demo --json " + site.changed);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("\"verdict\":\"CHANGED\""), std::string::npos) << r.out;
  ASSERT_EQ(Both("learn", LearnArgs()).exit_code, 0);
  r = Both("rules", "rollback --site demo --cluster c0 --version 1");
  EXPECT_NE(r.out.find("\"current_version\":\"1\",\"latest_version\":\"2\""), std::string::npos) << r.out;
  Both("site", "register --site other --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json");
  r = Both("site", "add-pages --site other --defer " + site.dir);
  EXPECT_NE(r.out.find("\"pages_added\":135,\"sample_pages\":135"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"clustered\":false"), std::string::npos) << r.out;
  r = Both("site", "add-pages --site other " + site.dir + "/0000.htm");
  EXPECT_NE(r.out.find("\"clustered\":true"), std::string::npos) << r.out;
  Both("site", "delete --site other");
  // Errors too: the same message and exit code either way.
  r = Both("site", "delete --site other");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("site \"other\" not found"), std::string::npos) << r.err;
  r = Both("rules", "get --site demo --cluster c9");
  EXPECT_EQ(r.exit_code, 1);
  r = Both("extract", "--site nosuchsite " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nosuchsite"), std::string::npos) << r.err;
}

// Issue 16: a mistyped annotated value is reported not found, with the
// closest text on its page, by the learning service (LearnResponse
// diagnostics) and offline alike, never as "learnt".
TEST_F(VertexctlOnlineTest, ATypoIsReportedWithItsClosestMatchOnlineAndOffline) {
  const Site& site = DemoSite();
  std::string lines = util::ReadFile(site.annotations).value();
  const std::string key = "\"attribute\": \"title\", \"value\": \"";
  const size_t at = lines.find(key);
  ASSERT_NE(at, std::string::npos);
  const size_t begin = at + key.size(), end = lines.find('"', begin);
  const std::string title = lines.substr(begin, end - begin);
  ASSERT_GE(title.size(), 6u);
  std::string typo = title;
  typo[title.size() / 2] = typo[title.size() / 2] == 'q' ? 'z' : 'q';
  lines.replace(begin, title.size(), typo);
  const std::string annotations = Tmp("online_typo") + ".jsonl";
  ASSERT_TRUE(util::WriteFile(annotations, lines).ok());
  const Result r = Both("learn", "--site demo --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json --annotations " +
                                     annotations + " --sample " + site.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::Struct out;
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &out).ok()) << r.out.substr(0, 300);
  size_t seen = 0;
  for (const auto& call : out.fields().at("learnt").list_value().values()) {
    for (const auto& d : call.struct_value().fields().at("diagnostics").list_value().values()) {
      const auto& f = d.struct_value().fields();
      if (f.at("attribute").string_value() != "title" || f.at("pages").list_value().values_size() == 0) continue;
      ++seen;
      EXPECT_EQ(f.at("code").string_value(), "value_not_found");
      EXPECT_TRUE(f.at("learnt").bool_value());  // from the other annotated page
      const std::string& message = f.at("message").string_value();
      EXPECT_EQ(message.rfind("\"" + typo + "\" is not on page ", 0), 0u) << message;
      EXPECT_NE(message.find("; closest: \"" + title + "\" at /html/"), std::string::npos) << message;
    }
  }
  EXPECT_EQ(seen, 1u) << r.out.substr(0, 3000);
}

// A candidate version of c0's current rule in `store` (as Relearn's repair
// stores one).
void CommitCandidate(store::RuleStore& store) {
  store::RuleCommit commit;
  commit.rule = store.GetRule("demo", "c0", store::kCurrentVersion).value();
  commit.candidate = true;
  ASSERT_TRUE(store.CommitRule(commit).ok());
}

TEST_F(VertexctlOnlineTest, LearnAgainWithTheSameSettingsSendsAndClustersNothing) {
  // Regression: settings flags on every call re-clustered the whole sample
  // (and rule transfer ran) on each learn, though nothing had changed.
  const std::string args = "learn --server " + server_->address() + " " + LearnArgs() + " --threshold 2";
  const std::string env = std::string("VERTEX_AUTH_TOKEN=") + kToken;
  ASSERT_EQ(Vertexctl(args, env).exit_code, 0);
  store::RuleStore& store = *server_->engines().store;
  const v1::SampleState first = store.GetSampleState("demo").value();
  ASSERT_GT(first.clustered_unix_ms(), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(Vertexctl(args, env).exit_code, 0);
  const v1::SampleState second = store.GetSampleState("demo").value();
  EXPECT_EQ(second.clustered_unix_ms(), first.clustered_unix_ms());
  EXPECT_EQ(second.urls_size(), first.urls_size());
  EXPECT_EQ(store.GetSite("demo").value().settings().prune_threshold(), 2u);
  // New settings are stored and cluster the sample again.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(Vertexctl("learn --server " + server_->address() + " " + LearnArgs() + " --threshold 3", env).exit_code, 0);
  EXPECT_GT(store.GetSampleState("demo").value().clustered_unix_ms(), first.clustered_unix_ms());
  EXPECT_EQ(store.GetSite("demo").value().settings().prune_threshold(), 3u);
}

TEST_F(VertexctlOnlineTest, MonitorHistoryRelearnAndCandidatesPrintWhatOfflinePrints) {
  const Site& site = DemoSite();
  ASSERT_EQ(Both("learn", LearnArgs()).exit_code, 0);
  Result r = Both("monitor", "demo " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\nsite demo: OK (1 OK); pages supplied, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" unrouted; recorded in the history\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("c0  OK  "), std::string::npos) << r.out;
  r = Both("monitor", "demo --json " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"verdict\":\"OK\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"recorded\":true"), std::string::npos) << r.out;
  r = Both("monitor", "demo " + site.changed);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("c0  CHANGED  "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n    http://"), std::string::npos) << r.out;  // evidence, indented
  r = Both("monitor", "demo --dry-run --cluster c0 --cluster c1,c2 --threshold 0.9 " + site.changed);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("(threshold 0.9)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("not recorded: dry run"), std::string::npos) << r.out;

  // Without pages the bellwethers are fetched: offline by vertexctl (their
  // .test host does not resolve: UNREACHABLE, exit 3); this test server
  // has no fetcher.
  r = Vertexctl("monitor demo --dry-run --store " + store_ +
                " --fetch-delay-ms 0 --fetch-timeout-ms 2000 --fetch-connect-timeout-ms 1000");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("c0  UNREACHABLE  0 pages, "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("site demo: UNREACHABLE (1 UNREACHABLE); pages fetched, 0 unrouted; not recorded: dry run\n"),
            std::string::npos)
      << r.out;
  r = Vertexctl("monitor demo --server " + server_->address());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.err.find("no fetcher configured"), std::string::npos) << r.err;

  r = Both("history", "demo");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(MaskTimes(r.out),
            "T  supplied  CHANGED      c0 CHANGED\nT  supplied  OK           c0 OK\n"
            "T  supplied  OK           c0 OK\n");
  r = Both("history", "demo --limit 1 --json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("{\"runs\":[{\"site\":\"demo\","), 0u) << r.out;
  EXPECT_NE(r.out.find("\"verdict\":\"CHANGED\""), std::string::npos) << r.out;

  // Candidates, made as a repair makes them, accepted and rejected.
  {
    std::unique_ptr<store::RuleStore> offline = store::OpenRocksDbStore(store_, {.create_if_missing = false}).value();
    CommitCandidate(*offline);
  }
  CommitCandidate(*server_->engines().store);
  r = Both("rules", "list --site demo");
  EXPECT_NE(r.out.find("\"candidate_version\":\"2\""), std::string::npos) << r.out;
  r = Both("rules", "accept demo c0");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("{\"version\":\"2\",\"cluster\":{\"cluster_id\":\"c0\""), 0u) << r.out;
  EXPECT_NE(r.out.find("\"current_version\":\"2\""), std::string::npos) << r.out;
  r = Both("rules", "accept demo c0");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("vertexctl rules: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("candidate"), std::string::npos) << r.err;
  {
    std::unique_ptr<store::RuleStore> offline = store::OpenRocksDbStore(store_, {.create_if_missing = false}).value();
    CommitCandidate(*offline);
  }
  CommitCandidate(*server_->engines().store);
  r = Both("rules", "reject --site demo --cluster c0");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"current_version\":\"2\",\"latest_version\":\"3\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"candidate_version\":\"0\""), std::string::npos) << r.out;
  r = Both("rules", "reject demo c9");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("c9"), std::string::npos) << r.err;

  // Relearn: the same report (or error) either way.
  Both("relearn", "demo " + site.changed);
  Both("relearn", "demo --json --no-repair " + site.changed);
  Both("tasks", "--site demo");
  r = Both("relearn", "nosuchsite " + site.changed);
  EXPECT_EQ(r.exit_code, 1);

  // Errors, the same either way.
  r = Both("history", "nosuchsite");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nosuchsite"), std::string::npos) << r.err;
  r = Both("history", "demo --limit 0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--limit must be an integer from 1"), std::string::npos) << r.err;
  r = Both("history", "demo --limit x");
  EXPECT_EQ(r.exit_code, 2);
  r = Both("monitor", "demo --threshold 1.5 " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("--threshold must be a number above 0 and at most 1, not '1.5'"), std::string::npos) << r.err;
  r = Both("monitor", "demo --threshold 0 " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  r = Both("monitor", "nosuchsite " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nosuchsite"), std::string::npos) << r.err;
  r = Both("monitor", "demo --cluster c9 " + site.dir);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("c9"), std::string::npos) << r.err;
  r = Both("rules", "accept demo");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give SITE and CLUSTER"), std::string::npos) << r.err;
}

TEST_F(VertexctlOnlineTest, TokensAndTheirEnvironmentVariable) {
  const std::string schema = " --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json";
  const std::string server = " --server " + server_->address();
  Result r = Vertexctl("site register --site t" + schema + server);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("missing bearer token"), std::string::npos) << r.err;
  r = Vertexctl("site register --site t" + schema + server, "VERTEX_AUTH_TOKEN=wrong");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("invalid bearer token"), std::string::npos) << r.err;
  r = Vertexctl("site register --site t --token " + std::string(kToken) + schema + server, "VERTEX_AUTH_TOKEN=wrong");
  EXPECT_EQ(r.exit_code, 0) << r.err;  // the flag wins over the variable
  EXPECT_NE(r.out.find("\"created\":true"), std::string::npos) << r.out;
  r = Vertexctl("rules list --site t" + server);  // a read needs no token
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* write : {"relearn t", "rules accept t c0", "rules reject t c0"}) {
    r = Vertexctl(write + server);
    EXPECT_EQ(r.exit_code, 1) << write;
    EXPECT_NE(r.err.find("missing bearer token"), std::string::npos) << write << ": " << r.err;
  }
  r = Vertexctl("history t" + server);  // a read
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(VertexctlOnlineTest, HealthAndUnreachableServers) {
  Result r = Vertexctl("health --server " + server_->address());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "SERVING\n");
  r = Vertexctl("health --server " + server_->address() + " --service vertex.v1.ExtractionService");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  r = Vertexctl("health --server " + server_->address() + " --service no.such.Service");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_FALSE(r.err.empty());
  r = Vertexctl("health --server 127.0.0.1:1 --timeout 2");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("vertexctl health: "), std::string::npos) << r.err;
  r = Vertexctl("extract --site demo --server 127.0.0.1:1 --timeout 2 " + DemoSite().dir + "/0000.htm");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  r = Vertexctl("monitor demo --server 127.0.0.1:1 --timeout 2");
  EXPECT_EQ(r.exit_code, 1);
}

TEST(VertexctlBackendFlags, UsageErrors) {
  struct Case {
    std::string args;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"rules list --site demo", 2, "give either --store DIR (offline) or --server HOST:PORT (online)"},
      {"rules list --site demo --store /tmp/x --server h:1", 2, "give either --store"},
      {"extract --site demo --server h:1 --threads 4 x.htm", 2, "--threads applies to --store only"},
      {"extract --site demo --server h:1 --no-nearest x.htm", 2, "--no-nearest applies to --store only"},
      {"learn --site demo --server h:1 --max-sample 4", 2, "--max-sample applies to --store only"},
      // --threshold and --sample-rate are the site's settings, sent online
      // too (tests/cli/tiny_sites_cli_test.cc); their values are checked.
      {"learn --site demo --server h:1 --threshold -1", 2, "--threshold must be an integer from 0 to 1000000000"},
      {"site register --site demo --server h:1 --sample-rate 1.5", 2, "--sample-rate must be a number from 0"},
      {"relearn demo --server h:1 --threshold 4", 2, "--threshold applies to --store only"},
      {"site add-pages --site demo --server h:1 --seed 4 x", 2, "--seed applies to --store only"},
      {"tasks --site demo --server h:1 --timeout 0", 2, "--timeout must be a number"},
      {"tasks --site demo --server h:1 --tls-cert /no/cert.pem", 2, "--tls-cert and --tls-key go together"},
      {"tasks --site demo --server h:1 --tls-ca /no/ca.pem", 1, "/no/ca.pem"},
      {"site frob --site demo --store /tmp/x", 2, "register, add-pages or delete"},
      {"site add-pages --site demo --store /tmp/x", 2, "no PAGE_DIR_OR_FILE"},
      {"rules rollback --site demo --cluster c0 --store /tmp/x", 2, "--version N (> 0) is required"},
      {"monitor --server h:1", 1, "no SITE given"},
      {"monitor demo --bogus", 1, "unknown flag --bogus"},
      {"monitor demo --server h:1 --fetch-delay-ms 5", 1, "--fetch-delay-ms applies to --store only"},
      {"monitor demo --store /tmp/x --fetch-delay-ms -1", 1, "--fetch-delay-ms must be an integer from 0"},
      {"monitor demo --store /tmp/x --fetch-timeout-ms 100 --fetch-connect-timeout-ms 200", 1,
       "--fetch-connect-timeout-ms (200) must not exceed --fetch-timeout-ms (100)"},
      {"monitor demo --store /tmp/x --user-agent ''", 1, "--user-agent: must not be empty"},
      {"relearn demo --server h:1 --ignore-robots", 2, "--ignore-robots applies to --store only"},
      {"relearn demo --server h:1 --max-pages 0", 2, "--max-pages must be an integer from 1"},
      {"relearn --server h:1", 2, "no SITE given"},
      {"history --server h:1", 2, "no SITE given"},
      {"history demo extra --server h:1", 2, "unexpected argument extra"},
      {"rules accept a b c --server h:1", 2, "give SITE and CLUSTER"},
      {"rules accept a b --site a --server h:1", 2, "not both"},
      {"health", 1, "--server is required"},
  };
  for (const Case& c : cases) {
    const Result r = Vertexctl(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << c.args;
  }
}

// Every command over the store documents both ways to run it and the
// token's environment variable.
TEST(VertexctlBackendFlags, HelpTellsStoreServerAndToken) {
  for (const char* command : {"site", "tasks", "learn", "extract", "rules", "monitor", "history", "relearn"}) {
    const Result r = Vertexctl(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command;
    for (const char* word : {"--store DIR", "--server HOST:PORT", "--token TOKEN", "VERTEX_AUTH_TOKEN", "--tls-ca",
                             "--tls-cert", "--tls-key", "--timeout"}) {
      EXPECT_NE(r.out.find(word), std::string::npos) << command << " --help lacks " << word;
    }
  }
  const Result r = Vertexctl("health --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* word : {"--server HOST:PORT", "--service NAME", "SERVING", "--tls-ca"}) {
    EXPECT_NE(r.out.find(word), std::string::npos) << word;
  }
}

}  // namespace
}  // namespace vertex::cli
