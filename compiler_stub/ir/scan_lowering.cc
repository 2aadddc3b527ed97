// chlo.scan: a loop over the scan dimension (from its end with
// is_reverse) that applies the op's region to each position's slices of
// the inputs and the carries, stacking the region's outputs along the
// dimension and passing its new carries on. Lowered from a template: a
// stablehlo.while whose state is the counter, the inputs, the carries and
// the outputs so far, with the user's region spliced into its body where
// the template holds a placeholder. Everything the body reads is in the
// loop's state, so the body captures nothing.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/template_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

constexpr char kPlaceholder[] = "pjrtx.scan_body";

std::vector<int64_t> Without(std::vector<int64_t> dims, int64_t d) {
  dims.erase(dims.begin() + d);
  return dims;
}

// Renames value references (operands, in nested regions too) by `names`.
void Rename(std::vector<mlir::Operation>& ops,
            const std::map<std::string, mlir::ValueRef>& names) {
  for (mlir::Operation& op : ops) {
    for (mlir::ValueRef& ref : op.operands) {
      auto it = names.find(absl::StrCat(ref.name, "#", ref.index));
      if (it != names.end()) ref = it->second;
    }
    for (mlir::Region& region : op.regions) {
      for (mlir::Block& block : region.blocks) Rename(block.operations, names);
    }
  }
}

// Names defined anywhere in `ops` (results, nested blocks' arguments).
void CollectDefined(const std::vector<mlir::Operation>& ops,
                    std::set<std::string>& defined) {
  for (const mlir::Operation& op : ops) {
    if (!op.result_name.empty()) defined.insert(op.result_name);
    for (const mlir::Region& region : op.regions) {
      for (const mlir::Block& block : region.blocks) {
        for (const mlir::BlockArgument& argument : block.arguments) {
          defined.insert(argument.name);
        }
        CollectDefined(block.operations, defined);
      }
    }
  }
}

// The first name `ops` read that is not in `defined`, or "".
std::string FirstUndefined(const std::vector<mlir::Operation>& ops,
                           const std::set<std::string>& defined) {
  for (const mlir::Operation& op : ops) {
    for (const mlir::ValueRef& ref : op.operands) {
      if (!defined.count(ref.name)) return ref.name;
    }
    for (const mlir::Region& region : op.regions) {
      for (const mlir::Block& block : region.blocks) {
        std::string name = FirstUndefined(block.operations, defined);
        if (!name.empty()) return name;
      }
    }
  }
  return "";
}

