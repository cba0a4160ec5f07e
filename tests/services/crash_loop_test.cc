// Crash loops (issue 18, item 3): the writing server (vertexd, or
// vertex-learning beside an extraction replica) is killed with SIGKILL at a
// random point of concurrent write streams (Learn, AddSamplePages, Relearn,
// ResolveCandidate, RecordMonitorRun), round after round over the same
// store. After each kill the store is opened directly and checked: every
// write the server acknowledged is there, and nothing is partial (a rule
// version without its rule or snapshots, a cluster record whose routes or
// site list disagree, a sample page missing from its sample, a sample
// without its clustering).
//
// The seed is printed; VERTEX_CRASH_SEED=N replays a run.
//
// Full disk: vertexd's store on a small tmpfs that is then filled. Writes
// get RESOURCE_EXHAUSTED naming the store and "No space left on device"
// (refused while less than the store's reserve is free: RocksDB 7.8 as
// Debian builds it aborts on a log write that meets a full disk),
// reads go on, and writes resume once space is freed; what was
// acknowledged survives a SIGKILL after that. Mounting needs root
// (CAP_SYS_ADMIN): without it the test skips, saying why.
#include <fcntl.h>
#include <signal.h>
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/demo/versioned_site.h"
#include "common/store/rule_store.h"
#include "common/workflow/api_editor.h"
#include "common/workflow/extraction_engine.h"
#include "common/workflow/learning_engine.h"
#include "gmock/gmock.h"
#include "google/protobuf/util/json_util.h"
#include "gtest/gtest.h"
#include "services/client/remote_api.h"
#include "tests/services/process.h"
#include "tests/testing/temp_dir.h"

