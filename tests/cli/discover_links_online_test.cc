// vertexctl discover-links --add online (--server, an in-process learning
// service) and offline (--store) must agree: the same links, the same pages
// added to the site's sample. The model is learnt from list truth
// (--train-from-truth), or read from the store (GetListModel) after the test
// put the same model into both stores.
#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/demo/site_generator.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/lists/list_finder.h"
#include "common/lists/truth_labels.h"
#include "common/store/rule_store.h"
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
  std::vector<demo::GeneratedPage> category;
  for (demo::GeneratedPage& p : demo::GenerateSite(o)) {
    if (p.template_name == "product" && product_html.empty()) product_html = p.html;
    if (p.template_name != "category") continue;
    truth.push_back(p.list_truth);
    category.push_back(p);
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

  // A stored model, read with GetListModel offline and online: the same links.
  html::Parser parser;
  std::vector<html::Page> pages;
  std::vector<lists::LabelledPage> labelled;
  for (size_t i = 0; i < 3; ++i) pages.push_back(parser.Parse(category[i].html, category[i].url).value());
  for (size_t i = 0; i < 3; ++i) labelled.push_back(lists::LabelledPageFromTruth(truth[i], pages[i]).value());
  const v1::ListModel model = lists::TrainListModel(labelled).value();
  ASSERT_TRUE(server->engines().store->PutListModel(model).ok());
  {
    absl::StatusOr<std::unique_ptr<store::RuleStore>> store = store::OpenRocksDbStore(dir + "/store");
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE((*store)->PutListModel(model).ok());
  }
  const VertexctlResult stored_online = Vertexctl("discover-links --server " + server->address() + " " + dir + "/pages");
  ASSERT_EQ(stored_online.exit_code, 0) << stored_online.err;
  const VertexctlResult stored_offline = Vertexctl("discover-links --store " + dir + "/store " + dir + "/pages");
  ASSERT_EQ(stored_offline.exit_code, 0) << stored_offline.err;
  EXPECT_EQ(stored_online.out, stored_offline.out);
  EXPECT_GT(std::count(stored_online.out.begin(), stored_online.out.end(), '\n'), 10);
  const VertexctlResult missing =
      Vertexctl("discover-links --model-version 9 --server " + server->address() + " " + dir + "/pages");
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("version 9"), std::string::npos) << missing.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vertex
