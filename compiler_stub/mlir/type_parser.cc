// Types: tensor<2x?xf32>, tensor<f32>, scalars, complex<f32>, tuple<...>,
// function types, !stablehlo.token and other dialect types (kept as text).
#include <cctype>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/parser_impl.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// More digits than this cannot be a dimension size.
constexpr size_t kMaxDimensionDigits = 15;

bool AllDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// Builtin scalar type spellings: i32, si8, ui4, f32, bf16, tf32, f8E4M3FN,
// index, none.
bool IsScalarTypeName(std::string_view name) {
  if (name == "index" || name == "none" || name == "bf16" || name == "tf32") {
    return true;
  }
  if (name.size() >= 2 && name[0] == 'i') return AllDigits(name.substr(1));
  if (name.size() >= 3 &&
      (name.substr(0, 2) == "si" || name.substr(0, 2) == "ui")) {
    return AllDigits(name.substr(2));
  }
  // f16, f32, f64, f80, f128 and the small floats f8E5M2, f4E2M1FN, ...
  if (name.size() >= 2 && name[0] == 'f' &&
      std::isdigit(static_cast<unsigned char>(name[1]))) {
    for (char c : name) {
      if (!std::isalnum(static_cast<unsigned char>(c))) return false;
    }
    return true;
  }
  return false;
}

bool IsTypeKeyword(std::string_view name) {
  return name == "tensor" || name == "tuple" || name == "complex" ||
         name == "vector" || name == "memref" || IsScalarTypeName(name);
}

}  // namespace

bool Parser::AtTypeStart() const {
  return Is(TokenKind::kBangId) || Is(TokenKind::kLParen) ||
         (Is(TokenKind::kBareId) && IsTypeKeyword(token_.text));
}

absl::StatusOr<Type> Parser::ParseType() {
  Nesting nesting(*this);
  PJRTX_RETURN_IF_ERROR(nesting.status());
  const size_t begin = Mark();
  const Location location = token_.location;
  PJRTX_ASSIGN_OR_RETURN(Type type, ParseTypeImpl());
  type.text = std::string(TextFrom(begin));
  type.location = location;
  return type;
}

absl::StatusOr<std::vector<Type>> Parser::ParseTypeList() {
  std::vector<Type> types;
  do {
    PJRTX_ASSIGN_OR_RETURN(Type type, ParseType());
    types.push_back(std::move(type));
  } while (ConsumeIf(TokenKind::kComma));
  return types;
}

absl::StatusOr<std::vector<Type>> Parser::ParseFunctionResultTypes() {
  if (!ConsumeIf(TokenKind::kLParen)) {
    PJRTX_ASSIGN_OR_RETURN(Type type, ParseType());
    return std::vector<Type>{std::move(type)};
  }
  std::vector<Type> types;
  if (!ConsumeIf(TokenKind::kRParen)) {
    PJRTX_ASSIGN_OR_RETURN(types, ParseTypeList());
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  return types;
}

absl::StatusOr<Type> Parser::ParseTypeImpl() {
  Type type;
  if (Is(TokenKind::kLParen)) {
    PJRTX_RETURN_IF_ERROR(ParseFunctionType(&type));
    return type;
  }
  if (Is(TokenKind::kBangId)) {
    PJRTX_RETURN_IF_ERROR(ParseDialectType(&type));
    return type;
  }
  if (!Is(TokenKind::kBareId)) return Error("a type");
  const std::string_view word = token_.text;
  if (word == "tensor") {
    PJRTX_RETURN_IF_ERROR(ParseTensorType(&type));
    return type;
  }
  if (word == "tuple") {
    Advance();
    type.kind = Type::Kind::kTuple;
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLess));
    if (!ConsumeIf(TokenKind::kGreater)) {
      PJRTX_ASSIGN_OR_RETURN(type.elements, ParseTypeList());
      PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kGreater));
    }
    return type;
  }
  if (word == "complex") {
    Advance();
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLess));
    const Token element_token = token_;
    PJRTX_ASSIGN_OR_RETURN(Type element, ParseType());
    if (element.kind != Type::Kind::kScalar) {
      return ErrorAt(element_token.location,
                     absl::StrCat("found ", DescribeToken(element_token),
                                  ", expected a float or integer type"));
    }
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kGreater));
    type.kind = Type::Kind::kScalar;
    type.element = absl::StrCat("complex<", element.element, ">");
    return type;
  }
  if (word == "vector" || word == "memref") {
    Advance();
    if (!Is(TokenKind::kLess)) return Error("'<'");
    PJRTX_RETURN_IF_ERROR(CaptureAngleBody().status());
    type.kind = Type::Kind::kOther;
    return type;
  }
  if (IsScalarTypeName(word)) {
    type.kind = Type::Kind::kScalar;
    type.element = std::string(word);
    Advance();
    return type;
  }
  return Error("a type");
}

