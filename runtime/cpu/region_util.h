// Calling regions (reduce bodies, comparators, ...) from the kernels.
#ifndef PJRTX_RUNTIME_CPU_REGION_UTIL_H_
#define PJRTX_RUNTIME_CPU_REGION_UTIL_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// A rank-0 copy of element `i` of `literal`. Regions get copies rather
// than views so that a result they pass through stays valid however the
// kernel moves on.
Literal ScalarAt(const Literal& literal, int64_t i);

// Calls `region` and checks that it returned one scalar per entry of
// `result_types`, of that type, so kernels can copy the results into
// their outputs without further checks.
absl::StatusOr<std::vector<Literal>> CallRegion(
    const RegionFn& region, absl::Span<const Literal> args,
    absl::Span<const ElementType> result_types);

// Calls a region returning one PRED (a comparator or a select).
absl::StatusOr<bool> CallPredicate(const RegionFn& region,
                                   absl::Span<const Literal> args);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_REGION_UTIL_H_
