// The custom syntaxes of StableHLO ops with regions: while, reduce (both
// its `applies` and `reducer` spellings) and if.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/custom_ops.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// `across dimensions = [..] attr-dict : function-type`, common to both
// spellings of reduce.
absl::Status ParseReduceDimensionsAndType(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("across"));
  PJRTX_RETURN_IF_ERROR(ExpectKeywordEqual(parser, "dimensions"));
  PJRTX_ASSIGN_OR_RETURN(Attribute dimensions, ParseI64ArrayAttribute(parser));
  op.attributes.emplace_back("dimensions", std::move(dimensions));
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributes(parser, op));
  return ParseFunctionalType(parser, op);
}

ValueRef MakeValueRef(std::string name, const Location& location) {
  ValueRef ref;
  ref.name = std::move(name);
  ref.location = location;
  return ref;
}

// The body `applies stablehlo.add` stands for: one block of two scalar
// arguments, the op applied to them and a return of its result.
absl::Status BuildAppliedBody(Parser& parser, const Token& name_token,
                              std::string inner_name, Operation& op) {
  const Type& input = op.operand_types.front();
  if (input.kind != Type::Kind::kTensor) {
    return parser.ErrorAt(
        input.location,
        absl::StrCat("found '", input.text, "', expected a tensor type"));
  }
  const Location& location = name_token.location;
  const Type scalar = MakeTensorType({}, input.element);
  Block block;
  block.location = location;
  for (const char* name : {"lhs", "rhs"}) {
    BlockArgument argument;
    argument.name = name;
    argument.type = scalar;
    argument.location = location;
    block.arguments.push_back(std::move(argument));
  }
  Operation inner;
  const size_t dot = inner_name.find('.');
  const std::string dialect =
      dot == std::string::npos ? "stablehlo" : inner_name.substr(0, dot);
  inner.name = std::move(inner_name);
  inner.result_name = "result";
  inner.num_results = 1;
  inner.operands = {MakeValueRef("lhs", location),
                    MakeValueRef("rhs", location)};
  inner.operand_types = {scalar, scalar};
  inner.result_types = {scalar};
  inner.location = location;
  Operation terminator;
  terminator.name = absl::StrCat(dialect, ".return");
  terminator.operands = {MakeValueRef("result", location)};
  terminator.operand_types = {scalar};
  terminator.location = location;
  block.operations.push_back(std::move(inner));
  block.operations.push_back(std::move(terminator));
  Region region;
  region.location = location;
  region.blocks.push_back(std::move(block));
  op.regions.push_back(std::move(region));
  return absl::OkStatus();
}

}  // namespace

// (%iterArg = %init, ...) : types attributes {...}? cond {...} do {...}
absl::Status ParseWhileOp(Parser& parser, Operation& op) {
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
  std::vector<BlockArgument> arguments;
  if (!parser.ConsumeIf(TokenKind::kRParen)) {
    do {
      if (!parser.Is(TokenKind::kPercentId) ||
          parser.token().text.find('#') != std::string_view::npos) {
        return parser.Error("an iteration argument such as %iterArg");
      }
      BlockArgument argument;
      argument.name = std::string(parser.token().text.substr(1));
      argument.location = parser.token().location;
      parser.Advance();
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
      PJRTX_ASSIGN_OR_RETURN(ValueRef operand, parser.ParseValueUse());
      op.operands.push_back(std::move(operand));
      arguments.push_back(std::move(argument));
    } while (parser.ConsumeIf(TokenKind::kComma));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
    const Location location = parser.token().location;
    PJRTX_ASSIGN_OR_RETURN(op.operand_types, parser.ParseTypeList());
    if (op.operand_types.size() != op.operands.size()) {
      return parser.ErrorAt(
          location,
          absl::StrCat("found ", op.operand_types.size(), " types, expected ",
                       op.operands.size(), " (one per iteration argument)"));
    }
    for (size_t i = 0; i < arguments.size(); ++i) {
      arguments[i].type = op.operand_types[i];
    }
    op.result_types = op.operand_types;
  }
  PJRTX_RETURN_IF_ERROR(parser.ParseOptionalAttributesKeyword(&op.attributes));
  for (const char* keyword : {"cond", "do"}) {
    PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword(keyword));
    Region region;
    PJRTX_RETURN_IF_ERROR(parser.ParseRegion(&region, &arguments));
    op.regions.push_back(std::move(region));
  }
  return absl::OkStatus();
}

