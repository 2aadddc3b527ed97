// Builtin attributes (numbers, strings, symbols, arrays, dictionaries,
// array<...>, dense<...>, types) and dialect attributes #dialect<...>,
// #dialect.mnemonic<...>.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "compiler_stub/mlir/parser_impl.h"
#include "compiler_stub/mlir/stablehlo_attribute_syntax.h"
#include "compiler_stub/mlir/stablehlo_struct_defaults.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// Attribute::text keeps at most this much source; a multi-megabyte dense
// literal needs no second copy for messages.
constexpr size_t kMaxAttributeText = 1024;

bool IsFloatTypeName(std::string_view name) {
  return name == "bf16" || name == "tf32" ||
         (name.size() >= 2 && name[0] == 'f' && name[1] >= '0' &&
          name[1] <= '9');
}

// Builtin attributes with a <...> body that nothing here interprets.
bool IsOpaqueBuiltinAttribute(std::string_view word) {
  return word == "dense_resource" || word == "affine_map" ||
         word == "affine_set" || word == "sparse" || word == "strided" ||
         word == "opaque" || word == "distinct";
}

// Dialects whose attribute bodies are known: `key = value` fields or one
// enum case, so that anything else is an error rather than opaque text.
bool HasKnownBodies(std::string_view dialect) {
  return dialect == "stablehlo" || dialect == "chlo";
}

// Their attributes whose bodies are free-form (bounds lists with '?').
bool HasFreeFormBody(std::string_view mnemonic) {
  return mnemonic == "bounds" || mnemonic == "type_extensions";
}

// The value of an f16 or bf16 bit pattern.
double HalfToDouble(uint16_t bits, bool is_bfloat) {
  if (is_bfloat) {
    const uint32_t widened = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &widened, sizeof(value));
    return value;
  }
  const int sign = (bits >> 15) ? -1 : 1;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 0x1f) {
    return mantissa == 0 ? sign * std::numeric_limits<double>::infinity()
                         : std::numeric_limits<double>::quiet_NaN();
  }
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

}  // namespace

absl::StatusOr<int64_t> ParseIntegerText(std::string_view text, bool negative) {
  uint64_t magnitude = 0;
  bool ok;
  if (text.size() > 2 && text[0] == '0' && text[1] == 'x') {
    ok = absl::SimpleHexAtoi(AbslView(text.substr(2)), &magnitude);
  } else {
    ok = absl::SimpleAtoi(AbslView(text), &magnitude);
  }
  // Unsigned 64-bit values keep their bit pattern; negative ones must fit.
  if (!ok || (negative && magnitude > (uint64_t{1} << 63))) {
    return absl::OutOfRangeError("integer out of range");
  }
  return negative ? static_cast<int64_t>(0 - magnitude)
                  : static_cast<int64_t>(magnitude);
}

absl::StatusOr<Attribute> Parser::ParseAttribute() {
  Nesting nesting(*this);
  PJRTX_RETURN_IF_ERROR(nesting.status());
  const size_t begin = Mark();
  const Location location = token_.location;
  PJRTX_ASSIGN_OR_RETURN(Attribute attribute, ParseAttributeImpl());
  const std::string_view text = TextFrom(begin);
  attribute.text =
      text.size() <= kMaxAttributeText
          ? std::string(text)
          : absl::StrCat(AbslView(text.substr(0, kMaxAttributeText)), "...");
  attribute.location = location;
  return attribute;
}

