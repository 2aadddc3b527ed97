// Runs kFusedReduce: a reduction that computes its input as it reads it.
#ifndef PJRTX_RUNTIME_CPU_FUSED_REDUCE_H_
#define PJRTX_RUNTIME_CPU_FUSED_REDUCE_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// `operands` are the instruction's: the prologue's inputs, then the init
// value; `reducer` is its region and `region` calls it. A one-op reducer
// over a type the typed loops cover evaluates the prologue a chunk at a
// time, in cache, as the reduction consumes it; anything else materializes
// the prologue's result and reduces it as an unfused reduce would.
absl::StatusOr<Literal> RunFusedReduce(const ir::Instruction& inst,
                                       absl::Span<const Literal> operands,
                                       const ir::Computation& reducer,
                                       const RegionFn& region);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_FUSED_REDUCE_H_
