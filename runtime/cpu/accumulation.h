// The arithmetic of dot_general and convolution: products summed in a
// domain chosen by the result element type, with operands converted into
// that domain once up front so that the inner loops are plain C++.
#ifndef PJRTX_RUNTIME_CPU_ACCUMULATION_H_
#define PJRTX_RUNTIME_CPU_ACCUMULATION_H_

#include <cstdint>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// PRED's accumulator: a bool that std::vector stores as a plain array
// (std::vector<bool> packs bits and has no data()).
struct Logical {
  bool value = false;
};

// Calls `fn` with a value of the accumulator type for `result`: double for
// F32 and F64 (products of f32 values are exact in double, so only the
// final rounding remains); float for the 16- and 8-bit floats; uint64_t for
// integers (two's complement wraps the same way for signed and unsigned,
// and the result is narrowed to the type's width at the end); Logical for
// PRED, where multiply is "and" and add is "or".
template <typename Fn>
decltype(auto) DispatchAccumulator(ElementType result, Fn&& fn) {
  if (result == ElementType::kF32 || result == ElementType::kF64) {
    return std::forward<Fn>(fn)(double{});
  }
  if (ir::IsFloat(result)) return std::forward<Fn>(fn)(float{});
  if (result == ElementType::kPred) return std::forward<Fn>(fn)(Logical{});
  return std::forward<Fn>(fn)(uint64_t{});
}

template <typename Acc>
Acc MultiplyAdd(Acc sum, Acc a, Acc b) {
  if constexpr (std::is_same_v<Acc, Logical>) {
    return {sum.value || (a.value && b.value)};
  } else {
    return sum + a * b;
  }
}

// The elements of `literal`, row-major, converted to `Acc`.
template <typename Acc>
std::vector<Acc> ToAccumulator(const Literal& literal);

// Stores `values` (row-major, one per element) into `out`, converting to
// its element type.
template <typename Acc>
void FromAccumulator(absl::Span<const Acc> values, Literal& out);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_ACCUMULATION_H_
