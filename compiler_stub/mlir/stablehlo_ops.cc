// The custom syntaxes of StableHLO ops without regions, after the
// assembly formats of stablehlo/dialect/StablehloOps.td, each giving what
// the op's generic form carries.
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/custom_ops.h"
#include "compiler_stub/mlir/stablehlo_attribute_syntax.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

enum class TypeSyntax { kSame, kFunctional };

absl::Status ParseTypes(Parser& parser, Operation& op, TypeSyntax syntax) {
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return syntax == TypeSyntax::kSame
             ? ParseSameOperandsAndResultType(parser, op)
             : ParseFunctionalType(parser, op);
}

absl::Status AddOperand(Parser& parser, Operation& op) {
  PJRTX_ASSIGN_OR_RETURN(ValueRef operand, parser.ParseValueUse());
  op.operands.push_back(std::move(operand));
  return absl::OkStatus();
}

// `%a, %b, keyword = [..] attr-dict : types`, the array becoming the i64
// array attribute `name` (broadcast_in_dim's dims, transpose's dims, ...).
absl::Status ParseOperandsThenArray(Parser& parser, Operation& op,
                                    std::string_view keyword,
                                    std::string_view name, TypeSyntax syntax) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
  PJRTX_ASSIGN_OR_RETURN(Attribute values, ParseI64ArrayAttribute(parser));
  op.attributes.emplace_back(name, std::move(values));
  return ParseTypes(parser, op, syntax);
}

// `%a, keyword = N attr-dict : function-type`, N an i64 named `name`.
absl::Status ParseOperandsThenDimension(Parser& parser, Operation& op,
                                        std::string_view keyword,
                                        std::string_view name) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
  PJRTX_ASSIGN_OR_RETURN(Attribute value, ParseTypedInteger(parser, "i64"));
  op.attributes.emplace_back(name, std::move(value));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// `%a, keyword = WORD attr-dict : function-type`, WORD an enum case.
absl::Status ParseOperandsThenEnum(Parser& parser, Operation& op,
                                   std::string_view keyword,
                                   std::string_view name,
                                   std::string_view mnemonic) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
  PJRTX_ASSIGN_OR_RETURN(Attribute value,
                         ParseEnumWord(parser, "stablehlo", mnemonic));
  op.attributes.emplace_back(name, std::move(value));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// attr-dict `:` type, for ops with no operands and one result.
absl::Status ParseResultTypeOnly(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  op.result_types.push_back(std::move(type));
  return absl::OkStatus();
}

// stablehlo.constant dense<...> : tensor<...>, or the quantized
// stablehlo.constant() <{value = ...}> : () -> tensor<...>.
absl::Status ParseConstant(Parser& parser, Operation& op) {
  if (parser.ConsumeIf(TokenKind::kLParen)) {
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
    if (parser.ConsumeIf(TokenKind::kLess)) {
      PJRTX_RETURN_IF_ERROR(parser.ParseAttributeDictionary(&op.attributes));
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kGreater));
    }
    return ParseTypes(parser, op, TypeSyntax::kFunctional);
  }
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(Attribute value, parser.ParseAttribute());
  if (value.type.text.empty()) {
    return parser.ErrorAt(location,
                          absl::StrCat("found '", value.text,
                                       "' without a type, expected a typed "
                                       "value such as dense<1> : tensor<i32>"));
  }
  op.result_types.push_back(value.type);
  op.attributes.emplace_back("value", std::move(value));
  return absl::OkStatus();
}

// custom<ComplexOpType>: one complex tensor type gives both operands the
// matching real type.
absl::Status ParseComplex(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  if (type.kind == Type::Kind::kFunction) {
    return AssignFunctionType(parser, op, type);
  }
  constexpr std::string_view kComplex = "complex<";
  const std::string& element = type.element;
  if (type.kind != Type::Kind::kTensor ||
      element.substr(0, kComplex.size()) != kComplex) {
    return parser.ErrorAt(type.location,
                          absl::StrCat("found '", type.text,
                                       "', expected a tensor of complex "
                                       "numbers or a function type"));
  }
  const Type real = MakeTensorType(
      type.dims,
      element.substr(kComplex.size(), element.size() - kComplex.size() - 1));
  op.operand_types.assign(op.operands.size(), real);
  op.result_types = {std::move(type)};
  return absl::OkStatus();
}

