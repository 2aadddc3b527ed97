// Unary elementwise operations.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/special_functions.h"
#include "runtime/cpu/vector_math.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

const char* UnaryOpName(UnaryOp op) {
  switch (op) {
    case UnaryOp::kAbs:
      return "abs";
    case UnaryOp::kCbrt:
      return "cbrt";
    case UnaryOp::kCeil:
      return "ceil";
    case UnaryOp::kCosine:
      return "cosine";
    case UnaryOp::kCountLeadingZeros:
      return "count_leading_zeros";
    case UnaryOp::kDigamma:
      return "digamma";
    case UnaryOp::kErf:
      return "erf";
    case UnaryOp::kErfc:
      return "erfc";
    case UnaryOp::kErfInv:
      return "erf_inv";
    case UnaryOp::kExp2:
      return "exp2";
    case UnaryOp::kExponential:
      return "exponential";
    case UnaryOp::kExponentialMinusOne:
      return "exponential_minus_one";
    case UnaryOp::kFloor:
      return "floor";
    case UnaryOp::kIsFinite:
      return "is_finite";
    case UnaryOp::kLgamma:
      return "lgamma";
    case UnaryOp::kLog:
      return "log";
    case UnaryOp::kLog2:
      return "log2";
    case UnaryOp::kLogPlusOne:
      return "log_plus_one";
    case UnaryOp::kLogistic:
      return "logistic";
    case UnaryOp::kNegate:
      return "negate";
    case UnaryOp::kNot:
      return "not";
    case UnaryOp::kPopcnt:
      return "popcnt";
    case UnaryOp::kRoundNearestAfz:
      return "round_nearest_afz";
    case UnaryOp::kRoundNearestEven:
      return "round_nearest_even";
    case UnaryOp::kRsqrt:
      return "rsqrt";
    case UnaryOp::kSign:
      return "sign";
    case UnaryOp::kSine:
      return "sine";
    case UnaryOp::kSqrt:
      return "sqrt";
    case UnaryOp::kTan:
      return "tan";
    case UnaryOp::kTanh:
      return "tanh";
  }
  return "unknown";
}

absl::Status Unsupported(UnaryOp op, ElementType type) {
  const bool chlo = op == UnaryOp::kErf || op == UnaryOp::kErfc ||
                    op == UnaryOp::kErfInv || op == UnaryOp::kLgamma ||
                    op == UnaryOp::kDigamma;
  return absl::InvalidArgumentError(absl::StrCat(
      chlo ? "chlo." : "stablehlo.", UnaryOpName(op), " does not support ",
      ir::ElementTypeToMlir(type), " operands"));
}

// out[i] = fn(x[i]), both of type `Traits`.
template <typename Traits, typename Fn>
void Map(const Literal& x, Literal& out, Fn fn) {
  const auto* in = x.as<typename Traits::Storage>();
  auto* result = out.as<typename Traits::Storage>();
  const int64_t n = x.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    result[i] = Traits::Store(fn(Traits::Load(in[i])));
  }
}

// Like Map, but evaluates `fn` in double and rounds once to the type, as
// the reference interpreter does for transcendental functions: computing
// in float would be up to an ulp off, which matters for large results.
template <typename Traits, typename Fn>
void MapInDouble(const Literal& x, Literal& out, Fn fn) {
  const auto* in = x.as<typename Traits::Storage>();
  auto* result = out.as<typename Traits::Storage>();
  const int64_t n = x.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    result[i] =
        Traits::FromDouble(fn(static_cast<double>(Traits::Load(in[i]))));
  }
}

