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
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_cv_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void ThreadPool::Schedule(absl::AnyInvocable<void() &&> fn) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    work_.push_back(std::move(fn));
    waiting_.store(work_.size(), std::memory_order_relaxed);
  }
  work_cv_.notify_one();
}

void ThreadPool::WorkerLoop() {
  while (true) {
    absl::AnyInvocable<void() &&> fn;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stopping_ || !work_.empty(); });
      if (work_.empty()) return;  // Stopping and drained.
      fn = std::move(work_.front());
      work_.pop_front();
      waiting_.store(work_.size(), std::memory_order_relaxed);
    }
    std::move(fn)();
  }
}

}  // namespace pjrtx