// custom<SelectOpType>: `pred_type, result_type` or a function type.
absl::Status ParseSelect(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(std::vector<Type> types, parser.ParseTypeList());
  if (types.size() == 1 && types[0].kind == Type::Kind::kFunction) {
    return AssignFunctionType(parser, op, types[0]);
  }
  if (types.size() != 2 || op.operands.size() != 3) {
    return parser.ErrorAt(
        location,
        absl::StrCat("found ", types.size(), " types for ", op.operands.size(),
                     " operands, expected the predicate type and "
                     "the result type for 3 operands"));
  }
  op.operand_types = {types[0], types[1], types[1]};
  op.result_types = {types[1]};
  return absl::OkStatus();
}

// custom<TupleOpType>: the tuple type gives the operand types.
absl::Status ParseTuple(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  if (type.kind != Type::Kind::kTuple ||
      type.elements.size() != op.operands.size()) {
    return parser.ErrorAt(
        type.location,
        absl::StrCat("found '", type.text, "', expected a tuple of ",
                     op.operands.size(), " types (one per operand)"));
  }
  op.operand_types = type.elements;
  op.result_types = {std::move(type)};
  return absl::OkStatus();
}

absl::Status ParseGetTupleElement(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
  PJRTX_ASSIGN_OR_RETURN(Attribute index, ParseTypedInteger(parser, "i32"));
  op.attributes.emplace_back("index", std::move(index));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// attr-dict, then `operands : types` (each result typed as its operand) or
// `()` when there are none.
absl::Status ParseOptimizationBarrier(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  if (parser.ConsumeIf(TokenKind::kLParen)) {
    return parser.Expect(TokenKind::kRParen);
  }
  if (!parser.Is(TokenKind::kPercentId)) return parser.Error("operands or ()");
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(op.operand_types, parser.ParseTypeList());
  if (op.operand_types.size() != op.operands.size()) {
    return parser.ErrorAt(
        location,
        absl::StrCat("found ", op.operand_types.size(), " types, expected ",
                     op.operands.size(), " (one per operand)"));
  }
  op.result_types = op.operand_types;
  return absl::OkStatus();
}

// DIRECTION, %lhs, %rhs (, TYPE)? attr-dict : function-type
absl::Status ParseCompare(Parser& parser, Operation& op) {
  PJRTX_ASSIGN_OR_RETURN(
      Attribute direction,
      ParseEnumWord(parser, "stablehlo", "comparison_direction"));
  op.attributes.emplace_back("comparison_direction", std::move(direction));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  if (parser.ConsumeIf(TokenKind::kComma)) {
    PJRTX_ASSIGN_OR_RETURN(
        Attribute type, ParseEnumWord(parser, "stablehlo", "comparison_type"));
    op.attributes.emplace_back("compare_type", std::move(type));
  }
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

absl::Status ParseIota(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "dim"));
  PJRTX_ASSIGN_OR_RETURN(Attribute dimension, ParseTypedInteger(parser, "i64"));
  op.attributes.emplace_back("iota_dimension", std::move(dimension));
  return ParseResultTypeOnly(parser, op);
}

// %a (, lower = BOOL)? attr-dict : type
absl::Status ParseCholesky(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  if (parser.ConsumeIf(TokenKind::kComma)) {
    PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "lower"));
    const Token value = parser.token();
    if (!parser.ConsumeIfKeyword("true") && !parser.ConsumeIfKeyword("false")) {
      return parser.Error("true or false");
    }
    op.attributes.emplace_back(
        "lower",
        MakeBoolAttribute(value.text == "true", value.location, value.text));
  }
  return ParseTypes(parser, op, TypeSyntax::kSame);
}

