// dense<...> literals: dense<>, a splat dense<1.5>, nested lists
// dense<[[1, 2], [3, 4]]>, complex elements (1.0, -2.0), the special float
// spellings nan, inf and 0x7FC00000, and hex strings dense<"0x0A0B">.
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/parser_impl.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Walks the nested lists of one literal, checking that they are regular.
class DenseListParser {
 public:
  DenseListParser(Parser& parser, DenseElements* out)
      : parser_(parser), out_(out) {}

  // Parses the list starting at the current '[' (nesting depth 0).
  absl::Status Parse() {
    PJRTX_RETURN_IF_ERROR(ParseList(0));
    out_->written_shape = shape_;
    return absl::OkStatus();
  }

  // One element: a number, true/false, nan/inf or a complex (re, im).
  static absl::StatusOr<std::string> ParseElement(Parser& parser) {
    if (!parser.ConsumeIf(TokenKind::kLParen)) return ParseScalar(parser);
    PJRTX_ASSIGN_OR_RETURN(std::string real, ParseScalar(parser));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
    PJRTX_ASSIGN_OR_RETURN(std::string imaginary, ParseScalar(parser));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRParen));
    return absl::StrCat("(", real, ", ", imaginary, ")");
  }

 private:
  static absl::StatusOr<std::string> ParseScalar(Parser& parser) {
    const bool negative = parser.ConsumeIf(TokenKind::kMinus);
    const Token& token = parser.token();
    const bool is_number = token.kind == TokenKind::kInteger ||
                           token.kind == TokenKind::kFloat ||
                           parser.IsKeyword("nan") || parser.IsKeyword("inf");
    if (!is_number && (negative || !(parser.IsKeyword("true") ||
                                     parser.IsKeyword("false")))) {
      return parser.Error("a number, true or false");
    }
    std::string text = absl::StrCat(negative ? "-" : "", AbslView(token.text));
    parser.Advance();
    return text;
  }

  absl::Status ParseList(int depth) {
    Parser::Nesting nesting(parser_);
    PJRTX_RETURN_IF_ERROR(nesting.status());
    const Location location = parser_.token().location;
    PJRTX_RETURN_IF_ERROR(parser_.Expect(TokenKind::kLSquare));
    int64_t count = 0;
    if (!parser_.Is(TokenKind::kRSquare)) {
      do {
        ++count;
        if (parser_.Is(TokenKind::kLSquare)) {
          if (leaf_depth_ >= 0 && leaf_depth_ <= depth) {
            return parser_.Error("a number like the other elements");
          }
          PJRTX_RETURN_IF_ERROR(ParseList(depth + 1));
          continue;
        }
        if (leaf_depth_ < 0) leaf_depth_ = depth;
        if (leaf_depth_ != depth) {
          return parser_.Error("a list like the other elements");
        }
        PJRTX_ASSIGN_OR_RETURN(std::string value, ParseElement(parser_));
        out_->values.push_back(std::move(value));
      } while (parser_.ConsumeIf(TokenKind::kComma));
    }
    PJRTX_RETURN_IF_ERROR(parser_.Expect(TokenKind::kRSquare));
    if (static_cast<int>(shape_.size()) <= depth) {
      shape_.resize(depth + 1, -1);
    }
    if (shape_[depth] < 0) {
      shape_[depth] = count;
    } else if (shape_[depth] != count) {
      return parser_.ErrorAt(
          location,
          absl::StrCat("found a list of ", count, " elements, expected ",
                       shape_[depth], " like the other lists at its depth"));
    }
    return absl::OkStatus();
  }

  Parser& parser_;
  DenseElements* out_;
  std::vector<int64_t> shape_;
  // The depth of the lists that hold numbers; -1 until one is seen.
  int leaf_depth_ = -1;
};

}  // namespace

absl::Status Parser::ParseDenseLiteral(DenseElements* out) {
  PJRTX_RETURN_IF_ERROR(Expect(TokenKind::kLess));
  if (ConsumeIf(TokenKind::kGreater)) return absl::OkStatus();
  if (Is(TokenKind::kString)) {
    const Location location = token_.location;
    PJRTX_ASSIGN_OR_RETURN(std::string hex, ParseStringLiteral());
    if (hex.size() < 2 || hex[0] != '0' || hex[1] != 'x' ||
        hex.size() % 2 != 0) {
      return ErrorAt(location,
                     "found a string, expected a hex string \"0x...\" with "
                     "two digits per byte");
    }
    out->is_hex = true;
    out->hex_bytes.reserve(hex.size() / 2 - 1);
    for (size_t i = 2; i < hex.size(); i += 2) {
      const int high = HexValue(hex[i]);
      const int low = HexValue(hex[i + 1]);
      if (high < 0 || low < 0) {
        return ErrorAt(location,
                       absl::StrCat("found '", hex.substr(i, 2),
                                    "' in a hex string, expected hex digits"));
      }
      out->hex_bytes.push_back(static_cast<uint8_t>(high * 16 + low));
    }
    return Expect(TokenKind::kGreater);
  }
  if (Is(TokenKind::kLSquare)) {
    DenseListParser lists(*this, out);
    PJRTX_RETURN_IF_ERROR(lists.Parse());
  } else {
    PJRTX_ASSIGN_OR_RETURN(std::string value,
                           DenseListParser::ParseElement(*this));
    out->values.push_back(std::move(value));
    out->splat = true;
  }
  return Expect(TokenKind::kGreater);
}

}  // namespace pjrtx::mlir