absl::StatusOr<Attribute> Parser::ParseAttributeImpl() {
  Attribute attribute;
  switch (token_.kind) {
    case TokenKind::kMinus:
      Advance();
      PJRTX_RETURN_IF_ERROR(ParseNumberAttribute(true, &attribute));
      return attribute;
    case TokenKind::kInteger:
    case TokenKind::kFloat:
      PJRTX_RETURN_IF_ERROR(ParseNumberAttribute(false, &attribute));
      return attribute;
    case TokenKind::kString: {
      attribute.kind = Attribute::Kind::kString;
      PJRTX_ASSIGN_OR_RETURN(attribute.string_value, ParseStringLiteral());
      return attribute;
    }
    case TokenKind::kAtId: {
      attribute.kind = Attribute::Kind::kSymbolRef;
      PJRTX_ASSIGN_OR_RETURN(attribute.string_value, ParseSymbolName());
      return attribute;
    }
    case TokenKind::kLSquare:
      attribute.kind = Attribute::Kind::kArray;
      Advance();
      if (!ConsumeIf(TokenKind::kRSquare)) {
        do {
          PJRTX_ASSIGN_OR_RETURN(Attribute element, ParseAttribute());
          attribute.elements.push_back(std::move(element));
        } while (ConsumeIf(TokenKind::kComma));
        PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRSquare));
      }
      return attribute;
    case TokenKind::kLBrace:
      attribute.kind = Attribute::Kind::kDictionary;
      PJRTX_RETURN_IF_ERROR(ParseAttributeDictionary(&attribute.entries));
      return attribute;
    case TokenKind::kHashId:
      PJRTX_RETURN_IF_ERROR(ParseDialectAttribute(&attribute));
      return attribute;
    case TokenKind::kBangId:
    case TokenKind::kLParen: {
      attribute.kind = Attribute::Kind::kType;
      PJRTX_ASSIGN_OR_RETURN(attribute.type, ParseType());
      return attribute;
    }
    default:
      break;
  }
  if (!Is(TokenKind::kBareId)) return Error("an attribute");
  const std::string_view word = token_.text;
  if (word == "true" || word == "false") {
    attribute.kind = Attribute::Kind::kBool;
    attribute.bool_value = word == "true";
    Advance();
    return attribute;
  }
  if (word == "unit") {
    Advance();
    return attribute;
  }
  if (word == "nan" || word == "inf") {
    PJRTX_RETURN_IF_ERROR(ParseNumberAttribute(false, &attribute));
    return attribute;
  }
  if (word == "dense") {
    Advance();
    attribute.kind = Attribute::Kind::kDenseElements;
    PJRTX_RETURN_IF_ERROR(ParseDenseLiteral(&attribute.dense));
    PJRTX_RETURN_IF_ERROR(ParseOptionalTypeSuffix(&attribute));
    return attribute;
  }
  if (word == "array") {
    PJRTX_RETURN_IF_ERROR(ParseDenseArray(&attribute));
    return attribute;
  }
  if (IsOpaqueBuiltinAttribute(word)) {
    attribute.kind = Attribute::Kind::kDialect;
    attribute.dialect = "builtin";
    attribute.mnemonic = std::string(word);
    Advance();
    // distinct[0]<...> carries an id before its body.
    if (ConsumeIf(TokenKind::kLSquare)) {
      PJRTX_RETURN_IF_ERROR(ParseSignedInteger().status());
      PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kRSquare));
    }
    if (!Is(TokenKind::kLess)) return Error("'<'");
    PJRTX_ASSIGN_OR_RETURN(std::string_view body, CaptureAngleBody());
    attribute.body = std::string(body);
    PJRTX_RETURN_IF_ERROR(ParseOptionalTypeSuffix(&attribute));
    return attribute;
  }
  if (AtTypeStart()) {
    attribute.kind = Attribute::Kind::kType;
    PJRTX_ASSIGN_OR_RETURN(attribute.type, ParseType());
    return attribute;
  }
  return Error("an attribute");
}

