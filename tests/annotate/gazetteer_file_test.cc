#include "common/annotate/gazetteer_file.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "gtest/gtest.h"

namespace vertex::annotate {
namespace {

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(GazetteerFileTest, ReadsTermsSkippingCommentsAndBlankLines) {
  const std::string path = WriteTemp("vertex_gaz_ok.txt", "# towns\nOxford\n\n  Newport Pagnell  \nLeeds\r\n");
  absl::StatusOr<Gazetteer> g = ReadGazetteerFile(path);
  ASSERT_TRUE(g.ok()) << g.status();
  EXPECT_EQ(g->size(), 3u);
  EXPECT_TRUE(g->Contains("newport pagnell"));
  EXPECT_EQ(GazetteerText(*g), "Leeds\nNewport Pagnell\nOxford\n");
}

TEST(GazetteerFileTest, BadFilesAndSpecsNameTheProblem) {
  EXPECT_EQ(ReadGazetteerFile("/nonexistent/places.txt").status().code(), absl::StatusCode::kNotFound);
  const std::string bad = WriteTemp("vertex_gaz_bad.txt", "Oxford\nBad \xff byte\n");
  absl::StatusOr<Gazetteer> g = ReadGazetteerFile(bad);
  EXPECT_EQ(g.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(g.status().message().find(":2:"), std::string::npos) << g.status();
  const std::string long_term = WriteTemp("vertex_gaz_long.txt", std::string(300, 'a') + "\n");
  EXPECT_EQ(ReadGazetteerFile(long_term).status().code(), absl::StatusCode::kInvalidArgument);

  const std::string ok = WriteTemp("vertex_gaz_ok2.txt", "Oxford\n");
  absl::StatusOr<GazetteerSet> set = ReadGazetteerSpecs({"uk_places=" + ok});
  ASSERT_TRUE(set.ok()) << set.status();
  EXPECT_TRUE(set->at("uk_places")->Contains("Oxford"));
  EXPECT_EQ(ReadGazetteerSpecs({"no-equals"}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadGazetteerSpecs({"Bad=" + ok}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ReadGazetteerSpecs({"a=" + ok, "a=" + ok}).status().code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace vertex::annotate
