#include "compiler_stub/mlir/lexer.h"

#include <algorithm>
#include <cstdio>

namespace pjrtx::mlir {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
bool IsHexDigit(char c) {
  return IsDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
bool IsLetter(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}
// Characters of MLIR's suffix-id after a sigil (%name, ^bb0, #loc1).
bool IsSuffixIdChar(char c) {
  return IsLetter(c) || IsDigit(c) || c == '_' || c == '$' || c == '.' ||
         c == '-';
}

// Messages quote at most this many characters of a token.
constexpr size_t kMaxQuotedToken = 40;

}  // namespace

bool IsBareIdChar(char c) {
  return IsLetter(c) || IsDigit(c) || c == '_' || c == '$' || c == '.';
}

Lexer::Lexer(std::string_view source) : source_(source) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < source_.size(); ++i) {
    if (source_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

Location Lexer::LocationAt(size_t offset) const {
  offset = std::min(offset, source_.size());
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const size_t line = static_cast<size_t>(it - line_starts_.begin());
  Location location;
  location.line = static_cast<int>(line);
  location.column = static_cast<int>(offset - line_starts_[line - 1] + 1);
  return location;
}

size_t Lexer::SkipTrivia(size_t offset) const {
  while (offset < source_.size()) {
    const char c = source_[offset];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++offset;
    } else if (c == '/' && offset + 1 < source_.size() &&
               source_[offset + 1] == '/') {
      while (offset < source_.size() && source_[offset] != '\n') ++offset;
    } else {
      break;
    }
  }
  return offset;
}

Token Lexer::Make(TokenKind kind, size_t begin, size_t end) const {
  Token token;
  token.kind = kind;
  token.text = source_.substr(begin, end - begin);
  token.offset = begin;
  token.location = LocationAt(begin);
  return token;
}

Token Lexer::MakeError(size_t begin, size_t end, std::string_view error) const {
  Token token = Make(TokenKind::kError, begin, end);
  token.error = error;
  return token;
}

Token Lexer::LexAt(size_t offset) const {
  const size_t begin = SkipTrivia(offset);
  if (begin >= source_.size()) {
    return Make(TokenKind::kEndOfInput, source_.size(), source_.size());
  }
  const char c = source_[begin];
  auto next = [&](size_t i) {
    return begin + i < source_.size() ? source_[begin + i] : '\0';
  };
  switch (c) {
    case '(':
      return Make(TokenKind::kLParen, begin, begin + 1);
    case ')':
      return Make(TokenKind::kRParen, begin, begin + 1);
    case '[':
      return Make(TokenKind::kLSquare, begin, begin + 1);
    case ']':
      return Make(TokenKind::kRSquare, begin, begin + 1);
    case '{':
      if (next(1) == '-' && next(2) == '#') {
        return Make(TokenKind::kFileMetadataBegin, begin, begin + 3);
      }
      return Make(TokenKind::kLBrace, begin, begin + 1);
    case '}':
      return Make(TokenKind::kRBrace, begin, begin + 1);
    case '<':
      return Make(TokenKind::kLess, begin, begin + 1);
    case '>':
      return Make(TokenKind::kGreater, begin, begin + 1);
    case ',':
      return Make(TokenKind::kComma, begin, begin + 1);
    case ':':
      return Make(TokenKind::kColon, begin, begin + 1);
    case '=':
      return Make(TokenKind::kEqual, begin, begin + 1);
    case '?':
      return Make(TokenKind::kQuestion, begin, begin + 1);
    case '*':
      return Make(TokenKind::kStar, begin, begin + 1);
    case '+':
      return Make(TokenKind::kPlus, begin, begin + 1);
    case '-':
      if (next(1) == '>') return Make(TokenKind::kArrow, begin, begin + 2);
      return Make(TokenKind::kMinus, begin, begin + 1);
    case '"':
      return LexString(begin);
    case '%':
      return LexPrefixedId(TokenKind::kPercentId, begin);
    case '^':
      return LexPrefixedId(TokenKind::kCaretId, begin);
    case '#':
      if (next(1) == '-' && next(2) == '}') {
        return Make(TokenKind::kFileMetadataEnd, begin, begin + 3);
      }
      return LexPrefixedId(TokenKind::kHashId, begin);
    case '!':
      return LexPrefixedId(TokenKind::kBangId, begin);
    case '@': {
      if (next(1) == '"') {
        Token quoted = LexString(begin + 1);
        if (quoted.kind == TokenKind::kError) return quoted;
        return Make(TokenKind::kAtId, begin, quoted.end());
      }
      size_t end = begin + 1;
      while (end < source_.size() && IsBareIdChar(source_[end])) ++end;
      if (end == begin + 1) {
        return MakeError(begin, end, "'@' without a symbol name");
      }
      return Make(TokenKind::kAtId, begin, end);
    }
    default:
      break;
  }
  if (IsDigit(c)) return LexNumber(begin);
  if (IsLetter(c) || c == '_') {
    size_t end = begin + 1;
    while (end < source_.size() && IsBareIdChar(source_[end])) ++end;
    return Make(TokenKind::kBareId, begin, end);
  }
  return MakeError(begin, begin + 1, "an unexpected character");
}

Token Lexer::LexNumber(size_t begin) const {
  size_t end = begin;
  auto at = [&](size_t i) { return i < source_.size() ? source_[i] : '\0'; };
  if (at(begin) == '0' && at(begin + 1) == 'x' && IsHexDigit(at(begin + 2))) {
    end = begin + 2;
    while (IsHexDigit(at(end))) ++end;
    return Make(TokenKind::kInteger, begin, end);
  }
  while (IsDigit(at(end))) ++end;
  bool is_float = false;
  if (at(end) == '.') {
    is_float = true;
    ++end;
    while (IsDigit(at(end))) ++end;
  }
  // An exponent makes a float, also without a '.' (1e5), as long as digits
  // follow; otherwise the 'e' starts the next token.
  if (at(end) == 'e' || at(end) == 'E') {
    size_t exponent = end + 1;
    if (at(exponent) == '+' || at(exponent) == '-') ++exponent;
    if (IsDigit(at(exponent))) {
      is_float = true;
      end = exponent;
      while (IsDigit(at(end))) ++end;
    }
  }
  return Make(is_float ? TokenKind::kFloat : TokenKind::kInteger, begin, end);
}

Token Lexer::LexString(size_t begin) const {
  size_t end = begin + 1;
  while (end < source_.size()) {
    const char c = source_[end];
    if (c == '"') return Make(TokenKind::kString, begin, end + 1);
    if (c == '\n') break;
    // An escape takes the next character along, whatever it is.
    end += (c == '\\' && end + 1 < source_.size()) ? 2 : 1;
  }
  return MakeError(begin, end, "an unterminated string");
}

Token Lexer::LexPrefixedId(TokenKind kind, size_t begin) const {
  size_t end = begin + 1;
  while (end < source_.size() && IsSuffixIdChar(source_[end])) ++end;
  if (end == begin + 1) {
    return MakeError(begin, end, "a sigil without a name");
  }
  // %0#1 names result 1 of %0; the suffix belongs to the value token.
  if (kind == TokenKind::kPercentId && end + 1 < source_.size() &&
      source_[end] == '#' && IsDigit(source_[end + 1])) {
    end += 1;
    while (end < source_.size() && IsDigit(source_[end])) ++end;
  }
  return Make(kind, begin, end);
}

std::string DescribeToken(const Token& token) {
  if (token.kind == TokenKind::kEndOfInput) return "end of input";
  std::string quoted;
  for (char c : token.text.substr(0, kMaxQuotedToken)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof(buffer), "\\x%02X", u);
      quoted += buffer;
    } else {
      quoted += c;
    }
  }
  if (token.text.size() > kMaxQuotedToken) quoted += "...";
  if (token.kind == TokenKind::kError) {
    return std::string(token.error) + " '" + quoted + "'";
  }
  return "'" + quoted + "'";
}

}  // namespace pjrtx::mlir
