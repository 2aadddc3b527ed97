// triangular_solve: one thread per right-hand side (the thread of the
// side's first element; the others idle) solves it by substitution into
// the result, in f64 whatever the element type, with the same order of
// operations and roundings as the CPU kernel
// (runtime/cpu/triangular_solve_kernel.cc), so both give the same bits.
// Each side costs the thread n^2 steps: meant for the small systems of
// programs that solve per batch element, not for large matrices.
#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ptx/accumulation.h"
#include "compiler_stub/ptx/kernel_writer.h"
#include "support/status_macros.h"

namespace pjrtx::ptx {

using ir::ElementType;
using ir::Instruction;

absl::Status EmitTriangularSolveKernel(KernelWriter& writer,
                                       const Instruction& instruction) {
  if (absl::Status types = CheckRegisterTypes(instruction); !types.ok()) {
    return types;
  }
  const ir::Shape& a = instruction.operand_types[0].shape;
  const ir::Shape& result = instruction.result_types[0].shape;
  const ir::TriangularSolveOptions& options =
      instruction.attributes.triangular_solve;
  const ElementType type = result.type;
  const size_t size = ir::StorageSize(type);
  const int rank = result.rank();
  const int64_t n = a.dims[rank - 1];
  // As on the CPU: every case is m y = c with m = op(a) or op(a)^T.
  const bool transposed = options.transpose_a != !options.left_side;
  const bool forward = options.lower != transposed;
  const int solved = options.left_side ? rank - 2 : rank - 1;
  const int64_t element_step = options.left_side ? result.dims[rank - 1] : 1;

  PtxBuilder& b = writer.builder();
  const std::string index = writer.BeginLoop();
  const std::vector<std::string> multi = writer.Unflatten(index, result.dims);
  const std::string done = writer.NewLabel("side_done");
  if (multi[solved] != "0") writer.BranchUnlessZero(multi[solved], done);
  // Where this side's matrix starts in a (batch dimensions only).
  const std::vector<int64_t> a_strides = RowMajorStrides(a.dims);
  const std::vector<std::string> batch(multi.begin(), multi.begin() + rank - 2);
  const std::string a_base = writer.Affine(
      batch, std::vector<int64_t>(a_strides.begin(), a_strides.end() - 2), 0);
  // m[i][j] as an address in a.
  auto m_at = [&](const std::string& i, const std::string& j) {
    const std::string offset =
        transposed ? writer.Affine({a_base, j, i}, {1, n, 1}, 0)
                   : writer.Affine({a_base, i, j}, {1, n, 1}, 0);
    return writer.Address(writer.input(0), offset, size);
  };
  // Element `i` of this side in b (input 1) or the result.
  auto side_at = [&](const std::string& base, const std::string& i) {
    return writer.Address(base, writer.Affine({index, i}, {1, element_step}, 0),
                          size);
  };

  PJRTX_RETURN_IF_ERROR(writer.CountedLoop(n, [&](const std::string& t) {
    std::string i = t;
    if (!forward) {
      i = writer.NewB64();
      b.Emit("sub.u64", {i, Immediate(n - 1), t});
    }
    const Register sum = NewAccumulator(writer, ElementType::kF64);
    // The solved elements: j < i going forward, j > i going back.
    PJRTX_RETURN_IF_ERROR(writer.CountedLoop(n, [&](const std::string& j) {
      const std::string next = writer.NewLabel("next_term");
      const std::string skip = writer.NewPred();
      b.Emit(forward ? "setp.ge.u64" : "setp.le.u64", {skip, j, i});
      b.Emit(absl::StrCat("@", skip, " bra"), {next});
      const Register m = writer.Load(type, m_at(i, j));
      const Register y = writer.Load(type, side_at(writer.output(0), j));
      PJRTX_RETURN_IF_ERROR(MultiplyAccumulate(writer, instruction, sum, m, y));
      b.EmitLabel(next);
      return absl::OkStatus();
    }));
    PJRTX_ASSIGN_OR_RETURN(
        Register c,
        ConvertRegister(writer, instruction,
                        writer.Load(type, side_at(writer.input(1), i)),
                        ElementType::kF64));
    const Register residual{b.NewRegister(RegisterClass::kF64),
                            ElementType::kF64};
    b.Emit("sub.rn.f64", {residual.name, c.name, sum.name});
    if (!options.unit_diagonal) {
      PJRTX_ASSIGN_OR_RETURN(
          Register diagonal,
          ConvertRegister(writer, instruction, writer.Load(type, m_at(i, i)),
                          ElementType::kF64));
      b.Emit("div.rn.f64", {residual.name, residual.name, diagonal.name});
    }
    PJRTX_ASSIGN_OR_RETURN(
        Register value, ConvertRegister(writer, instruction, residual, type));
    writer.Store(value, side_at(writer.output(0), i));
    return absl::OkStatus();
  }));
  b.EmitLabel(done);
  writer.EndLoop();
  return absl::OkStatus();
}

}  // namespace pjrtx::ptx
