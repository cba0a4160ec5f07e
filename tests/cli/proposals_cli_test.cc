// vertexctl tasks with a list model in the store (issue 14): the tasks'
// "proposed" lists, and --proposals-out writing them as annotation lines
// vertexctl learn reads — the same offline (--store) and online (--server).
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/workflow/annotations.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"
#include "tests/testing/proposal_pages.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using test_support::MaskTimes;
using test_support::TempPath;

constexpr char kToken[] = "proposals-test-token";
constexpr char kSchema[] = R"({"vertical": "product", "attributes": [
  {"name": "title", "mandatory": true}, {"name": "features", "multi_valued": true}]})";

test_support::VertexctlResult Vertexctl(const std::string& args) {
  return test_support::RunVertexctl(VERTEXCTL_PATH, kToken, args);
}

class ProposalsCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::EngineServer::Start(kToken);
    ASSERT_NE(server_, nullptr);
    dir_ = TempPath("proposals_cli");
    fs::remove_all(dir_);
    fs::create_directories(dir_ + "/pages");
    for (int i = 0; i < 10; ++i) {
      const std::string html = test_support::ProductPage(absl::StrCat("Product ", i),
                                                         test_support::Words(absl::StrCat("feature ", i), 3 + i % 3));
      ASSERT_TRUE(util::WriteFile(absl::StrCat(dir_, "/pages/p", i, ".htm"),
                                  absl::StrCat("<base href=\"http://shop.test/p/", i, ".html\">\n", html))
                      .ok());
    }
    ASSERT_TRUE(util::WriteFile(dir_ + "/schema.json", kSchema).ok());
  }
  void TearDown() override { fs::remove_all(dir_); }

  // `args` against the store directory and against the server.
  void Both(const std::string& command, const std::string& args) {
    for (const std::string& backend : {"--store " + dir_ + "/store", "--server " + server_->address()}) {
      const test_support::VertexctlResult r = Vertexctl(command + " " + backend + " " + args);
      ASSERT_EQ(r.exit_code, 0) << command << " " << backend << ": " << r.err;
    }
  }

  void PutModel() {
    const v1::ListModel model = test_support::FeatureListModel();
    {
      absl::StatusOr<std::unique_ptr<store::RuleStore>> offline = store::OpenRocksDbStore(dir_ + "/store");
      ASSERT_TRUE(offline.ok()) << offline.status();
      ASSERT_TRUE((*offline)->PutListModel(model).ok());
    }
    ASSERT_TRUE(server_->engines().store->PutListModel(model).ok());
  }

  std::unique_ptr<testing::EngineServer> server_;
  std::string dir_;
};

TEST_F(ProposalsCliTest, TasksPrintProposalsAndWriteAnnotationLinesOfflineAndOnline) {
  Both("site", "register --site shop --schema " + dir_ + "/schema.json");
  Both("site", "add-pages --site shop " + dir_ + "/pages");
  // No model: no proposal, an empty file.
  const std::string store = "--store " + dir_ + "/store";
  test_support::VertexctlResult r = Vertexctl("tasks " + store + " --site shop --proposals-out " + dir_ + "/none.jsonl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"proposed\":[]"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("\"proposed\":[{")));
  EXPECT_EQ(util::ReadFile(dir_ + "/none.jsonl").value_or("?"), "");
  EXPECT_THAT(r.err, HasSubstr("wrote 0 proposal(s)"));

  PutModel();
  const test_support::VertexctlResult offline =
      Vertexctl("tasks " + store + " --site shop --proposals-out " + dir_ + "/offline.jsonl");
  const test_support::VertexctlResult online =
      Vertexctl("tasks --server " + server_->address() + " --site shop --proposals-out " + dir_ + "/online.jsonl");
  ASSERT_EQ(offline.exit_code, 0) << offline.err;
  ASSERT_EQ(online.exit_code, 0) << online.err;
  EXPECT_EQ(MaskTimes(online.out), MaskTimes(offline.out));
  EXPECT_THAT(offline.out, HasSubstr("\"proposed\":[{\"attribute\":\"features\",\"values\":[\"feature "));
  EXPECT_THAT(offline.out, HasSubstr("confirm it is features"));
  EXPECT_THAT(offline.err, HasSubstr("proposal(s) to " + dir_ + "/offline.jsonl"));
  const std::string lines = util::ReadFile(dir_ + "/offline.jsonl").value_or("");
  EXPECT_EQ(util::ReadFile(dir_ + "/online.jsonl").value_or(""), lines);

  // The lines are annotations learn takes as they are (the editor accepts).
  absl::StatusOr<std::vector<workflow::SourcedAnnotation>> parsed = workflow::ParseAnnotations(lines, "offline.jsonl");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  ASSERT_FALSE(parsed->empty());
  for (const workflow::SourcedAnnotation& a : *parsed) EXPECT_EQ(a.annotation.attribute(), "features");
  // The editor accepts the first page's proposal and gives its title.
  std::string accepted = lines.substr(0, lines.find("}\n") + 2);
  const std::string& file = (*parsed)[0].annotation.file();
  const std::string n = file.substr(file.rfind('p') + 1, file.find(".htm") - file.rfind('p') - 1);
  accepted += absl::StrCat("{\"file\": \"", file, "\", \"attribute\": \"title\", \"value\": \"Product ", n, "\"}\n");
  ASSERT_TRUE(util::WriteFile(dir_ + "/accepted.jsonl", accepted).ok());
  r = Vertexctl("learn " + store + " --site shop --schema " + dir_ + "/schema.json --annotations " + dir_ +
                "/accepted.jsonl --sample " + dir_ + "/pages");
  EXPECT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"version\""));
}

// The demo with proposals: a model learnt from the shop of seed 1 proposes
// on the shop of seed 2, and the editor's inputs are printed.
TEST(ProposalsDemoCliTest, DemoProposalsFromSeed) {
  const std::string out = TempPath("proposals_demo_site");
  const test_support::VertexctlResult r = Vertexctl(
      "demo --products 30 --categories 4 --reviews 0 --stores 4 --listing-pages 0 --seed 2 "
      "--proposals-from-seed 1 --out " + out);
  fs::remove_all(out);
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  EXPECT_THAT(r.out, HasSubstr("product pages of the shop of seed 1"));
  EXPECT_THAT(r.out, HasSubstr("list model v1 trained from 1 rule(s)"));
  EXPECT_THAT(r.out, HasSubstr("list attribute"));
  EXPECT_THAT(r.out, ::testing::ContainsRegex("\n  features +[0-9]+ +[0-9]+ +[1-9]"));  // proposals seen
}

}  // namespace
}  // namespace vertex::cli
