// Which pending task events a CudaQueue has issued, and the CUDA event
// recorded where each task's GPU work ends. A task that depends on another
// queue's task then waits for it on the GPU (cuStreamWaitEvent) instead of
// holding its issue thread until the work completes; a dependency on the
// same queue needs no wait at all, since its queue issues in order.
#ifndef PJRTX_PLUGINS_CUDA_STREAMS_ISSUED_EVENTS_H_
#define PJRTX_PLUGINS_CUDA_STREAMS_ISSUED_EVENTS_H_

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "runtime/core/base/event.h"

namespace cuda_plugin {

class IssuedEvents {
 public:
  // How a task should order itself after `event`.
  enum class Order {
    kNone,      // Ready, or issued earlier on the same queue.
    kGpuWait,   // Another queue's task: waited for on the GPU.
    kHostWait,  // Not a queue task (e.g. a host event): await it.
  };

  explicit IssuedEvents(const DriverApi& api) : api_(api) {}

  // `done` belongs to a task `queue` will issue.
  void Register(const pjrtx::Event* done, int64_t queue);
  // The task of `done` was issued; `end` completes after its GPU work.
  void MarkIssued(const pjrtx::Event* done, CUevent end);
  // The task completed: `end` may be recorded again from now on.
  void Remove(const pjrtx::Event* done);

  // Orders `stream` (of `queue`) after `dependency`: nothing for a ready
  // event or one of `queue`'s own tasks; a GPU wait for another queue's
  // task (after waiting, on the host, for it to be issued, which never
  // needs its work to complete); otherwise kHostWait, for the caller.
  absl::StatusOr<Order> OrderAfter(const pjrtx::EventRef& dependency,
                                   int64_t queue, CUstream stream);

 private:
  struct Entry {
    int64_t queue = 0;
    CUevent end = nullptr;  // Null until issued.
  };

  const DriverApi& api_;
  std::mutex mu_;
  std::condition_variable issued_;
  std::unordered_map<const pjrtx::Event*, Entry> entries_;  // Guarded by mu_.
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STREAMS_ISSUED_EVENTS_H_
