// reduce: folds the reduced dimensions of variadic inputs with a region.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/index_util.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/region_util.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

absl::StatusOr<std::vector<Literal>> Reduce(
    absl::Span<const Literal> inputs, absl::Span<const Literal> inits,
    absl::Span<const int64_t> dimensions, const RegionFn& body,
    absl::Span<const Shape> results) {
  const std::vector<int64_t>& dims = inputs[0].dims();
  const std::vector<int64_t> strides = inputs[0].Strides();
  // Kept dimensions index the result; reduced ones, walked in ascending
  // order, visit each result's elements in the inputs' row-major order.
  std::vector<int64_t> kept_dims, kept_strides, reduced_dims, reduced_strides;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (Contains(dimensions, d)) {
      reduced_dims.push_back(dims[d]);
      reduced_strides.push_back(strides[d]);
    } else {
      kept_dims.push_back(dims[d]);
      kept_strides.push_back(strides[d]);
    }
  }
  std::vector<ElementType> types;
  std::vector<Literal> outs;
  for (const Shape& shape : results) {
    types.push_back(shape.type);
    outs.emplace_back(shape);
  }

  for (IndexIterator out_it(kept_dims); !out_it.done(); out_it.Next()) {
    const int64_t base = Offset(out_it.index(), kept_strides);
    std::vector<Literal> accumulators(inits.begin(), inits.end());
    for (IndexIterator it(reduced_dims); !it.done(); it.Next()) {
      const int64_t source = base + Offset(it.index(), reduced_strides);
      std::vector<Literal> args = accumulators;
      for (const Literal& input : inputs) {
        args.push_back(ScalarAt(input, source));
      }
      PJRTX_ASSIGN_OR_RETURN(accumulators, CallRegion(body, args, types));
    }
    for (size_t k = 0; k < outs.size(); ++k) {
      outs[k].CopyElement(out_it.linear(), accumulators[k], 0);
    }
  }
  return outs;
}

}  // namespace pjrtx::cpu
