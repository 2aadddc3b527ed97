// The driver the fake libraries (fake cuBLASLt, fake NCCL) run on: the fake
// libcuda that the plugin loaded (PJRTX_CUDA_DRIVER_PATH, else
// libcuda.so.1), reached through its own cuGetProcAddress_v2, private entry
// points included: work queued on the caller's stream, and the fake's view
// of device memory.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_DRIVER_LINK_DRIVER_LINK_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_DRIVER_LINK_DRIVER_LINK_H_

#include <cudaTypedefs.h>

#include <string>

#include "tests/plugins/cuda/fake_cuda/private_api.h"

namespace fake_driver_link {

struct DriverLink {
  PFN_cuCtxGetCurrent_v4000 cuCtxGetCurrent = nullptr;
  PFN_cuCtxSetCurrent_v4000 cuCtxSetCurrent = nullptr;
  PFN_cuCtxGetDevice_v2000 cuCtxGetDevice = nullptr;
  PFN_fakeCudaEnqueueHostWork enqueue_host_work = nullptr;
  PFN_fakeCudaTranslate translate = nullptr;
};

// The link, resolved once; nullptr when the driver cannot be loaded or is
// not the fake (`LinkError()` then says why).
const DriverLink* Driver();
const std::string& LinkError();

}  // namespace fake_driver_link

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_DRIVER_LINK_DRIVER_LINK_H_
