// stablehlo.convert, stablehlo.bitcast_convert and
// stablehlo.reduce_precision.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"

namespace pjrtx::cpu {
namespace {

template <typename From, typename To>
typename To::Storage ConvertElement(typename From::Storage stored) {
  using FromValue = typename From::Value;
  using ToValue = typename To::Value;
  const FromValue value = From::Load(stored);
  if constexpr (kIsPredTraits<To>) {
    return To::Store(value != 0);  // NaN is nonzero: true.
  } else if constexpr (kIsPredTraits<From>) {
    return To::Store(static_cast<ToValue>(value ? 1 : 0));
  } else if constexpr (kIsIntTraits<From> && kIsIntTraits<To>) {
    // The cast wraps modulo the C type, Store to the 2/4-bit width.
    return To::Store(static_cast<ToValue>(value));
  } else if constexpr (kIsIntTraits<From>) {
    if constexpr (sizeof(ToValue) == sizeof(typename To::Storage)) {
      // float and double: the hardware conversion rounds once.
      return To::Store(static_cast<ToValue>(value));
    } else if constexpr (std::is_signed_v<FromValue>) {
      return To::FromDouble(SignedToDoubleRoundToOdd(value));
    } else {
      return To::FromDouble(UnsignedToDoubleRoundToOdd(value));
    }
  } else if constexpr (kIsIntTraits<To>) {
    if constexpr (std::is_signed_v<ToValue>) {
      return To::Store(
          static_cast<ToValue>(FloatToSignedSaturating(value, To::kBits)));
    } else {
      return To::Store(
          static_cast<ToValue>(FloatToUnsignedSaturating(value, To::kBits)));
    }
  } else if constexpr (std::is_same_v<FromValue, double>) {
    return To::FromDouble(value);  // One rounding, also to narrow formats.
  } else {
    // From holds a float (exact for every narrow format); To rounds once.
    return To::Store(static_cast<ToValue>(value));
  }
}

// The type's bits of element `i`, zero-extended.
template <typename Traits>
uint64_t ReadBits(const Literal& literal, int64_t i) {
  return RawBits(literal.as<typename Traits::Storage>()[i]) &
         LowBitsMask(Traits::kBits);
}

// Stores `bits` (the type's width) as element `i`, in the Literal layout
// (signed 2- and 4-bit values sign-extended).
template <typename Traits>
void WriteBits(Literal& literal, int64_t i, uint64_t bits) {
  using Storage = typename Traits::Storage;
  Storage& element = literal.as<Storage>()[i];
  if constexpr (std::is_same_v<Storage, float>) {
    element = std::bit_cast<float>(static_cast<uint32_t>(bits));
  } else if constexpr (std::is_same_v<Storage, double>) {
    element = std::bit_cast<double>(bits);
  } else if constexpr (std::is_signed_v<Storage>) {
    element = static_cast<Storage>(SignExtend(bits, Traits::kBits));
  } else {
    element = static_cast<Storage>(bits);
  }
}

// The reference interpreter's reduce_precision on the bits of an IEEE-like
// format with `kExponentBits` and `kMantissaBits`: rounds the mantissa to
// nearest even, then flushes values outside the reduced exponent range to
// signed infinity or zero (subnormals of the reduced format included).
template <int kExponentBits, int kMantissaBits>
uint64_t ReducePrecisionBits(uint64_t bits, int exponent_bits,
                             int mantissa_bits) {
  constexpr int kWidth = 1 + kExponentBits + kMantissaBits;
  constexpr uint64_t kSignMask = uint64_t{1} << (kWidth - 1);
  constexpr uint64_t kExponentMask = LowBitsMask(kExponentBits)
                                     << kMantissaBits;
  const bool is_nan = (bits & kExponentMask) == kExponentMask &&
                      (bits & LowBitsMask(kMantissaBits));
  uint64_t x = bits;
  if (mantissa_bits < kMantissaBits) {
    const int dropped = kMantissaBits - mantissa_bits;
    const uint64_t last_kept_bit = uint64_t{1} << dropped;
    // Adding just under half an ulp, plus one if the last kept bit is odd,
    // rounds to nearest with ties to even.
    const uint64_t bias = (last_kept_bit >> 1) - 1 + ((x >> dropped) & 1);
    x = (x + bias) & ~(last_kept_bit - 1) & LowBitsMask(kWidth);
  }
  if (exponent_bits < kExponentBits) {
    const uint64_t bias = LowBitsMask(kExponentBits - 1);
    const uint64_t reduced_bias = LowBitsMask(exponent_bits - 1);
    const uint64_t exponent = x & kExponentMask;
    if (exponent > (bias + reduced_bias) << kMantissaBits) {
      x = (x & kSignMask) | kExponentMask;
    } else if (exponent <= (bias - reduced_bias) << kMantissaBits) {
      x &= kSignMask;
    }
  }
  if (is_nan) {
    // Without mantissa bits a NaN cannot stay a NaN: it becomes +inf.
    return mantissa_bits > 0 ? bits : kExponentMask;
  }
  return x;
}

template <typename Traits, int kExponentBits, int kMantissaBits>
void ReducePrecisionLoop(const Literal& operand, Literal& out,
                         int exponent_bits, int mantissa_bits) {
  const int64_t n = operand.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    WriteBits<Traits>(
        out, i,
        ReducePrecisionBits<kExponentBits, kMantissaBits>(
            ReadBits<Traits>(operand, i), exponent_bits, mantissa_bits));
  }
}

}  // namespace

