// chlo.ragged_dot (JAX's lax.ragged_dot, the grouped matmul of
// mixture-of-experts layers) where the lhs's ragged dimension is one of
// its free dimensions: each row along it belongs to the group its index
// falls in (by the running sum of group_sizes) and is multiplied by that
// group's slice of the rhs. Lowered from a template: the lhs repeated per
// group with the other groups' rows zeroed, a batched dot_general with the
// group as the batch dimension, and a sum over the groups. That does G
// times the work of the rows' own products: correct on every target, not
// fast for many groups.
// A ragged contracting or batch dimension is UNIMPLEMENTED.
#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/template_lowering.h"

namespace pjrtx::ir {
namespace {

bool Contains(const std::vector<int64_t>& values, int64_t value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

std::vector<int64_t> FreeDims(int rank, const std::vector<int64_t>& batching,
                              const std::vector<int64_t>& contracting) {
  std::vector<int64_t> free;
  for (int64_t d = 0; d < rank; ++d) {
    if (!Contains(batching, d) && !Contains(contracting, d)) free.push_back(d);
  }
  return free;
}

std::string Tensor(const std::vector<int64_t>& dims, ElementType type) {
  std::string text = "tensor<";
  for (int64_t d : dims) absl::StrAppend(&text, d, "x");
  return absl::StrCat(text, ElementTypeToMlir(type), ">");
}

std::string List(const std::vector<int64_t>& values) {
  return absl::StrCat("[", absl::StrJoin(values, ", "), "]");
}

std::string Array(const std::vector<int64_t>& values) {
  return absl::StrCat("array<i64", values.empty() ? "" : ": ",
                      absl::StrJoin(values, ", "), ">");
}

}  // namespace

absl::Status LowerRaggedDot(OpState& s) {
  absl::Status status = s.RequireOperands(3);
  if (status.ok()) status = s.RequireResults(1);
  if (status.ok()) status = s.RequireTensors();
  if (!status.ok()) return status;
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
    absl::StatusOr<std::vector<int64_t>> values =
        DialectIntegers(*numbers, key, s.op);
    if (!values.ok()) return values.status();
    *out = *std::move(values);
  }
  const Shape& lhs = s.shape(0);
  const Shape& rhs = s.shape(1);
  const Shape& sizes = s.shape(2);
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
  if (sizes.rank() != 1 || sizes.dims[0] != groups || !IsInteger(sizes.type)) {
    return s.Error(absl::StrCat("group_sizes ", sizes.ToString(),
                                " must be a vector of ", groups,
                                " integers (the rhs group dimension)"));
  }
  if (lb.size() != rb.size() || lc.size() != rc.size()) {
    return s.Error("batching and contracting dimensions must pair up");
  }
  // The op's result is dot_general's layout (batch dims, lhs free dims,
  // rhs free dims) without the group dimension.
  const std::vector<int64_t> lhs_free = FreeDims(lhs.rank(), lb, lc);
  const std::vector<int64_t> rhs_free = FreeDims(rhs.rank(), rb, rc);
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
  std::vector<int64_t> grouped = {groups};
  grouped.insert(grouped.end(), out.begin(), out.end());

  const std::string l = Tensor(lhs.dims, lhs.type);
  const std::string r = Tensor(rhs.dims, rhs.type);
  const std::string g = Tensor(sizes.dims, sizes.type);
  const std::string lg = Tensor(repeated, lhs.type);
  const std::string lp = Tensor(repeated, ElementType::kPred);
  const int64_t m = lhs.dims[ragged[0]];
  // Which group each row is in, as [G, m] (small), then spread over the
  // repeated lhs.
  const std::string mi = Tensor({groups, m}, ElementType::kS64);
  const std::string mp = Tensor({groups, m}, ElementType::kPred);
  const std::string gi = Tensor({groups}, ElementType::kS64);
  const std::string dg = Tensor(grouped, type);
  const std::string o = Tensor(out, type);
  const std::string e = Tensor({}, type);
  const std::string le = Tensor({}, lhs.type);
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
          "  }) {window_dimensions = ", Array({groups}), ", padding = dense<[[",
          groups - 1, ", 0]]> : tensor<1x2xi64>} : (", gi,
          ", tensor<si64>) -> ", gi, "\n",
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
          "  %mask = \"stablehlo.broadcast_in_dim\"(%in) {broadcast_dimensions "
          "= ",
          Array({0, ragged[0] + 1}), "} : (", mp, ") -> ", lp, "\n",
          "  %copies = \"stablehlo.broadcast_in_dim\"(%lhs) "
          "{broadcast_dimensions = ",
          Array(lhs_positions), "} : (", l, ") -> ", lg, "\n",
          "  %lzero = stablehlo.constant dense<", zero_of(lhs.type), "> : ", le,
          "\n",
          "  %lzeros = \"stablehlo.broadcast_in_dim\"(%lzero) "
          "{broadcast_dimensions = array<i64>} : (",
          le, ") -> ", lg, "\n",
          "  %rows = \"stablehlo.select\"(%mask, %copies, %lzeros) : (", lp,
          ", ", lg, ", ", lg, ") -> ", lg, "\n",
          "  %d = \"stablehlo.dot_general\"(%rows, %rhs) "
          "{dot_dimension_numbers "
          "= #stablehlo.dot<lhs_batching_dimensions = ",
          List(batch_lhs), ", rhs_batching_dimensions = ", List(batch_rhs),
          ", lhs_contracting_dimensions = ", List(contract_lhs),
          ", rhs_contracting_dimensions = ", List(rc), ">} : (", lg, ", ", r,
          ") -> ", dg, "\n", "  %zero = stablehlo.constant dense<",
          zero_of(type), "> : ", e, "\n",
          "  %out = \"stablehlo.reduce\"(%d, %zero) ({\n", "  ^bb0(%x: ", e,
          ", %y: ", e, "):\n", "    %t = \"stablehlo.add\"(%x, %y) : (", e,
          ", ", e, ") -> ", e, "\n", "    \"stablehlo.return\"(%t) : (", e,
          ") -> ()\n", "  }) {dimensions = array<i64: 0>} : (", dg, ", ", e,
          ") -> ", o, "\n", "  func.return %out : ", o, "\n}\n"));
}

}  // namespace pjrtx::ir
