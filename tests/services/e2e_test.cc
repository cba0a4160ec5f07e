// End to end on loopback: the three services as separate processes over one
// store (the learning service writing it, the extraction and monitoring
// services reading it as RocksDB secondaries), driven through the gRPC
// clients of services/client.
#include <atomic>
#include <filesystem>
#include <thread>

#include "common/demo/site_generator.h"
#include "common/eval/ground_truth.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "tests/services/process.h"
#include "tests/testing/temp_dir.h"

namespace vertex {
namespace {

namespace fs = std::filesystem;
using test_support::ServerProcess;
using ::testing::HasSubstr;

constexpr char kToken[] = "e2e-secret";

struct SiteData {
  std::string name;
  schema::CompiledSchema schema;
  std::vector<workflow::ClientPage> pages;
  eval::GroundTruth truth;
};

SiteData* DemoSite(const std::string& dir) {
  demo::SiteOptions options;
  options.product_pages = 150;
  options.category_pages = 50;
  options.review_pages = 30;
  options.store_pages = 30;
  EXPECT_TRUE(demo::WriteSite(demo::GenerateSite(options), dir).ok());
  return new SiteData{"shop", schema::CompiledSchema::FromJson(demo::SchemaJson("product"), "product").value(),
                      workflow::ReadClientPages({dir}, 8 << 20).value(),
                      eval::LoadGroundTruth(dir + "/groundtruth/product", "vertexdemo").value()};
}

class ServicesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    demo_dir_ = new test_support::TempDir("e2e_demo");
    demo_ = DemoSite(demo_dir_->path());
  }
  static void TearDownTestSuite() {
    delete demo_;
    delete demo_dir_;
  }

  void SetUp() override {
    store_ = dir_.path() + "/store";
    StartLearning();
    StartReaders();
  }

  void StartLearning() {
    learning_ = std::make_unique<ServerProcess>(VERTEX_LEARNING_BIN,
                                                std::vector<std::string>{"--store", store_, "--auth-token", kToken},
                                                dir_.path(), "learning");
    ASSERT_NE(learning_->port(), 0) << learning_->log();
  }

  std::unique_ptr<ServerProcess> StartReader(const char* binary, const std::string& name) {
    return std::make_unique<ServerProcess>(
        binary,
        std::vector<std::string>{"--store", store_, "--learning-server", learning_->address(), "--secondary-dir",
                                 dir_.path() + "/" + name + "-secondary", "--catch-up-ms", "500"},
        dir_.path(), name);
  }

  void StartReaders() {
    extraction_ = StartReader(VERTEX_EXTRACTION_BIN, "extraction");
    ASSERT_NE(extraction_->port(), 0) << extraction_->log();
    monitoring_ = StartReader(VERTEX_MONITORING_BIN, "monitoring");
    ASSERT_NE(monitoring_->port(), 0) << monitoring_->log();
  }

  client::ConnectOptions Options(const std::string& address, const std::string& token = kToken) {
    client::ConnectOptions o;
    o.server = address;
    o.token = token;
    o.timeout_seconds = 120;
    return o;
  }
  std::unique_ptr<workflow::LearningApi> Learning(const std::string& token = kToken) {
    return client::ConnectLearning(Options(learning_->address(), token)).value();
  }
  std::unique_ptr<workflow::ExtractionApi> Extraction() {
    return client::ConnectExtraction(Options(extraction_->address())).value();
  }

  // Runs `site` through the services; returns the report.
  workflow::ApiRunReport Run(const SiteData& site) {
    auto learning = Learning();
    auto extraction = Extraction();
    absl::StatusOr<workflow::ApiRunReport> report =
        workflow::RunSiteThroughApi(*learning, *extraction, site.name, site.schema, site.pages, site.truth);
    EXPECT_TRUE(report.ok()) << report.status();
    if (!report.ok()) return {};
    std::cout << workflow::FormatRunReport(site.name, site.schema, *report);
    return *std::move(report);
  }

