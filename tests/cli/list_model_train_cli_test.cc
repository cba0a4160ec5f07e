// vertexctl list-model train / show and vertexctl lists (issue 14), as a
// user runs them: offline on a store holding the rules the simulated editor
// learnt for the demo shop, from a problem set, and online against the
// in-process services (TrainListModel needs the bearer token); and the
// errors bad input gets.
#include <filesystem>
#include <string>
#include <vector>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"

namespace vertex {
namespace {

namespace fs = std::filesystem;
using test_support::RunVertexctl;
using test_support::TempPath;
using test_support::VertexctlResult;

constexpr char kToken[] = "list-model-secret";

VertexctlResult Vertexctl(const std::string& args, const std::string& token = "") {
  return RunVertexctl(VERTEXCTL_PATH, token, args);
}

demo::SiteOptions ShopOptions(uint64_t seed) {
  demo::SiteOptions options;
  options.seed = seed;
  options.product_pages = 60;
  options.category_pages = 20;
  options.review_pages = 10;
  options.store_pages = 10;
  return options;
}

// Learns the seed-1 shop's rules through `learning` (simulated editor).
void LearnShop(workflow::LearningApi& learning, workflow::ExtractionApi& extraction) {
  const std::string dir = TempPath("list_model_cli_shop");
  fs::remove_all(dir);
  ASSERT_TRUE(demo::WriteSite(demo::GenerateSite(ShopOptions(1)), dir).ok());
  std::vector<workflow::ClientPage> pages = workflow::ReadClientPages({dir}, 8 << 20).value();
  eval::GroundTruth truth = eval::LoadGroundTruth(dir + "/groundtruth/product", "vertexdemo").value();
  schema::CompiledSchema schema = schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value();
  v1::RegisterSiteRequest r;
  r.set_site("shop");
  *r.mutable_schema() = schema.proto();
  ASSERT_TRUE(learning.RegisterSite(r).ok());
  absl::StatusOr<workflow::ApiRunReport> report =
      workflow::RunSiteThroughApi(learning, extraction, "shop", schema, pages, truth);
  ASSERT_TRUE(report.ok()) << report.status();
  fs::remove_all(dir);
}

// A RocksDB store with the shop's rules, and a held-out (seed 2) product
// page with its features.
struct Fixture {
  std::string store_dir = TempPath("list_model_cli_store");
  std::string page_file = TempPath("list_model_cli_page") + ".html";
  std::vector<std::string> features;
};

const Fixture& Shop() {
  static const Fixture* fixture = [] {
    auto* f = new Fixture;
    fs::remove_all(f->store_dir);
    {
      store::StoreOptions options;
      options.create_if_missing = true;
      std::unique_ptr<store::RuleStore> store = store::OpenRocksDbStore(f->store_dir, options).value();
      workflow::ExtractionEngine extraction(store.get(), {});
      workflow::LearningEngine learning(store.get(), {});
      LearnShop(learning, extraction);
    }
    for (const demo::GeneratedPage& p : demo::GenerateSite(ShopOptions(2))) {
      auto it = p.truth.find("features");
      if (it == p.truth.end() || it->second.size() < 2) continue;
      EXPECT_TRUE(util::WriteFile(f->page_file, "<base href=\"" + p.url + "\">\n" + p.html).ok());
      f->features = it->second;
      break;
    }
    return f;
  }();
  return *fixture;
}

// Removes the fixture's store and page after the tests.
class Cleanup : public ::testing::Environment {
 public:
  void TearDown() override {
    fs::remove_all(TempPath("list_model_cli_store"));
    fs::remove(TempPath("list_model_cli_page") + ".html");
  }
};
::testing::Environment* const kCleanup = ::testing::AddGlobalTestEnvironment(new Cleanup);

google::protobuf::Struct ParseJson(const std::string& json) {
  google::protobuf::Struct s;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(json, &s).ok()) << json.substr(0, 300);
  return s;
}

// Whether a SuggestListsResponse (JSON) has a list whose texts are `texts`.
bool HasList(const google::protobuf::Struct& response, const std::vector<std::string>& texts) {
  for (const auto& list : response.fields().at("lists").list_value().values()) {
    std::vector<std::string> got;
    for (const auto& t : list.struct_value().fields().at("texts").list_value().values()) {
      got.push_back(t.string_value());
    }
    if (got == texts) return true;
  }
  return false;
}

TEST(ListModelTrainCliTest, TrainShowAndListsOffline) {
  const Fixture& shop = Shop();
  ASSERT_FALSE(shop.features.empty());
  VertexctlResult r = Vertexctl("lists --store " + shop.store_dir + " " + shop.page_file);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("list-model train"), std::string::npos) << r.err;

