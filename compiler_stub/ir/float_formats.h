// The narrow floating-point formats StableHLO uses, to and from float.
// All conversions to a narrow format round to nearest even.
#ifndef PJRTX_COMPILER_STUB_IR_FLOAT_FORMATS_H_
#define PJRTX_COMPILER_STUB_IR_FLOAT_FORMATS_H_

#include <cstdint>

namespace pjrtx::ir {

// IEEE 754 binary16.
float HalfToFloat(uint16_t bits);
uint16_t FloatToHalf(float value);
// Double rounded once (not through float, which could round twice).
uint16_t DoubleToHalf(double value);

// bfloat16: the top 16 bits of a binary32.
float BFloat16ToFloat(uint16_t bits);
uint16_t FloatToBFloat16(float value);
uint16_t DoubleToBFloat16(double value);

// float8 E4M3FN: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no
// infinities, NaN is S.1111.111; finite max 448. Values beyond the range
// become NaN (as ml_dtypes and the StableHLO interpreter do).
float Float8E4M3FNToFloat(uint8_t bits);
uint8_t FloatToFloat8E4M3FN(float value);
uint8_t DoubleToFloat8E4M3FN(double value);

// float8 E5M2: 1 sign, 5 exponent (bias 15), 2 mantissa bits; IEEE-like
// with infinities and NaNs; finite max 57344.
float Float8E5M2ToFloat(uint8_t bits);
uint8_t FloatToFloat8E5M2(float value);
uint8_t DoubleToFloat8E5M2(double value);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_FLOAT_FORMATS_H_
