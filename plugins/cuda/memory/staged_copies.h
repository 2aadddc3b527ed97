// Host <-> GPU copies. Pageable host memory goes through the pinned staging
// pool: the host side is copied into (or out of) a pinned chunk by the
// CPU, the DMA runs from the chunk, and the chunk returns to the pool when
// its copy completes, so a transfer of any size pipelines through a bounded
// amount of pinned memory. Page-locked host memory (cuMemHostAlloc,
// cuMemHostRegister: the pinned_host memory, zero-copy buffers, a
// framework's pinned tensors) needs no staging: the DMA reads or writes it
// in place, at the bus's speed instead of the CPU copy's.
#ifndef PJRTX_PLUGINS_CUDA_MEMORY_STAGED_COPIES_H_
#define PJRTX_PLUGINS_CUDA_MEMORY_STAGED_COPIES_H_

#include <cuda.h>

#include <cstddef>

#include "absl/status/status.h"
#include "plugins/cuda/memory/pinned_staging_pool.h"
#include "plugins/cuda/streams/issue_scope.h"

namespace cuda_plugin {

// Copies `size` bytes from host `src` to `dst` (device memory, or pinned
// host memory addressed as a device pointer) on `stream`. `src` may be
// reused as soon as this returns.
absl::Status StagedUpload(IssueScope& scope, PinnedStagingPool& staging,
                          CUstream stream, CUdeviceptr dst, const void* src,
                          size_t size);

// As StagedUpload, but straight from `src` where it is page-locked: for
// copies inside a queued task, whose source stays valid until the task
// completes (the core releases the caller's memory only then).
absl::Status UploadInTask(IssueScope& scope, PinnedStagingPool& staging,
                          CUstream stream, CUdeviceptr dst, const void* src,
                          size_t size);

// Copies `size` bytes from `src` to host `dst` on `stream` (straight into
// `dst` where it is page-locked, else through the staging pool); `dst`
// holds the data once the scope's later completions run (the scope's task
// is done). `dst` must stay valid until then.
absl::Status StagedDownload(IssueScope& scope, PinnedStagingPool& staging,
                            CUstream stream, void* dst, CUdeviceptr src,
                            size_t size);

// Whether [host, host + size) lies inside one page-locked allocation or
// registration the driver knows, so a DMA can address it. False for
// pageable memory (the driver does not know the pointer).
bool IsPageLocked(const DriverApi& api, const void* host, size_t size);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_MEMORY_STAGED_COPIES_H_
