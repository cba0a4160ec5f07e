// vertexctl discover-links: the product links of the generated shop's
// category pages (a model trained from the list truth put into the store by
// the test), as lines and JSON; --add against a local HTTP server serving
// the shop; and its errors (no model, a bad page, unfetchable URLs).
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "common/demo/site_generator.h"
#include "common/eval/list_truth.h"
#include "common/html/page.h"
#include "common/lists/link_discovery.h"
#include "common/lists/truth_labels.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "common/util/json_reader.h"
#include "gtest/gtest.h"
#include "tests/cli/vertexctl_runner.h"
#include "tests/testing/http_server.h"

namespace vertex {
namespace {

using test_support::HttpRequest;
using test_support::HttpResponse;
using test_support::HttpServer;
using test_support::RunVertexctl;
using test_support::VertexctlResult;

VertexctlResult Vertexctl(const std::string& args) { return RunVertexctl(VERTEXCTL_PATH, "", args); }

// The shop served on 127.0.0.1, its category pages written to files, a
// store with a site "shop" and a model trained from 3 category pages.
class DiscoverLinksCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.Start().ok());
    dir_ = test_support::TempPath("discover_links_cli");
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ + "/pages");
    demo::SiteOptions o;
    o.host = absl::StrCat("127.0.0.1:", server_.port());
    o.product_pages = 10;
    o.category_pages = 12;
    o.review_pages = 0;
    o.store_pages = 0;
    for (demo::GeneratedPage& p : demo::GenerateSite(o)) {
      if (p.template_name == "product" && product_html_.empty()) product_html_ = p.html;
      if (p.template_name == "category") category_.push_back(std::move(p));
    }
    ASSERT_GE(category_.size(), 6u);
    for (size_t i = 3; i < category_.size(); ++i) {
      const std::string file = absl::StrCat(dir_, "/pages/", category_[i].file_name);
      ASSERT_TRUE(util::WriteFile(file, absl::StrCat("<base href=\"", category_[i].url, "\"/>\n", category_[i].html)).ok());
      for (const eval::TruthRecord& r : category_[i].list_truth.areas[0].records) {
        truth_.insert(lists::NormalizeUrl(r.link));
      }
    }
    PutModelAndSite();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void PutModelAndSite() {
    html::Parser parser;
    std::vector<html::Page> pages;
    for (size_t i = 0; i < 3; ++i) pages.push_back(parser.Parse(category_[i].html, category_[i].url).value());
    std::vector<lists::LabelledPage> labelled;
    for (size_t i = 0; i < 3; ++i) labelled.push_back(lists::LabelledPageFromTruth(category_[i].list_truth, pages[i]).value());
    const v1::ListModel model = lists::TrainListModel(labelled).value();
    const VertexctlResult r = Vertexctl("site register --store " + Store() + " --site shop --schema " +
                                        std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/product.json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    absl::StatusOr<std::unique_ptr<store::RuleStore>> store = store::OpenRocksDbStore(Store());
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE((*store)->PutListModel(model).ok());
  }

  std::string Store() const { return dir_ + "/store"; }
  std::string Pages() const { return dir_ + "/pages"; }

  // Serves product_html_ under /p/..., 404 for `missing` and anything else.
  HttpResponse Serve(const HttpRequest& request) {
    HttpResponse response;
    if (!request.path.starts_with("/p/") || missing_.contains(request.path)) {
      response.status = 404;
      response.body = "not found";
      return response;
    }
    response.body = product_html_;
    return response;
  }

  HttpServer server_{[this](const HttpRequest& r) { return Serve(r); }};
  std::set<std::string> missing_;
  std::string dir_;
  std::string product_html_;
  std::vector<demo::GeneratedPage> category_;
  std::set<std::string> truth_;  // the held-out pages' product links
};

