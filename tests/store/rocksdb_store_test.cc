// RocksDB-specific behaviour of the rule store: column families and format
// marker, directory errors, the LOCK held by another process, crash
// recovery (a child process killed with SIGKILL in the middle of commits),
// secondary instances, and the cost of a synchronous commit.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>

#include "common/store/keys.h"
#include "common/store/rocksdb_kv.h"
#include "common/store/rule_store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "rocksdb/db.h"

extern char** environ;

namespace vertex::store {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

constexpr char kCrashDirEnv[] = "VERTEX_STORE_CRASH_DIR";
constexpr char kCrashFdEnv[] = "VERTEX_STORE_CRASH_FD";

// A fresh directory name under the system temp dir, removed on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& name) {
    static std::atomic<int> counter{0};
    path_ = (fs::temp_directory_path() / ("vertex_rocksdb_store_test_" + std::to_string(getpid()) +
                                          "_" + std::to_string(counter++) + "_" + name))
                .string();
    fs::remove_all(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

v1::SiteRecord Site(const std::string& name) {
  v1::SiteRecord site;
  site.set_site(name);
  site.mutable_schema()->set_vertical("book");
  site.mutable_schema()->add_attributes()->set_name("title");
  return site;
}

v1::ClusterRecord Cluster(const std::string& id) {
  v1::ClusterRecord c;
  c.set_cluster_id(id);
  c.set_signature("sig-" + id);
  c.set_url_regex("http://x\\.test/" + id + "/.*");
  c.set_importance(1);
  return c;
}

// A commit whose rule, snapshots and golden extraction all carry `tag`, so
// that a reader can tell whether they were written together.
RuleCommit TaggedCommit(const std::string& site, const std::string& cluster,
                        const std::string& tag) {
  RuleCommit commit;
  commit.rule.set_site(site);
  commit.rule.set_cluster_id(cluster);
  commit.rule.add_annotated_urls(tag);
  v1::AttributeRule* a = commit.rule.add_attributes();
  a->set_attribute("title");
  a->set_xpath("//h1");
  for (int i = 0; i < 2; ++i) {
    v1::PageSnapshot page;
    page.set_url("http://x.test/" + cluster + "/" + std::to_string(i));
    page.set_html("<html><h1>" + tag + "</h1>" + std::string(2000, 'x') + "</html>");
    commit.snapshots.push_back(page);
  }
  v1::GoldenExtraction golden;
  golden.set_url("http://x.test/" + cluster + "/0");
  v1::AttributeValues* values = golden.add_attributes();
  values->set_attribute("title");
  values->add_values(tag);
  commit.golden.push_back(golden);
  return commit;
}

std::unique_ptr<RuleStore> MustOpen(const std::string& dir, StoreOptions options = {}) {
  absl::StatusOr<std::unique_ptr<RuleStore>> store = OpenRocksDbStore(dir, options);
  EXPECT_TRUE(store.ok()) << store.status();
  return store.ok() ? *std::move(store) : nullptr;
}

void Populate(RuleStore& store, const std::vector<std::string>& clusters) {
  ASSERT_TRUE(store.PutSite(Site("shop")).ok());
  std::vector<v1::ClusterRecord> records;
  for (const std::string& id : clusters) records.push_back(Cluster(id));
  ASSERT_TRUE(store.PutClusters("shop", records).ok());
}

TEST(RocksDbStoreTest, OpenCreatesEveryColumnFamilyAndTheFormatMarker) {
  TempDir dir("families");
  ASSERT_NE(MustOpen(dir.path() + "/nested/store"), nullptr);  // parents created
  std::vector<std::string> names;
  ASSERT_TRUE(
      rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir.path() + "/nested/store", &names)
          .ok());
  for (Family family : kAllFamilies) {
    EXPECT_THAT(names, ::testing::Contains(std::string(FamilyName(family))));
  }
  auto kv = RocksDbKv::Open(dir.path() + "/nested/store", {});
  ASSERT_TRUE(kv.ok()) << kv.status();
  EXPECT_EQ((*kv)->NewReader()->Get(Family::kMeta, kFormatKey).value(), std::string(kFormatMarker));
}

TEST(RocksDbStoreTest, IntPropertiesSumTheColumnFamilies) {
  TempDir dir("properties");
  auto kv = RocksDbKv::Open(dir.path() + "/store", {});
  ASSERT_TRUE(kv.ok()) << kv.status();
  const uint64_t empty = (*kv)->IntProperty("rocksdb.cur-size-all-mem-tables").value();
  KvBatch batch;
  batch.Put(Family::kMeta, "k", std::string(100000, 'x'));
  ASSERT_TRUE((*kv)->Write(batch).ok());
  EXPECT_GE((*kv)->IntProperty("rocksdb.cur-size-all-mem-tables").value(), empty + 100000);
  EXPECT_TRUE((*kv)->IntProperty("rocksdb.total-sst-files-size").ok());
  const absl::Status unknown = (*kv)->IntProperty("rocksdb.no-such-property").status();
  EXPECT_EQ(unknown.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(unknown.message()), ::testing::HasSubstr("rocksdb.no-such-property"));
}

TEST(RocksDbStoreTest, BadDirectoriesAreErrorsNamingThePath) {
  TempDir dir("paths");
  fs::create_directories(dir.path());
  const std::string file = dir.path() + "/plain_file";
  std::ofstream(file) << "not a database";

  absl::Status s = OpenRocksDbStore(file).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(file));
  EXPECT_THAT(std::string(s.message()), HasSubstr("not a directory"));