// Puts the user's region where the placeholder is: its block arguments
// become the placeholder's operands, its results (renamed apart from the
// template's) the placeholder's results.
absl::Status Splice(mlir::Function& function, const mlir::Region& user) {
  if (user.blocks.size() != 1 || user.blocks[0].operations.empty()) {
    return absl::InvalidArgumentError("the scan region must be one block");
  }
  for (mlir::Operation& op : function.body.blocks[0].operations) {
    if (op.name != "stablehlo.while" || op.regions.size() != 2) continue;
    std::vector<mlir::Operation>& body = op.regions[1].blocks[0].operations;
    for (size_t i = 0; i < body.size(); ++i) {
      if (body[i].name != kPlaceholder) continue;
      const mlir::Operation placeholder = body[i];
      const mlir::Block& block = user.blocks[0];
      if (block.arguments.size() != placeholder.operands.size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("the scan region takes ", block.arguments.size(),
                         " arguments; expected ", placeholder.operands.size(),
                         " (an element of each input, then each carry)"));
      }
      // The loop's state holds everything the body reads: a region that
      // reads values from around the op would need them carried too.
      std::set<std::string> defined;
      for (const mlir::BlockArgument& argument : block.arguments) {
        defined.insert(argument.name);
      }
      CollectDefined(block.operations, defined);
      if (const std::string outside = FirstUndefined(block.operations, defined);
          !outside.empty()) {
        return absl::UnimplementedError(absl::StrCat(
            "chlo.scan regions that read values from outside them (%", outside,
            ") are not supported"));
      }
      std::map<std::string, mlir::ValueRef> names;
      for (size_t a = 0; a < block.arguments.size(); ++a) {
        names[absl::StrCat(block.arguments[a].name, "#0")] =
            placeholder.operands[a];
      }
      std::vector<mlir::Operation> ops(block.operations.begin(),
                                       block.operations.end() - 1);
      for (mlir::Operation& user_op : ops) {
        if (user_op.result_name.empty()) continue;
        const std::string renamed =
            absl::StrCat("__user_", user_op.result_name);
        for (int r = 0; r < std::max(user_op.num_results, 1); ++r) {
          names[absl::StrCat(user_op.result_name, "#", r)] =
              mlir::ValueRef{renamed, r, {}};
        }
        user_op.result_name = renamed;
      }
      Rename(ops, names);
      std::vector<mlir::Operation> terminator = {block.operations.back()};
      Rename(terminator, names);
      if (static_cast<int>(terminator[0].operands.size()) !=
          placeholder.num_results) {
        return absl::InvalidArgumentError(absl::StrCat(
            "the scan region returns ", terminator[0].operands.size(),
            " values; expected ", placeholder.num_results,
            " (the outputs, then the carries)"));
      }
      std::map<std::string, mlir::ValueRef> results;
      for (int r = 0; r < placeholder.num_results; ++r) {
        results[absl::StrCat(placeholder.result_name, "#", r)] =
            terminator[0].operands[r];
      }
      std::vector<mlir::Operation> rest(body.begin() + i + 1, body.end());
      Rename(rest, results);
      body.resize(i);
      body.insert(body.end(), ops.begin(), ops.end());
      body.insert(body.end(), rest.begin(), rest.end());
      return absl::OkStatus();
    }
  }
  return absl::InternalError("the scan template has no placeholder");
}

}  // namespace

