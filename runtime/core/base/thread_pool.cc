#include "runtime/core/base/thread_pool.h"

#include <utility>

namespace pjrtx {
namespace {

// The pool whose worker the current thread is, for ScopedBlocking.
thread_local ThreadPool* current_pool = nullptr;

// Closures of every pool of the process: waiting for a thread, running,
// and running but blocked on other closures (ScopedBlocking).
std::atomic<int64_t> waiting_in_all_pools{0};
std::atomic<int64_t> running_in_all_pools{0};
std::atomic<int64_t> blocked_in_all_pools{0};

}  // namespace

ThreadPool::ThreadPool(int num_threads) {
  if (num_threads <= 0) {
    num_threads = static_cast<int>(std::thread::hardware_concurrency());
    if (num_threads <= 0) num_threads = 1;
  }
  target_threads_ = num_threads;
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
  // Closures still running may start threads while we join; take them one
  // at a time under the lock.
  auto next = threads_.begin();
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (next == threads_.end()) break;
    }
    next->join();
    std::lock_guard<std::mutex> lock(mu_);
    ++next;
  }
}

ThreadPool::ScopedBlocking::ScopedBlocking() : pool_(current_pool) {
  if (pool_ != nullptr) pool_->BeginBlocking();
}

ThreadPool::ScopedBlocking::~ScopedBlocking() {
  if (pool_ != nullptr) pool_->EndBlocking();
}

void ThreadPool::BeginBlocking() {
  std::lock_guard<std::mutex> lock(mu_);
  ++blocked_;
  blocked_in_all_pools.fetch_add(1, std::memory_order_relaxed);
  // Threads able to take work: all but the blocked ones.
  const int available = static_cast<int>(threads_.size()) - blocked_;
  if (available < target_threads_) {
    threads_.emplace_back([this] { WorkerLoop(); });
  }
}

void ThreadPool::EndBlocking() {
  std::lock_guard<std::mutex> lock(mu_);
  --blocked_;
  blocked_in_all_pools.fetch_sub(1, std::memory_order_relaxed);
}

bool ThreadPool::AnyPoolIsBusy() {
  return waiting_in_all_pools.load(std::memory_order_relaxed) +
             running_in_all_pools.load(std::memory_order_relaxed) -
             blocked_in_all_pools.load(std::memory_order_relaxed) >
         0;
}

void ThreadPool::Schedule(absl::AnyInvocable<void() &&> fn) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    work_.push_back(std::move(fn));
    waiting_.store(work_.size(), std::memory_order_relaxed);
    waiting_in_all_pools.fetch_add(1, std::memory_order_relaxed);
  }
  work_cv_.notify_one();
}

void ThreadPool::WorkerLoop() {
  current_pool = this;
  while (true) {
    absl::AnyInvocable<void() &&> fn;
    {
      std::unique_lock<std::mutex> lock(mu_);
      work_cv_.wait(lock, [this] { return stopping_ || !work_.empty(); });
      if (work_.empty()) return;  // Stopping and drained.
      fn = std::move(work_.front());
      work_.pop_front();
      waiting_.store(work_.size(), std::memory_order_relaxed);
      waiting_in_all_pools.fetch_sub(1, std::memory_order_relaxed);
    }
    running_in_all_pools.fetch_add(1, std::memory_order_relaxed);
    std::move(fn)();
    running_in_all_pools.fetch_sub(1, std::memory_order_relaxed);
  }
}

}  // namespace pjrtx
