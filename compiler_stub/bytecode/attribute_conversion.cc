#include "compiler_stub/bytecode/attribute_conversion.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/bytecode/type_text.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

using Kind = DecodedAttribute::Kind;

bool IsIntegerElement(std::string_view element) {
  if (element == "index") return true;
  std::string_view digits;
  if (element.substr(0, 2) == "ui" || element.substr(0, 2) == "si") {
    digits = element.substr(2);
  } else if (!element.empty() && element[0] == 'i') {
    digits = element.substr(1);
  }
  if (digits.empty()) return false;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

int IntegerWidth(std::string_view element) {
  if (element == "index") return 64;
  std::string_view digits = element.substr(element[0] == 'i' ? 1 : 2);
  int width = 0;
  for (char c : digits) width = width * 10 + (c - '0');
  return width;
}

// Splats of array attributes (strides, dilations) are expanded; no real
// one comes near this many elements, and hostile shapes must not allocate.
constexpr int64_t kMaxExpandedSplat = int64_t{1} << 20;

// -1 for dynamic shapes and counts that overflow.
int64_t ElementCount(const mlir::Type& type) {
  int64_t n = 1;
  for (int64_t dim : type.dims) {
    if (dim < 0) return -1;
    if (dim != 0 && n > std::numeric_limits<int64_t>::max() / dim) return -1;
    n *= dim;
  }
  return n;
}

// The integer elements of raw little-endian tensor data; one element
// stands for a splat of `count`.
absl::StatusOr<std::vector<int64_t>> RawIntegers(
    const std::vector<uint8_t>& data, const std::string& element, int64_t count,
    bool expand_splat) {
  const int width = IntegerWidth(element);
  const size_t size = width <= 8 ? 1 : static_cast<size_t>((width + 7) / 8);
  if (size == 0 || data.size() % size != 0) {
    return absl::InvalidArgumentError(absl::StrCat("tensor data of ",
                                                   data.size(),
                                                   " bytes is not a whole "
                                                   "number of ",
                                                   element, " elements"));
  }
  const size_t stored = data.size() / size;
  if (count >= 0 && stored != static_cast<size_t>(count) && stored != 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor data holds ", stored, " elements, expected ", count));
  }
  const bool is_unsigned = element.substr(0, 2) == "ui" || element == "i1";
  std::vector<int64_t> values;
  for (size_t i = 0; i < stored; ++i) {
    uint64_t bits = 0;
    for (size_t b = 0; b < size && b < 8; ++b) {
      bits |= static_cast<uint64_t>(data[i * size + b]) << (8 * b);
    }
    if (width < 64) {
      const uint64_t mask = (uint64_t{1} << width) - 1;
      bits &= mask;
      if (!is_unsigned && width > 0 && (bits >> (width - 1))) bits |= ~mask;
    }
    values.push_back(static_cast<int64_t>(bits));
  }
  if (expand_splat && stored == 1 && count > kMaxExpandedSplat) {
    return absl::InvalidArgumentError(absl::StrCat(
        "splat of ", count, " elements is too large for an array attribute"));
  }
  if (expand_splat && stored == 1 && count > 1) {
    values.assign(static_cast<size_t>(count), values[0]);
  }
  return values;
}

// The parts of complex<f16|bf16|f32|f64> elements as hex bit literals.
absl::StatusOr<std::vector<std::string>> ComplexLiterals(
    const std::vector<uint8_t>& data, const std::string& element,
    int64_t count) {
  const std::string part = element.substr(8, element.size() - 9);
  const size_t part_size = part == "f64"                       ? 8
                           : part == "f32"                     ? 4
                           : (part == "f16" || part == "bf16") ? 2
                                                               : 0;
  if (part_size == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("constants of ", element, " are not supported"));
  }
  const size_t size = 2 * part_size;
  if (data.size() % size != 0 ||
      (data.size() / size != 1 &&
       (count < 0 || data.size() / size != static_cast<size_t>(count)))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "tensor data of ", data.size(), " bytes does not fit ", element));
  }
  std::vector<std::string> values;
  for (size_t i = 0; i < data.size(); i += size) {
    std::string parts[2];
    for (int p = 0; p < 2; ++p) {
      uint64_t bits = 0;
      for (size_t b = 0; b < part_size; ++b) {
        bits |= static_cast<uint64_t>(data[i + p * part_size + b]) << (8 * b);
      }
      const absl::PadSpec pad = part_size == 8   ? absl::kZeroPad16
                                : part_size == 4 ? absl::kZeroPad8
                                                 : absl::kZeroPad4;
      parts[p] = absl::StrCat("0x", absl::Hex(bits, pad));
    }
    values.push_back(absl::StrCat("(", parts[0], ", ", parts[1], ")"));
  }
  return values;
}

