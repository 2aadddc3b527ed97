#include "runtime/cpu/fused_elementwise.h"

#include <algorithm>
#include <cstring>
#include <memory>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/fused_f32.h"
#include "runtime/cpu/kernels.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

// Elements per tile: 16 Ki keeps a dozen f32 registers within L2.
constexpr int64_t kTile = 16 * 1024;

Shape TileShape(ElementType type, int64_t length) {
  return Shape{type, {length}};
}

// Bodies of f32 arithmetic (the common case: activations, scaling, bias,
// clipping) run register-resident; see fused_f32.h.
bool TryF32FastPath(const ir::FusedBody& body,
                    absl::Span<const Literal* const> inputs,
                    absl::Span<Literal* const> outputs) {
  constexpr size_t kMaxArrays = 16;
  if (inputs.size() > kMaxArrays || outputs.size() > kMaxArrays) return false;
  const float* input_data[kMaxArrays];
  bool input_is_scalar[kMaxArrays];
  float* output_data[kMaxArrays];
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i]->type() != ElementType::kF32) return false;
    input_data[i] = inputs[i]->as<float>();
    input_is_scalar[i] = inputs[i]->dims().empty();
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (outputs[o]->type() != ElementType::kF32) return false;
    output_data[o] = outputs[o]->as<float>();
  }
  return RunFusedF32(body, {input_data, input_is_scalar, output_data,
                            outputs[0]->num_elements()});
}

absl::StatusOr<Literal> RunStep(const ir::FusedStep& step,
                                const std::vector<Literal>& regs,
                                int64_t length) {
  auto in = [&](size_t i) -> const Literal& { return regs[step.inputs[i]]; };
  const Shape result = TileShape(step.type, length);
  switch (step.opcode) {
    case ir::OpCode::kUnary:
      return Unary(step.unary, in(0), result);
    case ir::OpCode::kBinary:
      return Binary(step.binary, in(0), in(1), result);
    case ir::OpCode::kCompare:
      return Compare(step.comparison, step.comparison_type, in(0), in(1));
    case ir::OpCode::kSelect:
      return Select(in(0), in(1), in(2));
    case ir::OpCode::kClamp:
      return Clamp(in(0), in(1), in(2));
    case ir::OpCode::kConvert:
      return Convert(in(0), step.type);
    default:
      return absl::InternalError("unexpected op in a fused body");
  }
}

}  // namespace

absl::Status RunFusedElementwise(const ir::FusedBody& body,
                                 absl::Span<const Literal* const> inputs,
                                 absl::Span<Literal* const> outputs) {
  if (outputs.empty()) return absl::OkStatus();
  if (TryF32FastPath(body, inputs, outputs)) return absl::OkStatus();
  const int64_t n = outputs[0]->num_elements();
  // Rank-0 inputs are broadcast once into a tile; a shorter last tile views
  // its prefix.
  std::vector<Literal> scalar_tiles(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i]->dims().empty()) continue;
    const int64_t length = std::min(kTile, n);
    scalar_tiles[i] =
        BroadcastInDim(*inputs[i], TileShape(inputs[i]->type(), length), {});
  }
  std::vector<Literal> regs(body.num_inputs + body.steps.size());
  for (int64_t start = 0; start < n; start += kTile) {
    const int64_t length = std::min(kTile, n - start);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const bool scalar = inputs[i]->dims().empty();
      const Literal& source = scalar ? scalar_tiles[i] : *inputs[i];
      const int64_t offset = scalar ? 0 : start;
      const size_t element = ir::StorageSize(source.type());
      regs[i] =
          Literal::View(TileShape(source.type(), length),
                        const_cast<uint8_t*>(source.data()) + offset * element);
    }
    for (size_t s = 0; s < body.steps.size(); ++s) {
      PJRTX_ASSIGN_OR_RETURN(Literal value,
                             RunStep(body.steps[s], regs, length));
      regs[body.num_inputs + s] = std::move(value);
    }
    for (size_t o = 0; o < outputs.size(); ++o) {
      const Literal& value = regs[body.outputs[o]];
      const size_t element = ir::StorageSize(value.type());
      std::memcpy(outputs[o]->data() + start * element, value.data(),
                  length * element);
    }
  }
  return absl::OkStatus();
}

absl::Status RunFusedElementwise(const ir::FusedBody& body,
                                 absl::Span<const Literal> inputs,
                                 absl::Span<Literal> outputs) {
  absl::InlinedVector<const Literal*, 8> input_pointers;
  for (const Literal& input : inputs) input_pointers.push_back(&input);
  absl::InlinedVector<Literal*, 4> output_pointers;
  for (Literal& output : outputs) output_pointers.push_back(&output);
  return RunFusedElementwise(body, input_pointers, output_pointers);
}

}  // namespace pjrtx::cpu
