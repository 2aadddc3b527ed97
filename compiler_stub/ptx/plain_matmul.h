// Which dot_general instructions are plain matrix multiplications that a
// matrix library (such as the CUDA plugin's cuBLASLt) can run instead of
// the PTX kernel, one thread per output element, which is correct for
// every dot but slow for large ones.
#ifndef PJRTX_COMPILER_STUB_PTX_PLAIN_MATMUL_H_
#define PJRTX_COMPILER_STUB_PTX_PLAIN_MATMUL_H_

#include <cstddef>
#include <cstdint>
#include <optional>

#include "compiler_stub/ir/program.h"

namespace pjrtx::ptx {

// A dot_general over row-major operands of the shapes
//   lhs [batch..., m, k] · rhs [batch..., k, n] -> result [batch..., m, n]
// or, with `rhs_transposed`, rhs [batch..., n, k] (the usual layout of
// weights, and the only one FP8 matmuls take on Hopper); the batch
// dimensions are flattened into `batch`.
struct PlannedMatmul {
  ir::ElementType lhs_type = ir::ElementType::kF32;
  ir::ElementType rhs_type = ir::ElementType::kF32;
  ir::ElementType result_type = ir::ElementType::kF32;
  int64_t batch = 1;
  int64_t m = 0, n = 0, k = 0;
  bool rhs_transposed = false;
  // Values of the block: the operands and the result; for FP8 operands
  // also the f32 scalar both are scaled by (StableHLO's dot_general carries
  // no scales, so the planner makes it a constant 1.0), else -1.
  int lhs = -1, rhs = -1, result = -1, scale = -1;
  size_t result_bytes = 0;
};

// `dot` (a kDotGeneral) as a plain matmul, or nullopt when it is not one:
// batching dimensions other than the leading ones in order, more or fewer
// than one contracting dimension, a missing m or n dimension, an empty
// dimension, or element types other than f32 x f32 -> f32, bf16 x bf16 ->
// bf16 or f32, and (only for GPUs of compute capability `sm` 90 or more,
// the first with FP8 tensor cores) f8E4M3FN x f8E4M3FN -> f32 or bf16.
// Sums are in f32 for each of them.
std::optional<PlannedMatmul> AsPlainMatmul(const ir::Instruction& dot, int sm);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_PLAIN_MATMUL_H_
