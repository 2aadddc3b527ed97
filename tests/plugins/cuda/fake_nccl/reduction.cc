#include "tests/plugins/cuda/fake_nccl/reduction.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace fake_nccl {
namespace {

uint32_t Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return bits;
}

float FromBits(uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof(value));
  return value;
}

template <typename T>
T Combine(ncclRedOp_t op, T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    switch (op) {
      case ncclSum:
        return a + b;
      case ncclProd:
        return a * b;
      case ncclMin:
        return std::isnan(a) || std::isnan(b)
                   ? std::numeric_limits<T>::quiet_NaN()
                   : std::min(a, b);
      default:
        return std::isnan(a) || std::isnan(b)
                   ? std::numeric_limits<T>::quiet_NaN()
                   : std::max(a, b);
    }
  } else {
    // Sums and products wrap, in unsigned arithmetic (signed overflow is
    // undefined).
    using U = std::make_unsigned_t<T>;
    switch (op) {
      case ncclSum:
        return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case ncclProd:
        return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case ncclMin:
        return std::min(a, b);
      default:
        return std::max(a, b);
    }
  }
}

template <typename T>
void ReduceNative(ncclRedOp_t op, void* inout, const void* in, size_t count) {
  auto* out_bytes = static_cast<uint8_t*>(inout);
  const auto* in_bytes = static_cast<const uint8_t*>(in);
  for (size_t i = 0; i < count; ++i) {
    T a, b;
    std::memcpy(&a, out_bytes + i * sizeof(T), sizeof(T));
    std::memcpy(&b, in_bytes + i * sizeof(T), sizeof(T));
    const T c = Combine(op, a, b);
    std::memcpy(out_bytes + i * sizeof(T), &c, sizeof(T));
  }
}

// A narrow float type reduced in float.
template <typename Bits, float (*kDecode)(Bits), Bits (*kEncode)(float)>
void ReduceNarrow(ncclRedOp_t op, void* inout, const void* in, size_t count) {
  auto* out_bytes = static_cast<uint8_t*>(inout);
  const auto* in_bytes = static_cast<const uint8_t*>(in);
  for (size_t i = 0; i < count; ++i) {
    Bits a, b;
    std::memcpy(&a, out_bytes + i * sizeof(Bits), sizeof(Bits));
    std::memcpy(&b, in_bytes + i * sizeof(Bits), sizeof(Bits));
    const Bits c = kEncode(Combine(op, kDecode(a), kDecode(b)));
    std::memcpy(out_bytes + i * sizeof(Bits), &c, sizeof(Bits));
  }
}

float E4m3ToFloat(uint8_t bits) { return Fp8ToFloat(bits, /*e4m3=*/true); }
uint8_t FloatToE4m3(float value) { return FloatToFp8(value, /*e4m3=*/true); }
float E5m2ToFloat(uint8_t bits) { return Fp8ToFloat(bits, /*e4m3=*/false); }
uint8_t FloatToE5m2(float value) { return FloatToFp8(value, /*e4m3=*/false); }

}  // namespace

size_t TypeSize(ncclDataType_t type) {
  switch (type) {
    case ncclInt8:
    case ncclUint8:
    case ncclFloat8e4m3:
    case ncclFloat8e5m2:
      return 1;
    case ncclFloat16:
    case ncclBfloat16:
      return 2;
    case ncclInt32:
    case ncclUint32:
    case ncclFloat32:
      return 4;
    case ncclInt64:
    case ncclUint64:
    case ncclFloat64:
      return 8;
    default:
      return 0;
  }
}

bool KnownOp(ncclRedOp_t op) {
  return op == ncclSum || op == ncclProd || op == ncclMin || op == ncclMax;
}

void Reduce(ncclDataType_t type, ncclRedOp_t op, void* inout, const void* in,
            size_t count) {
  switch (type) {
    case ncclInt8:
      return ReduceNative<int8_t>(op, inout, in, count);
    case ncclUint8:
      return ReduceNative<uint8_t>(op, inout, in, count);
    case ncclInt32:
      return ReduceNative<int32_t>(op, inout, in, count);
    case ncclUint32:
      return ReduceNative<uint32_t>(op, inout, in, count);
    case ncclInt64:
      return ReduceNative<int64_t>(op, inout, in, count);
    case ncclUint64:
      return ReduceNative<uint64_t>(op, inout, in, count);
    case ncclFloat32:
      return ReduceNative<float>(op, inout, in, count);
    case ncclFloat64:
      return ReduceNative<double>(op, inout, in, count);
    case ncclFloat16:
      return ReduceNarrow<uint16_t, HalfToFloat, FloatToHalf>(op, inout, in,
                                                              count);
    case ncclBfloat16:
      return ReduceNarrow<uint16_t, Bfloat16ToFloat, FloatToBfloat16>(
          op, inout, in, count);
    case ncclFloat8e4m3:
      return ReduceNarrow<uint8_t, E4m3ToFloat, FloatToE4m3>(op, inout, in,
                                                             count);
    case ncclFloat8e5m2:
      return ReduceNarrow<uint8_t, E5m2ToFloat, FloatToE5m2>(op, inout, in,
                                                             count);
    default:
      return;
  }
}

