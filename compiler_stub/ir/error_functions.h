// The error function family as elementwise instructions, for the chlo ops
// erf, erfc and erf_inv. Everything is computed in f64 (the caller
// converts), by methods whose error stays within a few units in the last
// place of f64 over the whole range:
//   erf(x) for |x| < 1: its Taylor series (19 terms);
//   erfc(x) for |x| >= 1: its continued fraction, 200 levels deep, times
//     exp(-x^2) with x^2 split exactly in two (so the exponential's
//     argument carries no rounding error);
//   erf and erfc elsewhere from each other (1 - the other), where that
//     loses nothing that matters, and by symmetry for negative x;
//   erf_inv(y): a polynomial fit (scripts/erf_inv_fit.py) as the start,
//     then one Halley step on erf(x) = |y| (its residual from erfc when
//     |y| >= 1/2, where 1 - |y| is exact).
// Each builds every branch and selects, as elementwise code must.
#ifndef PJRTX_COMPILER_STUB_IR_ERROR_FUNCTIONS_H_
#define PJRTX_COMPILER_STUB_IR_ERROR_FUNCTIONS_H_

#include "compiler_stub/ir/instruction_builder.h"

namespace pjrtx::ir {

// `x` is f64; so are the results.
InstructionBuilder::Value BuildErf(InstructionBuilder& b,
                                   InstructionBuilder::Value x);
InstructionBuilder::Value BuildErfc(InstructionBuilder& b,
                                    InstructionBuilder::Value x);
InstructionBuilder::Value BuildErfInv(InstructionBuilder& b,
                                      InstructionBuilder::Value y);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_ERROR_FUNCTIONS_H_
