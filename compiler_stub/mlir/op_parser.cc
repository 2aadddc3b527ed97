// Operations (generic and custom form), regions, blocks, value uses and the
// names they bind.
//
// Result lists that name several values (`%a, %b:2 = ...`) are normalized
// to the generic printer's single name (`%a:3 = ...`): uses of %b#1 become
// %a#2, so that every value is (result_name, index) of its op.
#include <string>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/custom_ops.h"
#include "compiler_stub/mlir/parser_impl.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// No op has more results than this; larger counts are typos or garbage.
constexpr int kMaxResults = 1 << 16;

// Ops of the func dialect may drop the dialect prefix inside a function.
std::string FullOpName(std::string_view written) {
  if (written == "return" || written == "call") {
    return absl::StrCat("func.", AbslView(written));
  }
  return std::string(written);
}

}  // namespace

absl::StatusOr<Operation> Parser::ParseOperation() {
  struct ResultGroup {
    std::string name;
    int count = 1;
    Location location;
  };
  std::vector<ResultGroup> groups;
  int named_results = 0;
  if (Is(TokenKind::kPercentId)) {
    do {
      if (!Is(TokenKind::kPercentId) ||
          token_.text.find('#') != std::string_view::npos) {
        return Error("a result name such as %0");
      }
      ResultGroup group;
      group.name = std::string(token_.text.substr(1));
      group.location = token_.location;
      Advance();
      if (ConsumeIf(TokenKind::kColon)) {
        int64_t count = 0;
        if (!Is(TokenKind::kInteger) ||
            !absl::SimpleAtoi(AbslView(token_.text), &count) || count < 1 ||
            count > kMaxResults - named_results) {
          return Error(absl::StrCat("a result count from 1 to ",
                                    kMaxResults - named_results));
        }
        group.count = static_cast<int>(count);
        Advance();
      }
      named_results += group.count;
      if (named_results > kMaxResults) {
        return Error("fewer results");
      }
      groups.push_back(std::move(group));
    } while (ConsumeIf(TokenKind::kComma));
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kEqual));
  }

  Operation op;
  op.location = token_.location;
  op.num_results = named_results;
  if (Is(TokenKind::kString)) {
    PJRTX_RETURN_IF_ERROR(ParseGenericOperation(&op));
  } else if (Is(TokenKind::kBareId)) {
    PJRTX_RETURN_IF_ERROR(ParseCustomOperation(token_.text, &op));
  } else {
    return Error("an operation");
  }
  PJRTX_RETURN_IF_ERROR(SkipOptionalLocation());

  if (!groups.empty() &&
      static_cast<size_t>(named_results) != op.result_types.size()) {
    return ErrorAt(
        groups.front().location,
        absl::StrCat("found ", named_results, " result names, expected ",
                     op.result_types.size(), " (the results of ", op.name,
                     ")"));
  }
  op.num_results = static_cast<int>(op.result_types.size());
  if (!groups.empty()) {
    op.result_name = groups.front().name;
    int first_index = 0;
    for (const ResultGroup& group : groups) {
      Bind(group.name, {op.result_name, first_index, group.count});
      first_index += group.count;
    }
  }
  return op;
}

absl::Status Parser::ParseGenericOperation(Operation* op) {
  PJRTX_ASSIGN_OR_RETURN(op->name, ParseStringLiteral());
  return ParseGenericBody(op);
}

absl::Status Parser::ParseGenericBody(Operation* op) {
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  PJRTX_RETURN_IF_ERROR(ParseValueUseList(&op->operands));
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  if (Is(TokenKind::kLSquare)) {
    return Error(
        "properties, regions, attributes or ':' (block successors "
        "are not supported)");
  }
  // Properties <{...}> are attributes stored apart; the tree keeps them with
  // the others.
  if (ConsumeIf(TokenKind::kLess)) {
    PJRTX_RETURN_IF_ERROR(ParseAttributeDictionary(&op->attributes));
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kGreater));
  }
  if (ConsumeIf(TokenKind::kLParen)) {
    do {
      Region region;
      PJRTX_RETURN_IF_ERROR(ParseRegion(&region, nullptr));
      op->regions.push_back(std::move(region));
    } while (ConsumeIf(TokenKind::kComma));
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributeDictionary(&op->attributes));
  return ParseFunctionalType(*this, *op);
}

absl::Status Parser::ParseCustomOperation(std::string_view written_name,
                                          Operation* op) {
  const Token name_token = token_;
  op->name = FullOpName(written_name);
  Advance();
  if (CustomOpParser parser = FindCustomOpParser(op->name)) {
    return parser(*this, *op);
  }
  // An op without a custom syntax written unquoted, with the generic form's
  // operand list: `stablehlo.case(%i) ({...}, {...}) : (...) -> ...`.
  if (Is(TokenKind::kLParen)) return ParseGenericBody(op);
  return ErrorAt(name_token.location,
                 absl::StrCat("found unknown custom op '", op->name,
                              "', expected a known op or the generic form \"",
                              op->name, "\"(...) : (...) -> (...)"));
}

absl::StatusOr<ValueRef> Parser::ParseValueUse() {
  if (!Is(TokenKind::kPercentId)) return Error("a value such as %0");
  const Token token = token_;
  std::string_view text = token.text.substr(1);
  int index = 0;
  const size_t hash = text.find('#');
  if (hash != std::string_view::npos) {
    if (!absl::SimpleAtoi(AbslView(text.substr(hash + 1)), &index) ||
        index < 0 || index >= kMaxResults) {
      return Error(absl::StrCat("a result number below ", kMaxResults));
    }
    text = text.substr(0, hash);
  }
  Advance();
  ValueRef ref;
  ref.name = std::string(text);
  ref.index = index;
  ref.location = token.location;
  for (auto scope = scopes_.rbegin(); scope != scopes_.rend(); ++scope) {
    auto found = scope->find(ref.name);
    if (found == scope->end()) continue;
    const ValueBinding& binding = found->second;
    if (index >= binding.count) {
      return ErrorAt(
          token.location,
          absl::StrCat("found ", DescribeToken(token),
                       ", expected a result number below ", binding.count));
    }
    ref.name = binding.canonical;
    ref.index = binding.first_index + index;
    break;
  }
  return ref;
}

