// The operations of StableHLO on Literals: the reference kernels of the CPU
// engine. Semantics are the StableHLO spec's (openxla/stablehlo,
// docs/spec.md); shapes and types have been verified before a kernel runs,
// so kernels may assume consistent inputs, but they never crash on data
// (out-of-range indices are clamped or skipped exactly as the spec says;
// integer division by zero and overflow follow the spec).
//
// Results are new Literals of `result` shape unless stated.
#ifndef PJRTX_RUNTIME_CPU_KERNELS_H_
#define PJRTX_RUNTIME_CPU_KERNELS_H_

#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/ir/op_attributes.h"
#include "runtime/cpu/literal.h"

namespace pjrtx::cpu {

// A region (reduce body, comparator, ...) called on scalar (rank-0)
// Literals; returns its results.
using RegionFn = std::function<absl::StatusOr<std::vector<Literal>>(
    absl::Span<const Literal>)>;

// ------------------------------ Elementwise ------------------------------

using ir::BinaryOp;
using ir::ComparisonDirection;
using ir::ComparisonType;
using ir::UnaryOp;

// `result` has the operand's shape (PRED for kIsFinite).
absl::StatusOr<Literal> Unary(UnaryOp op, const Literal& x,
                              const Shape& result);
absl::StatusOr<Literal> Binary(BinaryOp op, const Literal& lhs,
                               const Literal& rhs, const Shape& result);
Literal Compare(ComparisonDirection direction, ComparisonType type,
                const Literal& lhs, const Literal& rhs);
// `pred` is rank 0 or the shape of the other operands.
Literal Select(const Literal& pred, const Literal& on_true,
               const Literal& on_false);
// `min` and `max` are rank 0 or the operand's shape.
Literal Clamp(const Literal& min, const Literal& operand, const Literal& max);
// a * b + c rounded once to the element type (IEEE fusedMultiplyAdd), for
// floating-point operands of one shape.
Literal Fma(const Literal& a, const Literal& b, const Literal& c);
// Element type conversion (float->int truncates toward zero and saturates;
// NaN->0; int->narrower int wraps; anything->PRED is `!= 0`).
Literal Convert(const Literal& operand, ElementType to);
// Reinterprets bits; the element widths may differ (the last dimension
// then grows or shrinks), as the spec's bitcast_convert.
absl::StatusOr<Literal> BitcastConvert(const Literal& operand,
                                       const Shape& result);
Literal ReducePrecision(const Literal& operand, int exponent_bits,
                        int mantissa_bits);

// ------------------------------- Structure --------------------------------

Literal Iota(const Shape& result, int64_t dimension);
Literal BroadcastInDim(const Literal& operand, const Shape& result,
                       absl::Span<const int64_t> broadcast_dimensions);
Literal Reshape(const Literal& operand, const Shape& result);
Literal Transpose(const Literal& operand, absl::Span<const int64_t> permutation,
                  const Shape& result);
Literal Slice(const Literal& operand, absl::Span<const int64_t> start,
              absl::Span<const int64_t> limit,
              absl::Span<const int64_t> strides, const Shape& result);
// Start indices clamped to [0, dim - size] as the spec says.
Literal DynamicSlice(const Literal& operand,
                     absl::Span<const int64_t> start_indices,
                     absl::Span<const int64_t> slice_sizes,
                     const Shape& result);
Literal DynamicUpdateSlice(const Literal& operand, const Literal& update,
                           absl::Span<const int64_t> start_indices);
Literal Concatenate(absl::Span<const Literal> inputs, int64_t dimension,
                    const Shape& result);
// Negative low/high padding removes elements.
Literal Pad(const Literal& operand, const Literal& padding_value,
            absl::Span<const int64_t> low, absl::Span<const int64_t> high,
            absl::Span<const int64_t> interior, const Shape& result);
Literal Reverse(const Literal& operand, absl::Span<const int64_t> dimensions);

// ---------------------------- Linear algebra -----------------------------

using ir::DotDimensions;
// Exact in the result type for floats (accumulates in double for f32/f64
// and in float for narrower types); integers accumulate in int64 and wrap.
Literal DotGeneral(const Literal& lhs, const Literal& rhs,
                   const DotDimensions& dims, const Shape& result);

using ir::ConvolutionDimensions;
using ir::ConvolutionWindow;
Literal Convolution(const Literal& lhs, const Literal& rhs,
                    const ConvolutionDimensions& dims,
                    const ConvolutionWindow& window,
                    int64_t feature_group_count, int64_t batch_group_count,
                    const Shape& result);

using ir::TriangularSolveOptions;
// Solves op(a) x = b or x op(a) = b per batch (see TriangularSolveOptions)
// by substitution in double; the result has b's shape. A zero on the
// diagonal gives infinities or NaNs, as IEEE division does.
Literal TriangularSolve(const Literal& a, const Literal& b,
                        const TriangularSolveOptions& options);

// ------------------------------ Reductions --------------------------------

// Variadic reduce over `dimensions`; `body` takes (accumulators...,
// elements...) and returns the new accumulators.
absl::StatusOr<std::vector<Literal>> Reduce(
    absl::Span<const Literal> inputs, absl::Span<const Literal> inits,
    absl::Span<const int64_t> dimensions, const RegionFn& body,
    absl::Span<const Shape> results);

using ir::WindowSpec;
absl::StatusOr<std::vector<Literal>> ReduceWindow(
    absl::Span<const Literal> inputs, absl::Span<const Literal> inits,
    const WindowSpec& window, const RegionFn& body,
    absl::Span<const Shape> results);

absl::StatusOr<Literal> SelectAndScatter(
    const Literal& operand, const Literal& source, const Literal& init_value,
    const WindowSpec& window, const RegionFn& select, const RegionFn& scatter,
    const Shape& result);

// Sorts along `dimension`; `comparator` takes (a0, b0, a1, b1, ...) and
// returns a PRED "a before b".
absl::StatusOr<std::vector<Literal>> Sort(absl::Span<const Literal> inputs,
                                          int64_t dimension, bool is_stable,
                                          const RegionFn& comparator);

// Applies `fn` elementwise over `inputs` (all the same shape).
absl::StatusOr<Literal> Map(absl::Span<const Literal> inputs,
                            const RegionFn& fn, const Shape& result);

// ---------------------------- Gather, scatter -----------------------------

using ir::GatherDimensions;
Literal Gather(const Literal& operand, const Literal& start_indices,
               const GatherDimensions& dims,
               absl::Span<const int64_t> slice_sizes, const Shape& result);

using ir::ScatterDimensions;
// `update` takes (current values..., update values...) and returns the new
// values.
absl::StatusOr<std::vector<Literal>> Scatter(absl::Span<const Literal> inputs,
                                             const Literal& scatter_indices,
                                             absl::Span<const Literal> updates,
                                             const ScatterDimensions& dims,
                                             const RegionFn& update,
                                             absl::Span<const Shape> results);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_KERNELS_H_
