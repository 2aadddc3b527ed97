#include "compiler_stub/ptx/elementwise_fusion.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/ptx_target.h"

namespace pjrtx::ptx {
namespace {

using ir::Instruction;
using ir::OpCode;

// The StableHLO name of the op a fused step computes: the emitter's
// UNIMPLEMENTED errors name the op that it cannot generate, and a step
// keeps no name of its own.
std::string StepName(const ir::FusedStep& step) {
  switch (step.opcode) {
    case OpCode::kUnary:
      switch (step.unary) {
        case ir::UnaryOp::kAbs:
          return "stablehlo.abs";
        case ir::UnaryOp::kCbrt:
          return "stablehlo.cbrt";
        case ir::UnaryOp::kCeil:
          return "stablehlo.ceil";
        case ir::UnaryOp::kCosine:
          return "stablehlo.cosine";
        case ir::UnaryOp::kCountLeadingZeros:
          return "stablehlo.count_leading_zeros";
        case ir::UnaryOp::kDigamma:
          return "chlo.digamma";
        case ir::UnaryOp::kErf:
          return "chlo.erf";
        case ir::UnaryOp::kErfc:
          return "chlo.erfc";
        case ir::UnaryOp::kErfInv:
          return "chlo.erf_inv";
        case ir::UnaryOp::kExp2:
          return "stablehlo.exp2";
        case ir::UnaryOp::kExponential:
          return "stablehlo.exponential";
        case ir::UnaryOp::kExponentialMinusOne:
          return "stablehlo.exponential_minus_one";
        case ir::UnaryOp::kFloor:
          return "stablehlo.floor";
        case ir::UnaryOp::kIsFinite:
          return "stablehlo.is_finite";
        case ir::UnaryOp::kLgamma:
          return "chlo.lgamma";
        case ir::UnaryOp::kLog:
          return "stablehlo.log";
        case ir::UnaryOp::kLog2:
          return "stablehlo.log2";
        case ir::UnaryOp::kLogPlusOne:
          return "stablehlo.log_plus_one";
        case ir::UnaryOp::kLogistic:
          return "stablehlo.logistic";
        case ir::UnaryOp::kNegate:
          return "stablehlo.negate";
        case ir::UnaryOp::kNot:
          return "stablehlo.not";
        case ir::UnaryOp::kPopcnt:
          return "stablehlo.popcnt";
        case ir::UnaryOp::kRoundNearestAfz:
          return "stablehlo.round_nearest_afz";
        case ir::UnaryOp::kRoundNearestEven:
          return "stablehlo.round_nearest_even";
        case ir::UnaryOp::kRsqrt:
          return "stablehlo.rsqrt";
        case ir::UnaryOp::kSign:
          return "stablehlo.sign";
        case ir::UnaryOp::kSine:
          return "stablehlo.sine";
        case ir::UnaryOp::kSqrt:
          return "stablehlo.sqrt";
        case ir::UnaryOp::kTan:
          return "stablehlo.tan";
        case ir::UnaryOp::kTanh:
          return "stablehlo.tanh";
      }
      break;
    case OpCode::kBinary:
      switch (step.binary) {
        case ir::BinaryOp::kAdd:
          return "stablehlo.add";
        case ir::BinaryOp::kAnd:
          return "stablehlo.and";
        case ir::BinaryOp::kAtan2:
          return "stablehlo.atan2";
        case ir::BinaryOp::kDivide:
          return "stablehlo.divide";
        case ir::BinaryOp::kMaximum:
          return "stablehlo.maximum";
        case ir::BinaryOp::kMinimum:
          return "stablehlo.minimum";
        case ir::BinaryOp::kMultiply:
          return "stablehlo.multiply";
        case ir::BinaryOp::kOr:
          return "stablehlo.or";
        case ir::BinaryOp::kPower:
          return "stablehlo.power";
        case ir::BinaryOp::kRemainder:
          return "stablehlo.remainder";
        case ir::BinaryOp::kShiftLeft:
          return "stablehlo.shift_left";
        case ir::BinaryOp::kShiftRightArithmetic:
          return "stablehlo.shift_right_arithmetic";
        case ir::BinaryOp::kShiftRightLogical:
          return "stablehlo.shift_right_logical";
        case ir::BinaryOp::kSubtract:
          return "stablehlo.subtract";
        case ir::BinaryOp::kXor:
          return "stablehlo.xor";
      }
      break;
    case OpCode::kCompare:
      return "stablehlo.compare";
    case OpCode::kSelect:
      return "stablehlo.select";
    case OpCode::kClamp:
      return "stablehlo.clamp";
    case OpCode::kFma:
      return "stablehlo.fma";
    case OpCode::kConvert:
      return "stablehlo.convert";
    default:
      break;
  }
  return "fused elementwise step";
}

// The kernel of one kFusedElementwise instruction: its body's steps become
// instructions (results under the instruction's result numbers, the other
// steps under fresh numbers past the computation's own), so the emitter
// sees an ordinary straight-line program.
FusedKernel KernelOf(const ir::Computation& computation, int index,
                     const std::string& name) {
  const Instruction& fused = computation.instructions[index];
  const ir::FusedBody& body = fused.attributes.fused;
  const std::vector<int64_t>& dims = fused.result_types[0].shape.dims;
  FusedKernel kernel;
  kernel.name = name;
  kernel.dims = dims;
  std::vector<int> value_of(body.num_inputs + body.steps.size(), -1);
  std::vector<ir::ValueType> type_of(value_of.size());
  // Registers that are results keep the computation's value numbers, so
  // that out<i> binds to fused.results[i] and later kernels' inputs name
  // the same values; the other steps get fresh numbers.
  for (size_t k = 0; k < body.outputs.size(); ++k) {
    value_of[body.outputs[k]] = fused.results[k];
  }
  for (int r = 0; r < body.num_inputs; ++r) {
    const ir::Shape& shape = fused.operand_types[r].shape;
    value_of[r] = fused.operands[r];
    type_of[r] = fused.operand_types[r];
    kernel.inputs.push_back(FusedInput{fused.operands[r], shape,
                                       /*is_scalar=*/shape.dims.empty()});
  }
  int next_value = computation.num_values;
  for (size_t s = 0; s < body.steps.size(); ++s) {
    const ir::FusedStep& step = body.steps[s];
    Instruction inst;
    inst.opcode = step.opcode;
    inst.name = StepName(step);
    // Steps keep no position of their own: errors point at the fused
    // instruction, which is where its first member stood.
    inst.location = fused.location;
    inst.attributes.unary = step.unary;
    inst.attributes.binary = step.binary;
    inst.attributes.comparison = step.comparison;
    inst.attributes.comparison_type = step.comparison_type;
    for (int r : step.inputs) {
      inst.operands.push_back(value_of[r]);
      inst.operand_types.push_back(type_of[r]);
    }
    const int reg = body.num_inputs + static_cast<int>(s);
    if (value_of[reg] < 0) value_of[reg] = next_value++;
    type_of[reg] = ir::ValueType::Tensor(ir::Shape{step.type, dims});
    inst.results = {value_of[reg]};
    inst.result_types = {type_of[reg]};
    kernel.instructions.push_back(std::move(inst));
    kernel.source_instructions.push_back(index);
  }
  for (int r : body.outputs) {
    kernel.outputs.push_back(FusedOutput{value_of[r], type_of[r].shape});
  }
  return kernel;
}

}  // namespace

std::vector<FusedKernel> FindElementwiseFusions(const ir::Program& program,
                                                int computation) {
  const ir::Computation& c = program.computations[computation];
  std::vector<FusedKernel> kernels;
  for (size_t i = 0; i < c.instructions.size(); ++i) {
    if (c.instructions[i].opcode != ir::OpCode::kFusedElementwise) continue;
    kernels.push_back(
        KernelOf(c, static_cast<int>(i),
                 absl::StrCat(Identifier(c.name), "_fusion", kernels.size())));
  }
  return kernels;
}

}  // namespace pjrtx::ptx
