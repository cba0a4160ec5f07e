// Tiny sites online (issue 11, item 3): the gRPC clients against an
// in-process server (engine_services.h) learn sites of 1-30 pages from one
// annotated page per template, as the engines do in process
// (tests/workflow/tiny_sites_test.cc); vertexctl sends --threshold and
// --sample-rate as the site's settings online and offline alike, says when
// a sample was clustered into no cluster (exit 3), and `tasks` says so too
// instead of "was never clustered".
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <regex>
#include <string>

#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"
#include "tests/testing/tiny_sites.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

using test_support::MakeTinySite;
using test_support::TinySite;
using test_support::TinySiteCase;

constexpr char kToken[] = "tiny-test-token";

TEST(TinySitesOnline, OneAnnotatedPagePerTemplateLearnsTheSite) {
  for (const TinySiteCase& c : test_support::TinySiteCases()) {
    SCOPED_TRACE(c.Name());
    const TinySite site = MakeTinySite(c);
    std::unique_ptr<testing::EngineServer> server = testing::EngineServer::Start(kToken);
    ASSERT_NE(server, nullptr);
    client::ConnectOptions options;
    options.server = server->address();
    options.token = kToken;
    std::unique_ptr<workflow::LearningApi> learning = client::ConnectLearning(options).value();
    std::unique_ptr<workflow::ExtractionApi> extraction = client::ConnectExtraction(options).value();
    workflow::ApiRunOptions run;
    run.max_pages = 1;
    absl::StatusOr<workflow::ApiRunReport> report =
        workflow::RunSiteThroughApi(*learning, *extraction, "tiny", site.schema, site.pages, site.truth, run);
    ASSERT_TRUE(report.ok()) << report.status();
    test_support::ExpectTinySiteLearnt(c, site, *report);
  }
}

using Result = test_support::VertexctlResult;
using test_support::MaskTimes;

std::string Tmp(const std::string& name) { return test_support::TempPath(name); }

Result Vertexctl(const std::string& args) { return test_support::RunVertexctl(VERTEXCTL_PATH, kToken, args); }

// A 10-page site of one template as page files (URL on a <base> first
// line), its schema, and annotations of its first page.
struct SiteFiles {
  std::string dir, schema, annotations;
};

const SiteFiles& TenPages() {
  static const SiteFiles files = [] {
    SiteFiles f{Tmp("tiny_site"), Tmp("tiny_schema") + ".json", Tmp("tiny_annotations") + ".jsonl"};
    fs::remove_all(f.dir);
    fs::create_directories(f.dir);
    const TinySite site = MakeTinySite({1, 10});
    for (size_t i = 0; i < site.generated.size(); ++i) {
      const std::string name = f.dir + "/" + site.pages[i].file;
      EXPECT_TRUE(util::WriteFile(name, "<base href=\"" + site.generated[i].url + "\">\n" + site.pages[i].bytes).ok());
    }
    EXPECT_TRUE(util::WriteFile(f.schema, demo::VersionedSiteSchemaJson()).ok());
    std::string lines;
    for (const auto& [attribute, values] : site.generated[0].truth) {
      if (values.empty()) continue;
      lines += "{\"file\":\"p0.htm\",\"attribute\":";
      util::AppendJsonString(attribute, &lines);
      lines += ",\"value\":";
      util::AppendJsonString(values[0], &lines);
      lines += "}\n";
    }
    EXPECT_TRUE(util::WriteFile(f.annotations, lines).ok());
    return f;
  }();
  return files;
}

class TinySitesCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::EngineServer::Start(kToken);
    ASSERT_NE(server_, nullptr);
    store_ = Tmp("tiny_store");
    fs::remove_all(store_);
  }
  void TearDown() override { fs::remove_all(store_); }

  // `command args` offline and online: the same exit code and output.
  Result Both(const std::string& command, const std::string& args) {
    const Result offline = Vertexctl(command + " --store " + store_ + " " + args);
    const Result online = Vertexctl(command + " --server " + server_->address() + " " + args);
    EXPECT_EQ(online.exit_code, offline.exit_code) << command << " " << args << ": " << online.err << offline.err;
    EXPECT_EQ(MaskTimes(online.out), MaskTimes(offline.out)) << command << " " << args;
    EXPECT_EQ(online.err, offline.err) << command << " " << args;
    return offline;
  }

  std::unique_ptr<testing::EngineServer> server_;
  std::string store_;
};

