// Reductions whose body is one binary op, without calling the body.
#ifndef PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_
#define PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_

#include <optional>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/program.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// The binary op a reduce body applies, when the body is exactly
// `return op(param0, param1)` (either order; add, multiply, maximum,
// minimum, and, or) with nothing captured; nullopt otherwise.
std::optional<ir::BinaryOp> SimpleReducer(const ir::Computation& body);

// Reduces `input` over `dimensions` with `op`, starting from `init`, in
// typed loops; floating-point sums along the row cascade (cascade_sum.h),
// so their error grows with the log of the row's length. Returns nullopt
// for element types or ops it does not cover (the caller then runs the
// body per element).
std::optional<Literal> SimpleReduce(ir::BinaryOp op, const Literal& input,
                                    const Literal& init,
                                    absl::Span<const int64_t> dimensions,
                                    const Shape& result);

// Writes input elements [start, start + length), in row-major order, to
// `out` (of the input's element type).
using ChunkProducer =
    absl::FunctionRef<absl::Status(int64_t start, int64_t length, void* out)>;

// SimpleReduce over an input of `input_shape` that `produce` computes a
// chunk at a time as the reduction reaches it (a fused producer), in the
// same order of operations, so the results are the same bits. nullopt for
// what SimpleReduce does not cover (nothing is produced then); the
// producer's error if it fails.
std::optional<absl::StatusOr<Literal>> SimpleReduceProduced(
    ir::BinaryOp op, const Shape& input_shape, ChunkProducer produce,
    const Literal& init, absl::Span<const int64_t> dimensions,
    const Shape& result);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_SIMPLE_REDUCE_H_