  r = Vertexctl("list-model train --store " + shop.store_dir + " --sites shop --features paper");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("stored list model version 1 (paper): store: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("rules of 1 sites"), std::string::npos) << r.out;

  r = Vertexctl("list-model show --store " + shop.store_dir + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  google::protobuf::Struct shown = ParseJson(r.out);
  EXPECT_EQ(shown.fields().at("versions").list_value().values_size(), 1);
  EXPECT_EQ(shown.fields().at("model").struct_value().fields().at("feature_set").string_value(), "paper");
  r = Vertexctl("list-model show --store " + shop.store_dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("tree: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("depth "), std::string::npos) << r.out;
  // The creation time in UTC, e.g. "created: 2026-11-27T03:58:12Z (1795751694901 unix ms)".
  const size_t created = r.out.find("created: 20");
  ASSERT_NE(created, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(created + 13, 1), "-") << r.out;
  EXPECT_EQ(r.out.substr(created + 28, 3), "Z (") << r.out;
  EXPECT_NE(r.out.find(" unix ms)", created), std::string::npos) << r.out;

  r = Vertexctl("lists --store " + shop.store_dir + " --json " + shop.page_file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasList(ParseJson(r.out), shop.features)) << r.out;
  r = Vertexctl("lists --store " + shop.store_dir + " " + shop.page_file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& f : shop.features) EXPECT_NE(r.out.find("- " + f), std::string::npos) << f;
}

TEST(ListModelTrainCliTest, ErrorsNameTheirInput) {
  const Fixture& shop = Shop();
  VertexctlResult r = Vertexctl("list-model train --store " + shop.store_dir + " --features fancy");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--features 'fancy'"), std::string::npos) << r.err;
  r = Vertexctl("list-model train --store " + shop.store_dir + " --sites nosuchsite");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nosuchsite"), std::string::npos) << r.err;
  r = Vertexctl("list-model show --store " + shop.store_dir + " --version 999");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("version 999"), std::string::npos) << r.err;
  r = Vertexctl("lists --store " + shop.store_dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("give the pages"), std::string::npos) << r.err;
  r = Vertexctl("lists --store " + shop.store_dir + " /nonexistent/page.html");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/page.html"), std::string::npos) << r.err;
  r = Vertexctl("list-model train --server 127.0.0.1:1 --problems /tmp");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--problems"), std::string::npos) << r.err;
  r = Vertexctl("list-model frobnicate");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("train, show or eval"), std::string::npos) << r.err;
  r = Vertexctl("list-model train --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("--problems DIR"), std::string::npos) << r.out;
}

TEST(ListModelTrainCliTest, TrainsFromAProblemSet) {
  const std::string problems = TempPath("list_model_cli_problems");
  const std::string store_dir = TempPath("list_model_cli_problem_store");
  fs::remove_all(problems);
  fs::remove_all(store_dir);
  VertexctlResult r = Vertexctl("gen-demo --kind lists --pages 24 --seed 3 " + problems);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Vertexctl("list-model train --store " + store_dir + " --problems " + problems);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("stored list model version 1 (paper+markup): problems: " + problems), std::string::npos)
      << r.out;
  r = Vertexctl("list-model show --store " + store_dir + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string from =
      ParseJson(r.out).fields().at("model").struct_value().fields().at("trained_from").string_value();
  EXPECT_EQ(from.rfind("problems: " + problems, 0), 0u) << from;
  r = Vertexctl("list-model train --store " + store_dir + " --problems /nonexistent/problems");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("/nonexistent/problems"), std::string::npos) << r.err;
  fs::remove_all(problems);
  fs::remove_all(store_dir);
}

TEST(ListModelTrainCliTest, OnlineTrainNeedsTheToken) {
  const Fixture& shop = Shop();
  std::unique_ptr<testing::EngineServer> server = testing::EngineServer::Start(kToken);
  ASSERT_NE(server, nullptr);
  LearnShop(*server->engines().learning, *server->engines().extraction);
  const std::string at = " --server " + server->address();
  VertexctlResult r = Vertexctl("list-model train" + at, "wrong");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("bearer token"), std::string::npos) << r.err;
  r = Vertexctl("list-model train" + at + " --json", kToken);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ParseJson(r.out).fields().at("model").struct_value().fields().at("version").string_value(), "1");
  r = Vertexctl("list-model show" + at);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("versions: 1"), std::string::npos) << r.out;
  r = Vertexctl("lists" + at + " --json " + shop.page_file);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(HasList(ParseJson(r.out), shop.features)) << r.out;
}

}  // namespace
}  // namespace vertex