namespace vertex {
namespace {

namespace fs = std::filesystem;
using test_support::ServerProcess;

constexpr char kToken[] = "crash-secret";
constexpr char kShop[] = "shop";        // Learn and RecordMonitorRun streams
constexpr char kRelearn[] = "relearn";  // Relearn and ResolveCandidate stream
constexpr char kPages[] = "pages";      // AddSamplePages stream
constexpr int kRounds = 24;

std::vector<demo::VersionedPage> VersionedPages(int epoch, std::set<int> restyled) {
  demo::VersionedSiteOptions o;
  o.templates = 3;
  o.pages_per_template = 16;
  o.epoch = epoch;
  o.restyled = std::move(restyled);
  return demo::GenerateVersionedSite(o);
}

v1::Schema SiteSchema() {
  v1::Schema schema;
  EXPECT_TRUE(google::protobuf::util::JsonStringToMessage(demo::VersionedSiteSchemaJson(), &schema).ok());
  return schema;
}

// Learns `site` from the versioned site's pages into `store`.
void LearnSite(store::RuleStore* store, const std::string& site) {
  workflow::LearningEngine learning(store, workflow::LearningEngineOptions());
  workflow::ExtractionEngine extraction(store, workflow::ExtractionEngineOptions());
  const std::vector<demo::VersionedPage> pages = VersionedPages(0, {});
  std::vector<workflow::ClientPage> client;
  eval::GroundTruth truth;
  for (size_t i = 0; i < pages.size(); ++i) {
    const std::string id = "p" + std::to_string(i);
    client.push_back({id + ".htm", pages[i].url, pages[i].html});
    for (const auto& [attribute, values] : pages[i].truth) truth.pages[id][attribute] = values;
  }
  const schema::CompiledSchema schema = schema::CompiledSchema::FromProto(SiteSchema()).value();
  absl::StatusOr<workflow::ApiRunReport> report =
      workflow::RunSiteThroughApi(learning, extraction, site, schema, client, truth);
  ASSERT_TRUE(report.ok()) << report.status();
  ASSERT_GE(report->clusters_with_rule, 2u);
}

// What the servers acknowledged, and what was in flight when they died.
struct Acknowledged {
  std::mutex mu;
  std::vector<int64_t> runs;                   // RecordMonitorRun: started_unix_ms
  std::vector<std::string> pages;              // AddSamplePages: URLs
  std::vector<int64_t> learnt;                 // Learn: versions of the shop's cluster
  std::map<std::string, std::set<int64_t>> relearn_versions;  // cluster -> versions Relearn/Resolve named
  size_t relearns = 0, resolves = 0;
  size_t CountLocked() const { return runs.size() + pages.size() + learnt.size() + relearns + resolves; }
  size_t Count() {
    std::lock_guard<std::mutex> lock(mu);
    return CountLocked();
  }
};

// Everything of `site` that must hold after any crash. Returns the number
// of rule versions checked.
size_t ExpectWhole(store::RuleStore& store, const std::string& site) {
  size_t versions_checked = 0;
  const v1::SiteRecord record = store.GetSite(site).value();
  const std::vector<v1::ClusterRecord> clusters = store.ClustersOfSite(site).value();
  const std::vector<v1::ClusterRecord> routes = store.RoutesOfSite(site).value();
  std::set<std::string> ids, listed(record.cluster_ids().begin(), record.cluster_ids().end());
  for (const v1::ClusterRecord& c : clusters) ids.insert(c.cluster_id());
  EXPECT_EQ(ids, listed) << site << ": the site's cluster list and its cluster records differ";
  EXPECT_EQ(routes.size(), clusters.size()) << site;
  for (size_t i = 0; i < clusters.size() && i < routes.size(); ++i) {
    const v1::ClusterRecord& c = clusters[i];
    EXPECT_EQ(routes[i].cluster_id(), c.cluster_id()) << site;
    EXPECT_EQ(routes[i].current_version(), c.current_version()) << site << "/" << c.cluster_id();
    const std::vector<int64_t> versions = store.ListRuleVersions(site, c.cluster_id()).value();
    EXPECT_EQ(c.latest_version(), versions.empty() ? 0 : versions.back()) << site << "/" << c.cluster_id();
    for (int64_t v : {c.current_version(), c.candidate_version()}) {
      if (v != 0) EXPECT_THAT(versions, ::testing::Contains(v)) << site << "/" << c.cluster_id();
    }
    for (int64_t v : versions) {
      absl::StatusOr<v1::Rule> rule = store.GetRule(site, c.cluster_id(), v);
      absl::StatusOr<std::vector<v1::PageSnapshot>> snapshots = store.Snapshots(site, c.cluster_id(), v);
      if (!rule.ok() || !snapshots.ok()) {
        ADD_FAILURE() << site << "/" << c.cluster_id() << " v" << v << ": " << rule.status() << "; "
                      << snapshots.status();
        continue;
      }
      EXPECT_GT(rule->attributes_size(), 0) << site << "/" << c.cluster_id() << " v" << v;
      EXPECT_FALSE(snapshots->empty()) << site << "/" << c.cluster_id() << " v" << v << " has no snapshot";
      ++versions_checked;
    }
  }
  const v1::SampleState state = store.GetSampleState(site).value();
  for (int i = 0; i < state.urls_size(); ++i) {
    absl::StatusOr<v1::SamplePage> page = store.GetSamplePage(site, static_cast<uint32_t>(i));
    EXPECT_TRUE(page.ok()) << site << " sample page #" << i << ": " << page.status();
    if (page.ok()) EXPECT_EQ(page->url(), state.urls(i));
  }
  for (const v1::SampleCluster& sc : state.clusters()) {
    EXPECT_TRUE(ids.count(sc.cluster_id())) << site << ": clustering names cluster " << sc.cluster_id()
                                            << ", which has no record";
  }
  return versions_checked;
}

class CrashLoopTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    base_ = new test_support::TempDir("crash_loop_base");
    auto store = store::OpenRocksDbStore(base_->path() + "/store").value();
    LearnSite(store.get(), kShop);
    LearnSite(store.get(), kRelearn);
    v1::SiteRecord pages;
    pages.set_site(kPages);
    *pages.mutable_schema() = SiteSchema();
    ASSERT_TRUE(store->PutSite(pages).ok());
    const std::vector<v1::ClusterRecord> clusters = store->ClustersOfSite(kShop).value();
    for (const v1::ClusterRecord& c : clusters) {
      if (c.current_version() > 0 && learn_cluster_->empty()) *learn_cluster_ = c.cluster_id();
    }
  }
  static void TearDownTestSuite() {
    delete base_;
    base_ = nullptr;
  }