// Regressions: --threshold refused online; zero clusters with exit 0 and
// no message; "was never clustered" of a sample that was.
TEST_F(TinySitesCliTest, ThresholdIsASiteSettingAndZeroClustersAreSaid) {
  const SiteFiles& f = TenPages();
  Result r = Both("site", "register --site tiny --schema " + f.schema + " --threshold 20");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"settings\":{\"prune_threshold\":20,\"sample_rate\":0,\"no_rule_transfer\":false,\"page_builder\":\"PAGE_BUILDER_LIBXML2\"}"),
            std::string::npos)
      << r.out;
  r = Both("site", "add-pages --site tiny " + f.dir);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("\"clusters\":[]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"prune_threshold\":20"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("vertexctl site: the sample of site \"tiny\" (10 pages) was clustered into no cluster: every "
                       "masked vector was pruned (threshold 20)"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("--threshold"), std::string::npos) << r.err;
  r = Both("tasks", "--site tiny");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.find("never clustered"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("was clustered into no cluster"), std::string::npos) << r.err;
  // The adaptive threshold, given with the pages: one cluster.
  r = Both("site", "add-pages --site tiny --threshold 0 " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_NE(r.out.find("\"settings\":{\"prune_threshold\":0,\"sample_rate\":0.2,\"no_rule_transfer\":false,\"page_builder\":\"PAGE_BUILDER_LIBXML2\"},"
                       "\"prune_threshold\":1"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"clusters\":[{\"cluster_id\":\"c0\""), std::string::npos) << r.out;
  // tasks shows the settings and the threshold.
  r = Both("tasks", "--site tiny");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"settings\":{\"prune_threshold\":0,\"sample_rate\":0.2,\"no_rule_transfer\":false,\"page_builder\":\"PAGE_BUILDER_LIBXML2\"},"
                       "\"prune_threshold\":1,\"sample_pages\":10,\"unassigned_pages\":0"),
            std::string::npos)
      << r.out;
  // Later add-pages without the flags keep the stored settings.
  r = Both("site", "add-pages --site tiny " + f.dir + "/p1.htm");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"prune_threshold\":1"), std::string::npos) << r.out;
}

TEST_F(TinySitesCliTest, LearnTakesTheSettingsOnlineAndOffline) {
  const SiteFiles& f = TenPages();
  const std::string args =
      "--site tiny --schema " + f.schema + " --annotations " + f.annotations + " --sample " + f.dir;
  Result r = Both("learn", args + " --threshold 20");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("was clustered into no cluster"), std::string::npos) << r.err;
  r = Both("learn", args + " --threshold 0 --sample-rate 0.5");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"learnt\":[{\"cluster_id\":\"c0\""), std::string::npos) << r.out.substr(0, 400);
  EXPECT_NE(r.out.find("\"code\":\"learnt\""), std::string::npos) << r.out.substr(0, 400);
  r = Both("tasks", "--site tiny");
  EXPECT_NE(r.out.find("\"settings\":{\"prune_threshold\":0,\"sample_rate\":0.5,"), std::string::npos) << r.out;
  // Offline-only clustering flags are still refused online.
  r = Vertexctl("learn --server " + server_->address() + " " + args + " --seed 3");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--seed applies to --store only"), std::string::npos) << r.err;
}

