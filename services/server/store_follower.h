// StoreFollower: keeps a RocksDB secondary instance of the rule store
// caught up with the learning service (the primary): at once when started,
// then on a timer and whenever Poke() is called, it runs
// CatchUpWithPrimary() and then the caller's callback (e.g.
// ExtractionEngine::Refresh). last_catch_up() says when the last one
// succeeded, which readiness (readiness.h) is judged by. ChangeWatcher pokes it
// on every message of LearningService.WatchStore, reconnecting with a
// back-off when the learning service is away; the timer alone still bounds
// the delay then.
//
// Thread-safety: each owns one thread; Poke() may be called from any
// thread. The destructors stop and join their thread.
#ifndef VERTEX_SERVICES_SERVER_STORE_FOLLOWER_H_
#define VERTEX_SERVICES_SERVER_STORE_FOLLOWER_H_

#include <chrono>
#include <functional>
#include <memory>
#include <thread>

#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "common/store/rocksdb_kv.h"
#include "grpcpp/grpcpp.h"

namespace vertex::server {

class StoreFollower {
 public:
  StoreFollower(std::shared_ptr<store::RocksDbKv> kv, std::chrono::milliseconds interval,
                std::function<void()> on_caught_up);
  ~StoreFollower();

  // Catch up now (soon, on the follower's thread).
  void Poke();
  // Catch-ups done so far.
  uint64_t catch_ups() const;
  // When the last successful catch-up began (the replica holds every write
  // the primary had made by then); absl::InfinitePast() before the first.
  absl::Time last_catch_up() const;

 private:
  void Run();

  std::shared_ptr<store::RocksDbKv> kv_;
  const std::chrono::milliseconds interval_;
  std::function<void()> on_caught_up_;
  mutable absl::Mutex mu_;
  bool poked_ ABSL_GUARDED_BY(mu_) = true;  // the first catch-up at once: readiness waits for it
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  uint64_t catch_ups_ ABSL_GUARDED_BY(mu_) = 0;
  absl::Time last_catch_up_ ABSL_GUARDED_BY(mu_) = absl::InfinitePast();
  std::thread thread_;
};

class ChangeWatcher {
 public:
  // Follows WatchStore on `channel`, calling `poke` for every message.
  ChangeWatcher(std::shared_ptr<grpc::Channel> channel, std::function<void()> poke);
  ~ChangeWatcher();

 private:
  void Run();

  std::shared_ptr<grpc::Channel> channel_;
  std::function<void()> poke_;
  absl::Mutex mu_;
  bool stop_ ABSL_GUARDED_BY(mu_) = false;
  grpc::ClientContext* context_ ABSL_GUARDED_BY(mu_) = nullptr;
  std::thread thread_;
};

}  // namespace vertex::server

#endif  // VERTEX_SERVICES_SERVER_STORE_FOLLOWER_H_
