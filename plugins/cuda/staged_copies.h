// Host <-> GPU copies through the pinned staging pool: the host side is
// copied into (or out of) a pinned chunk by the CPU, the DMA runs from the
// chunk, and the chunk returns to the pool when its copy completes, so a
// transfer of any size pipelines through a bounded amount of pinned memory.
#ifndef PJRTX_PLUGINS_CUDA_STAGED_COPIES_H_
#define PJRTX_PLUGINS_CUDA_STAGED_COPIES_H_

#include <cuda.h>

#include <cstddef>

#include "absl/status/status.h"
#include "plugins/cuda/issue_scope.h"
#include "plugins/cuda/pinned_staging_pool.h"

namespace cuda_plugin {

// Copies `size` bytes from host `src` to `dst` (device memory, or pinned
// host memory addressed as a device pointer) on `stream`. `src` may be
// reused as soon as this returns.
absl::Status StagedUpload(IssueScope& scope, PinnedStagingPool& staging,
                          CUstream stream, CUdeviceptr dst, const void* src,
                          size_t size);

// Copies `size` bytes from `src` to host `dst` on `stream`; `dst` holds the
// data once the scope's later completions run (the scope's task is done).
// `dst` must stay valid until then.
absl::Status StagedDownload(IssueScope& scope, PinnedStagingPool& staging,
                            CUstream stream, void* dst, CUdeviceptr src,
                            size_t size);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STAGED_COPIES_H_
