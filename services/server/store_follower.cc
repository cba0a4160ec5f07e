#include "services/server/store_follower.h"

#include "absl/time/time.h"
#include "spdlog/spdlog.h"
#include "vertex/v1/learning.grpc.pb.h"

namespace vertex::server {

StoreFollower::StoreFollower(std::shared_ptr<store::RocksDbKv> kv, std::chrono::milliseconds interval,
                             std::function<void()> on_caught_up)
    : kv_(std::move(kv)), interval_(interval), on_caught_up_(std::move(on_caught_up)) {
  thread_ = std::thread([this] { Run(); });
}

StoreFollower::~StoreFollower() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
  }
  thread_.join();
}

void StoreFollower::Poke() {
  absl::MutexLock lock(&mu_);
  poked_ = true;
}

uint64_t StoreFollower::catch_ups() const {
  absl::MutexLock lock(&mu_);
  return catch_ups_;
}

absl::Time StoreFollower::last_catch_up() const {
  absl::MutexLock lock(&mu_);
  return last_catch_up_;
}

void StoreFollower::Run() {
  for (;;) {
    {
      absl::MutexLock lock(&mu_);
      const auto wake = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return poked_ || stop_; };
      mu_.AwaitWithTimeout(absl::Condition(&wake), absl::FromChrono(interval_));
      if (stop_) return;
      poked_ = false;
    }
    const absl::Time began = absl::Now();
    if (absl::Status s = kv_->CatchUpWithPrimary(); !s.ok()) {
      spdlog::warn("catching up with the store's primary failed: {}", s.ToString());
      continue;
    }
    on_caught_up_();
    absl::MutexLock lock(&mu_);
    ++catch_ups_;
    last_catch_up_ = began;
  }
}

ChangeWatcher::ChangeWatcher(std::shared_ptr<grpc::Channel> channel, std::function<void()> poke)
    : channel_(std::move(channel)), poke_(std::move(poke)) {
  thread_ = std::thread([this] { Run(); });
}

ChangeWatcher::~ChangeWatcher() {
  {
    absl::MutexLock lock(&mu_);
    stop_ = true;
    if (context_ != nullptr) context_->TryCancel();
  }
  thread_.join();
}

void ChangeWatcher::Run() {
  auto stub = v1::LearningService::NewStub(channel_);
  absl::Duration backoff = absl::Milliseconds(200);
  for (;;) {
    grpc::ClientContext context;
    {
      absl::MutexLock lock(&mu_);
      if (stop_) return;
      context_ = &context;
    }
    std::unique_ptr<grpc::ClientReader<v1::StoreChange>> reader = stub->WatchStore(&context, v1::WatchStoreRequest());
    v1::StoreChange change;
    bool connected = false;
    while (reader->Read(&change)) {
      if (!connected) spdlog::info("following store changes of the learning service");
      connected = true;
      backoff = absl::Milliseconds(200);
      poke_();
    }
    const grpc::Status status = reader->Finish();
    absl::MutexLock lock(&mu_);
    context_ = nullptr;
    if (stop_) return;
    if (connected || backoff == absl::Milliseconds(200)) {
      spdlog::warn("store change notifications stopped ({}); retrying, the catch-up timer still runs",
                   status.error_message());
    }
    const auto stopped = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return stop_; };
    mu_.AwaitWithTimeout(absl::Condition(&stopped), backoff);
    backoff = std::min(backoff * 2, absl::Seconds(5));
  }
}

}  // namespace vertex::server
