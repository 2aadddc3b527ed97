// Compile-time descriptions of the element types, for the typed loops of
// the CPU kernels: how an element is stored, which C++ type computations
// use, and how to convert between the two. Internal to runtime/cpu.
#ifndef PJRTX_RUNTIME_CPU_ELEMENT_TRAITS_H_
#define PJRTX_RUNTIME_CPU_ELEMENT_TRAITS_H_

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "compiler_stub/ir/element_type.h"
#include "compiler_stub/ir/float_formats.h"

namespace pjrtx::cpu {

// The narrow float formats live with the compiler, which needs them for
// constants; the kernels use them unqualified.
using ir::BFloat16ToFloat;
using ir::DoubleToBFloat16;
using ir::DoubleToFloat8E4M3FN;
using ir::DoubleToFloat8E5M2;
using ir::DoubleToHalf;
using ir::Float8E4M3FNToFloat;
using ir::Float8E5M2ToFloat;
using ir::FloatToBFloat16;
using ir::FloatToFloat8E4M3FN;
using ir::FloatToFloat8E5M2;
using ir::FloatToHalf;
using ir::HalfToFloat;

// `bits` low bits of `value`, sign-extended (1 <= bits <= 64).
constexpr int64_t SignExtend(uint64_t value, int bits) {
  const int unused = 64 - bits;
  return static_cast<int64_t>(value << unused) >> unused;
}

// All-ones mask of the low `bits` bits (1 <= bits <= 64).
constexpr uint64_t LowBitsMask(int bits) {
  return bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
}

// The bits of an element's storage, zero-extended to 64 bits.
template <typename Storage>
uint64_t RawBits(Storage s) {
  if constexpr (std::is_same_v<Storage, float>) {
    return std::bit_cast<uint32_t>(s);
  } else if constexpr (std::is_same_v<Storage, double>) {
    return std::bit_cast<uint64_t>(s);
  } else {
    return static_cast<std::make_unsigned_t<Storage>>(s);
  }
}

// Integer types. `Value` is the smallest C type holding the range; the 2-
// and 4-bit types wrap to their width when stored, so that every stored
// value is in range as the Literal layout requires.
template <typename T, int kBitsArg>
struct IntTraits {
  using Storage = T;
  using Value = T;
  static constexpr int kBits = kBitsArg;
  static constexpr bool kSigned = std::is_signed_v<T>;
  static Value Load(Storage s) { return s; }
  static Storage Store(Value v) {
    if constexpr (kBits == 8 * sizeof(T)) {
      return v;
    } else if constexpr (kSigned) {
      return static_cast<T>(SignExtend(static_cast<uint64_t>(v), kBits));
    } else {
      return static_cast<T>(v & LowBitsMask(kBits));
    }
  }
};

struct PredTraits {
  using Storage = uint8_t;
  using Value = bool;
  static constexpr int kBits = 1;
  static Value Load(Storage s) { return s != 0; }
  static Storage Store(Value v) { return v ? 1 : 0; }
};

// Floating-point types. Narrow formats compute in float (exact for every
// value they hold); `FromDouble` rounds a double result once, straight to
// the format, for functions evaluated in double.
template <typename S, typename V, V (*kLoad)(S), S (*kFromFloat)(V),
          S (*kFromDouble)(double)>
struct NarrowFloatTraits {
  using Storage = S;
  using Value = V;
  static constexpr int kBits = 8 * sizeof(S);
  static Value Load(Storage s) { return kLoad(s); }
  static Storage Store(Value v) { return kFromFloat(v); }
  static Storage FromDouble(double v) { return kFromDouble(v); }
};

template <typename T>
struct NativeFloatTraits {
  using Storage = T;
  using Value = T;
  static constexpr int kBits = 8 * sizeof(T);
  static Value Load(Storage s) { return s; }
  static Storage Store(Value v) { return v; }
  static Storage FromDouble(double v) { return static_cast<T>(v); }
};

template <ir::ElementType kType>
struct ElementTraits;

#define PJRTX_ELEMENT_TRAITS(type, ...) \
  template <>                           \
  struct ElementTraits<ir::ElementType::type> : __VA_ARGS__ {}

PJRTX_ELEMENT_TRAITS(kPred, PredTraits);
PJRTX_ELEMENT_TRAITS(kS2, IntTraits<int8_t, 2>);
PJRTX_ELEMENT_TRAITS(kS4, IntTraits<int8_t, 4>);
PJRTX_ELEMENT_TRAITS(kS8, IntTraits<int8_t, 8>);
PJRTX_ELEMENT_TRAITS(kS16, IntTraits<int16_t, 16>);
PJRTX_ELEMENT_TRAITS(kS32, IntTraits<int32_t, 32>);
PJRTX_ELEMENT_TRAITS(kS64, IntTraits<int64_t, 64>);
PJRTX_ELEMENT_TRAITS(kU2, IntTraits<uint8_t, 2>);
PJRTX_ELEMENT_TRAITS(kU4, IntTraits<uint8_t, 4>);
PJRTX_ELEMENT_TRAITS(kU8, IntTraits<uint8_t, 8>);
PJRTX_ELEMENT_TRAITS(kU16, IntTraits<uint16_t, 16>);
PJRTX_ELEMENT_TRAITS(kU32, IntTraits<uint32_t, 32>);
PJRTX_ELEMENT_TRAITS(kU64, IntTraits<uint64_t, 64>);
PJRTX_ELEMENT_TRAITS(
    kF16,
    NarrowFloatTraits<uint16_t, float, HalfToFloat, FloatToHalf, DoubleToHalf>);
PJRTX_ELEMENT_TRAITS(kBF16,
                     NarrowFloatTraits<uint16_t, float, BFloat16ToFloat,
                                       FloatToBFloat16, DoubleToBFloat16>);
PJRTX_ELEMENT_TRAITS(kF32, NativeFloatTraits<float>);
PJRTX_ELEMENT_TRAITS(kF64, NativeFloatTraits<double>);
PJRTX_ELEMENT_TRAITS(
    kF8E4M3FN, NarrowFloatTraits<uint8_t, float, Float8E4M3FNToFloat,
                                 FloatToFloat8E4M3FN, DoubleToFloat8E4M3FN>);
PJRTX_ELEMENT_TRAITS(kF8E5M2,
                     NarrowFloatTraits<uint8_t, float, Float8E5M2ToFloat,
                                       FloatToFloat8E5M2, DoubleToFloat8E5M2>);

#undef PJRTX_ELEMENT_TRAITS

template <typename Traits>
inline constexpr bool kIsFloatTraits =
    std::is_floating_point_v<typename Traits::Value>;
template <typename Traits>
inline constexpr bool kIsPredTraits =
    std::is_same_v<typename Traits::Value, bool>;
template <typename Traits>
inline constexpr bool kIsIntTraits =
    !kIsFloatTraits<Traits> && !kIsPredTraits<Traits>;

// Calls `fn(ElementTraits<type>{})` for the runtime `type`.
template <typename Fn>
decltype(auto) DispatchElementType(ir::ElementType type, Fn&& fn) {
  using ir::ElementType;
  switch (type) {
    case ElementType::kPred:
      return fn(ElementTraits<ElementType::kPred>{});
    case ElementType::kS2:
      return fn(ElementTraits<ElementType::kS2>{});
    case ElementType::kS4:
      return fn(ElementTraits<ElementType::kS4>{});
    case ElementType::kS8:
      return fn(ElementTraits<ElementType::kS8>{});
    case ElementType::kS16:
      return fn(ElementTraits<ElementType::kS16>{});
    case ElementType::kS32:
      return fn(ElementTraits<ElementType::kS32>{});
    case ElementType::kS64:
      return fn(ElementTraits<ElementType::kS64>{});
    case ElementType::kU2:
      return fn(ElementTraits<ElementType::kU2>{});
    case ElementType::kU4:
      return fn(ElementTraits<ElementType::kU4>{});
    case ElementType::kU8:
      return fn(ElementTraits<ElementType::kU8>{});
    case ElementType::kU16:
      return fn(ElementTraits<ElementType::kU16>{});
    case ElementType::kU32:
      return fn(ElementTraits<ElementType::kU32>{});
    case ElementType::kU64:
      return fn(ElementTraits<ElementType::kU64>{});
    case ElementType::kF16:
      return fn(ElementTraits<ElementType::kF16>{});
    case ElementType::kBF16:
      return fn(ElementTraits<ElementType::kBF16>{});
    case ElementType::kF32:
      return fn(ElementTraits<ElementType::kF32>{});
    case ElementType::kF64:
      return fn(ElementTraits<ElementType::kF64>{});
    case ElementType::kF8E4M3FN:
      return fn(ElementTraits<ElementType::kF8E4M3FN>{});
    case ElementType::kF8E5M2:
      return fn(ElementTraits<ElementType::kF8E5M2>{});
  }
  // Unreachable for valid enum values; keeps every enumerator handled
  // above while defending against corrupted values.
  return fn(ElementTraits<ElementType::kPred>{});
}

// StableHLO maximum and minimum on floats: a NaN operand wins, and -0.0
// orders below +0.0 (unlike std::fmax/fmin, which drop NaNs).
template <typename Float>
Float Maximum(Float a, Float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename Float>
Float Minimum(Float a, Float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

// Float to integer conversion: truncates toward zero, saturates at the
// range of a `bits`-wide integer type, and maps NaN to 0.
template <typename Float>
int64_t FloatToSignedSaturating(Float value, int bits) {
  if (std::isnan(value)) return 0;
  // Powers of two are exact in every float type, so the bounds compare
  // exactly even where INT64_MAX itself is not representable.
  const Float limit = std::ldexp(Float{1}, bits - 1);
  if (value >= limit) return static_cast<int64_t>(LowBitsMask(bits - 1));
  if (value <= -limit) return -static_cast<int64_t>(LowBitsMask(bits - 1)) - 1;
  return static_cast<int64_t>(value);
}
template <typename Float>
uint64_t FloatToUnsignedSaturating(Float value, int bits) {
  if (std::isnan(value) || value <= Float{0}) return 0;
  if (value >= std::ldexp(Float{1}, bits)) return LowBitsMask(bits);
  return static_cast<uint64_t>(value);
}

// An integer as a double rounded to odd: exact below 2^53, otherwise with
// the discarded bits folded into the lowest kept bit. A second rounding to
// any format of at most 51 significand bits is then correctly rounded, as
// if done once from the integer.
inline double UnsignedToDoubleRoundToOdd(uint64_t value) {
  if (value < (uint64_t{1} << 53)) return static_cast<double>(value);
  const int shift = std::bit_width(value) - 53;
  uint64_t kept = value >> shift;
  if (value & LowBitsMask(shift)) kept |= 1;
  return std::ldexp(static_cast<double>(kept), shift);
}
inline double SignedToDoubleRoundToOdd(int64_t value) {
  // The magnitude of INT64_MIN is 2^63, exact in uint64_t.
  const uint64_t magnitude = value < 0
                                 ? uint64_t{0} - static_cast<uint64_t>(value)
                                 : static_cast<uint64_t>(value);
  const double result = UnsignedToDoubleRoundToOdd(magnitude);
  return value < 0 ? -result : result;
}

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_ELEMENT_TRAITS_H_
