#include "compiler_stub/mlir/parser.h"

#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/parser_impl.h"

namespace pjrtx::mlir {
namespace {

std::string DescribeKind(TokenKind kind) {
  switch (kind) {
    case TokenKind::kEndOfInput:
      return "end of input";
    case TokenKind::kBareId:
      return "an identifier";
    case TokenKind::kPercentId:
      return "a value such as %0";
    case TokenKind::kAtId:
      return "a symbol such as @main";
    case TokenKind::kCaretId:
      return "a block label such as ^bb0";
    case TokenKind::kHashId:
      return "an attribute such as #stablehlo<...>";
    case TokenKind::kBangId:
      return "a dialect type such as !stablehlo.token";
    case TokenKind::kInteger:
      return "an integer";
    case TokenKind::kFloat:
      return "a floating-point number";
    case TokenKind::kString:
      return "a string";
    case TokenKind::kLParen:
      return "'('";
    case TokenKind::kRParen:
      return "')'";
    case TokenKind::kLSquare:
      return "'['";
    case TokenKind::kRSquare:
      return "']'";
    case TokenKind::kLBrace:
      return "'{'";
    case TokenKind::kRBrace:
      return "'}'";
    case TokenKind::kLess:
      return "'<'";
    case TokenKind::kGreater:
      return "'>'";
    case TokenKind::kComma:
      return "','";
    case TokenKind::kColon:
      return "':'";
    case TokenKind::kEqual:
      return "'='";
    case TokenKind::kArrow:
      return "'->'";
    case TokenKind::kMinus:
      return "'-'";
    case TokenKind::kPlus:
      return "'+'";
    case TokenKind::kQuestion:
      return "'?'";
    case TokenKind::kStar:
      return "'*'";
    case TokenKind::kFileMetadataBegin:
      return "'{-#'";
    case TokenKind::kFileMetadataEnd:
      return "'#-}'";
    case TokenKind::kError:
      break;
  }
  return "a token";
}

// MLIR bytecode starts with these bytes.
constexpr std::string_view kBytecodeMagic = "ML\xefR";

}  // namespace

Parser::Parser(std::string_view text) : lexer_(text) {
  token_ = lexer_.LexAt(0);
}

bool Parser::IsKeyword(std::string_view word) const {
  return token_.kind == TokenKind::kBareId && token_.text == word;
}

void Parser::Advance() {
  if (token_.kind == TokenKind::kEndOfInput) return;
  previous_end_ = token_.end();
  token_ = lexer_.LexAt(previous_end_);
}

bool Parser::ConsumeIf(TokenKind kind) {
  if (token_.kind != kind) return false;
  Advance();
  return true;
}

bool Parser::ConsumeIfKeyword(std::string_view word) {
  if (!IsKeyword(word)) return false;
  Advance();
  return true;
}

absl::Status Parser::Expect(TokenKind kind) {
  if (ConsumeIf(kind)) return absl::OkStatus();
  return Error(DescribeKind(kind));
}

absl::Status Parser::ExpectKeyword(std::string_view word) {
  if (ConsumeIfKeyword(word)) return absl::OkStatus();
  return Error(absl::StrCat("'", AbslView(word), "'"));
}

absl::Status Parser::Error(std::string_view expected) const {
  return ErrorAt(token_.location,
                 absl::StrCat("found ", DescribeToken(token_), ", expected ",
                              AbslView(expected)));
}

absl::Status Parser::ErrorAt(const Location& location,
                             std::string_view message) const {
  return absl::InvalidArgumentError(absl::StrCat(
      location.line, ":", location.column, ": ", AbslView(message)));
}

std::string_view Parser::TextFrom(size_t begin) const {
  if (previous_end_ <= begin) return {};
  return source().substr(begin, previous_end_ - begin);
}

void Parser::Rewind(size_t mark) {
  token_ = lexer_.LexAt(mark);
  // The end of the token before `mark` is not known; `mark` stands in for
  // it, which is exact after CaptureAngleBody and otherwise only lets
  // TextFrom include trailing whitespace.
  previous_end_ = mark;
}

Parser::Nesting::Nesting(Parser& parser) : parser_(parser) {
  if (parser_.nesting_ >= kMaxNesting) {
    status_ = parser_.Error(
        absl::StrCat("at most ", kMaxNesting, " levels of nesting"));
    return;
  }
  ++parser_.nesting_;
}

Parser::Nesting::~Nesting() {
  if (status_.ok()) --parser_.nesting_;
}

absl::StatusOr<Module> ParseModule(std::string_view text) {
  if (text.substr(0, kBytecodeMagic.size()) == kBytecodeMagic) {
    return absl::UnimplementedError(
        "1:1: found MLIR bytecode, expected StableHLO text (print the module "
        "as text, e.g. with `stablehlo-translate --deserialize` or JAX's "
        "`.as_text()`)");
  }
  Parser parser(text);
  return parser.ParseModule();
}

}  // namespace pjrtx::mlir