absl::Status Parser::ParseNumberAttribute(bool negative, Attribute* attribute) {
  const Token number = token_;
  const bool is_word = number.kind == TokenKind::kBareId &&
                       (number.text == "nan" || number.text == "inf");
  if (number.kind != TokenKind::kInteger && number.kind != TokenKind::kFloat &&
      !is_word) {
    return Error("a number");
  }
  Advance();
  PJRTX_RETURN_IF_ERROR(ParseOptionalTypeSuffix(attribute));
  const bool float_type = attribute->type.kind == Type::Kind::kScalar &&
                          IsFloatTypeName(attribute->type.element);
  const std::string text =
      absl::StrCat(negative ? "-" : "", AbslView(number.text));
  if (number.kind == TokenKind::kInteger && !float_type) {
    attribute->kind = Attribute::Kind::kInteger;
    absl::StatusOr<int64_t> value = ParseIntegerText(number.text, negative);
    if (!value.ok()) {
      return ErrorAt(number.location,
                     absl::StrCat("found '", text,
                                  "', expected an integer of at most 64 bits"));
    }
    attribute->integer = *value;
    if (attribute->type.kind == Type::Kind::kOther &&
        attribute->type.text.empty()) {
      attribute->type = MakeScalarType("i64");
    }
    return absl::OkStatus();
  }
  attribute->kind = Attribute::Kind::kFloat;
  if (attribute->type.kind == Type::Kind::kOther &&
      attribute->type.text.empty()) {
    attribute->type = MakeScalarType("f64");
  }
  if (number.kind == TokenKind::kInteger && number.text.size() > 2 &&
      number.text[1] == 'x') {
    // A hexadecimal float literal spells the bits of the value.
    absl::StatusOr<int64_t> bits = ParseIntegerText(number.text, false);
    const std::string& element = attribute->type.element;
    if (!bits.ok() || negative ||
        (element != "f64" && element != "f32" && element != "f16" &&
         element != "bf16")) {
      return ErrorAt(number.location,
                     absl::StrCat("found '", text,
                                  "', expected the bits of an f16, bf16, f32 "
                                  "or f64 value"));
    }
    const uint64_t pattern = static_cast<uint64_t>(*bits);
    if (element == "f64") {
      std::memcpy(&attribute->float_value, &pattern, sizeof(double));
    } else if (element == "f32") {
      const uint32_t narrow = static_cast<uint32_t>(pattern);
      float value;
      std::memcpy(&value, &narrow, sizeof(value));
      attribute->float_value = value;
    } else {
      attribute->float_value =
          HalfToDouble(static_cast<uint16_t>(pattern), element == "bf16");
    }
    return absl::OkStatus();
  }
  if (!absl::SimpleAtod(text, &attribute->float_value)) {
    return ErrorAt(number.location,
                   absl::StrCat("found '", text, "', expected a number"));
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseOptionalTypeSuffix(Attribute* attribute) {
  if (!ConsumeIf(TokenKind::kColon)) return absl::OkStatus();
  PJRTX_ASSIGN_OR_RETURN(attribute->type, ParseType());
  return absl::OkStatus();
}

absl::Status Parser::ParseDenseArray(Attribute* attribute) {
  Advance();  // array
  attribute->kind = Attribute::Kind::kDenseArray;
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLess));
  const Token type_token = token_;
  PJRTX_ASSIGN_OR_RETURN(attribute->type, ParseType());
  if (attribute->type.kind != Type::Kind::kScalar) {
    return ErrorAt(type_token.location,
                   absl::StrCat("found ", DescribeToken(type_token),
                                ", expected an integer or float type"));
  }
  const bool is_float = IsFloatTypeName(attribute->type.element);
  if (ConsumeIf(TokenKind::kColon)) {
    do {
      if (!is_float && (IsKeyword("true") || IsKeyword("false"))) {
        attribute->integers.push_back(IsKeyword("true") ? 1 : 0);
        Advance();
        continue;
      }
      // Typed as the array's elements, so that 0x7FC00000 spells f32 bits.
      Attribute element;
      element.type = attribute->type;
      const Location at = token_.location;
      const bool negative = ConsumeIf(TokenKind::kMinus);
      PJRTX_RETURN_IF_ERROR(ParseNumberAttribute(negative, &element));
      if (is_float) {
        attribute->floats.push_back(element.float_value);
      } else if (element.kind == Attribute::Kind::kInteger) {
        attribute->integers.push_back(element.integer);
      } else {
        return ErrorAt(at,
                       "found a float in an integer array, expected an "
                       "integer");
      }
    } while (ConsumeIf(TokenKind::kComma));
  }
  return Expect(TokenKind::kGreater);
}

