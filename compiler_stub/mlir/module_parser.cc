// The top level: one `module` or a bare list of functions, func.func
// definitions, alias definitions (#alias = ..., !alias = ...) and file
// metadata {-# ... #-}.
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/parser_impl.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// Keeps an op found at module level for the verifier to reject, except
// Shardy's meshes: they only name the devices of sharding annotations, and
// the bytecode reader drops them too, so both front ends build the same
// tree.
void AddModuleLevelOp(Operation op, Module* module) {
  if (op.name == "sdy.mesh") return;
  module->other_operations.push_back(std::move(op));
}

}  // namespace

absl::StatusOr<Module> Parser::ParseModule() {
  Module module;
  module.location = LocationAt(0);
  bool saw_module = false;
  bool saw_other = false;
  PushScope();
  while (!Is(TokenKind::kEndOfInput)) {
    PJRTX_RETURN_IF_ERROR(ParseTopLevelItem(&module, &saw_module, &saw_other));
  }
  return module;
}

absl::Status Parser::ParseTopLevelItem(Module* module, bool* saw_module,
                                       bool* saw_other) {
  if (Is(TokenKind::kHashId) || Is(TokenKind::kBangId)) {
    return ParseAliasDefinition();
  }
  if (Is(TokenKind::kFileMetadataBegin)) return SkipFileMetadata();
  if (IsKeyword("module") || IsKeyword("builtin.module")) {
    if (*saw_module) return Error("end of input after the module");
    if (*saw_other) return Error("a function (a module cannot follow them)");
    *saw_module = true;
    return ParseModuleOp(module);
  }
  if (*saw_module) return Error("end of input after the module");
  *saw_other = true;
  if (IsKeyword("func.func") || IsKeyword("func")) {
    PJRTX_ASSIGN_OR_RETURN(Function function, ParseFunction());
    module->functions.push_back(std::move(function));
    return absl::OkStatus();
  }
  PJRTX_ASSIGN_OR_RETURN(Operation op, ParseOperation());
  AddModuleLevelOp(std::move(op), module);
  return absl::OkStatus();
}

absl::Status Parser::ParseModuleOp(Module* module) {
  module->location = token_.location;
  Advance();  // module
  if (Is(TokenKind::kAtId)) {
    PJRTX_ASSIGN_OR_RETURN(module->name, ParseSymbolName());
  }
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributesKeyword(&module->attributes));
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLBrace));
  while (!ConsumeIf(TokenKind::kRBrace)) {
    if (Is(TokenKind::kEndOfInput)) return Error("a function or '}'");
    if (IsKeyword("func.func") || IsKeyword("func")) {
      PJRTX_ASSIGN_OR_RETURN(Function function, ParseFunction());
      module->functions.push_back(std::move(function));
    } else {
      PJRTX_ASSIGN_OR_RETURN(Operation op, ParseOperation());
      AddModuleLevelOp(std::move(op), module);
    }
  }
  return SkipOptionalLocation();
}

absl::Status Parser::ParseAliasDefinition() {
  const Token name = token_;
  Advance();
  if (!Is(TokenKind::kEqual)) {
    return ErrorAt(name.location,
                   absl::StrCat("found ", DescribeToken(name),
                                " at the top level, expected an alias "
                                "definition such as #alias = ..."));
  }
  Advance();
  if (name.kind == TokenKind::kBangId) {
    PJRTX_ASSIGN_OR_RETURN(Type type, ParseType());
    type_aliases_[std::string(name.text)] = std::move(type);
    return absl::OkStatus();
  }
  // Locations (#loc3 = loc(...)) are skipped like every loc(...).
  if (IsKeyword("loc")) {
    const size_t before = Mark();
    PJRTX_RETURN_IF_ERROR(SkipOptionalLocation());
    if (Mark() != before) return absl::OkStatus();
  }
  PJRTX_ASSIGN_OR_RETURN(Attribute attribute, ParseAttribute());
  attribute_aliases_[std::string(name.text.substr(1))] = std::move(attribute);
  return absl::OkStatus();
}

absl::Status Parser::SkipFileMetadata() {
  Advance();  // {-#
  while (!ConsumeIf(TokenKind::kFileMetadataEnd)) {
    if (Is(TokenKind::kEndOfInput) || Is(TokenKind::kError)) {
      return Error("'#-}' closing the file metadata");
    }
    Advance();
  }
  return absl::OkStatus();
}

absl::StatusOr<Function> Parser::ParseFunction() {
  Function function;
  function.location = token_.location;
  Advance();  // func.func
  if (IsKeyword("public") || IsKeyword("private") || IsKeyword("nested")) {
    function.visibility = std::string(token_.text);
    Advance();
  }
  PJRTX_ASSIGN_OR_RETURN(function.name, ParseSymbolName());
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  bool all_named = true;
  if (!ConsumeIf(TokenKind::kRParen)) {
    do {
      FunctionArgument argument;
      argument.location = token_.location;
      // A declaration without a body may list bare types.
      if (Is(TokenKind::kPercentId)) {
        if (token_.text.find('#') != std::string_view::npos) {
          return Error("an argument such as %arg0");
        }
        argument.name = std::string(token_.text.substr(1));
        Advance();
        PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kColon));
      } else {
        all_named = false;
      }
      PJRTX_ASSIGN_OR_RETURN(argument.type, ParseType());
      PJRTX_RETURN_IF_ERROR(
          ParseOptionalAttributeDictionary(&argument.attributes));
      PJRTX_RETURN_IF_ERROR(SkipOptionalLocation());
      function.arguments.push_back(std::move(argument));
    } while (ConsumeIf(TokenKind::kComma));
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  if (ConsumeIf(TokenKind::kArrow)) {
    if (ConsumeIf(TokenKind::kLParen)) {
      if (!ConsumeIf(TokenKind::kRParen)) {
        do {
          PJRTX_ASSIGN_OR_RETURN(Type type, ParseType());
          function.result_types.push_back(std::move(type));
          function.result_attributes.emplace_back();
          PJRTX_RETURN_IF_ERROR(ParseOptionalAttributeDictionary(
              &function.result_attributes.back()));
        } while (ConsumeIf(TokenKind::kComma));
        PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
      }
    } else {
      PJRTX_ASSIGN_OR_RETURN(Type type, ParseType());
      function.result_types.push_back(std::move(type));
      function.result_attributes.emplace_back();
    }
  }
  PJRTX_RETURN_IF_ERROR(ParseOptionalAttributesKeyword(&function.attributes));
  if (Is(TokenKind::kLBrace)) {
    if (!all_named) {
      return Error("no body, since the arguments have no names");
    }
    std::vector<BlockArgument> entry;
    for (const FunctionArgument& argument : function.arguments) {
      BlockArgument block_argument;
      block_argument.name = argument.name;
      block_argument.type = argument.type;
      block_argument.location = argument.location;
      entry.push_back(std::move(block_argument));
    }
    PJRTX_RETURN_IF_ERROR(ParseRegion(&function.body, &entry));
  }
  PJRTX_RETURN_IF_ERROR(SkipOptionalLocation());
  return function;
}

}  // namespace pjrtx::mlir
