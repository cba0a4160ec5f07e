#include "common/util/fifo_semaphore.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/status/status.h"

namespace vertex::util {

FifoSemaphore::Permit& FifoSemaphore::Permit::operator=(Permit&& other) noexcept {
  if (this != &other) {
    if (owner_ != nullptr) owner_->Release();
    owner_ = std::exchange(other.owner_, nullptr);
  }
  return *this;
}

FifoSemaphore::Permit::~Permit() {
  if (owner_ != nullptr) owner_->Release();
}

FifoSemaphore::FifoSemaphore(size_t limit, absl::Duration poll) : limit_(limit), poll_(poll) {}

absl::StatusOr<FifoSemaphore::Permit> FifoSemaphore::Acquire(absl::Time deadline,
                                                             const std::function<bool()>& cancelled) {
  absl::MutexLock lock(&mu_);
  if (cancelled && cancelled()) {
    ++stats_.cancelled;
    return absl::CancelledError("the call was cancelled before it started");
  }
  if (absl::Now() >= deadline) {
    ++stats_.expired;
    return absl::DeadlineExceededError("the call's deadline passed before it started");
  }
  if (limit_ == 0 || (queue_.empty() && held_ < limit_)) {
    ++held_;
    ++stats_.admitted;
    return Permit(this);
  }
  // Queued: admitted at the front of the queue with a permit free.
  const char self = 0;
  const auto place = queue_.insert(queue_.end(), &self);
  stats_.max_queued = std::max(stats_.max_queued, queue_.size());
  const absl::Time start = absl::Now();
  auto my_turn = [this, &self]()
                     ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return queue_.front() == &self && held_ < limit_; };
  while (!mu_.AwaitWithDeadline(absl::Condition(&my_turn), std::min(deadline, absl::Now() + poll_))) {
    const bool gave_up = cancelled && cancelled();
    if (!gave_up && absl::Now() < deadline) continue;
    queue_.erase(place);
    ++(gave_up ? stats_.cancelled : stats_.expired);
    const std::string waited = absl::FormatDuration(absl::Now() - start);
    return gave_up
               ? absl::CancelledError("the call was cancelled after waiting " + waited + " for a free slot")
               : absl::DeadlineExceededError("the call's deadline passed after waiting " + waited + " for a free slot");
  }
  queue_.pop_front();
  ++held_;
  const absl::Duration waited = absl::Now() - start;
  ++stats_.admitted;
  ++stats_.waited;
  stats_.total_wait += waited;
  stats_.max_wait = std::max(stats_.max_wait, waited);
  return Permit(this);
}

void FifoSemaphore::Release() {
  absl::MutexLock lock(&mu_);
  --held_;
}

size_t FifoSemaphore::held() const {
  absl::MutexLock lock(&mu_);
  return held_;
}

size_t FifoSemaphore::queued() const {
  absl::MutexLock lock(&mu_);
  return queue_.size();
}

FifoSemaphore::Stats FifoSemaphore::stats() const {
  absl::MutexLock lock(&mu_);
  return stats_;
}

void FifoSemaphore::AwaitQueuedForTesting(size_t n) const {
  auto reached = [this, n]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return queue_.size() == n; };
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(&reached));
}

}  // namespace vertex::util
