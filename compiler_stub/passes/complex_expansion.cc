#include "compiler_stub/passes/complex_expansion.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "compiler_stub/mlir/location_text.h"
#include "compiler_stub/passes/complex_expander.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace complex_internal {

absl::Status ComplexExpander::ExpandFunction(mlir::Function& function,
                                             ComplexSignature* signature) {
  std::vector<Operation> prologue;
  out_ = &prologue;
  signature->arguments.assign(function.arguments.size(), false);
  signature->results.assign(function.result_types.size(), false);
  for (size_t i = 0; i < function.arguments.size(); ++i) {
    mlir::FunctionArgument& argument = function.arguments[i];
    if (!IsComplex(argument.type)) continue;
    if (argument.type.kind != Type::Kind::kTensor) {
      return absl::UnimplementedError(absl::StrCat(
          mlir::LocationText(argument.location), ": function @", function.name,
          " argument %", argument.name, " of ", argument.type.text,
          ": complex values are supported in tensors only"));
    }
    signature->arguments[i] = true;
    const Type complex_type = argument.type;
    argument.type = InterleavedType(complex_type);
    if (!function.body.blocks.empty() &&
        i < function.body.blocks[0].arguments.size()) {
      function.body.blocks[0].arguments[i].type = argument.type;
    }
    location_ = argument.location;
    expanding_ = absl::StrCat("argument %", argument.name);
    parts_[KeyOf(Named(argument.name))] =
        Unpack(Named(argument.name), complex_type);
  }
  for (size_t i = 0; i < function.result_types.size(); ++i) {
    if (!IsComplex(function.result_types[i])) continue;
    // As for arguments: a tuple of complex values has no interleaved form
    // (and its element text no complex<...> to take the part type from).
    if (function.result_types[i].kind != Type::Kind::kTensor) {
      return absl::UnimplementedError(absl::StrCat(
          mlir::LocationText(function.location), ": function @", function.name,
          " result ", i, " of ", function.result_types[i].text,
          ": complex values are supported in tensors only"));
    }
    signature->results[i] = true;
    function.result_types[i] = InterleavedType(function.result_types[i]);
  }
  PJRTX_RETURN_IF_ERROR(status_);
  for (mlir::Block& block : function.body.blocks) {
    PJRTX_RETURN_IF_ERROR(ExpandOps(block.operations));
  }
  if (!prologue.empty() && !function.body.blocks.empty()) {
    std::vector<Operation>& ops = function.body.blocks[0].operations;
    ops.insert(ops.begin(), std::make_move_iterator(prologue.begin()),
               std::make_move_iterator(prologue.end()));
  }
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandOps(std::vector<Operation>& ops) {
  std::vector<Operation> expanded;
  for (Operation& op : ops) {
    for (ValueRef& operand : op.operands) {
      auto alias = aliases_.find(KeyOf(operand));
      if (alias != aliases_.end()) operand = alias->second;
    }
    // Sibling regions may reuse a name: this op's results are new values.
    for (int i = 0; i < std::max(op.num_results, 1); ++i) {
      Forget({op.result_name, i});
    }
    if (!AnyComplex(op.operand_types) && !AnyComplex(op.result_types)) {
      for (mlir::Region& region : op.regions) {
        for (mlir::Block& block : region.blocks) {
          for (const mlir::BlockArgument& argument : block.arguments) {
            if (IsComplex(argument.type)) {
              return Unsupported(op, "with complex region arguments");
            }
          }
          PJRTX_RETURN_IF_ERROR(ExpandOps(block.operations));
        }
      }
      expanded.push_back(std::move(op));
      continue;
    }
    out_ = &expanded;
    location_ = op.location;
    expanding_ = op.name;
    status_ = absl::OkStatus();
    PJRTX_RETURN_IF_ERROR(ExpandOp(op));
    PJRTX_RETURN_IF_ERROR(status_);
  }
  ops = std::move(expanded);
  return absl::OkStatus();
}

// Ops that move or pick elements without looking at their values, and
// those whose complex form is the real form on each part.
static bool IsPerPartOp(const std::string& name) {
  static const std::set<std::string>& ops =
      *new std::set<std::string>{"stablehlo.add",
                                 "stablehlo.subtract",
                                 "stablehlo.negate",
                                 "stablehlo.reshape",
                                 "stablehlo.transpose",
                                 "stablehlo.broadcast_in_dim",
                                 "stablehlo.broadcast",
                                 "stablehlo.slice",
                                 "stablehlo.dynamic_slice",
                                 "stablehlo.dynamic_update_slice",
                                 "stablehlo.concatenate",
                                 "stablehlo.reverse",
                                 "stablehlo.pad",
                                 "stablehlo.copy",
                                 "stablehlo.select",
                                 "stablehlo.gather",
                                 "stablehlo.convert",
                                 "stablehlo.collective_permute",
                                 "stablehlo.collective_broadcast"};
  return ops.count(name) > 0;
}

void ComplexExpander::ExpandPerPart(const Operation& op) {
  Parts result;
  for (int part = 0; part < 2; ++part) {
    Operation copy = op;
    for (size_t i = 0; i < copy.operands.size(); ++i) {
      if (!IsComplex(copy.operand_types[i])) continue;
      absl::StatusOr<Parts> parts = PartsOf(op, static_cast<int>(i));
      if (!parts.ok()) {
        status_ = parts.status();
        return;
      }
      copy.operands[i] = part == 0 ? parts->re : parts->im;
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
    copy.result_types[0] = PartType(copy.result_types[0]);
    const ValueRef name = Fresh();
    copy.result_name = name.name;
    (part == 0 ? result.re : result.im) = name;
    out_->push_back(std::move(copy));
  }
  Define(op, result);
}

Parts ComplexExpander::Unpack(const ValueRef& interleaved,
                              const Type& complex_type) {
  const std::string element = PartElement(complex_type.element);
  const std::string part_type = TensorText(complex_type.dims, element);
  std::vector<int64_t> column_dims = complex_type.dims;
  column_dims.push_back(1);
  const std::string column_type = TensorText(column_dims, element);
  const std::string interleaved_type = InterleavedType(complex_type).text;
  std::vector<int64_t> starts(column_dims.size(), 0);
  std::vector<int64_t> strides(column_dims.size(), 1);
  Parts parts;
  for (int part = 0; part < 2; ++part) {
    starts.back() = part;
    std::vector<int64_t> limits = column_dims;
    limits.back() = part + 1;
    const ValueRef column = Emit(absl::StrCat(
        "\"stablehlo.slice\"(", RefText(interleaved),
        ") {start_indices = array<i64: ", absl::StrJoin(starts, ", "),
        ">, limit_indices = array<i64: ", absl::StrJoin(limits, ", "),
        ">, strides = array<i64: ", absl::StrJoin(strides, ", "), ">} : (",
        interleaved_type, ") -> ", column_type));
    const ValueRef value =
        Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(column), ") : (",
                          column_type, ") -> ", part_type));
    (part == 0 ? parts.re : parts.im) = value;
  }
  return parts;
}

