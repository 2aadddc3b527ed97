#include "runtime/cpu/vector_math.h"

#include <bit>
#include <cmath>
#include <cstdint>

#include "runtime/cpu/cpu_features.h"

namespace pjrtx::cpu {
namespace {

// e^y for y in [-700, 700], relative error below 1e-14. Branch-free and
// call-free so that loops over it vectorize: y = k ln2 + r with |r| <=
// ln2/2, e^r by its Taylor series to r^11 (the remainder is below 7e-15),
// 2^k assembled in the exponent bits.
__attribute__((always_inline)) inline double ExpCore(double y) {
  constexpr double kLog2e = 1.4426950408889634;
  // ln 2 split so that k * kLn2High is exact for |k| < 2^20.
  constexpr double kLn2High = 0x1.62e42fee00000p-1;
  constexpr double kLn2Low = 0x1.a39ef35793c76p-33;
  // Adding then subtracting 1.5 * 2^52 rounds to the nearest integer.
  constexpr double kShifter = 0x1.8p52;
  const double k = (y * kLog2e + kShifter) - kShifter;
  const double r = (y - k * kLn2High) - k * kLn2Low;
  double p = 1.0 / 39916800.0;  // 1/11!
  p = p * r + 1.0 / 3628800.0;
  p = p * r + 1.0 / 362880.0;
  p = p * r + 1.0 / 40320.0;
  p = p * r + 1.0 / 5040.0;
  p = p * r + 1.0 / 720.0;
  p = p * r + 1.0 / 120.0;
  p = p * r + 1.0 / 24.0;
  p = p * r + 1.0 / 6.0;
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // Through int32 (|k| < 200 here): AVX2 converts doubles only to int32.
  const int64_t exponent = static_cast<int64_t>(static_cast<int32_t>(k)) + 1023;
  return p * std::bit_cast<double>(exponent << 52);
}

// NaN inputs are mapped onto finite values by the clamps (every
// comparison with NaN is false), so no NaN reaches the integer conversion
// in ExpCore, and put back at the end. Selects on float results test the
// float input, on double values the double: masks of one width vectorize.
__attribute__((always_inline)) inline float Tanh(float x) {
  const double d = x;
  double a = std::fabs(d);
  // tanh(20) rounds to 1 in double; NaN becomes 20.
  a = a < 20.0 ? a : 20.0;
  const double e = ExpCore(2.0 * a);
  const double large = (e - 1.0) / (e + 1.0);
  // Near 0, e - 1 cancels; the series' next term is below 2e-13 relative.
  const double small = a - a * a * a * (1.0 / 3.0);
  const double t = std::copysign(a < 0x1p-10 ? small : large, d);
  const float result = static_cast<float>(t);
  return x != x ? x : result;
}

// e^y clamped to y in [-120, 120]: beyond, the float result is 0 or
// infinity either way. NaN becomes -120.
__attribute__((always_inline)) inline double ClampedExp(double y) {
  y = y > -120.0 ? y : -120.0;
  y = y < 120.0 ? y : 120.0;
  return ExpCore(y);
}

__attribute__((always_inline)) inline float Exp(float x) {
  const float result = static_cast<float>(ClampedExp(x));
  return x != x ? x : result;
}

__attribute__((always_inline)) inline float Logistic(float x) {
  const double d = x;
  const float result = static_cast<float>(1.0 / (1.0 + ClampedExp(-d)));
  return x != x ? x : result;
}

// The loop sits in each target's own function (the vectorizer works to the
// target of the function holding the loop); the scalar functions above
// inline into it.
template <float (*F)(float)>
__attribute__((target("avx512f,avx512dq"))) void ApplyAvx512(const float* in,
                                                             float* out,
                                                             int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = F(in[i]);
}
template <float (*F)(float)>
__attribute__((target("avx2,fma"))) void ApplyAvx2(const float* in, float* out,
                                                   int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = F(in[i]);
}
template <float (*F)(float)>
void ApplyBaseline(const float* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = F(in[i]);
}

// Explicit dispatch, as in fused_f32.cc: GCC's target_clones resolver runs
// before sanitizer runtimes start.
template <float (*F)(float)>
void Dispatch(const float* in, float* out, int64_t n) {
  static const CpuIsa isa = HostCpuFeatures().isa;
  if (isa == CpuIsa::kAvx512) {
    ApplyAvx512<F>(in, out, n);
  } else if (isa == CpuIsa::kAvx2) {
    ApplyAvx2<F>(in, out, n);
  } else {
    ApplyBaseline<F>(in, out, n);
  }
}

}  // namespace

void TanhF32(const float* in, float* out, int64_t n) {
  Dispatch<Tanh>(in, out, n);
}
void ExpF32(const float* in, float* out, int64_t n) {
  Dispatch<Exp>(in, out, n);
}
void LogisticF32(const float* in, float* out, int64_t n) {
  Dispatch<Logistic>(in, out, n);
}

}  // namespace pjrtx::cpu
