#include "compiler_stub/ir/op_lowering.h"

#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/instruction_builder.h"
#include "compiler_stub/ir/type_conversion.h"
#include "compiler_stub/mlir/location_text.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

const std::set<std::string>& UnsupportedOps() {
  static const auto* ops = new std::set<std::string>{
      "stablehlo.batch_norm_grad",
      "stablehlo.batch_norm_inference",
      "stablehlo.batch_norm_training",
      "stablehlo.cholesky",
      "stablehlo.complex",
      "stablehlo.custom_call",
      "stablehlo.einsum",
      "stablehlo.fft",
      "stablehlo.rng",
      "stablehlo.uniform_dequantize",
      "stablehlo.uniform_quantize",
      "stablehlo.torch_index_select",
      "stablehlo.unary_einsum",
      "stablehlo.cross-replica-sum",
      "stablehlo.create_token",
      "stablehlo.trace",
      "stablehlo.broadcast",
      "stablehlo.dot",
  };
  return *ops;
}

absl::Status LowerCheck(OpState& s) {
  const std::string& name = s.op.name;
  const bool with_constant = absl::EndsWith(name, "_const");
  if (s.context.check_outputs == nullptr) {
    return s.Error(
        "check ops are only allowed in the entry function of a "
        "test program");
  }
  if (name == "check.expect_serialized_eq") {
    return UnsupportedAt(s.op.location,
                         "check.expect_serialized_eq compares "
                         "against an interpreter trace, which "
                         "is not supported");
  }
  const size_t want = with_constant ? 1 : 2;
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(want));
  if (with_constant) {
    const mlir::Attribute* value = s.attributes.Find("value");
    if (value == nullptr ||
        value->kind != mlir::Attribute::Kind::kDenseElements) {
      return s.Error("needs an expected dense<...> value");
    }
    PJRTX_ASSIGN_OR_RETURN(ValueType type, ConvertType(value->type));
    if (!(type == s.operands[0].type)) {
      return s.Error(absl::StrCat("compares a ", s.operands[0].type.ToString(),
                                  " with a ", type.ToString()));
    }
    PJRTX_RETURN_IF_ERROR(DenseToBytes(*value, type.shape).status());
  } else if (!(s.operands[0].type == s.operands[1].type)) {
    return s.Error(absl::StrCat("compares a ", s.operands[0].type.ToString(),
                                " with a ", s.operands[1].type.ToString()));
  }
  for (const ScopedValue& v : s.operands) s.context.check_outputs->push_back(v);
  return absl::OkStatus();
}

absl::Status LowerCall(OpState& s) {
  const bool composite = s.op.name == "stablehlo.composite";
  PJRTX_ASSIGN_OR_RETURN(
      std::string callee,
      s.attributes.Symbol(composite ? "decomposition" : "callee"));
  const Program& program = s.context.lowerer.program();
  auto it = program.functions.find(callee);
  if (it == program.functions.end()) {
    return s.Error(absl::StrCat("calls undefined function @", callee));
  }
  s.instruction.opcode = OpCode::kCall;
  s.instruction.attributes.callee = it->second;
  // The callee's types are checked once it is lowered (it may come later);
  // here, only the arity against its declaration.
  return absl::OkStatus();
}

absl::Status LowerTupleOp(OpState& s) {
  if (s.op.name == "stablehlo.tuple") {
    ValueType tuple{ValueType::Kind::kTuple, {}, {}};
    for (const ScopedValue& v : s.operands) tuple.elements.push_back(v.type);
    PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
    if (!(tuple == s.result_types[0])) {
      return s.Error(absl::StrCat("result type ", s.result_types[0].ToString(),
                                  " should be ", tuple.ToString()));
    }
    s.instruction.opcode = OpCode::kTuple;
    return absl::OkStatus();
  }
  // get_tuple_element
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  if (s.operands[0].type.kind != ValueType::Kind::kTuple) {
    return s.Error("operand is not a tuple");
  }
  PJRTX_ASSIGN_OR_RETURN(int64_t index, s.attributes.Integer("index"));
  const auto& elements = s.operands[0].type.elements;
  if (index < 0 || index >= static_cast<int64_t>(elements.size())) {
    return s.Error(absl::StrCat("index ", index,
                                " is out of range for a "
                                "tuple of ",
                                elements.size()));
  }
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  if (!(elements[index] == s.result_types[0])) {
    return s.Error(absl::StrCat("result type ", s.result_types[0].ToString(),
                                " should be ", elements[index].ToString()));
  }
  s.instruction.opcode = OpCode::kGetTupleElement;
  s.instruction.attributes.dimension = index;
  return absl::OkStatus();
}

// real and imag of a float tensor (complex ones are expanded into their
// parts before lowering): the value itself, and zeros.
absl::Status LowerRealOrImag(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  if (!IsFloat(s.shape(0).type)) {
    return s.Error(absl::StrCat("needs a float or complex operand, got ",
                                s.shape(0).ToString()));
  }
  PJRTX_RETURN_IF_ERROR(s.ExpectResult(0, s.shape(0)));
  InstructionBuilder builder(s);
  return builder.Finish(s.op.name == "stablehlo.real"
                            ? builder.Operand(0)
                            : builder.Constant(0, s.shape(0).type));
}

