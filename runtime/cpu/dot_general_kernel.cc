// dot_general: batched products summed over contracting dimensions.
#include <cstdint>
#include <vector>

#include "absl/types/span.h"
#include "runtime/cpu/accumulation.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {
namespace {

int64_t Product(const Literal& x, absl::Span<const int64_t> dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= x.dims()[d];
  return product;
}

// `x`'s elements as Acc, transposed to [batching..., free...,
// contracting...] so that every dot product reads two contiguous rows.
template <typename Acc>
std::vector<Acc> Arrange(const Literal& x, absl::Span<const int64_t> batching,
                         absl::Span<const int64_t> free,
                         absl::Span<const int64_t> contracting) {
  const std::vector<Acc> values = ToAccumulator<Acc>(x);
  const std::vector<int64_t> strides = x.Strides();
  std::vector<int64_t> order_dims;
  std::vector<int64_t> order_strides;
  for (absl::Span<const int64_t> group : {batching, free, contracting}) {
    for (int64_t d : group) {
      order_dims.push_back(x.dims()[d]);
      order_strides.push_back(strides[d]);
    }
  }
  std::vector<Acc> arranged(values.size());
  for (IndexIterator it(order_dims); !it.done(); it.Next()) {
    arranged[it.linear()] = values[Offset(it.index(), order_strides)];
  }
  return arranged;
}

template <typename Acc>
Literal DotGeneralIn(const Literal& lhs, const Literal& rhs,
                     const DotDimensions& dims, const Shape& result) {
  const std::vector<int64_t> lhs_free = ir::FreeDimensions(
      lhs.shape().rank(), dims.lhs_batching, dims.lhs_contracting);
  const std::vector<int64_t> rhs_free = ir::FreeDimensions(
      rhs.shape().rank(), dims.rhs_batching, dims.rhs_contracting);
  const int64_t batch = Product(lhs, dims.lhs_batching);
  const int64_t m = Product(lhs, lhs_free);
  const int64_t n = Product(rhs, rhs_free);
  const int64_t k = Product(lhs, dims.lhs_contracting);
  const std::vector<Acc> a =
      Arrange<Acc>(lhs, dims.lhs_batching, lhs_free, dims.lhs_contracting);
  const std::vector<Acc> b =
      Arrange<Acc>(rhs, dims.rhs_batching, rhs_free, dims.rhs_contracting);

  // The result is [batching..., lhs free..., rhs free...], row-major.
  std::vector<Acc> sums(batch * m * n);
  for (int64_t p = 0; p < batch; ++p) {
    for (int64_t i = 0; i < m; ++i) {
      const Acc* a_row = a.data() + (p * m + i) * k;
      for (int64_t j = 0; j < n; ++j) {
        const Acc* b_row = b.data() + (p * n + j) * k;
        Acc sum{};
        for (int64_t l = 0; l < k; ++l) {
          sum = MultiplyAdd(sum, a_row[l], b_row[l]);
        }
        sums[(p * m + i) * n + j] = sum;
      }
    }
  }
  Literal out(result);
  FromAccumulator<Acc>(sums, out);
  return out;
}

}  // namespace

Literal DotGeneral(const Literal& lhs, const Literal& rhs,
                   const DotDimensions& dims, const Shape& result) {
  return DispatchAccumulator(result.type, [&](auto acc) {
    return DotGeneralIn<decltype(acc)>(lhs, rhs, dims, result);
  });
}

}  // namespace pjrtx::cpu
