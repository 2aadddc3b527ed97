#include "runtime/cpu/parallel_for.h"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace pjrtx::cpu {
namespace {

// One loop: indices are claimed from `next`; `done` counts finished ones.
struct Loop {
  Loop(int64_t count, absl::FunctionRef<void(int64_t)> body)
      : count(count), body(body) {}
  const int64_t count;
  const absl::FunctionRef<void(int64_t)> body;
  std::atomic<int64_t> next{0};
  std::atomic<int64_t> done{0};
  std::mutex mu;
  std::condition_variable finished;

  // Runs indices until none is left to claim.
  void Work() {
    int64_t ran = 0;
    for (int64_t i = next.fetch_add(1); i < count; i = next.fetch_add(1)) {
      body(i);
      ++ran;
    }
    if (ran > 0 && done.fetch_add(ran) + ran == count) {
      std::lock_guard<std::mutex> lock(mu);
      finished.notify_all();
    }
  }
};

class Helpers {
 public:
  explicit Helpers(int threads) {
    for (int t = 0; t < threads; ++t) {
      std::thread([this] { Run(); }).detach();
    }
  }

  // Offers `loop` to up to `wanted` helpers; each that picks it up works on
  // it. The shared_ptr keeps the loop alive for a helper that picks it up
  // after the caller has finished it (there is then nothing to claim).
  void Offer(const std::shared_ptr<Loop>& loop, int wanted) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (int i = 0; i < wanted; ++i) offers_.push_back(loop);
    }
    if (wanted == 1) {
      ready_.notify_one();
    } else {
      ready_.notify_all();
    }
  }

 private:
  void Run() {
    while (true) {
      std::shared_ptr<Loop> loop;
      {
        std::unique_lock<std::mutex> lock(mu_);
        ready_.wait(lock, [this] { return !offers_.empty(); });
        loop = std::move(offers_.front());
        offers_.pop_front();
      }
      loop->Work();
    }
  }

  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<std::shared_ptr<Loop>> offers_;  // Guarded by mu_.
};

int CoresAvailable() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    return std::max(1, CPU_COUNT(&set));
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

Helpers* SharedHelpers() {
  // Never destroyed: helpers outlive static destruction at exit, idle.
  static Helpers* helpers = new Helpers(ParallelForWidth() - 1);
  return helpers;
}

}  // namespace

int ParallelForWidth() {
  static const int width = [] {
    const int cores = CoresAvailable();
    // A cap for comparisons against one-thread baselines, or to leave
    // cores to the rest of the process.
    const char* cap = std::getenv("PJRTX_CPU_THREADS");
    if (cap == nullptr) return cores;
    char* end = nullptr;
    const long value = std::strtol(cap, &end, 10);
    if (end == cap || *end != '\0' || value < 1) return cores;
    return static_cast<int>(std::min<long>(value, cores));
  }();
  return width;
}

void ParallelFor(int64_t count, absl::FunctionRef<void(int64_t)> body) {
  if (count <= 0) return;
  const int width = ParallelForWidth();
  if (count == 1 || width == 1) {
    for (int64_t i = 0; i < count; ++i) body(i);
    return;
  }
  auto loop = std::make_shared<Loop>(count, body);
  SharedHelpers()->Offer(
      loop, static_cast<int>(std::min<int64_t>(width - 1, count - 1)));
  loop->Work();
  std::unique_lock<std::mutex> lock(loop->mu);
  loop->finished.wait(lock, [&] { return loop->done.load() == count; });
}

}  // namespace pjrtx::cpu
