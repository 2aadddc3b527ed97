// Regions evaluated on scalars inside a kernel: the comparator of sort,
// the computation of map, the bodies of general reductions.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {

using ir::Instruction;
using ir::OpCode;

absl::StatusOr<Register> EmitScalarRegion(
    KernelWriter& writer, const ir::Program& program,
    const Instruction& instruction, int index,
    const std::vector<Register>& arguments) {
  if (program.computations[index].results.size() != 1) {
    return Unsupported(instruction,
                       "with a region that returns more than one value");
  }
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<Register> results,
      EmitScalarRegionResults(writer, program, instruction, index, arguments));
  return results.front();
}

absl::StatusOr<std::vector<Register>> EmitScalarRegionResults(
    KernelWriter& writer, const ir::Program& program,
    const Instruction& instruction, int index,
    const std::vector<Register>& arguments) {
  const ir::Computation& region = program.computations[index];
  if (!region.captures.empty()) {
    return Unsupported(instruction,
                       "with a region that reads values from outside it");
  }
  std::map<int, Register> values;
  for (size_t i = 0; i < region.parameters.size(); ++i) {
    values[region.parameters[i]] = arguments[i];
  }
  std::map<int, const FusedKernel*> fused_by_result;
  const std::vector<FusedKernel> fusions =
      FindElementwiseFusions(program, index);
  for (const FusedKernel& kernel : fusions) {
    for (const FusedOutput& output : kernel.outputs) {
      fused_by_result[output.value] = &kernel;
    }
  }
  auto emit = [&](const Instruction& step) -> absl::Status {
    std::vector<Register> operands;
    for (int operand : step.operands) {
      auto found = values.find(operand);
      if (found == values.end()) {
        return Unsupported(instruction,
                           absl::StrCat("with a region using ", step.name,
                                        " on a value it cannot compute"));
      }
      operands.push_back(found->second);
    }
    PJRTX_ASSIGN_OR_RETURN(Register r, writer.emitter().Emit(step, operands));
    values[step.results[0]] = r;
    return absl::OkStatus();
  };
  for (const Instruction& step : region.instructions) {
    if (step.opcode == OpCode::kFusedElementwise) {
      auto kernel = fused_by_result.find(step.results[0]);
      if (kernel == fused_by_result.end()) {
        return Unsupported(instruction, "with an unexpected fused region");
      }
      for (const Instruction& inner : kernel->second->instructions) {
        PJRTX_RETURN_IF_ERROR(emit(inner));
      }
      continue;
    }
    if (step.results.size() != 1) {
      return Unsupported(instruction,
                         absl::StrCat("with ", step.name, " in its region"));
    }
    PJRTX_RETURN_IF_ERROR(emit(step));
  }
  std::vector<Register> results;
  for (int value : region.results) {
    auto result = values.find(value);
    if (result == values.end()) {
      return Unsupported(instruction,
                         "with a region whose result it cannot compute");
    }
    results.push_back(result->second);
  }
  return results;
}

}  // namespace pjrtx::ptx
