#include "compiler_stub/mlir/custom_op_helpers.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {

Type MakeScalarType(std::string_view element) {
  Type type;
  type.kind = Type::Kind::kScalar;
  type.element = std::string(element);
  type.text = std::string(element);
  return type;
}

Type MakeTensorType(std::vector<int64_t> dims, std::string_view element) {
  Type type;
  type.kind = Type::Kind::kTensor;
  type.element = std::string(element);
  type.text = "tensor<";
  for (int64_t dim : dims) {
    absl::StrAppend(&type.text, dim < 0 ? "?" : absl::StrCat(dim), "x");
  }
  absl::StrAppend(&type.text, AbslView(element), ">");
  type.dims = std::move(dims);
  return type;
}

Attribute MakeIntegerAttribute(int64_t value, std::string_view type,
                               const Location& location,
                               std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kInteger;
  attribute.integer = value;
  attribute.type = MakeScalarType(type);
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

Attribute MakeStringAttribute(std::string value, const Location& location,
                              std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kString;
  attribute.string_value = std::move(value);
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

Attribute MakeI64ArrayAttribute(std::vector<int64_t> values,
                                const Location& location,
                                std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kDenseArray;
  attribute.integers = std::move(values);
  attribute.type = MakeScalarType("i64");
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

Attribute MakeIntegerListAttribute(const std::vector<int64_t>& values,
                                   const Location& location,
                                   std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kArray;
  for (int64_t value : values) {
    attribute.elements.push_back(
        MakeIntegerAttribute(value, "i64", location, absl::StrCat(value)));
  }
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

Attribute MakeBoolAttribute(bool value, const Location& location,
                            std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kBool;
  attribute.bool_value = value;
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

Attribute MakeEnumAttribute(std::string_view dialect, std::string_view mnemonic,
                            std::string_view body, const Location& location,
                            std::string_view text) {
  Attribute attribute;
  attribute.kind = Attribute::Kind::kDialect;
  attribute.dialect = std::string(dialect);
  attribute.mnemonic = std::string(mnemonic);
  attribute.body = std::string(body);
  attribute.location = location;
  attribute.text = std::string(text);
  return attribute;
}

absl::Status ParseOperands(Parser& parser, Operation& op) {
  if (!parser.Is(TokenKind::kPercentId)) return absl::OkStatus();
  return parser.ParseValueUseList(&op.operands);
}

absl::Status ParseOperandsEachWithComma(Parser& parser, Operation& op) {
  while (parser.Is(TokenKind::kPercentId)) {
    PJRTX_ASSIGN_OR_RETURN(ValueRef operand, parser.ParseValueUse());
    op.operands.push_back(std::move(operand));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  }
  return absl::OkStatus();
}

absl::Status ExpectKeywordEqual(Parser& parser, std::string_view keyword) {
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword(keyword));
  return parser.Expect(TokenKind::kEqual);
}

absl::StatusOr<std::vector<int64_t>> ParseIntegerList(Parser& parser) {
  std::vector<int64_t> values;
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
  if (parser.ConsumeIf(TokenKind::kRSquare)) return values;
  do {
    PJRTX_ASSIGN_OR_RETURN(int64_t value, parser.ParseSignedInteger());
    values.push_back(value);
  } while (parser.ConsumeIf(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
  return values;
}

absl::StatusOr<Attribute> ParseI64ArrayAttribute(Parser& parser) {
  const size_t begin = parser.Mark();
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> values, ParseIntegerList(parser));
  return MakeI64ArrayAttribute(std::move(values), location,
                               parser.TextFrom(begin));
}

absl::StatusOr<Attribute> ParseTypedInteger(Parser& parser,
                                            std::string_view type) {
  const size_t begin = parser.Mark();
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(int64_t value, parser.ParseSignedInteger());
  return MakeIntegerAttribute(value, type, location, parser.TextFrom(begin));
}

absl::StatusOr<Attribute> ParseEnumWord(Parser& parser,
                                        std::string_view dialect,
                                        std::string_view mnemonic) {
  if (!parser.Is(TokenKind::kBareId)) {
    return parser.Error(absl::StrCat("a ", AbslView(mnemonic), " name"));
  }
  const Token word = parser.token();
  parser.Advance();
  return MakeEnumAttribute(dialect, mnemonic, word.text, word.location,
                           word.text);
}

absl::StatusOr<Attribute> ParseTypedFloat(Parser& parser,
                                          std::string_view type) {
  const size_t begin = parser.Mark();
  const Location location = parser.token().location;
  const bool negative = parser.ConsumeIf(TokenKind::kMinus);
  const Token& number = parser.token();
  const bool is_number = number.kind == TokenKind::kInteger ||
                         number.kind == TokenKind::kFloat ||
                         parser.IsKeyword("nan") || parser.IsKeyword("inf");
  Attribute attribute;
  if (!is_number || !absl::SimpleAtod(absl::StrCat(negative ? "-" : "",
                                                   AbslView(number.text)),
                                      &attribute.float_value)) {
    return parser.Error("a number");
  }
  parser.Advance();
  attribute.kind = Attribute::Kind::kFloat;
  attribute.type = MakeScalarType(type);
  attribute.location = location;
  attribute.text = std::string(parser.TextFrom(begin));
  // The value may repeat its type, `0.1 : f64`, before the op's own `:`.
  const size_t colon = parser.Mark();
  if (parser.ConsumeIf(TokenKind::kColon)) {
    if (parser.IsKeyword(type)) {
      parser.Advance();
    } else {
      parser.Rewind(colon);
    }
  }
  return attribute;
}

absl::Status ParseOptionalAttributes(Parser& parser, Operation& op) {
  return parser.ParseOptionalAttributeDictionary(&op.attributes);
}

absl::Status AssignFunctionType(Parser& parser, Operation& op,
                                const Type& type) {
  if (type.kind != Type::Kind::kFunction) {
    return parser.ErrorAt(type.location,
                          absl::StrCat("found '", type.text,
                                       "', expected a function type "
                                       "(operand types) -> result types"));
  }
  if (type.elements.size() != op.operands.size()) {
    return parser.ErrorAt(
        type.location,
        absl::StrCat("found ", type.elements.size(),
                     " operand types, expected ", op.operands.size(),
                     " (one per operand of ", op.name, ")"));
  }
  op.operand_types = type.elements;
  op.result_types = type.results;
  return absl::OkStatus();
}

absl::Status ParseSameOperandsAndResultType(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  if (type.kind == Type::Kind::kFunction) {
    return AssignFunctionType(parser, op, type);
  }
  op.operand_types.assign(op.operands.size(), type);
  op.result_types = {std::move(type)};
  return absl::OkStatus();
}

absl::Status ParseFunctionalType(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  return AssignFunctionType(parser, op, type);
}

absl::Status ParseOperandsAndSameType(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseSameOperandsAndResultType(parser, op);
}

absl::Status ParseReturnLike(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  if (!parser.ConsumeIf(TokenKind::kColon)) {
    if (op.operands.empty()) return absl::OkStatus();
    return parser.Error("':' and the types of the returned values");
  }
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(op.operand_types, parser.ParseTypeList());
  if (op.operand_types.size() != op.operands.size()) {
    return parser.ErrorAt(
        location,
        absl::StrCat("found ", op.operand_types.size(), " types, expected ",
                     op.operands.size(), " (one per returned value)"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::mlir
