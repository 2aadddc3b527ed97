// A fixed set of worker threads running posted closures in FIFO order.
#ifndef PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_
#define PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <deque>
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
  int num_threads() const { return static_cast<int>(threads_.size()); }

  // Whether closures are posted and not yet started: a long-running
  // closure that can pause should then yield (re-post its rest) so that
  // the others get a turn. A hint, read without the lock.
  bool HasWaitingWork() const {
    return waiting_.load(std::memory_order_relaxed) > 0;
  }

 private:
  void WorkerLoop();

  std::mutex mu_;
  std::condition_variable work_cv_;
  std::deque<absl::AnyInvocable<void() &&>> work_;  // Guarded by mu_.
  bool stopping_ = false;                           // Guarded by mu_.
  std::atomic<size_t> waiting_{0};                  // work_.size().
  std::vector<std::thread> threads_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_THREAD_POOL_H_
