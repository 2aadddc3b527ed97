// Special functions the C library lacks, in double.
#ifndef PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_
#define PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_

namespace pjrtx::cpu {

// The inverse of erf on (-1, 1), +-infinity at +-1, NaN beyond and for NaN:
// a polynomial fit (compiler_stub/ir/erf_inv_fit.h) and one Halley step
// on erf(x) = |y|, its residual from erfc where |y| >= 1/2 (1 - |y| is
// exact there). Within 3 units in the last place of the exact value.
double ErfInv(double y);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_
