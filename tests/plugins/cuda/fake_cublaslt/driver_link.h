// The driver the fake cuBLASLt runs on: the fake libcuda that the plugin
// loaded (PJRTX_CUDA_DRIVER_PATH, else libcuda.so.1), reached through its
// own cuGetProcAddress_v2 for its private entry points: work queued on the
// caller's stream, and the fake's view of device memory.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_DRIVER_LINK_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_DRIVER_LINK_H_

#include <string>

#include "tests/plugins/cuda/fake_cuda/private_api.h"

namespace fake_cublaslt {

struct DriverLink {
  PFN_fakeCudaEnqueueHostWork enqueue_host_work = nullptr;
  PFN_fakeCudaTranslate translate = nullptr;
};

// The link, resolved once; nullptr when the driver cannot be loaded or is
// not the fake (LinkError() then says why).
const DriverLink* Driver();
const std::string& LinkError();

}  // namespace fake_cublaslt

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUBLASLT_DRIVER_LINK_H_