  s = OpenRocksDbStore(file + "/below").status();
  EXPECT_FALSE(s.ok());
  EXPECT_THAT(std::string(s.message()), HasSubstr(file + "/below"));

  StoreOptions no_create;
  no_create.create_if_missing = false;
  s = OpenRocksDbStore(dir.path() + "/missing", no_create).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(dir.path() + "/missing"));
  fs::create_directories(dir.path() + "/empty");
  s = OpenRocksDbStore(dir.path() + "/empty", no_create).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(dir.path() + "/empty"));
}

TEST(RocksDbStoreTest, ALockedDirectoryIsAClearError) {
  TempDir dir("lock");
  std::unique_ptr<RuleStore> first = MustOpen(dir.path());
  ASSERT_NE(first, nullptr);
  const absl::Status s = OpenRocksDbStore(dir.path()).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr(dir.path()));
  EXPECT_THAT(std::string(s.message()), HasSubstr("in use by another process"));
  first.reset();
  EXPECT_NE(MustOpen(dir.path()), nullptr);  // released on close
}

// Below the reserve of free space, writes are refused before RocksDB sees
// them (it must never meet a full disk: Debian's build aborts on a failed
// log write); reads go on, and with room again writes go through. The real
// full disk, a filled tmpfs under vertexd, is tests/services/crash_loop_test.
TEST(RocksDbStoreTest, WritesBelowTheFreeSpaceReserveAreRefusedReadsGoOn) {
  TempDir dir("reserve");
  {
    std::unique_ptr<RuleStore> store = MustOpen(dir.path());
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->PutSite(Site("before")).ok());
  }
  {
    // More reserve than any disk has free.
    StoreOptions options;
    options.reserve_bytes = uint64_t{1} << 62;
    absl::StatusOr<std::unique_ptr<RuleStore>> store = OpenRocksDbStore(dir.path(), options);
    ASSERT_TRUE(store.ok()) << store.status();
    const absl::Status refused = (*store)->PutSite(Site("refused"));
    EXPECT_EQ(refused.code(), absl::StatusCode::kResourceExhausted) << refused;
    EXPECT_THAT(std::string(refused.message()), HasSubstr(dir.path()));
    EXPECT_THAT(std::string(refused.message()), HasSubstr("No space left on device"));
    EXPECT_TRUE((*store)->GetSite("before").ok());
  }
  std::unique_ptr<RuleStore> store = MustOpen(dir.path());
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->GetSite("refused").status().code(), absl::StatusCode::kNotFound);
  EXPECT_TRUE(store->PutSite(Site("after")).ok());
}