absl::Status Parser::ParseValueUseList(std::vector<ValueRef>* out) {
  if (!Is(TokenKind::kPercentId)) return absl::OkStatus();
  do {
    PJRTX_ASSIGN_OR_RETURN(ValueRef ref, ParseValueUse());
    out->push_back(std::move(ref));
  } while (ConsumeIf(TokenKind::kComma));
  return absl::OkStatus();
}

absl::StatusOr<BlockArgument> Parser::ParseArgumentDeclaration() {
  if (!Is(TokenKind::kPercentId) ||
      token_.text.find('#') != std::string_view::npos) {
    return Error("an argument such as %arg0");
  }
  BlockArgument argument;
  argument.name = std::string(token_.text.substr(1));
  argument.location = token_.location;
  Advance();
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kColon));
  PJRTX_ASSIGN_OR_RETURN(argument.type, ParseType());
  PJRTX_RETURN_IF_ERROR(SkipOptionalLocation());
  return argument;
}

absl::Status Parser::ParseRegion(
    Region* region, const std::vector<BlockArgument>* entry_arguments) {
  Nesting nesting(*this);
  PJRTX_RETURN_IF_ERROR(nesting.status());
  region->location = token_.location;
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLBrace));
  PushScope();
  if (entry_arguments != nullptr) {
    for (const BlockArgument& argument : *entry_arguments) {
      Bind(argument.name, {argument.name, 0, 1});
    }
  }
  if (Is(TokenKind::kRBrace) && entry_arguments != nullptr) {
    // An empty body still has its entry block and arguments.
    Block block;
    block.arguments = *entry_arguments;
    block.location = region->location;
    region->blocks.push_back(std::move(block));
  }
  while (!Is(TokenKind::kRBrace)) {
    Block block;
    PJRTX_RETURN_IF_ERROR(
        ParseBlock(&block, region->blocks.empty(), entry_arguments));
    region->blocks.push_back(std::move(block));
  }
  Advance();  // }
  PopScope();
  return absl::OkStatus();
}

absl::Status Parser::ParseBlock(
    Block* block, bool is_entry,
    const std::vector<BlockArgument>* entry_arguments) {
  block->location = token_.location;
  const bool has_entry_arguments =
      entry_arguments != nullptr && !entry_arguments->empty();
  if (Is(TokenKind::kCaretId)) {
    if (is_entry && has_entry_arguments) {
      return Error(
          "an operation (the entry block's arguments are declared "
          "by the op)");
    }
    block->label = std::string(token_.text.substr(1));
    Advance();
    if (ConsumeIf(TokenKind::kLParen)) {
      if (!Is(TokenKind::kRParen)) {
        do {
          PJRTX_ASSIGN_OR_RETURN(BlockArgument argument,
                                 ParseArgumentDeclaration());
          Bind(argument.name, {argument.name, 0, 1});
          block->arguments.push_back(std::move(argument));
        } while (ConsumeIf(TokenKind::kComma));
      }
      PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
    }
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kColon));
  } else if (is_entry && entry_arguments != nullptr) {
    block->arguments = *entry_arguments;
  }
  while (!Is(TokenKind::kRBrace) && !Is(TokenKind::kCaretId)) {
    if (Is(TokenKind::kEndOfInput)) return Error("an operation or '}'");
    PJRTX_ASSIGN_OR_RETURN(Operation op, ParseOperation());
    block->operations.push_back(std::move(op));
  }
  return absl::OkStatus();
}

absl::Status Parser::SkipOptionalLocation() {
  if (!IsKeyword("loc")) return absl::OkStatus();
  const size_t mark = Mark();
  Advance();
  if (!Is(TokenKind::kLParen)) {
    Rewind(mark);
    return absl::OkStatus();
  }
  // The closing brackets still expected, innermost last.
  std::string closers;
  do {
    switch (token_.kind) {
      case TokenKind::kLParen:
      case TokenKind::kLSquare:
      case TokenKind::kLBrace:
        if (closers.size() >= static_cast<size_t>(kMaxNesting)) {
          return Error(
              absl::StrCat("at most ", kMaxNesting, " levels of nesting"));
        }
        closers += Is(TokenKind::kLParen)    ? ')'
                   : Is(TokenKind::kLSquare) ? ']'
                                             : '}';
        break;
      case TokenKind::kRParen:
      case TokenKind::kRSquare:
      case TokenKind::kRBrace:
        if (token_.text[0] != closers.back()) {
          return Error(absl::StrCat("'", std::string(1, closers.back()), "'"));
        }
        closers.pop_back();
        break;
      case TokenKind::kEndOfInput:
      case TokenKind::kError:
        return Error("')' to close loc(...)");
      default:
        break;
    }
    Advance();
  } while (!closers.empty());
  return absl::OkStatus();
}

void Parser::PushScope() { scopes_.emplace_back(); }

void Parser::PopScope() {
  if (!scopes_.empty()) scopes_.pop_back();
}

void Parser::Bind(const std::string& name, const ValueBinding& binding) {
  if (scopes_.empty()) scopes_.emplace_back();
  scopes_.back()[name] = binding;
}

}  // namespace pjrtx::mlir
