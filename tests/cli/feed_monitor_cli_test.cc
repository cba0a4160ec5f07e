// vertexctl monitor --feed (issue 15 item 4) offline, as a user would: a
// generated blog written as files, learnt from its feed (vertexctl feed
// annotate --learn), monitored with its feed (OK), then its redesign
// (FAILED feed test, exit 2), repaired with --feed-repair, monitored again
// (the feed test passes everywhere).
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/demo/blog_site.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/vertexctl_runner.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

using Result = test_support::VertexctlResult;

Result Vertexctl(const std::string& args) { return test_support::RunVertexctl(VERTEXCTL_PATH, "", args); }

struct BlogFiles {
  std::string dir;
  demo::BlogSite site;
};

BlogFiles Write(const std::string& name, int redesign, int posts) {
  demo::BlogSiteOptions o;
  o.posts = posts;
  o.redesign = redesign;
  BlogFiles b{test_support::TempPath(name), demo::GenerateBlogSite(o).value()};
  fs::remove_all(b.dir);
  EXPECT_TRUE(demo::WriteBlogSite(b.site, b.dir).ok());
  return b;
}

std::string Feed(const BlogFiles& b) { return absl::StrCat(" --feed ", b.dir, "/feed.xml --feed-url ", b.site.feed_url); }

TEST(FeedMonitorCli, ARedesignFailsTheFeedTestAndFeedRepairLearnsItAgain) {
  const BlogFiles before = Write("feed_monitor_cli_before", 0, 40);
  const BlogFiles after = Write("feed_monitor_cli_after", 1, 43);
  const std::string store = " --store " + test_support::TempPath("feed_monitor_cli_store");
  fs::remove_all(store.substr(9));
  Result r = Vertexctl("site register --site b --schema " + before.dir + "/schema.json" + store);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Vertexctl("feed annotate --site b --pages " + before.dir + " --learn" + Feed(before) + store);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_THAT(r.out, HasSubstr("ACCEPTED"));

  r = Vertexctl("monitor b " + before.dir + Feed(before) + store);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("feed rss2.0, 15 items: "));
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));

  r = Vertexctl("monitor b " + after.dir + Feed(after) + " --dry-run" + store);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("  FAILED  "));
  EXPECT_THAT(r.out, Not(HasSubstr("  repair ")));

  r = Vertexctl("monitor b " + after.dir + Feed(after) + " --feed-repair" + store);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;  // the verdict is the run's, before the repair
  EXPECT_THAT(r.out, HasSubstr("  repair c"));
  EXPECT_THAT(r.out, HasSubstr(" ACCEPTED v"));
  EXPECT_THAT(r.out, Not(HasSubstr("repair failed")));

  // The feed test passes everywhere; a cluster still CHANGED is one whose
  // pages show no feed item (no "feed ID" line): the feed cannot repair it.
  r = Vertexctl("monitor b " + after.dir + Feed(after) + store);
  EXPECT_THAT(r.out, Not(HasSubstr("FAILED")));
  for (const std::string& line : std::vector<std::string>(absl::StrSplit(r.out, '\n'))) {
    if (line.find("  CHANGED  ") == std::string::npos && line.find("  BROKEN  ") == std::string::npos) continue;
    const std::string id = line.substr(0, line.find(' '));
    EXPECT_THAT(r.out, Not(HasSubstr("  feed " + id + "  "))) << r.out;
  }
  r = Vertexctl("history b" + store);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.find("BROKEN") != std::string::npos || r.out.find("CHANGED") != std::string::npos) << r.out;
}

}  // namespace
}  // namespace vertex::cli
