// Complex tensors as pairs of real ones, before lowering.
//
// Every complex<f32> or complex<f64> value of a function is replaced by two
// values of its real element type (real and imaginary part) and every op on
// complex values by ops on the parts: the structural ops (reshape,
// transpose, slice, ...) and add/subtract/negate run once per part, the
// others as the formulas of complex arithmetic (multiply, divide, exp, log,
// sqrt, the trigonometric ops, fft as products with DFT matrices, ...).
// Neither the IR nor the plugins see a complex type: both run the result as
// any real program.
#ifndef PJRTX_COMPILER_STUB_IR_COMPLEX_EXPANSION_H_
#define PJRTX_COMPILER_STUB_IR_COMPLEX_EXPANSION_H_

#include "absl/status/status.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// Whether any type of `module` is complex (then ExpandComplex has work).
bool MentionsComplex(const mlir::Module& module);

// Rewrites every function of `module` in place. UNIMPLEMENTED "L:C: ..."
// naming the op for complex values where this expansion has no rule: as
// function arguments or results (a buffer of interleaved parts), as region
// arguments, and for ops without a formula here (e.g. atan2,
// triangular_solve, bitcast_convert of complex values).
absl::Status ExpandComplex(mlir::Module& module);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_COMPLEX_EXPANSION_H_
