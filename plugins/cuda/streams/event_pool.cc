#include "plugins/cuda/streams/event_pool.h"

#include "plugins/cuda/driver_api/cuda_status.h"

namespace cuda_plugin {

EventPool::~EventPool() {
  // Destroying an event still pending is allowed: the driver frees it once
  // its work completes.
  for (CUevent event : free_) api_.cuEventDestroy(event);
}

absl::StatusOr<CUevent> EventPool::Acquire() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_.empty()) {
      CUevent event = free_.back();
      free_.pop_back();
      return event;
    }
  }
  CUevent event = nullptr;
  PJRTX_CUDA_RETURN_IF_ERROR(api_,
                             cuEventCreate(&event, CU_EVENT_DISABLE_TIMING));
  std::lock_guard<std::mutex> lock(mu_);
  ++created_;
  return event;
}

void EventPool::Release(CUevent event) {
  std::lock_guard<std::mutex> lock(mu_);
  free_.push_back(event);
}

int EventPool::created() const {
  std::lock_guard<std::mutex> lock(mu_);
  return created_;
}

}  // namespace cuda_plugin
