#include "compiler_stub/mlir/stablehlo_attribute_syntax.h"

#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/custom_op_helpers.h"
#include "support/status_macros.h"

namespace pjrtx::mlir {
namespace {

// One bracketed layout of a convolution, e.g. [b, 0, 1, f]: where the two
// lettered dimensions are and where each numbered spatial dimension is.
struct ConvLayout {
  int64_t first = -1;   // b in input and output, i in the kernel.
  int64_t second = -1;  // f in input and output, o in the kernel.
  std::vector<int64_t> spatial;
};

absl::StatusOr<ConvLayout> ParseConvLayout(Parser& parser, char first,
                                           char second) {
  const std::string letters =
      absl::StrCat("'", std::string(1, first), "', '", std::string(1, second),
                   "' or a spatial dimension number");
  const Location location = parser.token().location;
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
  ConvLayout layout;
  // (spatial number, position) in the order written.
  std::vector<std::pair<int64_t, int64_t>> numbered;
  int64_t position = 0;
  if (!parser.Is(TokenKind::kRSquare)) {
    do {
      const Token& token = parser.token();
      int64_t* letter_slot = nullptr;
      if (token.kind == TokenKind::kBareId && token.text.size() == 1) {
        if (token.text[0] == first) letter_slot = &layout.first;
        if (token.text[0] == second) letter_slot = &layout.second;
      }
      if (letter_slot != nullptr) {
        if (*letter_slot >= 0)
          return parser.Error(absl::StrCat("each of ", letters, " once"));
        *letter_slot = position;
        parser.Advance();
      } else if (token.kind == TokenKind::kInteger) {
        PJRTX_ASSIGN_OR_RETURN(int64_t number, parser.ParseSignedInteger());
        numbered.emplace_back(number, position);
      } else {
        return parser.Error(letters);
      }
      ++position;
    } while (parser.ConsumeIf(TokenKind::kComma));
  }
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
  if (layout.first < 0 || layout.second < 0) {
    return parser.ErrorAt(
        location,
        absl::StrCat("found a layout without '",
                     std::string(1, layout.first < 0 ? first : second),
                     "', expected one each of ", letters));
  }
  layout.spatial.assign(numbered.size(), -1);
  for (const auto& [number, at] : numbered) {
    if (number < 0 || number >= static_cast<int64_t>(numbered.size()) ||
        layout.spatial[number] >= 0) {
      return parser.ErrorAt(location,
                            absl::StrCat("found spatial dimension ", number,
                                         ", expected each of 0 to ",
                                         numbered.size() - 1, " once"));
    }
    layout.spatial[number] = at;
  }
  return layout;
}

Attribute MakeField(int64_t value, const Location& location) {
  return MakeIntegerAttribute(value, "i64", location, absl::StrCat(value));
}

}  // namespace

absl::Status ParseConvDimensionNumbers(Parser& parser, NamedAttributes* out) {
  const Location location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(ConvLayout input, ParseConvLayout(parser, 'b', 'f'));
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("x"));
  const Location kernel_location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(ConvLayout kernel, ParseConvLayout(parser, 'i', 'o'));
  PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kArrow));
  const Location output_location = parser.token().location;
  PJRTX_ASSIGN_OR_RETURN(ConvLayout output, ParseConvLayout(parser, 'b', 'f'));
  for (const auto& [layout, at] : {std::pair(&kernel, kernel_location),
                                   std::pair(&output, output_location)}) {
    if (layout->spatial.size() != input.spatial.size()) {
      return parser.ErrorAt(
          at, absl::StrCat("found ", layout->spatial.size(),
                           " spatial dimensions, expected ",
                           input.spatial.size(), " as in the input layout"));
    }
  }
  auto list = [&](const std::vector<int64_t>& values) {
    return MakeIntegerListAttribute(values, location, "");
  };
  out->emplace_back("input_batch_dimension", MakeField(input.first, location));
  out->emplace_back("input_feature_dimension",
                    MakeField(input.second, location));
  out->emplace_back("input_spatial_dimensions", list(input.spatial));
  out->emplace_back("kernel_input_feature_dimension",
                    MakeField(kernel.first, location));
  out->emplace_back("kernel_output_feature_dimension",
                    MakeField(kernel.second, location));
  out->emplace_back("kernel_spatial_dimensions", list(kernel.spatial));
  out->emplace_back("output_batch_dimension",
                    MakeField(output.first, location));
  out->emplace_back("output_feature_dimension",
                    MakeField(output.second, location));
  out->emplace_back("output_spatial_dimensions", list(output.spatial));
  return absl::OkStatus();
}

