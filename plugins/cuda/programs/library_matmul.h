// What a program needs of the matrix library that runs its plain matmuls
// (compiler_stub/ptx/plain_matmul.h) instead of PTX kernels.
#ifndef PJRTX_PLUGINS_CUDA_PROGRAMS_LIBRARY_MATMUL_H_
#define PJRTX_PLUGINS_CUDA_PROGRAMS_LIBRARY_MATMUL_H_

#include <cuda.h>

#include <functional>
#include <memory>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "compiler_stub/ptx/plain_matmul.h"

namespace cuda_plugin {

// One plain matmul of a program, prepared by a library for every GPU the
// program runs on.
class LibraryMatmul {
 public:
  virtual ~LibraryMatmul() = default;
  // Issues result = lhs · rhs (FP8 operands scaled by the f32 at `scale`)
  // on `stream` of GPU `gpu`, an index into the program's GPUs, whose
  // context is current.
  virtual absl::Status Run(int gpu, CUstream stream, CUdeviceptr lhs,
                           CUdeviceptr rhs, CUdeviceptr result,
                           CUdeviceptr scale) = 0;
};

// Prepares a plain matmul for a program's GPUs; nullptr when the library
// has no way to run it there.
using PrepareLibraryMatmul =
    std::function<absl::StatusOr<std::unique_ptr<LibraryMatmul>>(
        const pjrtx::ptx::PlannedMatmul&)>;

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_PROGRAMS_LIBRARY_MATMUL_H_
