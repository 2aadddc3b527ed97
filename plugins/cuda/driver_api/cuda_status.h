// CUresult -> absl::Status, naming the call and the driver's own words.
#ifndef PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_STATUS_H_
#define PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_STATUS_H_

#include <cuda.h>

#include "absl/status/status.h"
#include "plugins/cuda/driver_api/cuda_api.h"

namespace cuda_plugin {

// OK for CUDA_SUCCESS; otherwise "<call>: CUDA_ERROR_X (text)" with a code
// that says what the caller can do: RESOURCE_EXHAUSTED for out of memory,
// INVALID_ARGUMENT for bad values and PTX, UNAVAILABLE for a lost or faulted
// device, INTERNAL otherwise.
absl::Status CudaStatus(const DriverApi& api, CUresult result,
                        const char* call);

}  // namespace cuda_plugin

// Returns the status of a failing driver call from the enclosing function.
#define PJRTX_CUDA_RETURN_IF_ERROR(api, call)                             \
  do {                                                                    \
    const CUresult pjrtx_cuda_result_ = (api).call;                       \
    if (pjrtx_cuda_result_ != CUDA_SUCCESS) {                             \
      return ::cuda_plugin::CudaStatus((api), pjrtx_cuda_result_, #call); \
    }                                                                     \
  } while (false)

#endif  // PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_STATUS_H_
