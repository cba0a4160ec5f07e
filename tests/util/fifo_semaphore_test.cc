// FifoSemaphore: the limit holds, waiters are admitted in arrival order, a
// waiter whose deadline passes or who is cancelled leaves the queue without
// a permit, limit 0 never waits. Threads are ordered with
// AwaitQueuedForTesting, never with sleeps; no test depends on how fast
// anything runs (the one short deadline must expire whatever the speed).
#include "common/util/fifo_semaphore.h"

#include <algorithm>
#include <atomic>
#include <optional>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"

namespace vertex::util {
namespace {

using Permit = FifoSemaphore::Permit;

absl::StatusOr<Permit> AcquireForever(FifoSemaphore& s) { return s.Acquire(absl::InfiniteFuture(), nullptr); }

TEST(FifoSemaphore, AdmitsUpToTheLimitThenQueues) {
  FifoSemaphore s(2);
  absl::StatusOr<Permit> a = AcquireForever(s);
  absl::StatusOr<Permit> b = AcquireForever(s);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(s.held(), 2u);
  const absl::StatusOr<Permit> c = s.Acquire(absl::Now() + absl::Milliseconds(20), nullptr);
  EXPECT_EQ(c.status().code(), absl::StatusCode::kDeadlineExceeded) << c.status();
  EXPECT_EQ(s.held(), 2u);
  EXPECT_EQ(s.queued(), 0u);
  const FifoSemaphore::Stats stats = s.stats();
  EXPECT_EQ(stats.admitted, 2u);
  EXPECT_EQ(stats.expired, 1u);
  EXPECT_EQ(stats.max_queued, 1u);
}

TEST(FifoSemaphore, ReleasingAPermitAdmitsTheNext) {
  FifoSemaphore s(1);
  std::optional<absl::StatusOr<Permit>> held = AcquireForever(s);
  std::thread waiter([&] { EXPECT_TRUE(AcquireForever(s).ok()); });
  s.AwaitQueuedForTesting(1);
  held.reset();
  waiter.join();
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.stats().waited, 1u);
}

TEST(FifoSemaphore, AdmitsWaitersInArrivalOrder) {
  constexpr int kWaiters = 8;
  FifoSemaphore s(1);
  std::optional<absl::StatusOr<Permit>> held = AcquireForever(s);
  absl::Mutex mu;
  std::vector<int> order;
  std::vector<std::thread> threads;
  for (int i = 0; i < kWaiters; ++i) {
    threads.emplace_back([&, i] {
      absl::StatusOr<Permit> permit = AcquireForever(s);
      ASSERT_TRUE(permit.ok()) << permit.status();
      absl::MutexLock lock(&mu);
      order.push_back(i);
    });
    s.AwaitQueuedForTesting(static_cast<size_t>(i) + 1);  // thread i is queued before thread i + 1 starts
  }
  held.reset();
  for (std::thread& t : threads) t.join();
  std::vector<int> expected(kWaiters);
  for (int i = 0; i < kWaiters; ++i) expected[i] = i;
  EXPECT_EQ(order, expected);
  EXPECT_EQ(s.stats().waited, static_cast<uint64_t>(kWaiters));
  EXPECT_EQ(s.stats().max_queued, static_cast<size_t>(kWaiters));
}

TEST(FifoSemaphore, TheLimitHoldsUnderManyThreads) {
  constexpr size_t kLimit = 3;
  constexpr int kThreads = 16, kRounds = 100;
  FifoSemaphore s(kLimit);
  std::atomic<int> inside{0}, most{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int r = 0; r < kRounds; ++r) {
        absl::StatusOr<Permit> permit = AcquireForever(s);
        ASSERT_TRUE(permit.ok()) << permit.status();
        const int now = ++inside;
        int seen = most.load();
        while (now > seen && !most.compare_exchange_weak(seen, now)) {
        }
        std::this_thread::yield();
        --inside;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_LE(most.load(), static_cast<int>(kLimit));
  EXPECT_GE(most.load(), 1);
  EXPECT_EQ(s.stats().admitted, static_cast<uint64_t>(kThreads * kRounds));
  EXPECT_EQ(s.held(), 0u);
  EXPECT_EQ(s.queued(), 0u);
}

TEST(FifoSemaphore, ACancelledWaiterLeavesWithoutAPermit) {
  FifoSemaphore s(1, absl::Milliseconds(1));
  std::optional<absl::StatusOr<Permit>> held = AcquireForever(s);
  std::atomic<bool> cancel{false};
  absl::Status result;
  std::thread waiter([&] { result = s.Acquire(absl::InfiniteFuture(), [&] { return cancel.load(); }).status(); });
  s.AwaitQueuedForTesting(1);
  cancel = true;
  waiter.join();
  EXPECT_EQ(result.code(), absl::StatusCode::kCancelled) << result;
  EXPECT_EQ(s.queued(), 0u);
  EXPECT_EQ(s.held(), 1u);  // only the permit held above
  held.reset();
  const absl::StatusOr<Permit> next = s.Acquire(absl::Now() + absl::Seconds(30), nullptr);
  EXPECT_TRUE(next.ok()) << next.status();
  EXPECT_EQ(s.stats().cancelled, 1u);
  EXPECT_EQ(s.stats().waited, 0u);
}

TEST(FifoSemaphore, AWaiterPastItsDeadlineLeavesWithoutAPermit) {
  FifoSemaphore s(1);
  const absl::StatusOr<Permit> held = AcquireForever(s);
  const absl::StatusOr<Permit> late = s.Acquire(absl::Now() + absl::Milliseconds(30), nullptr);
  EXPECT_EQ(late.status().code(), absl::StatusCode::kDeadlineExceeded) << late.status();
  EXPECT_EQ(s.queued(), 0u);
  EXPECT_EQ(s.held(), 1u);
  EXPECT_EQ(s.stats().expired, 1u);
}

TEST(FifoSemaphore, AWaiterLeavingTheQueueDoesNotHoldUpThoseBehind) {
  FifoSemaphore s(1, absl::Milliseconds(1));
  std::optional<absl::StatusOr<Permit>> held = AcquireForever(s);
  std::atomic<bool> cancel_first{false};
  absl::Status first, second;
  std::thread a([&] { first = s.Acquire(absl::InfiniteFuture(), [&] { return cancel_first.load(); }).status(); });
  s.AwaitQueuedForTesting(1);
  std::thread b([&] { second = AcquireForever(s).status(); });
  s.AwaitQueuedForTesting(2);
  cancel_first = true;
  a.join();
  s.AwaitQueuedForTesting(1);
  held.reset();
  b.join();
  EXPECT_EQ(first.code(), absl::StatusCode::kCancelled) << first;
  EXPECT_TRUE(second.ok()) << second;
}

TEST(FifoSemaphore, RefusesAnExpiredOrCancelledCallerEvenWithAFreeSlot) {
  for (size_t limit : {size_t{0}, size_t{1}}) {
    FifoSemaphore s(limit);
    EXPECT_EQ(s.Acquire(absl::Now() - absl::Seconds(1), nullptr).status().code(), absl::StatusCode::kDeadlineExceeded)
        << "limit " << limit;
    EXPECT_EQ(s.Acquire(absl::InfiniteFuture(), [] { return true; }).status().code(), absl::StatusCode::kCancelled)
        << "limit " << limit;
    EXPECT_EQ(s.held(), 0u);
    EXPECT_EQ(s.stats().admitted, 0u);
  }
}

TEST(FifoSemaphore, ZeroMeansNoLimit) {
  FifoSemaphore s(0);
  std::vector<Permit> permits;
  for (int i = 0; i < 100; ++i) {
    // With any limit below 100 the later calls would wait, and fail at the deadline.
    absl::StatusOr<Permit> p = s.Acquire(absl::Now() + absl::Seconds(5), nullptr);
    ASSERT_TRUE(p.ok()) << "permit " << i << ": " << p.status();
    permits.push_back(*std::move(p));
  }
  EXPECT_EQ(s.held(), 100u);
  EXPECT_EQ(s.queued(), 0u);
  EXPECT_EQ(s.stats().waited, 0u);
  permits.clear();
  EXPECT_EQ(s.held(), 0u);
}

TEST(FifoSemaphore, AMovedPermitIsReleasedOnce) {
  FifoSemaphore s(2);
  absl::StatusOr<Permit> a = AcquireForever(s);
  absl::StatusOr<Permit> b = AcquireForever(s);
  ASSERT_TRUE(a.ok() && b.ok());
  {
    Permit moved = *std::move(a);
    EXPECT_EQ(s.held(), 2u);
    moved = *std::move(b);  // releases the permit `moved` held
    EXPECT_EQ(s.held(), 1u);
  }
  EXPECT_EQ(s.held(), 0u);
}

}  // namespace
}  // namespace vertex::util
