// A device queue over a GPU's streams. Its thread issues each task in
// order (the task enqueues copies and kernels and returns at once), then
// records an event where the task's work ends; the completion thread marks
// the task done when that event completes. A task's closure, and with it
// every allocation it holds, lives until then, so memory the GPU still
// reads is never freed early. Dependencies on tasks of this queue need no
// wait, on other queues' tasks a GPU-side one (IssuedEvents); only events
// from outside (host events) are awaited by the issue thread.
#ifndef PJRTX_PLUGINS_CUDA_STREAMS_CUDA_QUEUE_H_
#define PJRTX_PLUGINS_CUDA_STREAMS_CUDA_QUEUE_H_

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/streams/completion_thread.h"
#include "plugins/cuda/streams/issue_scope.h"
#include "plugins/cuda/streams/issued_events.h"
#include "runtime/core/base/device_queue.h"

namespace cuda_plugin {

class CudaQueue : public pjrtx::DeviceQueue {
 public:
  // `lane` identifies the queue: its completions' order on `completions`
  // and its tasks in `issued`.
  CudaQueue(Gpu& gpu, CompletionThread& completions, IssuedEvents& issued,
            int64_t lane);
  // Issues and finishes what is queued first.
  ~CudaQueue() override;

  pjrtx::EventRef Enqueue(absl::Span<const pjrtx::EventRef> wait_for,
                          Task task) override;
  void WaitIdle() override;

 private:
  struct Item {
    std::vector<pjrtx::EventRef> wait_for;
    Task task;
    pjrtx::EventRef done;
  };

  void IssueLoop();
  // With CompletionWait::kSpin: polls for work for a few milliseconds
  // before IssueLoop sleeps on it.
  void AwaitWorkSpinning();
  void Issue(Item item);
  // Finishes `item` with `status` (nothing of it reached the GPU).
  void Fail(Item item, absl::Status status);
  // Sets `done` to `outcome`'s status once both it and the previous task's
  // event are ready.
  void FinishInOrder(pjrtx::EventRef done, pjrtx::EventRef outcome);

  Gpu& gpu_;
  CompletionThread& completions_;
  IssuedEvents& issued_;
  const int64_t lane_;
  // Only the issue thread touches these two.
  CUstream tail_;
  pjrtx::EventRef previous_done_;

  std::mutex mu_;
  std::condition_variable changed_;
  std::deque<Item> items_;     // Guarded by mu_.
  pjrtx::EventRef last_done_;  // Guarded by mu_.
  bool stopping_ = false;      // Guarded by mu_.
  std::thread thread_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STREAMS_CUDA_QUEUE_H_
