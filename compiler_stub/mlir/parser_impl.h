// The recursive-descent parser behind ParseModule. Internal to the parser's
// files: each part of the grammar lives in its own file (types, attributes,
// dense literals, operations, the module) and the custom op syntaxes use the
// same class through custom_op_helpers.h.
#ifndef PJRTX_COMPILER_STUB_MLIR_PARSER_IMPL_H_
#define PJRTX_COMPILER_STUB_MLIR_PARSER_IMPL_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/mlir/ast.h"
#include "compiler_stub/mlir/lexer.h"

namespace pjrtx::mlir {

// Abseil 20220623's string functions (StrCat, SimpleAtoi, ...) take its own
// absl::string_view, which std::string_view does not convert to.
inline absl::string_view AbslView(std::string_view text) {
  return absl::string_view(text.data(), text.size());
}

using NamedAttributes = std::vector<std::pair<std::string, Attribute>>;

// The value of a decimal or 0x-prefixed hexadecimal integer literal. Values
// up to 2^64 - 1 keep their bit pattern (unsigned 64-bit attributes).
absl::StatusOr<int64_t> ParseIntegerText(std::string_view text, bool negative);

class Parser {
 public:
  // Types, attributes and regions may nest at most this deep, so that no
  // input can exhaust the stack.
  static constexpr int kMaxNesting = 256;

  explicit Parser(std::string_view text);
  Parser(const Parser&) = delete;
  Parser& operator=(const Parser&) = delete;

  // module_parser.cc
  absl::StatusOr<Module> ParseModule();

  // ---- The token stream (parser.cc). ----
  const Token& token() const { return token_; }
  bool Is(TokenKind kind) const { return token_.kind == kind; }
  // Whether the current token is the bare identifier `word`.
  bool IsKeyword(std::string_view word) const;
  void Advance();
  bool ConsumeIf(TokenKind kind);
  bool ConsumeIfKeyword(std::string_view word);
  absl::Status Expect(TokenKind kind);
  absl::Status ExpectKeyword(std::string_view word);
  // "L:C: found <current token>, expected <expected>".
  absl::Status Error(std::string_view expected) const;
  // "L:C: <message>".
  absl::Status ErrorAt(const Location& location,
                       std::string_view message) const;
  // The source from `begin` to the end of the last consumed token.
  std::string_view TextFrom(size_t begin) const;
  // A position to come back to with Rewind, for speculative parsing.
  size_t Mark() const { return token_.offset; }
  void Rewind(size_t mark);
  std::string_view source() const { return lexer_.source(); }
  Location LocationAt(size_t offset) const { return lexer_.LocationAt(offset); }

  // Counts one level of nesting for as long as it lives.
  class Nesting {
   public:
    explicit Nesting(Parser& parser);
    ~Nesting();
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;
    // Not OK when the nesting limit is exceeded.
    const absl::Status& status() const { return status_; }

   private:
    Parser& parser_;
    absl::Status status_;
  };

  // ---- Types (type_parser.cc). ----
  absl::StatusOr<Type> ParseType();
  // T (, T)* with at least one type.
  absl::StatusOr<std::vector<Type>> ParseTypeList();
  // What follows '->': a parenthesized, possibly empty, list or one type.
  absl::StatusOr<std::vector<Type>> ParseFunctionResultTypes();
  bool AtTypeStart() const;

  // ---- Attributes (attribute_parser.cc, dense_parser.cc). ----
  absl::StatusOr<Attribute> ParseAttribute();
  // `{` (name (= attribute)?) (, ...)* `}`.
  absl::Status ParseAttributeDictionary(NamedAttributes* out);
  absl::Status ParseOptionalAttributeDictionary(NamedAttributes* out);
  // `attributes {...}` if present.
  absl::Status ParseOptionalAttributesKeyword(NamedAttributes* out);
  // An optionally negative integer literal.
  absl::StatusOr<int64_t> ParseSignedInteger();
  // The decoded value of the current string token.
  absl::StatusOr<std::string> ParseStringLiteral();
  // @name or @"name", without the '@'.
  absl::StatusOr<std::string> ParseSymbolName();
  // `key = attribute (, key = attribute)*`, up to but not including `end`.
  absl::Status ParseKeyValueEntries(TokenKind end, NamedAttributes* out);
  // The current token is '<': returns the text up to the matching '>' and
  // moves past it.
  absl::StatusOr<std::string_view> CaptureAngleBody();
  // dense_parser.cc: what follows the keyword `dense`, i.e. `<...>`.
  absl::Status ParseDenseLiteral(DenseElements* out);

  // ---- Operations and regions (op_parser.cc). ----
  absl::StatusOr<Operation> ParseOperation();
  // Everything after the name in the generic form: (operands)
  // <{properties}> (regions) {attributes} : function-type.
  absl::Status ParseGenericBody(Operation* op);
  // `{` blocks `}`. With `entry_arguments`, the entry block takes them and
  // has no label (as the custom forms of while and func.func write it).
  absl::Status ParseRegion(Region* region,
                           const std::vector<BlockArgument>* entry_arguments);
  absl::StatusOr<ValueRef> ParseValueUse();
  // Zero or more value uses separated by commas.
  absl::Status ParseValueUseList(std::vector<ValueRef>* out);
  // %name : type [loc(...)], as in block and function arguments.
  absl::StatusOr<BlockArgument> ParseArgumentDeclaration();
  // Skips `loc(...)` if present.
  absl::Status SkipOptionalLocation();

 private:
  // A name visible in the current region: the result group it belongs to,
  // written as the canonical %name#index of the generic form.
  struct ValueBinding {
    std::string canonical;
    int first_index = 0;
    int count = 1;
  };

  // module_parser.cc
  absl::Status ParseTopLevelItem(Module* module, bool* saw_module,
                                 bool* saw_other);
  absl::Status ParseModuleOp(Module* module);
  absl::Status ParseAliasDefinition();
  absl::Status SkipFileMetadata();
  absl::StatusOr<Function> ParseFunction();

  // op_parser.cc
  absl::Status ParseGenericOperation(Operation* op);
  absl::Status ParseCustomOperation(std::string_view written_name,
                                    Operation* op);
  absl::Status ParseBlock(Block* block, bool is_entry,
                          const std::vector<BlockArgument>* entry_arguments);
  void PushScope();
  void PopScope();
  void Bind(const std::string& name, const ValueBinding& binding);

  // type_parser.cc
  absl::StatusOr<Type> ParseTypeImpl();
  absl::Status ParseTensorType(Type* type);
  absl::Status ParseFunctionType(Type* type);
  absl::Status ParseDialectType(Type* type);

  // attribute_parser.cc
  absl::StatusOr<Attribute> ParseAttributeImpl();
  absl::Status ParseNumberAttribute(bool negative, Attribute* attribute);
  absl::Status ParseOptionalTypeSuffix(Attribute* attribute);
  absl::Status ParseDenseArray(Attribute* attribute);
  absl::Status ParseDialectAttribute(Attribute* attribute);

  Lexer lexer_;
  Token token_;
  size_t previous_end_ = 0;
  int nesting_ = 0;
  std::vector<std::map<std::string, ValueBinding>> scopes_;
  std::map<std::string, Attribute> attribute_aliases_;
  std::map<std::string, Type> type_aliases_;
};

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_PARSER_IMPL_H_
