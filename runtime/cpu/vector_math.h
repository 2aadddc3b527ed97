// f32 transcendental functions over arrays, fast: each is evaluated in
// double with a branch-free exponential the compiler vectorizes (AVX-512,
// AVX2 or SSE2, picked at run time), then rounded once to float. Results
// equal the correctly rounded value except, very rarely, by one ulp where
// the exact value lies within 1e-14 (relative) of a rounding boundary; the
// reference interpreter's libm results are held to the same tolerance.
#ifndef PJRTX_RUNTIME_CPU_VECTOR_MATH_H_
#define PJRTX_RUNTIME_CPU_VECTOR_MATH_H_

#include <cstdint>

namespace pjrtx::cpu {

// out[i] = f(in[i]) for i < n; `out` may be `in`. NaN stays NaN, infinities
// and signed zeros follow the functions' limits.
void TanhF32(const float* in, float* out, int64_t n);
void ExpF32(const float* in, float* out, int64_t n);
void LogisticF32(const float* in, float* out, int64_t n);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_VECTOR_MATH_H_
