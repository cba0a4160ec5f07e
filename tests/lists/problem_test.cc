#include "common/lists/problem.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/util/file.h"
#include "gtest/gtest.h"

namespace vertex::lists {
namespace {

namespace fs = std::filesystem;

class ProblemSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (fs::temp_directory_path() /
            absl::StrCat("problem_test_", getpid(), "_",
                         ::testing::UnitTest::GetInstance()->current_test_info()->name()))
               .string();
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Writes problems.jsonl as given and one page per id.
  void WriteRaw(const std::string& jsonl, const std::vector<std::string>& page_ids) {
    ASSERT_TRUE(util::WriteFile(dir_ + "/problems.jsonl", jsonl).ok());
    for (const std::string& id : page_ids) {
      ASSERT_TRUE(util::WriteFile(dir_ + "/pages/" + id + ".html", "<p>x</p>").ok());
    }
  }

  std::string dir_;
};

std::vector<ListProblem> TwoProblems() {
  ListProblem list;
  list.id = "birds-000";
  list.domain = "birds";
  list.url = "http://birds.test/a/";
  list.html = "<html><body><ul><li>Wren</li><li>Rook \xE2\x80\x94 \"corvid\"</li></ul></body></html>";
  list.kind = ListKind::kList;
  list.positive_xpaths = {"/html[1]/body[1]/ul[1]/li[1]", "/html[1]/body[1]/ul[1]/li[2]"};
  list.rows = {{"Wren", ""}, {"Rook \xE2\x80\x94 \"corvid\"", ""}};
  list.variant = "ul-li";
  ListProblem hot;
  hot.id = "news-001";
  hot.domain = "news";
  hot.url = "http://news.test/";
  hot.html = "<html><body><br>Polls close<br>Rain</body></html>";
  hot.kind = ListKind::kHotList;
  hot.positive_xpaths = {"/html[1]/body[1]/a[1]"};
  hot.rows = {{"Polls close", "http://news.test/polls"}};
  hot.variant = "br-separated";
  hot.out_of_class = true;
  return {list, hot};
}

TEST(ListKindTest, Names) {
  EXPECT_STREQ(ListKindName(ListKind::kList), "list");
  EXPECT_STREQ(ListKindName(ListKind::kHotList), "hotlist");
}

TEST_F(ProblemSetTest, RoundTripsEveryField) {
  const std::vector<ListProblem> problems = TwoProblems();
  ASSERT_TRUE(WriteProblems(problems, dir_).ok());
  EXPECT_TRUE(fs::exists(dir_ + "/pages/birds-000.html"));
  absl::StatusOr<std::vector<ListProblem>> loaded = LoadProblems(dir_);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), problems.size());
  for (size_t i = 0; i < problems.size(); ++i) {
    const ListProblem& a = problems[i];
    const ListProblem& b = (*loaded)[i];
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.domain, b.domain);
    EXPECT_EQ(a.url, b.url);
    EXPECT_EQ(a.html, b.html);
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.positive_xpaths, b.positive_xpaths);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (size_t r = 0; r < a.rows.size(); ++r) {
      EXPECT_EQ(a.rows[r].text, b.rows[r].text);
      EXPECT_EQ(a.rows[r].url, b.rows[r].url);
    }
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.out_of_class, b.out_of_class);
  }
  // Writing again over the same directory gives the same set.
  ASSERT_TRUE(WriteProblems(*loaded, dir_).ok());
  absl::StatusOr<std::vector<ListProblem>> again = LoadProblems(dir_);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->size(), 2u);
}

TEST_F(ProblemSetTest, OptionalFieldsDefaultAndBlankLinesAreSkipped) {
  WriteRaw("\n{\"id\":\"a\",\"domain\":\"d\",\"url\":\"u\",\"kind\":\"hotlist\","
           "\"positive_xpaths\":[],\"rows\":[{\"text\":\"t\"}],\"extra\":1}\n  \n",
           {"a"});
  absl::StatusOr<std::vector<ListProblem>> loaded = LoadProblems(dir_);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  EXPECT_EQ((*loaded)[0].kind, ListKind::kHotList);
  EXPECT_EQ((*loaded)[0].variant, "");
  EXPECT_FALSE((*loaded)[0].out_of_class);
  EXPECT_EQ((*loaded)[0].rows[0].url, "");
  EXPECT_EQ((*loaded)[0].html, "<p>x</p>");
}

