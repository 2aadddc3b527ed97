// Which entry arguments a run may donate, read from the argument
// attributes frameworks write: `tf.aliasing_output = k` (the argument's
// memory may become result k) and `jax.buffer_donor = true` (it may become
// a result of its shape and type).
#ifndef PJRTX_COMPILER_STUB_IR_INPUT_OUTPUT_ALIAS_H_
#define PJRTX_COMPILER_STUB_IR_INPUT_OUTPUT_ALIAS_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// One entry per argument of `function`: the index of the result its memory
// becomes, or kNotDonated. A buffer donor takes the first result of its
// type that no argument aliases yet (after the explicit aliases), and none
// when there is no such result: as XLA does, a donor no result can use is
// not donated. `lowered` is the function's computation, whose types the
// aliases are checked against. INVALID_ARGUMENT
// naming the argument for an alias to a result that does not exist, has
// another type, or is aliased twice, and for an attribute of another kind.
absl::StatusOr<std::vector<int64_t>> ParameterAliases(
    const mlir::Function& function, const Computation& lowered);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_INPUT_OUTPUT_ALIAS_H_
