// Integer and predicate-logic compute functions: two's complement with
// wraparound, as PTX defines, computed in unsigned arithmetic so that the
// host never meets signed overflow, a division by zero or MIN / -1 (each
// gives a fixed result instead, see compute_functions.h).
#include <algorithm>
#include <bit>
#include <concepts>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "tests/plugins/cuda/ptx_interpreter/compute_functions.h"

namespace fake_cuda::ptx {
namespace {

template <typename T>
constexpr int kBits = 8 * static_cast<int>(sizeof(T));

// Unsigned arithmetic at least as wide as unsigned int: narrower operands
// would otherwise promote to int, where products can overflow.
template <typename T>
using Arithmetic = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned,
                                      std::make_unsigned_t<T>>;

template <typename T>
T MulHigh(T a, T b) {
  if constexpr (sizeof(T) == 8) {
    if constexpr (std::is_signed_v<T>) {
      return static_cast<T>((static_cast<__int128>(a) * b) >> 64);
    } else {
      return static_cast<T>((static_cast<unsigned __int128>(a) * b) >> 64);
    }
  } else {
    using Wide = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return static_cast<T>((static_cast<Wide>(a) * static_cast<Wide>(b)) >>
                          kBits<T>);
  }
}

// The integer type twice as wide as T, of the same signedness.
template <typename T>
using Twice = std::conditional_t<
    sizeof(T) == 2, std::conditional_t<std::is_signed_v<T>, int32_t, uint32_t>,
    std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>>;

// --- d = a op b ---

template <IntegerOp kOp, typename T>
constexpr bool BinarySupports() {
  if constexpr (std::same_as<T, bool>) {
    return kOp == IntegerOp::kAnd || kOp == IntegerOp::kOr ||
           kOp == IntegerOp::kXor;
  } else if constexpr (IntegerValue<T>) {
    if (kOp == IntegerOp::kAddSat || kOp == IntegerOp::kSubSat) {
      return std::same_as<T, int32_t>;
    }
    return true;
  } else {
    return false;
  }
}

template <IntegerOp kOp, typename T>
T BinaryValue(T a, T b) {
  if constexpr (std::same_as<T, bool>) {
    if constexpr (kOp == IntegerOp::kAnd) return a && b;
    if constexpr (kOp == IntegerOp::kOr) return a || b;
    return a != b;
  } else {
    using A = Arithmetic<T>;
    const A x = static_cast<A>(a);
    const A y = static_cast<A>(b);
    if constexpr (kOp == IntegerOp::kAdd) return static_cast<T>(x + y);
    if constexpr (kOp == IntegerOp::kSub) return static_cast<T>(x - y);
    if constexpr (kOp == IntegerOp::kAddSat || kOp == IntegerOp::kSubSat) {
      const int64_t wide =
          kOp == IntegerOp::kAddSat ? int64_t{a} + b : int64_t{a} - b;
      return static_cast<T>(std::clamp<int64_t>(wide, INT32_MIN, INT32_MAX));
    }
    if constexpr (kOp == IntegerOp::kMulLo) return static_cast<T>(x * y);
    if constexpr (kOp == IntegerOp::kMulHi) return MulHigh(a, b);
    if constexpr (kOp == IntegerOp::kDiv || kOp == IntegerOp::kRem) {
      const bool is_div = kOp == IntegerOp::kDiv;
      if (b == 0) return is_div ? static_cast<T>(~T{0}) : a;
      if constexpr (std::is_signed_v<T>) {
        if (a == std::numeric_limits<T>::min() && b == -1) {
          return is_div ? a : T{0};
        }
      }
      return is_div ? static_cast<T>(a / b) : static_cast<T>(a % b);
    }
    if constexpr (kOp == IntegerOp::kMin) return std::min(a, b);
    if constexpr (kOp == IntegerOp::kMax) return std::max(a, b);
    if constexpr (kOp == IntegerOp::kAnd) return static_cast<T>(x & y);
    if constexpr (kOp == IntegerOp::kOr) return static_cast<T>(x | y);
    if constexpr (kOp == IntegerOp::kXor) return static_cast<T>(x ^ y);
    return T{};
  }
}

template <IntegerOp kOp, typename T>
void RunBinary(const Instruction& in, Slot* s) {
  s[in.d] =
      ToSlot(BinaryValue<kOp, T>(FromSlot<T>(s[in.a]), FromSlot<T>(s[in.b])));
}

// --- d = op a ---

template <IntegerOp kOp, typename T>
constexpr bool UnarySupports() {
  if constexpr (std::same_as<T, bool>) {
    return kOp == IntegerOp::kNot;
  } else if constexpr (IntegerValue<T>) {
    if (kOp == IntegerOp::kAbs) return std::is_signed_v<T>;
    if (kOp == IntegerOp::kBrev) return sizeof(T) >= 4;
    return true;
  } else {
    return false;
  }
}

template <IntegerOp kOp, typename T>
T UnaryValue(T a) {
  if constexpr (std::same_as<T, bool>) {
    return !a;
  } else {
    using A = Arithmetic<T>;
    const A x = static_cast<A>(a);
    if constexpr (kOp == IntegerOp::kNeg) return static_cast<T>(A{0} - x);
    if constexpr (kOp == IntegerOp::kAbs) {
      return a < 0 ? static_cast<T>(A{0} - x) : a;
    }
    if constexpr (kOp == IntegerOp::kNot) return static_cast<T>(~x);
    if constexpr (kOp == IntegerOp::kCnot) return a == 0 ? T{1} : T{0};
    if constexpr (kOp == IntegerOp::kBrev) {
      std::make_unsigned_t<T> bits = static_cast<std::make_unsigned_t<T>>(a);
      std::make_unsigned_t<T> reversed = 0;
      for (int i = 0; i < kBits<T>; ++i, bits >>= 1) {
        reversed =
            static_cast<std::make_unsigned_t<T>>((reversed << 1) | (bits & 1));
      }
      return static_cast<T>(reversed);
    }
    return T{};
  }
}

template <IntegerOp kOp, typename T>
void RunUnary(const Instruction& in, Slot* s) {
  s[in.d] = ToSlot(UnaryValue<kOp, T>(FromSlot<T>(s[in.a])));
}

// --- d.u32 = popc / clz a ---

template <IntegerOp kOp, typename T>
void RunCount(const Instruction& in, Slot* s) {
  const auto bits = static_cast<std::make_unsigned_t<T>>(FromSlot<T>(s[in.a]));
  const int count =
      kOp == IntegerOp::kPopc ? std::popcount(bits) : std::countl_zero(bits);
  s[in.d] = ToSlot(static_cast<uint32_t>(count));
}

// --- d = a shifted by b.u32 ---

template <IntegerOp kOp, typename T>
void RunShift(const Instruction& in, Slot* s) {
  const T a = FromSlot<T>(s[in.a]);
  const uint32_t amount = FromSlot<uint32_t>(s[in.b]);
  T result;
  if (amount >= static_cast<uint32_t>(kBits<T>)) {
    // PTX clamps the amount to the width: all bits shifted out, or the
    // sign bit everywhere for an arithmetic right shift.
    result = T{0};
    if constexpr (kOp == IntegerOp::kShr && std::is_signed_v<T>) {
      if (a < 0) result = T{-1};
    }
  } else if constexpr (kOp == IntegerOp::kShl) {
    result = static_cast<T>(static_cast<Arithmetic<T>>(a) << amount);
  } else {
    result = static_cast<T>(a >> amount);  // Arithmetic for signed T.
  }
  s[in.d] = ToSlot(result);
}

// --- d = lo/hi(a * b) + c ---

template <IntegerOp kOp, typename T>
void RunMad(const Instruction& in, Slot* s) {
  const T a = FromSlot<T>(s[in.a]);
  const T b = FromSlot<T>(s[in.b]);
  using A = Arithmetic<T>;
  const A product = kOp == IntegerOp::kMadLo
                        ? static_cast<A>(static_cast<A>(a) * static_cast<A>(b))
                        : static_cast<A>(MulHigh(a, b));
  s[in.d] =
      ToSlot(static_cast<T>(product + static_cast<A>(FromSlot<T>(s[in.c]))));
}

// --- d (twice as wide) = a * b [+ c] ---

template <IntegerOp kOp, typename T>
void RunWide(const Instruction& in, Slot* s) {
  using W = Twice<T>;
  using A = std::make_unsigned_t<W>;
  // The product of two T fits in W, signed or not.
  const W product = static_cast<W>(static_cast<W>(FromSlot<T>(s[in.a])) *
                                   static_cast<W>(FromSlot<T>(s[in.b])));
  W result = product;
  if constexpr (kOp == IntegerOp::kMadWide) {
    result = static_cast<W>(static_cast<A>(product) +
                            static_cast<A>(FromSlot<W>(s[in.c])));
  }
  s[in.d] = ToSlot(result);
}

// --- bfe: d = the field of a at b.u32, c.u32 bits long ---

template <typename T>
void RunBfe(const Instruction& in, Slot* s) {
  using U = std::make_unsigned_t<T>;
  constexpr uint32_t kMsb = kBits<T> - 1;
  const U a = static_cast<U>(FromSlot<T>(s[in.a]));
  const uint32_t position = FromSlot<uint32_t>(s[in.b]) & 0xFF;
  const uint32_t length = FromSlot<uint32_t>(s[in.c]) & 0xFF;
  auto mask = [](uint32_t bits) -> U {
    return bits >= static_cast<uint32_t>(kBits<T>)
               ? static_cast<U>(~U{0})
               : static_cast<U>((U{1} << bits) - 1);
  };
  // Bits past the msb of a, and those past the length, are the sign bit
  // (the field's top bit, or a's msb when the field runs off it) for
  // .sN, zero for .uN.
  const uint32_t available = position > kMsb ? 0 : kMsb - position + 1;
  const uint32_t taken = std::min(length, available);
  U field = taken == 0 ? U{0} : static_cast<U>((a >> position) & mask(taken));
  if constexpr (std::is_signed_v<T>) {
    const uint32_t sign_position = std::min(position + length - 1, kMsb);
    const bool sign = length != 0 && ((a >> sign_position) & 1) != 0;
    if (sign) field = static_cast<U>(field | ~mask(taken));
  }
  s[in.d] = ToSlot(static_cast<T>(field));
}

// --- Lookup ---

template <typename T>
constexpr bool kIs32Or64 = IntegerValue<T> && sizeof(T) >= 4;
template <typename T>
constexpr bool kIs16Or32 = IntegerValue<T> &&
                           (sizeof(T) == 2 || sizeof(T) == 4);

// A visitor over the PTX type picking Run<kOp, T> where Supports<T>.
#define PTX_SELECT(CONDITION, FUNCTION)                           \
  VisitType<ComputeFn>(type, nullptr, [](auto tag) -> ComputeFn { \
    using T = typename decltype(tag)::type;                       \
    if constexpr (CONDITION) {                                    \
      return &FUNCTION;                                           \
    } else {                                                      \
      return nullptr;                                             \
    }                                                             \
  })

template <IntegerOp kOp>
ComputeFn SelectBinary(Type type) {
  return PTX_SELECT((BinarySupports<kOp, T>()), (RunBinary<kOp, T>));
}

template <IntegerOp kOp>
ComputeFn SelectUnary(Type type) {
  return PTX_SELECT((UnarySupports<kOp, T>()), (RunUnary<kOp, T>));
}

template <IntegerOp kOp>
ComputeFn SelectCount(Type type) {
  return PTX_SELECT(kIs32Or64<T>, (RunCount<kOp, T>));
}

template <IntegerOp kOp>
ComputeFn SelectShift(Type type) {
  return PTX_SELECT(IntegerValue<T>, (RunShift<kOp, T>));
}

template <IntegerOp kOp>
ComputeFn SelectMad(Type type) {
  return PTX_SELECT(IntegerValue<T>, (RunMad<kOp, T>));
}

template <IntegerOp kOp>
ComputeFn SelectWide(Type type) {
  return PTX_SELECT(kIs16Or32<T>, (RunWide<kOp, T>));
}

ComputeFn SelectBfe(Type type) { return PTX_SELECT(kIs32Or64<T>, RunBfe<T>); }

#undef PTX_SELECT

}  // namespace

ComputeFn IntegerOperation(IntegerOp op, Type type) {
  switch (op) {
    case IntegerOp::kAdd:
      return SelectBinary<IntegerOp::kAdd>(type);
    case IntegerOp::kSub:
      return SelectBinary<IntegerOp::kSub>(type);
    case IntegerOp::kAddSat:
      return SelectBinary<IntegerOp::kAddSat>(type);
    case IntegerOp::kSubSat:
      return SelectBinary<IntegerOp::kSubSat>(type);
    case IntegerOp::kMulLo:
      return SelectBinary<IntegerOp::kMulLo>(type);
    case IntegerOp::kMulHi:
      return SelectBinary<IntegerOp::kMulHi>(type);
    case IntegerOp::kDiv:
      return SelectBinary<IntegerOp::kDiv>(type);
    case IntegerOp::kRem:
      return SelectBinary<IntegerOp::kRem>(type);
    case IntegerOp::kMin:
      return SelectBinary<IntegerOp::kMin>(type);
    case IntegerOp::kMax:
      return SelectBinary<IntegerOp::kMax>(type);
    case IntegerOp::kAnd:
      return SelectBinary<IntegerOp::kAnd>(type);
    case IntegerOp::kOr:
      return SelectBinary<IntegerOp::kOr>(type);
    case IntegerOp::kXor:
      return SelectBinary<IntegerOp::kXor>(type);
    case IntegerOp::kNeg:
      return SelectUnary<IntegerOp::kNeg>(type);
    case IntegerOp::kAbs:
      return SelectUnary<IntegerOp::kAbs>(type);
    case IntegerOp::kNot:
      return SelectUnary<IntegerOp::kNot>(type);
    case IntegerOp::kCnot:
      return SelectUnary<IntegerOp::kCnot>(type);
    case IntegerOp::kBrev:
      return SelectUnary<IntegerOp::kBrev>(type);
    case IntegerOp::kPopc:
      return SelectCount<IntegerOp::kPopc>(type);
    case IntegerOp::kClz:
      return SelectCount<IntegerOp::kClz>(type);
    case IntegerOp::kShl:
      return SelectShift<IntegerOp::kShl>(type);
    case IntegerOp::kShr:
      return SelectShift<IntegerOp::kShr>(type);
    case IntegerOp::kMadLo:
      return SelectMad<IntegerOp::kMadLo>(type);
    case IntegerOp::kMadHi:
      return SelectMad<IntegerOp::kMadHi>(type);
    case IntegerOp::kMulWide:
      return SelectWide<IntegerOp::kMulWide>(type);
    case IntegerOp::kMadWide:
      return SelectWide<IntegerOp::kMadWide>(type);
    case IntegerOp::kBfe:
      return SelectBfe(type);
  }
  return nullptr;
}

}  // namespace fake_cuda::ptx
