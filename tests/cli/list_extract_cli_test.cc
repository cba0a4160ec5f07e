// vertexctl extract on a list page (a record-level rule in the store): one
// JSON line per record, with its page, record index, data area and the
// record's status; a detail page of the same site keeps its one line.
#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "common/store/rule_store.h"
#include "common/util/file.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/cli/vertexctl_runner.h"
#include "tests/testing/rule_builders.h"

namespace vertex {
namespace {

using test_support::XPathAttributeRule;

constexpr char kSchemaJson[] = R"({"vertical": "listing", "record_level": true, "attributes": [
  {"name": "title", "mandatory": true},
  {"name": "price", "type": "price", "regular": true, "pivot": true}]})";

void WriteStore(const std::string& dir) {
  auto store = store::OpenRocksDbStore(dir).value();
  v1::SiteRecord site;
  site.set_site("homes");
  ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(kSchemaJson, site.mutable_schema()).ok());
  ASSERT_TRUE(store->PutSite(site).ok());
  v1::ClusterRecord list, detail;
  list.set_cluster_id("list");
  list.set_url_regex(R"(http://homes\.test/search/.*)");
  detail.set_cluster_id("detail");
  detail.set_url_regex(R"(http://homes\.test/flat/.*)");
  ASSERT_TRUE(store->PutClusters("homes", {list, detail}).ok());
  store::RuleCommit commit;
  commit.rule.set_site("homes");
  commit.rule.set_cluster_id("list");
  commit.rule.mutable_record()->set_record_xpath("//ul/li");
  commit.rule.mutable_record()->set_record_length(1);
  *commit.rule.mutable_record()->add_attributes() = XPathAttributeRule("title", "h3/text()");
  *commit.rule.mutable_record()->add_attributes() = XPathAttributeRule("price", "b/text()");
  ASSERT_TRUE(store->CommitRule(commit).ok());
  store::RuleCommit d;
  d.rule.set_site("homes");
  d.rule.set_cluster_id("detail");
  *d.rule.add_attributes() = XPathAttributeRule("title", "//h1/text()");
  ASSERT_TRUE(store->CommitRule(d).ok());
}

TEST(ListExtractCliTest, OneLinePerRecordWithItsPage) {
  const std::string dir = test_support::TempPath("list_extract_cli");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir + "/pages");
  WriteStore(dir + "/store");
  // A page file's URL: a <base href> on its first line.
  ASSERT_TRUE(util::WriteFile(dir + "/pages/a.htm",
                              "<base href=\"http://homes.test/search/1\">\n<html><body><ul><li><h3>Flat A</h3><b>£100</b></li><li><h3>Flat B</h3></li></ul>"
                              "<ul><li><h3>Flat C</h3><b>£300</b></li></ul></body></html>")
                  .ok());
  const test_support::VertexctlResult r = test_support::RunVertexctl(
      VERTEXCTL_PATH, "t", "extract --store " + dir + "/store --site homes " + dir + "/pages/a.htm");
  ASSERT_EQ(r.exit_code, 0) << r.err << r.out;
  const std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  std::filesystem::remove_all(dir);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  const char* titles[] = {"Flat A", "Flat B", "Flat C"};
  const char* statuses[] = {"OK", "PARTIAL", "OK"};
  const double areas[] = {0, 0, 1};
  for (size_t i = 0; i < 3; ++i) {
    google::protobuf::Struct line;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(lines[i], &line).ok()) << lines[i];
    const auto& f = line.fields();
    EXPECT_EQ(f.at("file").string_value(), dir + "/pages/a.htm");
    EXPECT_EQ(f.at("url").string_value(), "http://homes.test/search/1");
    EXPECT_EQ(f.at("cluster").string_value(), "list");
    EXPECT_EQ(f.at("record").number_value(), static_cast<double>(i));
    EXPECT_EQ(f.at("data_area").number_value(), areas[i]);
    EXPECT_EQ(f.at("status").string_value(), statuses[i]);
    EXPECT_EQ(f.at("attributes").struct_value().fields().at("title").list_value().values(0).string_value(), titles[i]);
  }
}

// A user's whole offline flow on a generated result-list site: gen-demo,
// the site registered, its gazetteer seeded from the generated place names,
// `learn` with no annotations (AMBER), then `extract` gives one line per
// record. Regression: `learn` of a record-level site read a destroyed
// temporary rule (the merged cluster signatures) and crashed.
TEST(ListExtractCliTest, GeneratedListingSiteLearntByAmberThroughTheCli) {
  const std::string dir = test_support::TempPath("list_learn_cli");
  std::filesystem::remove_all(dir);
  const std::string schema = std::string(VERTEX_SOURCE_DIR) + "/deploy/schemas/real_estate.json";
  auto run = [&](const std::string& args) {
    const test_support::VertexctlResult r = test_support::RunVertexctl(VERTEXCTL_PATH, "t", args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err << r.out;
    return r;
  };
  run("gen-demo --kind listings --domain real_estate --pages 20 --seed 9 " + dir + "/site");
  run("site register --store " + dir + "/store --site homes --schema " + schema);
  run("gazetteer learn --store " + dir + "/store --site homes --attribute location --seed " + dir +
      "/site/places.txt --pages " + dir + "/site --rounds 1");
  const test_support::VertexctlResult learnt =
      run("learn --store " + dir + "/store --site homes --schema " + schema + " --sample " + dir + "/site");
  EXPECT_NE(learnt.out.find("\"record\":{\"record_xpath\""), std::string::npos) << learnt.out.substr(0, 2000);
  const test_support::VertexctlResult got =
      run("extract --store " + dir + "/store --site homes " + dir + "/site/0003.htm");
  const std::vector<std::string> lines = absl::StrSplit(got.out, '\n', absl::SkipEmpty());
  EXPECT_GE(lines.size(), 3u) << got.out;
  for (const std::string& line : lines) {
    google::protobuf::Struct record;
    ASSERT_TRUE(google::protobuf::util::JsonStringToMessage(line, &record).ok()) << line;
    EXPECT_TRUE(record.fields().count("record")) << line;
  }
  // A detail schema still needs annotations.
  const test_support::VertexctlResult refused = test_support::RunVertexctl(
      VERTEXCTL_PATH, "t",
      "learn --store " + dir + "/store2 --site b --schema " + std::string(VERTEX_SOURCE_DIR) +
          "/deploy/schemas/book.json --sample " + dir + "/site");
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.err.find("give --annotations"), std::string::npos) << refused.err;
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace vertex
