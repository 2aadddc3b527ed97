// The register-resident f32 path of fused elementwise bodies, against a
// per-element evaluation of the same body with the reference kernels'
// semantics, over lengths around its block size and values that trip up
// careless vector code (NaN, signed zeros, infinities).
#include "runtime/cpu/fused_f32.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace pjrtx::cpu {
namespace {

using ir::BinaryOp;
using ir::FusedBody;
using ir::FusedStep;
using ir::OpCode;
using ir::UnaryOp;

FusedStep Binary(BinaryOp op, int a, int b) {
  FusedStep step;
  step.opcode = OpCode::kBinary;
  step.binary = op;
  step.inputs = {a, b};
  return step;
}

FusedStep Unary(UnaryOp op, int a) {
  FusedStep step;
  step.opcode = OpCode::kUnary;
  step.unary = op;
  step.inputs = {a};
  return step;
}

FusedStep Compare(ir::ComparisonDirection direction, int a, int b) {
  FusedStep step;
  step.opcode = OpCode::kCompare;
  step.comparison = direction;
  step.inputs = {a, b};
  step.type = ir::ElementType::kPred;
  return step;
}

FusedStep Select(int mask, int on_true, int on_false) {
  FusedStep step;
  step.opcode = OpCode::kSelect;
  step.inputs = {mask, on_true, on_false};
  return step;
}

// StableHLO maximum/minimum: NaN propagates, -0 orders below +0.
float RefMax(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
float RefMin(float a, float b) {
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

float RefStep(const FusedStep& step, float a, float b) {
  if (step.opcode == OpCode::kUnary) {
    return step.unary == UnaryOp::kNegate ? -a : std::fabs(a);
  }
  switch (step.binary) {
    case BinaryOp::kAdd:
      return a + b;
    case BinaryOp::kSubtract:
      return a - b;
    case BinaryOp::kMultiply:
      return a * b;
    case BinaryOp::kDivide:
      return a / b;
    case BinaryOp::kMaximum:
      return RefMax(a, b);
    default:
      return RefMin(a, b);
  }
}

struct Case {
  FusedBody body;
  std::vector<std::vector<float>> inputs;  // One element: a scalar input.
};

std::vector<std::vector<float>> Reference(const Case& c, int64_t n) {
  std::vector<std::vector<float>> outputs(c.body.outputs.size(),
                                          std::vector<float>(n));
  std::vector<float> regs(c.body.num_inputs + c.body.steps.size());
  for (int64_t i = 0; i < n; ++i) {
    for (int r = 0; r < c.body.num_inputs; ++r) {
      regs[r] = c.inputs[r].size() == 1 ? c.inputs[r][0] : c.inputs[r][i];
    }
    for (size_t s = 0; s < c.body.steps.size(); ++s) {
      const FusedStep& step = c.body.steps[s];
      const float a = regs[step.inputs[0]];
      const float b = step.inputs.size() > 1 ? regs[step.inputs[1]] : 0.0f;
      regs[c.body.num_inputs + s] = RefStep(step, a, b);
    }
    for (size_t o = 0; o < c.body.outputs.size(); ++o) {
      outputs[o][i] = regs[c.body.outputs[o]];
    }
  }
  return outputs;
}

std::vector<float> Values(int64_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) {
    switch (rng() % 16) {
      case 0:
        x = std::numeric_limits<float>::quiet_NaN();
        break;
      case 1:
        x = -0.0f;
        break;
      case 2:
        x = 0.0f;
        break;
      case 3:
        x = -std::numeric_limits<float>::infinity();
        break;
      default:
        x = std::uniform_real_distribution<float>(-4, 4)(rng);
    }
  }
  return v;
}

// Registers: 0 = x, 1 = y (tensors), 2 = s (scalar); steps from 3.
// Reads: scalar first and second, two tensors, the previous value twice,
// a value four steps old (spilled), unary steps; outputs the last step and
// an earlier one.
FusedBody AllForms() {
  FusedBody body;
  body.num_inputs = 3;
  body.steps = {
      Binary(BinaryOp::kSubtract, 2, 0),  // 3 = s - x
      Binary(BinaryOp::kDivide, 3, 1),    // 4 = 3 / y
      Binary(BinaryOp::kMultiply, 4, 4),  // 5 = 4 * 4
      Unary(UnaryOp::kNegate, 5),         // 6 = -5
      Binary(BinaryOp::kMaximum, 2, 6),   // 7 = max(s, 6)
      Binary(BinaryOp::kMinimum, 7, 4),   // 8 = min(7, 4)
      Unary(UnaryOp::kAbs, 8),            // 9 = |8|
      Binary(BinaryOp::kMaximum, 1, 9),   // 10 = max(y, 9)
      Binary(BinaryOp::kMinimum, 10, 2),  // 11 = min(10, s)
      Binary(BinaryOp::kAdd, 11, 0),      // 12 = 11 + x
  };
  body.outputs = {12, 6};
  return body;
}

void ExpectSameBits(const std::vector<float>& got,
                    const std::vector<float>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    uint32_t g, w;
    std::memcpy(&g, &got[i], 4);
    std::memcpy(&w, &want[i], 4);
    if (std::isnan(want[i]) && std::isnan(got[i])) continue;
    ASSERT_EQ(g, w) << what << " element " << i << ": got " << got[i]
                    << ", want " << want[i];
  }
}

class FusedF32Test : public ::testing::TestWithParam<int64_t> {};

TEST_P(FusedF32Test, MatchesPerElementReference) {
  const int64_t n = GetParam();
  Case c{AllForms(), {Values(n, 1), Values(n, 2), {0.5f}}};
  std::vector<std::vector<float>> outputs(2, std::vector<float>(n, 7.0f));
  const void* inputs[] = {c.inputs[0].data(), c.inputs[1].data(),
                          c.inputs[2].data()};
  const bool is_scalar[] = {false, false, true};
  void* out[] = {outputs[0].data(), outputs[1].data()};
  ASSERT_TRUE(RunFusedF32(c.body, {inputs, is_scalar, out, n}));
  const std::vector<std::vector<float>> want = Reference(c, n);
  ExpectSameBits(outputs[0], want[0], "output 0");
  ExpectSameBits(outputs[1], want[1], "output 1");
}

// Around each path's block (64 elements on SSE, 128 on AVX2, 256 on
// AVX-512), and over the 4 MiB streaming threshold (and its 64-byte
// alignment rule, which std::vector's 16 may not meet).
INSTANTIATE_TEST_SUITE_P(Lengths, FusedF32Test,
                         ::testing::Values(1, 63, 64, 65, 127, 128, 129, 255,
                                           256, 257, 1000,
                                           (int64_t{1} << 20) + 77));

TEST(FusedF32Test, StreamsIntoAlignedLargeOutputs) {
  const int64_t n = (int64_t{1} << 20) + 16;
  // A -0 scalar must stay -0 when broadcast to every lane.
  Case c{AllForms(), {Values(n, 3), Values(n, 4), {-0.0f}}};
  struct Free {
    void operator()(float* p) const { std::free(p); }
  };
  std::unique_ptr<float, Free> out0(
      static_cast<float*>(std::aligned_alloc(64, n * sizeof(float))));
  std::unique_ptr<float, Free> out1(
      static_cast<float*>(std::aligned_alloc(64, n * sizeof(float))));
  const void* inputs[] = {c.inputs[0].data(), c.inputs[1].data(),
                          c.inputs[2].data()};
  const bool is_scalar[] = {false, false, true};
  void* out[] = {out0.get(), out1.get()};
  ASSERT_TRUE(RunFusedF32(c.body, {inputs, is_scalar, out, n}));
  const std::vector<std::vector<float>> want = Reference(c, n);
  ExpectSameBits(std::vector<float>(out0.get(), out0.get() + n), want[0],
                 "output 0");
  ExpectSameBits(std::vector<float>(out1.get(), out1.get() + n), want[1],
                 "output 1");
}

TEST(FusedF32Test, DeclinesWhatItDoesNotCover) {
  const float x = 1.0f;
  const void* inputs[] = {&x, &x};
  const bool is_scalar[] = {false, false};
  float out = 0.0f;
  void* outputs[] = {&out};
  const F32FusedArrays arrays{inputs, is_scalar, outputs, 1};

  FusedBody tanh;  // Not in the fast set.
  tanh.num_inputs = 1;
  tanh.steps = {Unary(UnaryOp::kTanh, 0)};
  tanh.outputs = {1};
  EXPECT_FALSE(RunFusedF32(tanh, arrays));

  FusedBody f64;  // Not f32.
  f64.num_inputs = 2;
  f64.steps = {Binary(BinaryOp::kAdd, 0, 1)};
  f64.steps[0].type = ir::ElementType::kF64;
  f64.outputs = {2};
  EXPECT_FALSE(RunFusedF32(f64, arrays));

  FusedBody pass_through;  // An output that is an input.
  pass_through.num_inputs = 2;
  pass_through.steps = {Binary(BinaryOp::kAdd, 0, 1)};
  pass_through.outputs = {2, 0};
  float out2 = 0.0f;
  void* two_outputs[] = {&out, &out2};
  EXPECT_FALSE(RunFusedF32(pass_through, {inputs, is_scalar, two_outputs, 1}));

  FusedBody too_long;  // More steps than the register budget.
  too_long.num_inputs = 2;
  for (int s = 0; s < 100; ++s) {
    too_long.steps.push_back(Binary(BinaryOp::kAdd, s == 0 ? 0 : s + 1, 1));
  }
  too_long.outputs = {101};
  EXPECT_FALSE(RunFusedF32(too_long, arrays));

  FusedBody mask_out;  // A pred output into what the caller says is f32.
  mask_out.num_inputs = 2;
  mask_out.steps = {Compare(ir::ComparisonDirection::kGt, 0, 1)};
  mask_out.outputs = {2};
  EXPECT_FALSE(RunFusedF32(mask_out, arrays));

  FusedBody total_order = mask_out;  // Orders NaN and -0: not vector compares.
  total_order.steps[0].comparison_type = ir::ComparisonType::kTotalOrder;
  total_order.steps.push_back(Select(2, 0, 1));
  total_order.outputs = {3};
  EXPECT_FALSE(RunFusedF32(total_order, arrays));

  FusedBody mask_as_value = mask_out;  // A mask read as a float.
  mask_as_value.steps.push_back(Binary(BinaryOp::kAdd, 2, 0));
  mask_as_value.outputs = {3};
  EXPECT_FALSE(RunFusedF32(mask_as_value, arrays));

  FusedBody value_as_mask;  // A float read as select's mask.
  value_as_mask.num_inputs = 2;
  value_as_mask.steps = {Select(0, 0, 1)};
  value_as_mask.outputs = {2};
  EXPECT_FALSE(RunFusedF32(value_as_mask, arrays));
  EXPECT_EQ(out, 0.0f) << "a declined body must write nothing";
}

bool RefCompare(ir::ComparisonDirection direction, float a, float b) {
  switch (direction) {
    case ir::ComparisonDirection::kEq:
      return a == b;
    case ir::ComparisonDirection::kNe:
      return a != b;
    case ir::ComparisonDirection::kGe:
      return a >= b;
    case ir::ComparisonDirection::kGt:
      return a > b;
    case ir::ComparisonDirection::kLe:
      return a <= b;
    default:
      return a < b;
  }
}

// ReLU's backward pass, select(x > 0, g, 0), and every direction choosing
// between a tensor and a value several steps old (a spilled one), with NaN,
// signed zeros and infinities on both sides of each compare.
TEST_P(FusedF32Test, ComparesAndSelectsAsTheReferenceKernels) {
  const int64_t n = GetParam();
  const std::vector<float> x = Values(n, 5), g = Values(n, 6);
  const float zero = 0.0f;
  const void* inputs[] = {x.data(), g.data(), &zero};
  const bool is_scalar[] = {false, false, true};

  FusedBody relu_backward;
  relu_backward.num_inputs = 3;
  relu_backward.steps = {Compare(ir::ComparisonDirection::kGt, 0, 2),
                         Select(3, 1, 2)};
  relu_backward.outputs = {4};
  std::vector<float> out(n, 7.0f);
  void* outputs[] = {out.data()};
  ASSERT_TRUE(RunFusedF32(relu_backward, {inputs, is_scalar, outputs, n}));
  std::vector<float> want(n);
  for (int64_t i = 0; i < n; ++i) want[i] = x[i] > 0.0f ? g[i] : 0.0f;
  ExpectSameBits(out, want, "relu backward");

  for (ir::ComparisonDirection direction :
       {ir::ComparisonDirection::kEq, ir::ComparisonDirection::kNe,
        ir::ComparisonDirection::kGe, ir::ComparisonDirection::kGt,
        ir::ComparisonDirection::kLe, ir::ComparisonDirection::kLt}) {
    // 3 = -x; 4 = x cmp g; 5 = |g|; 6 = select(4, 3, 5); 7 = 6 + x
    FusedBody body;
    body.num_inputs = 3;
    body.steps = {Unary(UnaryOp::kNegate, 0), Compare(direction, 0, 1),
                  Unary(UnaryOp::kAbs, 1), Select(4, 3, 5),
                  Binary(BinaryOp::kAdd, 6, 0)};
    body.outputs = {7, 6};
    std::vector<float> sum(n, 7.0f), chosen(n, 7.0f);
    void* two[] = {sum.data(), chosen.data()};
    ASSERT_TRUE(RunFusedF32(body, {inputs, is_scalar, two, n}));
    std::vector<float> want_sum(n), want_chosen(n);
    for (int64_t i = 0; i < n; ++i) {
      want_chosen[i] =
          RefCompare(direction, x[i], g[i]) ? -x[i] : std::fabs(g[i]);
      want_sum[i] = want_chosen[i] + x[i];
    }
    SCOPED_TRACE(static_cast<int>(direction));
    ExpectSameBits(chosen, want_chosen, "select");
    ExpectSameBits(sum, want_sum, "select + x");
  }
}

// ReLU forward and backward as a training step runs them: the forward pass
// writes max(x + b, 0) and the mask x + b > 0 (pred bytes), the backward
// pass selects the gradient through that mask, and a rank-0 pred picks
// between two values everywhere.
TEST_P(FusedF32Test, ReadsAndWritesPredMasks) {
  const int64_t n = GetParam();
  const std::vector<float> x = Values(n, 7), b = Values(n, 8);
  const float zero = 0.0f;
  {
    // 3 = x + b; 4 = max(3, 0); 5 = 3 > 0
    FusedBody forward;
    forward.num_inputs = 3;
    forward.steps = {Binary(BinaryOp::kAdd, 0, 1),
                     Binary(BinaryOp::kMaximum, 3, 2),
                     Compare(ir::ComparisonDirection::kGt, 3, 2)};
    forward.outputs = {4, 5};
    const void* inputs[] = {x.data(), b.data(), &zero};
    const bool is_scalar[] = {false, false, true};
    const bool input_is_mask[] = {false, false, false};
    const bool output_is_mask[] = {false, true};
    std::vector<float> relu(n, 7.0f);
    std::vector<uint8_t> mask(n, 7);
    void* outputs[] = {relu.data(), mask.data()};
    ASSERT_TRUE(RunFusedF32(forward, {inputs, is_scalar, outputs, n,
                                      input_is_mask, output_is_mask}));
    for (int64_t i = 0; i < n; ++i) {
      const float sum = x[i] + b[i];
      ASSERT_EQ(mask[i], sum > 0.0f ? 1 : 0) << "element " << i;
    }
  }
  // 3 = select(mask, g, 0); 4 = select(p, 3, g)
  std::vector<uint8_t> mask(n);
  for (int64_t i = 0; i < n; ++i) mask[i] = (i % 3 == 0) ? 1 : 0;
  for (const uint8_t pick : {uint8_t{0}, uint8_t{1}}) {
    FusedBody backward;
    backward.num_inputs = 4;
    backward.steps = {Select(0, 1, 2), Select(3, 4, 1)};
    backward.outputs = {5};
    const void* inputs[] = {mask.data(), x.data(), &zero, &pick};
    const bool is_scalar[] = {false, false, true, true};
    const bool input_is_mask[] = {true, false, false, true};
    std::vector<float> out(n, 7.0f);
    void* outputs[] = {out.data()};
    ASSERT_TRUE(RunFusedF32(
        backward, {inputs, is_scalar, outputs, n, input_is_mask, nullptr}));
    std::vector<float> want(n);
    for (int64_t i = 0; i < n; ++i) {
      want[i] = pick != 0 ? (mask[i] != 0 ? x[i] : 0.0f) : x[i];
    }
    ExpectSameBits(out, want, pick != 0 ? "masked" : "passed through");
  }
}

}  // namespace
}  // namespace pjrtx::cpu
