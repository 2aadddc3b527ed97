// One GPU's cuBLASLt state: a handle and the workspace every matmul on the
// GPU shares, both made on first use (a client that never multiplies
// matrices pays nothing) and released with the client. All of the GPU's
// matmuls run on its compute stream, so uses of the one workspace are
// ordered by the stream.
#ifndef PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_GPU_H_
#define PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_GPU_H_

#include <cublasLt.h>
#include <cuda.h>

#include <cstddef>
#include <mutex>

#include "absl/status/statusor.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "plugins/cuda/programs/cublaslt_library.h"

namespace cuda_plugin {

// What a matmul on the GPU runs with.
struct CublasLtResources {
  cublasLtHandle_t handle = nullptr;
  CUdeviceptr workspace = 0;
  size_t workspace_bytes = 0;
};

class CublasLtGpu {
 public:
  CublasLtGpu(const CublasLtApi& blas, const DriverApi& api, Gpu& gpu)
      : blas_(blas), api_(api), gpu_(gpu) {}
  // Destroys the handle and frees the workspace after the work queued on
  // the compute stream; the GPU must still be open.
  ~CublasLtGpu();
  CublasLtGpu(const CublasLtGpu&) = delete;
  CublasLtGpu& operator=(const CublasLtGpu&) = delete;

  const CublasLtApi& blas() const { return blas_; }
  Gpu& gpu() { return gpu_; }

  // The handle and workspace, made on the first call (the workspace
  // allocated from the GPU's pool on its compute stream; the GPU's context
  // is made current on the calling thread for that). A failure is
  // returned, and tried again next time.
  absl::StatusOr<CublasLtResources> Acquire();

 private:
  const CublasLtApi& blas_;
  const DriverApi& api_;
  Gpu& gpu_;
  std::mutex mu_;
  CublasLtResources resources_;  // Set once, under mu_.
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_GPU_H_
