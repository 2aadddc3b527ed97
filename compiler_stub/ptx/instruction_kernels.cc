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

// The oldest PTX ISA version (in tenths) that knows each target; the same
// table as the fused kernels' (ptx_emitter.cc), so that the modules of one
// program declare the same version.
struct TargetIsa {
  int sm;
  int isa;
};
constexpr TargetIsa kTargets[] = {
    {75, 63},  {80, 70},  {86, 71},  {87, 74},  {89, 78},  {90, 78},
    {100, 86}, {103, 88}, {110, 90}, {120, 87}, {121, 88},
};
// 7.8 (CUDA 11.8), as for the fused kernels.
constexpr int kMinimumIsa = 78;

bool IsIdentifier(absl::string_view name) {
  auto is_letter = [](char ch) {
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
  };
  return !name.empty() && is_letter(name[0]) &&
         std::all_of(name.begin(), name.end(), [&](char ch) {
           return is_letter(ch) || (ch >= '0' && ch <= '9');
         });
}

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
  const TargetIsa* known =
      std::find_if(std::begin(kTargets), std::end(kTargets),
                   [&](const TargetIsa& t) { return t.sm == target.sm; });
  if (known == std::end(kTargets)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "sm_", target.sm, " is not a target the PTX emitter knows"));
  }
  if (!IsIdentifier(name)) {
    return absl::InvalidArgumentError(
        absl::StrCat("kernel name '", name, "' is not a PTX identifier"));
  }
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
      std::max({kMinimumIsa, known->isa, writer.emitter().required_isa()}));
  kernel.inputs = instruction.operands;
  kernel.outputs = instruction.results;
  kernel.threads =
      static_cast<uint64_t>(instruction.result_types[0].shape.num_elements());
  return kernel;
}

}  // namespace pjrtx::ptx
