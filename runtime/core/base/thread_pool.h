// A fixed set of worker threads running posted closures in FIFO order.
#ifndef PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_
#define PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <deque>
#include <list>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"

namespace pjrtx {

// Thread-safe. The destructor runs every closure already posted, then joins
// the threads; it must not run on one of the pool's own threads.
class ThreadPool {
 public:
  // `num_threads` <= 0 means one per hardware thread.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void Schedule(absl::AnyInvocable<void() &&> fn);
  int num_threads() const { return target_threads_; }

  // Whether closures are posted and not yet started: a long-running
  // closure that can pause should then yield (re-post its rest) so that
  // the others get a turn. A hint, read without the lock.
  bool HasWaitingWork() const {
    return waiting_.load(std::memory_order_relaxed) > 0;
  }
  // Whether any pool of this process has closures waiting for a thread or
  // running (other than those blocked on other closures, ScopedBlocking):
  // then a thread that would spin waiting for I/O should sleep instead and
  // leave the CPU to them (emulated chips computing while a collective is
  // in flight). A hint, read without locks.
  static bool AnyPoolIsBusy();

  // Marks the calling thread as blocked on other work of its pool for the
  // scope's lifetime (a program waiting inside a collective for the
  // programs of other devices, which run on the same pool). While it
  // blocks, the pool keeps `num_threads` threads free to run closures,
  // starting one if none is idle, so that waits on one another cannot
  // take every thread. No effect on threads that are not pool workers.
  class ScopedBlocking {
   public:
    ScopedBlocking();
    ~ScopedBlocking();
    ScopedBlocking(const ScopedBlocking&) = delete;
    ScopedBlocking& operator=(const ScopedBlocking&) = delete;

   private:
    ThreadPool* const pool_;
  };

 private:
  void WorkerLoop();
  void BeginBlocking();
  void EndBlocking();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::deque<absl::AnyInvocable<void() &&>> work_;  // Guarded by mu_.
  bool stopping_ = false;                           // Guarded by mu_.
  std::atomic<size_t> waiting_{0};                  // work_.size().
  // Threads that run closures when none blocks; more are started for
  // blocked ones and stay (idle) until the pool goes.
  int target_threads_ = 0;
  int blocked_ = 0;  // Guarded by mu_.
  // Guarded by mu_; a list, so that the destructor can join one while
  // another is being added.
  std::list<std::thread> threads_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_
