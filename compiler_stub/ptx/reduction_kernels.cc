// reduce (and kFusedReduce). One thread per output element folds its
// reduced elements into the init value in the input's row-major order,
// accumulator first, as the CPU reference does, so float results are the
// same bits: acc = body(acc, x) with each op rounded as the elementwise
// emitter rounds it. (Except floating-point sums of rows of 256 or more
// elements: the CPU engine cascades those, runtime/cpu/cascade_sum.h.) A body
// of one binary op is applied directly; any other body, and reductions of
// several inputs at once (argmax's value and index), evaluate the body's region
// on the accumulators and the inputs' elements: (acc_1..acc_n) =
// body(acc_1..acc_n, x_1..x_n).
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::Instruction;
using ir::OpCode;

std::string On(ElementType type) {
  return absl::StrCat("on ", ir::ElementTypeToMlir(type));
}

// The fused prologue's step `s` as an instruction over registers, for the
// elementwise emitter.
Instruction StepInstruction(const Instruction& fused, const ir::FusedStep& step,
                            const std::vector<ElementType>& register_types) {
  Instruction inst;
  inst.opcode = step.opcode;
  inst.name = fused.name;
  inst.location = fused.location;
  inst.attributes.unary = step.unary;
  inst.attributes.binary = step.binary;
  inst.attributes.comparison = step.comparison;
  inst.attributes.comparison_type = step.comparison_type;
  for (int r : step.inputs) {
    inst.operand_types.push_back(
        ir::ValueType::Tensor(ir::Shape{register_types[r], {}}));
  }
  inst.result_types = {ir::ValueType::Tensor(ir::Shape{step.type, {}})};
  return inst;
}

}  // namespace

const Instruction* Reducer(const ir::Program& program,
                           const Instruction& instruction) {
  if (instruction.regions.size() != 1) return nullptr;
  const ir::Computation& body = program.computations[instruction.regions[0]];
  if (body.instructions.size() != 1 || !body.captures.empty() ||
      body.parameters.size() != 2 || body.results.size() != 1) {
    return nullptr;
  }
  const Instruction& op = body.instructions[0];
  if (op.opcode != OpCode::kBinary || op.results[0] != body.results[0] ||
      op.operands.size() != 2) {
    return nullptr;
  }
  const int a = body.parameters[0], b = body.parameters[1];
  if (!((op.operands[0] == a && op.operands[1] == b) ||
        (op.operands[0] == b && op.operands[1] == a))) {
    return nullptr;
  }
  switch (op.attributes.binary) {
    case ir::BinaryOp::kAdd:
    case ir::BinaryOp::kMultiply:
    case ir::BinaryOp::kMaximum:
    case ir::BinaryOp::kMinimum:
    case ir::BinaryOp::kAnd:
    case ir::BinaryOp::kOr:
      return &op;
    default:
      return nullptr;
  }
}

absl::Status Fold(KernelWriter& writer, const ir::Program& program,
                  const Instruction& instruction, const Instruction& reducer,
                  const Register& acc, const Register& x) {
  const ir::Computation& region = program.computations[instruction.regions[0]];
  std::vector<Register> operands;
  for (int value : reducer.operands) {
    operands.push_back(value == region.parameters[0] ? acc : x);
  }
  PJRTX_ASSIGN_OR_RETURN(Register r, writer.emitter().Emit(reducer, operands));
  writer.Move(acc, r);
  return absl::OkStatus();
}

