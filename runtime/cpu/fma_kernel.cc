// stablehlo.fma: a * b + c with a single rounding.
#include <bit>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"

namespace pjrtx::cpu {
namespace {

// a * b + c in double, rounded to odd: the nearest double toward zero with
// its last bit set when the sum is inexact. For operands of up to 24
// significant bits the product is exact in double (48 <= 53 bits), and a
// round-to-odd result with at least two bits more than the target type
// rounds to the target exactly as the exact sum would: so rounding this
// once more to f32, bf16, f16 or f8 is the single rounding fma asks for,
// where rounding a round-to-nearest double would round twice.
double FmaRoundedToOdd(double a, double b, double c) {
  const double product = a * b;  // Exact (see above), or inf/NaN.
  const double sum = product + c;
  if (!std::isfinite(sum)) return sum;
  // The rounding error of the sum, exactly (Knuth's TwoSum).
  const double c_part = sum - product;
  const double error = (product - (sum - c_part)) + (c - c_part);
  if (error == 0) return sum;
  const uint64_t bits = std::bit_cast<uint64_t>(sum);
  if ((bits & 1) != 0) return sum;  // Already the odd neighbour.
  // The sum's two neighbours around the exact value: the other one is odd.
  return std::nextafter(sum, error > 0 ? INFINITY : -INFINITY);
}

template <typename Traits>
void FmaLoop(const Literal& a, const Literal& b, const Literal& c,
             Literal& out) {
  using Storage = typename Traits::Storage;
  const Storage* x = a.as<Storage>();
  const Storage* y = b.as<Storage>();
  const Storage* z = c.as<Storage>();
  Storage* result = out.as<Storage>();
  const int64_t n = out.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<Storage, double>) {
      result[i] = std::fma(x[i], y[i], z[i]);  // Correctly rounded (libm).
    } else {
      result[i] = Traits::FromDouble(
          FmaRoundedToOdd(static_cast<double>(Traits::Load(x[i])),
                          static_cast<double>(Traits::Load(y[i])),
                          static_cast<double>(Traits::Load(z[i]))));
    }
  }
}

}  // namespace

Literal Fma(const Literal& a, const Literal& b, const Literal& c) {
  Literal out(b.shape());
  DispatchElementType(b.type(), [&](auto traits) {
    using Traits = decltype(traits);
    // The compiler admits floating-point operands only.
    if constexpr (kIsFloatTraits<Traits>) FmaLoop<Traits>(a, b, c, out);
  });
  return out;
}

}  // namespace pjrtx::cpu
