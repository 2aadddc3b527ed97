// Binary elementwise operations.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

const char* BinaryOpName(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "add";
    case BinaryOp::kAnd:
      return "and";
    case BinaryOp::kAtan2:
      return "atan2";
    case BinaryOp::kDivide:
      return "divide";
    case BinaryOp::kMaximum:
      return "maximum";
    case BinaryOp::kMinimum:
      return "minimum";
    case BinaryOp::kMultiply:
      return "multiply";
    case BinaryOp::kOr:
      return "or";
    case BinaryOp::kPower:
      return "power";
    case BinaryOp::kRemainder:
      return "remainder";
    case BinaryOp::kShiftLeft:
      return "shift_left";
    case BinaryOp::kShiftRightArithmetic:
      return "shift_right_arithmetic";
    case BinaryOp::kShiftRightLogical:
      return "shift_right_logical";
    case BinaryOp::kSubtract:
      return "subtract";
    case BinaryOp::kXor:
      return "xor";
  }
  return "unknown";
}

absl::Status Unsupported(BinaryOp op, ElementType type) {
  return absl::InvalidArgumentError(
      absl::StrCat("stablehlo.", BinaryOpName(op), " does not support ",
                   ir::ElementTypeToMlir(type), " operands"));
}

// out[i] = fn(lhs[i], rhs[i]), all of type `Traits`.
template <typename Traits, typename Fn>
void Map(const Literal& lhs, const Literal& rhs, Literal& out, Fn fn) {
  const auto* a = lhs.as<typename Traits::Storage>();
  const auto* b = rhs.as<typename Traits::Storage>();
  auto* result = out.as<typename Traits::Storage>();
  const int64_t n = lhs.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    result[i] = Traits::Store(fn(Traits::Load(a[i]), Traits::Load(b[i])));
  }
}

// Like Map, but evaluates `fn` in double and rounds once to the type, as
// the reference interpreter does for pow and atan2.
template <typename Traits, typename Fn>
void MapInDouble(const Literal& lhs, const Literal& rhs, Literal& out, Fn fn) {
  const auto* a = lhs.as<typename Traits::Storage>();
  const auto* b = rhs.as<typename Traits::Storage>();
  auto* result = out.as<typename Traits::Storage>();
  const int64_t n = lhs.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    result[i] = Traits::FromDouble(fn(static_cast<double>(Traits::Load(a[i])),
                                      static_cast<double>(Traits::Load(b[i]))));
  }
}

template <typename Traits>
absl::Status FloatBinary(BinaryOp op, const Literal& lhs, const Literal& rhs,
                         Literal& out) {
  // Basic arithmetic in float is correctly rounded for the narrow types
  // too: float has more than twice their precision, so rounding the float
  // result again gives the same value as rounding the exact one.
  using V = typename Traits::Value;
  switch (op) {
    case BinaryOp::kAdd:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return a + b; });
      return absl::OkStatus();
    case BinaryOp::kAtan2:
      MapInDouble<Traits>(lhs, rhs, out,
                          [](double a, double b) { return std::atan2(a, b); });
      return absl::OkStatus();
    case BinaryOp::kDivide:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return a / b; });
      return absl::OkStatus();
    case BinaryOp::kMaximum:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return Maximum(a, b); });
      return absl::OkStatus();
    case BinaryOp::kMinimum:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return Minimum(a, b); });
      return absl::OkStatus();
    case BinaryOp::kMultiply:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return a * b; });
      return absl::OkStatus();
    case BinaryOp::kPower:
      MapInDouble<Traits>(lhs, rhs, out,
                          [](double a, double b) { return std::pow(a, b); });
      return absl::OkStatus();
    case BinaryOp::kRemainder:
      // fmod is exact, so float precision suffices; its result has the
      // dividend's sign, as the spec requires.
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return std::fmod(a, b); });
      return absl::OkStatus();
    case BinaryOp::kSubtract:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return a - b; });
      return absl::OkStatus();
    case BinaryOp::kAnd:
    case BinaryOp::kOr:
    case BinaryOp::kShiftLeft:
    case BinaryOp::kShiftRightArithmetic:
    case BinaryOp::kShiftRightLogical:
    case BinaryOp::kXor:
      break;
  }
  return Unsupported(op, lhs.type());
}