absl::Status LowerScan(OpState& s) {
  if (absl::Status tensors = s.RequireTensors(); !tensors.ok()) return tensors;
  absl::StatusOr<std::vector<int64_t>> segments =
      s.attributes.Integers("operandSegmentSizes");
  if (!segments.ok() || segments->size() != 2 || (*segments)[0] < 1 ||
      (*segments)[0] + (*segments)[1] !=
          static_cast<int64_t>(s.operands.size())) {
    return s.Error("needs one or more inputs, then its inits");
  }
  const int64_t inputs = (*segments)[0];
  const int64_t carries = (*segments)[1];
  const int64_t outputs = static_cast<int64_t>(s.result_types.size()) - carries;
  PJRTX_ASSIGN_OR_RETURN(int64_t dimension, s.attributes.Integer("dimension"));
  PJRTX_ASSIGN_OR_RETURN(bool reverse, s.attributes.Bool("is_reverse", false));
  const int64_t d = dimension;
  const Shape& first = s.shape(0);
  if (d < 0 || d >= first.rank()) {
    return s.Error(absl::StrCat("dimension ", d, " is out of range for ",
                                first.ToString()));
  }
  const int64_t length = first.dims[d];
  for (int64_t n = 0; n < inputs; ++n) {
    if (s.shape(n).rank() <= d || s.shape(n).dims[d] != length) {
      return s.Error(absl::StrCat("input ", n, " ", s.shape(n).ToString(),
                                  " does not have ", length,
                                  " elements along dimension ", d));
    }
  }
  if (outputs < 0) {
    return s.Error(absl::StrCat("has ", s.result_types.size(), " results for ",
                                carries, " carries"));
  }
  for (int64_t c = 0; c < carries; ++c) {
    if (!(s.result(outputs + c) == s.shape(inputs + c))) {
      return s.Error(absl::StrCat(
          "carry ", c, " is ", s.shape(inputs + c).ToString(),
          " but its result is ", s.result(outputs + c).ToString()));
    }
  }
  for (int64_t k = 0; k < outputs; ++k) {
    if (s.result(k).rank() <= d || s.result(k).dims[d] != length) {
      return s.Error(absl::StrCat("output ", k, " ", s.result(k).ToString(),
                                  " does not have ", length,
                                  " elements along dimension ", d));
    }
  }
  if (s.op.regions.size() != 1) return s.Error("needs one region");

  // The template's names start with "__" (the user's are renamed apart).
  std::vector<std::string> params, state_types, state_names, body_args;
  std::vector<std::string> element_refs, element_types, result_types;
  std::string text;
  for (int64_t n = 0; n < inputs + carries; ++n) {
    params.push_back(absl::StrCat("%__a", n, ": ", s.shape(n).ToString()));
  }
  // Loop state: counter, inputs, carries, outputs.
  std::vector<std::string> init = {"%__i0"};
  state_types.push_back("tensor<si64>");
  for (int64_t n = 0; n < inputs + carries; ++n) {
    init.push_back(absl::StrCat("%__a", n));
    state_types.push_back(s.shape(n).ToString());
  }
  std::string prologue =
      "  %__i0 = stablehlo.constant dense<0> : tensor<si64>\n";
  for (int64_t k = 0; k < outputs; ++k) {
    const Shape& out = s.result(k);
    const std::string scalar = TensorText({}, out.type);
    absl::StrAppend(&prologue, "  %__z", k, " = stablehlo.constant dense<",
                    IsFloat(out.type)
                        ? "0.0"
                        : (out.type == ElementType::kPred ? "false" : "0"),
                    "> : ", scalar, "\n", "  %__o", k,
                    " = \"stablehlo.broadcast_in_dim\"(%__z", k,
                    ") {broadcast_dimensions = array<i64>} : (", scalar,
                    ") -> ", out.ToString(), "\n");
    init.push_back(absl::StrCat("%__o", k));
    state_types.push_back(out.ToString());
  }
  const std::string types = absl::StrJoin(state_types, ", ");
  std::vector<std::string> args;
  for (size_t v = 0; v < state_types.size(); ++v) {
    args.push_back(absl::StrCat("%__s", v, ": ", state_types[v]));
  }
  const std::string block =
      absl::StrCat("^bb0(", absl::StrJoin(args, ", "), "):\n");
  std::string body = absl::StrCat(
      "    %__one = stablehlo.constant dense<1> : tensor<si64>\n",
      "    %__zero = stablehlo.constant dense<0> : tensor<si64>\n");
  if (reverse) {
    absl::StrAppend(&body, "    %__last = stablehlo.constant dense<",
                    length - 1, "> : tensor<si64>\n",
                    "    %__pos = \"stablehlo.subtract\"(%__last, %__s0) : "
                    "(tensor<si64>, tensor<si64>) -> tensor<si64>\n");
  } else {
    absl::StrAppend(&body,
                    "    %__pos = \"stablehlo.add\"(%__s0, %__zero) : "
                    "(tensor<si64>, tensor<si64>) -> tensor<si64>\n");
  }
  // The start indices of a slice at the position along d, and their types.
  auto starts = [&](int rank) {
    std::vector<std::string> names;
    for (int r = 0; r < rank; ++r) {
      names.push_back(r == d ? "%__pos" : "%__zero");
    }
    return absl::StrJoin(names, ", ");
  };
  auto start_types = [](int rank) {
    return absl::StrJoin(std::vector<std::string>(rank, "tensor<si64>"), ", ");
  };
  std::vector<std::string> placeholder_operands, placeholder_types;
  for (int64_t n = 0; n < inputs; ++n) {
    const Shape& in = s.shape(n);
    std::vector<int64_t> one = in.dims;
    one[d] = 1;
    absl::StrAppend(
        &body, "    %__sl", n, " = \"stablehlo.dynamic_slice\"(%__s", n + 1,
        ", ", starts(in.rank()),
        ") {slice_sizes = array<i64: ", absl::StrJoin(one, ", "), ">} : (",
        in.ToString(), ", ", start_types(in.rank()), ") -> ",
        TensorText(one, in.type), "\n", "    %__el", n,
        " = \"stablehlo.reshape\"(%__sl", n, ") : (", TensorText(one, in.type),
        ") -> ", TensorText(Without(in.dims, d), in.type), "\n");
    placeholder_operands.push_back(absl::StrCat("%__el", n));
    placeholder_types.push_back(TensorText(Without(in.dims, d), in.type));
  }
  for (int64_t c = 0; c < carries; ++c) {
    placeholder_operands.push_back(absl::StrCat("%__s", 1 + inputs + c));
    placeholder_types.push_back(s.shape(inputs + c).ToString());
  }
  std::vector<std::string> placeholder_results;
  for (int64_t k = 0; k < outputs; ++k) {
    placeholder_results.push_back(
        TensorText(Without(s.result(k).dims, d), s.result(k).type));
  }
  for (int64_t c = 0; c < carries; ++c) {
    placeholder_results.push_back(s.result(outputs + c).ToString());
  }
  absl::StrAppend(&body, "    %__body:", outputs + carries, " = \"",
                  kPlaceholder, "\"(",
                  absl::StrJoin(placeholder_operands, ", "), ") : (",
                  absl::StrJoin(placeholder_types, ", "), ") -> (",
                  absl::StrJoin(placeholder_results, ", "), ")\n");
  std::vector<std::string> next = {"%__next"};
  for (int64_t n = 0; n < inputs; ++n)
    next.push_back(absl::StrCat("%__s", n + 1));
  for (int64_t c = 0; c < carries; ++c) {
    next.push_back(absl::StrCat("%__body#", outputs + c));
  }
  for (int64_t k = 0; k < outputs; ++k) {
    const Shape& out = s.result(k);
    std::vector<int64_t> one = out.dims;
    one[d] = 1;
    absl::StrAppend(
        &body, "    %__up", k, " = \"stablehlo.reshape\"(%__body#", k, ") : (",
        placeholder_results[k], ") -> ", TensorText(one, out.type), "\n",
        "    %__on", k, " = \"stablehlo.dynamic_update_slice\"(%__s",
        1 + inputs + carries + k, ", %__up", k, ", ", starts(out.rank()),
        ") : (", out.ToString(), ", ", TensorText(one, out.type), ", ",
        start_types(out.rank()), ") -> ", out.ToString(), "\n");
    next.push_back(absl::StrCat("%__on", k));
  }
  absl::StrAppend(&body,
                  "    %__next = \"stablehlo.add\"(%__s0, %__one) : "
                  "(tensor<si64>, tensor<si64>) -> tensor<si64>\n",
                  "    \"stablehlo.return\"(", absl::StrJoin(next, ", "),
                  ") : (", types, ") -> ()\n");
  std::vector<std::string> returns, return_types;
  for (int64_t k = 0; k < outputs; ++k) {
    returns.push_back(absl::StrCat("%__w#", 1 + inputs + carries + k));
    return_types.push_back(s.result(k).ToString());
  }
  for (int64_t c = 0; c < carries; ++c) {
    returns.push_back(absl::StrCat("%__w#", 1 + inputs + c));
    return_types.push_back(s.result(outputs + c).ToString());
  }
  text = absl::StrCat(
      "func.func @scan(", absl::StrJoin(params, ", "), ") -> (",
      absl::StrJoin(return_types, ", "), ") {\n", prologue,
      "  %__w:", state_types.size(), " = \"stablehlo.while\"(",
      absl::StrJoin(init, ", "), ") ({\n  ", block,
      "    %__n = stablehlo.constant dense<", length, "> : tensor<si64>\n",
      "    %__more = \"stablehlo.compare\"(%__s0, %__n) {comparison_direction "
      "= "
      "#stablehlo<comparison_direction LT>} : (tensor<si64>, tensor<si64>) -> "
      "tensor<i1>\n",
      "    \"stablehlo.return\"(%__more) : (tensor<i1>) -> ()\n  }, {\n  ",
      block, body, "  }) : (", types, ") -> (", types, ")\n", "  func.return ",
      absl::StrJoin(returns, ", "), " : ", absl::StrJoin(return_types, ", "),
      "\n}\n");
  const mlir::Region& region = s.op.regions[0];
  return LowerFromTemplate(s, text, [&](mlir::Function& function) {
    absl::Status spliced = Splice(function, region);
    if (spliced.ok()) return spliced;
    if (absl::IsUnimplemented(spliced)) {
      return UnsupportedAt(s.op.location, spliced.message());
    }
    return s.Error(spliced.message());
  });
}

}  // namespace pjrtx::ir