// (%lhs, %rhs) dim_numbers = ..., window = {...} attr-dict : function-type
absl::Status ParseConvolution(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "dim_numbers"));
  const size_t begin = parser.Mark();
  Attribute numbers;
  numbers.kind = Attribute::Kind::kDialect;
  numbers.dialect = "stablehlo";
  numbers.mnemonic = "conv";
  numbers.location = parser.token().location;
  PJRTX_RETURN_IF_ERROR(ParseConvDimensionNumbers(parser, &numbers.entries));
  numbers.text = std::string(parser.TextFrom(begin));
  op.attributes.emplace_back("dimension_numbers", std::move(numbers));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "window"));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLBrace));
  PJRTX_RETURN_IF_ERROR(ParseWindowAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRBrace));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// @target(operands) attr-dict : function-type
absl::Status ParseCustomCall(Parser& parser, Operation& op) {
  const Token target = parser.token();
  PJRTX_ASSIGN_OR_RETURN(std::string name, parser.ParseSymbolName());
  op.attributes.emplace_back(
      "call_target_name",
      MakeStringAttribute(std::move(name), target.location, target.text));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// %lhs, %rhs (, precision = [...])? attr-dict : function-type
absl::Status ParseDot(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalPrecisionAndAlgorithm(parser, op));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// %lhs, %rhs, [batching_dims = ..,] contracting_dims = .. (, precision =
// [...])? (, algorithm = <...>)? attr-dict : function-type
absl::Status ParseDotGeneral(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ParseDotDimensionNumbers(parser, op));
  PJRTX_RETURN_IF_ERROR(ParseOptionalPrecisionAndAlgorithm(parser, op));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// operands, config = "..." attr-dict : function-type
absl::Status ParseEinsum(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "config"));
  const Token config = parser.token();
  PJRTX_ASSIGN_OR_RETURN(std::string value, parser.ParseStringLiteral());
  op.attributes.emplace_back(
      "einsum_config",
      MakeStringAttribute(std::move(value), config.location, config.text));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// %a, type = FFT, length = [..] attr-dict : function-type
absl::Status ParseFft(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "type"));
  PJRTX_ASSIGN_OR_RETURN(Attribute type,
                         ParseEnumWord(parser, "stablehlo", "fft_type"));
  op.attributes.emplace_back("fft_type", std::move(type));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "length"));
  PJRTX_ASSIGN_OR_RETURN(Attribute length, ParseI64ArrayAttribute(parser));
  op.attributes.emplace_back("fft_length", std::move(length));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// %a, %padding, low = [..], high = [..], interior = [..] attr-dict : type
absl::Status ParsePad(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  constexpr std::pair<std::string_view, std::string_view> kFields[] = {
      {"low", "edge_padding_low"},
      {"high", "edge_padding_high"},
      {"interior", "interior_padding"}};
  for (const auto& [keyword, name] : kFields) {
    if (keyword != "low") {
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
    }
    PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, keyword));
    PJRTX_ASSIGN_OR_RETURN(Attribute values, ParseI64ArrayAttribute(parser));
    op.attributes.emplace_back(name, std::move(values));
  }
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// %a, "tag" attr-dict : type (no result)
absl::Status ParseTrace(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  const Token tag = parser.token();
  PJRTX_ASSIGN_OR_RETURN(std::string value, parser.ParseStringLiteral());
  op.attributes.emplace_back(
      "tag", MakeStringAttribute(std::move(value), tag.location, tag.text));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(Type type, parser.ParseType());
  op.operand_types = {std::move(type)};
  return absl::OkStatus();
}

// %a, format = e5m10 attr-dict : type
absl::Status ParseReducePrecision(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(ParseOperandsEachWithComma(parser, op));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "format"));
  const Token format = parser.token();
  // e<exponent bits>m<mantissa bits>
  const std::string_view text = format.text;
  const size_t m = text.find('m');
  int exponent = 0;
  int mantissa = 0;
  if (format.kind != TokenKind::kBareId || text.empty() || text[0] != 'e' ||
      m == std::string_view::npos ||
      !absl::SimpleAtoi(AbslView(text.substr(1, m - 1)), &exponent) ||
      !absl::SimpleAtoi(AbslView(text.substr(m + 1)), &mantissa) ||
      exponent < 0 || mantissa < 0) {
    return parser.Error("a format such as e5m10");
  }
  parser.Advance();
  op.attributes.emplace_back(
      "exponent_bits",
      MakeIntegerAttribute(exponent, "i32", format.location, format.text));
  op.attributes.emplace_back(
      "mantissa_bits",
      MakeIntegerAttribute(mantissa, "i32", format.location, format.text));
  return ParseTypes(parser, op, TypeSyntax::kSame);
}