TEST(RocksDbStoreTest, CorruptValueOnDiskIsDataLossAfterReopening) {
  TempDir dir("corrupt");
  {
    std::unique_ptr<RuleStore> store = MustOpen(dir.path());
    Populate(*store, {"c"});
    ASSERT_TRUE(store->CommitRule(TaggedCommit("shop", "c", "t")).ok());
  }
  {  // Garbage written behind the store's back, through a raw handle.
    auto kv = RocksDbKv::Open(dir.path(), {});
    ASSERT_TRUE(kv.ok());
    KvBatch batch;
    batch.Put(Family::kRules, keys::Rule("shop", "c", 1), "\x0a\xff not a rule");
    ASSERT_TRUE((*kv)->Write(batch).ok());
  }
  std::unique_ptr<RuleStore> store = MustOpen(dir.path());
  const absl::Status s = store->GetRule("shop", "c", kCurrentVersion).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s;
  EXPECT_THAT(std::string(s.message()), HasSubstr("rules[\"shop\", \"c\", v1]"));
  EXPECT_EQ(store->GetCluster("shop", "c").value().current_version(), 1);
}

TEST(RocksDbStoreTest, SecondaryInstanceSeesCommitsAfterCatchingUp) {
  TempDir dir("secondary");
  std::unique_ptr<RuleStore> primary = MustOpen(dir.path() + "/db");
  Populate(*primary, {"c"});
  ASSERT_EQ(primary->CommitRule(TaggedCommit("shop", "c", "one")).value(), 1);

  absl::StatusOr<std::unique_ptr<RocksDbKv>> opened =
      RocksDbKv::OpenSecondary(dir.path() + "/db", dir.path() + "/secondary");
  ASSERT_TRUE(opened.ok()) << opened.status();
  std::shared_ptr<RocksDbKv> kv = *std::move(opened);
  std::unique_ptr<RuleStore> reader = NewRuleStore(kv).value();
  EXPECT_EQ(reader->GetRule("shop", "c", kCurrentVersion).value().version(), 1);

  ASSERT_EQ(primary->CommitRule(TaggedCommit("shop", "c", "two")).value(), 2);
  EXPECT_EQ(reader->GetRule("shop", "c", kCurrentVersion).value().version(), 1);
  ASSERT_TRUE(kv->CatchUpWithPrimary().ok());
  EXPECT_EQ(reader->GetRule("shop", "c", kCurrentVersion).value().version(), 2);
  EXPECT_EQ(reader->RoutesOfSite("shop").value()[0].current_version(), 2);

  const absl::Status write = reader->PutSite(Site("other"));
  EXPECT_EQ(write.code(), absl::StatusCode::kFailedPrecondition) << write;
  EXPECT_THAT(std::string(write.message()), HasSubstr("read-only"));

  ASSERT_TRUE(primary->DeleteSite("shop").ok());
  ASSERT_TRUE(kv->CatchUpWithPrimary().ok());
  EXPECT_EQ(reader->GetSite("shop").status().code(), absl::StatusCode::kNotFound);

  EXPECT_EQ(RocksDbKv::OpenSecondary(dir.path() + "/nothing", dir.path() + "/s2").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(RocksDbStoreTest, CatchUpOnAPrimaryIsRefused) {
  TempDir dir("primary");
  auto kv = RocksDbKv::Open(dir.path(), {});
  ASSERT_TRUE(kv.ok());
  EXPECT_EQ((*kv)->CatchUpWithPrimary().code(), absl::StatusCode::kFailedPrecondition);
}

// Informal: the cost of one CommitRule (two 2 KB snapshots) with and
// without fsync, printed for the record.
TEST(RocksDbStoreTest, CommitLatency) {
  for (const bool sync : {true, false}) {
    TempDir dir(sync ? "latency_sync" : "latency_nosync");
    StoreOptions options;
    options.sync_writes = sync;
    std::unique_ptr<RuleStore> store = MustOpen(dir.path(), options);
    Populate(*store, {"c"});
    constexpr int kCommits = 100;
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < kCommits; ++i) {
      ASSERT_TRUE(store->CommitRule(TaggedCommit("shop", "c", "t")).ok());
    }
    const std::chrono::duration<double, std::micro> took = std::chrono::steady_clock::now() - start;
    std::cout << "[ timing   ] CommitRule, sync_writes=" << sync << ": " << took.count() / kCommits
              << " us per commit (" << kCommits << " commits)\n";
    RecordProperty(sync ? "commit_us_sync" : "commit_us_nosync",
                   std::to_string(took.count() / kCommits));
  }
}

// ---- Crash recovery ---------------------------------------------------------

// Runs only as the child of CrashRecovery: commits rules (and now and then
// rolls one back) until killed, reporting each acknowledged commit on the
// pipe AFTER CommitRule returned: "cluster version tag\n".
TEST(CrashChild, CommitsUntilKilled) {
  const char* dir = std::getenv(kCrashDirEnv);
  const char* fd_text = std::getenv(kCrashFdEnv);
  if (dir == nullptr || fd_text == nullptr) GTEST_SKIP() << "runs only as CrashRecovery's child";
  const int fd = std::atoi(fd_text);
  auto report = [fd](const std::string& line) {
    if (write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) std::_Exit(3);
  };
  auto fail = [&report](const absl::Status& status) {
    report("ERR " + status.ToString() + "\n");
    std::_Exit(2);
  };
  absl::StatusOr<std::unique_ptr<RuleStore>> store = OpenRocksDbStore(dir);
  if (!store.ok()) fail(store.status());
  if (!(*store)->GetSite("shop").ok()) Populate(**store, {"c0", "c1", "c2"});
  for (int i = 0;; ++i) {
    const std::string cluster = "c" + std::to_string(i % 3);
    const std::string tag = std::to_string(getpid()) + "-" + std::to_string(i);
    absl::StatusOr<int64_t> v = (*store)->CommitRule(TaggedCommit("shop", cluster, tag));
    if (!v.ok()) fail(v.status());
    report(cluster + " " + std::to_string(*v) + " " + tag + "\n");
    if (i % 7 == 6 && *v > 1) {
      const absl::Status s = (*store)->Rollback("shop", cluster, *v - 1);
      if (!s.ok()) fail(s);
    }
  }
}

struct Ack {
  std::string cluster;
  int64_t version;
  std::string tag;
};

// Starts this test binary as CrashChild writing to a pipe; returns its pid
// and the read end.
std::pair<pid_t, int> SpawnChild(const std::string& dir) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::vector<std::string> env_strings = {std::string(kCrashDirEnv) + "=" + dir,
                                          std::string(kCrashFdEnv) + "=" + std::to_string(fds[1])};
  std::vector<char*> envp;
  for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
  for (std::string& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string exe = fs::read_symlink("/proc/self/exe").string();
  std::string filter = "--gtest_filter=CrashChild.CommitsUntilKilled";
  char* argv[] = {exe.data(), filter.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  EXPECT_EQ(posix_spawn(&pid, exe.c_str(), &actions, nullptr, argv, envp.data()), 0);
  posix_spawn_file_actions_destroy(&actions);
  close(fds[1]);
  return {pid, fds[0]};
}

// Reads acknowledgements from `fd` until `want` more arrived (or EOF when
// want < 0), appending them to `acks`.
void ReadAcks(int fd, int want, std::string* pending, std::vector<Ack>* acks) {
  char buf[4096];
  int got = 0;
  while (want < 0 || got < want) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n <= 0) return;
    pending->append(buf, n);
    for (size_t nl; (nl = pending->find('\n')) != std::string::npos;) {
      const std::string line = pending->substr(0, nl);
      pending->erase(0, nl + 1);
      ASSERT_NE(line.substr(0, 3), "ERR") << line;
      std::istringstream in(line);
      Ack ack;
      in >> ack.cluster >> ack.version >> ack.tag;
      acks->push_back(ack);
      ++got;
    }
  }
}

