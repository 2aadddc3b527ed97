// The custom syntaxes of the ops around StableHLO: func.call and
// func.return, the check dialect's test assertions, the interpreter's
// probe and print, and chlo ops.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/custom_ops.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

absl::Status AddOperand(Parser& parser, Operation& op) {
  PJRTX_ASSIGN_OR_RETURN(ValueRef operand, parser.ParseValueUse());
  op.operands.push_back(std::move(operand));
  return absl::OkStatus();
}

absl::Status AddTwoOperands(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  return AddOperand(parser, op);
}

// `keyword = "text"` as the string attribute `name`.
absl::Status ParseStringField(Parser& parser, Operation& op,
                              std::string_view keyword, std::string_view name) {
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
  const Token token = parser.token();
  PJRTX_ASSIGN_OR_RETURN(std::string value, parser.ParseStringLiteral());
  op.attributes.emplace_back(
      name, MakeStringAttribute(std::move(value), token.location, token.text));
  return absl::OkStatus();
}

// `keyword = N` as the integer attribute `name` of the given type.
absl::Status ParseIntegerField(Parser& parser, Operation& op,
                               std::string_view keyword, std::string_view name,
                               std::string_view type) {
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
  PJRTX_ASSIGN_OR_RETURN(Attribute value, ParseTypedInteger(parser, type));
  op.attributes.emplace_back(name, std::move(value));
  return absl::OkStatus();
}

// `, tolerance = X` if present, as tolerance : f64.
absl::Status ParseOptionalTolerance(Parser& parser, Operation& op) {
  const size_t comma = parser.Mark();
  if (!parser.ConsumeIf(TokenKind::kComma)) return absl::OkStatus();
  if (!parser.IsKeyword("tolerance")) {
    parser.Rewind(comma);
    return absl::OkStatus();
  }
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "tolerance"));
  PJRTX_ASSIGN_OR_RETURN(Attribute tolerance, ParseTypedFloat(parser, "f64"));
  op.attributes.emplace_back("tolerance", std::move(tolerance));
  return absl::OkStatus();
}

// `: T` giving every operand type T, and T to each named result.
absl::Status ParseSharedType(Parser& parser, Operation& op,
                             size_t num_results) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  op.operand_types.assign(op.operands.size(), type);
  op.result_types.assign(num_results, type);
  return absl::OkStatus();
}

// @callee(operands) attr-dict : function-type
absl::Status ParseCall(Parser& parser, Operation& op) {
  const Token callee = parser.token();
  Attribute symbol;
  symbol.kind = Attribute::Kind::kSymbolRef;
  PJRTX_ASSIGN_OR_RETURN(symbol.string_value, parser.ParseSymbolName());
  symbol.location = callee.location;
  symbol.text = std::string(callee.text);
  op.attributes.emplace_back("callee", std::move(symbol));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseFunctionalType(parser, op);
}

// %lhs, dense<...> : T (, tolerance = X)? attr-dict: the literal's type is
// the operand's.
absl::Status ParseExpectConst(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(Attribute value, parser.ParseAttribute());
  if (value.type.text.empty()) {
    return parser.ErrorAt(location,
                          absl::StrCat("found '", value.text,
                                       "' without a type, expected a typed "
                                       "value such as dense<1> : tensor<i32>"));
  }
  op.operand_types = {value.type};
  op.attributes.emplace_back("value", std::move(value));
  PJRTX_RETURN_IF_ERROR(ParseOptionalTolerance(parser, op));
  return ParseOptionalAttributes(parser, op);
}

// %lhs, %rhs (, tolerance = X)? attr-dict : T
absl::Status ParseExpectEq(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddTwoOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalTolerance(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseSharedType(parser, op, 0);
}

// %actual, %expected, max_ulp_difference = N (, min_ulp_difference = M)?
//     : attr-dict T, T
absl::Status ParseExpectClose(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddTwoOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ParseIntegerField(parser, op, "max_ulp_difference",
                                          "max_ulp_difference", "ui64"));
  if (parser.ConsumeIf(TokenKind::kComma)) {
    PJRTX_RETURN_IF_ERROR(ParseIntegerField(parser, op, "min_ulp_difference",
                                            "min_ulp_difference", "ui64"));
  }
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_ASSIGN_OR_RETURN(Type actual, parser.ParseType());
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_ASSIGN_OR_RETURN(Type expected, parser.ParseType());
  op.operand_types = {std::move(actual), std::move(expected)};
  return absl::OkStatus();
}

