// chlo.ragged_dot (JAX's lax.ragged_dot, the grouped matmul of
// mixture-of-experts layers) where the lhs's ragged dimension is one of
// its free dimensions: each row along it belongs to the group its index
// falls in (by the running sum of group_sizes) and is multiplied by that
// group's slice of the rhs. Lowered from a template: the lhs repeated per
// group, a batched dot_general with the group as the batch dimension, the
// products of other groups' rows zeroed, and a sum over the groups. That
// does G times the work of the rows' own products, and holds G copies of
// the lhs and of the result: correct on every target, not fast nor frugal
// for many groups.
// A ragged contracting or batch dimension is UNIMPLEMENTED.
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/template_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::string List(const std::vector<int64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

}  // namespace

absl::Status LowerRaggedDot(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(3));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const mlir::Attribute* numbers =
      s.attributes.Find("ragged_dot_dimension_numbers");
  if (numbers == nullptr) {
    return s.Error("needs ragged_dot_dimension_numbers");
  }
  std::vector<int64_t> lb, rb, lc, rc, ragged, group;
  for (auto [key, out] : {std::pair{"lhs_batching_dimensions", &lb},
                          {"rhs_batching_dimensions", &rb},
                          {"lhs_contracting_dimensions", &lc},
                          {"rhs_contracting_dimensions", &rc},
                          {"lhs_ragged_dimensions", &ragged},
                          {"rhs_group_dimensions", &group}}) {
    PJRTX_ASSIGN_OR_RETURN(*out, DialectIntegers(*numbers, key, s.op));
  }
  const Shape& lhs = s.shape(0);
  const Shape& rhs = s.shape(1);
  const Shape& sizes = s.shape(2);
  for (auto [what, dims, rank] :
       {std::tuple{"lhs_batching_dimensions", &lb, lhs.rank()},
        {"lhs_contracting_dimensions", &lc, lhs.rank()},
        {"rhs_batching_dimensions", &rb, rhs.rank()},
        {"rhs_contracting_dimensions", &rc, rhs.rank()}}) {
    if (absl::Status ok = CheckDims(s, what, *dims, rank); !ok.ok()) return ok;
  }
  if (lb.size() != rb.size() || lc.size() != rc.size()) {
    return s.Error("batching and contracting dimensions must pair up");
  }
  for (size_t i = 0; i < lb.size() + lc.size(); ++i) {
    const bool batch = i < lb.size();
    const int64_t l = batch ? lb[i] : lc[i - lb.size()];
    const int64_t r = batch ? rb[i] : rc[i - lb.size()];
    if (Contains(batch ? lc : lb, l) || Contains(batch ? rc : rb, r)) {
      return s.Error("a dimension is both batching and contracting");
    }
    if (lhs.dims[l] != rhs.dims[r]) {
      return s.Error(absl::StrCat("lhs dimension ", l, " (", lhs.dims[l],
                                  ") and rhs dimension ", r, " (", rhs.dims[r],
                                  ") are paired but differ"));
    }
  }
  if (ragged.size() != 1) {
    return s.Error(absl::StrCat("lhs_ragged_dimensions ", List(ragged),
                                " must name one dimension"));
  }
  if (Contains(lc, ragged[0]) || Contains(lb, ragged[0])) {
    return UnsupportedAt(s.op.location,
                         absl::StrCat(s.op.name,
                                      " with a ragged contracting or batch "
                                      "dimension is not supported"));
  }
  if (group.size() != 1 || Contains(rb, group[0]) || Contains(rc, group[0]) ||
      group[0] < 0 || group[0] >= rhs.rank()) {
    return s.Error(absl::StrCat(
        "rhs_group_dimensions ", List(group),
        " must name one rhs dimension that is neither batching nor "
        "contracting (a ragged free lhs dimension needs a group "
        "dimension)"));
  }
  if (ragged[0] < 0 || ragged[0] >= lhs.rank()) {
    return s.Error(absl::StrCat("lhs_ragged_dimensions ", List(ragged),
                                " is out of range for rank ", lhs.rank()));
  }
  const int64_t groups = rhs.dims[group[0]];
  if (groups == 0 || sizes.rank() > 1) {
    return UnsupportedAt(
        s.op.location,
        absl::StrCat(s.op.name, groups == 0
                                    ? " with no groups is not supported"
                                    : " with group_sizes per batch is not "
                                      "supported"));
  }
  if (sizes.rank() != 1 || sizes.dims[0] != groups || !IsInteger(sizes.type)) {
    return s.Error(absl::StrCat("group_sizes ", sizes.ToString(),
                                " must be a vector of ", groups,
                                " integers (the rhs group dimension)"));
  }
  // The op's result is dot_general's layout (batch dims, lhs free dims,
  // rhs free dims) without the group dimension.
  const std::vector<int64_t> lhs_free = FreeDimensions(lhs.rank(), lb, lc);
  const std::vector<int64_t> rhs_free = FreeDimensions(rhs.rank(), rb, rc);
  const ElementType type = s.result(0).type;
  std::vector<int64_t> out;
  for (int64_t d : lb) out.push_back(lhs.dims[d]);
  for (int64_t d : lhs_free) out.push_back(lhs.dims[d]);
  for (int64_t d : rhs_free) {
    if (d != group[0]) out.push_back(rhs.dims[d]);
  }
  if (absl::Status result = s.ExpectResult(0, Shape{type, out}); !result.ok()) {
    return result;
  }
  // The lhs repeated per group ([G, lhs dims]), each copy keeping only its
  // group's rows, times the rhs with the group as a batch dimension: a
  // batched matmul, summed over the groups.
  std::vector<int64_t> repeated = {groups};
  repeated.insert(repeated.end(), lhs.dims.begin(), lhs.dims.end());
  std::vector<int64_t> lhs_positions;  // Of lhs's dims in `repeated`.
  for (int d = 0; d < lhs.rank(); ++d) lhs_positions.push_back(d + 1);
  std::vector<int64_t> batch_lhs = {0}, batch_rhs = {group[0]};
  for (size_t i = 0; i < lb.size(); ++i) {
    batch_lhs.push_back(lb[i] + 1);
    batch_rhs.push_back(rb[i]);
  }
  std::vector<int64_t> contract_lhs;
  for (int64_t d : lc) contract_lhs.push_back(d + 1);
  // Where the ragged dimension lands in dot_general's result.
  const int64_t row_position =
      1 + static_cast<int64_t>(lb.size()) +
      (std::find(lhs_free.begin(), lhs_free.end(), ragged[0]) -
       lhs_free.begin());
  std::vector<int64_t> grouped = {groups};
  grouped.insert(grouped.end(), out.begin(), out.end());

  const std::string l = TensorText(lhs.dims, lhs.type);
  const std::string r = TensorText(rhs.dims, rhs.type);
  const std::string g = TensorText(sizes.dims, sizes.type);
  const std::string lg = TensorText(repeated, lhs.type);
  const std::string dp = TensorText(grouped, ElementType::kPred);
  const int64_t m = lhs.dims[ragged[0]];
  // Which group each row is in, as [G, m] (small), then spread over the
  // repeated lhs.
  const std::string mi = TensorText({groups, m}, ElementType::kS64);
  const std::string mp = TensorText({groups, m}, ElementType::kPred);
  const std::string gi = TensorText({groups}, ElementType::kS64);
  const std::string dg = TensorText(grouped, type);
  const std::string o = TensorText(out, type);
  const std::string e = TensorText({}, type);
  auto zero_of = [](ElementType t) { return IsFloat(t) ? "0.0" : "0"; };
  const std::string by_group = "{broadcast_dimensions = array<i64: 0>}";
  return LowerFromTemplate(
      s,
      absl::StrCat(
          "func.func @ragged_dot(%lhs: ", l, ", %rhs: ", r, ", %sizes: ", g,
          ") -> ", o, " {\n", "  %s = \"stablehlo.convert\"(%sizes) : (", g,
          ") -> ", gi, "\n",
          "  %z = stablehlo.constant dense<0> : tensor<si64>\n",
          // The running sum: each group's end.
          "  %ends = \"stablehlo.reduce_window\"(%s, %z) ({\n",
          "  ^bb0(%a: tensor<si64>, %b: tensor<si64>):\n",
          "    %c = \"stablehlo.add\"(%a, %b) : (tensor<si64>, tensor<si64>) "
          "-> tensor<si64>\n",
          "    \"stablehlo.return\"(%c) : (tensor<si64>) -> ()\n",
          "  }) {window_dimensions = ", ArrayText({groups}),
          ", padding = dense<[[", groups - 1, ", 0]]> : tensor<1x2xi64>} : (",
          gi, ", tensor<si64>) -> ", gi, "\n",
          "  %starts = \"stablehlo.subtract\"(%ends, %s) : (", gi, ", ", gi,
          ") -> ", gi, "\n",
          "  %row = \"stablehlo.iota\"() {iota_dimension = 1 : i64} : () -> ",
          mi, "\n", "  %eb = \"stablehlo.broadcast_in_dim\"(%ends) ", by_group,
          " : (", gi, ") -> ", mi, "\n",
          "  %sb = \"stablehlo.broadcast_in_dim\"(%starts) ", by_group, " : (",
          gi, ") -> ", mi, "\n",
          "  %before = \"stablehlo.compare\"(%row, %eb) {comparison_direction "
          "= #stablehlo<comparison_direction LT>} : (",
          mi, ", ", mi, ") -> ", mp, "\n",
          "  %after = \"stablehlo.compare\"(%row, %sb) {comparison_direction "
          "= #stablehlo<comparison_direction GE>} : (",
          mi, ", ", mi, ") -> ", mp, "\n",
          "  %in = \"stablehlo.and\"(%before, %after) : (", mp, ", ", mp,
          ") -> ", mp, "\n",
          "  %copies = \"stablehlo.broadcast_in_dim\"(%lhs) "
          "{broadcast_dimensions = ",
          ArrayText(lhs_positions), "} : (", l, ") -> ", lg, "\n",
          "  %d = \"stablehlo.dot_general\"(%copies, %rhs) "
          "{dot_dimension_numbers = #stablehlo.dot<lhs_batching_dimensions = ",
          List(batch_lhs), ", rhs_batching_dimensions = ", List(batch_rhs),
          ", lhs_contracting_dimensions = ", List(contract_lhs),
          ", rhs_contracting_dimensions = ", List(rc), ">} : (", lg, ", ", r,
          ") -> ", dg, "\n",
          // Only each row's own group's product is kept (masking the
          // inputs instead would let another group's inf or NaN through
          // 0 * inf).
          "  %mask = \"stablehlo.broadcast_in_dim\"(%in) {broadcast_dimensions "
          "= ",
          ArrayText({0, row_position}), "} : (", mp, ") -> ", dp, "\n",
          "  %zero = stablehlo.constant dense<", zero_of(type), "> : ", e, "\n",
          "  %zeros = \"stablehlo.broadcast_in_dim\"(%zero) "
          "{broadcast_dimensions = array<i64>} : (",
          e, ") -> ", dg, "\n",
          "  %kept = \"stablehlo.select\"(%mask, %d, %zeros) : (", dp, ", ", dg,
          ", ", dg, ") -> ", dg, "\n",
          "  %out = \"stablehlo.reduce\"(%kept, %zero) ({\n", "  ^bb0(%x: ", e,
          ", %y: ", e, "):\n", "    %t = \"stablehlo.add\"(%x, %y) : (", e,
          ", ", e, ") -> ", e, "\n", "    \"stablehlo.return\"(%t) : (", e,
          ") -> ()\n", "  }) {dimensions = array<i64: 0>} : (", dg, ", ", e,
          ") -> ", o, "\n", "  func.return %out : ", o, "\n}\n"));
}

}  // namespace pjrtx::ir