ValueRef ComplexExpander::Pack(const Parts& parts, const Type& complex_type) {
  const std::string element = PartElement(complex_type.element);
  const std::string part_type = TensorText(complex_type.dims, element);
  std::vector<int64_t> column_dims = complex_type.dims;
  column_dims.push_back(1);
  const std::string column_type = TensorText(column_dims, element);
  const ValueRef re =
      Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(parts.re), ") : (",
                        part_type, ") -> ", column_type));
  const ValueRef im =
      Emit(absl::StrCat("\"stablehlo.reshape\"(", RefText(parts.im), ") : (",
                        part_type, ") -> ", column_type));
  return Emit(absl::StrCat(
      "\"stablehlo.concatenate\"(", RefText(re), ", ", RefText(im),
      ") {dimension = ", complex_type.dims.size(), " : i64} : (", column_type,
      ", ", column_type, ") -> ", InterleavedType(complex_type).text));
}

absl::Status ComplexExpander::ExpandBoundary(Operation& op) {
  Operation copy = op;
  for (size_t i = 0; i < copy.operands.size(); ++i) {
    if (!IsComplex(copy.operand_types[i])) continue;
    if (copy.operand_types[i].kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
    PJRTX_ASSIGN_OR_RETURN(Parts parts, PartsOf(op, static_cast<int>(i)));
    copy.operands[i] = Pack(parts, copy.operand_types[i]);
    copy.operand_types[i] = InterleavedType(copy.operand_types[i]);
  }
  std::vector<size_t> complex_results;
  for (size_t i = 0; i < copy.result_types.size(); ++i) {
    if (!IsComplex(copy.result_types[i])) continue;
    if (copy.result_types[i].kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
    complex_results.push_back(i);
    copy.result_types[i] = InterleavedType(copy.result_types[i]);
  }
  out_->push_back(std::move(copy));
  for (size_t i : complex_results) {
    ValueRef result = Named(op.result_name);
    result.index = static_cast<int>(i);
    parts_[KeyOf(result)] = Unpack(result, op.result_types[i]);
  }
  return absl::OkStatus();
}

absl::Status ComplexExpander::FlattenOperands(const Operation& op,
                                              Operation& copy) {
  copy.operands.clear();
  copy.operand_types.clear();
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!IsComplex(op.operand_types[i])) {
      copy.operands.push_back(op.operands[i]);
      copy.operand_types.push_back(op.operand_types[i]);
      continue;
    }
    if (op.operand_types[i].kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
    PJRTX_ASSIGN_OR_RETURN(Parts parts, PartsOf(op, static_cast<int>(i)));
    copy.operands.push_back(parts.re);
    copy.operands.push_back(parts.im);
    copy.operand_types.push_back(PartType(op.operand_types[i]));
    copy.operand_types.push_back(PartType(op.operand_types[i]));
  }
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandReturn(const Operation& op) {
  Operation copy = op;
  PJRTX_RETURN_IF_ERROR(FlattenOperands(op, copy));
  out_->push_back(std::move(copy));
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandControlFlow(const Operation& op) {
  for (const Type& type : op.result_types) {
    if (IsComplex(type) && type.kind != Type::Kind::kTensor) {
      return Unsupported(op, "of complex values that are not tensors");
    }
  }
  std::vector<Operation>* const out = out_;
  Operation copy = op;
  PJRTX_RETURN_IF_ERROR(FlattenOperands(op, copy));
  // Region arguments become parts before the region's ops are expanded
  // (which also flattens its returns).
  for (mlir::Region& region : copy.regions) {
    for (mlir::Block& block : region.blocks) {
      std::vector<mlir::BlockArgument> arguments;
      for (const mlir::BlockArgument& argument : block.arguments) {
        Forget({argument.name, 0});
        if (!IsComplex(argument.type)) {
          arguments.push_back(argument);
          continue;
        }
        if (argument.type.kind != Type::Kind::kTensor) {
          return Unsupported(op, "with complex region arguments");
        }
        mlir::BlockArgument re = argument, im = argument;
        re.type = im.type = PartType(argument.type);
        re.name = Fresh().name;
        im.name = Fresh().name;
        parts_[{argument.name, 0}] = Parts{Named(re.name), Named(im.name)};
        arguments.push_back(std::move(re));
        arguments.push_back(std::move(im));
      }
      if (op.name == "stablehlo.sort") {
        // The comparator takes (lhs, rhs) per operand: a complex operand's
        // (lhs.re, lhs.im, rhs.re, rhs.im) become (lhs.re, rhs.re, lhs.im,
        // rhs.im), the pairs of its two part operands.
        std::vector<mlir::BlockArgument> paired;
        size_t next = 0;
        for (size_t i = 0; i + 1 < block.arguments.size(); i += 2) {
          if (!IsComplex(block.arguments[i].type)) {
            paired.push_back(arguments[next++]);
            paired.push_back(arguments[next++]);
            continue;
          }
          for (size_t k : {0, 2, 1, 3}) paired.push_back(arguments[next + k]);
          next += 4;
        }
        if (next != arguments.size()) {
          return absl::InvalidArgumentError(
              absl::StrCat(mlir::LocationText(op.location), ": ", op.name,
                           "'s comparator takes ", block.arguments.size(),
                           " arguments, expected two per operand"));
        }
        arguments = std::move(paired);
      }
      block.arguments = std::move(arguments);
      PJRTX_RETURN_IF_ERROR(ExpandOps(block.operations));
    }
  }
  // Results: the new op's, by their new positions.
  copy.result_types.clear();
  copy.result_name = Fresh().name;
  int position = 0;
  for (size_t i = 0; i < op.result_types.size(); ++i) {
    ValueRef original = Named(op.result_name);
    original.index = static_cast<int>(i);
    ValueRef first = Named(copy.result_name);
    first.index = position;
    if (!IsComplex(op.result_types[i])) {
      copy.result_types.push_back(op.result_types[i]);
      aliases_[KeyOf(original)] = first;
      ++position;
      continue;
    }
    ValueRef second = first;
    second.index = position + 1;
    copy.result_types.push_back(PartType(op.result_types[i]));
    copy.result_types.push_back(PartType(op.result_types[i]));
    parts_[KeyOf(original)] = Parts{first, second};
    position += 2;
  }
  copy.num_results = position;
  out_ = out;
  out_->push_back(std::move(copy));
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandMap(const Operation& op) {
  if (op.num_results != 1 || op.result_types.size() != 1 ||
      op.regions.size() != 1 || op.regions[0].blocks.size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat(mlir::LocationText(op.location), ": ", op.name,
                     " takes one region of one block and has one result"));
  }
  absl::Status status = ExpandControlFlow(op);
  if (!status.ok() || !IsComplex(op.result_types[0])) return status;
  // A map has one result: the region now returns (re, im), so it runs
  // twice, each copy returning one of them.
  const Operation both = std::move(out_->back());
  out_->pop_back();
  const std::vector<Operation>& body = both.regions[0].blocks[0].operations;
  if (body.empty() || body.back().operands.size() != 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        mlir::LocationText(op.location), ": ", op.name,
        "'s region must end in a return of its one complex value"));
  }
  Parts parts;
  for (int part = 0; part < 2; ++part) {
    Operation one = both;
    one.result_name = Fresh().name;
    one.num_results = 1;
    one.result_types = {both.result_types[part]};
    Operation& ret = one.regions[0].blocks[0].operations.back();
    ret.operands = {ret.operands[part]};
    ret.operand_types = {ret.operand_types[part]};
    (part == 0 ? parts.re : parts.im) = Named(one.result_name);
    out_->push_back(std::move(one));
  }
  Define(op, parts);
  return absl::OkStatus();
}

// Whether `body` takes two values and returns their sum, and nothing else.
static bool OnlyAdds(const mlir::Block& body) {
  if (body.arguments.size() != 2 || body.operations.size() != 2) return false;
  const Operation& add = body.operations[0];
  const Operation& done = body.operations[1];
  auto is_argument = [&](const ValueRef& ref) {
    return ref.index == 0 && (ref.name == body.arguments[0].name ||
                              ref.name == body.arguments[1].name);
  };
  return add.name == "stablehlo.add" && add.operands.size() == 2 &&
         is_argument(add.operands[0]) && is_argument(add.operands[1]) &&
         add.operands[0].name != add.operands[1].name &&
         (done.name == "stablehlo.return" || done.name == "func.return") &&
         done.operands.size() == 1 && done.operands[0].name == add.result_name;
}

bool ComplexExpander::IsComplexSum(const Operation& op) {
  return op.operands.size() == 2 && op.num_results == 1 &&
         op.regions.size() == 1 && op.regions[0].blocks.size() == 1 &&
         IsComplex(op.operand_types[0]) && IsComplex(op.operand_types[1]) &&
         OnlyAdds(op.regions[0].blocks[0]);
}

// The complex values of a region's block, its arguments and its ops'
// operands and results, as the part type (a body that adds complex
// scalars becomes one that adds their parts).
static void RetypeToParts(mlir::Block& body) {
  for (mlir::BlockArgument& argument : body.arguments) {
    if (IsComplex(argument.type)) argument.type = PartType(argument.type);
  }
  for (Operation& inner : body.operations) {
    for (std::vector<Type>* types :
         {&inner.operand_types, &inner.result_types}) {
      for (Type& type : *types) {
        if (IsComplex(type)) type = PartType(type);
      }
    }
  }
}

absl::Status ComplexExpander::ExpandReduceScatter(const Operation& op) {
  if (op.operands.size() != 1 || op.result_types.size() != 1 ||
      op.regions.size() != 1 || op.regions[0].blocks.size() != 1 ||
      !OnlyAdds(op.regions[0].blocks[0])) {
    return Unsupported(op, "of complex values with a body other than one add");
  }
  PJRTX_ASSIGN_OR_RETURN(Parts x, PartsOf(op, 0));
  // One operand each: the sum of each part, scattered alike.
  Parts result;
  for (int part = 0; part < 2; ++part) {
    Operation copy = op;
    copy.operands = {part == 0 ? x.re : x.im};
    copy.operand_types = {PartType(op.operand_types[0])};
    copy.result_types = {PartType(op.result_types[0])};
    copy.result_name = Fresh().name;
    RetypeToParts(copy.regions[0].blocks[0]);
    (part == 0 ? result.re : result.im) = Named(copy.result_name);
    out_->push_back(std::move(copy));
  }
  Define(op, result);
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandAllReduce(const Operation& op) {
  // The body combines each operand with itself across the ranks (one
  // body for all operands): a complex sum is the sum of each part, and
  // other bodies would mix the parts.
  if (op.regions.size() != 1 || op.regions[0].blocks.size() != 1 ||
      !OnlyAdds(op.regions[0].blocks[0])) {
    return Unsupported(op, "of complex values with a body other than one add");
  }
  for (const Type& type : op.operand_types) {
    if (!IsComplex(type))
      return Unsupported(op, "mixing complex and real operands");
  }
  Operation copy = op;
  PJRTX_RETURN_IF_ERROR(FlattenOperands(op, copy));
  RetypeToParts(copy.regions[0].blocks[0]);
  copy.result_types.clear();
  copy.result_name = Fresh().name;
  for (size_t i = 0; i < op.result_types.size(); ++i) {
    ValueRef original = Named(op.result_name);
    original.index = static_cast<int>(i);
    ValueRef re = Named(copy.result_name), im = re;
    re.index = static_cast<int>(2 * i);
    im.index = static_cast<int>(2 * i + 1);
    parts_[KeyOf(original)] = Parts{re, im};
    copy.result_types.push_back(PartType(op.result_types[i]));
    copy.result_types.push_back(PartType(op.result_types[i]));
  }
  copy.num_results = static_cast<int>(copy.result_types.size());
  out_->push_back(std::move(copy));
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandSum(const Operation& op) {
  PJRTX_ASSIGN_OR_RETURN(Parts x, PartsOf(op, 0));
  PJRTX_ASSIGN_OR_RETURN(Parts init, PartsOf(op, 1));
  Parts sum;
  for (int part = 0; part < 2; ++part) {
    Operation copy = op;
    copy.operands = {part == 0 ? x.re : x.im, part == 0 ? init.re : init.im};
    for (Type& type : copy.operand_types) type = PartType(type);
    for (Type& type : copy.result_types) type = PartType(type);
    mlir::Block& body = copy.regions[0].blocks[0];
    for (mlir::BlockArgument& argument : body.arguments) {
      argument.type = PartType(argument.type);
    }
    for (Operation& inner : body.operations) {
      for (Type& type : inner.operand_types) type = PartType(type);
      for (Type& type : inner.result_types) type = PartType(type);
    }
    const ValueRef result = Fresh();
    copy.result_name = result.name;
    (part == 0 ? sum.re : sum.im) = result;
    out_->push_back(std::move(copy));
  }
  Define(op, sum);
  return absl::OkStatus();
}

ValueRef ComplexExpander::CopyOn(const Operation& op,
                                 const std::vector<ValueRef>& operands) {
  Operation copy = op;
  for (size_t i = 0; i < copy.operands.size(); ++i) {
    copy.operands[i] = operands[i];
    if (IsComplex(copy.operand_types[i])) {
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
  }
  copy.result_types[0] = PartType(copy.result_types[0]);
  const ValueRef result = Fresh();
  copy.result_name = result.name;
  out_->push_back(std::move(copy));
  return result;
}

// dot_general, dot and convolution are linear in each operand: a complex
// operand splits into its parts, and the products combine as in
// (a + bi)(c + di).
absl::Status ComplexExpander::ExpandBilinear(const Operation& op) {
  if (op.operands.size() != 2) return Unsupported(op, "on complex values");
  Parts x{op.operands[0], ValueRef()}, y{op.operands[1], ValueRef()};
  const bool x_complex = IsComplex(op.operand_types[0]);
  const bool y_complex = IsComplex(op.operand_types[1]);
  for (auto [operand, parts] : {std::pair<int, Parts*>{0, &x}, {1, &y}}) {
    if (!IsComplex(op.operand_types[operand])) continue;
    PJRTX_ASSIGN_OR_RETURN(*parts, PartsOf(op, operand));
  }
  if (x_complex && y_complex) {
    Define(op, Parts{Sub(CopyOn(op, {x.re, y.re}), CopyOn(op, {x.im, y.im})),
                     Add(CopyOn(op, {x.re, y.im}), CopyOn(op, {x.im, y.re}))});
  } else if (x_complex) {
    Define(op, Parts{CopyOn(op, {x.re, y.re}), CopyOn(op, {x.im, y.re})});
  } else {
    Define(op, Parts{CopyOn(op, {x.re, y.re}), CopyOn(op, {x.re, y.im})});
  }
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandConstant(Operation& op) {
  for (auto& [name, value] : op.attributes) {
    if (name != "value") continue;
    if (value.kind != Attribute::Kind::kDenseElements || value.dense.is_hex) {
      return Unsupported(op, "with a complex value not written as (re, im)");
    }
    Operation re = op, im = op;
    for (Operation* part : {&re, &im}) {
      part->result_types[0] = PartType(op.result_types[0]);
      for (auto& [part_name, part_value] : part->attributes) {
        if (part_name != "value") continue;
        part_value.type = PartType(value.type);
        part_value.dense.values.clear();
      }
      part->result_name = Fresh().name;
    }
    for (const std::string& literal : value.dense.values) {
      std::string real, imaginary;
      PJRTX_RETURN_IF_ERROR(
          SplitComplexLiteral(op, literal, &real, &imaginary));
      for (auto& [n, v] : re.attributes) {
        if (n == "value") v.dense.values.push_back(real);
      }
      for (auto& [n, v] : im.attributes) {
        if (n == "value") v.dense.values.push_back(imaginary);
      }
    }
    Define(op, Parts{Named(re.result_name), Named(im.result_name)});
    out_->push_back(std::move(re));
    out_->push_back(std::move(im));
    return absl::OkStatus();
  }
  return Unsupported(op, "of complex type without a dense value");
}

absl::Status ComplexExpander::ExpandCheck(Operation& op) {
  std::vector<Operation> copies(2, op);
  for (int part = 0; part < 2; ++part) {
    Operation& copy = copies[part];
    for (size_t i = 0; i < copy.operands.size(); ++i) {
      if (!IsComplex(copy.operand_types[i])) continue;
      PJRTX_ASSIGN_OR_RETURN(Parts parts, PartsOf(op, static_cast<int>(i)));
      copy.operands[i] = part == 0 ? parts.re : parts.im;
      copy.operand_types[i] = PartType(copy.operand_types[i]);
    }
    for (auto& [name, value] : copy.attributes) {
      if (name != "value" || value.kind != Attribute::Kind::kDenseElements ||
          !IsComplex(value.type)) {
        continue;
      }
      if (value.dense.is_hex) {
        return Unsupported(op, "with a complex value not written as (re, im)");
      }
      value.type = PartType(value.type);
      for (std::string& literal : value.dense.values) {
        std::string re, im;
        PJRTX_RETURN_IF_ERROR(SplitComplexLiteral(op, literal, &re, &im));
        literal = part == 0 ? re : im;
      }
    }
  }
  out_->push_back(std::move(copies[0]));
  out_->push_back(std::move(copies[1]));
  return absl::OkStatus();
}

absl::Status ComplexExpander::ExpandOp(Operation& op) {
  const std::string& name = op.name;
  if (absl::StartsWith(name, "check.")) return ExpandCheck(op);
  if (name == "func.return" || name == "func.call" || name == "call") {
    return ExpandBoundary(op);
  }
  if (name == "stablehlo.reduce" && IsComplexSum(op)) return ExpandSum(op);
  // A reduce's body takes (accumulators..., elements...) and returns the
  // accumulators: with each complex value as its two parts in place, that
  // is the variadic reduce of the parts (and likewise a scatter's
  // (inputs..., updates...)); all_gather and all_to_all, which move each
  // operand alike, take the parts as operands of their own.
  if (name == "stablehlo.while" || name == "stablehlo.if" ||
      name == "stablehlo.case" || name == "stablehlo.optimization_barrier" ||
      name == "stablehlo.reduce" || name == "stablehlo.reduce_window" ||
      name == "stablehlo.sort" || name == "stablehlo.scatter" ||
      name == "stablehlo.all_gather" || name == "stablehlo.all_to_all") {
    return ExpandControlFlow(op);
  }
  if (name == "stablehlo.all_reduce") return ExpandAllReduce(op);
  if (name == "stablehlo.reduce_scatter") return ExpandReduceScatter(op);
  if (name == "stablehlo.return") return ExpandReturn(op);
  if (name == "stablehlo.map") return ExpandMap(op);
  if (op.num_results != 1 || op.result_types.size() != 1 ||
      !op.regions.empty()) {
    return Unsupported(op, "on complex values");
  }
  // The parts' types: the complex operand's or result's shape.
  const Type* shaped =
      IsComplex(op.result_types[0]) ? &op.result_types[0] : nullptr;
  for (size_t i = 0; shaped == nullptr && i < op.operand_types.size(); ++i) {
    if (IsComplex(op.operand_types[i])) shaped = &op.operand_types[i];
  }
  if (shaped->kind != Type::Kind::kTensor) {
    return Unsupported(op, "on complex values that are not tensors");
  }
  element_ = PartElement(shaped->element);
  if (element_ != "f32" && element_ != "f64") {
    return Unsupported(op, absl::StrCat("on ", shaped->element));
  }
  type_ = TensorText(shaped->dims, element_);
  bool_type_ = TensorText(shaped->dims, "i1");
  const bool complex_result = IsComplex(op.result_types[0]);

  const size_t want_operands = name == "stablehlo.complex" ? 2
                               : name == "stablehlo.fft" ||
                                       name == "stablehlo.convert" ||
                                       name == "stablehlo.bitcast_convert"
                                   ? 1
                                   : op.operands.size();
  if (op.operands.size() != want_operands ||
      op.operand_types.size() != op.operands.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(mlir::LocationText(op.location), ": ", name, " takes ",
                     want_operands, " operands, got ", op.operands.size()));
  }
  if (name == "stablehlo.fft") return ExpandFft(op);
  if (name == "stablehlo.constant") return ExpandConstant(op);
  if (name == "stablehlo.complex") {
    Define(op, Parts{op.operands[0], op.operands[1]});
    return absl::OkStatus();
  }
  if (name == "stablehlo.convert" && !IsComplex(op.operand_types[0])) {
    const std::string from = TypeText(op.operand_types[0]);
    Define(op, Parts{Emit(absl::StrCat("\"stablehlo.convert\"(",
                                       RefText(op.operands[0]), ") : (", from,
                                       ") -> ", type_)),
                     Constant(0)});
    return absl::OkStatus();
  }
  if (name == "stablehlo.convert" && !complex_result) {
    PJRTX_ASSIGN_OR_RETURN(Parts z, PartsOf(op, 0));
    // A complex value converts to a real type through its real part.
    Alias(op,
          Emit(absl::StrCat("\"stablehlo.convert\"(", RefText(z.re), ") : (",
                            type_, ") -> ", TypeText(op.result_types[0]))));
    return absl::OkStatus();
  }
  if (name == "stablehlo.bitcast_convert") {
    // Through the interleaved form, which is the complex value's bits.
    ValueRef source = op.operands[0];
    std::string source_type = TypeText(op.operand_types[0]);
    if (IsComplex(op.operand_types[0])) {
      PJRTX_ASSIGN_OR_RETURN(Parts z, PartsOf(op, 0));
      source = Pack(z, op.operand_types[0]);
      source_type = InterleavedType(op.operand_types[0]).text;
    }
    const std::string target_type =
        complex_result ? InterleavedType(op.result_types[0]).text
                       : TypeText(op.result_types[0]);
    const ValueRef bits =
        Emit(absl::StrCat("\"stablehlo.bitcast_convert\"(", RefText(source),
                          ") : (", source_type, ") -> ", target_type));
    if (complex_result) {
      Define(op, Unpack(bits, op.result_types[0]));
    } else {
      Alias(op, bits);
    }
    return absl::OkStatus();
  }
  if (name == "stablehlo.iota") {
    Operation re = op;
    re.result_types[0] = PartType(op.result_types[0]);
    re.result_name = Fresh().name;
    const ValueRef re_value = Named(re.result_name);
    out_->push_back(std::move(re));
    Define(op, Parts{re_value, Constant(0)});
    return absl::OkStatus();
  }
  if (IsPerPartOp(name)) {
    ExpandPerPart(op);
    return absl::OkStatus();
  }
  if (name == "stablehlo.triangular_solve") return ExpandTriangularSolve(op);
  if (complex_result &&
      (name == "stablehlo.dot_general" || name == "stablehlo.dot" ||
       name == "stablehlo.convolution")) {
    return ExpandBilinear(op);
  }

  std::vector<Parts> z;
  for (size_t i = 0; i < op.operands.size(); ++i) {
    if (!IsComplex(op.operand_types[i])) {
      return Unsupported(op, "mixing complex and real operands");
    }
    PJRTX_ASSIGN_OR_RETURN(Parts parts, PartsOf(op, static_cast<int>(i)));
    z.push_back(parts);
  }
  return ExpandFormula(op, z);
}

}  // namespace complex_internal

using complex_internal::AnyComplex;
using complex_internal::ComplexExpander;
using complex_internal::IsComplex;
using mlir::Operation;

bool MentionsComplex(const mlir::Module& module) {
  std::vector<const mlir::Block*> blocks;
  for (const mlir::Function& function : module.functions) {
    for (const mlir::FunctionArgument& argument : function.arguments) {
      if (IsComplex(argument.type)) return true;
    }
    if (AnyComplex(function.result_types)) return true;
    for (const mlir::Block& block : function.body.blocks) {
      blocks.push_back(&block);
    }
  }
  while (!blocks.empty()) {
    const mlir::Block* block = blocks.back();
    blocks.pop_back();
    for (const mlir::BlockArgument& argument : block->arguments) {
      if (IsComplex(argument.type)) return true;
    }
    for (const Operation& op : block->operations) {
      if (AnyComplex(op.operand_types) || AnyComplex(op.result_types)) {
        return true;
      }
      for (const mlir::Region& region : op.regions) {
        for (const mlir::Block& inner : region.blocks) blocks.push_back(&inner);
      }
    }
  }
  return false;
}

absl::Status ExpandComplex(mlir::Module& module,
                           ComplexSignatures* signatures) {
  int counter = 0;
  for (mlir::Function& function : module.functions) {
    ComplexExpander expander(&counter);
    ComplexSignature signature;
    PJRTX_RETURN_IF_ERROR(expander.ExpandFunction(function, &signature));
    if (signatures != nullptr) (*signatures)[function.name] = signature;
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::ir
