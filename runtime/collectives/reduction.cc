#include "runtime/collectives/reduction.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "runtime/core/base/element_type.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

template <typename T>
T Load(const uint8_t* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

template <typename T>
void Store(uint8_t* p, T value) {
  std::memcpy(p, &value, sizeof(T));
}

// Integer arithmetic in an unsigned type at least as wide as int, so that
// overflow wraps instead of being undefined (also after integer promotion
// of 8- and 16-bit operands).
template <typename T>
using WrapType = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                    std::make_unsigned_t<T>>;

template <typename T, ReduceOp kOp>
T Combine(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    if constexpr (kOp == ReduceOp::kSum) {
      return static_cast<T>(static_cast<WrapType<T>>(a) +
                            static_cast<WrapType<T>>(b));
    } else if constexpr (kOp == ReduceOp::kProduct) {
      return static_cast<T>(static_cast<WrapType<T>>(a) *
                            static_cast<WrapType<T>>(b));
    } else if constexpr (kOp == ReduceOp::kMin) {
      return b < a ? b : a;
    } else {
      return a < b ? b : a;
    }
  } else {
    if constexpr (kOp == ReduceOp::kSum) {
      return a + b;
    } else if constexpr (kOp == ReduceOp::kProduct) {
      return a * b;
    } else if constexpr (kOp == ReduceOp::kMin) {
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      return b < a ? b : a;
    } else {
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      return a < b ? b : a;
    }
  }
}

// One loop per operation and type, so that the compiler vectorizes the
// sums and products (a switch on the operation inside the loop kept a
// 16 MiB f32 all-reduce's accumulation scalar).
template <typename T, ReduceOp kOp>
void CombineWith(uint8_t* out, const uint8_t* a, const uint8_t* b,
                 size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const size_t at = i * sizeof(T);
    Store<T>(out + at, Combine<T, kOp>(Load<T>(a + at), Load<T>(b + at)));
  }
}

template <float (*kToFloat)(uint16_t), uint16_t (*kFromFloat)(float),
          ReduceOp kOp>
void CombineWidenedWith(uint8_t* out, const uint8_t* a, const uint8_t* b,
                        size_t count) {
  for (size_t i = 0; i < count; ++i) {
    const size_t at = i * 2;
    const float combined = Combine<float, kOp>(
        kToFloat(Load<uint16_t>(a + at)), kToFloat(Load<uint16_t>(b + at)));
    Store<uint16_t>(out + at, kFromFloat(combined));
  }
}

template <typename T>
void CombineAs(ReduceOp op, uint8_t* out, const uint8_t* a, const uint8_t* b,
               size_t count) {
  switch (op) {
    case ReduceOp::kSum:
      return CombineWith<T, ReduceOp::kSum>(out, a, b, count);
    case ReduceOp::kProduct:
      return CombineWith<T, ReduceOp::kProduct>(out, a, b, count);
    case ReduceOp::kMin:
      return CombineWith<T, ReduceOp::kMin>(out, a, b, count);
    case ReduceOp::kMax:
      return CombineWith<T, ReduceOp::kMax>(out, a, b, count);
  }
}

template <float (*kToFloat)(uint16_t), uint16_t (*kFromFloat)(float)>
void CombineWidened(ReduceOp op, uint8_t* out, const uint8_t* a,
                    const uint8_t* b, size_t count) {
  switch (op) {
    case ReduceOp::kSum:
      return CombineWidenedWith<kToFloat, kFromFloat, ReduceOp::kSum>(out, a, b,
                                                                      count);
    case ReduceOp::kProduct:
      return CombineWidenedWith<kToFloat, kFromFloat, ReduceOp::kProduct>(
          out, a, b, count);
    case ReduceOp::kMin:
      return CombineWidenedWith<kToFloat, kFromFloat, ReduceOp::kMin>(out, a, b,
                                                                      count);
    case ReduceOp::kMax:
      return CombineWidenedWith<kToFloat, kFromFloat, ReduceOp::kMax>(out, a, b,
                                                                      count);
  }
}

}  // namespace

absl::string_view ReduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::kSum:
      return "sum";
    case ReduceOp::kProduct:
      return "product";
    case ReduceOp::kMin:
      return "min";
    case ReduceOp::kMax:
      return "max";
  }
  return "unknown";
}

ReduceOp ReduceOpOf(PJRTX_ReduceOp op) {
  switch (op) {
    case PJRTX_ReduceOp_PRODUCT:
      return ReduceOp::kProduct;
    case PJRTX_ReduceOp_MIN:
      return ReduceOp::kMin;
    case PJRTX_ReduceOp_MAX:
      return ReduceOp::kMax;
    default:
      return ReduceOp::kSum;
  }
}

