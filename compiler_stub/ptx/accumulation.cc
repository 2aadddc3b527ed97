#include "compiler_stub/ptx/accumulation.h"

#include <optional>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;

std::optional<ElementType> Accumulator(ElementType result) {
  switch (result) {
    case ElementType::kF32:
    case ElementType::kF64:
      return ElementType::kF64;
    case ElementType::kF16:
    case ElementType::kBF16:
      return ElementType::kF32;
    case ElementType::kPred:
      return ElementType::kPred;
    case ElementType::kF8E4M3FN:
    case ElementType::kF8E5M2:
      return std::nullopt;
    default:
      return ElementType::kU64;
  }
}

}  // namespace

absl::StatusOr<ElementType> AccumulatorFor(const ir::Instruction& instruction) {
  const ElementType lhs = instruction.operand_types[0].shape.type;
  const ElementType rhs = instruction.operand_types[1].shape.type;
  const ElementType result = instruction.result_types[0].shape.type;
  const std::optional<ElementType> accumulator = Accumulator(result);
  for (ElementType type : {lhs, rhs, result}) {
    if (!accumulator || !RegisterClassFor(type) ||
        (*accumulator == ElementType::kU64 && ir::IsFloat(type))) {
      return Unsupported(instruction,
                         absl::StrCat("on ", ir::ElementTypeToMlir(lhs), " x ",
                                      ir::ElementTypeToMlir(rhs), " -> ",
                                      ir::ElementTypeToMlir(result)));
    }
  }
  return *accumulator;
}

Register NewAccumulator(KernelWriter& writer, ElementType type) {
  PtxBuilder& b = writer.builder();
  const Register acc{b.NewRegister(*RegisterClassFor(type)), type};
  switch (type) {
    case ElementType::kPred:
      b.Emit("mov.pred", {acc.name, "0"});
      break;
    case ElementType::kF64:
      b.Emit("mov.f64", {acc.name, F64Immediate(0)});
      break;
    case ElementType::kF32:
      b.Emit("mov.f32", {acc.name, F32Immediate(0)});
      break;
    default:
      b.Emit("mov.u64", {acc.name, "0"});
  }
  return acc;
}

absl::Status MultiplyAccumulate(KernelWriter& writer,
                                const ir::Instruction& instruction,
                                const Register& acc, const Register& x,
                                const Register& y) {
  PtxBuilder& b = writer.builder();
  PJRTX_ASSIGN_OR_RETURN(Register a,
                         ConvertRegister(writer, instruction, x, acc.type));
  PJRTX_ASSIGN_OR_RETURN(Register c,
                         ConvertRegister(writer, instruction, y, acc.type));
  const std::string product = b.NewRegister(*RegisterClassFor(acc.type));
  // .rn keeps ptxas from contracting the pair into an fma: the CPU rounds
  // the product and the sum separately.
  switch (acc.type) {
    case ElementType::kF64:
      b.Emit("mul.rn.f64", {product, a.name, c.name});
      b.Emit("add.rn.f64", {acc.name, acc.name, product});
      break;
    case ElementType::kF32:
      b.Emit("mul.rn.f32", {product, a.name, c.name});
      b.Emit("add.rn.f32", {acc.name, acc.name, product});
      break;
    case ElementType::kPred:
      b.Emit("and.pred", {product, a.name, c.name});
      b.Emit("or.pred", {acc.name, acc.name, product});
      break;
    default:
      b.Emit("mul.lo.u64", {product, a.name, c.name});
      b.Emit("add.u64", {acc.name, acc.name, product});
  }
  return absl::OkStatus();
}

absl::Status LoadMultiplyAccumulate(KernelWriter& writer,
                                    const ir::Instruction& instruction,
                                    const Register& acc,
                                    const std::string& lhs_offset,
                                    const std::string& rhs_offset) {
  const ElementType lhs = instruction.operand_types[0].shape.type;
  const ElementType rhs = instruction.operand_types[1].shape.type;
  const Register x = writer.Load(
      lhs, writer.Address(writer.input(0), lhs_offset, ir::StorageSize(lhs)));
  const Register y = writer.Load(
      rhs, writer.Address(writer.input(1), rhs_offset, ir::StorageSize(rhs)));
  return MultiplyAccumulate(writer, instruction, acc, x, y);
}

absl::Status StoreAccumulator(KernelWriter& writer,
                              const ir::Instruction& instruction,
                              const Register& acc, const std::string& index) {
  const ElementType result = instruction.result_types[0].shape.type;
  PJRTX_ASSIGN_OR_RETURN(Register value,
                         ConvertRegister(writer, instruction, acc, result));
  writer.Store(
      value, writer.Address(writer.output(0), index, ir::StorageSize(result)));
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
