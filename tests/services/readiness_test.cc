#include "services/server/readiness.h"

#include <gmock/gmock.h>
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "common/store/rocksdb_kv.h"
#include "common/store/rule_store.h"
#include "services/common/health_client.h"
#include "services/server/store_follower.h"
#include "tests/services/process.h"
#include "tests/testing/temp_dir.h"

namespace vertex::server {
namespace {

TEST(IsCaughtUp, NeedsACatchUpWithinTheBound) {
  const absl::Time now = absl::FromUnixSeconds(1000);
  const absl::Duration bound = absl::Seconds(10);
  EXPECT_FALSE(IsCaughtUp(absl::InfinitePast(), now, bound));
  EXPECT_TRUE(IsCaughtUp(now, now, bound));
  EXPECT_TRUE(IsCaughtUp(now - absl::Seconds(10), now, bound));
  EXPECT_FALSE(IsCaughtUp(now - absl::Seconds(10) - absl::Milliseconds(1), now, bound));
}

// A clock and a last catch-up the test moves by hand.
struct FakeFollower {
  absl::Mutex mu;
  absl::Time now = absl::FromUnixSeconds(1000);
  absl::Time last = absl::InfinitePast();
  std::vector<std::pair<bool, std::string>> published;
};

TEST(ReadinessPublisher, NotServingUntilTheFirstCatchUpAndWhileItLags) {
  FakeFollower f;
  ReadinessPublisher publisher([&f] { absl::MutexLock l(&f.mu); return f.last; }, absl::Seconds(10),
                               absl::Hours(1),  // the test calls Check() itself
                               [&f](bool ready, const std::string& why) {
                                 absl::MutexLock l(&f.mu);
                                 f.published.emplace_back(ready, why);
                               },
                               [&f] { absl::MutexLock l(&f.mu); return f.now; });
  auto published = [&f] {
    absl::MutexLock l(&f.mu);
    return f.published;
  };
  ASSERT_EQ(published().size(), 1u);  // judged at construction
  EXPECT_FALSE(published()[0].first);
  EXPECT_NE(published()[0].second.find("no catch-up"), std::string::npos) << published()[0].second;

  publisher.Check();  // nothing changed: nothing published
  EXPECT_EQ(published().size(), 1u);

  { absl::MutexLock l(&f.mu); f.last = f.now; }
  publisher.Check();
  ASSERT_EQ(published().size(), 2u);
  EXPECT_TRUE(published()[1].first);

  { absl::MutexLock l(&f.mu); f.now += absl::Seconds(5); }
  publisher.Check();  // 5 s behind, bound 10 s: still ready, nothing new
  EXPECT_EQ(published().size(), 2u);

  { absl::MutexLock l(&f.mu); f.now += absl::Seconds(6); }  // catch-ups failing for 11 s
  publisher.Check();
  ASSERT_EQ(published().size(), 3u);
  EXPECT_FALSE(published()[2].first);
  EXPECT_NE(published()[2].second.find("11s ago"), std::string::npos) << published()[2].second;

  { absl::MutexLock l(&f.mu); f.last = f.now; }
  publisher.Check();
  ASSERT_EQ(published().size(), 4u);
  EXPECT_TRUE(published()[3].first);
}

std::string NewTempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "readiness_test_XXXXXX").string();
  return mkdtemp(pattern.data()) != nullptr ? pattern : "";
}

// The follower catches up at once when started (not one interval later),
// so a replica turns ready as soon as it can; a failing catch-up leaves
// last_catch_up() where it was.
TEST(StoreFollower, CatchesUpAtOnceAndRecordsWhen) {
  const std::string dir = NewTempDir();
  ASSERT_FALSE(dir.empty());
  {
    auto primary = store::RocksDbKv::Open(dir + "/db", {});
    ASSERT_TRUE(primary.ok()) << primary.status();
    auto secondary = store::RocksDbKv::OpenSecondary(dir + "/db", dir + "/secondary");
    ASSERT_TRUE(secondary.ok()) << secondary.status();
    std::shared_ptr<store::RocksDbKv> kv = *std::move(secondary);
    const absl::Time started = absl::Now();
    StoreFollower follower(kv, std::chrono::hours(1), [] {});
    const absl::Time deadline = absl::Now() + absl::Seconds(30);
    while (follower.catch_ups() == 0 && absl::Now() < deadline) absl::SleepFor(absl::Milliseconds(10));
    EXPECT_EQ(follower.catch_ups(), 1u);
    EXPECT_GE(follower.last_catch_up(), started);
    EXPECT_LE(follower.last_catch_up(), absl::Now());
  }
  std::filesystem::remove_all(dir);
}

// Polls the health of `address` (the whole server) until it is `want` or
// `seconds` pass; returns the last answer.
std::string AwaitHealth(const std::string& address, const std::string& want, double seconds) {
  auto channel = grpc::CreateChannel(address, grpc::InsecureChannelCredentials());
  const absl::Time until = absl::Now() + absl::Seconds(seconds);
  std::string last;
  do {
    absl::StatusOr<std::string> s =
        rpc::CheckHealth(channel, "", std::chrono::system_clock::now() + std::chrono::seconds(5));
    last = s.ok() ? *s : s.status().ToString();
    if (last == want) return last;
    absl::SleepFor(absl::Milliseconds(100));
  } while (absl::Now() < until);
  return last;
}

// A replica turns SERVING once its first catch-up succeeded, and says so in
// its log. (Lag beyond the bound is covered with a fake clock above: a
// running RocksDB secondary cannot be made to fail its catch-ups from
// outside, since RocksDB treats WAL files that vanished as purged.)
TEST(ExtractionReplica, HealthIsServingOnceCaughtUp) {
  test_support::TempDir dir("readiness_e2e");
  const std::string store = dir.path() + "/store";
  test_support::ServerProcess learning(VERTEX_LEARNING_BIN, {"--store", store}, dir.path(), "learning");
  ASSERT_NE(learning.port(), 0) << learning.log();
  test_support::ServerProcess replica(VERTEX_EXTRACTION_BIN,
                                      {"--store", store, "--secondary-dir", dir.path() + "/secondary",
                                       "--catch-up-ms", "100", "--max-lag-ms", "500"},
                                      dir.path(), "replica");
  ASSERT_NE(replica.port(), 0) << replica.log();
  EXPECT_EQ(AwaitHealth(replica.address(), "SERVING", 30), "SERVING") << replica.log();
  EXPECT_THAT(replica.log(), ::testing::HasSubstr("health SERVING: caught up with the store's primary"));
  // A bad bound is refused, naming the flag.
  test_support::ServerProcess bad(VERTEX_EXTRACTION_BIN,
                                  {"--store", store, "--secondary-dir", dir.path() + "/secondary2", "--max-lag-ms", "0"},
                                  dir.path(), "bad");
  EXPECT_EQ(bad.port(), 0);
  EXPECT_THAT(bad.log(), ::testing::HasSubstr("max-lag-ms"));
}

}  // namespace
}  // namespace vertex::server
