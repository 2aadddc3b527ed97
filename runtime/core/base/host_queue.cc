#include "runtime/core/base/host_queue.h"

#include <atomic>
#include <utility>

namespace pjrtx {

struct HostQueue::Item {
  Task task;
  EventRef done = Event::Create();
  // Awaited events not yet ready, plus one guard released by Enqueue so the
  // item cannot become ready while its continuations are being registered.
  std::atomic<size_t> pending{1};
  absl::Mutex mu;
  absl::Status wait_error ABSL_GUARDED_BY(mu);
  bool ready = false;  // Guarded by the queue's mu_.
};

HostQueue::~HostQueue() { WaitIdle(); }

EventRef HostQueue::Enqueue(std::vector<EventRef> wait_for, Task task) {
  auto item = std::make_shared<Item>();
  item->task = std::move(task);
  EventRef done = item->done;
  {
    absl::MutexLock lock(&mu_);
    items_.push_back(item);
  }
  for (EventRef& event : wait_for) {
    if (event->IsReady() && event->status().ok()) continue;
    item->pending.fetch_add(1, std::memory_order_relaxed);
    event->AndThen([this, item = item.get()](const absl::Status& status) {
      if (!status.ok()) {
        absl::MutexLock lock(&item->mu);
        if (item->wait_error.ok()) item->wait_error = status;
      }
      if (item->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        OnItemReady(item);
      }
    });
  }
  if (item->pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
    OnItemReady(item.get());
  }
  return done;
}

void HostQueue::OnItemReady(Item* item) {
  absl::MutexLock lock(&mu_);
  item->ready = true;
  if (!draining_ && items_.front()->ready) {
    draining_ = true;
    pool_->Schedule([this] { Drain(); });
  }
}

void HostQueue::Drain() {
  while (true) {
    std::shared_ptr<Item> item;
    {
      absl::MutexLock lock(&mu_);
      if (items_.empty() || !items_.front()->ready) {
        draining_ = false;
        return;
      }
      item = items_.front();
    }
    absl::Status status;
    {
      absl::MutexLock lock(&item->mu);
      status = item->wait_error;
    }
    if (status.ok()) status = std::move(item->task)();
    item->task = nullptr;  // Release what the task captured before signalling.
    {
      // Pop only after running so that WaitIdle sees the task in flight.
      absl::MutexLock lock(&mu_);
      items_.pop_front();
    }
    item->done->Set(std::move(status));
  }
}

void HostQueue::WaitIdle() {
  absl::MutexLock lock(&mu_);
  mu_.Await(absl::Condition(
      +[](HostQueue* queue) ABSL_EXCLUSIVE_LOCKS_REQUIRED(queue->mu_) {
        return queue->items_.empty() && !queue->draining_;
      },
      this));
}

}  // namespace pjrtx