// (%input init: %init), ... applies stablehlo.add across dimensions = [..]
//     attr-dict : function-type
// (%input init: %init), ... across dimensions = [..] attr-dict
//     : function-type reducer(%a: T, %b: T) ... {...}
absl::Status ParseReduceOp(Parser& parser, Operation& op) {
  std::vector<ValueRef> inits;
  do {
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLParen));
    PJRTX_ASSIGN_OR_RETURN(ValueRef input, parser.ParseValueUse());
    PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("init"));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kColon));
    PJRTX_ASSIGN_OR_RETURN(ValueRef init, parser.ParseValueUse());
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
    op.operands.push_back(std::move(input));
    inits.push_back(std::move(init));
  } while (parser.ConsumeIf(TokenKind::kComma));
  for (ValueRef& init : inits) op.operands.push_back(std::move(init));

  if (parser.ConsumeIfKeyword("applies")) {
    const Token name_token = parser.token();
    std::string inner_name;
    if (parser.Is(TokenKind::kString)) {
      PJRTX_ASSIGN_OR_RETURN(inner_name, parser.ParseStringLiteral());
    } else if (parser.Is(TokenKind::kBareId)) {
      inner_name = std::string(name_token.text);
      parser.Advance();
    } else {
      return parser.Error("the name of the reducing op");
    }
    PJRTX_RETURN_IF_ERROR(ParseReduceDimensionsAndType(parser, op));
    return BuildAppliedBody(parser, name_token, std::move(inner_name), op);
  }

  PJRTX_RETURN_IF_ERROR(ParseReduceDimensionsAndType(parser, op));
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("reducer"));
  // Each pair is (element, accumulator); the block takes all elements
  // first, then all accumulators.
  std::vector<BlockArgument> elements;
  std::vector<BlockArgument> accumulators;
  while (parser.ConsumeIf(TokenKind::kLParen)) {
    PJRTX_ASSIGN_OR_RETURN(BlockArgument element,
                           parser.ParseArgumentDeclaration());
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
    PJRTX_ASSIGN_OR_RETURN(BlockArgument accumulator,
                           parser.ParseArgumentDeclaration());
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
    elements.push_back(std::move(element));
    accumulators.push_back(std::move(accumulator));
  }
  for (BlockArgument& accumulator : accumulators) {
    elements.push_back(std::move(accumulator));
  }
  Region body;
  PJRTX_RETURN_IF_ERROR(parser.ParseRegion(&body, &elements));
  op.regions.push_back(std::move(body));
  return absl::OkStatus();
}

// %pred -> (types) {...} else {...}, a spelling some producers write (the
// StableHLO printer uses the generic form), or the generic form unquoted.
absl::Status ParseIfOp(Parser& parser, Operation& op) {
  if (parser.Is(TokenKind::kLParen)) return parser.ParseGenericBody(&op);
  PJRTX_ASSIGN_OR_RETURN(ValueRef pred, parser.ParseValueUse());
  op.operands.push_back(std::move(pred));
  // The predicate is always a 0-d i1 tensor.
  op.operand_types = {MakeTensorType({}, "i1")};
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kArrow));
  PJRTX_ASSIGN_OR_RETURN(op.result_types, parser.ParseFunctionResultTypes());
  Region true_branch;
  PJRTX_RETURN_IF_ERROR(parser.ParseRegion(&true_branch, nullptr));
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("else"));
  Region false_branch;
  PJRTX_RETURN_IF_ERROR(parser.ParseRegion(&false_branch, nullptr));
  op.regions.push_back(std::move(true_branch));
  op.regions.push_back(std::move(false_branch));
  return absl::OkStatus();
}

}  // namespace pjrtx::mlir
