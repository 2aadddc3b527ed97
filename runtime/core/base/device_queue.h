// The ordering primitive the core schedules device work on.
#ifndef PJRTX_RUNTIME_CORE_BASE_DEVICE_QUEUE_H_
#define PJRTX_RUNTIME_CORE_BASE_DEVICE_QUEUE_H_

#include <utility>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/core/base/event.h"

namespace pjrtx {

// An in-order queue of work for one device, like a CUDA stream. A driver
// with native queues implements it over them; otherwise the core supplies a
// HostQueue. Thread-safe.
class DeviceQueue {
 public:
  using Task = absl::AnyInvocable<absl::Status() &&>;

  virtual ~DeviceQueue() = default;

  // Runs `task` after every event of `wait_for` is ready and after every
  // task enqueued earlier has finished. Returns an event ready when the task
  // has run, carrying its status. If an awaited event fails, the task is not
  // run and the returned event carries that event's error. Never blocks.
  virtual EventRef Enqueue(absl::Span<const EventRef> wait_for, Task task) = 0;

  // As Enqueue, except that when nothing is ahead of the task (no task
  // queued or running, every event of `wait_for` ready and ok) the queue
  // may run it on the calling thread before returning. For tasks smaller
  // than what handing them to a worker costs: the hand-off, the worker's
  // wake-up and the waiter's. This default always enqueues.
  virtual EventRef EnqueueOrRun(absl::Span<const EventRef> wait_for,
                                Task task) {
    return Enqueue(wait_for, std::move(task));
  }

  // Blocks until every task enqueued so far has finished.
  virtual void WaitIdle() = 0;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_DEVICE_QUEUE_H_
