// dynamic_slice and dynamic_update_slice: the start indices are rank-0
// tensors read by every thread, clamped as the CPU target clamps them (to
// [0, operand dimension - slice size]); each thread then moves one element
// of the result.
#include <cstdint>
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

// Start index `d` (input `input`), as an s64 clamped to [0, limit].
absl::StatusOr<std::string> ClampedStart(KernelWriter& writer,
                                         const Instruction& instruction,
                                         int input, int64_t limit) {
  const ElementType type = instruction.operand_types[input].shape.type;
  if (!ir::IsInteger(type)) {
    return Unsupported(
        instruction,
        absl::StrCat("with ", ir::ElementTypeToMlir(type), " start indices"));
  }
  const Register raw =
      writer.Load(type, absl::StrCat("[", writer.input(input), "]"));
  PJRTX_ASSIGN_OR_RETURN(
      Register wide,
      ConvertRegister(writer, instruction, raw, ElementType::kS64));
  const std::string low = writer.NewB64();
  writer.builder().Emit("max.s64", {low, wide.name, "0"});
  const std::string clamped = writer.NewB64();
  writer.builder().Emit("min.s64", {clamped, low, Immediate(limit)});
  return clamped;
}

// The starts of every dimension (inputs first_input, ...), each clamped
// so that a block of `sizes` fits in `operand`.
absl::StatusOr<std::vector<std::string>> ClampedStarts(
    KernelWriter& writer, const Instruction& instruction, int first_input,
    const std::vector<int64_t>& operand, const std::vector<int64_t>& sizes) {
  std::vector<std::string> starts;
  for (size_t d = 0; d < operand.size(); ++d) {
    PJRTX_ASSIGN_OR_RETURN(
        std::string start,
        ClampedStart(writer, instruction, first_input + static_cast<int>(d),
                     operand[d] - sizes[d]));
    starts.push_back(start);
  }
  return starts;
}

absl::Status EmitDynamicSlice(KernelWriter& writer,
                              const Instruction& instruction) {
  const std::vector<int64_t>& operand = instruction.operand_types[0].shape.dims;
  const std::vector<int64_t>& sizes = instruction.result_types[0].shape.dims;
  const std::vector<int64_t> strides = RowMajorStrides(operand);
  const size_t size = ir::StorageSize(instruction.result_types[0].shape.type);
  const std::string index = writer.BeginLoop();
  PJRTX_ASSIGN_OR_RETURN(std::vector<std::string> starts,
                         ClampedStarts(writer, instruction, 1, operand, sizes));
  // Source = sum over d of (index[d] + start[d]) * stride[d].
  std::vector<std::string> terms = writer.Unflatten(index, sizes);
  terms.insert(terms.end(), starts.begin(), starts.end());
  std::vector<int64_t> coefficients = strides;
  coefficients.insert(coefficients.end(), strides.begin(), strides.end());
  const std::string source = writer.Affine(terms, coefficients, 0);
  writer.Copy(size, writer.Address(writer.input(0), source, size),
              writer.Address(writer.output(0), index, size));
  writer.EndLoop();
  return absl::OkStatus();
}

absl::Status EmitDynamicUpdateSlice(KernelWriter& writer,
                                    const Instruction& instruction) {
  // Each result element comes from the update where its index minus the
  // start lies within the update in every dimension (compared unsigned,
  // so that indices before the start count as outside), else from the
  // operand.
  const std::vector<int64_t>& operand = instruction.operand_types[0].shape.dims;
  const std::vector<int64_t>& update = instruction.operand_types[1].shape.dims;
  const std::vector<int64_t> update_strides = RowMajorStrides(update);
  const size_t size = ir::StorageSize(instruction.result_types[0].shape.type);
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, operand);
  PJRTX_ASSIGN_OR_RETURN(
      std::vector<std::string> starts,
      ClampedStarts(writer, instruction, 2, operand, update));
  PtxBuilder& b = writer.builder();
  std::string inside;
  std::vector<std::string> within;
  for (size_t d = 0; d < operand.size(); ++d) {
    const std::string offset = writer.NewB64();
    b.Emit("sub.u64", {offset, multi[d], starts[d]});
    within.push_back(offset);
    const std::string in_range = writer.NewPred();
    b.Emit("setp.lt.u64", {in_range, offset, Immediate(update[d])});
    if (inside.empty()) {
      inside = in_range;
    } else {
      const std::string both = writer.NewPred();
      b.Emit("and.pred", {both, inside, in_range});
      inside = both;
    }
  }
  const std::string from_update = writer.Affine(within, update_strides, 0);
  const std::string update_address = writer.NewB64();
  b.Emit("mad.lo.u64",
         {update_address, from_update, Immediate(static_cast<int64_t>(size)),
          writer.input(1)});
  const std::string operand_address = writer.NewB64();
  b.Emit("mad.lo.u64",
         {operand_address, index, Immediate(static_cast<int64_t>(size)),
          writer.input(0)});
  // A rank-0 update replaces the whole (rank-0) operand.
  std::string chosen = operand.empty() ? update_address : operand_address;
  if (!inside.empty()) {
    chosen = writer.NewB64();
    b.Emit("selp.b64", {chosen, update_address, operand_address, inside});
  }
  writer.Copy(size, absl::StrCat("[", chosen, "]"),
              writer.Address(writer.output(0), index, size));
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace

absl::Status EmitDynamicSliceKernel(KernelWriter& writer,
                                    const Instruction& instruction) {
  return instruction.opcode == OpCode::kDynamicSlice
             ? EmitDynamicSlice(writer, instruction)
             : EmitDynamicUpdateSlice(writer, instruction);
}

}  // namespace pjrtx::ptx
