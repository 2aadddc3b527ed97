// dense<...> literals -> Literal storage bytes.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/attribute_reader.h"
#include "compiler_stub/ir/float_formats.h"
#include "compiler_stub/ir/op_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

absl::StatusOr<double> ParseFloat(const std::string& text) {
  std::string t = absl::AsciiStrToLower(text);
  if (t == "nan" || t == "+nan")
    return std::numeric_limits<double>::quiet_NaN();
  if (t == "-nan") return -std::numeric_limits<double>::quiet_NaN();
  if (t == "inf" || t == "+inf" || t == "infinity") {
    return std::numeric_limits<double>::infinity();
  }
  if (t == "-inf" || t == "-infinity") {
    return -std::numeric_limits<double>::infinity();
  }
  double value;
  if (absl::SimpleAtod(text, &value)) return value;
  int64_t integer;
  if (absl::SimpleAtoi(text, &integer)) return static_cast<double>(integer);
  return absl::InvalidArgumentError(
      absl::StrCat("'", text, "' is not a floating-point number"));
}

// Parses an integer literal: decimal, or 0x.. hex (raw bits).
absl::StatusOr<uint64_t> ParseBits(const std::string& text) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t bits = 0;
    if (text.size() > 18) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "' is too long"));
    }
    for (size_t i = 2; i < text.size(); ++i) {
      const char c = absl::ascii_tolower(text[i]);
      int digit;
      if (c >= '0' && c <= '9') {
        digit = c - '0';
      } else if (c >= 'a' && c <= 'f') {
        digit = c - 'a' + 10;
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("'", text, "' is not a hex number"));
      }
      bits = bits << 4 | digit;
    }
    return bits;
  }
  return absl::InvalidArgumentError("not hex");
}

// Writes one element of `type` from its text.
absl::Status StoreElement(const std::string& text, ElementType type,
                          uint8_t* out) {
  const size_t size = StorageSize(type);
  if (type == ElementType::kPred) {
    if (text == "true" || text == "1") {
      *out = 1;
    } else if (text == "false" || text == "0") {
      *out = 0;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "' is not a boolean"));
    }
    return absl::OkStatus();
  }
  if (IsInteger(type)) {
    const int bits = BitWidth(type);
    int64_t value;
    uint64_t unsigned_value;
    if (absl::StatusOr<uint64_t> raw = ParseBits(text); raw.ok()) {
      // Hex integers give the bits of the value.
      std::memcpy(out, &*raw, size);
      return absl::OkStatus();
    }
    if (absl::SimpleAtoi(text, &value)) {
      unsigned_value = static_cast<uint64_t>(value);
    } else if (IsUnsignedInt(type) && absl::SimpleAtoi(text, &unsigned_value)) {
      value = static_cast<int64_t>(unsigned_value);
    } else if (text == "true" || text == "false") {
      value = text == "true";
      unsigned_value = value;
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "' is not an integer"));
    }
    const bool fits =
        bits == 64 ||
        (IsSignedInt(type) ? value >= -(int64_t{1} << (bits - 1)) &&
                                 value < (int64_t{1} << (bits - 1))
                           : unsigned_value < (uint64_t{1} << bits));
    if (!fits) {
      return absl::InvalidArgumentError(
          absl::StrCat(text, " does not fit in ", ElementTypeToMlir(type)));
    }
    std::memcpy(out, &value, size);  // Little-endian: the low bytes.
    return absl::OkStatus();
  }
  // Floats: hex gives raw bits.
  if (absl::StatusOr<uint64_t> raw = ParseBits(text); raw.ok()) {
    std::memcpy(out, &*raw, size);
    return absl::OkStatus();
  }
  PJRTX_ASSIGN_OR_RETURN(double value, ParseFloat(text));
  switch (type) {
    case ElementType::kF16: {
      uint16_t bits = DoubleToHalf(value);
      std::memcpy(out, &bits, 2);
      break;
    }
    case ElementType::kBF16: {
      uint16_t bits = DoubleToBFloat16(value);
      std::memcpy(out, &bits, 2);
      break;
    }
    case ElementType::kF32: {
      float f = static_cast<float>(value);
      std::memcpy(out, &f, 4);
      break;
    }
    case ElementType::kF64:
      std::memcpy(out, &value, 8);
      break;
    case ElementType::kF8E4M3FN:
      *out = DoubleToFloat8E4M3FN(value);
      break;
    case ElementType::kF8E5M2:
      *out = DoubleToFloat8E5M2(value);
      break;
    default:
      return absl::InternalError("unhandled element type");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<uint8_t>> DenseToBytes(
    const mlir::Attribute& attribute, const Shape& shape) {
  const mlir::DenseElements& dense = attribute.dense;
  const int64_t n = shape.num_elements();
  const size_t element_size = StorageSize(shape.type);
  std::vector<uint8_t> bytes(n * element_size);
  const mlir::Location where =
      attribute.location.line > 0 ? attribute.location : mlir::Location{};
  if (dense.is_hex) {
    // Hex strings hold the packed little-endian bytes; sub-byte integer
    // types are not packed in MLIR's hex form either (one byte each).
    const size_t want = n * element_size;
    const bool splat = dense.hex_bytes.size() == element_size && n > 1;
    if (dense.hex_bytes.size() != want && !splat) {
      return ErrorAt(
          where,
          absl::StrCat("hex constant has ", dense.hex_bytes.size(),
                       " bytes, expected ", want, " for ", shape.ToString()));
    }
    for (int64_t i = 0; i < n; ++i) {
      std::memcpy(bytes.data() + i * element_size,
                  dense.hex_bytes.data() + (splat ? 0 : i * element_size),
                  element_size);
    }
    return bytes;
  }
  const bool splat = dense.splat || (dense.values.size() == 1 && n != 1 &&
                                     dense.written_shape.empty());
  if (!splat && static_cast<int64_t>(dense.values.size()) != n) {
    return ErrorAt(where,
                   absl::StrCat("dense constant has ", dense.values.size(),
                                " elements (written shape [",
                                absl::StrJoin(dense.written_shape, ","),
                                "]), expected ", n, " for ", shape.ToString()));
  }
  if (dense.values.empty() && n > 0) {
    return ErrorAt(where, "dense constant has no elements");
  }
  for (int64_t i = 0; i < n; ++i) {
    const std::string& text = dense.values[splat ? 0 : i];
    absl::Status status =
        StoreElement(text, shape.type, bytes.data() + i * element_size);
    if (!status.ok()) {
      return ErrorAt(where, absl::StrCat("in ", shape.ToString(),
                                         " constant: ", status.message()));
    }
  }
  return bytes;
}

}  // namespace pjrtx::ir
