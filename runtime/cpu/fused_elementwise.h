// Runs a fused elementwise body (ir::FusedBody) in one pass over memory.
#ifndef PJRTX_RUNTIME_CPU_FUSED_ELEMENTWISE_H_
#define PJRTX_RUNTIME_CPU_FUSED_ELEMENTWISE_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// Computes `body` over `inputs` (tensors of the outputs' dims, or rank-0
// values read at every element) into `outputs`, which the caller has made
// with the instruction's result shapes (they may be views of device
// memory). Works tile by tile, so every intermediate lives in cache and
// each input and output is touched once.
absl::Status RunFusedElementwise(const ir::FusedBody& body,
                                 absl::Span<const Literal> inputs,
                                 absl::Span<Literal> outputs);
// The same over pointers, so a caller holding its values elsewhere copies
// nothing; with f32 bodies this allocates nothing.
absl::Status RunFusedElementwise(const ir::FusedBody& body,
                                 absl::Span<const Literal* const> inputs,
                                 absl::Span<Literal* const> outputs);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_FUSED_ELEMENTWISE_H_