absl::Status LowerPassThrough(OpState& s) {
  if (s.op.name == "stablehlo.after_all") {
    for (const ScopedValue& v : s.operands) {
      if (v.type.kind != ValueType::Kind::kToken) {
        return s.Error("operands must be tokens");
      }
    }
    s.instruction.opcode = OpCode::kAfterAll;
    return absl::OkStatus();
  }
  // optimization_barrier: results are the operands.
  if (s.operands.size() != s.result_types.size()) {
    return s.Error("must have as many results as operands");
  }
  for (size_t i = 0; i < s.operands.size(); ++i) {
    if (!(s.operands[i].type == s.result_types[i])) {
      return s.Error(absl::StrCat("result ", i,
                                  " must have the type of "
                                  "operand ",
                                  i));
    }
  }
  s.instruction.opcode = OpCode::kOptimizationBarrier;
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckDims(const OpState& s, const std::string& what,
                       const std::vector<int64_t>& dims, int64_t rank) {
  std::set<int64_t> seen;
  for (int64_t d : dims) {
    if (d < 0 || d >= rank || !seen.insert(d).second) {
      return s.Error(absl::StrCat(what, " [", absl::StrJoin(dims, ","),
                                  "] must be distinct dimensions in [0, ", rank,
                                  ")"));
    }
  }
  return absl::OkStatus();
}

absl::Status OpState::Error(absl::string_view message) const {
  return ErrorAt(op.location, absl::StrCat(op.name, ": ", message));
}

absl::Status OpState::RequireOperands(size_t count) const {
  if (operands.size() != count) {
    return Error(
        absl::StrCat("takes ", count, " operand(s), got ", operands.size()));
  }
  return absl::OkStatus();
}

absl::Status OpState::RequireResults(size_t count) const {
  if (result_types.size() != count) {
    return Error(
        absl::StrCat("has ", count, " result(s), got ", result_types.size()));
  }
  return absl::OkStatus();
}

absl::Status OpState::RequireTensors() const {
  for (size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].type.kind != ValueType::Kind::kTensor) {
      return Error(absl::StrCat("operand ", i, " must be a tensor, got ",
                                operands[i].type.ToString()));
    }
  }
  for (size_t i = 0; i < result_types.size(); ++i) {
    if (result_types[i].kind != ValueType::Kind::kTensor) {
      return Error(absl::StrCat("result ", i, " must be a tensor, got ",
                                result_types[i].ToString()));
    }
  }
  return absl::OkStatus();
}