absl::Status ParseWindowAttributes(Parser& parser, Operation& op) {
  std::vector<std::string> seen;
  if (parser.Is(TokenKind::kRBrace)) return absl::OkStatus();
  do {
    const Token key = parser.token();
    const bool known = key.kind == TokenKind::kBareId &&
                       (key.text == "stride" || key.text == "pad" ||
                        key.text == "lhs_dilate" || key.text == "rhs_dilate" ||
                        key.text == "reverse");
    if (!known) {
      return parser.Error("stride, pad, lhs_dilate, rhs_dilate or reverse");
    }
    for (const std::string& name : seen) {
      if (name == key.text) {
        return parser.Error(
            absl::StrCat("each window field once, not a "
                         "second '",
                         AbslView(key.text), "'"));
      }
    }
    seen.emplace_back(key.text);
    parser.Advance();
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
    const size_t begin = parser.Mark();
    const Location location = parser.token().location;
    if (key.text == "pad") {
      Attribute padding;
      padding.kind = Attribute::Kind::kDenseElements;
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
      int64_t rows = 0;
      if (!parser.Is(TokenKind::kRSquare)) {
        do {
          PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> pair,
                                 ParseIntegerList(parser));
          if (pair.size() != 2) {
            return parser.ErrorAt(
                parser.LocationAt(parser.Mark()),
                absl::StrCat("found a padding of ", pair.size(),
                             " values, expected [low, high]"));
          }
          for (int64_t value : pair) {
            padding.dense.values.push_back(absl::StrCat(value));
          }
          ++rows;
        } while (parser.ConsumeIf(TokenKind::kComma));
      }
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
      padding.dense.written_shape = {rows, 2};
      padding.type = MakeTensorType({rows, 2}, "i64");
      padding.location = location;
      padding.text = std::string(parser.TextFrom(begin));
      op.attributes.emplace_back("padding", std::move(padding));
    } else if (key.text == "reverse") {
      Attribute reversal;
      reversal.kind = Attribute::Kind::kDenseArray;
      reversal.type = MakeScalarType("i1");
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
      if (!parser.Is(TokenKind::kRSquare)) {
        do {
          if (parser.IsKeyword("true") || parser.IsKeyword("false")) {
            reversal.integers.push_back(parser.IsKeyword("true") ? 1 : 0);
            parser.Advance();
          } else {
            PJRTX_ASSIGN_OR_RETURN(int64_t value, parser.ParseSignedInteger());
            reversal.integers.push_back(value != 0 ? 1 : 0);
          }
        } while (parser.ConsumeIf(TokenKind::kComma));
      }
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
      reversal.location = location;
      reversal.text = std::string(parser.TextFrom(begin));
      op.attributes.emplace_back("window_reversal", std::move(reversal));
    } else {
      PJRTX_ASSIGN_OR_RETURN(Attribute values, ParseI64ArrayAttribute(parser));
      const char* name = key.text == "stride"       ? "window_strides"
                         : key.text == "lhs_dilate" ? "lhs_dilation"
                                                    : "rhs_dilation";
      op.attributes.emplace_back(name, std::move(values));
    }
  } while (parser.ConsumeIf(TokenKind::kComma));
  return absl::OkStatus();
}

absl::Status ParseDotDimensionNumbers(Parser& parser, Operation& op) {
  const size_t begin = parser.Mark();
  const Location location = parser.token().location;
  Attribute numbers;
  numbers.kind = Attribute::Kind::kDialect;
  numbers.dialect = "stablehlo";
  numbers.mnemonic = "dot";
  auto add_pair = [&](std::string_view prefix) -> absl::Status {
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
    for (const char* side : {"lhs_", "rhs_"}) {
      if (std::string_view(side) == "rhs_") {
        PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("x"));
      }
      const size_t list_begin = parser.Mark();
      const Location list_location = parser.token().location;
      PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> values,
                             ParseIntegerList(parser));
      // The generic printer leaves empty fields out.
      if (values.empty()) continue;
      numbers.entries.emplace_back(
          absl::StrCat(side, AbslView(prefix), "_dimensions"),
          MakeIntegerListAttribute(values, list_location,
                                   parser.TextFrom(list_begin)));
    }
    return absl::OkStatus();
  };
  if (parser.ConsumeIfKeyword("batching_dims")) {
    PJRTX_RETURN_IF_ERROR(add_pair("batching"));
    PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kComma));
  }
  PJRTX_RETURN_IF_ERROR(parser.ExpectKeyword("contracting_dims"));
  PJRTX_RETURN_IF_ERROR(add_pair("contracting"));
  numbers.location = location;
  numbers.text = std::string(parser.TextFrom(begin));
  op.attributes.emplace_back("dot_dimension_numbers", std::move(numbers));
  return absl::OkStatus();
}

absl::Status ParseOptionalPrecisionAndAlgorithm(Parser& parser, Operation& op) {
  while (true) {
    const size_t comma = parser.Mark();
    if (!parser.ConsumeIf(TokenKind::kComma)) return absl::OkStatus();
    const size_t begin = parser.Mark();
    const Location location = parser.token().location;
    if (parser.ConsumeIfKeyword("precision")) {
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
      Attribute config;
      config.kind = Attribute::Kind::kArray;
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLSquare));
      if (!parser.Is(TokenKind::kRSquare)) {
        do {
          PJRTX_ASSIGN_OR_RETURN(
              Attribute precision,
              ParseEnumWord(parser, "stablehlo", "precision"));
          config.elements.push_back(std::move(precision));
        } while (parser.ConsumeIf(TokenKind::kComma));
      }
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kRSquare));
      config.location = location;
      config.text = std::string(parser.TextFrom(begin));
      op.attributes.emplace_back("precision_config", std::move(config));
    } else if (parser.ConsumeIfKeyword("algorithm")) {
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kEqual));
      Attribute algorithm;
      algorithm.kind = Attribute::Kind::kDialect;
      algorithm.dialect = "stablehlo";
      algorithm.mnemonic = "dot_algorithm";
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kLess));
      PJRTX_RETURN_IF_ERROR(
          parser.ParseKeyValueEntries(TokenKind::kGreater, &algorithm.entries));
      PJRTX_RETURN_IF_ERROR(parser.Expect(TokenKind::kGreater));
      algorithm.location = location;
      algorithm.text = std::string(parser.TextFrom(begin));
      op.attributes.emplace_back("algorithm", std::move(algorithm));
    } else {
      // Not ours: the comma belongs to whatever follows.
      parser.Rewind(comma);
      return absl::OkStatus();
    }
  }
}

}  // namespace pjrtx::mlir
