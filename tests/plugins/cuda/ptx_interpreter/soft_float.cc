#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace fake_cuda::ptx {
namespace {

// `value` (with the remainder `residual` says) rounded to a binary format
// of kExponentBits and kMantissaBits, as raw bits. Works on the magnitude
// scaled so that the format's last bit weighs 1: the integer part is the
// truncated result, the fraction (exact, as the scaled value is below
// 2^25) and the residual say where the exact value lies.
template <int kExponentBits, int kMantissaBits>
uint64_t RoundToFormat(double value, int residual, Rounding rounding) {
  constexpr int kBias = (1 << (kExponentBits - 1)) - 1;
  constexpr uint64_t kExponentMax = (uint64_t{1} << kExponentBits) - 1;
  constexpr uint64_t kInfinity = kExponentMax << kMantissaBits;
  constexpr uint64_t kImplicitBit = uint64_t{1} << kMantissaBits;
  const bool negative = std::signbit(value);
  const uint64_t sign =
      negative ? uint64_t{1} << (kExponentBits + kMantissaBits) : 0;
  if (std::isnan(value)) {
    // Quiet, with the top payload bits, as float-to-half conversions do.
    const uint64_t payload =
        (std::bit_cast<uint64_t>(value) >> (52 - kMantissaBits)) &
        (kImplicitBit - 1);
    return sign | kInfinity | (kImplicitBit >> 1) | payload;
  }
  if (std::isinf(value)) return sign | kInfinity;
  if (value == 0) {
    if (residual == 0) return sign;
    // A nonzero exact value below every double: any tiny value of its
    // sign rounds the same.
    value = residual > 0 ? std::numeric_limits<double>::denorm_min()
                         : -std::numeric_limits<double>::denorm_min();
    return RoundToFormat<kExponentBits, kMantissaBits>(value, 0, rounding);
  }
  const double magnitude = std::fabs(value);
  // The residual as seen from the magnitude.
  const int below = negative ? -residual : residual;
  int frexp_exponent = 0;
  const double mantissa = std::frexp(magnitude, &frexp_exponent);
  // 2^exponent <= exact magnitude < 2^(exponent + 1); an exact value just
  // under a power of two belongs to the binade below it.
  int exponent = frexp_exponent - 1;
  if (mantissa == 0.5 && below < 0) --exponent;
  int quantum = std::max(exponent, 1 - kBias) - kMantissaBits;
  const double scaled = std::ldexp(magnitude, -quantum);
  const double whole = std::floor(scaled);
  const double fraction = scaled - whole;
  uint64_t n = static_cast<uint64_t>(whole);
  const bool inexact = fraction != 0 || below != 0;
  // Where the exact value lies against n + 1/2: -1 below, 0 on, 1 above.
  int against_half;
  if (fraction == 0 && below < 0) {
    --n;  // Just under the integer: n - 1 plus nearly 1.
    against_half = 1;
  } else if (fraction == 0.5) {
    against_half = below;
  } else {
    against_half = fraction > 0.5 ? 1 : -1;
  }
  bool up = false;
  switch (rounding) {
    case Rounding::kNearestEven:
      up = against_half > 0 || (against_half == 0 && (n & 1) != 0);
      break;
    case Rounding::kTowardZero:
      break;
    case Rounding::kDown:
      up = inexact && negative;
      break;
    case Rounding::kUp:
      up = inexact && !negative;
      break;
  }
  if (up) ++n;
  if (n < kImplicitBit) return sign | n;  // Subnormal or zero.
  if (n == 2 * kImplicitBit) {
    n = kImplicitBit;
    ++quantum;
  }
  const int biased = quantum + kMantissaBits + kBias;
  if (biased >= static_cast<int>(kExponentMax)) {
    const bool to_infinity = rounding == Rounding::kNearestEven ||
                             (rounding == Rounding::kUp && !negative) ||
                             (rounding == Rounding::kDown && negative);
    return sign | (to_infinity ? kInfinity : kInfinity - 1);
  }
  return sign | (static_cast<uint64_t>(biased) << kMantissaBits) |
         (n - kImplicitBit);
}

}  // namespace

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
  const uint32_t exponent = (bits >> 10) & 0x1F;
  const uint32_t mantissa = bits & 0x3FF;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) * 0x1p-24f;
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1F) {
    return std::bit_cast<float>(sign | 0x7F800000 | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) |
                              (mantissa << 13));
}

