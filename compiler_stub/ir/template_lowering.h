// Lowers an op as a small StableHLO function written for it: for ops that
// are compositions of others with regions or several results (chlo.top_k
// is a sort and two slices), the composition is clearest as the program
// text a user would write. The function's arguments stand for the op's
// operands and its results become the op's; every op of it is lowered and
// verified as a user's would be, at the op's location.
#ifndef PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_
#define PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_

#include <string_view>

#include "absl/status/status.h"
#include "compiler_stub/ir/op_lowering.h"

namespace pjrtx::ir {

// Lowers `function_text` (one func.func) in place of `state.op` and sets
// state.composed to its results.
absl::Status LowerFromTemplate(OpState& state, std::string_view function_text);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_
