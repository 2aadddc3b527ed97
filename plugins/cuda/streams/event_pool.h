// Recycled CUDA events for ordering and completion. Creating an event per
// transfer costs a driver call each time; a pooled event can be re-recorded
// as soon as nobody queries it, since cuStreamWaitEvent captures the
// event's state when it is called.
#ifndef PJRTX_PLUGINS_CUDA_STREAMS_EVENT_POOL_H_
#define PJRTX_PLUGINS_CUDA_STREAMS_EVENT_POOL_H_

#include <cuda.h>

#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/cuda/driver_api/cuda_api.h"

namespace cuda_plugin {

class EventPool {
 public:
  // Events are created in `context` (made current by the caller).
  explicit EventPool(const DriverApi& api) : api_(api) {}
  ~EventPool();
  EventPool(const EventPool&) = delete;
  EventPool& operator=(const EventPool&) = delete;

  // A free event (sync only: timing disabled). The caller's thread must
  // have the pool's context current.
  absl::StatusOr<CUevent> Acquire();
  void Release(CUevent event);

  const DriverApi& api() const { return api_; }

  // Events created so far (free or in use).
  int created() const;

 private:
  const DriverApi& api_;
  mutable std::mutex mu_;
  std::vector<CUevent> free_;  // Guarded by mu_.
  int created_ = 0;            // Guarded by mu_.
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STREAMS_EVENT_POOL_H_
