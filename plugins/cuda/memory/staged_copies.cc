#include "plugins/cuda/memory/staged_copies.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "plugins/cuda/driver_api/cuda_status.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

// Returns a chunk whose copy has completed or failed. A failure can be
// reported (a context's error, seen at once on every stream) while the
// stream is still moving bytes of the chunk; they are left to drain before
// the chunk can be filled again.
void ReleaseAfterDrain(const DriverApi& api, CUstream stream,
                       const absl::Status& done, PinnedStagingPool& staging,
                       int chunk) {
  if (!done.ok()) (void)api.cuStreamSynchronize(stream);
  staging.Release(chunk);
}

}  // namespace

absl::Status StagedUpload(IssueScope& scope, PinnedStagingPool& staging,
                          CUstream stream, CUdeviceptr dst, const void* src,
                          size_t size) {
  const DriverApi& api = scope.gpu().events().api();
  const uint8_t* from = static_cast<const uint8_t*>(src);
  for (size_t offset = 0; offset < size; offset += staging.chunk_bytes()) {
    const size_t bytes = std::min(staging.chunk_bytes(), size - offset);
    const int chunk = staging.Acquire();
    staging.copier().Copy(staging.data(chunk), from + offset, bytes);
    const CUresult result =
        api.cuMemcpyHtoDAsync(dst + offset, staging.data(chunk), bytes, stream);
    if (result != CUDA_SUCCESS) {
      staging.Release(chunk);
      return CudaStatus(api, result, "cuMemcpyHtoDAsync");
    }
    PJRTX_RETURN_IF_ERROR(scope.OnCompletion(
        stream, [&staging, &api, stream, chunk](absl::Status done) {
          ReleaseAfterDrain(api, stream, done, staging, chunk);
        }));
  }
  return absl::OkStatus();
}

absl::Status UploadInTask(IssueScope& scope, PinnedStagingPool& staging,
                          CUstream stream, CUdeviceptr dst, const void* src,
                          size_t size) {
  const DriverApi& api = scope.gpu().events().api();
  if (!IsPageLocked(api, src, size)) {
    return StagedUpload(scope, staging, stream, dst, src, size);
  }
  PJRTX_CUDA_RETURN_IF_ERROR(api, cuMemcpyHtoDAsync(dst, src, size, stream));
  return absl::OkStatus();
}

absl::Status StagedDownload(IssueScope& scope, PinnedStagingPool& staging,
                            CUstream stream, void* dst, CUdeviceptr src,
                            size_t size) {
  const DriverApi& api = scope.gpu().events().api();
  if (IsPageLocked(api, dst, size)) {
    PJRTX_CUDA_RETURN_IF_ERROR(api, cuMemcpyDtoHAsync(dst, src, size, stream));
    return absl::OkStatus();
  }
  uint8_t* to = static_cast<uint8_t*>(dst);
  for (size_t offset = 0; offset < size; offset += staging.chunk_bytes()) {
    const size_t bytes = std::min(staging.chunk_bytes(), size - offset);
    const int chunk = staging.Acquire();
    const CUresult result =
        api.cuMemcpyDtoHAsync(staging.data(chunk), src + offset, bytes, stream);
    if (result != CUDA_SUCCESS) {
      staging.Release(chunk);
      return CudaStatus(api, result, "cuMemcpyDtoHAsync");
    }
    PJRTX_RETURN_IF_ERROR(scope.OnCompletion(
        stream, [&staging, &api, stream, chunk, out = to + offset,
                 bytes](absl::Status done) {
          // After a device failure the chunk holds nothing worth copying;
          // the task reports the failure.
          if (done.ok()) staging.copier().Copy(out, staging.data(chunk), bytes);
          ReleaseAfterDrain(api, stream, done, staging, chunk);
        }));
  }
  return absl::OkStatus();
}

bool IsPageLocked(const DriverApi& api, const void* host, size_t size) {
  const CUdeviceptr pointer = reinterpret_cast<CUdeviceptr>(host);
  CUmemorytype type = CU_MEMORYTYPE_DEVICE;
  if (api.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                pointer) != CUDA_SUCCESS ||
      type != CU_MEMORYTYPE_HOST) {
    return false;
  }
  CUdeviceptr start = 0;
  size_t range_size = 0;
  if (api.cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                pointer) != CUDA_SUCCESS ||
      api.cuPointerGetAttribute(&range_size, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                pointer) != CUDA_SUCCESS) {
    return false;
  }
  return pointer >= start && pointer - start + size <= range_size;
}

}  // namespace cuda_plugin