// Every acknowledged commit is stored, each cluster's versions are 1..latest
// with no gap, and its current version exists with the snapshots, golden
// extraction and route written in the same batch.
void CheckRecovered(RuleStore& store, const std::vector<Ack>& acks) {
  std::map<std::string, int64_t> max_acked;
  for (const Ack& ack : acks) {
    absl::StatusOr<v1::Rule> rule = store.GetRule("shop", ack.cluster, ack.version);
    ASSERT_TRUE(rule.ok()) << ack.cluster << " v" << ack.version << ": " << rule.status();
    EXPECT_EQ(rule->annotated_urls(0), ack.tag);
    max_acked[ack.cluster] = std::max(max_acked[ack.cluster], ack.version);
  }
  const std::vector<v1::ClusterRecord> routes = store.RoutesOfSite("shop").value();
  ASSERT_EQ(routes.size(), 3u);
  for (const v1::ClusterRecord& route : routes) {
    const v1::ClusterRecord cluster = store.GetCluster("shop", route.cluster_id()).value();
    EXPECT_EQ(route.current_version(), cluster.current_version());
    EXPECT_GE(cluster.latest_version(), max_acked[cluster.cluster_id()]);
    const std::vector<int64_t> versions =
        store.ListRuleVersions("shop", cluster.cluster_id()).value();
    ASSERT_EQ(versions.size(), static_cast<size_t>(cluster.latest_version()));
    for (size_t i = 0; i < versions.size(); ++i)
      EXPECT_EQ(versions[i], static_cast<int64_t>(i + 1));
    if (cluster.latest_version() == 0) continue;
    const absl::StatusOr<v1::Rule> current =
        store.GetRule("shop", cluster.cluster_id(), kCurrentVersion);
    ASSERT_TRUE(current.ok()) << current.status();
    ASSERT_EQ(cluster.golden_size(), 1);
    EXPECT_EQ(cluster.golden(0).attributes(0).values(0), current->annotated_urls(0));
    const auto pages = store.Snapshots("shop", cluster.cluster_id(), kCurrentVersion).value();
    ASSERT_EQ(pages.size(), 2u);
    EXPECT_THAT(pages[1].html(), HasSubstr(current->annotated_urls(0)));
  }
}

