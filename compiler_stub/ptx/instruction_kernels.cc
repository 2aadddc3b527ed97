#include "compiler_stub/ptx/instruction_kernels.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {
namespace {

using ir::OpCode;

bool AllTensors(const std::vector<ir::ValueType>& types) {
  return std::all_of(types.begin(), types.end(), [](const ir::ValueType& t) {
    return t.kind == ir::ValueType::Kind::kTensor;
  });
}

// What the kernel of `instruction` says about itself in its first line.
absl::string_view Description(OpCode opcode) {
  switch (opcode) {
    case OpCode::kReduce:
    case OpCode::kFusedReduce:
      return "a reduction kernel.";
    case OpCode::kDotGeneral:
      return "a dot_general kernel.";
    default:
      return "a data movement kernel.";
  }
}

}  // namespace

absl::StatusOr<InstructionKernel> EmitInstructionKernel(
    const ir::Program& program, const ir::Computation& /*computation*/,
    const ir::Instruction& instruction, const std::string& name,
    const PtxTarget& target) {
  absl::StatusOr<int> target_isa = TargetIsa(target);
  if (!target_isa.ok()) return target_isa.status();
  absl::Status named = CheckKernelName(name);
  if (!named.ok()) return named;
  if (!AllTensors(instruction.operand_types) ||
      !AllTensors(instruction.result_types) ||
      instruction.result_types.size() != 1) {
    return Unsupported(instruction, "on tuples or tokens");
  }
  KernelWriter writer(target, static_cast<int>(instruction.operands.size()),
                      static_cast<int>(instruction.results.size()));
  absl::Status status;
  switch (instruction.opcode) {
    case OpCode::kBroadcastInDim:
    case OpCode::kTranspose:
    case OpCode::kReshape:
    case OpCode::kSlice:
    case OpCode::kConcatenate:
    case OpCode::kPad:
    case OpCode::kReverse:
    case OpCode::kIota:
      status = EmitLayoutKernel(writer, instruction);
      break;
    case OpCode::kReduce:
    case OpCode::kFusedReduce:
      status = EmitReduceKernel(writer, program, instruction);
      break;
    case OpCode::kDotGeneral:
      status = EmitDotKernel(writer, instruction);
      break;
    default:
      status = Unsupported(instruction, "");
  }
  if (!status.ok()) return status;
  InstructionKernel kernel;
  kernel.name = name;
  kernel.ptx = writer.Module(
      name, Description(instruction.opcode),
      std::max({kMinimumIsa, *target_isa, writer.emitter().required_isa()}));
  kernel.inputs = instruction.operands;
  kernel.outputs = instruction.results;
  kernel.threads =
      static_cast<uint64_t>(instruction.result_types[0].shape.num_elements());
  return kernel;
}

}  // namespace pjrtx::ptx
