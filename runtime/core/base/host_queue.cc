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
  std::mutex mu;
  absl::Status wait_error;  // Guarded by mu.
  bool ready = false;       // Guarded by the queue's mu_.
};

HostQueue::~HostQueue() { WaitIdle(); }

EventRef HostQueue::Enqueue(absl::Span<const EventRef> wait_for, Task task) {
  auto item = std::make_shared<Item>();
  item->task = std::move(task);
  EventRef done = item->done;
  {
    std::lock_guard<std::mutex> lock(mu_);
    items_.push_back(item);
  }
  for (const EventRef& event : wait_for) {
    if (event->IsReady() && event->status().ok()) continue;
    item->pending.fetch_add(1, std::memory_order_relaxed);
    event->AndThen([this, item = item.get()](const absl::Status& status) {
      if (!status.ok()) {
        std::lock_guard<std::mutex> lock(item->mu);
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

EventRef HostQueue::EnqueueOrRun(absl::Span<const EventRef> wait_for,
                                 Task task) {
  for (const EventRef& event : wait_for) {
    if (!event->IsReady() || !event->status().ok()) {
      return Enqueue(wait_for, std::move(task));
    }
  }
  auto item = std::make_shared<Item>();
  bool run_here = false;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // This thread becomes the queue's drainer while the task runs: tasks
    // enqueued meanwhile wait behind it, and WaitIdle sees it in flight.
    if (items_.empty() && !draining_) {
      item->ready = true;
      items_.push_back(item);
      draining_ = run_here = true;
    }
  }
  if (!run_here) return Enqueue(wait_for, std::move(task));
  absl::Status status = std::move(task)();
  task = nullptr;  // Release what the task captured before signalling.
  FinishInline();
  item->done->Set(std::move(status));
  return item->done;
}

void HostQueue::FinishInline() {
  std::lock_guard<std::mutex> lock(mu_);
  items_.pop_front();
  if (!items_.empty() && items_.front()->ready) {
    pool_->Schedule([this] { Drain(); });  // Still draining_.
    return;
  }
  draining_ = false;
  if (items_.empty()) idle_cv_.notify_all();
}

void HostQueue::OnItemReady(Item* item) {
  std::lock_guard<std::mutex> lock(mu_);
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
      std::lock_guard<std::mutex> lock(mu_);
      if (items_.empty() || !items_.front()->ready) {
        draining_ = false;
        if (items_.empty()) idle_cv_.notify_all();
        return;
      }
      item = items_.front();
    }
    absl::Status status;
    {
      std::lock_guard<std::mutex> lock(item->mu);
      status = item->wait_error;
    }
    if (status.ok()) status = std::move(item->task)();
    item->task = nullptr;  // Release what the task captured before signalling.
    bool yield = false;
    {
      // Pop only after running so that WaitIdle sees the task in flight.
      std::lock_guard<std::mutex> lock(mu_);
      items_.pop_front();
      // Other devices' work is waiting for a thread: go to the back of the
      // line rather than run this device's whole queue first, or chips
      // sharing the pool take turns by queue instead of by task (one chip
      // of a slice finishing its step before another starts holds up every
      // collective between them).
      yield =
          pool_->HasWaitingWork() && !items_.empty() && items_.front()->ready;
    }
    item->done->Set(std::move(status));
    if (yield) {
      pool_->Schedule([this] { Drain(); });
      return;
    }
  }
}

void HostQueue::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait(lock, [this] { return items_.empty() && !draining_; });
}

}  // namespace pjrtx
