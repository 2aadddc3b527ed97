// The shape a collective gives each rank, checked against what it needs.
#ifndef PJRTX_RUNTIME_COLLECTIVES_OUTPUT_DIMS_H_
#define PJRTX_RUNTIME_COLLECTIVES_OUTPUT_DIMS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::collectives {

// The output dimensions of `kind` over `size` ranks for inputs of `dims`:
// reduce-scatter divides dimension 0 by `size`, all-gather multiplies it,
// the others keep the input's. INVALID_ARGUMENT (naming the operation) for
// scalars where dimension 0 is split or gathered, and for a dimension 0
// that `size` does not divide where it is split.
absl::StatusOr<std::vector<int64_t>> CollectiveOutputDims(
    PJRTX_CollectiveKind kind, const std::vector<int64_t>& dims, int64_t size);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_OUTPUT_DIMS_H_
