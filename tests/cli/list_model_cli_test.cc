// vertexctl gen-demo --kind lists: a list-finder problem set on disk that
// lists::LoadProblems reads back, equal to the generator's own output.
#include <filesystem>
#include <string>
#include <vector>

#include "common/demo/list_problems.h"
#include "common/lists/problem.h"
#include "gtest/gtest.h"
#include "tests/cli/vertexctl_runner.h"

namespace vertex {
namespace {

using test_support::RunVertexctl;
using test_support::VertexctlResult;

VertexctlResult Vertexctl(const std::string& args) { return RunVertexctl(VERTEXCTL_PATH, "", args); }

TEST(ListModelCliTest, GenDemoWritesAProblemSetLoadProblemsReads) {
  const std::string dir = test_support::TempPath("list_problems_cli");
  std::filesystem::remove_all(dir);
  const VertexctlResult r = Vertexctl("gen-demo --kind lists --pages 24 --seed 5 " + dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("wrote 24 list problems (birds 6, games 6, movies 6, news 6"), std::string::npos)
      << r.out;
  absl::StatusOr<std::vector<lists::ListProblem>> loaded = lists::LoadProblems(dir);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  demo::ListProblemsOptions o;
  o.pages = 24;
  o.seed = 5;
  const std::vector<lists::ListProblem> expected = demo::ProblemsOf(demo::GenerateListProblems(o).value());
  ASSERT_EQ(loaded->size(), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ((*loaded)[i].id, expected[i].id);
    EXPECT_EQ((*loaded)[i].html, expected[i].html);
    EXPECT_EQ((*loaded)[i].positive_xpaths, expected[i].positive_xpaths);
    EXPECT_EQ((*loaded)[i].rows.size(), expected[i].rows.size());
    EXPECT_EQ((*loaded)[i].kind, expected[i].kind);
  }
  // Run again over its own output: the directory is replaced.
  const VertexctlResult again = Vertexctl("gen-demo --kind lists --pages 12 --out " + dir);
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_EQ(lists::LoadProblems(dir).value().size(), 12u);
  std::filesystem::remove_all(dir);
}

TEST(ListModelCliTest, GenDemoListsRefusesBadFlags) {
  const std::string dir = test_support::TempPath("list_problems_cli_bad");
  for (const std::string args : {"--pages 0", "--pages x", "--domain birds", "--products 3"}) {
    const VertexctlResult r = Vertexctl("gen-demo --kind lists " + args + " " + dir);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("--"), std::string::npos) << args << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir)) << args;
  }
  const VertexctlResult r = Vertexctl("gen-demo --kind tables " + dir);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("expected shop, listings or lists"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace vertex
