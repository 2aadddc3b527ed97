#include "runtime/collectives/output_dims.h"

#include "absl/strings/str_cat.h"
#include "runtime/collectives/operation_header.h"

namespace pjrtx::collectives {

absl::StatusOr<std::vector<int64_t>> CollectiveOutputDims(
    PJRTX_CollectiveKind kind, const std::vector<int64_t>& dims, int64_t size) {
  const bool splits = kind == PJRTX_Collective_REDUCE_SCATTER ||
                      kind == PJRTX_Collective_ALL_TO_ALL;
  if ((splits || kind == PJRTX_Collective_ALL_GATHER) && dims.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(CollectiveKindName(kind),
                     " works along dimension 0, but the "
                     "inputs are scalars; expected rank >= 1"));
  }
  if (splits && dims[0] % size != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        CollectiveKindName(kind), " splits dimension 0 into ", size,
        " blocks, but it is ", dims[0], "; expected a multiple of ", size));
  }
  std::vector<int64_t> out = dims;
  if (kind == PJRTX_Collective_REDUCE_SCATTER) out[0] = dims[0] / size;
  if (kind == PJRTX_Collective_ALL_GATHER) out[0] = dims[0] * size;
  return out;
}

}  // namespace pjrtx::collectives
