#include "runtime/core/base/thread_pool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "gtest/gtest.h"

namespace pjrtx {
namespace {

// A closure that waits for another closure of the same one-thread pool
// finishes when it marks its wait: the pool lends a thread meanwhile.
TEST(ThreadPoolTest, BlockedWorkerLetsOthersRun) {
  std::mutex mu;
  std::condition_variable cv;
  bool second_ran = false;
  std::atomic<bool> first_done{false};
  {
    ThreadPool pool(1);
    pool.Schedule([&] {
      ThreadPool::ScopedBlocking blocking;
      std::unique_lock<std::mutex> lock(mu);
      const bool ok = cv.wait_for(lock, std::chrono::seconds(20),
                                  [&] { return second_ran; });
      first_done = ok;
    });
    pool.Schedule([&] {
      std::lock_guard<std::mutex> lock(mu);
      second_ran = true;
      cv.notify_all();
    });
  }  // Joins every thread, including the one lent.
  EXPECT_TRUE(first_done);
}

// Many closures waiting on one another at once, as the programs of a
// launch do in a collective: all of them get a thread.
TEST(ThreadPoolTest, ManyBlockedWorkersAllProgress) {
  constexpr int kWaiters = 8;
  std::mutex mu;
  std::condition_variable cv;
  int arrived = 0;
  std::atomic<int> released{0};
  {
    ThreadPool pool(2);
    for (int i = 0; i < kWaiters; ++i) {
      pool.Schedule([&] {
        ThreadPool::ScopedBlocking blocking;
        std::unique_lock<std::mutex> lock(mu);
        ++arrived;
        cv.notify_all();
        if (cv.wait_for(lock, std::chrono::seconds(20),
                        [&] { return arrived == kWaiters; })) {
          ++released;
        }
      });
    }
  }
  EXPECT_EQ(released.load(), kWaiters);
}

// Outside a pool the scope does nothing (and must not crash).
TEST(ThreadPoolTest, BlockingOutsideAPoolIsHarmless) {
  ThreadPool::ScopedBlocking blocking;
  ThreadPool pool(1);
  EXPECT_EQ(pool.num_threads(), 1);
}

}  // namespace
}  // namespace pjrtx
