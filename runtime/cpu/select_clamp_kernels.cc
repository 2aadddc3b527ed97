// stablehlo.select and stablehlo.clamp.
#include <cstdint>

#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"

namespace pjrtx::cpu {
namespace {

// Unsigned integer type of `size` bytes, for copying elements whatever
// their type.
template <size_t kSize>
struct SizedUInt;
template <>
struct SizedUInt<1> {
  using Type = uint8_t;
};
template <>
struct SizedUInt<2> {
  using Type = uint16_t;
};
template <>
struct SizedUInt<4> {
  using Type = uint32_t;
};
template <>
struct SizedUInt<8> {
  using Type = uint64_t;
};

template <size_t kSize>
void SelectLoop(const Literal& pred, const Literal& on_true,
                const Literal& on_false, Literal& out) {
  using T = typename SizedUInt<kSize>::Type;
  const auto* p = pred.as<PredTraits::Storage>();
  const T* t = on_true.as<T>();
  const T* f = on_false.as<T>();
  T* result = out.as<T>();
  const int64_t n = out.num_elements();
  if (pred.dims().empty()) {
    // A scalar predicate picks a whole operand.
    const T* chosen = PredTraits::Load(p[0]) ? t : f;
    for (int64_t i = 0; i < n; ++i) result[i] = chosen[i];
    return;
  }
  for (int64_t i = 0; i < n; ++i) {
    result[i] = PredTraits::Load(p[i]) ? t[i] : f[i];
  }
}

// The spec's clamp: min(max(operand, min), max), with maximum and minimum
// as the element type defines them (NaN wins for floats). Rank-0 bounds
// apply to every element.
template <typename Traits, typename Max, typename Min>
void ClampLoop(const Literal& min, const Literal& operand, const Literal& max,
               Literal& out, Max maximum, Min minimum) {
  using Storage = typename Traits::Storage;
  const Storage* lo = min.as<Storage>();
  const Storage* x = operand.as<Storage>();
  const Storage* hi = max.as<Storage>();
  Storage* result = out.as<Storage>();
  const int64_t lo_step = min.dims().empty() ? 0 : 1;
  const int64_t hi_step = max.dims().empty() ? 0 : 1;
  const int64_t n = operand.num_elements();
  for (int64_t i = 0; i < n; ++i) {
    result[i] = Traits::Store(
        minimum(maximum(Traits::Load(x[i]), Traits::Load(lo[i * lo_step])),
                Traits::Load(hi[i * hi_step])));
  }
}

}  // namespace

Literal Select(const Literal& pred, const Literal& on_true,
               const Literal& on_false) {
  Literal out(on_true.shape());
  switch (ir::StorageSize(on_true.type())) {
    case 1:
      SelectLoop<1>(pred, on_true, on_false, out);
      break;
    case 2:
      SelectLoop<2>(pred, on_true, on_false, out);
      break;
    case 4:
      SelectLoop<4>(pred, on_true, on_false, out);
      break;
    case 8:
      SelectLoop<8>(pred, on_true, on_false, out);
      break;
  }
  return out;
}

Literal Clamp(const Literal& min, const Literal& operand, const Literal& max) {
  Literal out(operand.shape());
  DispatchElementType(operand.type(), [&](auto traits) {
    using Traits = decltype(traits);
    using V = typename Traits::Value;
    if constexpr (kIsFloatTraits<Traits>) {
      ClampLoop<Traits>(min, operand, max, out, Maximum<V>, Minimum<V>);
    } else {
      // Integers and booleans (false < true) order naturally.
      ClampLoop<Traits>(
          min, operand, max, out, [](V a, V b) { return a < b ? b : a; },
          [](V a, V b) { return b < a ? b : a; });
    }
  });
  return out;
}

}  // namespace pjrtx::cpu
