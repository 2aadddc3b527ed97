#include "runtime/cpu/fused_elementwise.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/fused_f32.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/parallel_for.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {
namespace {

// Elements per tile: 16 Ki keeps a dozen f32 registers within L2.
constexpr int64_t kTile = 16 * 1024;

Shape TileShape(ElementType type, int64_t length) {
  return Shape{type, {length}};
}

// Arrays at least this long are split across cores (ParallelFor): below,
// waking a helper costs about what it saves.
constexpr int64_t kParallelElements = 64 * 1024;

// Bodies of f32 arithmetic (the common case: activations, scaling, bias,
// clipping, and ReLU's masks) run register-resident; see fused_f32.h. Long
// arrays run in chunks on several cores.
bool TryF32FastPath(const ir::FusedBody& body,
                    absl::Span<const Literal* const> inputs,
                    absl::Span<Literal* const> outputs) {
  constexpr size_t kMaxArrays = 16;
  if (inputs.size() > kMaxArrays || outputs.size() > kMaxArrays) return false;
  // f32 values, and pred masks (one byte an element).
  const auto fast_type = [](ElementType type) {
    return type == ElementType::kF32 || type == ElementType::kPred;
  };
  const uint8_t* input_data[kMaxArrays];
  bool input_is_scalar[kMaxArrays];
  bool input_is_mask[kMaxArrays];
  uint8_t* output_data[kMaxArrays];
  bool output_is_mask[kMaxArrays];
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!fast_type(inputs[i]->type())) return false;
    input_data[i] = inputs[i]->data();
    input_is_scalar[i] = inputs[i]->dims().empty();
    input_is_mask[i] = inputs[i]->type() == ElementType::kPred;
  }
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (!fast_type(outputs[o]->type())) return false;
    output_data[o] = outputs[o]->data();
    output_is_mask[o] = outputs[o]->type() == ElementType::kPred;
  }
  const int64_t n = outputs[0]->num_elements();
  // The arrays of elements [start, start + length).
  auto run_chunk = [&](int64_t start, int64_t length) {
    const void* chunk_inputs[kMaxArrays];
    void* chunk_outputs[kMaxArrays];
    for (size_t i = 0; i < inputs.size(); ++i) {
      const int64_t offset = input_is_scalar[i] ? 0 : start;
      chunk_inputs[i] =
          input_data[i] + offset * (input_is_mask[i] ? 1 : sizeof(float));
    }
    for (size_t o = 0; o < outputs.size(); ++o) {
      chunk_outputs[o] =
          output_data[o] + start * (output_is_mask[o] ? 1 : sizeof(float));
    }
    return RunFusedF32(body, {chunk_inputs, input_is_scalar, chunk_outputs,
                              length, input_is_mask, output_is_mask});
  };
  if (n < 2 * kParallelElements) return run_chunk(0, n);
  const int64_t chunks =
      std::min<int64_t>(n / kParallelElements, int64_t{4} * ParallelForWidth());
  // Whole 4 KiB pages per chunk keep every chunk's alignment the array's.
  constexpr int64_t kAlign = 1024;
  const int64_t chunk =
      ((n + chunks - 1) / chunks + kAlign - 1) / kAlign * kAlign;
  // The first chunk says whether the fast path takes the body at all.
  if (!run_chunk(0, chunk)) return false;
  ParallelFor(chunks - 1, [&](int64_t c) {
    const int64_t start = (c + 1) * chunk;
    if (start < n) run_chunk(start, std::min(chunk, n - start));
  });
  return true;
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
    case ir::OpCode::kFma:
      return Fma(in(0), in(1), in(2));
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
  // Tiles are independent: long arrays spread them over cores, each tile
  // with registers of its own.
  auto run_tile = [&](int64_t start) -> absl::Status {
    const int64_t length = std::min(kTile, n - start);
    std::vector<Literal> regs(body.num_inputs + body.steps.size());
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
    return absl::OkStatus();
  };
  const int64_t tiles = (n + kTile - 1) / kTile;
  if (n < 2 * kParallelElements) {
    for (int64_t t = 0; t < tiles; ++t) {
      PJRTX_RETURN_IF_ERROR(run_tile(t * kTile));
    }
    return absl::OkStatus();
  }
  std::mutex mu;
  absl::Status first_error;
  ParallelFor(tiles, [&](int64_t t) {
    absl::Status status = run_tile(t * kTile);
    if (status.ok()) return;
    std::lock_guard<std::mutex> lock(mu);
    if (first_error.ok()) first_error = std::move(status);
  });
  return first_error;
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