absl::Status Parser::ParseDialectAttribute(Attribute* attribute) {
  const Token name_token = token_;
  const std::string name(token_.text.substr(1));
  Advance();
  const bool has_body =
      Is(TokenKind::kLess) && token_.offset == name_token.end();
  const size_t dot = name.find('.');
  if (!has_body) {
    auto alias = attribute_aliases_.find(name);
    if (alias != attribute_aliases_.end()) {
      *attribute = alias->second;
      return absl::OkStatus();
    }
    if (dot == std::string::npos) {
      return ErrorAt(
          name_token.location,
          absl::StrCat("found undefined attribute alias ",
                       DescribeToken(name_token), ", expected an attribute"));
    }
  }
  attribute->kind = Attribute::Kind::kDialect;
  attribute->dialect = name.substr(0, dot);
  if (dot != std::string::npos) attribute->mnemonic = name.substr(dot + 1);
  if (!has_body) return absl::OkStatus();

  const size_t open = Mark();
  Advance();  // <
  if (dot == std::string::npos) {
    // #dialect<mnemonic body>: the first word names the attribute.
    if (!Is(TokenKind::kBareId)) return Error("the attribute's mnemonic");
    attribute->mnemonic = std::string(token_.text);
    Advance();
  }
  const size_t body_begin = Mark();
  if (attribute->mnemonic == "conv" && Is(TokenKind::kLSquare)) {
    PJRTX_RETURN_IF_ERROR(
        ParseConvDimensionNumbers(*this, &attribute->entries));
    return Expect(TokenKind::kGreater);
  }
  absl::Status entries =
      ParseKeyValueEntries(TokenKind::kGreater, &attribute->entries);
  if (entries.ok() && Is(TokenKind::kGreater)) {
    Advance();
    AddOmittedStructFields(*attribute, name_token.location);
    return absl::OkStatus();
  }
  if (entries.ok()) entries = Error("',' or '>'");
  attribute->entries.clear();
  Rewind(body_begin);
  if (HasKnownBodies(attribute->dialect) &&
      !HasFreeFormBody(attribute->mnemonic)) {
    // Besides `key = value` fields, the only body these dialects write is
    // one enum case: #stablehlo<precision DEFAULT>.
    if (Is(TokenKind::kBareId)) {
      const std::string_view word = token_.text;
      Advance();
      if (Is(TokenKind::kGreater)) {
        attribute->body = std::string(word);
        Advance();
        return absl::OkStatus();
      }
    }
    return entries;
  }
  Rewind(open);
  PJRTX_RETURN_IF_ERROR(CaptureAngleBody().status());
  // previous_end_ is just past the closing '>'.
  const size_t close = previous_end_ - 1;
  if (body_begin < close) {
    std::string_view body = source().substr(body_begin, close - body_begin);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\n' ||
                             body.back() == '\t' || body.back() == '\r')) {
      body.remove_suffix(1);
    }
    attribute->body = std::string(body);
  }
  return absl::OkStatus();
}

absl::Status Parser::ParseAttributeDictionary(NamedAttributes* out) {
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLBrace));
  if (ConsumeIf(TokenKind::kRBrace)) return absl::OkStatus();
  do {
    std::string name;
    const Token name_token = token_;
    if (Is(TokenKind::kString)) {
      PJRTX_ASSIGN_OR_RETURN(name, ParseStringLiteral());
    } else if (Is(TokenKind::kBareId)) {
      name = std::string(token_.text);
      Advance();
    } else {
      return Error("an attribute name");
    }
    Attribute value;
    if (ConsumeIf(TokenKind::kEqual)) {
      PJRTX_ASSIGN_OR_RETURN(value, ParseAttribute());
    } else {
      value.kind = Attribute::Kind::kUnit;
      value.text = std::string(name_token.text);
      value.location = name_token.location;
    }
    out->emplace_back(std::move(name), std::move(value));
  } while (ConsumeIf(TokenKind::kComma));
  return Expect(TokenKind::kRBrace);
}

absl::Status Parser::ParseOptionalAttributeDictionary(NamedAttributes* out) {
  if (!Is(TokenKind::kLBrace)) return absl::OkStatus();
  return ParseAttributeDictionary(out);
}

absl::Status Parser::ParseOptionalAttributesKeyword(NamedAttributes* out) {
  if (!ConsumeIfKeyword("attributes")) return absl::OkStatus();
  return ParseAttributeDictionary(out);
}

absl::Status Parser::ParseKeyValueEntries(TokenKind end, NamedAttributes* out) {
  if (Is(end)) return absl::OkStatus();
  do {
    if (!Is(TokenKind::kBareId)) return Error("a field name");
    std::string key(token_.text);
    Advance();
    PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kEqual));
    PJRTX_ASSIGN_OR_RETURN(Attribute value, ParseAttribute());
    out->emplace_back(std::move(key), std::move(value));
  } while (ConsumeIf(TokenKind::kComma));
  return absl::OkStatus();
}

