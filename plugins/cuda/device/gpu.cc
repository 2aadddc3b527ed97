#include "plugins/cuda/device/gpu.h"

#include <cstdint>
#include <utility>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/cuda_status.h"
#include "support/status_macros.h"

namespace cuda_plugin {

absl::StatusOr<std::unique_ptr<Gpu>> Gpu::Open(const DriverApi& api,
                                               const GpuInfo& info) {
  std::unique_ptr<Gpu> gpu(new Gpu(api, info));
  PJRTX_CUDA_RETURN_IF_ERROR(api, cuDeviceGet(&gpu->device_, info.ordinal));
  int pools_supported = 0;
  PJRTX_CUDA_RETURN_IF_ERROR(
      api, cuDeviceGetAttribute(&pools_supported,
                                CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                                gpu->device_));
  if (pools_supported == 0) {
    return absl::FailedPreconditionError(absl::StrCat(
        "CUDA device ", info.ordinal, " (", info.name,
        ") has no stream-ordered memory pools, which the plugin needs"));
  }
  PJRTX_CUDA_RETURN_IF_ERROR(
      api, cuDevicePrimaryCtxRetain(&gpu->context_, gpu->device_));
  PJRTX_RETURN_IF_ERROR(gpu->MakeCurrent());
  for (CUstream& stream : gpu->streams_) {
    // Non-blocking: the legacy default stream some other library uses must
    // not serialise with ours.
    PJRTX_CUDA_RETURN_IF_ERROR(api,
                               cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
  }
  PJRTX_CUDA_RETURN_IF_ERROR(
      api, cuStreamCreate(&gpu->wake_stream_, CU_STREAM_NON_BLOCKING));
  CUmemPoolProps props = {};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = info.ordinal;
  PJRTX_CUDA_RETURN_IF_ERROR(api, cuMemPoolCreate(&gpu->pool_, &props));
  // The default threshold (0) hands memory back to the OS at every
  // synchronisation, making the next allocation pay for it again.
  cuuint64_t threshold = UINT64_MAX;
  PJRTX_CUDA_RETURN_IF_ERROR(
      api, cuMemPoolSetAttribute(gpu->pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                                 &threshold));
  gpu->events_ = std::make_unique<EventPool>(api);
  return gpu;
}

Gpu::~Gpu() {
  if (context_ == nullptr) return;
  if (!MakeCurrent().ok()) return;
  for (CUstream stream : streams_) {
    if (stream == nullptr) continue;
    api_.cuStreamSynchronize(stream);
  }
  if (wake_stream_ != nullptr) api_.cuStreamSynchronize(wake_stream_);
  events_.reset();
  for (CUstream stream : streams_) {
    if (stream != nullptr) api_.cuStreamDestroy(stream);
  }
  if (wake_stream_ != nullptr) api_.cuStreamDestroy(wake_stream_);
  if (pool_ != nullptr) api_.cuMemPoolDestroy(pool_);
  api_.cuDevicePrimaryCtxRelease(device_);
}

absl::Status Gpu::MakeCurrent() const {
  PJRTX_CUDA_RETURN_IF_ERROR(api_, cuCtxSetCurrent(context_));
  return absl::OkStatus();
}

absl::Status Gpu::OrderAfter(CUstream waiter, CUstream target) {
  if (waiter == target) return absl::OkStatus();
  PJRTX_ASSIGN_OR_RETURN(CUevent event, events_->Acquire());
  CUresult result = api_.cuEventRecord(event, target);
  if (result == CUDA_SUCCESS) result = api_.cuStreamWaitEvent(waiter, event, 0);
  // The wait captured the event's state; it can be recorded again at once.
  events_->Release(event);
  return CudaStatus(api_, result, "cuEventRecord/cuStreamWaitEvent");
}

absl::StatusOr<std::pair<size_t, size_t>> Gpu::MemoryInfo() const {
  size_t free_bytes = 0, total_bytes = 0;
  PJRTX_CUDA_RETURN_IF_ERROR(api_, cuMemGetInfo(&free_bytes, &total_bytes));
  return std::make_pair(free_bytes, total_bytes);
}

}  // namespace cuda_plugin
