// vertexctl gen-demo --kind lists: a list-finder problem set on disk that
// lists::LoadProblems reads back, equal to the generator's own output; and
// vertexctl list-model eval on such a set, as tables and as JSON.
#include <filesystem>
#include <string>
#include <vector>

#include "common/demo/list_problems.h"
#include "common/lists/problem.h"
#include "common/util/json_reader.h"
#include "gtest/gtest.h"
#include "common/util/file.h"
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
  EXPECT_NE(r.err.find("expected shop, listings, lists or blog"), std::string::npos) << r.err;
}

// A small generated set for the eval tests, written once.
const std::string& SmallSet() {
  static const std::string* const kDir = [] {
    auto* dir = new std::string(test_support::TempPath("list_model_eval_set"));
    std::filesystem::remove_all(*dir);
    const VertexctlResult r = Vertexctl("gen-demo --kind lists --pages 12 --seed 3 " + *dir);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return dir;
  }();
  return *kDir;
}

int IntOf(const util::Json& j) { return std::stoi(j.scalar); }

TEST(ListModelCliTest, EvalJsonCountsEveryProblemUnderEveryProtocol) {
  const VertexctlResult r =
      Vertexctl("list-model eval --problems " + SmallSet() + " --mode all --max-inputs 3 --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  absl::StatusOr<util::Json> j = util::ParseJson(r.out, "stdout");
  ASSERT_TRUE(j.ok()) << j.status() << "\n" << r.out;
  EXPECT_EQ(j->Find("features")->scalar, "paper+markup");
  EXPECT_EQ(IntOf(*j->Find("max_inputs")), 3);
  int in_class = 0;
  for (const util::Json& n : j->Find("pages")->member_values) in_class += IntOf(n);
  EXPECT_EQ(j->Find("pages")->member_names.size(), 4u);
  EXPECT_EQ(in_class + IntOf(*j->Find("out_of_class")), 12);
  for (const char* protocol : {"lopo", "lodo", "intra_domain"}) {
    const util::Json* p = j->Find(protocol);
    ASSERT_NE(p, nullptr) << protocol;
    EXPECT_TRUE(p->Find("ran")->boolean()) << protocol;
    EXPECT_EQ(p->Find("problems")->items.size(), 12u) << protocol;
    EXPECT_EQ(IntOf(*p->Find("in_class")), in_class) << protocol;
    int perfect = 0, good = 0;
    for (const util::Json& o : p->Find("problems")->items) {
      if (o.Find("out_of_class")->boolean()) continue;
      perfect += o.Find("perfect")->boolean();
      good += o.Find("good")->boolean();
      // Perfect means P = R = 1.
      if (o.Find("perfect")->boolean()) {
        EXPECT_EQ(o.Find("correct")->scalar, o.Find("expected")->scalar);
      }
    }
    EXPECT_EQ(IntOf(*p->Find("perfect")), perfect) << protocol;
    EXPECT_EQ(IntOf(*p->Find("good")), good) << protocol;
    EXPECT_LE(perfect, good) << protocol;
  }
  for (const char* curves : {"intra_page", "hybrid"}) {
    const util::Json* c = j->Find(curves);
    ASSERT_NE(c, nullptr) << curves;
    EXPECT_TRUE(c->Find("ran")->boolean()) << curves;
    const util::Json* total = c->Find("curves")->Find("total");
    ASSERT_NE(total, nullptr) << curves;
    ASSERT_EQ(total->Find("perfect")->items.size(), 3u);
    // Curves count problems that met the goal with at most n inputs: never
    // decreasing, perfect never above eps-good, never above the problems.
    for (size_t n = 0; n < 3; ++n) {
      const int perfect = IntOf(total->Find("perfect")->items[n]);
      const int good = IntOf(total->Find("good")->items[n]);
      EXPECT_LE(perfect, good) << curves << " " << n;
      EXPECT_LE(good, in_class) << curves << " " << n;
      if (n > 0) {
        EXPECT_GE(perfect, IntOf(total->Find("perfect")->items[n - 1])) << curves;
      }
    }
  }
}

TEST(ListModelCliTest, EvalPrintsThePapersTablesForTheModesAsked) {
  const VertexctlResult r = Vertexctl("list-model eval --problems " + SmallSet() + " --mode lopo --features paper");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("features \"paper\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lv1-domain-out"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lv1-page-out"), std::string::npos) << r.out;
  for (const char* domain : {"birds", "games", "movies", "news", "total", "out-of-class"}) {
    EXPECT_NE(r.out.find("\n" + std::string(domain) + " "), std::string::npos) << domain << "\n" << r.out;
  }
  // Intra-page and the hybrid were not asked for.
  EXPECT_EQ(r.out.find("Fig. 5"), std::string::npos) << r.out;
  const VertexctlResult json = Vertexctl("list-model eval --problems " + SmallSet() + " --mode lodo --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  absl::StatusOr<util::Json> j = util::ParseJson(json.out, "stdout");
  ASSERT_TRUE(j.ok()) << j.status();
  EXPECT_FALSE(j->Find("lopo")->Find("ran")->boolean());
  EXPECT_TRUE(j->Find("lodo")->Find("ran")->boolean());
  EXPECT_FALSE(j->Find("intra_page")->Find("ran")->boolean());
}

TEST(ListModelCliTest, EvalRefusesBadInputNamingIt) {
  const struct {
    std::string args;
    int exit_code;
    std::string message;
  } kCases[] = {
      {"list-model eval", 2, "--problems DIR is required"},
      {"list-model eval --problems " + SmallSet() + " --mode fast", 2, "--mode 'fast'"},
      {"list-model eval --problems " + SmallSet() + " --features html", 2, "--features 'html'"},
      {"list-model eval --problems " + SmallSet() + " --max-inputs 0", 2, "--max-inputs"},
      {"list-model eval --problems " + SmallSet() + " --epsilon 2", 2, "--epsilon"},
      {"list-model eval --problems /nonexistent/set", 1, "/nonexistent/set/problems.jsonl"},
      {"list-model", 2, "expected a subcommand: train, show or eval"},
      {"list-model fit", 2, "expected a subcommand: train, show or eval"},
      {"list-model train", 2, "give either --store DIR (offline) or --server HOST:PORT (online)"},
  };
  for (const auto& c : kCases) {
    const VertexctlResult r = Vertexctl(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
  }
  // A problems.jsonl line with an unknown kind: the error names file and line.
  const std::string dir = test_support::TempPath("list_model_eval_bad");
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(util::WriteFile(dir + "/problems.jsonl",
                              "{\"id\":\"a\",\"domain\":\"d\",\"url\":\"u\",\"kind\":\"table\","
                              "\"positive_xpaths\":[],\"rows\":[]}\n")
                  .ok());
  const VertexctlResult r = Vertexctl("list-model eval --problems " + dir);
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("problems.jsonl:1: unknown kind \"table\""), std::string::npos) << r.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vertex
