#include "runtime/cpu/fused_reduce.h"

#include <optional>
#include <utility>
#include <vector>

#include "runtime/cpu/fused_elementwise.h"
#include "runtime/cpu/simple_reduce.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

absl::StatusOr<Literal> RunFusedReduce(const ir::Instruction& inst,
                                       absl::Span<const Literal> operands,
                                       const ir::Computation& reducer,
                                       const RegionFn& region) {
  const ir::OpAttributes& a = inst.attributes;
  const Shape& shape = a.fused_shape;
  const Literal& init = operands.back();
  const absl::Span<const Literal> inputs = operands.first(operands.size() - 1);
  const Shape& result = inst.result_types[0].shape;
  if (std::optional<ir::BinaryOp> op = SimpleReducer(reducer)) {
    std::vector<Literal> views(inputs.size());
    auto produce = [&](int64_t start, int64_t length,
                       void* out) -> absl::Status {
      // Each tensor input viewed over the chunk (all share the prologue's
      // row-major order); rank-0 inputs are read at every element as is.
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (inputs[i].dims().empty()) {
          views[i] = Literal::View(inputs[i].shape(),
                                   const_cast<uint8_t*>(inputs[i].data()));
          continue;
        }
        const size_t element = ir::StorageSize(inputs[i].type());
        views[i] = Literal::View(
            Shape{inputs[i].type(), {length}},
            const_cast<uint8_t*>(inputs[i].data()) + start * element);
      }
      Literal chunk = Literal::View(Shape{shape.type, {length}}, out);
      return RunFusedElementwise(a.fused, views, absl::MakeSpan(&chunk, 1));
    };
    std::optional<absl::StatusOr<Literal>> out =
        SimpleReduceProduced(*op, shape, produce, init, a.dims, result);
    if (out) return *std::move(out);
  }
  Literal input = Literal::ForOverwrite(shape);
  PJRTX_RETURN_IF_ERROR(
      RunFusedElementwise(a.fused, inputs, absl::MakeSpan(&input, 1)));
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<Literal> out,
      Reduce(absl::MakeConstSpan(&input, 1), absl::MakeConstSpan(&init, 1),
             a.dims, region, {result}));
  return std::move(out[0]);
}

}  // namespace pjrtx::cpu
