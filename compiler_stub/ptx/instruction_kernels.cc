#include "compiler_stub/ptx/instruction_kernels.h"

#include <algorithm>
#include <iterator>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/passes/fusion.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "compiler_stub/ptx/ptx_builder.h"
#include "support/status_macros.h"

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
    case OpCode::kReduceWindow:
      return "a reduce_window kernel.";
    case OpCode::kDotGeneral:
      return "a dot_general kernel.";
    case OpCode::kConvolution:
      return "a convolution kernel.";
    case OpCode::kSort:
      return "a sort kernel.";
    case OpCode::kTriangularSolve:
      return "a triangular_solve kernel.";
    default:
      return "a data movement kernel.";
  }
}

// An elementwise op that fusion left alone (a region's lone op, or one
// whose result only a non-elementwise op reads) as a fused kernel of one
// step: the elementwise emitter already generates every such op, and a
// rank-0 operand (a select predicate, a clamp bound) is read as a scalar
// there too.
absl::StatusOr<std::string> EmitElementwiseKernel(
    const ir::Instruction& instruction, const std::string& name,
    const PtxTarget& target) {
  if (absl::Status types = CheckRegisterTypes(instruction); !types.ok()) {
    return types;
  }
  FusedKernel kernel;
  kernel.name = name;
  kernel.dims = instruction.result_types[0].shape.dims;
  for (size_t k = 0; k < instruction.operands.size(); ++k) {
    const ir::Shape& shape = instruction.operand_types[k].shape;
    kernel.inputs.push_back(FusedInput{instruction.operands[k], shape,
                                       /*is_scalar=*/shape.dims.empty()});
  }
  kernel.outputs.push_back(
      FusedOutput{instruction.results[0], instruction.result_types[0].shape});
  // source_instructions stays empty: the kernel is none of the
  // computation's fusions.
  kernel.instructions.push_back(instruction);
  return EmitPtx(kernel, target);
}

}  // namespace

absl::StatusOr<InstructionKernel> EmitInstructionKernel(
    const ir::Program& program, const ir::Computation& /*computation*/,
    const ir::Instruction& instruction, const std::string& name,
    const PtxTarget& target) {
  PJRTX_ASSIGN_OR_RETURN(int target_isa, TargetIsa(target));
  PJRTX_RETURN_IF_ERROR(CheckKernelName(name));
  // Sort, scatter, reduce and reduce_window have one result per operand (their
  // kernels say which counts they take); every other op, one.
  if (!AllTensors(instruction.operand_types) ||
      !AllTensors(instruction.result_types) ||
      (instruction.result_types.size() != 1 &&
       instruction.opcode != OpCode::kSort &&
       instruction.opcode != OpCode::kScatter &&
       instruction.opcode != OpCode::kReduce &&
       instruction.opcode != OpCode::kReduceWindow)) {
    return Unsupported(instruction, "on tuples or tokens");
  }
  InstructionKernel kernel;
  kernel.name = name;
  kernel.inputs = instruction.operands;
  kernel.outputs = instruction.results;
  kernel.threads =
      static_cast<uint64_t>(instruction.result_types[0].shape.num_elements());
  // reduce_precision is elementwise too, though fusion (shared with the
  // CPU target) leaves it out.
  if (ir::IsElementwise(instruction.opcode) ||
      instruction.opcode == OpCode::kReducePrecision) {
    PJRTX_ASSIGN_OR_RETURN(kernel.ptx,
                           EmitElementwiseKernel(instruction, name, target));
    return kernel;
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
    case OpCode::kBitcastConvert:
    case OpCode::kGetDimensionSize:
      status = EmitLayoutKernel(writer, instruction);
      break;
    case OpCode::kDynamicSlice:
    case OpCode::kDynamicUpdateSlice:
      status = EmitDynamicSliceKernel(writer, instruction);
      break;
    case OpCode::kGather:
      status = EmitGatherKernel(writer, instruction);
      break;
    case OpCode::kConvolution:
      status = EmitConvolutionKernel(writer, instruction);
      break;
    case OpCode::kSort:
      status = EmitSortKernel(writer, program, instruction);
      break;
    case OpCode::kMap:
      status = EmitMapKernel(writer, program, instruction);
      break;
    case OpCode::kScatter:
      status = EmitScatterKernel(writer, program, instruction);
      break;
    case OpCode::kSelectAndScatter:
      status = EmitSelectAndScatterKernel(writer, program, instruction);
      break;
    case OpCode::kReduce:
    case OpCode::kFusedReduce:
      status = EmitReduceKernel(writer, program, instruction);
      break;
    case OpCode::kReduceWindow:
      status = EmitReduceWindowKernel(writer, program, instruction);
      break;
    case OpCode::kDotGeneral:
      status = EmitDotKernel(writer, instruction);
      break;
    case OpCode::kTriangularSolve:
      status = EmitTriangularSolveKernel(writer, instruction);
      break;
    default:
      status = Unsupported(instruction, "");
  }
  if (!status.ok()) return status;
  kernel.ptx = writer.Module(
      name, Description(instruction.opcode),
      std::max({kMinimumIsa, target_isa, writer.emitter().required_isa()}));
  return kernel;
}

}  // namespace pjrtx::ptx