// %a [start:limit(:stride)?, ...] attr-dict : function-type
absl::Status ParseSlice(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(AddOperand(parser, op));
  const size_t begin = parser.Mark();
  const Location location = parser.token().location;
  std::vector<int64_t> starts;
  std::vector<int64_t> limits;
  std::vector<int64_t> strides;
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
  if (!parser.Is(TokenKind::kRSquare)) {
    do {
      PJRTX_ASSIGN_OR_RETURN(int64_t start, parser.ParseSignedInteger());
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
      PJRTX_ASSIGN_OR_RETURN(int64_t limit, parser.ParseSignedInteger());
      int64_t stride = 1;
      if (parser.ConsumeIf(TokenKind::kColon)) {
        PJRTX_ASSIGN_OR_RETURN(stride, parser.ParseSignedInteger());
      }
      starts.push_back(start);
      limits.push_back(limit);
      strides.push_back(stride);
    } while (parser.ConsumeIf(TokenKind::kComma));
  }
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
  const std::string_view text = parser.TextFrom(begin);
  op.attributes.emplace_back(
      "start_indices",
      MakeI64ArrayAttribute(std::move(starts), location, text));
  op.attributes.emplace_back(
      "limit_indices",
      MakeI64ArrayAttribute(std::move(limits), location, text));
  op.attributes.emplace_back(
      "strides", MakeI64ArrayAttribute(std::move(strides), location, text));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

// "name" operands attr-dict : function-type
absl::Status ParseComposite(Parser& parser, Operation& op) {
  const Token name = parser.token();
  PJRTX_ASSIGN_OR_RETURN(std::string value, parser.ParseStringLiteral());
  op.attributes.emplace_back(
      "name", MakeStringAttribute(std::move(value), name.location, name.text));
  PJRTX_RETURN_IF_ERROR(ParseOperands(parser, op));
  return ParseTypes(parser, op, TypeSyntax::kFunctional);
}

}  // namespace