namespace {

// The kept and the reduced dimensions of `input`: strides of the kept ones,
// sizes and strides of the reduced ones; false if a reduced one is empty.
bool SplitDimensions(const ir::Shape& input, const std::vector<int64_t>& dims,
                     std::vector<int64_t>& kept_strides,
                     std::vector<int64_t>& reduced_dims,
                     std::vector<int64_t>& reduced_strides) {
  const std::vector<int64_t> strides = RowMajorStrides(input.dims);
  bool empty = false;
  for (size_t d = 0; d < input.dims.size(); ++d) {
    if (std::find(dims.begin(), dims.end(), d) != dims.end()) {
      reduced_dims.push_back(input.dims[d]);
      reduced_strides.push_back(strides[d]);
      if (input.dims[d] == 0) empty = true;
    } else {
      kept_strides.push_back(strides[d]);
    }
  }
  return !empty;
}

// reduce of n inputs with any body: the body's region over n accumulators.
absl::Status EmitRegionReduce(KernelWriter& writer, const ir::Program& program,
                              const Instruction& instruction, int n) {
  for (const ir::ValueType& operand : instruction.operand_types) {
    if (!RegisterClassFor(operand.shape.type)) {
      return Unsupported(instruction, On(operand.shape.type));
    }
  }
  for (int i = 0; i < n; ++i) {
    if (instruction.operand_types[i].shape.dims !=
        instruction.operand_types[0].shape.dims) {
      return Unsupported(instruction, "with inputs of different shapes");
    }
  }
  const ir::Shape& input = instruction.operand_types[0].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  std::vector<int64_t> kept_strides, reduced_dims, reduced_strides;
  const bool nonempty =
      SplitDimensions(input, instruction.attributes.dims, kept_strides,
                      reduced_dims, reduced_strides);

  PtxBuilder& b = writer.builder();
  std::vector<Register> inits;
  for (int i = 0; i < n; ++i) {
    const ElementType type = instruction.operand_types[n + i].shape.type;
    inits.push_back(
        writer.Load(type, absl::StrCat("[", writer.input(n + i), "]")));
  }
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> kept = writer.Unflatten(index, result.dims);
  const std::string offset = writer.Affine(kept, kept_strides, 0);
  std::vector<Register> accumulators;
  for (int i = 0; i < n; ++i) {
    const ElementType type = instruction.result_types[i].shape.type;
    if (type != inits[i].type) {
      return Unsupported(instruction, "with differing element types");
    }
    accumulators.push_back(
        Register{b.NewRegister(*RegisterClassFor(type)), type});
    writer.Move(accumulators[i], inits[i]);
  }
  auto fold = [&]() -> absl::Status {
    std::vector<Register> elements;
    for (int i = 0; i < n; ++i) {
      const ElementType type = instruction.operand_types[i].shape.type;
      elements.push_back(writer.Load(
          type,
          writer.Address(writer.input(i), offset, ir::StorageSize(type))));
    }
    return FoldRegion(writer, program, instruction, accumulators, elements);
  };
  if (nonempty) {
    PJRTX_RETURN_IF_ERROR(
        writer.Loops(reduced_dims, {reduced_strides}, {offset}, fold));
  }
  for (int i = 0; i < n; ++i) {
    writer.Store(accumulators[i],
                 writer.Address(writer.output(i), index,
                                ir::StorageSize(accumulators[i].type)));
  }
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace

absl::Status FoldRegion(KernelWriter& writer, const ir::Program& program,
                        const Instruction& instruction,
                        const std::vector<Register>& accumulators,
                        const std::vector<Register>& elements) {
  std::vector<Register> arguments = accumulators;
  arguments.insert(arguments.end(), elements.begin(), elements.end());
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<Register> next,
      EmitScalarRegionResults(writer, program, instruction,
                              instruction.regions[0], arguments));
  if (next.size() != accumulators.size()) {
    return Unsupported(instruction, "with a body of the wrong arity");
  }
  for (size_t i = 0; i < accumulators.size(); ++i) {
    if (next[i].type != accumulators[i].type) {
      return Unsupported(instruction, "with differing element types");
    }
    writer.Move(accumulators[i], next[i]);
  }
  return absl::OkStatus();
}

absl::Status EmitReduceKernel(KernelWriter& writer, const ir::Program& program,
                              const Instruction& instruction) {
  const bool fused = instruction.opcode == OpCode::kFusedReduce;
  const int num_inputs =
      fused ? static_cast<int>(instruction.operands.size()) - 1
            : static_cast<int>(instruction.operands.size()) / 2;
  const Instruction* reducer = Reducer(program, instruction);
  if (!fused && (num_inputs != 1 || reducer == nullptr)) {
    return EmitRegionReduce(writer, program, instruction, num_inputs);
  }
  if (reducer == nullptr) {
    return Unsupported(instruction,
                       "with a body other than one add, multiply, maximum, "
                       "minimum, and or or of its parameters");
  }
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::Shape input = fused ? instruction.attributes.fused_shape
                                : instruction.operand_types[0].shape;
  const ElementType type = result.type;
  const ElementType init_type =
      instruction.operand_types[num_inputs].shape.type;
  if (input.type != type || init_type != type ||
      reducer->result_types[0].shape.type != type) {
    return Unsupported(instruction, "with differing element types");
  }
  for (const ir::ValueType& operand : instruction.operand_types) {
    if (!RegisterClassFor(operand.shape.type)) {
      return Unsupported(instruction, On(operand.shape.type));
    }
  }
  if (!RegisterClassFor(type)) return Unsupported(instruction, On(type));
  const ir::FusedBody& body = instruction.attributes.fused;
  if (fused && (body.outputs.size() != 1 || body.num_inputs != num_inputs)) {
    return Unsupported(instruction, "with a prologue of several results");
  }

  // Kept dimensions index the output; reduced ones are walked in
  // ascending order.
  std::vector<int64_t> kept_strides, reduced_dims, reduced_strides;
  const bool empty =
      !SplitDimensions(input, instruction.attributes.dims, kept_strides,
                       reduced_dims, reduced_strides);

  PtxBuilder& b = writer.builder();
  InstructionEmitter& emitter = writer.emitter();
  const Register init =
      writer.Load(type, absl::StrCat("[", writer.input(num_inputs), "]"));
  // The prologue's rank-0 inputs are the same for every element.
  std::map<int, Register> registers;
  std::vector<ElementType> register_types;
  if (fused) {
    for (int i = 0; i < num_inputs; ++i) {
      const ir::Shape& shape = instruction.operand_types[i].shape;
      register_types.push_back(shape.type);
      if (shape.dims.empty()) {
        registers[i] =
            writer.Load(shape.type, absl::StrCat("[", writer.input(i), "]"));
      }
    }
    for (const ir::FusedStep& step : body.steps) {
      register_types.push_back(step.type);
    }
    if (register_types[body.outputs[0]] != type) {
      return Unsupported(instruction, "with differing element types");
    }
  }

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> kept = writer.Unflatten(index, result.dims);
  const std::string offset = writer.Affine(kept, kept_strides, 0);
  const Register acc{b.NewRegister(*RegisterClassFor(type)), type};
  writer.Move(acc, init);

  // One reduced element, `offset` into the input: acc = body(acc, x).
  auto fold = [&]() -> absl::Status {
    Register x;
    if (!fused) {
      x = writer.Load(
          type, writer.Address(writer.input(0), offset, ir::StorageSize(type)));
    } else {
      std::map<int, Register> values = registers;
      for (int i = 0; i < num_inputs; ++i) {
        const ir::Shape& shape = instruction.operand_types[i].shape;
        if (shape.dims.empty()) continue;
        values[i] = writer.Load(shape.type,
                                writer.Address(writer.input(i), offset,
                                               ir::StorageSize(shape.type)));
      }
      for (size_t s = 0; s < body.steps.size(); ++s) {
        const ir::FusedStep& step = body.steps[s];
        std::vector<Register> operands;
        for (int r : step.inputs) operands.push_back(values[r]);
        PJRTX_ASSIGN_OR_RETURN(
            Register r,
            emitter.Emit(StepInstruction(instruction, step, register_types),
                         operands));
        values[num_inputs + static_cast<int>(s)] = r;
      }
      x = values[body.outputs[0]];
    }
    return Fold(writer, program, instruction, *reducer, acc, x);
  };
  if (!empty) {
    PJRTX_RETURN_IF_ERROR(
        writer.Loops(reduced_dims, {reduced_strides}, {offset}, fold));
  }
  writer.Store(acc,
               writer.Address(writer.output(0), index, ir::StorageSize(type)));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
