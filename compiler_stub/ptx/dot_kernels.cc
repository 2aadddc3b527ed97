// dot_general with one thread per output element, which walks the
// contracting dimensions (in the order lhs_contracting lists them,
// row-major) and accumulates as the CPU reference kernel
// (runtime/cpu/dot_general_kernel.cc) does (accumulation.h), so results
// are the same bits. The CPU interpreter may run f32 and bf16 dots on oneDNN
// instead, whose f32 accumulation can differ in the last bits.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/accumulation.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {
namespace {

using ir::ElementType;
using ir::Instruction;

}  // namespace

absl::Status EmitDotKernel(KernelWriter& writer,
                           const Instruction& instruction) {
  const ir::Shape& lhs = instruction.operand_types[0].shape;
  const ir::Shape& rhs = instruction.operand_types[1].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::DotDimensions& dims = instruction.attributes.dot;
  PJRTX_ASSIGN_OR_RETURN(ElementType acc_type, AccumulatorFor(instruction));
  const std::vector<int64_t> lhs_free =
      ir::FreeDimensions(lhs.rank(), dims.lhs_batching, dims.lhs_contracting);
  const std::vector<int64_t> rhs_free =
      ir::FreeDimensions(rhs.rank(), dims.rhs_batching, dims.rhs_contracting);
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

  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  const std::string lhs_offset = writer.Affine(multi, lhs_coefficients, 0);
  const std::string rhs_offset = writer.Affine(multi, rhs_coefficients, 0);
  const Register acc = NewAccumulator(writer, acc_type);
  auto multiply_add = [&]() {
    return LoadMultiplyAccumulate(writer, instruction, acc, lhs_offset,
                                  rhs_offset);
  };
  if (!empty) {
    PJRTX_RETURN_IF_ERROR(writer.Loops(contracted, {lhs_steps, rhs_steps},
                                       {lhs_offset, rhs_offset}, multiply_add));
  }
  PJRTX_RETURN_IF_ERROR(StoreAccumulator(writer, instruction, acc, index));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