Literal Convert(const Literal& operand, ElementType to) {
  Literal out(Shape{to, operand.dims()});
  const int64_t n = operand.num_elements();
  DispatchElementType(operand.type(), [&](auto from_traits) {
    using From = decltype(from_traits);
    const auto* in = operand.as<typename From::Storage>();
    DispatchElementType(to, [&](auto to_traits) {
      using To = decltype(to_traits);
      auto* result = out.as<typename To::Storage>();
      for (int64_t i = 0; i < n; ++i) {
        result[i] = ConvertElement<From, To>(in[i]);
      }
    });
  });
  return out;
}

absl::StatusOr<Literal> BitcastConvert(const Literal& operand,
                                       const Shape& result) {
  const int in_bits = ir::BitWidth(operand.type());
  const int out_bits = ir::BitWidth(result.type);
  if (operand.num_elements() * in_bits != result.num_elements() * out_bits ||
      (in_bits > out_bits ? in_bits % out_bits : out_bits % in_bits) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("stablehlo.bitcast_convert cannot convert ",
                     operand.shape().ToString(), " to ", result.ToString()));
  }
  // Every element as its bits; elements of different widths split or join
  // little-endian: the first narrow element is the low bits of the wide
  // one, as in the reference interpreter.
  std::vector<uint64_t> bits(operand.num_elements());
  DispatchElementType(operand.type(), [&](auto traits) {
    for (size_t i = 0; i < bits.size(); ++i) {
      bits[i] = ReadBits<decltype(traits)>(operand, i);
    }
  });
  if (in_bits > out_bits) {
    const int ratio = in_bits / out_bits;
    std::vector<uint64_t> split(bits.size() * ratio);
    for (size_t i = 0; i < split.size(); ++i) {
      split[i] =
          (bits[i / ratio] >> ((i % ratio) * out_bits)) & LowBitsMask(out_bits);
    }
    bits = std::move(split);
  } else if (in_bits < out_bits) {
    const int ratio = out_bits / in_bits;
    std::vector<uint64_t> joined(bits.size() / ratio);
    for (size_t i = 0; i < bits.size(); ++i) {
      joined[i / ratio] |= bits[i] << ((i % ratio) * in_bits);
    }
    bits = std::move(joined);
  }
  Literal out(result);
  DispatchElementType(result.type, [&](auto traits) {
    for (size_t i = 0; i < bits.size(); ++i) {
      WriteBits<decltype(traits)>(out, i, bits[i]);
    }
  });
  return out;
}

Literal ReducePrecision(const Literal& operand, int exponent_bits,
                        int mantissa_bits) {
  // Verification guarantees these; clamping keeps the shifts defined.
  exponent_bits = std::max(exponent_bits, 1);
  mantissa_bits = std::max(mantissa_bits, 0);
  Literal out(operand.shape());
  switch (operand.type()) {
    case ElementType::kF16:
      ReducePrecisionLoop<ElementTraits<ElementType::kF16>, 5, 10>(
          operand, out, exponent_bits, mantissa_bits);
      break;
    case ElementType::kBF16:
      ReducePrecisionLoop<ElementTraits<ElementType::kBF16>, 8, 7>(
          operand, out, exponent_bits, mantissa_bits);
      break;
    case ElementType::kF32:
      ReducePrecisionLoop<ElementTraits<ElementType::kF32>, 8, 23>(
          operand, out, exponent_bits, mantissa_bits);
      break;
    case ElementType::kF64:
      ReducePrecisionLoop<ElementTraits<ElementType::kF64>, 11, 52>(
          operand, out, exponent_bits, mantissa_bits);
      break;
    case ElementType::kF8E5M2:
      ReducePrecisionLoop<ElementTraits<ElementType::kF8E5M2>, 5, 2>(
          operand, out, exponent_bits, mantissa_bits);
      break;
    case ElementType::kF8E4M3FN: {
      // No infinities to flush to: reduce in float, where out-of-range
      // results become infinities, and let the conversion back turn them
      // into NaN as it does for any value beyond the format's range.
      const auto* in = operand.as<uint8_t>();
      auto* result = out.as<uint8_t>();
      for (int64_t i = 0; i < operand.num_elements(); ++i) {
        const uint64_t reduced = ReducePrecisionBits<8, 23>(
            std::bit_cast<uint32_t>(Float8E4M3FNToFloat(in[i])), exponent_bits,
            mantissa_bits);
        result[i] = FloatToFloat8E4M3FN(
            std::bit_cast<float>(static_cast<uint32_t>(reduced)));
      }
      break;
    }
    default:
      // Not a float type: nothing to reduce (verification rejects it).
      return operand;
  }
  return out;
}

}  // namespace pjrtx::cpu
