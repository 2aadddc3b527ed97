// sort: one thread per row along the sort dimension (the thread of the
// row's first element; the others idle) copies the row of every operand to
// the results and sorts them there by insertion, moving the elements of
// all operands together, with the comparator region evaluated on scalars.
// Insertion sort is stable, as is_stable asks, and takes time quadratic in
// the row length: meant for the short rows of top-k style programs, not
// for sorting large arrays.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {

using ir::Instruction;

absl::Status EmitSortKernel(KernelWriter& writer, const ir::Program& program,
                            const Instruction& instruction) {
  const ir::Shape& shape = instruction.result_types[0].shape;
  const int64_t dimension = instruction.attributes.dimension;
  const int64_t length = shape.dims[dimension];
  const int64_t stride = RowMajorStrides(shape.dims)[dimension];
  const size_t operands = instruction.operands.size();
  for (const ir::ValueType& type : instruction.operand_types) {
    if (!RegisterClassFor(type.shape.type)) {
      return Unsupported(
          instruction,
          absl::StrCat("on ", ir::ElementTypeToMlir(type.shape.type)));
    }
  }
  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, shape.dims);
  const std::string done = writer.NewLabel("row_done");
  if (multi[dimension] != "0") {
    // Only the thread of the row's first element works.
    writer.BranchUnlessZero(multi[dimension], done);
  }
  // The address of element `position` (a .b64 register) of the row in
  // result (or operand) `k`.
  auto element = [&](const std::string& base, size_t k,
                     const std::string& position) {
    const size_t size =
        ir::StorageSize(instruction.operand_types[k].shape.type);
    const std::string offset = writer.Affine({index, position}, {1, stride}, 0);
    return writer.Address(base, offset, size);
  };
  // Copy the rows.
  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(length, [&](const std::string& t) {
    for (size_t k = 0; k < operands; ++k) {
      const size_t size =
          ir::StorageSize(instruction.operand_types[k].shape.type);
      writer.Copy(size, element(writer.input(static_cast<int>(k)), k, t),
                  element(writer.output(static_cast<int>(k)), k, t));
    }
    return absl::OkStatus();
  }));

  // Insertion sort: element i moves left while the comparator puts it
  // before its left neighbour.
  const std::string i = writer.NewB64();
  b.Emit("mov.u64", {i, "1"});
  const std::string outer = writer.NewLabel("outer");
  const std::string outer_end = writer.NewLabel("outer_end");
  b.EmitLabel(outer);
  const std::string finished = writer.NewPred();
  b.Emit("setp.ge.u64", {finished, i, Immediate(length)});
  b.Emit(absl::StrCat("@", finished, " bra"), {outer_end});
  const std::string j = writer.NewB64();
  b.Emit("mov.u64", {j, i});
  const std::string inner = writer.NewLabel("inner");
  const std::string inner_end = writer.NewLabel("inner_end");
  b.EmitLabel(inner);
  const std::string at_start = writer.NewPred();
  b.Emit("setp.eq.u64", {at_start, j, "0"});
  b.Emit(absl::StrCat("@", at_start, " bra"), {inner_end});
  const std::string left = writer.NewB64();
  b.Emit("sub.u64", {left, j, "1"});
  std::vector<Register> arguments, here, there;
  std::vector<std::string> here_address, there_address;
  for (size_t k = 0; k < operands; ++k) {
    const ir::ElementType type = instruction.operand_types[k].shape.type;
    here_address.push_back(element(writer.output(static_cast<int>(k)), k, j));
    there_address.push_back(
        element(writer.output(static_cast<int>(k)), k, left));
    here.push_back(writer.Load(type, here_address.back()));
    there.push_back(writer.Load(type, there_address.back()));
    arguments.push_back(here.back());
    arguments.push_back(there.back());
  }
  PJRTX_ASSIGN_OR_RETURN(Register before,
                         EmitScalarRegion(writer, program, instruction,
                                          instruction.regions[0], arguments));
  if (before.type != ir::ElementType::kPred) {
    return Unsupported(instruction, "with a comparator not returning i1");
  }
  const std::string stay = writer.NewPred();
  b.Emit("not.pred", {stay, before.name});
  b.Emit(absl::StrCat("@", stay, " bra"), {inner_end});
  for (size_t k = 0; k < operands; ++k) {
    writer.Store(here[k], there_address[k]);
    writer.Store(there[k], here_address[k]);
  }
  b.Emit("mov.u64", {j, left});
  b.Emit("bra", {inner});
  b.EmitLabel(inner_end);
  b.Emit("add.u64", {i, i, "1"});
  b.Emit("bra", {outer});
  b.EmitLabel(outer_end);
  b.EmitLabel(done);
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
