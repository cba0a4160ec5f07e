// An editor finishing a site with vertexctl alone (issue 11), offline and
// online with the same output: the generated variant site (one page type
// in several clusters under one URL pattern, rare pages no signature
// covers; common/demo/variant_site.h) as page files; `tasks` says which
// file to annotate in which cluster, the editor writes its annotations and
// runs `learn --cluster`, until no cluster asks for more. Regressions:
// annotations of every cluster land in that cluster (they used to go to
// the first cluster whose URL regex matched, NOT_FOUND); every page then
// gets its record; `monitor` with the unchanged pages says OK (it used to
// route pages by URL regex and say CHANGED).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/demo/variant_site.h"
#include "common/util/file.h"
#include "common/util/json_writer.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "tests/cli/engine_services.h"
#include "tests/cli/vertexctl_runner.h"
#include "vertex/v1/learning.pb.h"

namespace vertex::cli {
namespace {

namespace fs = std::filesystem;

constexpr char kToken[] = "variant-token";

using Result = test_support::VertexctlResult;

std::string Tmp(const std::string& name) { return test_support::TempPath(name); }

Result Vertexctl(const std::string& args) { return test_support::RunVertexctl(VERTEXCTL_PATH, kToken, args); }

// Timestamps and durations masked: offline and online runs compare equal.
std::string MaskTimes(const std::string& out) {
  static const std::regex kSeconds("in [0-9.]+ (m?s)");
  return std::regex_replace(test_support::MaskTimes(out), kSeconds, "in T $1");
}

// The editor's annotations of one generated page, as JSON Lines.
std::string AnnotationsOf(const std::string& file, const demo::VariantPage& page) {
  std::string lines;
  for (const auto& [attribute, values] : page.truth) {
    lines += "{\"file\":";
    util::AppendJsonString(file, &lines);
    lines += ",\"attribute\":";
    util::AppendJsonString(attribute, &lines);
    if (values.empty()) {
      lines += ",\"absent\":true}\n";
      continue;
    }
    lines += ",\"values\":[";
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0) lines += ",";
      util::AppendJsonString(values[i], &lines);
    }
    lines += "]}\n";
  }
  return lines;
}

class VariantSiteCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    server_ = testing::EngineServer::Start(kToken);
    ASSERT_NE(server_, nullptr);
    store_ = Tmp("variant_store");
    dir_ = Tmp("variant_site");
    fs::remove_all(store_);
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    demo::VariantSiteOptions o;
    o.pages = 600;
    pages_ = demo::GenerateVariantSite(o);
    for (size_t i = 0; i < pages_.size(); ++i) {
      const std::string name = absl::StrCat(dir_, "/p", i, ".htm");
      by_file_[name] = i;
      ASSERT_TRUE(util::WriteFile(name, "<base href=\"" + pages_[i].url + "\">\n" + pages_[i].html).ok());
    }
    schema_ = Tmp("variant_schema") + ".json";
    ASSERT_TRUE(util::WriteFile(schema_, demo::VariantSiteSchemaJson()).ok());
  }
  void TearDown() override {
    fs::remove_all(store_);
    fs::remove_all(dir_);
  }

  Result Both(const std::string& command, const std::string& args) {
    const Result offline = Vertexctl(command + " --store " + store_ + " " + args);
    const Result online = Vertexctl(command + " --server " + server_->address() + " " + args);
    EXPECT_EQ(online.exit_code, offline.exit_code) << command << " " << args << ": " << online.err << offline.err;
    EXPECT_EQ(MaskTimes(online.out), MaskTimes(offline.out)) << command << " " << args;
    return offline;
  }

  // The editor's loop through vertexctl, the site registered with
  // `flags`: returns the pages annotated and the clusters learnt.
  std::pair<size_t, std::set<std::string>> Finish(const std::string& flags) {
    EXPECT_EQ(Both("site", "register --site books --schema " + schema_ + " " + flags).exit_code, 0);
    Result r = Both("site", "add-pages --site books " + dir_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    size_t annotated = 0;
    std::set<std::string> learnt_clusters;
    for (int round = 0; round < 20; ++round) {
      r = Both("tasks", "--site books");
      EXPECT_EQ(r.exit_code, 0) << r.err;
      v1::GetAnnotationTasksResponse tasks;
      google::protobuf::util::JsonParseOptions lenient;
      lenient.ignore_unknown_fields = true;
      EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(r.out, &tasks, lenient).ok()) << r.out;
      const v1::AnnotationTask* task = nullptr;
      for (const v1::AnnotationTask& t : tasks.tasks()) {
        if (!t.cluster_id().empty()) {
          task = &t;
          break;
        }
      }
      if (task == nullptr) break;  // every cluster done
      EXPECT_FALSE(task->file().empty()) << "tasks name the page's file";
      EXPECT_TRUE(by_file_.count(task->file())) << task->file();
      const std::string annotations = Tmp("variant_annotations") + ".jsonl";
      EXPECT_TRUE(util::WriteFile(annotations, AnnotationsOf(task->file(), pages_[by_file_[task->file()]])).ok());
      r = Both("learn", "--site books --schema " + schema_ + " --annotations " + annotations + " --sample " + dir_ +
                            " --cluster " + task->cluster_id());
      EXPECT_EQ(r.exit_code, 0) << r.err;
      // The annotations went to the cluster tasks named.
      EXPECT_NE(r.out.find("\"learnt\":[{\"cluster_id\":\"" + task->cluster_id() + "\""), std::string::npos)
          << r.out.substr(0, 300);
      // The stored sample is not sent again.
      EXPECT_NE(r.out.find("\"errors\":[]"), std::string::npos);
      ++annotated;
      learnt_clusters.insert(task->cluster_id());
    }
    std::cout << "pages annotated through vertexctl: " << annotated << " (clusters " << learnt_clusters.size()
              << ")\n";
    EXPECT_GE(annotated, 1u);
    EXPECT_LE(annotated, 10u);
    r = Both("extract", "--site books " + dir_);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    size_t ok = 0, nearest = 0, titles = 0;
    for (const auto& [file, i] : by_file_) {
      std::string title = "\"title\":[";
      util::AppendJsonString(pages_[i].truth.at("title")[0], &title);
      titles += r.out.find(title + "]") != std::string::npos;
    }
    for (size_t at = 0; (at = r.out.find("\"status\":\"OK\"", at)) != std::string::npos; ++at) ++ok;
    for (size_t at = 0; (at = r.out.find("\"matched_by\":\"nearest\"", at)) != std::string::npos; ++at) ++nearest;
    EXPECT_EQ(ok, pages_.size());
    EXPECT_GT(nearest, 0u) << "rare pages no signature covers get their records";
    EXPECT_GE(titles, pages_.size() * 99 / 100);
    r = Both("monitor", "books --dry-run " + dir_);
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;

    return {annotated, learnt_clusters};
  }

  std::unique_ptr<testing::EngineServer> server_;
  std::string store_, dir_, schema_;
  std::vector<demo::VariantPage> pages_;
  std::map<std::string, size_t> by_file_;
};

TEST_F(VariantSiteCliTest, AnEditorFinishesTheSiteWithVertexctl) {
  const auto [annotated, clusters] = Finish("");
  std::cout << "rule transfer on: " << annotated << " pages annotated, " << clusters.size() << " clusters learnt\n";
  EXPECT_GE(annotated, 1u);
  EXPECT_LE(annotated, 6u);
}

// Without rule transfer every cluster is annotated, each in its own
// cluster although their URL regexes are the same.
TEST_F(VariantSiteCliTest, WithoutRuleTransferEveryClusterIsLearntInPlace) {
  const auto [annotated, clusters] = Finish("--rule-transfer off");
  std::cout << "rule transfer off: " << annotated << " pages annotated, " << clusters.size() << " clusters learnt\n";
  EXPECT_GE(clusters.size(), 3u);
  EXPECT_LE(annotated, 2 * clusters.size() + 2);
}

}  // namespace
}  // namespace vertex::cli