TEST_F(DiscoverLinksCliTest, PrintsTheProductLinksOfHeldOutPages) {
  const VertexctlResult r = Vertexctl("discover-links --store " + Store() + " " + Pages());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t lines = 0;
  std::set<std::string> found;
  for (absl::string_view line : absl::StrSplit(r.out, '\n', absl::SkipEmpty())) {
    const std::vector<std::string> cols = absl::StrSplit(line, '\t');
    ASSERT_EQ(cols.size(), 3u) << line;
    EXPECT_TRUE(truth_.contains(cols[0])) << "not a product link: " << line;
    EXPECT_FALSE(cols[1].empty()) << line;  // the name, not the image link's ""
    EXPECT_TRUE(cols[2].starts_with("http://127.0.0.1:")) << line;
    found.insert(cols[0]);
    ++lines;
  }
  EXPECT_EQ(found.size(), lines);  // distinct
  EXPECT_GE(found.size(), truth_.size() * 95 / 100) << found.size() << " of " << truth_.size();
  // stderr says how many links and from which structures, with their verdicts.
  EXPECT_NE(r.err.find(absl::StrCat(lines, " link(s); hot-list structures seen: ")), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("  items: /html/body"), std::string::npos) << r.err;
  // --known leaves URLs out.
  const std::string known = dir_ + "/known.txt";
  ASSERT_TRUE(util::WriteFile(known, *found.begin() + "\n\n").ok());
  const VertexctlResult k = Vertexctl("discover-links --store " + Store() + " --known " + known + " " + Pages());
  ASSERT_EQ(k.exit_code, 0) << k.err;
  EXPECT_EQ(k.out.find(*found.begin() + "\t"), std::string::npos);
  EXPECT_EQ(std::count(k.out.begin(), k.out.end(), '\n'), static_cast<long>(lines) - 1);
}

TEST_F(DiscoverLinksCliTest, JsonSaysWhichStructureHoldsTheItems) {
  const VertexctlResult r = Vertexctl("discover-links --json --store " + Store() + " " + Pages());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  absl::StatusOr<util::Json> j = util::ParseJson(r.out, "stdout");
  ASSERT_TRUE(j.ok()) << j.status() << r.out;
  const util::Json* links = j->Find("links");
  const util::Json* structures = j->Find("structures");
  ASSERT_TRUE(links && structures);
  ASSERT_FALSE(links->items.empty());
  for (const util::Json& l : links->items) EXPECT_TRUE(truth_.contains(l.Find("url")->scalar)) << l.Find("url")->scalar;
  size_t items = 0;
  for (const util::Json& s : structures->items) items += s.Find("verdict")->scalar == "items" ? 1 : 0;
  EXPECT_EQ(items, 1u) << r.out;
}

TEST_F(DiscoverLinksCliTest, AddFetchesThePagesIntoTheSampleAndReportsFailures) {
  const std::string first = category_[3].list_truth.areas[0].records[0].link;
  const std::string first_path = first.substr(first.find("/p/"));
  missing_.insert(first_path);
  const VertexctlResult r = Vertexctl("discover-links --json --store " + Store() +
                                      " --site shop --add --fetch-delay-ms 0 " + Pages());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find(first), std::string::npos) << r.err;
  absl::StatusOr<util::Json> j = util::ParseJson(r.out, "stdout");
  ASSERT_TRUE(j.ok()) << j.status() << r.out;
  const size_t links = j->Find("links")->items.size();
  const util::Json* failed = j->Find("failed");
  ASSERT_TRUE(failed != nullptr);
  ASSERT_EQ(failed->items.size(), 1u) << r.out;
  EXPECT_EQ(failed->items[0].Find("url")->scalar, first);
  EXPECT_EQ(std::stoul(j->Find("fetched")->scalar), links - 1);
  const util::Json* added = j->Find("added");
  ASSERT_TRUE(added != nullptr) << r.out;
  EXPECT_EQ(std::stoul(added->Find("pages_added")->scalar), links - 1) << r.out;
  EXPECT_EQ(std::stoul(added->Find("sample_pages")->scalar), links - 1) << r.out;
  // Every fetch went through robots.txt first, then one request per URL.
  size_t robots = 0;
  for (const HttpRequest& q : server_.requests()) robots += q.path == "/robots.txt" ? 1 : 0;
  EXPECT_GE(robots, 1u);
  EXPECT_EQ(server_.requests().size(), links + robots);
}