absl::StatusOr<std::string_view> Parser::CaptureAngleBody() {
  if (!Is(TokenKind::kLess)) return Error("'<'");
  const std::string_view text = source();
  const size_t begin = token_.end();
  // The closing brackets still expected, innermost last.
  std::string closers = ">";
  size_t position = begin;
  while (position < text.size()) {
    const char c = text[position];
    if (c == '"') {
      const Token string = lexer_.LexAt(position);
      if (string.kind != TokenKind::kString) {
        Rewind(position);
        return Error("a closing '\"'");
      }
      position = string.end();
      continue;
    }
    if (c == '-' && position + 1 < text.size() && text[position + 1] == '>') {
      position += 2;  // An arrow, as in #stablehlo.conv<[b, f]x[o, i]->[b, f]>.
      continue;
    }
    if (c == '<' || c == '(' || c == '[' || c == '{') {
      if (closers.size() > static_cast<size_t>(kMaxNesting)) {
        Rewind(position);
        return Error(
            absl::StrCat("at most ", kMaxNesting, " levels of nesting"));
      }
      closers += c == '<' ? '>' : c == '(' ? ')' : c == '[' ? ']' : '}';
    } else if (c == '>' || c == ')' || c == ']' || c == '}') {
      if (c != closers.back()) {
        Rewind(position);
        return Error(
            absl::StrCat("'", closers.substr(closers.size() - 1), "'"));
      }
      closers.pop_back();
      if (closers.empty()) {
        Rewind(position + 1);
        return text.substr(begin, position - begin);
      }
    }
    ++position;
  }
  Rewind(text.size());
  return Error("'>'");
}

absl::StatusOr<int64_t> Parser::ParseSignedInteger() {
  const bool negative = ConsumeIf(TokenKind::kMinus);
  if (!Is(TokenKind::kInteger)) return Error("an integer");
  absl::StatusOr<int64_t> value = ParseIntegerText(token_.text, negative);
  if (!value.ok()) return Error("an integer of at most 64 bits");
  Advance();
  return *value;
}

absl::StatusOr<std::string> Parser::ParseStringLiteral() {
  if (!Is(TokenKind::kString)) return Error("a string");
  const std::string_view quoted = token_.text;
  std::string value;
  for (size_t i = 1; i + 1 < quoted.size(); ++i) {
    const char c = quoted[i];
    if (c != '\\') {
      value += c;
      continue;
    }
    const char e = quoted[++i];
    auto hex = [](char h) -> int {
      if (h >= '0' && h <= '9') return h - '0';
      if (h >= 'a' && h <= 'f') return h - 'a' + 10;
      if (h >= 'A' && h <= 'F') return h - 'A' + 10;
      return -1;
    };
    if (e == '"' || e == '\\') {
      value += e;
    } else if (e == 'n') {
      value += '\n';
    } else if (e == 't') {
      value += '\t';
    } else if (i + 2 < quoted.size() && hex(e) >= 0 &&
               hex(quoted[i + 1]) >= 0) {
      value += static_cast<char>(hex(e) * 16 + hex(quoted[i + 1]));
      ++i;
    } else {
      return ErrorAt(LocationAt(token_.offset + i - 1),
                     absl::StrCat("found escape '\\", std::string(1, e),
                                  "', expected \\\\, \\\", \\n, \\t or two "
                                  "hex digits"));
    }
  }
  Advance();
  return value;
}

absl::StatusOr<std::string> Parser::ParseSymbolName() {
  if (!Is(TokenKind::kAtId)) return Error("a symbol such as @main");
  if (token_.text.size() > 1 && token_.text[1] == '"') {
    // Decode @"name" as the string it quotes.
    Token quoted = token_;
    quoted.kind = TokenKind::kString;
    quoted.text = quoted.text.substr(1);
    quoted.offset += 1;
    const Token saved = token_;
    token_ = quoted;
    absl::StatusOr<std::string> name = ParseStringLiteral();
    if (!name.ok()) token_ = saved;
    return name;
  }
  std::string name(token_.text.substr(1));
  Advance();
  return name;
}

}  // namespace pjrtx::mlir
