// Splits MLIR text into tokens, one at a time and from any offset, so that
// the parser can re-read a stretch character by character where MLIR's own
// grammar is not token based (tensor shapes such as 2x3xf32, dialect bodies
// such as !quant.uniform<i8:f32, 0.1:-30>).
#ifndef PJRTX_COMPILER_STUB_MLIR_LEXER_H_
#define PJRTX_COMPILER_STUB_MLIR_LEXER_H_

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::mlir {

enum class TokenKind {
  kEndOfInput,
  kError,      // A character or literal that cannot start any token.
  kBareId,     // stablehlo.add, tensor, dense, x, DEFAULT, f32
  kPercentId,  // %0, %arg0, %cst_1, %0#1 (the #1 is part of the token)
  kAtId,       // @main, @"quoted name"
  kCaretId,    // ^bb0
  kHashId,     // #stablehlo, #loc3, #stablehlo.gather
  kBangId,     // !stablehlo.token, !quant.uniform
  kInteger,    // 42, 0x7FC00000 (a leading '-' is a separate token)
  kFloat,      // 1.5, 2.0e-3
  kString,     // "text" (the token text keeps the quotes and escapes)
  kLParen,
  kRParen,
  kLSquare,
  kRSquare,
  kLBrace,
  kRBrace,
  kLess,
  kGreater,
  kComma,
  kColon,
  kEqual,
  kArrow,              // ->
  kMinus,              // -
  kPlus,               // +
  kQuestion,           // ?
  kStar,               // *
  kFileMetadataBegin,  // {-#
  kFileMetadataEnd,    // #-}
};

struct Token {
  TokenKind kind = TokenKind::kEndOfInput;
  std::string_view text;  // Points into the source.
  size_t offset = 0;      // Of the first character.
  Location location;
  // kError: what is wrong, e.g. "an unterminated string".
  std::string_view error;

  size_t end() const { return offset + text.size(); }
};

class Lexer {
 public:
  explicit Lexer(std::string_view source);

  // The token starting at or after `offset` (whitespace and // comments
  // skipped). Never reads past the end of the source.
  Token LexAt(size_t offset) const;

  // Offset of the first character at or after `offset` that is neither
  // whitespace nor inside a comment.
  size_t SkipTrivia(size_t offset) const;

  Location LocationAt(size_t offset) const;
  std::string_view source() const { return source_; }

 private:
  Token Make(TokenKind kind, size_t begin, size_t end) const;
  Token MakeError(size_t begin, size_t end, std::string_view error) const;
  Token LexNumber(size_t begin) const;
  Token LexString(size_t begin) const;
  Token LexPrefixedId(TokenKind kind, size_t begin) const;

  std::string_view source_;
  // Offsets at which each line starts, for LocationAt.
  std::vector<size_t> line_starts_;
};

// Whether `c` may continue a bare identifier ([a-zA-Z0-9_$.]).
bool IsBareIdChar(char c);

// A short description of `token` for messages: "'}'", "end of input",
// "integer 42", "an unterminated string".
std::string DescribeToken(const Token& token);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_LEXER_H_
