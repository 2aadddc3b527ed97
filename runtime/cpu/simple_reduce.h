// Reductions whose body is one binary op, without calling the body.
#ifndef PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_
#define PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_

#include <optional>

#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// The binary op a reduce body applies, when the body is exactly
// `return op(param0, param1)` (either order; add, multiply, maximum,
// minimum, and, or) with nothing captured; nullopt otherwise.
std::optional<ir::BinaryOp> SimpleReducer(const ir::Computation& body);

// Reduces `input` over `dimensions` with `op`, starting from `init`, in
// typed loops. Returns nullopt for element types or ops it does not cover
// (the caller then runs the body per element).
std::optional<Literal> SimpleReduce(ir::BinaryOp op, const Literal& input,
                                    const Literal& init,
                                    absl::Span<const int64_t> dimensions,
                                    const Shape& result);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_
