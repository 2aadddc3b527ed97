// Rounding for the PTX interpreter: exactly computed values (a double and
// the sign of what it misses) rounded to f16, bf16, f32 or f64 in any of
// PTX's rounding modes, without touching the host's floating-point
// environment.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_SOFT_FLOAT_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_SOFT_FLOAT_H_

#include <cstdint>

namespace fake_cuda::ptx {

// The rounding modifiers: .rn/.rni, .rz/.rzi, .rm/.rmi, .rp/.rpi.
enum class Rounding : uint8_t { kNearestEven, kTowardZero, kDown, kUp };

// The raw bits of the 16-bit float formats, as .b16 registers hold them.
struct Half {
  uint16_t bits = 0;
};
struct BFloat16 {
  uint16_t bits = 0;
};

// Exact widenings.
float HalfToFloat(uint16_t bits);
float BFloat16ToFloat(uint16_t bits);

// Round to nearest even from float (the common case, kept fast). NaNs keep
// their sign and top payload bits and are made quiet.
uint16_t FloatToHalf(float value);
uint16_t FloatToBFloat16(float value);

// `value` rounded to the format with `rounding`, where the exact value is
// `value` plus a remainder far below value's last bit whose sign is
// `residual` (-1, 0 or 1): what an exactly computed double and the sign of
// its rounding error describe. Overflow gives infinity or the largest
// finite value, as the rounding direction says.
uint16_t RoundToHalf(double value, int residual, Rounding rounding);
uint16_t RoundToBFloat16(double value, int residual, Rounding rounding);
float RoundToFloat(double value, int residual, Rounding rounding);
// For double results: `value` is the exact value rounded to nearest even
// and `residual` the sign of (exact - value). An overflow to infinity of a
// finite exact value passes residual = -sign(value).
double RoundToDouble(double value, int residual, Rounding rounding);

// `value` rounded to an integral value (cvt.rni/.rzi/.rmi/.rpi); NaN and
// infinities unchanged, the sign of zero kept.
double RoundToIntegral(double value, Rounding rounding);

// The sign of (a + b) - (a + b rounded), exactly (TwoSum); 0 when the sum
// is not finite.
int SumResidual(double a, double b, double sum);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_SOFT_FLOAT_H_
