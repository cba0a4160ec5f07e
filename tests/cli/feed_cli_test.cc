// vertexctl feed annotate (issue 15) on a generated blog written as files
// (common/demo/blog_site.h), offline (--store) and online (--server,
// against the in-process server of engine_services.h): the user's path
// (site register with the blog schema, feed annotate --pages --learn, then
// extract), the report, the same JSON both ways, and usage errors.
#include <filesystem>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/demo/blog_site.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kToken[] = "feed-token";

using Result = test_support::VertexctlResult;

Result Vertexctl(const std::string& args) { return test_support::RunVertexctl(VERTEXCTL_PATH, kToken, args); }

struct BlogFiles {
  std::string dir;
  demo::BlogSite site;
};

const BlogFiles& Blog() {
  static const BlogFiles* blog = [] {
    auto* b = new BlogFiles{test_support::TempPath("feed_cli_blog"), demo::GenerateBlogSite({}).value()};
    fs::remove_all(b->dir);
    EXPECT_TRUE(demo::WriteBlogSite(b->site, b->dir).ok());
    return b;
  }();
  return *blog;
}

std::string AnnotateArgs(const std::string& backend, const std::string& more) {
  const BlogFiles& b = Blog();
  return absl::StrCat("feed annotate --site b --feed ", b.dir, "/feed.xml --feed-url ", b.site.feed_url, " --pages ",
                      b.dir, " --learn ", more, " ", backend);
}

TEST(FeedCli, AnnotatesAndLearnsOfflineThenExtracts) {
  const std::string store = test_support::TempPath("feed_cli_store");
  fs::remove_all(store);
  const BlogFiles& b = Blog();
  Result r = Vertexctl("site register --site b --schema " + b.dir + "/schema.json --store " + store);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Vertexctl(AnnotateArgs("--store " + store, ""));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("feed: rss2.0, 15 items"));
  EXPECT_THAT(r.out, HasSubstr("matches (item, field"));
  EXPECT_THAT(r.out, HasSubstr("found on entry pages: "));
  EXPECT_THAT(r.out, HasSubstr("ACCEPTED"));
  EXPECT_THAT(r.err, HasSubstr("added "));
  // An entry page the feed never named gets its record from the rule.
  const demo::BlogPage* page = nullptr;
  for (const demo::BlogPage& p : b.site.pages) {
    if (p.kind == "entry" && !p.in_feed) page = &p;
  }
  ASSERT_NE(page, nullptr);
  r = Vertexctl("extract --site b --store " + store + " " + b.dir + "/" + page->file_name);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("\"status\":\"OK\""));
  EXPECT_THAT(r.out, HasSubstr("\"title\":[\""));
  EXPECT_THAT(r.out, HasSubstr("\"link\":[\"" + page->entries[0].permalink + "\"]"));
  fs::remove_all(store);
}

// Offline and online print the same JSON (timestamps aside).
TEST(FeedCli, OnlineAndOfflineAgree) {
  const std::string store = test_support::TempPath("feed_cli_store2");
  fs::remove_all(store);
  const BlogFiles& b = Blog();
  std::unique_ptr<testing::EngineServer> server = testing::EngineServer::Start(kToken);
  ASSERT_NE(server, nullptr);
  const std::string online = "--server " + server->address();
  ASSERT_EQ(Vertexctl("site register --site b --schema " + b.dir + "/schema.json --store " + store).exit_code, 0);
  ASSERT_EQ(Vertexctl("site register --site b --schema " + b.dir + "/schema.json " + online).exit_code, 0);
  const Result off = Vertexctl(AnnotateArgs("--store " + store, "--json"));
  const Result on = Vertexctl(AnnotateArgs(online, "--json"));
  ASSERT_EQ(off.exit_code, 0) << off.err;
  ASSERT_EQ(on.exit_code, 0) << on.err;
  EXPECT_THAT(on.out, HasSubstr("\"outcome\":\"ACCEPTED\""));
  EXPECT_EQ(test_support::MaskTimes(off.out), test_support::MaskTimes(on.out));
  // A feed by URL needs the server's fetcher: the server's error, as is.
  const Result url = Vertexctl("feed annotate --site b --feed http://blog.vertex-demo.test/feed/ " + online);
  EXPECT_EQ(url.exit_code, 1);
  EXPECT_THAT(url.err, HasSubstr("fetcher"));
  fs::remove_all(store);
}

TEST(FeedCli, HelpAndUsageErrors) {
  Result r = Vertexctl("feed --help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_THAT(r.out, HasSubstr("usage: vertexctl feed annotate"));
  EXPECT_THAT(r.out, HasSubstr("shared_date"));
  r = Vertexctl("feed annotate --site b --store /nonexistent");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("--feed"));
  r = Vertexctl("feed annotated --site b --feed f --store /nonexistent");
  EXPECT_EQ(r.exit_code, 2);
  r = Vertexctl("feed annotate --site b --feed /nonexistent/feed.xml --store /nonexistent");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_THAT(r.err, HasSubstr("/nonexistent/feed.xml"));
  r = Vertexctl("feed annotate --site b --feed f --map title --store /nonexistent");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("FIELD=ATTRIBUTE"));
}

}  // namespace
}  // namespace vertex::cli
