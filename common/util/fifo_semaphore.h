// FifoSemaphore: at most `limit` holders at once, the others queued and
// admitted first come, first served. A server wraps its CPU work in it so
// that a burst of calls queues instead of time-slicing the cores between
// every call in flight (which makes every call of the burst finish late).
// A waiter leaves the queue, without ever holding a permit, when its
// deadline passes or when its `cancelled` check says so (checked when it
// starts waiting and at least every `poll` while it waits). Limit 0: no
// limit, Acquire() never waits (it still refuses an expired or cancelled
// caller).
//
// Typical use, around the work of one call:
//
//   absl::StatusOr<util::FifoSemaphore::Permit> permit =
//       semaphore.Acquire(deadline, [&] { return context.IsCancelled(); });
//   if (!permit.ok()) return permit.status();  // DEADLINE_EXCEEDED, CANCELLED
//   ... the work; the permit is released when it goes out of scope ...
//
// Thread-safety: every method may be called from many threads at once. A
// Permit belongs to one thread at a time and must not outlive its
// semaphore.
#ifndef VERTEX_COMMON_UTIL_FIFO_SEMAPHORE_H_
#define VERTEX_COMMON_UTIL_FIFO_SEMAPHORE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <list>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"

namespace vertex::util {

class FifoSemaphore {
 public:
  // What the semaphore has done since it was created.
  struct Stats {
    uint64_t admitted = 0;                             // permits handed out
    uint64_t waited = 0;                               // of those, how many queued first
    uint64_t expired = 0;                              // refused: deadline passed (before or while queued)
    uint64_t cancelled = 0;                            // refused: cancelled (before or while queued)
    absl::Duration total_wait = absl::ZeroDuration();  // queued time of the admitted
    absl::Duration max_wait = absl::ZeroDuration();
    size_t max_queued = 0;  // the longest the queue has been
  };

  // The right to run: releases its place when destroyed. Move-only.
  class Permit {
   public:
    Permit(Permit&& other) noexcept : owner_(other.owner_) { other.owner_ = nullptr; }
    Permit& operator=(Permit&& other) noexcept;
    Permit(const Permit&) = delete;
    Permit& operator=(const Permit&) = delete;
    ~Permit();

   private:
    friend class FifoSemaphore;
    explicit Permit(FifoSemaphore* owner) : owner_(owner) {}
    FifoSemaphore* owner_;  // nullptr once moved from
  };

  // `limit` holders at once; 0: no limit. `poll`: how often a waiter
  // checks its `cancelled` (its deadline wakes it exactly).
  explicit FifoSemaphore(size_t limit, absl::Duration poll = absl::Milliseconds(10));
  FifoSemaphore(const FifoSemaphore&) = delete;
  FifoSemaphore& operator=(const FifoSemaphore&) = delete;

  // A permit once every earlier waiter has had one and fewer than limit()
  // permits are held. Errors, never holding a permit: DeadlineExceeded when
  // `deadline` has passed (on entry or while queued); Cancelled when
  // `cancelled` returns true (on entry or while queued). `cancelled` may be
  // empty (never cancelled); it is called with the semaphore's lock held
  // and must not call back into the semaphore.
  absl::StatusOr<Permit> Acquire(absl::Time deadline, const std::function<bool()>& cancelled);

  size_t limit() const { return limit_; }
  // Permits held now (counted without a limit too).
  size_t held() const;
  // Callers queued now.
  size_t queued() const;
  Stats stats() const;

  // Blocks until exactly `n` callers are queued (tests order their threads
  // with it instead of sleeping).
  void AwaitQueuedForTesting(size_t n) const;

 private:
  void Release();

  const size_t limit_;
  const absl::Duration poll_;
  mutable absl::Mutex mu_;
  size_t held_ ABSL_GUARDED_BY(mu_) = 0;
  // The waiters in arrival order; each is the address of a waiting Acquire
  // frame, erased by its owner when it is admitted or leaves.
  std::list<const void*> queue_ ABSL_GUARDED_BY(mu_);
  Stats stats_ ABSL_GUARDED_BY(mu_);
};

}  // namespace vertex::util

#endif  // VERTEX_COMMON_UTIL_FIFO_SEMAPHORE_H_