CustomOpParser FindStablehloOpParser(std::string_view mnemonic) {
  static constexpr std::pair<std::string_view, CustomOpParser> kParsers[] = {
      // custom<SameOperandsAndResultType> and functional-type forms that
      // list operands only.
      {"abs", ParseOperandsAndSameType},
      {"add", ParseOperandsAndSameType},
      {"after_all", ParseOperandsAndSameType},
      {"and", ParseOperandsAndSameType},
      {"atan2", ParseOperandsAndSameType},
      {"bitcast_convert", ParseOperandsAndSameType},
      {"cbrt", ParseOperandsAndSameType},
      {"ceil", ParseOperandsAndSameType},
      {"clamp", ParseOperandsAndSameType},
      {"compute_reshape_shape", ParseOperandsAndSameType},
      {"convert", ParseOperandsAndSameType},
      {"cosine", ParseOperandsAndSameType},
      {"count_leading_zeros", ParseOperandsAndSameType},
      {"cstr_reshapable", ParseOperandsAndSameType},
      {"divide", ParseOperandsAndSameType},
      {"dynamic_pad", ParseOperandsAndSameType},
      {"dynamic_reshape", ParseOperandsAndSameType},
      {"dynamic_update_slice", ParseOperandsAndSameType},
      {"exp2", ParseOperandsAndSameType},
      {"exponential", ParseOperandsAndSameType},
      {"exponential_minus_one", ParseOperandsAndSameType},
      {"floor", ParseOperandsAndSameType},
      {"fma", ParseOperandsAndSameType},
      {"imag", ParseOperandsAndSameType},
      {"is_finite", ParseOperandsAndSameType},
      {"log", ParseOperandsAndSameType},
      {"log2", ParseOperandsAndSameType},
      {"log_plus_one", ParseOperandsAndSameType},
      {"logistic", ParseOperandsAndSameType},
      {"maximum", ParseOperandsAndSameType},
      {"minimum", ParseOperandsAndSameType},
      {"multiply", ParseOperandsAndSameType},
      {"negate", ParseOperandsAndSameType},
      {"not", ParseOperandsAndSameType},
      {"or", ParseOperandsAndSameType},
      {"popcnt", ParseOperandsAndSameType},
      {"power", ParseOperandsAndSameType},
      {"real", ParseOperandsAndSameType},
      {"real_dynamic_slice", ParseOperandsAndSameType},
      {"remainder", ParseOperandsAndSameType},
      {"reshape", ParseOperandsAndSameType},
      {"round_nearest_afz", ParseOperandsAndSameType},
      {"round_nearest_even", ParseOperandsAndSameType},
      {"rsqrt", ParseOperandsAndSameType},
      {"shift_left", ParseOperandsAndSameType},
      {"shift_right_arithmetic", ParseOperandsAndSameType},
      {"shift_right_logical", ParseOperandsAndSameType},
      {"sign", ParseOperandsAndSameType},
      {"sine", ParseOperandsAndSameType},
      {"sqrt", ParseOperandsAndSameType},
      {"subtract", ParseOperandsAndSameType},
      {"tan", ParseOperandsAndSameType},
      {"tanh", ParseOperandsAndSameType},
      {"uniform_dequantize", ParseOperandsAndSameType},
      {"uniform_quantize", ParseOperandsAndSameType},
      {"xor", ParseOperandsAndSameType},
      // Ops with attributes or other type syntaxes.
      {"broadcast",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "sizes", "broadcast_sizes",
                                       TypeSyntax::kFunctional);
       }},
      {"broadcast_in_dim",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "dims", "broadcast_dimensions",
                                       TypeSyntax::kFunctional);
       }},
      {"cholesky", ParseCholesky},
      {"compare", ParseCompare},
      {"complex", ParseComplex},
      {"composite", ParseComposite},
      {"concatenate",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenDimension(p, op, "dim", "dimension");
       }},
      {"constant", ParseConstant},
      {"convolution", ParseConvolution},
      {"create_token", ParseResultTypeOnly},
      {"custom_call", ParseCustomCall},
      {"dot", ParseDot},
      {"dot_general", ParseDotGeneral},
      {"dynamic_broadcast_in_dim",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "dims", "broadcast_dimensions",
                                       TypeSyntax::kFunctional);
       }},
      {"dynamic_iota",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenDimension(p, op, "dim", "iota_dimension");
       }},
      {"dynamic_slice",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "sizes", "slice_sizes",
                                       TypeSyntax::kFunctional);
       }},
      {"einsum", ParseEinsum},
      {"fft", ParseFft},
      {"get_dimension_size",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenDimension(p, op, "dim", "dimension");
       }},
      {"get_tuple_element", ParseGetTupleElement},
      {"if", ParseIfOp},
      {"iota", ParseIota},
      {"optimization_barrier", ParseOptimizationBarrier},
      {"pad", ParsePad},
      {"partition_id", ParseResultTypeOnly},
      {"reduce", ParseReduceOp},
      {"reduce_precision", ParseReducePrecision},
      {"replica_id", ParseResultTypeOnly},
      {"return", ParseReturnLike},
      {"reverse",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "dims", "dimensions",
                                       TypeSyntax::kSame);
       }},
      {"rng",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenEnum(p, op, "distribution", "rng_distribution",
                                      "rng_distribution");
       }},
      {"rng_bit_generator",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenEnum(p, op, "algorithm", "rng_algorithm",
                                      "rng_algorithm");
       }},
      {"select", ParseSelect},
      {"set_dimension_size",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenDimension(p, op, "dim", "dimension");
       }},
      {"slice", ParseSlice},
      {"trace", ParseTrace},
      {"transpose",
       [](Parser& p, Operation& op) {
         return ParseOperandsThenArray(p, op, "dims", "permutation",
                                       TypeSyntax::kFunctional);
       }},
      {"tuple", ParseTuple},
      {"unary_einsum", ParseEinsum},
      {"while", ParseWhileOp},
  };
  for (const auto& [name, parser] : kParsers) {
    if (name == mnemonic) return parser;
  }
  return nullptr;
}

}  // namespace pjrtx::mlir
