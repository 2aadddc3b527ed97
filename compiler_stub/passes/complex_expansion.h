// Complex tensors as pairs of real ones, before lowering.
//
// Every complex<f32> or complex<f64> value of a function is replaced by two
// values of its real element type (real and imaginary part) and every op on
// complex values by ops on the parts: the structural ops (reshape,
// transpose, slice, ...) and add/subtract/negate run once per part, the
// others as the formulas of complex arithmetic (multiply, divide, exp, log,
// sqrt, the trigonometric ops, fft as products with DFT matrices, ...),
// and ops with regions (while, if, case, reduce, sort, scatter) carry the
// parts.
// Neither the IR nor the plugins see a complex type: both run the result as
// any real program, and complex buffers cross into and out of it as their
// interleaved parts.
#ifndef PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANSION_H_
#define PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANSION_H_

#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// Whether any type of `module` is complex (then ExpandComplex has work).
bool MentionsComplex(const mlir::Module& module);

// Which arguments and results of a function were complex tensors. They
// cross the function's boundary (its arguments, func.return, func.call)
// interleaved: complex<f32>[dims] as f32[dims, 2], real part first, which
// is the memory layout of a complex buffer, so that an entry function's
// complex arguments and results are C64 / C128 buffers as they are.
struct ComplexSignature {
  std::vector<bool> arguments;
  std::vector<bool> results;
};
using ComplexSignatures = std::map<std::string, ComplexSignature>;

// Rewrites every function of `module` in place and, when `signatures` is
// given, records each function's ComplexSignature by name.
// UNIMPLEMENTED "L:C: ..." naming the op for complex values where this
// expansion has no rule (e.g. triangular_solve and remainder of complex
// values, and map).
absl::Status ExpandComplex(mlir::Module& module,
                           ComplexSignatures* signatures = nullptr);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_COMPLEX_EXPANSION_H_
