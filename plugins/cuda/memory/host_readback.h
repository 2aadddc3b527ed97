// Reading a few bytes of device memory on the host in the middle of a
// task: what data-dependent control flow (a while loop's condition, the
// branch of an if or a case) needs before it can issue more work. It costs
// a round trip between host and device each time; data otherwise stays on
// the device.
#ifndef PJRTX_PLUGINS_CUDA_MEMORY_HOST_READBACK_H_
#define PJRTX_PLUGINS_CUDA_MEMORY_HOST_READBACK_H_

#include <cuda.h>

#include <cstddef>

#include "absl/status/status.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/memory/pinned_staging_pool.h"
#include "plugins/cuda/streams/issue_scope.h"

namespace cuda_plugin {

// Copies `size` bytes (at most a staging chunk) from `src` to host `dst`
// on `stream`, after the work issued to it so far, through a pinned
// staging chunk, and returns once `dst` holds them. The calling thread
// waits by polling an event with backoff: cuEventSynchronize would spin a
// core (../shared REFERENCE 2.6). A device failure is the error returned.
absl::Status ReadBackToHost(IssueScope& scope, PinnedStagingPool& staging,
                            CUstream stream, CUdeviceptr src, void* dst,
                            size_t size);

// Returns once the work issued to `stream` so far has completed on `gpu`,
// or with the error that stopped it; polls as ReadBackToHost does.
absl::Status WaitForStream(Gpu& gpu, CUstream stream);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_MEMORY_HOST_READBACK_H_
