#include "runtime/cpu/fused_elementwise.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "absl/strings/str_cat.h"
#include "runtime/cpu/element_traits.h"
#include "runtime/cpu/kernels.h"
#include "runtime/cpu/stream_store.h"

namespace pjrtx::cpu {
namespace {

// Elements per tile: 16 Ki keeps a dozen f32 registers within L2.
constexpr int64_t kTile = 16 * 1024;

Shape TileShape(ElementType type, int64_t length) {
  return Shape{type, {length}};
}

// ---- f32 fast path ----------------------------------------------------
// Bodies of f32 arithmetic (the common case: activations, scaling, bias,
// clipping) run as tight loops over L1-sized tiles, reading rank-0 inputs
// as scalars and writing results straight into the outputs.

constexpr int64_t kF32Tile = 1024;

bool IsF32FastStep(const ir::FusedStep& step) {
  if (step.type != ElementType::kF32) return false;
  if (step.opcode == ir::OpCode::kUnary) {
    return step.unary == ir::UnaryOp::kNegate ||
           step.unary == ir::UnaryOp::kAbs;
  }
  if (step.opcode != ir::OpCode::kBinary) return false;
  switch (step.binary) {
    case ir::BinaryOp::kAdd:
    case ir::BinaryOp::kSubtract:
    case ir::BinaryOp::kMultiply:
    case ir::BinaryOp::kDivide:
    case ir::BinaryOp::kMaximum:
    case ir::BinaryOp::kMinimum:
      return true;
    default:
      return false;
  }
}

// The reference Maximum/Minimum (NaN wins, -0 < +0) in a form the compiler
// vectorizes: selects instead of early returns.
__attribute__((always_inline)) inline float MaxF32(float a, float b) {
  float m = a > b ? a : b;
  m = a == b ? (std::signbit(a) ? b : a) : m;
  m = b != b ? b : m;
  return a != a ? a : m;
}
__attribute__((always_inline)) inline float MinF32(float a, float b) {
  float m = a < b ? a : b;
  m = a == b ? (std::signbit(a) ? a : b) : m;
  m = b != b ? b : m;
  return a != a ? a : m;
}

// One operand of a step over a tile: a pointer (stride 1) or a scalar.
struct F32Operand {
  const float* data = nullptr;
  float scalar = 0;
};

// Always inlined, so that each per-ISA copy of the step loops compiles
// them for its own instruction set.
template <typename Fn>
__attribute__((always_inline)) inline void Apply2(const F32Operand& a,
                                                  const F32Operand& b,
                                                  float* __restrict out,
                                                  int64_t n, Fn fn) {
  if (a.data && b.data) {
    const float* __restrict x = a.data;
    const float* __restrict y = b.data;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(x[i], y[i]);
  } else if (a.data) {
    const float* __restrict x = a.data;
    const float y = b.scalar;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(x[i], y);
  } else if (b.data) {
    const float x = a.scalar;
    const float* __restrict y = b.data;
    for (int64_t i = 0; i < n; ++i) out[i] = fn(x, y[i]);
  } else {
    const float v = fn(a.scalar, b.scalar);
    for (int64_t i = 0; i < n; ++i) out[i] = v;
  }
}

// The step loops, compiled once per instruction set below; RunF32Step
// picks one by the CPU's features on first use. (Explicit dispatch rather
// than GCC's target_clones: its ifunc resolver runs before sanitizer
// runtimes are initialized, which ThreadSanitizer does not survive.)
__attribute__((always_inline)) inline void F32StepBody(
    const ir::FusedStep& step, const F32Operand* in, float* out, int64_t n) {
  if (step.opcode == ir::OpCode::kUnary) {
    const F32Operand zero{nullptr, 0.0f};
    if (step.unary == ir::UnaryOp::kNegate) {
      Apply2(in[0], zero, out, n, [](float x, float) { return -x; });
    } else {
      Apply2(in[0], zero, out, n, [](float x, float) { return std::fabs(x); });
    }
    return;
  }
  switch (step.binary) {
    case ir::BinaryOp::kAdd:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return x + y; });
    case ir::BinaryOp::kSubtract:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return x - y; });
    case ir::BinaryOp::kMultiply:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return x * y; });
    case ir::BinaryOp::kDivide:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return x / y; });
    case ir::BinaryOp::kMaximum:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return MaxF32(x, y); });
    default:
      return Apply2(in[0], in[1], out, n,
                    [](float x, float y) { return MinF32(x, y); });
  }
}

__attribute__((target("avx512f"))) void F32StepAvx512(const ir::FusedStep& step,
                                                      const F32Operand* in,
                                                      float* out, int64_t n) {
  F32StepBody(step, in, out, n);
}
__attribute__((target("avx2"))) void F32StepAvx2(const ir::FusedStep& step,
                                                 const F32Operand* in,
                                                 float* out, int64_t n) {
  F32StepBody(step, in, out, n);
}
void F32StepBaseline(const ir::FusedStep& step, const F32Operand* in,
                     float* out, int64_t n) {
  F32StepBody(step, in, out, n);
}

