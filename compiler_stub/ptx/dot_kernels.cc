// dot_general with one thread per output element, which walks the
// contracting dimensions (in the order lhs_contracting lists them,
// row-major) and accumulates as the CPU reference kernel
// (runtime/cpu/dot_general_kernel.cc, accumulation.h) does, so results are
// the same bits:
//   f32 and f64 results: in f64 (products of f32 values are exact there,
//     so an f32 dot rounds once, at the end);
//   f16 and bf16 results: in f32 (products of 16-bit values are exact),
//     rounded once to the result type at the end;
//   integers: in 64 bits, wrapping, operands extended as their type says,
//     the sum narrowed to the result type at the end;
//   i1: "or" of "and"s.
// The CPU interpreter may run f32 and bf16 dots on oneDNN instead, whose
// f32 accumulation can differ in the last bits.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::Instruction;

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// The dimensions that are neither batching nor contracting, ascending:
// they appear in the result in this order.
std::vector<int64_t> FreeDims(int rank, const std::vector<int64_t>& batching,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(batching, d) && !Contains(contracting, d)) free.push_back(d);
  }
  return free;
}

// What the products of a dot with `result` elements are summed in.
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

std::string Zero(ElementType accumulator) {
  switch (accumulator) {
    case ElementType::kF64:
      return F64Immediate(0);
    case ElementType::kF32:
      return F32Immediate(0);
    default:
      return "0";
  }
}

}  // namespace

absl::Status EmitDotKernel(KernelWriter& writer,
                           const Instruction& instruction) {
  const ir::Shape& lhs = instruction.operand_types[0].shape;
  const ir::Shape& rhs = instruction.operand_types[1].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::DotDimensions& dims = instruction.attributes.dot;
  const std::optional<ElementType> accumulator = Accumulator(result.type);
  for (ElementType type : {lhs.type, rhs.type, result.type}) {
    if (!accumulator || !RegisterClassFor(type) ||
        (*accumulator == ElementType::kU64 && ir::IsFloat(type))) {
      return Unsupported(
          instruction,
          absl::StrCat("on ", ir::ElementTypeToMlir(lhs.type), " x ",
                       ir::ElementTypeToMlir(rhs.type), " -> ",
                       ir::ElementTypeToMlir(result.type)));
    }
  }
  const std::vector<int64_t> lhs_free =
      FreeDims(lhs.rank(), dims.lhs_batching, dims.lhs_contracting);
  const std::vector<int64_t> rhs_free =
      FreeDims(rhs.rank(), dims.rhs_batching, dims.rhs_contracting);
  const std::vector<int64_t> lhs_strides = RowMajorStrides(lhs.dims);
  const std::vector<int64_t> rhs_strides = RowMajorStrides(rhs.dims);

  // The result is [batching..., lhs free..., rhs free...]: each result
  // dimension moves one operand's offset, or both for batching ones.
  std::vector<int64_t> lhs_coefficients, rhs_coefficients;
  for (size_t k = 0; k < dims.lhs_batching.size(); ++k) {
    lhs_coefficients.push_back(lhs_strides[dims.lhs_batching[k]]);
    rhs_coefficients.push_back(rhs_strides[dims.rhs_batching[k]]);
  }
  for (int64_t d : lhs_free) {
    lhs_coefficients.push_back(lhs_strides[d]);
    rhs_coefficients.push_back(0);
  }
  for (int64_t d : rhs_free) {
    lhs_coefficients.push_back(0);
    rhs_coefficients.push_back(rhs_strides[d]);
  }
  std::vector<int64_t> contracted, lhs_steps, rhs_steps;
  bool empty = false;
  for (size_t k = 0; k < dims.lhs_contracting.size(); ++k) {
    contracted.push_back(lhs.dims[dims.lhs_contracting[k]]);
    lhs_steps.push_back(lhs_strides[dims.lhs_contracting[k]]);
    rhs_steps.push_back(rhs_strides[dims.rhs_contracting[k]]);
    if (contracted.back() == 0) empty = true;
  }

  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  const std::string lhs_offset = writer.Affine(multi, lhs_coefficients, 0);
  const std::string rhs_offset = writer.Affine(multi, rhs_coefficients, 0);
  const ElementType acc_type = *accumulator;
  const Register acc{b.NewRegister(*RegisterClassFor(acc_type)), acc_type};
  b.Emit(acc_type == ElementType::kPred  ? "mov.pred"
         : acc_type == ElementType::kF64 ? "mov.f64"
         : acc_type == ElementType::kF32 ? "mov.f32"
                                         : "mov.u64",
         {acc.name, Zero(acc_type)});

  auto multiply_add = [&]() -> absl::Status {
    const Register x = writer.Load(
        lhs.type,
        writer.Address(writer.input(0), lhs_offset, ir::StorageSize(lhs.type)));
    const Register y = writer.Load(
        rhs.type,
        writer.Address(writer.input(1), rhs_offset, ir::StorageSize(rhs.type)));
    absl::StatusOr<Register> a =
        ConvertRegister(writer, instruction, x, acc_type);
    if (!a.ok()) return a.status();
    absl::StatusOr<Register> c =
        ConvertRegister(writer, instruction, y, acc_type);
    if (!c.ok()) return c.status();
    const std::string product = b.NewRegister(*RegisterClassFor(acc_type));
    // .rn keeps ptxas from contracting the pair into an fma: the CPU
    // rounds the product and the sum separately.
    switch (acc_type) {
      case ElementType::kF64:
        b.Emit("mul.rn.f64", {product, a->name, c->name});
        b.Emit("add.rn.f64", {acc.name, acc.name, product});
        break;
      case ElementType::kF32:
        b.Emit("mul.rn.f32", {product, a->name, c->name});
        b.Emit("add.rn.f32", {acc.name, acc.name, product});
        break;
      case ElementType::kPred:
        b.Emit("and.pred", {product, a->name, c->name});
        b.Emit("or.pred", {acc.name, acc.name, product});
        break;
      default:
        b.Emit("mul.lo.u64", {product, a->name, c->name});
        b.Emit("add.u64", {acc.name, acc.name, product});
    }
    return absl::OkStatus();
  };
  if (!empty) {
    absl::Status status = writer.Loops(contracted, {lhs_steps, rhs_steps},
                                       {lhs_offset, rhs_offset}, multiply_add);
    if (!status.ok()) return status;
  }
  absl::StatusOr<Register> value =
      ConvertRegister(writer, instruction, acc, result.type);
  if (!value.ok()) return value.status();
  writer.Store(*value, writer.Address(writer.output(0), index,
                                      ir::StorageSize(result.type)));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
