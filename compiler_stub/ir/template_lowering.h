// Lowers an op as a small StableHLO function written for it: for ops that
// are compositions of others with regions or several results (chlo.top_k
// is a sort and two slices), the composition is clearest as the program
// text a user would write. The function's arguments stand for the op's
// operands and its results become the op's; every op of it is lowered and
// verified as a user's would be, at the op's location.
#ifndef PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_
#define PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "compiler_stub/ir/op_lowering.h"

namespace pjrtx::ir {

// Spellings for template text: "tensor<2x3xf32>" and "array<i64: 1, 2>".
inline std::string TensorText(const std::vector<int64_t>& dims,
                              ElementType type) {
  return Shape{type, dims}.ToString();
}
std::string ArrayText(const std::vector<int64_t>& values);

// Changes the parsed template before it is lowered (e.g. splices in the
// user's region where the template holds a placeholder).
using TemplateEdit = std::function<absl::Status(mlir::Function&)>;

// Lowers `function_text` (one func.func), after `edit` if any, in place of
// `state.op` and sets state.composed to its results.
absl::Status LowerFromTemplate(OpState& state, std::string_view function_text,
                               const TemplateEdit& edit = nullptr);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_TEMPLATE_LOWERING_H_
