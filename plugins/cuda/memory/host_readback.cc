#include "plugins/cuda/memory/host_readback.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "absl/strings/str_cat.h"
#include "plugins/cuda/driver_api/cuda_status.h"
#include "support/status_macros.h"

namespace cuda_plugin {

absl::Status WaitForStream(Gpu& gpu, CUstream stream) {
  EventPool& events = gpu.events();
  const DriverApi& api = events.api();
  PJRTX_ASSIGN_OR_RETURN(CUevent event, events.Acquire());
  CUresult result = api.cuEventRecord(event, stream);
  const char* call = "cuEventRecord";
  if (result == CUDA_SUCCESS) {
    call = "cuEventQuery";
    // A condition kernel takes microseconds: yield while the wait is that
    // short (the other threads may be the ones doing the work, the fake
    // driver's streams among them), then sleep, doubling up to 1 ms so a
    // long kernel costs little.
    const auto start = std::chrono::steady_clock::now();
    auto sleep = std::chrono::microseconds(10);
    while ((result = api.cuEventQuery(event)) == CUDA_ERROR_NOT_READY) {
      if (std::chrono::steady_clock::now() - start <
          std::chrono::microseconds(100)) {
        std::this_thread::yield();
        continue;
      }
      std::this_thread::sleep_for(sleep);
      sleep = std::min<std::chrono::microseconds>(
          sleep * 2, std::chrono::microseconds(1000));
    }
  }
  events.Release(event);
  return CudaStatus(api, result, call);
}

absl::Status ReadBackToHost(IssueScope& scope, PinnedStagingPool& staging,
                            CUstream stream, CUdeviceptr src, void* dst,
                            size_t size) {
  if (size > staging.chunk_bytes()) {
    return absl::InternalError(absl::StrCat(
        "a read-back of ", size, " bytes does not fit a staging chunk of ",
        staging.chunk_bytes()));
  }
  const DriverApi& api = scope.gpu().events().api();
  const int chunk = staging.Acquire();
  const CUresult copied =
      api.cuMemcpyDtoHAsync(staging.data(chunk), src, size, stream);
  if (copied != CUDA_SUCCESS) {
    staging.Release(chunk);
    return CudaStatus(api, copied, "cuMemcpyDtoHAsync");
  }
  absl::Status waited = WaitForStream(scope.gpu(), stream);
  if (!waited.ok()) {
    // The copy may still be in flight: the chunk goes back once the
    // stream is past it (at once if even that cannot be told).
    scope
        .OnCompletion(
            stream, [&staging, chunk](absl::Status) { staging.Release(chunk); })
        .IgnoreError();
    return waited;
  }
  std::memcpy(dst, staging.data(chunk), size);
  staging.Release(chunk);
  return absl::OkStatus();
}

}  // namespace cuda_plugin
