// Folding a transpose of a matmul's result into the matmul.
#ifndef PJRTX_COMPILER_STUB_PASSES_DOT_TRANSPOSE_FOLDING_H_
#define PJRTX_COMPILER_STUB_PASSES_DOT_TRANSPOSE_FOLDING_H_

#include "compiler_stub/ir/program.h"

namespace pjrtx::ir {

// transpose(dot_general(a, b)) that swaps the result's two free dimensions
// (one of a, one of b, after any batch dimensions) is dot_general(b, a):
// the same products and sums, written in the transposed order. JAX's
// gradients of matmuls take this form (dW = transpose(dot(g, x))); folded,
// the transpose's pass over memory goes away. Applies where the dot's
// result is read only by the transpose.
void FoldTransposesIntoDots(Program& program);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_DOT_TRANSPOSE_FOLDING_H_