void RunF32Step(const ir::FusedStep& step, const F32Operand* in, float* out,
                int64_t n) {
  using StepFn =
      void (*)(const ir::FusedStep&, const F32Operand*, float*, int64_t);
  static const StepFn run = __builtin_cpu_supports("avx512f") ? F32StepAvx512
                            : __builtin_cpu_supports("avx2")  ? F32StepAvx2
                                                              : F32StepBaseline;
  run(step, in, out, n);
}

bool TryF32FastPath(const ir::FusedBody& body, absl::Span<const Literal> inputs,
                    absl::Span<Literal> outputs) {
  for (const Literal& in : inputs) {
    if (in.type() != ElementType::kF32) return false;
  }
  for (const ir::FusedStep& step : body.steps) {
    if (!IsF32FastStep(step)) return false;
  }
  const int64_t n = outputs[0].num_elements();
  const size_t num_regs = body.num_inputs + body.steps.size();
  // Every register's tile lives in scratch (L1); outputs are streamed to
  // memory from there.
  std::unique_ptr<float[]> scratch(new float[body.steps.size() * kF32Tile]);
  std::vector<F32Operand> regs(num_regs);
  for (int r = 0; r < body.num_inputs; ++r) {
    if (inputs[r].dims().empty()) regs[r].scalar = inputs[r].as<float>()[0];
  }
  for (int64_t start = 0; start < n; start += kF32Tile) {
    const int64_t length = std::min(kF32Tile, n - start);
    for (int r = 0; r < body.num_inputs; ++r) {
      if (inputs[r].dims().empty()) continue;
      regs[r].data = inputs[r].as<float>() + start;
      // Keep memory streaming while this tile computes: fetch the input
      // two tiles ahead, one cache line at a time.
      const int64_t ahead = start + 2 * kF32Tile;
      if (ahead < n) {
        const float* next = inputs[r].as<float>() + ahead;
        const int64_t lines = std::min(kF32Tile, n - ahead) / 16;
        for (int64_t l = 0; l < lines; ++l) __builtin_prefetch(next + 16 * l);
      }
    }
    for (size_t s = 0; s < body.steps.size(); ++s) {
      const int reg = body.num_inputs + static_cast<int>(s);
      float* out = scratch.get() + s * kF32Tile;
      F32Operand in[2];
      for (size_t k = 0; k < body.steps[s].inputs.size() && k < 2; ++k) {
        in[k] = regs[body.steps[s].inputs[k]];
      }
      RunF32Step(body.steps[s], in, out, length);
      regs[reg] = F32Operand{out, 0.0f};
    }
    for (size_t o = 0; o < body.outputs.size(); ++o) {
      StreamStore(outputs[o].as<float>() + start, regs[body.outputs[o]].data,
                  length);
    }
  }
  StreamFence();
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
    case ir::OpCode::kConvert:
      return Convert(in(0), step.type);
    default:
      return absl::InternalError("unexpected op in a fused body");
  }
}

}  // namespace

absl::Status RunFusedElementwise(const ir::FusedBody& body,
                                 absl::Span<const Literal> inputs,
                                 absl::Span<Literal> outputs) {
  if (outputs.empty()) return absl::OkStatus();
  if (TryF32FastPath(body, inputs, outputs)) return absl::OkStatus();
  const int64_t n = outputs[0].num_elements();
  // Rank-0 inputs are broadcast once into a tile; a shorter last tile views
  // its prefix.
  std::vector<Literal> scalar_tiles(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (!inputs[i].dims().empty()) continue;
    const int64_t length = std::min(kTile, n);
    scalar_tiles[i] =
        BroadcastInDim(inputs[i], TileShape(inputs[i].type(), length), {});
  }
  std::vector<Literal> regs(body.num_inputs + body.steps.size());
  for (int64_t start = 0; start < n; start += kTile) {
    const int64_t length = std::min(kTile, n - start);
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Literal& source =
          inputs[i].dims().empty() ? scalar_tiles[i] : inputs[i];
      const int64_t offset = inputs[i].dims().empty() ? 0 : start;
      const size_t element = ir::StorageSize(source.type());
      regs[i] =
          Literal::View(TileShape(source.type(), length),
                        const_cast<uint8_t*>(source.data()) + offset * element);
    }
    for (size_t s = 0; s < body.steps.size(); ++s) {
      absl::StatusOr<Literal> value = RunStep(body.steps[s], regs, length);
      if (!value.ok()) return value.status();
      regs[body.num_inputs + s] = *std::move(value);
    }
    for (size_t o = 0; o < outputs.size(); ++o) {
      const Literal& value = regs[body.outputs[o]];
      const size_t element = ir::StorageSize(value.type());
      std::memcpy(outputs[o].data() + start * element, value.data(),
                  length * element);
    }
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::cpu
