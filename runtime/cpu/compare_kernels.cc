// stablehlo.compare.
#include <cmath>
#include <cstdint>
#include <utility>

#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"

namespace pjrtx::cpu {
namespace {

// out[i] = key(lhs[i]) <direction> key(rhs[i]); the switch stays outside
// the loop.
template <typename Storage, typename Key>
void CompareLoop(ComparisonDirection direction, const Literal& lhs,
                 const Literal& rhs, Literal& out, Key key) {
  const auto* a = lhs.as<Storage>();
  const auto* b = rhs.as<Storage>();
  auto* result = out.as<PredTraits::Storage>();
  const int64_t n = lhs.num_elements();
  auto loop = [&](auto predicate) {
    for (int64_t i = 0; i < n; ++i) {
      result[i] = PredTraits::Store(predicate(key(a[i]), key(b[i])));
    }
  };
  switch (direction) {
    case ComparisonDirection::kEq:
      loop([](auto x, auto y) { return x == y; });
      break;
    case ComparisonDirection::kNe:
      loop([](auto x, auto y) { return x != y; });
      break;
    case ComparisonDirection::kGe:
      loop([](auto x, auto y) { return x >= y; });
      break;
    case ComparisonDirection::kGt:
      loop([](auto x, auto y) { return x > y; });
      break;
    case ComparisonDirection::kLe:
      loop([](auto x, auto y) { return x <= y; });
      break;
    case ComparisonDirection::kLt:
      loop([](auto x, auto y) { return x < y; });
      break;
  }
}

// Maps a float's bits to an integer whose order is IEEE 754 totalOrder:
// -NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN, NaNs by payload.
template <int kBits>
int64_t TotalOrderKey(uint64_t bits) {
  const uint64_t magnitude = bits & LowBitsMask(kBits - 1);
  const bool negative = (bits >> (kBits - 1)) & 1;
  return negative ? -static_cast<int64_t>(magnitude) - 1
                  : static_cast<int64_t>(magnitude);
}

}  // namespace

Literal Compare(ComparisonDirection direction, ComparisonType type,
                const Literal& lhs, const Literal& rhs) {
  Literal out(Shape{ElementType::kPred, lhs.dims()});
  DispatchElementType(lhs.type(), [&](auto traits) {
    using Traits = decltype(traits);
    using Storage = typename Traits::Storage;
    if constexpr (kIsFloatTraits<Traits>) {
      if (type == ComparisonType::kTotalOrder) {
        // Ordered by the element's own bits, which keeps NaN signs and
        // payloads apart as totalOrder requires.
        CompareLoop<Storage>(direction, lhs, rhs, out, [](Storage s) {
          return TotalOrderKey<Traits::kBits>(RawBits(s));
        });
      } else if (type == ComparisonType::kWeakOrder) {
        // (is NaN, value): every NaN equal and above +inf; -0 == +0 as
        // IEEE compares them.
        CompareLoop<Storage>(direction, lhs, rhs, out, [](Storage s) {
          const auto v = Traits::Load(s);
          return std::isnan(v) ? std::pair(true, decltype(v){0})
                               : std::pair(false, v);
        });
      } else {
        CompareLoop<Storage>(direction, lhs, rhs, out, Traits::Load);
      }
    } else if constexpr (kIsIntTraits<Traits>) {
      // An explicit SIGNED or UNSIGNED comparison reads the bits that way,
      // whatever the element type's own signedness.
      if (type == ComparisonType::kUnsigned) {
        CompareLoop<Storage>(direction, lhs, rhs, out, [](Storage s) {
          return static_cast<uint64_t>(s) & LowBitsMask(Traits::kBits);
        });
      } else if (type == ComparisonType::kSigned) {
        CompareLoop<Storage>(direction, lhs, rhs, out, [](Storage s) {
          return SignExtend(static_cast<uint64_t>(s), Traits::kBits);
        });
      } else {
        CompareLoop<Storage>(direction, lhs, rhs, out, Traits::Load);
      }
    } else {
      CompareLoop<Storage>(direction, lhs, rhs, out, Traits::Load);
    }
  });
  return out;
}

}  // namespace pjrtx::cpu