absl::Status OpState::ExpectResult(int index, const Shape& inferred) const {
  if (!(result_types[index].shape == inferred)) {
    return Error(absl::StrCat("result type ", result(index).ToString(),
                              " should be ", inferred.ToString()));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> OpState::Region(size_t index, const std::string& name) {
  if (index >= op.regions.size()) {
    return Error(absl::StrCat("needs ", index + 1, " region(s), has ",
                              op.regions.size()));
  }
  return context.lowerer.LowerRegion(
      op.regions[index], absl::StrCat(op.name, " ", name), context.scope);
}

absl::StatusOr<int> OpState::ScalarRegion(
    size_t index, const std::vector<ElementType>& params,
    const std::vector<ElementType>& returns) {
  PJRTX_ASSIGN_OR_RETURN(int region, Region(index, "region"));
  const Computation& c = context.lowerer.computation(region);
  auto scalar_types_match = [](const std::vector<ValueType>& types,
                               const std::vector<ElementType>& want) {
    if (types.size() != want.size()) return false;
    for (size_t i = 0; i < types.size(); ++i) {
      if (types[i].kind != ValueType::Kind::kTensor ||
          !types[i].shape.dims.empty() || types[i].shape.type != want[i]) {
        return false;
      }
    }
    return true;
  };
  auto describe = [](const std::vector<ElementType>& types) {
    std::string text;
    for (ElementType t : types) {
      absl::StrAppend(&text, text.empty() ? "" : ", ", "tensor<",
                      ElementTypeToMlir(t), ">");
    }
    return absl::StrCat("(", text, ")");
  };
  if (!scalar_types_match(c.parameter_types, params)) {
    return Error(absl::StrCat("region ", index, " must take ", describe(params),
                              ", takes ", TypesToString(c.parameter_types)));
  }
  if (!returns.empty() && !scalar_types_match(c.result_types, returns)) {
    return Error(absl::StrCat("region ", index, " must return ",
                              describe(returns), ", returns ",
                              TypesToString(c.result_types)));
  }
  return region;
}

absl::StatusOr<std::vector<ScopedValue>> LowerOperation(OpContext& context) {
  const mlir::Operation& op = context.op;
  OpState s{context, op, AttributeReader(op), {}, {}, {}, {}};
  for (size_t i = 0; i < op.operands.size(); ++i) {
    PJRTX_ASSIGN_OR_RETURN(ScopedValue value,
                           context.scope.Lookup(op.operands[i]));
    if (i < op.operand_types.size()) {
      PJRTX_ASSIGN_OR_RETURN(ValueType declared,
                             ConvertType(op.operand_types[i]));
      if (!(declared == value.type)) {
        return ErrorAt(
            op.operands[i].location,
            absl::StrCat(op.name, ": operand %", op.operands[i].name,
                         " has type ", value.type.ToString(),
                         " but the op declares ", declared.ToString()));
      }
    }
    s.operands.push_back(value);
  }
  for (const mlir::Type& t : op.result_types) {
    PJRTX_ASSIGN_OR_RETURN(ValueType type, ConvertType(t));
    s.result_types.push_back(type);
  }
  if (static_cast<int>(s.result_types.size()) != op.num_results) {
    return ErrorAt(
        op.location,
        absl::StrCat(op.name, " defines ", op.num_results, " value(s) but has ",
                     s.result_types.size(), " result type(s)"));
  }
  s.instruction.name = op.name;
  s.instruction.location = op.location;
  for (const ScopedValue& v : s.operands) {
    s.instruction.operands.push_back(v.id);
    s.instruction.operand_types.push_back(v.type);
  }
  s.instruction.result_types = s.result_types;

  absl::Status status;
  if (absl::StartsWith(op.name, "interpreter.")) {
    return UnsupportedAt(op.location,
                         absl::StrCat(op.name,
                                      " is an op of the StableHLO "
                                      "reference interpreter only"));
  }
  if (absl::StartsWith(op.name, "check.")) {
    PJRTX_RETURN_IF_ERROR(LowerCheck(s));
    return std::vector<ScopedValue>{};
  }
  if (op.name == "func.call" || op.name == "call" ||
      op.name == "stablehlo.composite") {
    status = LowerCall(s);
  } else if (op.name == "stablehlo.tuple" ||
             op.name == "stablehlo.get_tuple_element") {
    status = LowerTupleOp(s);
  } else if (op.name == "stablehlo.real" || op.name == "stablehlo.imag") {
    status = LowerRealOrImag(s);
  } else if (op.name == "stablehlo.after_all" ||
             op.name == "stablehlo.optimization_barrier") {
    status = LowerPassThrough(s);
  } else if (op.name == "stablehlo.rng_bit_generator") {
    status = LowerRngBitGenerator(s);
  } else if (op.name == "stablehlo.infeed" || op.name == "stablehlo.outfeed") {
    return UnsupportedAt(op.location,
                         absl::StrCat(op.name,
                                      ": infeed/outfeed need a host feed, "
                                      "which this runtime does not have"));
  } else if (HasStaticForm(op.name)) {
    PJRTX_ASSIGN_OR_RETURN(mlir::Operation static_op, StaticForm(s));
    OpContext as_static{static_op, context.scope, context.lowerer,
                        context.computation, context.check_outputs};
    absl::StatusOr<std::vector<ScopedValue>> results =
        LowerOperation(as_static);
    if (!results.ok()) {
      return absl::Status(
          results.status().code(),
          absl::StrCat(mlir::LocationText(op.location), ": ", op.name, " as ",
                       static_op.name, " with its constant operands: ",
                       results.status().message()));
    }
    return results;
  } else if (UnsupportedOps().count(op.name)) {
    // A custom call is named by its target: the op alone does not say
    // which of JAX's many calls is missing.
    std::string what = absl::StrCat("op ", op.name);
    if (const mlir::Attribute* target = s.attributes.Find("call_target_name")) {
      absl::StrAppend(&what, " with call target '", target->string_value, "'");
    }
    return UnsupportedAt(op.location, absl::StrCat(what, " is not supported"));
  } else if (!LowerElementwiseOp(s, &status) && !LowerShapeOp(s, &status) &&
             !LowerRegionOp(s, &status) && !LowerLinearAlgebraOp(s, &status) &&
             !LowerChloOp(s, &status) && !LowerCollectiveOp(s, &status)) {
    return ErrorAt(op.location, absl::StrCat("unknown op '", op.name, "'"));
  }
  if (!status.ok()) return status;
  if (s.composed) {
    bool matches = s.composed->size() == s.result_types.size();
    for (size_t r = 0; matches && r < s.result_types.size(); ++r) {
      matches = (*s.composed)[r].type == s.result_types[r];
    }
    if (!matches) {
      return absl::InternalError(
          absl::StrCat(mlir::LocationText(op.location), ": ", op.name,
                       ": its composition does not give the declared results"));
    }
    return *std::move(s.composed);
  }

  Computation& c = context.lowerer.computation(context.computation);
  std::vector<ScopedValue> results;
  for (const ValueType& type : s.result_types) {
    const int id = c.num_values++;
    s.instruction.results.push_back(id);
    results.push_back(ScopedValue{id, type});
  }
  c.instructions.push_back(std::move(s.instruction));
  return results;
}

}  // namespace pjrtx::ir
