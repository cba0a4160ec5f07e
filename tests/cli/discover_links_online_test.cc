// vertexctl discover-links --add online (--server, an in-process learning
// service) and offline (--store) must agree: the same links, the same pages
// added to the site's sample. The model is learnt from list truth
// (--train-from-truth), since the client cannot read a stored model yet.
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/eval/list_truth.h"
#include "common/util/file.h"
#include "common/util/json_reader.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"
#include "tests/testing/http_server.h"

namespace vertex {
namespace {

using test_support::HttpRequest;
using test_support::HttpResponse;
using test_support::HttpServer;
using test_support::VertexctlResult;

VertexctlResult Vertexctl(const std::string& args) { return test_support::RunVertexctl(VERTEXCTL_PATH, "", args); }

// The "links" and "added" members of a --json output (the AddSamplePages
// response without its cluster ids, which are random).
std::string LinksAndAdded(const std::string& out) {
  absl::StatusOr<util::Json> j = util::ParseJson(out, "stdout");
  EXPECT_TRUE(j.ok()) << j.status() << out;
  if (!j.ok()) return "";
  std::string s;
  for (const util::Json& l : j->Find("links")->items) absl::StrAppend(&s, l.Find("url")->scalar, " ");
  const util::Json* added = j->Find("added");
  EXPECT_TRUE(added != nullptr) << out;
  if (added == nullptr) return s;
  return absl::StrCat(s, "| added ", added->Find("pages_added")->scalar, ", sample ",
                      added->Find("sample_pages")->scalar, ", fetched ", j->Find("fetched")->scalar);
}

TEST(DiscoverLinksOnlineTest, AddOnlineAndOfflineAgree) {
  std::string product_html;
  HttpServer http([&product_html](const HttpRequest& r) {
    HttpResponse response;
    if (r.path.starts_with("/p/")) {
      response.body = product_html;
    } else {
      response.status = 404;
    }
    return response;
  });
  ASSERT_TRUE(http.Start().ok());
  const std::string dir = test_support::TempPath("discover_links_online");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/pages");
  demo::SiteOptions o;
  o.host = absl::StrCat("127.0.0.1:", http.port());
  o.product_pages = 5;
  o.category_pages = 8;
  o.review_pages = 0;
  o.store_pages = 0;
  std::vector<eval::ListTruthPage> truth;
  for (const demo::GeneratedPage& p : demo::GenerateSite(o)) {
    if (p.template_name == "product" && product_html.empty()) product_html = p.html;
    if (p.template_name != "category") continue;
    truth.push_back(p.list_truth);
    ASSERT_TRUE(util::WriteFile(dir + "/pages/" + p.file_name, absl::StrCat("<base href=\"", p.url, "\"/>\n", p.html)).ok());
  }
  ASSERT_TRUE(eval::WriteListTruth(truth, dir + "/truth.jsonl").ok());
  std::unique_ptr<testing::EngineServer> server = testing::EngineServer::Start("");
  ASSERT_NE(server, nullptr);
  const std::string schema = " --site shop --schema " VERTEX_SOURCE_DIR "/deploy/schemas/product.json";
  ASSERT_EQ(Vertexctl("site register --server " + server->address() + schema).exit_code, 0);
  ASSERT_EQ(Vertexctl("site register --store " + dir + "/store" + schema).exit_code, 0);
  const std::string args = " --json --site shop --add --fetch-delay-ms 0 --truth " + dir +
                           "/truth.jsonl --train-from-truth 3 " + dir + "/pages";
  const VertexctlResult online = Vertexctl("discover-links --server " + server->address() + args);
  ASSERT_EQ(online.exit_code, 0) << online.err;
  const VertexctlResult offline = Vertexctl("discover-links --store " + dir + "/store" + args);
  ASSERT_EQ(offline.exit_code, 0) << offline.err;
  EXPECT_EQ(LinksAndAdded(online.out), LinksAndAdded(offline.out));
  EXPECT_NE(LinksAndAdded(online.out).find("| added "), std::string::npos);
  EXPECT_EQ(LinksAndAdded(online.out).find("| added 0,"), std::string::npos) << online.out;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vertex