float HalfToFloat(uint16_t bits) {
  const uint32_t sign = uint32_t{bits & 0x8000u} << 16;
  const uint32_t exponent = (bits >> 10) & 0x1f;
  const uint32_t mantissa = bits & 0x3ff;
  if (exponent == 0x1f) return FromBits(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24.
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign != 0 ? -magnitude : magnitude;
  }
  return FromBits(sign | ((exponent - 15 + 127) << 23) | (mantissa << 13));
}

uint16_t FloatToHalf(float value) {
  const uint32_t bits = Bits(value);
  const auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  const uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;  // NaN.
  // 65520 (65504 plus half an ulp) and above round to infinity.
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Below 2^-14: a subnormal half, in units of 2^-24 (exact scaling),
    // rounded to nearest even by the default rounding mode.
    const float units = FromBits(magnitude) * 16777216.0f;
    return sign | static_cast<uint16_t>(std::nearbyint(units));
  }
  uint32_t half =
      (((magnitude >> 23) - 127 + 15) << 10) | ((magnitude & 0x7fffffu) >> 13);
  const uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u) != 0)) ++half;
  return sign | static_cast<uint16_t>(half);
}

float Bfloat16ToFloat(uint16_t bits) { return FromBits(uint32_t{bits} << 16); }

uint16_t FloatToBfloat16(float value) {
  const uint32_t bits = Bits(value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) {
    return static_cast<uint16_t>((bits >> 16) | 0x40u);  // Quiet NaN.
  }
  const uint32_t rounding = 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>((bits + rounding) >> 16);
}

float Fp8ToFloat(uint8_t bits, bool e4m3) {
  const bool negative = (bits & 0x80u) != 0;
  float magnitude;
  if (e4m3) {
    const int exponent = (bits >> 3) & 0xf;
    const int mantissa = bits & 0x7;
    if (exponent == 0xf && mantissa == 0x7) {
      return std::numeric_limits<float>::quiet_NaN();
    }
    magnitude = exponent == 0
                    ? std::ldexp(static_cast<float>(mantissa), -9)
                    : std::ldexp(1.0f + mantissa / 8.0f, exponent - 7);
  } else {
    const int exponent = (bits >> 2) & 0x1f;
    const int mantissa = bits & 0x3;
    if (exponent == 0x1f) {
      if (mantissa != 0) return std::numeric_limits<float>::quiet_NaN();
      magnitude = std::numeric_limits<float>::infinity();
    } else {
      magnitude = exponent == 0
                      ? std::ldexp(static_cast<float>(mantissa), -16)
                      : std::ldexp(1.0f + mantissa / 4.0f, exponent - 15);
    }
  }
  return negative ? -magnitude : magnitude;
}

uint8_t FloatToFp8(float value, bool e4m3) {
  const uint8_t sign = (Bits(value) >> 24) & 0x80u;
  if (std::isnan(value)) return sign | 0x7fu;
  // The largest finite codes: 448 (E4M3) and 57344 (E5M2).
  const uint8_t max_code = e4m3 ? 0x7eu : 0x7bu;
  const double magnitude = std::fabs(static_cast<double>(value));
  if (magnitude >= Fp8ToFloat(max_code, e4m3)) return sign | max_code;
  // Positive codes increase with their value: find the last one at or
  // below the magnitude, then the nearer of it and the next (ties to the
  // even code, whose mantissa ends in 0).
  uint8_t low = 0;
  uint8_t high = max_code;
  while (low < high) {
    const auto middle = static_cast<uint8_t>((low + high + 1) / 2);
    if (Fp8ToFloat(middle, e4m3) <= magnitude) {
      low = middle;
    } else {
      high = static_cast<uint8_t>(middle - 1);
    }
  }
  const double below = magnitude - Fp8ToFloat(low, e4m3);
  const double above =
      Fp8ToFloat(static_cast<uint8_t>(low + 1), e4m3) - magnitude;
  const bool up = above < below || (above == below && (low & 1u) != 0);
  return sign | static_cast<uint8_t>(up ? low + 1 : low);
}

}  // namespace fake_nccl