// --page-builder is a site setting, online and offline alike: stored with
// the site, kept by later commands without it, and another builder for a
// site with pages is refused saying what to do.
TEST_F(TinySitesCliTest, PageBuilderIsStoredWithTheSiteOnlineAndOffline) {
  const SiteFiles& f = TenPages();
  Result r = Both("site", "register --site tb --schema " + f.schema + " --page-builder libxml2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_LIBXML2\""), std::string::npos) << r.out;
  r = Both("site", "add-pages --site tb --threshold 1 " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"prune_threshold\":1,\"sample_rate\":0.2,\"no_rule_transfer\":false,"
                       "\"page_builder\":\"PAGE_BUILDER_LIBXML2\""),
            std::string::npos)
      << r.out;
  r = Both("site", "register --site tb --schema " + f.schema + " --page-builder gumbo");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("site \"tb\" is built with page builder libxml2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("delete the site"), std::string::npos) << r.err;
  // The builder alone keeps the stored threshold.
  r = Both("site", "add-pages --site tb --page-builder libxml2 " + f.dir + "/p1.htm");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"settings\":{\"prune_threshold\":1,"), std::string::npos) << r.out;
  r = Vertexctl("site register --store " + store_ + " --site tc --schema " + f.schema + " --page-builder lxml");
  EXPECT_EQ(r.exit_code, 2);  // a usage error
  EXPECT_NE(r.err.find("--page-builder: unknown page builder 'lxml': expected gumbo or libxml2"), std::string::npos)
      << r.err;
}

// libxml2 is the default builder of a new site; a site registered with
// Gumbo keeps it when register, add-pages and learn name no builder, online
// and offline alike (none of them fails or flips it).
TEST_F(TinySitesCliTest, AGumboSiteKeepsGumboWhenCommandsNameNoBuilder) {
  const SiteFiles& f = TenPages();
  Result r = Both("site", "register --site fresh --schema " + f.schema);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_LIBXML2\""), std::string::npos) << r.out;
  r = Both("site", "register --site g --schema " + f.schema + " --page-builder gumbo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_GUMBO\""), std::string::npos) << r.out;
  r = Both("site", "add-pages --site g --threshold 1 " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_GUMBO\""), std::string::npos) << r.out;
  r = Both("site", "register --site g --schema " + f.schema);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"created\":false"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_GUMBO\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PAGE_BUILDER_LIBXML2"), std::string::npos) << r.out;
  r = Both("learn", "--site g --schema " + f.schema + " --annotations " + f.annotations + " --sample " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = Both("tasks", "--site g");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"page_builder\":\"PAGE_BUILDER_GUMBO\""), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("PAGE_BUILDER_LIBXML2"), std::string::npos) << r.out;
}

TEST(TinySitesCli, HelpTellsTheTruth) {
  for (const char* command : {"site", "learn", "cluster"}) {
    const Result r = Vertexctl(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command;
    for (const char* text : {"--threshold N", "--sample-rate R", "adaptive", "clamp(sample pages / 50, 1, 20)"}) {
      EXPECT_NE(r.out.find(text), std::string::npos) << command << " --help lacks " << text;
    }
    // The old help: "prune masked vectors counted by fewer than N sample pages (default 20)".
    EXPECT_EQ(r.out.find("sample pages (default 20)"), std::string::npos) << command;
  }
  const Result site = Vertexctl("site --help");
  EXPECT_NE(site.out.find("Exit code: 0 done; 3 the pages were added and the sample clustered into no cluster"),
            std::string::npos)
      << site.out;
  EXPECT_NE(site.out.find("stored with the site"), std::string::npos) << site.out;
  for (const char* command : {"site", "learn", "cluster", "eval-swde", "demo", "amber", "xhtml", "discover-links"}) {
    const Result r = Vertexctl(std::string(command) + " --help");
    EXPECT_NE(r.out.find("--page-builder gumbo|libxml2"), std::string::npos) << command << " --help lacks it";
  }
}

// vertexctl cluster (offline, no store): the adaptive threshold by default,
// --threshold as given.
TEST(TinySitesCli, ClusterAdaptsItsThreshold) {
  const SiteFiles& f = TenPages();
  Result r = Vertexctl("cluster " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"sample_size\":10,\"prune_threshold\":1,\"clusters\":[{\"id\":0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"unassigned\":[]"), std::string::npos) << r.out;
  r = Vertexctl("cluster --threshold 20 " + f.dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("\"prune_threshold\":20,\"clusters\":[]"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace vertex::cli
