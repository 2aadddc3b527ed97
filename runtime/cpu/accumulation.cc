#include "runtime/cpu/accumulation.h"

#include <type_traits>

namespace pjrtx::cpu {

template <typename Acc>
std::vector<Acc> ToAccumulator(const Literal& literal) {
  const int64_t n = literal.num_elements();
  const ElementType type = literal.type();
  std::vector<Acc> values(n);
  for (int64_t i = 0; i < n; ++i) {
    if constexpr (std::is_same_v<Acc, Logical>) {
      values[i].value =
          ir::IsFloat(type) ? literal.GetFloat(i) != 0 : literal.GetInt(i) != 0;
    } else if constexpr (std::is_same_v<Acc, uint64_t>) {
      values[i] = ir::IsUnsignedInt(type)
                      ? literal.GetUInt(i)
                      : static_cast<uint64_t>(literal.GetInt(i));
    } else {
      values[i] = static_cast<Acc>(literal.GetFloat(i));
    }
  }
  return values;
}

template <typename Acc>
void FromAccumulator(absl::Span<const Acc> values, Literal& out) {
  for (size_t i = 0; i < values.size(); ++i) {
    if constexpr (std::is_same_v<Acc, Logical>) {
      out.SetInt(i, values[i].value ? 1 : 0);
    } else if constexpr (std::is_same_v<Acc, uint64_t>) {
      // SetInt narrows to the type's width, wrapping as the spec's integer
      // arithmetic does.
      out.SetInt(i, static_cast<int64_t>(values[i]));
    } else {
      out.SetFloat(i, values[i]);
    }
  }
}

template std::vector<double> ToAccumulator(const Literal&);
template std::vector<float> ToAccumulator(const Literal&);
template std::vector<uint64_t> ToAccumulator(const Literal&);
template std::vector<Logical> ToAccumulator(const Literal&);
template void FromAccumulator(absl::Span<const double>, Literal&);
template void FromAccumulator(absl::Span<const float>, Literal&);
template void FromAccumulator(absl::Span<const uint64_t>, Literal&);
template void FromAccumulator(absl::Span<const Logical>, Literal&);

}  // namespace pjrtx::cpu
