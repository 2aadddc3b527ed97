// Helpers over the four PTX float types (Half, BFloat16, float, double)
// for the compute functions: exact widening, rounding back, and the
// bit-level classes and modifiers (.ftz, .sat) PTX defines on them.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_FLOAT_VALUES_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_FLOAT_VALUES_H_

#include <concepts>
#include <cstdint>

#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"
#include "tests/plugins/cuda/ptx_interpreter/types.h"

namespace fake_cuda::ptx {

template <FloatValue T>
struct FloatBits;
template <>
struct FloatBits<Half> {
  static constexpr int kExponent = 5, kMantissa = 10;
};
template <>
struct FloatBits<BFloat16> {
  static constexpr int kExponent = 8, kMantissa = 7;
};
template <>
struct FloatBits<float> {
  static constexpr int kExponent = 8, kMantissa = 23;
};
template <>
struct FloatBits<double> {
  static constexpr int kExponent = 11, kMantissa = 52;
};

template <FloatValue T>
inline constexpr Slot kSignBit =
    Slot{1} << (FloatBits<T>::kExponent + FloatBits<T>::kMantissa);
template <FloatValue T>
inline constexpr Slot kInfinityBits = ((Slot{1} << FloatBits<T>::kExponent) - 1)
                                      << FloatBits<T>::kMantissa;

// Exact.
template <FloatValue T>
inline double ToDouble(T value) {
  if constexpr (std::same_as<T, Half>) {
    return HalfToFloat(value.bits);
  } else if constexpr (std::same_as<T, BFloat16>) {
    return BFloat16ToFloat(value.bits);
  } else {
    return value;
  }
}

// The type to compute a value of T in without losing anything: float for
// the 16-bit formats (exact), T itself otherwise.
template <FloatValue T>
inline auto Native(T value) {
  if constexpr (HalfValue<T>) {
    return static_cast<float>(ToDouble(value));
  } else {
    return value;
  }
}

// Rounded to nearest even from float (T other than double).
template <FloatValue T>
inline T FromFloat(float value) {
  if constexpr (std::same_as<T, Half>) {
    return Half{FloatToHalf(value)};
  } else if constexpr (std::same_as<T, BFloat16>) {
    return BFloat16{FloatToBFloat16(value)};
  } else {
    return static_cast<T>(value);
  }
}

// See RoundToHalf and friends in soft_float.h.
template <FloatValue T>
inline T FromDouble(double value, int residual, Rounding rounding) {
  if constexpr (std::same_as<T, Half>) {
    return Half{RoundToHalf(value, residual, rounding)};
  } else if constexpr (std::same_as<T, BFloat16>) {
    return BFloat16{RoundToBFloat16(value, residual, rounding)};
  } else if constexpr (std::same_as<T, float>) {
    return RoundToFloat(value, residual, rounding);
  } else {
    return RoundToDouble(value, residual, rounding);
  }
}

template <FloatValue T>
inline bool IsNan(T value) {
  return (ToSlot(value) & ~kSignBit<T>) > kInfinityBits<T>;
}

template <FloatValue T>
inline bool IsSubnormal(T value) {
  const Slot bits = ToSlot(value);
  return (bits & kInfinityBits<T>) == 0 && (bits & ~kSignBit<T>) != 0;
}

// .ftz: a subnormal becomes zero of the same sign.
template <FloatValue T>
inline T Flush(T value) {
  return IsSubnormal(value) ? FromSlot<T>(ToSlot(value) & kSignBit<T>) : value;
}

// .sat: clamped to [0, 1], NaN to +0.
template <FloatValue T>
inline T Saturate(T value) {
  const double x = ToDouble(value);
  if (IsNan(value) || x < 0) return FromSlot<T>(0);
  if (x > 1) return FromDouble<T>(1.0, 0, Rounding::kNearestEven);
  return value;
}

// The NaN PTX operations return when they make one up (min/max of two
// NaNs): all payload bits set.
template <FloatValue T>
inline T CanonicalNan() {
  return FromSlot<T>(kSignBit<T> - 1);
}

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_FLOAT_VALUES_H_