template <typename Traits>
absl::Status FloatUnary(UnaryOp op, const Literal& x, Literal& out) {
  using V = typename Traits::Value;
  if constexpr (std::is_same_v<typename Traits::Storage, float>) {
    // The vectorized f32 versions (see vector_math.h).
    void (*vector_fn)(const float*, float*, int64_t) =
        op == UnaryOp::kTanh          ? TanhF32
        : op == UnaryOp::kExponential ? ExpF32
        : op == UnaryOp::kLogistic    ? LogisticF32
                                      : nullptr;
    if (vector_fn != nullptr) {
      vector_fn(x.as<float>(), out.as<float>(), x.num_elements());
      return absl::OkStatus();
    }
  }
  switch (op) {
    case UnaryOp::kAbs:
      Map<Traits>(x, out, [](V v) { return std::abs(v); });
      return absl::OkStatus();
    case UnaryOp::kCbrt:
      MapInDouble<Traits>(x, out, [](double v) { return std::cbrt(v); });
      return absl::OkStatus();
    case UnaryOp::kCeil:
      Map<Traits>(x, out, [](V v) { return std::ceil(v); });
      return absl::OkStatus();
    case UnaryOp::kCosine:
      MapInDouble<Traits>(x, out, [](double v) { return std::cos(v); });
      return absl::OkStatus();
    case UnaryOp::kErf:
      MapInDouble<Traits>(x, out, [](double v) { return std::erf(v); });
      return absl::OkStatus();
    case UnaryOp::kErfc:
      MapInDouble<Traits>(x, out, [](double v) { return std::erfc(v); });
      return absl::OkStatus();
    case UnaryOp::kErfInv:
      MapInDouble<Traits>(x, out, ErfInv);
      return absl::OkStatus();
    case UnaryOp::kLgamma:
      MapInDouble<Traits>(x, out, LogGamma);
      return absl::OkStatus();
    case UnaryOp::kDigamma:
      MapInDouble<Traits>(x, out, Digamma);
      return absl::OkStatus();
    case UnaryOp::kExp2:
      MapInDouble<Traits>(x, out, [](double v) { return std::exp2(v); });
      return absl::OkStatus();
    case UnaryOp::kExponential:
      MapInDouble<Traits>(x, out, [](double v) { return std::exp(v); });
      return absl::OkStatus();
    case UnaryOp::kExponentialMinusOne:
      MapInDouble<Traits>(x, out, [](double v) { return std::expm1(v); });
      return absl::OkStatus();
    case UnaryOp::kFloor:
      Map<Traits>(x, out, [](V v) { return std::floor(v); });
      return absl::OkStatus();
    case UnaryOp::kIsFinite: {
      const auto* in = x.as<typename Traits::Storage>();
      auto* result = out.as<PredTraits::Storage>();
      const int64_t n = x.num_elements();
      for (int64_t i = 0; i < n; ++i) {
        result[i] = PredTraits::Store(std::isfinite(Traits::Load(in[i])));
      }
      return absl::OkStatus();
    }
    case UnaryOp::kLog:
      MapInDouble<Traits>(x, out, [](double v) { return std::log(v); });
      return absl::OkStatus();
    case UnaryOp::kLog2:
      MapInDouble<Traits>(x, out, [](double v) { return std::log2(v); });
      return absl::OkStatus();
    case UnaryOp::kLogPlusOne:
      MapInDouble<Traits>(x, out, [](double v) { return std::log1p(v); });
      return absl::OkStatus();
    case UnaryOp::kLogistic:
      MapInDouble<Traits>(x, out,
                          [](double v) { return 1.0 / (1.0 + std::exp(-v)); });
      return absl::OkStatus();
    case UnaryOp::kNegate:
      Map<Traits>(x, out, [](V v) { return -v; });
      return absl::OkStatus();
    case UnaryOp::kRoundNearestAfz:
      Map<Traits>(x, out, [](V v) { return std::round(v); });
      return absl::OkStatus();
    case UnaryOp::kRoundNearestEven:
      // The engine never changes the rounding mode from its default,
      // round-to-nearest-even, which nearbyint uses.
      Map<Traits>(x, out, [](V v) { return std::nearbyint(v); });
      return absl::OkStatus();
    case UnaryOp::kRsqrt:
      MapInDouble<Traits>(x, out, [](double v) { return 1.0 / std::sqrt(v); });
      return absl::OkStatus();
    case UnaryOp::kSign:
      // NaN stays NaN and zeros keep their sign.
      Map<Traits>(x, out, [](V v) {
        return std::isnan(v) || v == 0 ? v : std::copysign(V{1}, v);
      });
      return absl::OkStatus();
    case UnaryOp::kSine:
      MapInDouble<Traits>(x, out, [](double v) { return std::sin(v); });
      return absl::OkStatus();
    case UnaryOp::kSqrt:
      // Correctly rounded in any precision: no need for double.
      Map<Traits>(x, out, [](V v) { return std::sqrt(v); });
      return absl::OkStatus();
    case UnaryOp::kTan:
      MapInDouble<Traits>(x, out, [](double v) { return std::tan(v); });
      return absl::OkStatus();
    case UnaryOp::kTanh:
      MapInDouble<Traits>(x, out, [](double v) { return std::tanh(v); });
      return absl::OkStatus();
    case UnaryOp::kCountLeadingZeros:
    case UnaryOp::kNot:
    case UnaryOp::kPopcnt:
      break;
  }
  return Unsupported(op, x.type());
}

