#include "plugins/cuda/streams/issued_events.h"

#include "plugins/cuda/driver_api/cuda_status.h"

namespace cuda_plugin {

void IssuedEvents::Register(const pjrtx::Event* done, int64_t queue) {
  std::lock_guard<std::mutex> lock(mu_);
  entries_[done] = Entry{queue, nullptr};
}

void IssuedEvents::MarkIssued(const pjrtx::Event* done, CUevent end) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = entries_.find(done);
    if (it == entries_.end()) return;
    it->second.end = end;
  }
  issued_.notify_all();
}

void IssuedEvents::Remove(const pjrtx::Event* done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    entries_.erase(done);
  }
  // A waiter for its issue finds it gone (and the event ready) instead.
  issued_.notify_all();
}

absl::StatusOr<IssuedEvents::Order> IssuedEvents::OrderAfter(
    const pjrtx::EventRef& dependency, int64_t queue, CUstream stream) {
  if (dependency->IsReady()) return Order::kNone;
  std::unique_lock<std::mutex> lock(mu_);
  auto it = entries_.find(dependency.get());
  if (it == entries_.end()) {
    return dependency->IsReady() ? Order::kNone : Order::kHostWait;
  }
  if (it->second.queue == queue) return Order::kNone;
  // Another queue's task: it is issued soon (its own dependencies may be
  // pending); its GPU work need not have started.
  issued_.wait(lock, [&] {
    it = entries_.find(dependency.get());
    return it == entries_.end() || it->second.end != nullptr;
  });
  if (it == entries_.end()) return Order::kNone;  // Completed meanwhile.
  // Under the lock: the event cannot be recycled before the wait captured
  // it.
  PJRTX_CUDA_RETURN_IF_ERROR(api_,
                             cuStreamWaitEvent(stream, it->second.end, 0));
  return Order::kGpuWait;
}

}  // namespace cuda_plugin