std::string IntegerText(int64_t value, const std::string& element) {
  if (element == "i1") return value ? "true" : "false";
  if (element.substr(0, 2) == "ui") {
    return absl::StrCat(static_cast<uint64_t>(value));
  }
  return absl::StrCat(value);
}

}  // namespace

mlir::Attribute IntegerOf(int64_t value, const std::string& type) {
  mlir::Attribute attribute;
  attribute.kind = mlir::Attribute::Kind::kInteger;
  attribute.integer = value;
  attribute.type = ScalarType(type);
  attribute.text = absl::StrCat(value, " : ", type);
  return attribute;
}

mlir::Attribute IntegerList(const std::vector<int64_t>& values) {
  mlir::Attribute list;
  list.kind = mlir::Attribute::Kind::kArray;
  for (int64_t value : values) {
    mlir::Attribute element = IntegerOf(value, "i64");
    element.text = absl::StrCat(value);
    list.elements.push_back(std::move(element));
  }
  list.text = absl::StrCat("[", absl::StrJoin(values, ", "), "]");
  return list;
}

mlir::Attribute StablehloStruct(
    std::string mnemonic,
    std::vector<std::pair<std::string, mlir::Attribute>> entries) {
  mlir::Attribute attribute;
  attribute.kind = mlir::Attribute::Kind::kDialect;
  attribute.dialect = "stablehlo";
  attribute.text = absl::StrCat("#stablehlo.", mnemonic, "<...>");
  attribute.mnemonic = std::move(mnemonic);
  attribute.entries = std::move(entries);
  return attribute;
}

absl::StatusOr<std::vector<int64_t>> TensorIntegers(
    const DecodedAttribute& value) {
  if (value.kind != Kind::kTensor || !IsIntegerElement(value.type.element)) {
    return absl::InvalidArgumentError("expected an integer tensor attribute");
  }
  return RawIntegers(value.data, value.type.element, ElementCount(value.type),
                     /*expand_splat=*/true);
}

bool IsSplatTensor(const DecodedAttribute& value, int64_t splat) {
  absl::StatusOr<std::vector<int64_t>> values = TensorIntegers(value);
  if (!values.ok() || values->empty()) return false;
  for (int64_t v : *values) {
    if (v != splat) return false;
  }
  return true;
}

absl::StatusOr<mlir::Attribute> DenseArrayOf(const DecodedAttribute& value,
                                             const std::string& element) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> values, TensorIntegers(value));
  mlir::Attribute array;
  array.kind = mlir::Attribute::Kind::kDenseArray;
  array.type = ScalarType(element);
  array.text = absl::StrCat("array<", element, ": ...>");
  for (int64_t v : values)
    array.integers.push_back(element == "i1" ? v != 0 : v);
  return array;
}

