// triangular_solve of complex values as one real triangular_solve of twice
// the size.
//
// A complex matrix acts on real vectors of twice the length as a real
// matrix of 2x2 blocks: a + bi on a column (re, im) is [[a, -b], [b, a]],
// on a row it is [[a, b], [-b, a]]. That matrix is triangular only where
// each diagonal block is, so the diagonal is divided out first: on the
// left side a = L d with L = a / d column by column (unit diagonal),
// a x = b is L y = b with x = y / d row by row; on the right side
// a = d U, x a = b is y U = b with x = y / d column by column. The real
// solve then reads only its unit-diagonal triangle, as the complex one
// reads only a's.
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/attribute_reader.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/passes/complex_expander.h"
#include "support/status_macros.h"

namespace pjrtx::ir::complex_internal {
namespace {

std::string DimsText(const std::vector<int64_t>& dims) {
  return absl::StrCat("[", absl::StrJoin(dims, ","), "]");
}

}  // namespace

ValueRef ComplexExpander::Concatenate(const std::vector<ValueRef>& values,
                                      const std::vector<int64_t>& dims,
                                      int axis) {
  std::vector<std::string> operands, types;
  for (const ValueRef& value : values) {
    operands.push_back(RefText(value));
    types.push_back(TensorText(dims, element_));
  }
  std::vector<int64_t> to = dims;
  to[axis] *= static_cast<int64_t>(values.size());
  return Emit(absl::StrCat(
      "\"stablehlo.concatenate\"(", absl::StrJoin(operands, ", "),
      ") {dimension = ", axis, " : i64} : (", absl::StrJoin(types, ", "),
      ") -> ", TensorText(to, element_)));
}

ValueRef ComplexExpander::BroadcastAlong(const ValueRef& x,
                                         const std::vector<int64_t>& from,
                                         const std::vector<int64_t>& to,
                                         int axis) {
  std::vector<int64_t> dimensions(from.size());
  std::iota(dimensions.begin(), dimensions.end(), 0);
  dimensions.back() = axis;
  return BroadcastInDim(x, from, to, dimensions);
}

absl::Status ComplexExpander::ExpandTriangularSolve(const Operation& op) {
  auto error = [&op](const std::string& what) {
    return absl::InvalidArgumentError(absl::StrCat(
        mlir::LocationText(op.location), ": ", op.name, ": ", what));
  };
  if (op.operands.size() != 2 || op.operand_types.size() != 2) {
    return error(
        absl::StrCat("takes 2 operands (a, b), got ", op.operands.size()));
  }
  const Type& a_type = op.operand_types[0];
  const Type& b_type = op.operand_types[1];
  if (a_type.element != b_type.element || a_type.kind != Type::Kind::kTensor ||
      b_type.kind != Type::Kind::kTensor) {
    return error(absl::StrCat("a is ", a_type.text, " and b ", b_type.text,
                              "; they must be tensors of one element type"));
  }
  const int r = static_cast<int>(a_type.dims.size());
  if (r < 2 || b_type.dims.size() != a_type.dims.size()) {
    return error(absl::StrCat("a (rank ", r, ") and b (rank ",
                              b_type.dims.size(),
                              ") must have one rank of at least 2"));
  }
  const int64_t m = a_type.dims[r - 1];
  if (a_type.dims[r - 2] != m) {
    return error(absl::StrCat("a ", DimsText(a_type.dims),
                              " is not square in its last two dimensions"));
  }
  const std::vector<int64_t> batch(a_type.dims.begin(), a_type.dims.end() - 2);
  for (int d = 0; d < r - 2; ++d) {
    if (b_type.dims[d] != batch[d]) {
      return error(absl::StrCat("batch dimension ", d, " of a (", batch[d],
                                ") and of b (", b_type.dims[d], ") differ"));
    }
  }
  const AttributeReader attributes(op);
  PJRTX_ASSIGN_OR_RETURN(const bool left_side, attributes.Bool("left_side"));
  PJRTX_ASSIGN_OR_RETURN(bool lower, attributes.Bool("lower"));
  PJRTX_ASSIGN_OR_RETURN(const bool unit_diagonal,
                         attributes.Bool("unit_diagonal"));
  // X of #stablehlo<transpose X>.
  PJRTX_ASSIGN_OR_RETURN(const std::string mode,
                         attributes.EnumBody("transpose_a"));
  if (mode != "NO_TRANSPOSE" && mode != "TRANSPOSE" && mode != "ADJOINT") {
    return error(absl::StrCat("transpose_a '", mode,
                              "' is not one of NO_TRANSPOSE, TRANSPOSE, "
                              "ADJOINT"));
  }
  const int solved = left_side ? r - 2 : r - 1;
  if (b_type.dims[solved] != m) {
    return error(
        absl::StrCat("b ", DimsText(b_type.dims), " has ", b_type.dims[solved],
                     " in dimension ", solved, " where a's side is ", m,
                     " (left_side = ", left_side ? "true" : "false", ")"));
  }
  if (op.result_types.size() != 1 ||
      op.result_types[0].element != b_type.element ||
      op.result_types[0].dims != b_type.dims) {
    return error(absl::StrCat("the result must be b's type ", b_type.text));
  }
  PJRTX_ASSIGN_OR_RETURN(Parts a, PartsOf(op, 0));
  PJRTX_ASSIGN_OR_RETURN(const Parts b, PartsOf(op, 1));
  const std::vector<int64_t>& a_dims = a_type.dims;
  const std::vector<int64_t>& b_dims = b_type.dims;
  type_ = TensorText(a_dims, element_);
  bool_type_ = TensorText(a_dims, "i1");

  // op(a) made explicit: its triangle is the other one.
  if (mode != "NO_TRANSPOSE") {
    std::vector<int64_t> permutation(r);
    std::iota(permutation.begin(), permutation.end(), 0);
    std::swap(permutation[r - 2], permutation[r - 1]);
    a = {Transpose(a.re, a_dims, permutation),
         Transpose(a.im, a_dims, permutation)};
    if (mode == "ADJOINT") a.im = Op("negate", a.im);
    lower = !lower;
  }

  // The diagonal d, and a divided by it: columns on the left side, rows on
  // the right (unit diagonal: d = 1).
  std::vector<int64_t> diagonal_dims = batch;
  diagonal_dims.push_back(m);
  Parts diagonal, inverse;
  Parts scaled = a;
  if (!unit_diagonal) {
    std::vector<int64_t> flat = batch;
    flat.push_back(m * m);
    std::vector<int64_t> starts(flat.size(), 0), strides(flat.size(), 1);
    strides.back() = m + 1;
    diagonal = {
        Slice(Reshape(a.re, a_dims, flat), flat, starts, flat, strides),
        Slice(Reshape(a.im, a_dims, flat), flat, starts, flat, strides)};
    // 1 / d once (m divisions), then products: a division for every entry
    // of a and of x costs more than the solve itself at moderate sizes.
    type_ = TensorText(diagonal_dims, element_);
    bool_type_ = TensorText(diagonal_dims, "i1");
    inverse = Reciprocal(diagonal);
    type_ = TensorText(a_dims, element_);
    bool_type_ = TensorText(a_dims, "i1");
    const int along = left_side ? r - 1 : r - 2;
    scaled =
        Multiply(a, {BroadcastAlong(inverse.re, diagonal_dims, a_dims, along),
                     BroadcastAlong(inverse.im, diagonal_dims, a_dims, along)});
  }
  // Only the strict triangle: the diagonal is 1 in the real solve, and the
  // other triangle is never read (nor its NaNs, from a zero on d).
  const std::string index_type = TensorText(a_dims, "i64");
  const ValueRef rows =
      Emit(absl::StrCat("\"stablehlo.iota\"() {iota_dimension = ", r - 2,
                        " : i64} : () -> ", index_type));
  const ValueRef columns =
      Emit(absl::StrCat("\"stablehlo.iota\"() {iota_dimension = ", r - 1,
                        " : i64} : () -> ", index_type));
  const ValueRef strict =
      Compare(lower ? "GT" : "LT", rows, columns, index_type);
  const ValueRef zero = Constant(0);
  const Parts triangle{Select(strict, scaled.re, zero),
                       Select(strict, scaled.im, zero)};

  // The real matrix: each entry a 2x2 block, [.., m, 2, m, 2] -> [.., 2m, 2m].
  const ValueRef negated = Op("negate", triangle.im);
  const ValueRef blocks[2][2] = {
      {triangle.re, left_side ? negated : triangle.im},
      {left_side ? triangle.im : negated, triangle.re}};
  std::vector<int64_t> entry_dims = batch;
  for (int64_t d : {m, int64_t{1}, m, int64_t{1}}) entry_dims.push_back(d);
  std::vector<ValueRef> block_rows;
  for (const auto& row : blocks) {
    block_rows.push_back(Concatenate({Reshape(row[0], a_dims, entry_dims),
                                      Reshape(row[1], a_dims, entry_dims)},
                                     entry_dims, r + 1));
  }
  std::vector<int64_t> row_dims = entry_dims;
  row_dims[r + 1] = 2;
  std::vector<int64_t> real_a_dims = batch;
  real_a_dims.push_back(2 * m);
  real_a_dims.push_back(2 * m);
  std::vector<int64_t> block_dims = row_dims;
  block_dims[r - 1] = 2;
  const ValueRef real_a = Reshape(Concatenate(block_rows, row_dims, r - 1),
                                  block_dims, real_a_dims);

  // b with each complex entry as two real ones along the solved dimension:
  // rows (re, im) on the left side, columns on the right.
  const int pair_axis = solved + 1;
  std::vector<int64_t> single_dims = b_dims;
  single_dims.insert(single_dims.begin() + pair_axis, 1);
  std::vector<int64_t> paired_dims = single_dims;
  paired_dims[pair_axis] = 2;
  std::vector<int64_t> real_b_dims = b_dims;
  real_b_dims[solved] *= 2;
  const ValueRef real_b =
      Reshape(Concatenate({Reshape(b.re, b_dims, single_dims),
                           Reshape(b.im, b_dims, single_dims)},
                          single_dims, pair_axis),
              paired_dims, real_b_dims);

  const std::string real_b_type = TensorText(real_b_dims, element_);
  const ValueRef solution = Emit(absl::StrCat(
      "\"stablehlo.triangular_solve\"(", RefText(real_a), ", ", RefText(real_b),
      ") {left_side = ", left_side ? "true" : "false",
      ", lower = ", lower ? "true" : "false",
      ", unit_diagonal = true, transpose_a = #stablehlo<transpose "
      "NO_TRANSPOSE>} : (",
      TensorText(real_a_dims, element_), ", ", real_b_type, ") -> ",
      real_b_type));

  // Back to parts, then divided by d: rows on the left side, columns on
  // the right.
  const ValueRef paired = Reshape(solution, real_b_dims, paired_dims);
  Parts x;
  for (int part = 0; part < 2; ++part) {
    std::vector<int64_t> starts(paired_dims.size(), 0), limits = paired_dims;
    starts[pair_axis] = part;
    limits[pair_axis] = part + 1;
    const ValueRef one_part =
        Slice(paired, paired_dims, starts, limits,
              std::vector<int64_t>(paired_dims.size(), 1));
    (part == 0 ? x.re : x.im) = Reshape(one_part, single_dims, b_dims);
  }
  if (!unit_diagonal) {
    type_ = TensorText(b_dims, element_);
    bool_type_ = TensorText(b_dims, "i1");
    x = Multiply(x,
                 {BroadcastAlong(inverse.re, diagonal_dims, b_dims, solved),
                  BroadcastAlong(inverse.im, diagonal_dims, b_dims, solved)});
  }
  Define(op, x);
  return absl::OkStatus();
}

}  // namespace pjrtx::ir::complex_internal
