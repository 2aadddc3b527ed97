#include "plugins/cuda/streams/completion_thread.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/cuda_status.h"

namespace cuda_plugin {
namespace {

// The completion threads host functions may wake, by id: a host function
// can run after its thread is gone (the driver runs it whenever the event
// completes), so it looks its thread up instead of holding a pointer.
struct WakeRegistry {
  std::mutex mu;
  std::map<uintptr_t, CompletionThread*> threads;  // One per client.
  uintptr_t next_id = 1;
};

WakeRegistry& Registry() {
  // Never destroyed: host functions may run during process exit.
  static WakeRegistry* registry = new WakeRegistry;
  return *registry;
}

uintptr_t Register(CompletionThread* thread) {
  WakeRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mu);
  const uintptr_t id = registry.next_id++;
  registry.threads[id] = thread;
  return id;
}

}  // namespace

int64_t NewPrivateLane() {
  // Above any device index a queue uses as its lane.
  static std::atomic<int64_t> next{int64_t{1} << 40};
  return next.fetch_add(1, std::memory_order_relaxed);
}

absl::StatusOr<CompletionWait> ParseCompletionWait(std::string_view name) {
  if (name == "spin") return CompletionWait::kSpin;
  if (name == "backoff") return CompletionWait::kBackoff;
  if (name == "auto" || name.empty()) {
    return std::thread::hardware_concurrency() >= 8 ? CompletionWait::kSpin
                                                    : CompletionWait::kBackoff;
  }
  return absl::InvalidArgumentError(
      absl::StrCat("completion_wait is '", std::string(name),
                   "'; expected 'auto', 'spin' or 'backoff'"));
}

CompletionThread::CompletionThread(const DriverApi& api, CompletionWait wait)
    : api_(api),
      wait_(wait),
      wake_id_(Register(this)),
      thread_([this] { Run(); }) {}

CompletionThread::~CompletionThread() {
  {
    WakeRegistry& registry = Registry();
    std::lock_guard<std::mutex> lock(registry.mu);
    registry.threads.erase(wake_id_);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  thread_.join();
}

void CompletionThread::Add(int64_t lane, Gpu* gpu, CUevent event,
                           Callback callback) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    lanes_[lane].push_back(Pending{gpu, event, std::move(callback)});
    ++pending_;
  }
  work_.notify_one();
}

void CompletionThread::WakeWhenDone(Gpu& gpu, CUevent event) {
  if (wait_ == CompletionWait::kSpin) return;
  // Failures are left to the backoff: a stream that cannot take the wait or
  // the function still completes (or fails) the event it polls.
  if (api_.cuStreamWaitEvent(gpu.wake_stream(), event, 0) != CUDA_SUCCESS) {
    return;
  }
  api_.cuLaunchHostFunc(gpu.wake_stream(), &WakeFromHostFunction,
                        reinterpret_cast<void*>(wake_id_));
}

void CUDA_CB CompletionThread::WakeFromHostFunction(void* id) {
  WakeRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mu);
  auto it = registry.threads.find(reinterpret_cast<uintptr_t>(id));
  if (it != registry.threads.end()) it->second->Wake();
}

void CompletionThread::Wake() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    woken_ = true;
  }
  work_.notify_one();
}

int64_t CompletionThread::pending() const {
  std::lock_guard<std::mutex> lock(mu_);
  return pending_;
}

int CompletionThread::PollOnce() {
  // The heads are looked at without the lock held across driver calls, so
  // producers never wait for a query.
  std::vector<std::pair<int64_t, Pending*>> heads;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [lane, entries] : lanes_) {
      if (!entries.empty()) heads.emplace_back(lane, &entries.front());
    }
  }
  int completed = 0;
  for (auto& [lane, head] : heads) {
    // Only this thread pops, so `head` stays valid (deque push_back keeps
    // references to existing elements).
    absl::Status status = head->gpu->MakeCurrent();
    if (status.ok()) {
      const CUresult result = api_.cuEventQuery(head->event);
      if (result == CUDA_ERROR_NOT_READY) continue;
      status = CudaStatus(api_, result, "cuEventQuery");
    }
    Pending done;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::deque<Pending>& entries = lanes_[lane];
      done = std::move(entries.front());
      entries.pop_front();
      if (entries.empty()) lanes_.erase(lane);
    }
    // The callback first: until it returns, others may still wait on the
    // event (IssuedEvents), so it must not be recorded again.
    std::move(done.callback)(std::move(status));
    done.gpu->events().Release(done.event);
    {
      std::lock_guard<std::mutex> lock(mu_);
      --pending_;
    }
    ++completed;
  }
  return completed;
}

void CompletionThread::Run() {
  // With kSpin, poll continuously while anything is pending. Otherwise
  // poll quickly while work keeps completing, then back off to 1 ms so an
  // idle client costs nothing and a long kernel costs little; a host
  // function's wake-up cuts any wait short.
  auto idle_wait = std::chrono::microseconds(0);
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(mu_);
      // The poll below sees whatever a wake-up so far reported.
      woken_ = false;
      if (pending_ == 0) {
        if (stopping_) return;
        work_.wait(lock, [this] { return pending_ > 0 || stopping_; });
        idle_wait = std::chrono::microseconds(0);
        continue;
      }
    }
    if (PollOnce() > 0) {
      idle_wait = std::chrono::microseconds(0);
      continue;
    }
    if (wait_ == CompletionWait::kSpin) {
      std::this_thread::yield();
      continue;
    }
    idle_wait = std::min<std::chrono::microseconds>(
        std::chrono::microseconds(1000),
        std::max<std::chrono::microseconds>(std::chrono::microseconds(5),
                                            idle_wait * 2));
    std::unique_lock<std::mutex> lock(mu_);
    // New work may complete earlier than the backoff; a wake-up cuts it.
    if (work_.wait_for(lock, idle_wait, [this] { return woken_; })) {
      idle_wait = std::chrono::microseconds(0);
    }
  }
}

}  // namespace cuda_plugin
