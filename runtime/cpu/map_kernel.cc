// map: applies a region elementwise.
#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"
#include "runtime/cpu/region_util.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

absl::StatusOr<Literal> Map(absl::Span<const Literal> inputs,
                            const RegionFn& fn, const Shape& result) {
  Literal out(result);
  std::vector<Literal> args(inputs.size());
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    for (size_t k = 0; k < inputs.size(); ++k) {
      args[k] = ScalarAt(inputs[k], i);
    }
    PJRTX_ASSIGN_OR_RETURN(std::vector<Literal> values,
                           CallRegion(fn, args, {result.type}));
    out.CopyElement(i, values[0], 0);
  }
  return out;
}

}  // namespace pjrtx::cpu
