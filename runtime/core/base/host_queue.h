// DeviceQueue over a shared thread pool, for drivers without native queues.
#ifndef PJRTX_RUNTIME_CORE_BASE_HOST_QUEUE_H_
#define PJRTX_RUNTIME_CORE_BASE_HOST_QUEUE_H_

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/core/base/device_queue.h"
#include "runtime/core/base/thread_pool.h"

namespace pjrtx {

// Runs tasks in order on `pool`, at most one at a time, without dedicating
// a thread to the device: when the head task is ready the queue schedules a
// drain on the pool, which runs ready tasks until the head is not ready.
// Waiting on an event never occupies a thread; it is a continuation that
// marks the task ready. So hundreds of devices share a few threads, and a
// 1-thread pool runs every device cooperatively.
//
// The pool must outlive the queue; WaitIdle() before destroying it.
class HostQueue : public DeviceQueue {
 public:
  explicit HostQueue(ThreadPool* pool) : pool_(pool) {}
  ~HostQueue() override;

  EventRef Enqueue(absl::Span<const EventRef> wait_for, Task task) override;
  EventRef EnqueueOrRun(absl::Span<const EventRef> wait_for,
                        Task task) override;
  void WaitIdle() override;

 private:
  struct Item;

  void OnItemReady(Item* item);
  void Drain();
  // After a task ran on a caller's thread: pops it and hands what queued
  // up behind it to the pool.
  void FinishInline();

  ThreadPool* const pool_;
  std::mutex mu_;
  std::condition_variable idle_cv_;
  std::deque<std::shared_ptr<Item>> items_;  // Guarded by mu_.
  bool draining_ = false;                    // Guarded by mu_.
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_HOST_QUEUE_H_
