// Special functions the C library lacks, in double.
#ifndef PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_
#define PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_

namespace pjrtx::cpu {

// The inverse of erf on (-1, 1), +-infinity at +-1, NaN beyond and for NaN:
// a polynomial fit (compiler_stub/ir/special_function_constants.h) and one
// Halley step on erf(x) = |y|, its residual from erfc where |y| >= 1/2 (1 - |y|
// is exact there). Within 3 units in the last place of the exact value.
double ErfInv(double y);

// log|Gamma(x)|: the C library's (its reentrant form: the plain one sets
// a global).
double LogGamma(double x);

// The digamma function Gamma'(x) / Gamma(x): recurrence up to 10 or more,
// then its asymptotic series; reflection below 1/2; NaN at the poles (0
// and the negative integers). Near its zero at 1.4616 the recurrence
// cancels: the error there is a few 1e-16 absolute, not relative.
double Digamma(double x);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_SPECIAL_FUNCTIONS_H_
