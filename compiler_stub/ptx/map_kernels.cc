// map: each thread loads one element of every operand and evaluates the
// region on them.
#include <string>
#include <vector>

#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {

absl::Status EmitMapKernel(KernelWriter& writer, const ir::Program& program,
                           const ir::Instruction& instruction) {
  if (absl::Status types = CheckRegisterTypes(instruction); !types.ok()) {
    return types;
  }
  const std::string index = writer.BeginLoop();
  std::vector<Register> arguments;
  for (size_t k = 0; k < instruction.operands.size(); ++k) {
    const ir::ElementType type = instruction.operand_types[k].shape.type;
    arguments.push_back(
        writer.Load(type, writer.Address(writer.input(static_cast<int>(k)),
                                         index, ir::StorageSize(type))));
  }
  PJRTX_ASSIGN_OR_RETURN(Register value,
                         EmitScalarRegion(writer, program, instruction,
                                          instruction.regions[0], arguments));
  const ir::ElementType result = instruction.result_types[0].shape.type;
  writer.Store(
      value, writer.Address(writer.output(0), index, ir::StorageSize(result)));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