TEST_F(ProblemSetTest, BadLinesAreRefusedNamingFileAndLine) {
  const std::string good =
      "{\"id\":\"a\",\"domain\":\"d\",\"url\":\"u\",\"kind\":\"list\","
      "\"positive_xpaths\":[\"/html[1]\"],\"rows\":[{\"text\":\"t\"}]}";
  const auto with = [&good](const std::string& from, const std::string& to) {
    std::string line = good;
    line.replace(line.find(from), from.size(), to);
    return line;
  };
  const struct {
    std::string line;
    std::string message;
  } kCases[] = {
      {"{\"id\":", "unexpected end of JSON"},
      {"[1]", "not a JSON object"},
      {with("\"kind\":\"list\"", "\"kind\":\"table\""), "unknown kind \"table\""},
      {with("\"id\":\"a\",", ""), "missing \"id\""},
      {with("\"domain\":\"d\",", ""), "missing \"domain\""},
      {with("\"url\":\"u\",", ""), "missing \"url\""},
      {with("\"kind\":\"list\",", ""), "missing \"kind\""},
      {with(",\"rows\":[{\"text\":\"t\"}]", ""), "missing \"rows\""},
      {with("\"positive_xpaths\":[\"/html[1]\"],", ""), "missing \"positive_xpaths\""},
      {with("\"id\":\"a\"", "\"id\":7"), "\"id\": expected string, got number"},
      {with("\"rows\":[{\"text\":\"t\"}]", "\"rows\":{}"), "\"rows\": expected array, got object"},
      {with("{\"text\":\"t\"}", "{\"url\":\"t\"}"), "missing \"text\""},
      {with("{\"text\":\"t\"}", "\"t\""), "a row is not an object"},
      {with("[\"/html[1]\"]", "[3]"), "not an XPath"},
      {with("\"id\":\"a\"", "\"id\":\"../a\""), "may not hold"},
      {with("\"id\":\"a\"", "\"id\":\"x/a\""), "may not hold"},
      {with("\"id\":\"a\"", "\"id\":\"a..b\""), "may not hold"},
      {with("\"id\":\"a\"", "\"id\":\"\""), "empty problem id"},
      {with("\"id\":\"a\"", "\"id\":\"a\\u0001\""), "control character"},
      {good + "\n" + good, "problem id \"a\" given twice"},
      {with("\"kind\":\"list\"", "\"kind\":\"list\",\"out_of_class\":\"yes\""),
       "\"out_of_class\": expected boolean, got string"},
  };
  for (const auto& c : kCases) {
    WriteRaw("\n" + c.line + "\n", {"a"});
    absl::StatusOr<std::vector<ListProblem>> loaded = LoadProblems(dir_);
    ASSERT_FALSE(loaded.ok()) << c.line;
    EXPECT_EQ(loaded.status().code(), absl::StatusCode::kInvalidArgument) << c.line;
    EXPECT_NE(loaded.status().message().find(c.message), std::string::npos)
        << c.line << " -> " << loaded.status();
    // Line 1 is blank: the error names the file and the line it is on.
    const size_t line = c.line.find('\n') == std::string::npos ? 2 : 3;
    EXPECT_NE(loaded.status().message().find(absl::StrCat("problems.jsonl:", line, ":")),
              std::string::npos)
        << c.line << " -> " << loaded.status();
  }
}

TEST_F(ProblemSetTest, MissingFilesAreNotFoundNamingThem) {
  absl::StatusOr<std::vector<ListProblem>> loaded = LoadProblems(dir_);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(loaded.status().message().find("problems.jsonl"), std::string::npos);
  WriteRaw("{\"id\":\"gone\",\"domain\":\"d\",\"url\":\"u\",\"kind\":\"list\","
           "\"positive_xpaths\":[],\"rows\":[]}\n",
           {});
  loaded = LoadProblems(dir_);
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(loaded.status().message().find("problems.jsonl:1"), std::string::npos)
      << loaded.status();
  EXPECT_NE(loaded.status().message().find("gone.html"), std::string::npos) << loaded.status();
}

TEST_F(ProblemSetTest, WriteRefusesBadAndDuplicateIdsBeforeWritingAnything) {
  std::vector<ListProblem> problems = TwoProblems();
  for (const std::string bad : {"../escape", "a/b", "", "x..y", "a\\b"}) {
    problems[1].id = bad;
    absl::Status s = WriteProblems(problems, dir_);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("problem 1"), std::string::npos) << s;
    EXPECT_FALSE(fs::exists(dir_)) << bad;
  }
  problems[1].id = problems[0].id;
  absl::Status s = WriteProblems(problems, dir_);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("given twice"), std::string::npos) << s;
  EXPECT_FALSE(fs::exists(dir_));
}

}  // namespace
}  // namespace vertex::lists