  // The first cluster with a rule, and a page of it.
  std::pair<std::string, const workflow::ClientPage*> LearntCluster(const workflow::ApiRunReport& report) {
    for (const v1::LearnResponse& l : report.learnt) {
      if (l.version() == 0) continue;
      for (const workflow::ClientPage& p : demo_->pages) {
        if (p.url == l.annotated_urls(0)) return {l.rule().cluster_id(), &p};
      }
    }
    return {"", nullptr};
  }

  v1::ExtractRequest Request(const workflow::ClientPage& page) {
    v1::ExtractRequest r;
    r.set_site(demo_->name);
    r.set_url(page.url);
    r.set_html(page.bytes);
    return r;
  }

  static test_support::TempDir* demo_dir_;
  static SiteData* demo_;
  test_support::TempDir dir_{"e2e"};
  std::string store_;
  std::unique_ptr<ServerProcess> learning_, extraction_, monitoring_;
};

test_support::TempDir* ServicesTest::demo_dir_ = nullptr;
SiteData* ServicesTest::demo_ = nullptr;

void ExpectSameRecords(const std::vector<v1::ExtractResponse>& online, const std::vector<v1::ExtractResponse>& offline) {
  ASSERT_EQ(online.size(), offline.size());
  size_t differ = 0;
  for (size_t i = 0; i < online.size(); ++i) {
    if (online[i].SerializeAsString() != offline[i].SerializeAsString()) {
      if (++differ <= 3) ADD_FAILURE() << "page " << i << "\nonline: " << online[i].ShortDebugString()
                                       << "\noffline: " << offline[i].ShortDebugString();
    }
  }
  EXPECT_EQ(differ, 0u);
}

// The records the offline engine gives on the store the services wrote (the
// learning service stopped: the store is free).
std::vector<v1::ExtractResponse> OfflineRecords(const std::string& store_dir, const SiteData& site) {
  auto store = store::OpenRocksDbStore(store_dir, {.create_if_missing = false}).value();
  workflow::ExtractionEngine engine(store.get(), {});
  std::vector<v1::ExtractRequest> requests;
  for (size_t i = 0; i < site.pages.size(); ++i) {
    v1::ExtractRequest r;
    r.set_site(site.name);
    r.set_url(site.pages[i].url);
    r.set_html(site.pages[i].bytes);
    r.set_id(std::to_string(i));
    requests.push_back(std::move(r));
  }
  return engine.ExtractMany(requests).value();
}

void ExpectAccurate(const workflow::ApiRunReport& report, double bar) {
  EXPECT_GE(report.clusters_with_rule, 1u);
  EXPECT_FALSE(report.scorer.scores().empty());
  for (const auto& [name, s] : report.scorer.scores()) {
    EXPECT_GE(s.precision(), bar) << name;
    EXPECT_GE(s.recall(), bar) << name;
  }
}

TEST_F(ServicesTest, ThreeServicesLearnAndExtractAsTheOfflineEngineDoes) {
  const workflow::ApiRunReport report = Run(*demo_);
  ExpectAccurate(report, 0.98);
  ASSERT_EQ(report.records.size(), demo_->pages.size());

  // Restarting the extraction service: the rules are still served.
  extraction_->Stop(SIGTERM);
  extraction_ = StartReader(VERTEX_EXTRACTION_BIN, "extraction2");
  ASSERT_NE(extraction_->port(), 0) << extraction_->log();
  const auto [cluster, page] = LearntCluster(report);
  ASSERT_NE(page, nullptr);
  absl::StatusOr<v1::ExtractResponse> again = Extraction()->Extract(Request(*page));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->record().cluster_id(), cluster);
  EXPECT_EQ(again->record().status(), v1::ExtractedRecord::OK);

  // Monitoring reads the same rules: the unchanged pages pass.
  v1::MonitorRequest monitor;
  monitor.set_site(demo_->name);
  for (const workflow::ClientPage& p : demo_->pages) {
    v1::Page* fresh = monitor.add_pages();
    fresh->set_url(p.url);
    fresh->set_html(p.bytes);
  }
  absl::StatusOr<v1::MonitorResponse> verdict =
      client::ConnectMonitoring(Options(monitoring_->address())).value()->Monitor(monitor);
  ASSERT_TRUE(verdict.ok()) << verdict.status();
  EXPECT_EQ(verdict->verdict(), v1::ClusterVerdict::OK) << verdict->ShortDebugString();

  // The learning service drains and closes the store on SIGTERM; the
  // offline engine on that store gives the records the RPCs gave.
  EXPECT_EQ(learning_->Stop(SIGTERM), 0) << learning_->log();
  EXPECT_THAT(learning_->log(), HasSubstr("rule store closed"));
  ExpectSameRecords(report.records, OfflineRecords(store_, *demo_));
}

