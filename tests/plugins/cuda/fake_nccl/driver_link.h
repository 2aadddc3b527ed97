// The driver the fake NCCL runs on: the fake libcuda that the plugin
// loaded (PJRTX_CUDA_DRIVER_PATH, else libcuda.so.1), reached through its
// own cuGetProcAddress_v2, private entry points included.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_DRIVER_LINK_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_DRIVER_LINK_H_

#include <cudaTypedefs.h>

#include <string>

#include "tests/plugins/cuda/fake_cuda/private_api.h"

namespace fake_nccl {

struct DriverLink {
  PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent = nullptr;
  PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent = nullptr;
  PFN_cuCtxGetDevice_v2000 cuCtxGetDevice = nullptr;
  PFN_fakeCudaEnqueueHostWork enqueue_host_work = nullptr;
  PFN_fakeCudaTranslate translate = nullptr;
};

// The link, resolved once; nullptr when the driver cannot be loaded or is
// not the fake (`Driver()` then says why in `LinkError()`).
const DriverLink* Driver();
const std::string& LinkError();

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_DRIVER_LINK_H_