// Measuring from the command line: the model learnt from the truth of the
// first 3 pages, the links scored against the rest's truth; no store.
TEST_F(DiscoverLinksCliTest, TrainFromTruthAndScore) {
  const std::string all = dir_ + "/all";
  std::filesystem::create_directories(all);
  std::vector<eval::ListTruthPage> truth;
  for (const demo::GeneratedPage& p : category_) {
    ASSERT_TRUE(util::WriteFile(all + "/" + p.file_name, absl::StrCat("<base href=\"", p.url, "\"/>\n", p.html)).ok());
    truth.push_back(p.list_truth);
  }
  ASSERT_TRUE(eval::WriteListTruth(truth, dir_ + "/truth.jsonl").ok());
  const VertexctlResult r =
      Vertexctl("discover-links --json --truth " + dir_ + "/truth.jsonl --train-from-truth 3 " + all);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  absl::StatusOr<util::Json> j = util::ParseJson(r.out, "stdout");
  ASSERT_TRUE(j.ok()) << j.status() << r.out;
  const util::Json* score = j->Find("score");
  ASSERT_TRUE(score != nullptr) << r.out;
  EXPECT_EQ(std::stoul(score->Find("truth")->scalar), truth_.size());
  EXPECT_GE(std::stod(score->Find("precision")->scalar), 0.95) << r.out;
  EXPECT_GE(std::stod(score->Find("recall")->scalar), 0.95) << r.out;
  // The training pages are not searched: no link comes from them.
  for (const util::Json& l : j->Find("links")->items) {
    for (size_t i = 0; i < 3; ++i) EXPECT_NE(l.Find("from_page")->scalar, category_[i].url);
  }
  // Lines: the last one is the score.
  const VertexctlResult lines =
      Vertexctl("discover-links --truth " + dir_ + "/truth.jsonl --train-from-truth 3 " + all);
  ASSERT_EQ(lines.exit_code, 0) << lines.err;
  EXPECT_NE(lines.out.find(absl::StrCat("# links ")), std::string::npos) << lines.out;
  // Errors: more training pages than have truth; --train-from-truth alone.
  VertexctlResult bad = Vertexctl("discover-links --truth " + dir_ + "/truth.jsonl --train-from-truth 999 " + all);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("only"), std::string::npos) << bad.err;
  bad = Vertexctl("discover-links --train-from-truth 3 " + all);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--truth"), std::string::npos) << bad.err;
}

TEST(DiscoverLinksHelpTest, DocumentsTheFlags) {
  const VertexctlResult r = Vertexctl("discover-links --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag : {"--store DIR", "--model-version N", "--known FILE", "--other-hosts", "--json", "--site SITE",
                           "--add", "--truth FILE", "--train-from-truth K", "--fetch-delay-ms MS", "--server"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
  EXPECT_NE(Vertexctl("help").out.find("\n  discover-links "), std::string::npos);
}

TEST_F(DiscoverLinksCliTest, Errors) {
  // No model: a store with a site and no list model.
  const std::string empty = dir_ + "/empty";
  ASSERT_EQ(Vertexctl("site register --store " + empty + " --site shop --schema " + std::string(VERTEX_SOURCE_DIR) +
                      "/deploy/schemas/product.json")
                .exit_code,
            0);
  VertexctlResult r = Vertexctl("discover-links --store " + empty + " " + Pages());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no list model"), std::string::npos) << r.err;
  r = Vertexctl("discover-links --store " + Store() + " --model-version 7 " + Pages());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("version 7"), std::string::npos) << r.err;
  // A bad page: empty.
  const std::string bad = dir_ + "/bad.html";
  ASSERT_TRUE(util::WriteFile(bad, "").ok());
  r = Vertexctl("discover-links --store " + Store() + " " + bad);
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  r = Vertexctl("discover-links --store " + Store() + " " + dir_ + "/nothing-here");
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("nothing-here"), std::string::npos) << r.err;
  // Usage errors.
  for (const std::string& args : {"--store " + Store(), "--store " + Store() + " --add " + Pages(),
                                  "--store " + Store() + " --site shop " + Pages(), Pages()}) {
    r = Vertexctl("discover-links " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace vertex