  client::ConnectOptions Options(const std::string& address) {
    client::ConnectOptions o;
    o.server = address;
    o.token = kToken;
    o.timeout_seconds = 60;
    o.fetch_timeout_seconds = 60;
    return o;
  }

  static test_support::TempDir* base_;
  static std::string* learn_cluster_;
};

test_support::TempDir* CrashLoopTest::base_ = nullptr;
std::string* CrashLoopTest::learn_cluster_ = new std::string();

// A write that fails while the server is up is a bug; once it is being
// killed, any failure only ends the stream.
bool Failed(const absl::Status& status, const std::atomic<bool>& killing, const char* what) {
  if (status.ok()) return false;
  if (!killing) ADD_FAILURE() << what << " failed before the kill: " << status;
  return true;
}

TEST_F(CrashLoopTest, EveryAcknowledgedWriteSurvivesSigkillAndNothingIsPartial) {
  ASSERT_FALSE(learn_cluster_->empty());
  uint64_t seed = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
  if (const char* s = std::getenv("VERTEX_CRASH_SEED")) seed = std::strtoull(s, nullptr, 10);
  std::printf("crash loop seed %llu (VERTEX_CRASH_SEED=%llu replays it)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  std::mt19937_64 rng(seed);
  test_support::TempDir dir("crash_loop");
  const std::string store_dir = dir.path() + "/store";
  fs::copy(base_->path() + "/store", store_dir, fs::copy_options::recursive);

  const std::vector<demo::VersionedPage> v1_pages = VersionedPages(0, {});
  const std::vector<demo::VersionedPage> v2_pages = VersionedPages(1, {1});
  Acknowledged acked;
  int64_t run_clock = 1800000000000;
  size_t total_versions_checked = 0;
  for (int round = 0; round < kRounds; ++round) {
    // Every third round: the learning service beside an extraction replica
    // reading the store as a RocksDB secondary; else vertexd alone.
    const bool separate = round % 3 == 2;
    std::unique_ptr<ServerProcess> writer, replica;
    if (separate) {
      writer = std::make_unique<ServerProcess>(
          VERTEX_LEARNING_BIN, std::vector<std::string>{"--store", store_dir, "--auth-token", kToken,
                                                        "--history-keep", "0"},
          dir.path(), "learning");
      ASSERT_NE(writer->port(), 0) << writer->log();
      replica = std::make_unique<ServerProcess>(
          VERTEX_EXTRACTION_BIN,
          std::vector<std::string>{"--store", store_dir, "--learning-server", writer->address(), "--secondary-dir",
                                   dir.path() + "/secondary", "--catch-up-ms", "200"},
          dir.path(), "extraction");
      ASSERT_NE(replica->port(), 0) << replica->log();
    } else {
      writer = std::make_unique<ServerProcess>(
          VERTEXD_BIN, std::vector<std::string>{"--store", store_dir, "--auth-token", kToken, "--history-keep", "0"},
          dir.path(), "vertexd");
      ASSERT_NE(writer->port(), 0) << "round " << round << ": restart over the crashed store failed\n"
                                   << writer->log();
    }
    const size_t acked_before = acked.Count();
    std::atomic<bool> killing{false};
    std::vector<std::thread> streams;
    const uint64_t round_seed = rng();
    // RecordMonitorRun: runs with distinct start times.
    streams.emplace_back([&, base = run_clock + round * 100000] {
      auto learning = client::ConnectLearning(Options(writer->address())).value();
      for (int64_t i = 0;; ++i) {
        v1::RecordMonitorRunRequest request;
        request.mutable_run()->set_site(kShop);
        request.mutable_run()->set_started_unix_ms(base + i);
        request.mutable_run()->set_source("crash-loop");
        if (Failed(learning->RecordMonitorRun(request).status(), killing, "RecordMonitorRun")) return;
        std::lock_guard<std::mutex> lock(acked.mu);
        acked.runs.push_back(base + i);
      }
    });
    // AddSamplePages: two fresh URLs a call, clustering every fourth call.
    streams.emplace_back([&] {
      auto learning = client::ConnectLearning(Options(writer->address())).value();
      for (int i = 0;; ++i) {
        v1::AddSamplePagesRequest request;
        request.set_site(kPages);
        request.set_defer_clustering(i % 4 != 3);
        std::vector<std::string> urls;
        for (int j = 0; j < 2; ++j) {
          const demo::VersionedPage& p = v1_pages[(round * 7 + i * 2 + j) % v1_pages.size()];
          urls.push_back(absl::StrCat("http://pages.test/r", round, "/", i, "/", j));
          v1::Page* page = request.add_pages();
          page->set_url(urls.back());
          page->set_html(p.html);
        }
        if (Failed(learning->AddSamplePages(request).status(), killing, "AddSamplePages")) return;
        std::lock_guard<std::mutex> lock(acked.mu);
        acked.pages.insert(acked.pages.end(), urls.begin(), urls.end());
      }
    });
    // Learn: the shop's cluster again from its stored annotations.
    streams.emplace_back([&] {
      auto learning = client::ConnectLearning(Options(writer->address())).value();
      for (;;) {
        v1::LearnRequest request;
        request.set_site(kShop);
        request.set_cluster_id(*learn_cluster_);
        absl::StatusOr<v1::LearnResponse> r = learning->Learn(request);
        if (Failed(r.status(), killing, "Learn")) return;
        std::lock_guard<std::mutex> lock(acked.mu);
        if (r->version() > 0) acked.learnt.push_back(r->version());
      }
    });
    // Relearn with one template restyled or not, then resolve its
    // candidates (accept or reject).
    streams.emplace_back([&] {
      std::mt19937_64 local(round_seed);
      auto learning = client::ConnectLearning(Options(writer->address())).value();
      for (int i = 0;; ++i) {
        v1::RelearnRequest request;
        request.set_site(kRelearn);
        for (const demo::VersionedPage& p : (round + i) % 2 == 0 ? v2_pages : v1_pages) {
          v1::Page* page = request.add_pages();
          page->set_url(p.url);
          page->set_html(p.html);
        }
        absl::StatusOr<v1::RelearnResponse> r = learning->Relearn(request);
        if (Failed(r.status(), killing, "Relearn")) return;
        {
          std::lock_guard<std::mutex> lock(acked.mu);
          ++acked.relearns;
          for (const v1::ClusterOutcome& c : r->clusters()) {
            if (c.outcome() == v1::ClusterOutcome::REPAIRED) acked.relearn_versions[c.cluster_id()].insert(c.version());
          }
        }
        for (const v1::ClusterOutcome& c : r->clusters()) {
          if (c.outcome() != v1::ClusterOutcome::REPAIRED) continue;
          v1::ResolveCandidateRequest resolve;
          resolve.set_site(kRelearn);
          resolve.set_cluster_id(c.cluster_id());
          resolve.set_accept(local() % 2 == 0);
          absl::StatusOr<v1::ResolveCandidateResponse> resolved = learning->ResolveCandidate(resolve);
          if (Failed(resolved.status(), killing, "ResolveCandidate")) return;
          std::lock_guard<std::mutex> lock(acked.mu);
          ++acked.resolves;
          acked.relearn_versions[c.cluster_id()].insert(resolved->version());
        }
      }
    });
    // Kill at a random point of the streams: 0.3 to 3 s into the round.
    const int kill_ms = std::uniform_int_distribution<int>(300, 3000)(rng);
    std::this_thread::sleep_for(std::chrono::milliseconds(kill_ms));
    killing = true;
    writer->Stop(SIGKILL);
    for (std::thread& t : streams) t.join();
    if (replica != nullptr) {
      // The replica outlives its primary and still answers from what it read.
      auto extraction = client::ConnectExtraction(Options(replica->address())).value();
      v1::ExtractRequest request;
      request.set_site(kShop);
      request.set_url(v1_pages[0].url);
      request.set_html(v1_pages[0].html);
      absl::StatusOr<v1::ExtractResponse> r = extraction->Extract(request);
      EXPECT_TRUE(r.ok()) << "replica after the primary's kill: " << r.status();
      replica->Stop(SIGKILL);
    }

    // The store, opened directly now that no process holds it.
    auto store = store::OpenRocksDbStore(store_dir, {.create_if_missing = false});
    ASSERT_TRUE(store.ok()) << "round " << round << ": " << store.status();
    std::lock_guard<std::mutex> lock(acked.mu);
    std::set<int64_t> runs;
    const std::vector<v1::MonitorRun> history = (*store)->MonitorHistory(kShop, 1000000).value();
    for (const v1::MonitorRun& run : history) {
      runs.insert(run.started_unix_ms());
    }
    for (int64_t r : acked.runs) ASSERT_TRUE(runs.count(r)) << "round " << round << ": acknowledged run " << r << " lost";
    const v1::SampleState pages = (*store)->GetSampleState(kPages).value();
    const std::set<std::string> stored_urls(pages.urls().begin(), pages.urls().end());
    for (const std::string& u : acked.pages) {
      ASSERT_TRUE(stored_urls.count(u)) << "round " << round << ": acknowledged page " << u << " lost";
    }
    const std::vector<int64_t> versions = (*store)->ListRuleVersions(kShop, *learn_cluster_).value();
    for (int64_t v : acked.learnt) {
      ASSERT_THAT(versions, ::testing::Contains(v)) << "round " << round << ": acknowledged Learn version lost";
    }
    for (const auto& [cluster, named] : acked.relearn_versions) {
      absl::StatusOr<std::vector<int64_t>> stored = (*store)->ListRuleVersions(kRelearn, cluster);
      if (!stored.ok()) continue;  // a later Relearn merged the cluster away with its rules
      for (int64_t v : named) EXPECT_THAT(*stored, ::testing::Contains(v)) << "round " << round << " " << cluster;
    }
    // Relearn's sample and clustering are one write with its rules: the
    // sample is never without its clustering.
    const v1::SampleState relearnt = (*store)->GetSampleState(kRelearn).value();
    EXPECT_GT(relearnt.clusters_size(), 0) << "round " << round << ": relearn's sample has no clustering";
    for (const char* site : {kShop, kRelearn, kPages}) total_versions_checked += ExpectWhole(**store, site);
    std::printf("round %2d (%s, SIGKILL at %d ms): %zu writes acknowledged this round, all found\n", round,
                separate ? "vertex-learning + extraction replica" : "vertexd", kill_ms,
                acked.CountLocked() - acked_before);
  }
  std::printf(
      "[figures] %d crash rounds: %zu writes acknowledged and found (%zu monitor runs, %zu sample pages, %zu Learn "
      "versions, %zu Relearns, %zu candidates resolved); %zu rule versions checked whole\n",
      kRounds, acked.Count(), acked.runs.size(), acked.pages.size(), acked.learnt.size(), acked.relearns,
      acked.resolves, total_versions_checked);
  EXPECT_GT(acked.runs.size(), static_cast<size_t>(kRounds));
  EXPECT_GT(acked.learnt.size(), 0u);
  EXPECT_GT(acked.relearns, 0u);
}

// A tmpfs mounted for the test's life; error() says why when it could not be.
class Tmpfs {
 public:
  Tmpfs(const std::string& dir, const std::string& size) : dir_(dir) {
    fs::create_directories(dir);
    const std::string options = "size=" + size;
    if (mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      error_ = std::string("mount -t tmpfs -o ") + options + " " + dir + ": " + std::strerror(errno);
    }
  }
  ~Tmpfs() {
    if (error_.empty()) umount2(dir_.c_str(), MNT_DETACH);
  }
  const std::string& error() const { return error_; }

 private:
  std::string dir_, error_;
};

// Fills the file system of `path` with it: writes until no space is left.
void Fill(const std::string& path) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  ASSERT_GE(fd, 0) << std::strerror(errno);
  const std::string chunk(64 << 10, 'x');
  while (write(fd, chunk.data(), chunk.size()) > 0) {
  }
  const std::string byte = "x";
  while (write(fd, byte.data(), 1) > 0) {
  }
  EXPECT_EQ(errno, ENOSPC);
  close(fd);
}

