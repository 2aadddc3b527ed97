// One plain matmul of a program (plain_matmul.h) prepared for cuBLASLt on
// every GPU the program runs on: descriptors and the algorithm cuBLASLt's
// heuristic picks, once, at compile time. Where the heuristic has no
// algorithm, there is nothing to prepare and the program runs the PTX
// kernel instead.
//
// cuBLASLt is column-major and the plugin's arrays are row-major; a
// row-major [r, c] array is the column-major c x r matrix, its transpose.
// So the plugin asks for C^T = B^T A^T: cuBLASLt's A is the dot's rhs and
// its B the dot's lhs, with m and n swapped, and nothing is copied. A
// transposed rhs ([n, k]) becomes op(A) = T, which is also the only layout
// Hopper's FP8 kernels take ("TN").
#ifndef PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_MATMUL_H_
#define PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_MATMUL_H_

#include <cublasLt.h>
#include <cuda.h>

#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "plugins/cuda/programs/cublaslt_gpu.h"
#include "plugins/cuda/programs/library_matmul.h"

namespace cuda_plugin {

class CublasLtMatmul : public LibraryMatmul {
 public:
  // Descriptors and an algorithm on each of `gpus` (their handles are
  // made if need be), or nullptr when cuBLASLt has no algorithm for the
  // matmul on one of them. Errors: the failing cuBLASLt or driver call.
  static absl::StatusOr<std::unique_ptr<CublasLtMatmul>> Prepare(
      const std::vector<CublasLtGpu*>& gpus,
      const pjrtx::ptx::PlannedMatmul& matmul);
  ~CublasLtMatmul() override;
  CublasLtMatmul(const CublasLtMatmul&) = delete;
  CublasLtMatmul& operator=(const CublasLtMatmul&) = delete;

  // `gpu` indexes the GPUs it was prepared for. Arrays aligned to 256
  // bytes, as the memory pool's are, get the fastest algorithm; others
  // the best one for their element type, if cuBLASLt has one (UNIMPLEMENTED
  // otherwise).
  absl::Status Run(int gpu, CUstream stream, CUdeviceptr lhs, CUdeviceptr rhs,
                   CUdeviceptr result, CUdeviceptr scale) override;

 private:
  // One GPU's descriptors: cuBLASLt's A (the dot's rhs), B (its lhs) and
  // D (the result, also C, with beta 0).
  struct PerGpu {
    CublasLtGpu* gpu = nullptr;
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
    // The heuristic's first choice for arrays aligned to 256 bytes, and
    // one for any alignment of the element type (if there is one).
    cublasLtMatmulAlgo_t aligned = {};
    bool has_unaligned = false;
    cublasLtMatmulAlgo_t unaligned = {};
    // Guards the scale pointers set in `desc` (programs on one GPU may
    // run from more than one thread).
    std::mutex mu;
    CUdeviceptr scale = 0;
  };

  CublasLtMatmul(const CublasLtApi& blas,
                 const pjrtx::ptx::PlannedMatmul& matmul)
      : blas_(blas), matmul_(matmul) {}

  // Makes `g`'s descriptors and picks its algorithms; false when there is
  // no algorithm.
  absl::StatusOr<bool> PrepareOn(PerGpu& g);

  const CublasLtApi& blas_;
  const pjrtx::ptx::PlannedMatmul matmul_;
  std::vector<std::unique_ptr<PerGpu>> gpus_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_PROGRAMS_CUBLASLT_MATMUL_H_