TEST(RocksDbStoreTest, CrashRecoveryKeepsEveryAcknowledgedCommit) {
  TempDir dir("crash");
  std::mt19937 random(20240601);
  std::vector<Ack> acks;
  constexpr int kRounds = 8;
  for (int round = 0; round < kRounds; ++round) {
    const auto [pid, fd] = SpawnChild(dir.path());
    ASSERT_GT(pid, 0);
    std::string pending;
    ReadAcks(fd, 3 + static_cast<int>(random() % 40), &pending, &acks);
    if (round == 0) {  // the child holds the LOCK
      const absl::Status s = OpenRocksDbStore(dir.path()).status();
      EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition) << s;
      EXPECT_THAT(std::string(s.message()), HasSubstr("in use by another process"));
    }
    usleep(random() % 3000);  // land anywhere inside a commit
    kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child exited " << status;
    ReadAcks(fd, -1, &pending, &acks);  // acknowledged before the kill
    close(fd);

    std::unique_ptr<RuleStore> store = MustOpen(dir.path());
    ASSERT_NE(store, nullptr);
    CheckRecovered(*store, acks);
    if (HasFatalFailure()) return;
  }
  std::cout << "[ crash    ] " << kRounds << " kills, " << acks.size()
            << " acknowledged commits, all recovered\n";
}

}  // namespace
}  // namespace vertex::store