TEST(FullDiskTest, WritesGetAClearErrorReadsGoOnAndWritesResumeWhenSpaceReturns) {
  test_support::TempDir dir("full_disk");
  const std::string mount_dir = dir.path() + "/disk";
  // The store keeps 64 MiB free in reserve; RocksDB preallocates ~70 MiB of log.
  Tmpfs tmpfs(mount_dir, "192m");
  if (!tmpfs.error().empty()) GTEST_SKIP() << "cannot mount a small tmpfs (needs root/CAP_SYS_ADMIN): " << tmpfs.error();
  const std::string store_dir = mount_dir + "/store";
  auto server = std::make_unique<ServerProcess>(
      VERTEXD_BIN, std::vector<std::string>{"--store", store_dir, "--auth-token", kToken}, dir.path(), "vertexd");
  ASSERT_NE(server->port(), 0) << server->log();
  client::ConnectOptions o;
  o.server = server->address();
  o.token = kToken;
  o.timeout_seconds = 30;
  auto learning = client::ConnectLearning(o).value();
  auto register_site = [&](const std::string& name) {
    v1::RegisterSiteRequest request;
    request.set_site(name);
    *request.mutable_schema() = SiteSchema();
    return learning->RegisterSite(request).status();
  };
  ASSERT_TRUE(register_site("before").ok());

  Fill(mount_dir + "/filler");
  absl::Status full;
  int acknowledged_while_full = 0;
  for (int i = 0; i < 200 && full.ok(); ++i) {
    full = register_site("full" + std::to_string(i));
    if (full.ok()) ++acknowledged_while_full;
  }
  ASSERT_FALSE(full.ok()) << "200 writes on a full disk all succeeded";
  EXPECT_EQ(acknowledged_while_full, 0) << "the reserve is checked before every write";
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted) << full << "\n" << server->log();
  EXPECT_THAT(std::string(full.message()), ::testing::HasSubstr("No space left on device")) << full;
  EXPECT_THAT(std::string(full.message()), ::testing::HasSubstr(store_dir)) << full;
  // Still full: writes keep failing the same way, reads go on.
  EXPECT_EQ(register_site("still-full").code(), absl::StatusCode::kResourceExhausted);
  v1::ListRulesRequest list;
  list.set_site("before");
  EXPECT_TRUE(learning->ListRules(list).ok());
  list.set_site("nowhere");
  EXPECT_EQ(learning->ListRules(list).status().code(), absl::StatusCode::kNotFound);

  // Space returns: writes resume, and stay.
  fs::remove(mount_dir + "/filler");
  absl::Status resumed = register_site("after0");
  EXPECT_TRUE(resumed.ok()) << resumed << "\n" << server->log();
  for (int i = 1; i < 5; ++i) EXPECT_TRUE(register_site("after" + std::to_string(i)).ok());
  server->Stop(SIGKILL);
  auto store = store::OpenRocksDbStore(store_dir, {.create_if_missing = false});
  ASSERT_TRUE(store.ok()) << store.status();
  const std::vector<std::string> sites = (*store)->ListSites().value();
  for (const std::string& s : {"before", "after0", "after1", "after4"}) {
    EXPECT_THAT(sites, ::testing::Contains(s));
  }
  for (int i = 0; i < acknowledged_while_full; ++i) {
    EXPECT_THAT(sites, ::testing::Contains("full" + std::to_string(i)));
  }
  std::printf("[figures] full disk: write %d failed with %s; reads went on; writes resumed after freeing space; "
              "%zu sites after SIGKILL and reopening\n",
              acknowledged_while_full + 1, std::string(full.message()).c_str(), sites.size());
}

}  // namespace
}  // namespace vertex
