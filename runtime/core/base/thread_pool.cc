#include "runtime/core/base/thread_pool.h"

#include <utility>

namespace pjrtx {

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) {
    num_threads = static_cast<int>(std::thread::hardware_concurrency());
    if (num_threads <= 0) num_threads = 1;
  }
  threads_.reserve(num_threads);
  for (int i = 0; i < num_threads; ++i) {
    threads_.emplace_back([this] { WorkerLoop(); });
  }
}

ThreadPool::~ThreadPool() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  for (std::thread& thread : threads_) thread.join();
}

void ThreadPool::Schedule(absl::AnyInvocable<void() &&> fn) {
  absl::MutexLock lock(&mu_);
  work_.push_back(std::move(fn));
}

void ThreadPool::WorkerLoop() {
  while (true) {
    absl::AnyInvocable<void() &&> fn;
    {
      absl::MutexLock lock(&mu_);
      mu_.Await(absl::Condition(
          +[](ThreadPool* pool) ABSL_EXCLUSIVE_LOCKS_REQUIRED(pool->mu_) {
            return pool->stopping_ || !pool->work_.empty();
          },
          this));
      if (work_.empty()) return;  // Stopping and drained.
      fn = std::move(work_.front());
      work_.pop_front();
    }
    std::move(fn)();
  }
}

}  // namespace pjrtx
