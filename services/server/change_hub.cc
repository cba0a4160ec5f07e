#include "services/server/change_hub.h"

#include "absl/time/time.h"

namespace vertex::server {

void ChangeHub::Publish(const std::string& site) {
  absl::MutexLock lock(&mu_);
  ++latest_.sequence;
  latest_.site = site;
}

ChangeHub::Change ChangeHub::Latest() const {
  absl::MutexLock lock(&mu_);
  return latest_;
}

ChangeHub::Change ChangeHub::WaitAfter(uint64_t seen, std::chrono::milliseconds timeout) const {
  absl::MutexLock lock(&mu_);
  const auto newer = [this, seen]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) {
    return latest_.sequence > seen || latest_.closed;
  };
  mu_.AwaitWithTimeout(absl::Condition(&newer), absl::FromChrono(timeout));
  return latest_;
}

void ChangeHub::Close() {
  absl::MutexLock lock(&mu_);
  latest_.closed = true;
}

}  // namespace vertex::server