absl::StatusOr<mlir::Attribute> ConvertAttribute(
    const DecodedAttribute& value) {
  mlir::Attribute out;
  using AstKind = mlir::Attribute::Kind;
  switch (value.kind) {
    case Kind::kArray:
      out.kind = AstKind::kArray;
      for (const DecodedAttribute& element : value.elements) {
        PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted,
                               ConvertAttribute(element));
        out.elements.push_back(std::move(converted));
      }
      out.text = "[...]";
      return out;
    case Kind::kBool:
      out.kind = AstKind::kBool;
      out.bool_value = value.integer != 0;
      out.text = out.bool_value ? "true" : "false";
      return out;
    case Kind::kEnum:
      if (value.enum_name == "api_version") {
        // StableHLO's custom call API version is a plain i32 attribute.
        return IntegerOf(value.integer, "i32");
      }
      out.kind = AstKind::kDialect;
      out.dialect = "stablehlo";
      out.mnemonic = value.enum_name;
      out.body = value.text;
      out.text =
          absl::StrCat("#stablehlo<", value.enum_name, " ", value.text, ">");
      return out;
    case Kind::kDictionary:
      out.kind = AstKind::kDictionary;
      for (const auto& [name, entry] : value.entries) {
        PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted,
                               ConvertAttribute(entry));
        out.entries.emplace_back(name, std::move(converted));
      }
      out.text = "{...}";
      return out;
    case Kind::kFloat:
      out.kind = AstKind::kFloat;
      out.float_value = value.real;
      out.type = value.type;
      out.text = absl::StrCat(value.real, " : ", value.type.text);
      return out;
    case Kind::kInteger:
      out = IntegerOf(value.integer, value.type.element);
      out.type = value.type;
      return out;
    case Kind::kString:
      out.kind = AstKind::kString;
      out.string_value = value.text;
      out.text =
          absl::StrCat("\"", absl::string_view(value.text).substr(0, 64), "\"");
      return out;
    case Kind::kTensor: {
      out.kind = AstKind::kDenseElements;
      out.type = value.type;
      out.text = absl::StrCat("dense<...> : ", value.type.text);
      const std::string& element = value.type.element;
      const int64_t count = ElementCount(value.type);
      if (IsIntegerElement(element)) {
        PJRTX_ASSIGN_OR_RETURN(
            std::vector<int64_t> values,
            RawIntegers(value.data, element, count, /*expand_splat=*/false));
        out.dense.splat = values.size() == 1 && count != 1;
        for (int64_t v : values) {
          out.dense.values.push_back(IntegerText(v, element));
        }
      } else if (element.rfind("complex<", 0) == 0) {
        // "(0x<re bits>, 0x<im bits>)": exact, and the form the complex
        // expansion pass splits into real and imaginary constants.
        PJRTX_ASSIGN_OR_RETURN(out.dense.values,
                               ComplexLiterals(value.data, element, count));
        out.dense.splat = out.dense.values.size() == 1 && count != 1;
      } else {
        // Floats keep their exact bits.
        out.dense.is_hex = true;
        out.dense.hex_bytes = value.data;
      }
      return out;
    }
    case Kind::kType:
      out.kind = AstKind::kType;
      out.type = value.type;
      out.text = value.type.text;
      return out;
    case Kind::kUnit:
      out.kind = AstKind::kUnit;
      return out;
    case Kind::kSymbolRef:
      out.kind = AstKind::kSymbolRef;
      out.string_value = value.text;
      out.text = absl::StrCat("@", value.text);
      return out;
    case Kind::kDenseArray: {
      out.kind = AstKind::kDenseArray;
      out.type = value.type;
      out.text = absl::StrCat("array<", value.type.text, ": ...>");
      const std::string& element = value.type.element;
      if (IsIntegerElement(element)) {
        PJRTX_ASSIGN_OR_RETURN(out.integers, RawIntegers(value.data, element,
                                                         value.integer, false));
      } else if (element == "f32" || element == "f64") {
        const size_t size = element == "f32" ? 4 : 8;
        if (value.data.size() != size * static_cast<size_t>(value.integer)) {
          return absl::InvalidArgumentError("dense array size mismatch");
        }
        for (size_t i = 0; i < value.data.size(); i += size) {
          if (size == 4) {
            float f;
            std::memcpy(&f, &value.data[i], 4);
            out.floats.push_back(f);
          } else {
            double d;
            std::memcpy(&d, &value.data[i], 8);
            out.floats.push_back(d);
          }
        }
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("dense array of ", element, " is not supported"));
      }
      return out;
    }
    case Kind::kOutputOperandAlias:
      return StablehloStruct(
          "output_operand_alias",
          {{"output_tuple_indices", IntegerList(value.integers)},
           {"operand_index", IntegerOf(value.integer, "i64")},
           {"operand_tuple_indices", IntegerList(value.integers2)}});
    case Kind::kTypeExtensions:
      out.kind = AstKind::kDialect;
      out.dialect = "stablehlo";
      out.mnemonic = "type_extensions";
      out.text = "#stablehlo.type_extensions<...>";
      return out;
    case Kind::kResultAccuracy: {
      mlir::Attribute atol;
      atol.kind = AstKind::kFloat;
      atol.float_value = value.real;
      atol.type = ScalarType("f64");
      mlir::Attribute rtol = atol;
      rtol.float_value = value.real2;
      mlir::Attribute mode;
      mode.kind = AstKind::kDialect;
      mode.dialect = "stablehlo";
      mode.mnemonic = "result_accuracy_mode";
      mode.body = value.text;
      mode.text =
          absl::StrCat("#stablehlo.result_accuracy_mode<", value.text, ">");
      return StablehloStruct("result_accuracy",
                             {{"atol", atol},
                              {"rtol", rtol},
                              {"ulps", IntegerOf(value.integer, "i64")},
                              {"mode", mode}});
    }
    case Kind::kStruct: {
      std::vector<std::pair<std::string, mlir::Attribute>> entries;
      for (const auto& [name, entry] : value.entries) {
        PJRTX_ASSIGN_OR_RETURN(mlir::Attribute converted,
                               ConvertAttribute(entry));
        // A mesh named by a string refers to the symbol of that name.
        if (value.enum_name == "replica_group_mesh_axes" && name == "mesh" &&
            converted.kind == mlir::Attribute::Kind::kString) {
          converted.kind = mlir::Attribute::Kind::kSymbolRef;
          converted.text = absl::StrCat("@", converted.string_value);
        }
        entries.emplace_back(name, std::move(converted));
      }
      return StablehloStruct(value.enum_name, std::move(entries));
    }
    case Kind::kLocation:
    case Kind::kOpaque:
      out.kind = AstKind::kDialect;
      out.dialect = value.dialect;
      out.body = value.text;
      out.text = value.text;
      return out;
  }
  return absl::InternalError("unhandled decoded attribute kind");
}

}  // namespace pjrtx::bytecode
