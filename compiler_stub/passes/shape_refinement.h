// Shape refinement of shape-polymorphic programs (jax.export with symbolic
// dimensions: tensor<?x4xf32> arguments, get_dimension_size, shape
// assertions, stablehlo.dynamic_* custom calls), once the entry's actual
// argument shapes are known — what XLA's stablehlo-refine-shapes does
// before compiling such a module.
#ifndef PJRTX_COMPILER_STUB_PASSES_SHAPE_REFINEMENT_H_
#define PJRTX_COMPILER_STUB_PASSES_SHAPE_REFINEMENT_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// True when a function argument or result of `module` has a '?' dimension.
bool HasDynamicShapes(const mlir::Module& module);

// Specializes `module` for entry arguments of dimensions `argument_dims`
// (one list per argument): calls from the entry are inlined, integer values
// computed from shapes are folded into constants (so shape_assertion sees
// its predicate, and the shape operands of dynamic ops become constants),
// every '?' is replaced by its value, and the stablehlo.dynamic_top_k,
// stablehlo.dynamic_reduce_window and stablehlo.dynamic_rng_bit_generator
// custom calls become chlo.top_k, stablehlo.reduce_window and
// stablehlo.rng_bit_generator. The other functions are removed. Errors:
// INVALID_ARGUMENT for argument shapes that do not fit the entry's types,
// UNIMPLEMENTED for a '?' whose value it cannot compute.
absl::Status RefineShapes(
    mlir::Module& module, const std::string& entry,
    const std::vector<std::vector<int64_t>>& argument_dims);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_SHAPE_REFINEMENT_H_
