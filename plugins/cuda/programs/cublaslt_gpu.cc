#include "plugins/cuda/programs/cublaslt_gpu.h"

#include <cstdio>

#include "plugins/cuda/driver_api/cuda_status.h"
#include "support/status_macros.h"

namespace cuda_plugin {
namespace {

// NVIDIA's recommended cuBLASLt workspace: 32 MiB from Hopper on (its
// kernels split K across more blocks), 4 MiB before.
size_t WorkspaceBytes(const GpuInfo& info) {
  return info.compute_major >= 9 ? size_t{32} << 20 : size_t{4} << 20;
}

}  // namespace

CublasLtGpu::~CublasLtGpu() {
  if (resources_.handle == nullptr) return;
  if (!gpu_.MakeCurrent().ok()) return;
  const cublasStatus_t status = blas_.cublasLtDestroy(resources_.handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(
        stderr, "pjrtx cuda: warning: cublasLtDestroy: %s\n",
        CublasLtStatus(blas_, status, "cublasLtDestroy").ToString().c_str());
  }
  api_.cuMemFreeAsync(resources_.workspace, gpu_.stream(StreamKind::kCompute));
}

absl::StatusOr<CublasLtResources> CublasLtGpu::Acquire() {
  std::lock_guard<std::mutex> lock(mu_);
  if (resources_.handle != nullptr) return resources_;
  PJRTX_RETURN_IF_ERROR(gpu_.MakeCurrent());
  const size_t bytes = WorkspaceBytes(gpu_.info());
  CUdeviceptr workspace = 0;
  // Stream-ordered on the compute stream, where every matmul runs.
  PJRTX_CUDA_RETURN_IF_ERROR(
      api_, cuMemAllocFromPoolAsync(&workspace, bytes, gpu_.pool(),
                                    gpu_.stream(StreamKind::kCompute)));
  cublasLtHandle_t handle = nullptr;
  const cublasStatus_t status = blas_.cublasLtCreate(&handle);
  if (status != CUBLAS_STATUS_SUCCESS) {
    api_.cuMemFreeAsync(workspace, gpu_.stream(StreamKind::kCompute));
    return CublasLtStatus(blas_, status, "cublasLtCreate");
  }
  resources_ = {handle, workspace, bytes};
  return resources_;
}

}  // namespace cuda_plugin