absl::StatusOr<size_t> ReducibleElementSize(PJRTX_Buffer_Type type) {
  switch (type) {
    case PJRTX_Buffer_Type_S8:
    case PJRTX_Buffer_Type_S16:
    case PJRTX_Buffer_Type_S32:
    case PJRTX_Buffer_Type_S64:
    case PJRTX_Buffer_Type_U8:
    case PJRTX_Buffer_Type_U16:
    case PJRTX_Buffer_Type_U32:
    case PJRTX_Buffer_Type_U64:
    case PJRTX_Buffer_Type_F16:
    case PJRTX_Buffer_Type_BF16:
    case PJRTX_Buffer_Type_F32:
    case PJRTX_Buffer_Type_F64:
      return SupportedElementSize(type);
    default:
      return absl::UnimplementedError(absl::StrCat(
          "collective reduction of element type ", ElementTypeName(type),
          " is not supported; expected one of S8, S16, S32, S64, U8, U16, "
          "U32, U64, F16, BF16, F32, F64"));
  }
}

absl::StatusOr<ReductionLayout> ReductionLayoutOf(PJRTX_Buffer_Type type,
                                                  ReduceOp op) {
  if (type == PJRTX_Buffer_Type_C64 || type == PJRTX_Buffer_Type_C128) {
    if (op != ReduceOp::kSum) {
      return absl::UnimplementedError(
          absl::StrCat("collective ", ReduceOpName(op), " of element type ",
                       ElementTypeName(type),
                       " is not supported; complex values reduce by sum only"));
    }
    const bool single = type == PJRTX_Buffer_Type_C64;
    return ReductionLayout{
        single ? PJRTX_Buffer_Type_F32 : PJRTX_Buffer_Type_F64, 2,
        single ? size_t{8} : size_t{16}};
  }
  PJRTX_ASSIGN_OR_RETURN(size_t size, ReducibleElementSize(type));
  return ReductionLayout{type, 1, size};
}

absl::Status Reduce(ReduceOp op, PJRTX_Buffer_Type type, void* out,
                    const void* a, const void* b, size_t count) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, ReducibleElementSize(type));
  if (count == 0) return absl::OkStatus();
  if (out == nullptr || a == nullptr || b == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("reduction of ", count,
                     " elements was given a null buffer; expected three "
                     "buffers of ",
                     count * element_size, " bytes"));
  }
  auto* o = static_cast<uint8_t*>(out);
  auto* x = static_cast<const uint8_t*>(a);
  auto* y = static_cast<const uint8_t*>(b);
  switch (type) {
    case PJRTX_Buffer_Type_S8:
      CombineAs<int8_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_S16:
      CombineAs<int16_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_S32:
      CombineAs<int32_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_S64:
      CombineAs<int64_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_U8:
      CombineAs<uint8_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_U16:
      CombineAs<uint16_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_U32:
      CombineAs<uint32_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_U64:
      CombineAs<uint64_t>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_F32:
      CombineAs<float>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_F64:
      CombineAs<double>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_F16:
      CombineWidened<HalfToFloat, FloatToHalf>(op, o, x, y, count);
      break;
    case PJRTX_Buffer_Type_BF16:
      CombineWidened<BFloat16ToFloat, FloatToBFloat16>(op, o, x, y, count);
      break;
    default:
      break;  // Rejected by ReducibleElementSize above.
  }
  return absl::OkStatus();
}

absl::Status Accumulate(ReduceOp op, PJRTX_Buffer_Type type, void* inout,
                        const void* in, size_t count) {
  return Reduce(op, type, inout, inout, in, count);
}

float HalfToFloat(uint16_t half) {
  const uint32_t sign = uint32_t{half & 0x8000u} << 16;
  const uint32_t exponent = (half >> 10) & 0x1f;
  const uint32_t mantissa = half & 0x3ff;
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  if (exponent == 0x1f) {
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  }
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) |
                              (mantissa << 13));
}

uint16_t FloatToHalf(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000);
  uint32_t magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) {
    // Infinity stays infinity; NaN stays a (quiet) NaN.
    if (magnitude == 0x7f800000) return sign | 0x7c00;
    return sign | 0x7e00 | static_cast<uint16_t>((magnitude >> 13) & 0x3ff);
  }
  // 65520 and above round (to even) past the largest half, 65504.
  if (magnitude >= 0x477ff000) return sign | 0x7c00;
  if (magnitude < 0x38800000) {
    // Below 2^-14 the result is subnormal: its mantissa is value * 2^24,
    // rounded to nearest even (the default floating-point rounding).
    float scaled = std::bit_cast<float>(magnitude) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(scaled));
  }
  // Round to nearest even on the 13 dropped bits; a carry correctly bumps
  // the exponent. Then rebias the exponent from 127 to 15.
  magnitude += 0xfff + ((magnitude >> 13) & 1);
  magnitude -= uint32_t{127 - 15} << 23;
  return sign | static_cast<uint16_t>(magnitude >> 13);
}

float BFloat16ToFloat(uint16_t bfloat16) {
  return std::bit_cast<float>(uint32_t{bfloat16} << 16);
}

uint16_t FloatToBFloat16(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  if ((bits & 0x7fffffff) > 0x7f800000) {
    return static_cast<uint16_t>((bits >> 16) | 0x40);  // Quiet the NaN.
  }
  bits += 0x7fff + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}

}  // namespace pjrtx::collectives