template <typename Traits>
absl::Status IntUnary(UnaryOp op, const Literal& x, Literal& out) {
  using V = typename Traits::Value;
  constexpr int kBits = Traits::kBits;
  // The value's bits within the type's width (two's complement).
  auto bits = [](V v) { return static_cast<uint64_t>(v) & LowBitsMask(kBits); };
  switch (op) {
    case UnaryOp::kAbs:
      // Negation wraps (abs(INT_MIN) = INT_MIN); unsigned values are their
      // own absolute value.
      Map<Traits>(x, out, [](V v) {
        return v < V{0} ? static_cast<V>(uint64_t{0} - static_cast<uint64_t>(v))
                        : v;
      });
      return absl::OkStatus();
    case UnaryOp::kCountLeadingZeros:
      Map<Traits>(x, out, [&](V v) {
        return static_cast<V>(std::countl_zero(bits(v)) - (64 - kBits));
      });
      return absl::OkStatus();
    case UnaryOp::kNegate:
      Map<Traits>(x, out, [](V v) {
        return static_cast<V>(uint64_t{0} - static_cast<uint64_t>(v));
      });
      return absl::OkStatus();
    case UnaryOp::kNot:
      Map<Traits>(x, out, [](V v) { return static_cast<V>(~v); });
      return absl::OkStatus();
    case UnaryOp::kPopcnt:
      Map<Traits>(x, out,
                  [&](V v) { return static_cast<V>(std::popcount(bits(v))); });
      return absl::OkStatus();
    case UnaryOp::kSign:
      Map<Traits>(x, out,
                  [](V v) { return static_cast<V>((v > V{0}) - (v < V{0})); });
      return absl::OkStatus();
    default:
      return Unsupported(op, x.type());
  }
}

absl::Status PredUnary(UnaryOp op, const Literal& x, Literal& out) {
  if (op != UnaryOp::kNot) return Unsupported(op, x.type());
  Map<PredTraits>(x, out, [](bool v) { return !v; });
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Literal> Unary(UnaryOp op, const Literal& x,
                              const Shape& result) {
  const ElementType expected_type =
      op == UnaryOp::kIsFinite ? ElementType::kPred : x.type();
  if (result.type != expected_type || result.dims != x.dims()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "stablehlo.", UnaryOpName(op), ": result ", result.ToString(),
        " does not match operand ", x.shape().ToString()));
  }
  Literal out(result);
  PJRTX_RETURN_IF_ERROR(DispatchElementType(x.type(), [&](auto traits) {
    using Traits = decltype(traits);
    if constexpr (kIsFloatTraits<Traits>) {
      return FloatUnary<Traits>(op, x, out);
    } else if constexpr (kIsIntTraits<Traits>) {
      return IntUnary<Traits>(op, x, out);
    } else {
      return PredUnary(op, x, out);
    }
  }));
  return out;
}

}  // namespace pjrtx::cpu
