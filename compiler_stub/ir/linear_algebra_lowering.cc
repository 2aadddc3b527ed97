// Rules for the linear-algebra ops beyond dot_general: triangular_solve.
// Infers nothing the program does not declare: the result must be b's
// type, and every dimension the kernels index is checked here.
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

// The StableHLO spec's constraints: a and b of one floating-point type and
// one rank R >= 2, the same batch dimensions (all but the last two), a
// square in its last two, b's solved dimension (R-2 on the left side, R-1
// on the right) as long as a's side; the result is b's type.
absl::Status LowerTriangularSolve(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(2));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& a = s.shape(0);
  const Shape& b = s.shape(1);
  if (a.type != b.type) {
    return s.Error(absl::StrCat("a is ", ElementTypeToMlir(a.type), " and b ",
                                ElementTypeToMlir(b.type),
                                "; they must have one element type"));
  }
  if (!IsFloat(a.type)) {
    return s.Error(absl::StrCat("element type ", ElementTypeToMlir(a.type),
                                " is not a floating-point type"));
  }
  if (a.rank() < 2 || a.rank() != b.rank()) {
    return s.Error(absl::StrCat("a (rank ", a.rank(), ") and b (rank ",
                                b.rank(),
                                ") must have one rank of at least 2"));
  }
  const int r = a.rank();
  if (a.dims[r - 2] != a.dims[r - 1]) {
    return s.Error(absl::StrCat("a ", DimsText(a.dims),
                                " is not square in its last two dimensions"));
  }
  for (int d = 0; d < r - 2; ++d) {
    if (a.dims[d] != b.dims[d]) {
      return s.Error(absl::StrCat("batch dimension ", d, " of a (", a.dims[d],
                                  ") and of b (", b.dims[d], ") differ"));
    }
  }
  PJRTX_ASSIGN_OR_RETURN(bool left_side, s.attributes.Bool("left_side"));
  PJRTX_ASSIGN_OR_RETURN(bool lower, s.attributes.Bool("lower"));
  PJRTX_ASSIGN_OR_RETURN(bool unit_diagonal,
                         s.attributes.Bool("unit_diagonal"));
  // X of #stablehlo<transpose X>.
  PJRTX_ASSIGN_OR_RETURN(const std::string mode,
                         s.attributes.EnumBody("transpose_a"));
  static const std::map<std::string, bool> kTransposes = {
      {"NO_TRANSPOSE", false}, {"TRANSPOSE", true}, {"ADJOINT", true}};
  const auto t = kTransposes.find(mode);
  if (t == kTransposes.end()) {
    return s.Error(absl::StrCat("transpose_a '", mode,
                                "' is not one of NO_TRANSPOSE, TRANSPOSE, "
                                "ADJOINT"));
  }
  const int solved = left_side ? r - 2 : r - 1;
  if (b.dims[solved] != a.dims[r - 1]) {
    return s.Error(absl::StrCat(
        "b ", DimsText(b.dims), " has ", b.dims[solved], " in dimension ",
        solved, " where a's side is ", a.dims[r - 1],
        " (left_side = ", left_side ? "true" : "false", ")"));
  }
  s.instruction.opcode = OpCode::kTriangularSolve;
  s.instruction.attributes.triangular_solve =
      TriangularSolveOptions{left_side, lower, unit_diagonal, t->second};
  return s.ExpectResult(0, b);
}

}  // namespace

bool LowerLinearAlgebraOp(OpState& s, absl::Status* status) {
  if (s.op.name == "stablehlo.triangular_solve") {
    *status = LowerTriangularSolve(s);
    return true;
  }
  return false;
}

}  // namespace pjrtx::ir
