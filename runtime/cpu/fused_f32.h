// Register-resident evaluation of f32 fused elementwise bodies.
#ifndef PJRTX_RUNTIME_CPU_FUSED_F32_H_
#define PJRTX_RUNTIME_CPU_FUSED_F32_H_

#include <cstdint>

#include "compiler_stub/ir/program.h"

namespace pjrtx::cpu {

// Where the vectors of one f32 fused evaluation live. `inputs[i]` points at
// `n` elements, or at one element read at every position when
// `input_is_scalar[i]`; `outputs[o]` has room for `n` elements. Elements are
// f32, or pred (one byte, 0 or 1) where `input_is_mask[i]` /
// `output_is_mask[o]` say so (nullptr: none is).
struct F32FusedArrays {
  const void* const* inputs = nullptr;
  const bool* input_is_scalar = nullptr;
  void* const* outputs = nullptr;
  int64_t n = 0;
  const bool* input_is_mask = nullptr;
  const bool* output_is_mask = nullptr;
};

// Evaluates `body` when every step is f32 arithmetic the fast path knows
// (add, subtract, multiply, divide, maximum, minimum, negate, abs, sqrt),
// a compare of two f32 values (not TOTALORDER) or a select on such a
// compare's result or on a pred input (ReLU's backward pass:
// select(x > 0, g, 0), the mask computed or saved by the forward pass),
// every output is f32 or such a compare's pred, and the body fits its fixed
// register budget; returns false, having written nothing, otherwise.
//
// Why this is fast: the body becomes a short accumulator program, run
// sixteen vectors at a time (256 elements on AVX-512, 128 on AVX2, 64 on
// SSE). A chain of steps, each consuming the one before
// (the common shape: scale, bias, clip), passes its value in an
// L1-resident accumulator rather than through memory, so per element the
// pass costs little more than a copy does. Values read later than the next step
// spill to an L1-resident slot. Large outputs are written with non-temporal
// stores. Allocates nothing.
bool RunFusedF32(const ir::FusedBody& body, const F32FusedArrays& arrays);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_FUSED_F32_H_