// Integer arithmetic goes through uint64_t, where overflow wraps instead
// of being undefined; the conversion back to V keeps the low bits, and
// Traits::Store wraps the 2- and 4-bit types to their width.
template <typename V>
V WrappingAdd(V a, V b) {
  return static_cast<V>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <typename V>
V WrappingSub(V a, V b) {
  return static_cast<V>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
template <typename V>
V WrappingMul(V a, V b) {
  return static_cast<V>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

// Division by zero gives all ones (-1 for signed types) and INT_MIN / -1
// gives INT_MIN, as XLA defines them; the spec leaves both open.
template <typename V>
V IntDivide(V a, V b) {
  if (b == V{0}) return static_cast<V>(~uint64_t{0});
  if constexpr (std::is_signed_v<V>) {
    if (b == V{-1}) return WrappingSub(V{0}, a);
  }
  return static_cast<V>(a / b);
}

// Remainder by zero gives the dividend; x % -1 is 0 (also for INT_MIN).
template <typename V>
V IntRemainder(V a, V b) {
  if (b == V{0}) return a;
  if constexpr (std::is_signed_v<V>) {
    if (b == V{-1}) return V{0};
  }
  return static_cast<V>(a % b);
}

// Exponentiation by squaring, wrapping. A negative exponent gives 0 unless
// the base is 1 or -1 (whose powers stay integers), as the reference
// interpreter does.
template <typename V>
V IntPower(V base, V exponent) {
  uint64_t e = static_cast<uint64_t>(exponent);
  if constexpr (std::is_signed_v<V>) {
    if (exponent < V{0}) {
      if (base == V{1}) return V{1};
      if (base == V{-1}) return (e & 1) ? V{-1} : V{1};
      return V{0};
    }
  }
  uint64_t result = 1;
  uint64_t b = static_cast<uint64_t>(base);
  while (e != 0) {
    if (e & 1) result *= b;
    b *= b;
    e >>= 1;
  }
  return static_cast<V>(result);
}

template <typename Traits>
absl::Status IntBinary(BinaryOp op, const Literal& lhs, const Literal& rhs,
                       Literal& out) {
  using V = typename Traits::Value;
  constexpr int kBits = Traits::kBits;
  // Shift amounts are read as unsigned values of the type's width, so that
  // negative amounts count as too large, as in XLA.
  auto amount = [](V v) {
    return static_cast<uint64_t>(v) & LowBitsMask(kBits);
  };
  switch (op) {
    case BinaryOp::kAdd:
      Map<Traits>(lhs, rhs, out, WrappingAdd<V>);
      return absl::OkStatus();
    case BinaryOp::kAnd:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return V(a & b); });
      return absl::OkStatus();
    case BinaryOp::kDivide:
      Map<Traits>(lhs, rhs, out, IntDivide<V>);
      return absl::OkStatus();
    case BinaryOp::kMaximum:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return a < b ? b : a; });
      return absl::OkStatus();
    case BinaryOp::kMinimum:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return b < a ? b : a; });
      return absl::OkStatus();
    case BinaryOp::kMultiply:
      Map<Traits>(lhs, rhs, out, WrappingMul<V>);
      return absl::OkStatus();
    case BinaryOp::kOr:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return V(a | b); });
      return absl::OkStatus();
    case BinaryOp::kPower:
      Map<Traits>(lhs, rhs, out, IntPower<V>);
      return absl::OkStatus();
    case BinaryOp::kRemainder:
      Map<Traits>(lhs, rhs, out, IntRemainder<V>);
      return absl::OkStatus();
    case BinaryOp::kShiftLeft:
      Map<Traits>(lhs, rhs, out, [&](V a, V b) {
        const uint64_t s = amount(b);
        return s >= kBits ? V{0}
                          : static_cast<V>(static_cast<uint64_t>(a) << s);
      });
      return absl::OkStatus();
    case BinaryOp::kShiftRightArithmetic:
      // Shifts the width-bit two's complement pattern, sign bit filling,
      // for unsigned types too (as XLA does).
      Map<Traits>(lhs, rhs, out, [&](V a, V b) {
        const int64_t value = SignExtend(static_cast<uint64_t>(a), kBits);
        const uint64_t s = amount(b);
        return static_cast<V>(s >= kBits ? (value < 0 ? -1 : 0) : value >> s);
      });
      return absl::OkStatus();
    case BinaryOp::kShiftRightLogical:
      Map<Traits>(lhs, rhs, out, [&](V a, V b) {
        const uint64_t s = amount(b);
        return s >= kBits ? V{0} : static_cast<V>(amount(a) >> s);
      });
      return absl::OkStatus();
    case BinaryOp::kSubtract:
      Map<Traits>(lhs, rhs, out, WrappingSub<V>);
      return absl::OkStatus();
    case BinaryOp::kXor:
      Map<Traits>(lhs, rhs, out, [](V a, V b) { return V(a ^ b); });
      return absl::OkStatus();
    case BinaryOp::kAtan2:
      break;
  }
  return Unsupported(op, lhs.type());
}

// Booleans: add and maximum are OR, multiply and minimum are AND.
absl::Status PredBinary(BinaryOp op, const Literal& lhs, const Literal& rhs,
                        Literal& out) {
  switch (op) {
    case BinaryOp::kAdd:
    case BinaryOp::kMaximum:
    case BinaryOp::kOr:
      Map<PredTraits>(lhs, rhs, out, [](bool a, bool b) { return a || b; });
      return absl::OkStatus();
    case BinaryOp::kAnd:
    case BinaryOp::kMinimum:
    case BinaryOp::kMultiply:
      Map<PredTraits>(lhs, rhs, out, [](bool a, bool b) { return a && b; });
      return absl::OkStatus();
    case BinaryOp::kXor:
      Map<PredTraits>(lhs, rhs, out, [](bool a, bool b) { return a != b; });
      return absl::OkStatus();
    default:
      return Unsupported(op, lhs.type());
  }
}

}  // namespace

absl::StatusOr<Literal> Binary(BinaryOp op, const Literal& lhs,
                               const Literal& rhs, const Shape& result) {
  if (lhs.shape() != rhs.shape() || result != lhs.shape()) {
    return absl::InvalidArgumentError(
        absl::StrCat("stablehlo.", BinaryOpName(op), ": shapes ",
                     lhs.shape().ToString(), ", ", rhs.shape().ToString(),
                     " -> ", result.ToString(), " do not match"));
  }
  // Every element is written below (or the error discards it).
  Literal out = Literal::ForOverwrite(result);
  PJRTX_RETURN_IF_ERROR(DispatchElementType(lhs.type(), [&](auto traits) {
    using Traits = decltype(traits);
    if constexpr (kIsFloatTraits<Traits>) {
      return FloatBinary<Traits>(op, lhs, rhs, out);
    } else if constexpr (kIsIntTraits<Traits>) {
      return IntBinary<Traits>(op, lhs, rhs, out);
    } else {
      return PredBinary(op, lhs, rhs, out);
    }
  }));
  return out;
}

}  // namespace pjrtx::cpu
