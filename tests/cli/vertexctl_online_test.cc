// vertexctl online (--server, against an in-process server whose services
// delegate to the engines: engine_services.h) and offline (--store) on the
// same demo site: every command must print the same, byte for byte
// (timestamps aside), and exit the same. Plus the online-only concerns:
// tokens, health, unreachable servers, flags that apply offline only.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "absl/strings/str_replace.h"
#include "common/demo/site_generator.h"
#include "common/util/file.h"
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

// `json` with every *_unix_ms value replaced by "T".
std::string MaskTimes(const std::string& json) {
  static const std::regex kTime("\"(\\w+_unix_ms)\": ?\"\\d+\"");
  return std::regex_replace(json, kTime, "\"$1\":\"T\"");
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
  Both("tasks", "--site demo");
  Both("tasks", "--site demo --cluster c1 --max-pages 1");
  Both("rules", "list --site demo");
  Both("rules", "get --site demo --cluster c0");
  Both("rules", "export --site demo --cluster c0 --format json");
  Both("rules", "export --site demo --cluster c0 --format xslt");
  r = Both("monitor", "demo " + site.dir);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"verdict\":\"OK\""), std::string::npos) << r.out;
  r = Both("monitor", "demo " + site.changed);
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
      {"learn --site demo --server h:1 --threshold 4", 2, "--threshold applies to --store only"},
      {"site add-pages --site demo --server h:1 --seed 4 x", 2, "--seed applies to --store only"},
      {"tasks --site demo --server h:1 --timeout 0", 2, "--timeout must be a number"},
      {"tasks --site demo --server h:1 --tls-cert /no/cert.pem", 2, "--tls-cert and --tls-key go together"},
      {"tasks --site demo --server h:1 --tls-ca /no/ca.pem", 1, "/no/ca.pem"},
      {"site frob --site demo --store /tmp/x", 2, "register, add-pages or delete"},
      {"site add-pages --site demo --store /tmp/x", 2, "no PAGE_DIR_OR_FILE"},
      {"rules rollback --site demo --cluster c0 --store /tmp/x", 2, "--version N (> 0) is required"},
      {"monitor --server h:1", 1, "no SITE given"},
      {"monitor demo --bogus", 1, "unknown flag --bogus"},
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
  for (const char* command : {"site", "tasks", "learn", "extract", "rules", "monitor"}) {
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