float BFloat16ToFloat(uint16_t bits) {
  return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16);
}

uint16_t FloatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = (bits >> 16) & 0x8000;
  const uint32_t magnitude = bits & 0x7FFFFFFF;
  if (magnitude > 0x7F800000) {
    return static_cast<uint16_t>(sign | 0x7E00 | ((magnitude >> 13) & 0x3FF));
  }
  // 65520 and up (the midpoint between the largest half, 65504, and 2^16)
  // round to infinity.
  if (magnitude >= 0x477FF000) return static_cast<uint16_t>(sign | 0x7C00);
  if (magnitude >= 0x38800000) {
    // Normal: rebias the exponent and round the 13 dropped bits to nearest
    // even; a carry moves into the exponent, as it should.
    return static_cast<uint16_t>(
        sign |
        ((magnitude - 0x38000000 + 0xFFF + ((magnitude >> 13) & 1)) >> 13));
  }
  // At most 2^-25 (half the smallest subnormal, a tie to even zero).
  if (magnitude <= 0x33000000) return static_cast<uint16_t>(sign);
  // Subnormal: the significand in units of 2^-24.
  const int shift = 126 - static_cast<int>(magnitude >> 23);
  const uint32_t significand = (magnitude & 0x7FFFFF) | 0x800000;
  uint32_t n = significand >> shift;
  const uint32_t remainder = significand & ((1u << shift) - 1);
  const uint32_t half = 1u << (shift - 1);
  if (remainder > half || (remainder == half && (n & 1) != 0)) ++n;
  return static_cast<uint16_t>(sign | n);
}

uint16_t FloatToBFloat16(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7FFFFFFF) > 0x7F800000) {
    return static_cast<uint16_t>((bits >> 16) | 0x40);
  }
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

uint16_t RoundToHalf(double value, int residual, Rounding rounding) {
  return static_cast<uint16_t>(RoundToFormat<5, 10>(value, residual, rounding));
}

uint16_t RoundToBFloat16(double value, int residual, Rounding rounding) {
  return static_cast<uint16_t>(RoundToFormat<8, 7>(value, residual, rounding));
}

float RoundToFloat(double value, int residual, Rounding rounding) {
  if (residual == 0 && rounding == Rounding::kNearestEven) {
    return static_cast<float>(value);
  }
  return std::bit_cast<float>(
      static_cast<uint32_t>(RoundToFormat<8, 23>(value, residual, rounding)));
}

double RoundToDouble(double value, int residual, Rounding rounding) {
  if (residual == 0 || std::isnan(value)) return value;
  constexpr double kInfinity = HUGE_VAL;
  switch (rounding) {
    case Rounding::kNearestEven:
      return value;
    case Rounding::kTowardZero:
      if ((value > 0 && residual < 0) || (value < 0 && residual > 0)) {
        return std::nextafter(value, 0.0);
      }
      return value;
    case Rounding::kDown:
      return residual < 0 ? std::nextafter(value, -kInfinity) : value;
    case Rounding::kUp:
      return residual > 0 ? std::nextafter(value, kInfinity) : value;
  }
  return value;
}

double RoundToIntegral(double value, Rounding rounding) {
  if (!std::isfinite(value)) return value;
  switch (rounding) {
    case Rounding::kNearestEven: {
      const double truncated = std::trunc(value);
      const double fraction = std::fabs(value - truncated);
      const bool odd = std::fmod(truncated, 2.0) != 0;
      if (fraction > 0.5 || (fraction == 0.5 && odd)) {
        return truncated + std::copysign(1.0, value);
      }
      return truncated;
    }
    case Rounding::kTowardZero:
      return std::trunc(value);
    case Rounding::kDown:
      return std::floor(value);
    case Rounding::kUp:
      return std::ceil(value);
  }
  return value;
}

int SumResidual(double a, double b, double sum) {
  if (!std::isfinite(sum)) return 0;
  const double b_part = sum - a;
  const double error = (a - (sum - b_part)) + (b - b_part);
  return error > 0 ? 1 : (error < 0 ? -1 : 0);
}

}  // namespace fake_cuda::ptx
