// A site's page builder through vertexd (gRPC): --page-builder is the
// builder of sites registered without one (default libxml2) and is stored
// with the site; a site built with libxml2 learns and extracts over gRPC
// (Extract and ExtractMany) with its own tree; a request that would change
// the builder of a site with pages fails with FAILED_PRECONDITION; an
// unknown --page-builder stops the server with a message naming the flag.
#include <cstdlib>
#include <string>
#include <vector>

#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/workflow/api_editor.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "tests/services/process.h"
#include "tests/testing/table_site.h"
#include "tests/testing/temp_dir.h"

namespace vertex {
namespace {

using test_support::ServerProcess;

client::ConnectOptions Options(const std::string& address) {
  client::ConnectOptions o;
  o.server = address;
  o.timeout_seconds = 120;
  return o;
}

v1::RegisterSiteRequest Register(const test_support::TableSite& site, const std::string& name) {
  v1::RegisterSiteRequest r;
  r.set_site(name);
  *r.mutable_schema() = site.schema_proto;
  return r;
}

TEST(SiteBuilderService, TheServerDefaultIsLibxml2AndStoredWithTheSite) {
  test_support::TempDir dir("site_builder_default");
  const test_support::TableSite site = test_support::MakeTableSite();
  {
    ServerProcess vertexd(VERTEXD_BIN, {"--store", dir.path() + "/store"}, dir.path(), "vertexd");
    ASSERT_NE(vertexd.port(), 0) << vertexd.log();
    auto learning = client::ConnectLearning(Options(vertexd.address())).value();
    absl::StatusOr<v1::RegisterSiteResponse> r = learning->RegisterSite(Register(site, "d"));
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->site().settings().page_builder(), v1::PAGE_BUILDER_LIBXML2);
  }
  // --page-builder gumbo: the default of new sites only.
  ServerProcess vertexd(VERTEXD_BIN, {"--store", dir.path() + "/store", "--page-builder", "gumbo"}, dir.path(),
                        "vertexd");
  ASSERT_NE(vertexd.port(), 0) << vertexd.log();
  auto learning = client::ConnectLearning(Options(vertexd.address())).value();
  absl::StatusOr<v1::RegisterSiteResponse> r = learning->RegisterSite(Register(site, "g"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->site().settings().page_builder(), v1::PAGE_BUILDER_GUMBO);
  r = learning->RegisterSite(Register(site, "d"));
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->site().settings().page_builder(), v1::PAGE_BUILDER_LIBXML2);
}

TEST(SiteBuilderService, HelpNamesTheDefault) {
  test_support::TempDir dir("site_builder_help");
  const std::string out = dir.path() + "/help.txt";
  ASSERT_EQ(std::system((std::string(VERTEXD_BIN) + " --help > " + out).c_str()), 0);
  const std::string help = util::ReadFile(out).value();
  EXPECT_NE(help.find("gumbo (HTML5) or libxml2 (default libxml2)"), std::string::npos) << help;
}

TEST(SiteBuilderService, AnUnknownBuilderFlagStopsTheServer) {
  test_support::TempDir dir("site_builder_bad_flag");
  ServerProcess vertexd(VERTEXD_BIN, {"--store", dir.path() + "/store", "--page-builder", "lxml"}, dir.path(),
                        "vertexd");
  EXPECT_EQ(vertexd.port(), 0);
  EXPECT_NE(vertexd.log().find("--page-builder"), std::string::npos) << vertexd.log();
  EXPECT_NE(vertexd.log().find("gumbo or libxml2"), std::string::npos) << vertexd.log();
}

TEST(SiteBuilderService, ALibxml2SiteLearnsAndExtractsOverGrpc) {
  if (!test_support::Libxml2Available()) GTEST_SKIP() << "the libxml2 page builder is not implemented in this build";
  test_support::TempDir dir("site_builder_libxml2");
  ServerProcess vertexd(VERTEXD_BIN, {"--store", dir.path() + "/store", "--page-builder", "libxml2"}, dir.path(),
                        "vertexd");
  ASSERT_NE(vertexd.port(), 0) << vertexd.log();
  auto learning = client::ConnectLearning(Options(vertexd.address())).value();
  auto extraction = client::ConnectExtraction(Options(vertexd.address())).value();
  const test_support::TableSite site = test_support::MakeTableSite();
  absl::StatusOr<schema::CompiledSchema> schema = schema::CompiledSchema::FromProto(site.schema_proto);
  ASSERT_TRUE(schema.ok()) << schema.status();
  workflow::ApiRunOptions options;
  options.max_pages = 1;  // no settings: the server's default, libxml2
  absl::StatusOr<workflow::ApiRunReport> report =
      workflow::RunSiteThroughApi(*learning, *extraction, "x", *schema, site.pages, site.truth, options);
  ASSERT_TRUE(report.ok()) << report.status();
  EXPECT_EQ(report->sample.settings().page_builder(), v1::PAGE_BUILDER_LIBXML2);
  ASSERT_EQ(report->records.size(), site.pages.size());
  for (const v1::ExtractResponse& r : report->records) {
    EXPECT_EQ(v1::ExtractedRecord::Status_Name(r.record().status()), "OK") << r.record().url();
    EXPECT_EQ(r.record().matched_by(), "signature") << r.record().url();
  }
  // Unary Extract: the maker comes out of the table libxml2 built.
  v1::ExtractRequest request;
  request.set_site("x");
  request.set_url(site.pages[5].url);
  request.set_html(site.pages[5].bytes);
  absl::StatusOr<v1::ExtractResponse> one = extraction->Extract(request);
  ASSERT_TRUE(one.ok()) << one.status();
  EXPECT_EQ(one->record().matched_by(), "signature");
  bool maker = false;
  for (const v1::ExtractedAttribute& a : one->record().attributes()) {
    if (a.attribute() != "maker") continue;
    maker = true;
    ASSERT_EQ(a.values_size(), 1);
    EXPECT_EQ(a.values(0), site.truth.pages.at("p5").at("maker").at(0));
  }
  EXPECT_TRUE(maker);
  // The site has pages and rules: another builder is refused.
  v1::RegisterSiteRequest change = Register(site, "x");
  change.mutable_settings()->set_page_builder(v1::PAGE_BUILDER_GUMBO);
  const absl::Status refused = learning->RegisterSite(change).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kFailedPrecondition) << refused;
  EXPECT_NE(refused.message().find("site \"x\" is built with page builder libxml2"), std::string::npos) << refused;
}

}  // namespace
}  // namespace vertex
