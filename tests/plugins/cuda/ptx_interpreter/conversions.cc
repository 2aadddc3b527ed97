// cvt between any two of the integer and float types.
#include <cmath>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tests/plugins/cuda/ptx_interpreter/compute_functions.h"
#include "tests/plugins/cuda/ptx_interpreter/float_values.h"

namespace fake_cuda::ptx {
namespace {

template <IntegerValue To, IntegerValue From>
To IntegerToInteger(From value, bool saturate) {
  if (!saturate) return static_cast<To>(value);  // Modulo 2^bits.
  const __int128 wide = value;
  const __int128 low = std::numeric_limits<To>::min();
  const __int128 high = std::numeric_limits<To>::max();
  return static_cast<To>(wide < low ? low : (wide > high ? high : wide));
}

// Rounds with the integer rounding `rounding`, saturates, and maps NaN to
// 0 (PTX's float-to-integer conversion).
template <IntegerValue To>
To FloatToInteger(double value, Rounding rounding) {
  if (std::isnan(value)) return To{0};
  const double integral = RoundToIntegral(value, rounding);
  constexpr int kBits = 8 * sizeof(To);
  const double upper =
      std::ldexp(1.0, std::is_signed_v<To> ? kBits - 1 : kBits);
  const double lower = std::is_signed_v<To> ? -upper : 0.0;
  if (integral <= lower) return std::numeric_limits<To>::min();
  if (integral >= upper) return std::numeric_limits<To>::max();
  return static_cast<To>(integral);
}

// `value` as a double rounded to nearest, and the sign of what that
// missed (only 64-bit values can be inexact).
template <IntegerValue From>
double IntegerToDouble(From value, int* residual) {
  const double x = static_cast<double>(value);
  *residual = 0;
  if constexpr (sizeof(From) == 8) {
    // 2^63 (2^64) is past the largest value and is where rounding up at
    // the top lands; below it the double converts back exactly.
    constexpr double kEnd = std::is_signed_v<From> ? 0x1p63 : 0x1p64;
    if (x >= kEnd) {
      *residual = -1;
    } else {
      const From back = static_cast<From>(x);
      *residual = value > back ? 1 : (value < back ? -1 : 0);
    }
  }
  return x;
}

template <FloatValue To, IntegerValue From>
To IntegerToFloat(From value, Rounding rounding) {
  if constexpr (std::same_as<To, float> && sizeof(From) <= 4) {
    // One host rounding, to nearest.
    if (rounding == Rounding::kNearestEven) return static_cast<float>(value);
  }
  int residual = 0;
  const double x = IntegerToDouble(value, &residual);
  return FromDouble<To>(x, residual, rounding);
}

template <FloatValue To, FloatValue From>
To FloatToFloat(From value, Rounding rounding) {
  if constexpr (std::same_as<To, From>) {
    return value;
  } else if constexpr (std::same_as<To, double>) {
    return ToDouble(value);  // Exact.
  } else if constexpr (!std::same_as<From, double>) {
    // Exact in float, so rounding from float rounds once.
    if (rounding == Rounding::kNearestEven) {
      return FromFloat<To>(static_cast<float>(ToDouble(value)));
    }
    return FromDouble<To>(ToDouble(value), 0, rounding);
  } else {
    return FromDouble<To>(value, 0, rounding);
  }
}

template <typename To, typename From>
void RunConvert(const Instruction& in, Slot* s) {
  From value = FromSlot<From>(s[in.a]);
  To result;
  if constexpr (IntegerValue<To> && IntegerValue<From>) {
    result = IntegerToInteger<To>(value, in.sat);
  } else if constexpr (IntegerValue<To>) {
    if (in.ftz) value = Flush(value);
    result = FloatToInteger<To>(ToDouble(value), in.rounding);
  } else {
    if constexpr (IntegerValue<From>) {
      result = IntegerToFloat<To>(value, in.rounding);
    } else {
      if (in.ftz) value = Flush(value);
      result = FloatToFloat<To>(value, in.rounding);
    }
    if (in.sat) result = Saturate(result);
    if (in.ftz) result = Flush(result);
  }
  s[in.d] = ToSlot(result);
}

template <typename T>
constexpr bool kConvertible = IntegerValue<T> || FloatValue<T>;

}  // namespace

ComputeFn ConvertOperation(Type to, Type from) {
  return VisitType<ComputeFn>(to, nullptr, [from](auto to_tag) -> ComputeFn {
    using To = typename decltype(to_tag)::type;
    return VisitType<ComputeFn>(from, nullptr, [](auto from_tag) -> ComputeFn {
      using From = typename decltype(from_tag)::type;
      if constexpr (kConvertible<To> && kConvertible<From>) {
        return &RunConvert<To, From>;
      } else {
        return nullptr;
      }
    });
  });
}

}  // namespace fake_cuda::ptx
