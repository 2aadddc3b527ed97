#include "compiler_stub/ir/float_formats.h"

#include <bit>
#include <cmath>
#include <cstdint>

namespace pjrtx::ir {
namespace {

// A narrow binary floating-point format. IEEE-like formats reserve the
// all-ones exponent for infinities and NaNs; "FN" formats (E4M3FN) have no
// infinities and only the all-ones pattern S.1111.111 is NaN.
template <int kExponentBitsArg, int kMantissaBitsArg, bool kHasInfinityArg>
struct Format {
  static constexpr int kExponentBits = kExponentBitsArg;
  static constexpr int kMantissaBits = kMantissaBitsArg;
  static constexpr bool kHasInfinity = kHasInfinityArg;
  static constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  static constexpr uint32_t kMantissaMask = (1u << kMantissaBits) - 1;
  static constexpr uint32_t kExponentMax = (1u << kExponentBits) - 1;
  static constexpr uint32_t kSignBit = 1u << (kExponentBits + kMantissaBits);
  // Magnitude bits of infinity, or of the NaN when there is no infinity.
  static constexpr uint32_t kInfOrNan =
      kHasInfinity ? kExponentMax << kMantissaBits
                   : (kExponentMax << kMantissaBits) | kMantissaMask;
  static constexpr uint32_t kMaxFinite = kInfOrNan - 1;
  static constexpr uint32_t kQuietBit = 1u << (kMantissaBits - 1);
};

using Half = Format<5, 10, true>;
using BFloat16 = Format<8, 7, true>;
using E4M3FN = Format<4, 3, false>;
using E5M2 = Format<5, 2, true>;

// `value >> shift` rounded to nearest, ties to even. `value` < 2^53.
uint64_t ShiftRightRoundEven(uint64_t value, int shift) {
  if (shift <= 0) return value;
  // Everything below 2^53 is less than half of 2^55: rounds to zero.
  if (shift > 54) return 0;
  const uint64_t quotient = value >> shift;
  const uint64_t remainder = value & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  if (remainder > half || (remainder == half && (quotient & 1))) {
    return quotient + 1;
  }
  return quotient;
}

// Rounds a double once, directly to the format (rounding through float
// first could round twice and be off by one ulp). Like ml_dtypes without
// saturation, out-of-range values become infinity, or NaN in a format
// without infinities.
template <typename F>
uint32_t Encode(double value) {
  const uint64_t bits = std::bit_cast<uint64_t>(value);
  const uint32_t sign = (bits >> 63) ? F::kSignBit : 0;
  const int exponent = static_cast<int>((bits >> 52) & 0x7FF);
  const uint64_t mantissa = bits & ((uint64_t{1} << 52) - 1);
  if (exponent == 0x7FF) {
    if (mantissa == 0 || !F::kHasInfinity) return sign | F::kInfOrNan;
    // Keeps the top payload bits, quieted so that it stays a NaN.
    return sign | F::kInfOrNan | F::kQuietBit |
           static_cast<uint32_t>(mantissa >> (52 - F::kMantissaBits));
  }
  // The significand as an integer (implicit bit included) and the biased
  // exponent it would have in the target format.
  const uint64_t significand =
      exponent == 0 ? mantissa : mantissa | (uint64_t{1} << 52);
  const int target_exponent = (exponent == 0 ? 1 : exponent) - 1023 + F::kBias;
  uint64_t magnitude;
  if (target_exponent >= 1) {
    // Normal in the target. A carry out of the rounded significand moves
    // into the exponent field, which is the right result (up to overflow).
    const uint64_t rounded =
        ShiftRightRoundEven(significand, 52 - F::kMantissaBits);
    magnitude =
        (static_cast<uint64_t>(target_exponent - 1) << F::kMantissaBits) +
        rounded;
  } else {
    // Subnormal in the target; rounding up to 1 << kMantissaBits gives the
    // smallest normal, again the right encoding.
    magnitude = ShiftRightRoundEven(
        significand, 52 - F::kMantissaBits + 1 - target_exponent);
  }
  if (magnitude > F::kMaxFinite) magnitude = F::kInfOrNan;
  return sign | static_cast<uint32_t>(magnitude);
}

template <typename F>
float Decode(uint32_t bits) {
  const uint32_t sign = (bits & F::kSignBit) ? 0x80000000u : 0;
  const uint32_t exponent = (bits >> F::kMantissaBits) & F::kExponentMax;
  const uint32_t mantissa = bits & F::kMantissaMask;
  if (!F::kHasInfinity && (bits & ~F::kSignBit) == F::kInfOrNan) {
    return std::bit_cast<float>(sign | 0x7FC00000u);
  }
  if (exponent == 0) {
    // Subnormal: mantissa * 2^(1 - bias - mantissa_bits), exact in float.
    const float value = std::ldexp(static_cast<float>(mantissa),
                                   1 - F::kBias - F::kMantissaBits);
    return sign ? -value : value;
  }
  // Infinities and NaNs map to float's all-ones exponent; float's quiet bit
  // lines up with the format's top mantissa bit, so NaN payloads carry over.
  const uint32_t float_exponent = F::kHasInfinity && exponent == F::kExponentMax
                                      ? 0xFFu
                                      : exponent - F::kBias + 127;
  return std::bit_cast<float>(sign | (float_exponent << 23) |
                              (mantissa << (23 - F::kMantissaBits)));
}

}  // namespace

float HalfToFloat(uint16_t bits) { return Decode<Half>(bits); }
uint16_t FloatToHalf(float value) { return DoubleToHalf(value); }
uint16_t DoubleToHalf(double value) {
  return static_cast<uint16_t>(Encode<Half>(value));
}

float BFloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}
uint16_t FloatToBFloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if (std::isnan(value)) {
    // Truncation could clear every payload bit left; keep it a quiet NaN.
    return static_cast<uint16_t>((bits >> 16) | 0x0040);
  }
  // Rounds to nearest even in the integer domain; a carry into the
  // exponent yields the next binade or infinity, as it should.
  const uint32_t rounding_bias = 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>((bits + rounding_bias) >> 16);
}
uint16_t DoubleToBFloat16(double value) {
  return static_cast<uint16_t>(Encode<BFloat16>(value));
}

float Float8E4M3FNToFloat(uint8_t bits) { return Decode<E4M3FN>(bits); }
uint8_t FloatToFloat8E4M3FN(float value) { return DoubleToFloat8E4M3FN(value); }
uint8_t DoubleToFloat8E4M3FN(double value) {
  return static_cast<uint8_t>(Encode<E4M3FN>(value));
}

float Float8E5M2ToFloat(uint8_t bits) { return Decode<E5M2>(bits); }
uint8_t FloatToFloat8E5M2(float value) { return DoubleToFloat8E5M2(value); }
uint8_t DoubleToFloat8E5M2(double value) {
  return static_cast<uint8_t>(Encode<E5M2>(value));
}

}  // namespace pjrtx::ir