// %expected, probe_id = "id" (, iter = N)? attr-dict : T
absl::Status ParseExpectSerializedEq(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ParseStringField(parser, op, "probe_id", "probe_id"));
  if (parser.ConsumeIf(TokenKind::kComma)) {
    PJRTX_RETURN_IF_ERROR(
        ParseIntegerField(parser, op, "iter", "iteration", "ui32"));
  }
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseSharedType(parser, op, 0);
}

// %operand, probe_id = "id" attr-dict : T
absl::Status ParseProbe(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ParseStringField(parser, op, "probe_id", "probe_id"));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseSharedType(parser, op, 1);
}

// %operand attr-dict : T. Older interpreters give print no result, newer
// ones the operand's type; the statement says which.
absl::Status ParsePrint(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseSharedType(parser, op, op.num_results > 0 ? 1 : 0);
}

// (inputs) inits(inits) dimension=N attributes {...}? {region}
//     : function-type
absl::Status ParseChloScan(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  const int64_t num_inputs = static_cast<int64_t>(op.operands.size());
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("inits"));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  const Location location = parser.token().location;
  PJRTX_RETURN_IF_ERROR(
      ParseIntegerField(parser, op, "dimension", "dimension", "i64"));
  // How the generic form tells inputs from inits.
  Attribute segments;
  segments.kind = Attribute::Kind::kDenseArray;
  segments.type = MakeScalarType("i32");
  segments.integers = {num_inputs,
                       static_cast<int64_t>(op.operands.size()) - num_inputs};
  segments.location = location;
  op.attributes.emplace_back("operandSegmentSizes", std::move(segments));
  PJRTX_RETURN_IF_ERROR(parser.ParseOptionalAttributesKeyword(&op.attributes));
  Region body;
  PJRTX_RETURN_IF_ERROR(parser.ParseRegion(&body, nullptr));
  op.regions.push_back(std::move(body));
  return ParseFunctionalType(parser, op);
}

// (%operand, k = N) attr-dict : T -> (values, indices)
absl::Status ParseChloTopK(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ParseIntegerField(parser, op, "k", "k", "i64"));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type operand, parser.ParseType());
  op.operand_types = {std::move(operand)};
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kArrow));
  PJRTX_ASSIGN_OR_RETURN(op.result_types, parser.ParseFunctionResultTypes());
  return absl::OkStatus();
}

// The other chlo ops: operands attr-dict : T (-> R)?, or a function type.
absl::Status ParseChloOp(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  if (type.kind == Type::Kind::kFunction) {
    return AssignFunctionType(parser, op, type);
  }
  op.operand_types.assign(op.operands.size(), type);
  if (parser.ConsumeIf(TokenKind::kArrow)) {
    PJRTX_ASSIGN_OR_RETURN(op.result_types, parser.ParseFunctionResultTypes());
  } else {
    op.result_types = {std::move(type)};
  }
  return absl::OkStatus();
}

}  // namespace

CustomOpParser FindSupportOpParser(std::string_view name) {
  static constexpr std::pair<std::string_view, CustomOpParser> kParsers[] = {
      {"func.return", ParseReturnLike},
      {"func.call", ParseCall},
      {"check.expect_eq_const", ParseExpectConst},
      {"check.expect_almost_eq_const", ParseExpectConst},
      // The names older interpreters used for the two above.
      {"check.eq", ParseExpectConst},
      {"check.almost_eq", ParseExpectConst},
      {"check.expect_eq", ParseExpectEq},
      {"check.expect_almost_eq", ParseExpectEq},
      {"check.expect_close", ParseExpectClose},
      {"check.expect_serialized_eq", ParseExpectSerializedEq},
      {"interpreter.probe", ParseProbe},
      {"interpreter.print", ParsePrint},
      {"chlo.scan", ParseChloScan},
      {"chlo.top_k", ParseChloTopK},
  };
  for (const auto& [op_name, parser] : kParsers) {
    if (op_name == name) return parser;
  }
  constexpr std::string_view kChlo = "chlo.";
  if (name.substr(0, kChlo.size()) == kChlo) return ParseChloOp;
  return nullptr;
}

}  // namespace pjrtx::mlir