absl::Status Parser::ParseTensorType(Type* type) {
  Advance();  // tensor
  if (!Is(TokenKind::kLess)) return Error("'<'");
  type->kind = Type::Kind::kTensor;
  // The shape is not made of tokens (2x3xf32 would lex as 2 and x3xf32), so
  // it is read character by character up to the element type.
  const std::string_view text = source();
  size_t position = token_.end();
  bool unranked = false;
  while (true) {
    position = lexer_.SkipTrivia(position);
    if (position >= text.size()) break;
    const char c = text[position];
    if (c == '?' || c == '*') {
      if (c == '*') {
        unranked = true;
      } else {
        type->dims.push_back(-1);
      }
      ++position;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      const size_t begin = position;
      while (position < text.size() &&
             std::isdigit(static_cast<unsigned char>(text[position]))) {
        ++position;
      }
      if (position - begin > kMaxDimensionDigits) {
        Rewind(begin);
        return Error("a dimension size below 10^15");
      }
      type->dims.push_back(
          std::stoll(std::string(text.substr(begin, position - begin))));
    } else {
      break;
    }
    if (position >= text.size() || text[position] != 'x') {
      Rewind(position);
      return Error("'x' after a dimension");
    }
    ++position;
  }
  Rewind(position);
  const Token element_token = token_;
  PJRTX_ASSIGN_OR_RETURN(Type element, ParseType());
  if (element.kind == Type::Kind::kScalar) {
    type->element = element.element;
  } else if (element.kind == Type::Kind::kOther) {
    // Quantized and other dialect element types keep their spelling.
    type->element = element.text;
  } else {
    return ErrorAt(element_token.location,
                   absl::StrCat("found ", DescribeToken(element_token),
                                ", expected an element type"));
  }
  if (ConsumeIf(TokenKind::kComma)) {
    const size_t begin = Mark();
    PJRTX_RETURN_IF_ERROR(ParseAttribute().status());
    type->encoding = std::string(TextFrom(begin));
  }
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kGreater));
  if (unranked) {
    // Not representable as a shape; kept as text for messages.
    type->kind = Type::Kind::kOther;
    type->dims.clear();
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseFunctionType(Type* type) {
  type->kind = Type::Kind::kFunction;
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLParen));
  if (!ConsumeIf(TokenKind::kRParen)) {
    PJRTX_ASSIGN_OR_RETURN(type->elements, ParseTypeList());
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRParen));
  }
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kArrow));
  PJRTX_ASSIGN_OR_RETURN(type->results, ParseFunctionResultTypes());
  return absl::OkStatus();
}

absl::Status Parser::ParseDialectType(Type* type) {
  const std::string name(token_.text);
  Advance();
  if (name == "!stablehlo.token") {
    type->kind = Type::Kind::kToken;
    return absl::OkStatus();
  }
  // An alias defined by `!name = type` earlier in the file.
  auto alias = type_aliases_.find(name);
  if (alias != type_aliases_.end()) {
    *type = alias->second;
    return absl::OkStatus();
  }
  type->kind = Type::Kind::kOther;
  if (Is(TokenKind::kLess) && token_.offset == previous_end_) {
    PJRTX_RETURN_IF_ERROR(CaptureAngleBody().status());
  } else if (name.find('.') == std::string::npos) {
    return ErrorAt(LocationAt(previous_end_ - name.size()),
                   absl::StrCat("found undefined type alias '", name,
                                "', expected a type"));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::mlir