TEST_F(ServicesTest, SwdeSiteThroughTheServicesEqualsTheOfflineEngine) {
  const std::string data = VERTEX_SHARED_DATA_DIR "/swde";
  if (!fs::exists(data + "/book/booksamillion")) GTEST_SKIP() << "SWDE data not found at " << data;
  SiteData swde{"booksamillion", schema::CompiledSchema::FromFile(VERTEX_SOURCE_DIR "/deploy/schemas/book.json").value(),
                workflow::ReadClientPages({data + "/book/booksamillion"}, 8 << 20).value(),
                eval::LoadGroundTruth(data + "/groundtruth/book", "booksamillion").value()};
  ASSERT_EQ(swde.pages.size(), 2000u);
  const workflow::ApiRunReport report = Run(swde);
  ExpectAccurate(report, 0.99);
  ASSERT_EQ(report.records.size(), 2000u);
  EXPECT_EQ(learning_->Stop(SIGTERM), 0) << learning_->log();
  ExpectSameRecords(report.records, OfflineRecords(store_, swde));
}

TEST_F(ServicesTest, ANewRuleIsUsedWithinOneSecondUnderLoadWithoutFailedCalls) {
  const workflow::ApiRunReport report = Run(*demo_);
  const auto [cluster, page] = LearntCluster(report);
  ASSERT_NE(page, nullptr);
  auto extraction = Extraction();
  const int64_t before = extraction->Extract(Request(*page)).value().record().rule_version();
  ASSERT_GT(before, 0);

  std::atomic<bool> stop{false};
  std::atomic<int64_t> seen_new_ns{0};
  std::atomic<size_t> calls{0}, failures{0};
  std::atomic<int64_t> learnt_version{0};
  std::vector<std::thread> load;
  for (int t = 0; t < 2; ++t) {
    load.emplace_back([&] {
      auto client = Extraction();
      while (!stop) {
        absl::StatusOr<v1::ExtractResponse> r = client->Extract(Request(*page));
        ++calls;
        if (!r.ok()) {
          ++failures;
          continue;
        }
        const int64_t v = learnt_version.load();
        if (v > 0 && r->record().rule_version() == v && seen_new_ns == 0) {
          seen_new_ns = std::chrono::steady_clock::now().time_since_epoch().count();
        }
      }
    });
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  v1::LearnRequest learn;  // the stored annotations again: a new version
  learn.set_site(demo_->name);
  learn.set_cluster_id(cluster);
  absl::StatusOr<v1::LearnResponse> learnt = Learning()->Learn(learn);
  ASSERT_TRUE(learnt.ok()) << learnt.status();
  const auto acknowledged = std::chrono::steady_clock::now();
  learnt_version = learnt->version();
  ASSERT_EQ(learnt->version(), before + 1);
  while (seen_new_ns == 0 && std::chrono::steady_clock::now() - acknowledged < std::chrono::seconds(5)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  stop = true;
  for (std::thread& t : load) t.join();
  ASSERT_NE(seen_new_ns.load(), 0) << "the new rule was not used within 5 s";
  const double delay =
      std::chrono::duration<double>(std::chrono::steady_clock::duration(seen_new_ns.load()) -
                                    acknowledged.time_since_epoch())
          .count();
  std::cout << "new rule used " << delay * 1000 << " ms after Learn returned; " << calls << " Extract calls\n";
  EXPECT_LE(delay, 1.0);
  EXPECT_EQ(failures.load(), 0u);
  EXPECT_GT(calls.load(), 10u);
}

TEST_F(ServicesTest, KillingTheLearningServiceLosesNoAcknowledgedRule) {
  const workflow::ApiRunReport report = Run(*demo_);
  const std::string cluster = LearntCluster(report).first;
  ASSERT_FALSE(cluster.empty());
  std::vector<int64_t> acknowledged;
  std::atomic<size_t> count{0};
  std::atomic<bool> stop{false};
  std::thread learner([&] {
    auto learning = Learning();
    v1::LearnRequest learn;
    learn.set_site(demo_->name);
    learn.set_cluster_id(cluster);
    while (!stop) {
      absl::StatusOr<v1::LearnResponse> r = learning->Learn(learn);
      if (!r.ok()) break;  // the service died
      acknowledged.push_back(r->version());
      ++count;
    }
  });
  // Two calls acknowledged, then kill -9 in the middle of the third (a
  // Learn call of this cluster takes seconds).
  while (count < 2) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  std::this_thread::sleep_for(std::chrono::milliseconds(700));
  learning_->Stop(SIGKILL);
  stop = true;
  learner.join();
  ASSERT_FALSE(acknowledged.empty());
  StartLearning();
  auto learning = Learning();
  v1::ListRulesRequest list;
  list.set_site(demo_->name);
  absl::StatusOr<v1::ListRulesResponse> rules = learning->ListRules(list);
  ASSERT_TRUE(rules.ok()) << rules.status();
  std::vector<int64_t> versions;
  for (const v1::ClusterRules& c : rules->clusters()) {
    if (c.cluster().cluster_id() == cluster) versions.assign(c.versions().begin(), c.versions().end());
  }
  for (int64_t v : acknowledged) EXPECT_THAT(versions, ::testing::Contains(v));
  for (int64_t v : versions) {  // every stored version is whole
    v1::GetRuleRequest get;
    get.set_site(demo_->name);
    get.set_cluster_id(cluster);
    get.set_version(v);
    absl::StatusOr<v1::GetRuleResponse> rule = learning->GetRule(get);
    ASSERT_TRUE(rule.ok()) << rule.status();
    EXPECT_GT(rule->rule().attributes_size(), 0);
  }
  std::cout << acknowledged.size() << " Learn calls acknowledged before kill -9; " << versions.size()
            << " versions stored after restart\n";
}

TEST_F(ServicesTest, BadRequestsGetTheirCodesAndMessages) {
  auto anonymous = Learning("");
  v1::RegisterSiteRequest reg;
  reg.set_site("shop");
  *reg.mutable_schema() = demo_->schema.proto();
  absl::Status s = anonymous->RegisterSite(reg).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kUnauthenticated) << s;
  EXPECT_THAT(s.message(), HasSubstr("bearer token"));
  EXPECT_EQ(Learning("wrong")->RegisterSite(reg).status().code(), absl::StatusCode::kUnauthenticated);
  v1::ListRulesRequest list;  // reads need no token
  list.set_site("nowhere");
  EXPECT_EQ(anonymous->ListRules(list).status().code(), absl::StatusCode::kNotFound);

  auto learning = Learning();
  v1::RegisterSiteRequest bad = reg;
  bad.mutable_schema()->mutable_attributes(0)->set_regex("(unclosed");
  s = learning->RegisterSite(bad).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("schema"));
  v1::LearnRequest learn;
  learn.set_site("nowhere");
  learn.set_cluster_id("c0");
  EXPECT_EQ(learning->Learn(learn).status().code(), absl::StatusCode::kNotFound);

  auto extraction = Extraction();
  v1::ExtractRequest extract;
  extract.set_site("shop");
  extract.set_url("http://shop.vertex-demo.test/p/x-1.html");
  s = extraction->Extract(extract).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_THAT(s.message(), HasSubstr("html"));
  extract.set_html(std::string(20 << 20, 'a'));
  s = extraction->Extract(extract).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_THAT(s.message(), HasSubstr("--max-page-bytes"));
  extract.set_html("<html><body><p>x</p></body></html>");
  EXPECT_EQ(extraction->Extract(extract).status().code(), absl::StatusCode::kNotFound);
  ASSERT_TRUE(learning->RegisterSite(reg).ok());
  // The extraction service sees the new site within its catch-up period.
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_EQ(extraction->Extract(extract).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace vertex
