#include "compiler_stub/bytecode/attribute_table.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/type_text.h"
#include "support/status_macros.h"

namespace pjrtx::bytecode {
namespace {

// Attributes and types nest (arrays of dictionaries of ...); deeper than
// this is corrupt input, and the limit keeps the stack bounded.
constexpr int kMaxDepth = 128;

// Builtin attribute and type codes (BuiltinDialectBytecode.td, in order).
enum BuiltinAttributeCode : uint64_t {
  kBuiltinArray = 0,
  kBuiltinDictionary = 1,
  kBuiltinString = 2,
  kBuiltinStringWithType = 3,
  kBuiltinFlatSymbolRef = 4,
  kBuiltinSymbolRef = 5,
  kBuiltinType = 6,
  kBuiltinUnit = 7,
  kBuiltinInteger = 8,
  kBuiltinFloat = 9,
  kBuiltinCallSiteLoc = 10,
  kBuiltinFileLineColLoc = 11,
  kBuiltinFusedLoc = 12,
  kBuiltinFusedLocWithMetadata = 13,
  kBuiltinNameLoc = 14,
  kBuiltinUnknownLoc = 15,
  kBuiltinDenseResource = 16,
  kBuiltinDenseArray = 17,
  kBuiltinDenseIntOrFp = 18,
  // Appended when MLIR's locations became ranges; a plain file:line:col
  // stays kBuiltinFileLineColLoc.
  kBuiltinFileLineColRange = 22,
};

enum BuiltinTypeCode : uint64_t {
  kBuiltinIntegerType = 0,
  kBuiltinIndexType = 1,
  kBuiltinFunctionType = 2,
  kBuiltinBf16 = 3,
  kBuiltinF16 = 4,
  kBuiltinF32 = 5,
  kBuiltinF64 = 6,
  kBuiltinF80 = 7,
  kBuiltinF128 = 8,
  kBuiltinComplex = 9,
  kBuiltinNone = 12,
  kBuiltinRankedTensor = 13,
  kBuiltinRankedTensorWithEncoding = 14,
  kBuiltinTuple = 15,
  kBuiltinUnrankedTensor = 18,
};

// VHLO attribute codes (VhloBytecode.cpp, AttributeCode).
enum VhloAttributeCode : uint64_t {
  kVhloArray = 1,
  kVhloBoolean = 2,
  kVhloComparisonDirection = 3,
  kVhloComparisonType = 4,
  kVhloCustomCallApiVersion = 5,
  kVhloDictionary = 6,
  kVhloFftType = 7,
  kVhloFloat = 8,
  kVhloInteger = 9,
  kVhloOutputOperandAlias = 10,
  kVhloPrecision = 11,
  kVhloRngAlgorithm = 12,
  kVhloRngDistribution = 13,
  kVhloString = 14,
  kVhloTensor = 15,
  kVhloTranspose = 16,
  kVhloType = 17,
  kVhloTypeExtensions = 18,
  kVhloResultAccuracyMode = 19,
  kVhloResultAccuracy = 20,
  kVhloSubAxisInfo = 21,
  kVhloAxisRef = 22,
  kVhloReplicaGroupMeshAxes = 23,
  kVhloMeshAxis = 24,
  kVhloMesh = 25,
};

// VHLO type codes (VhloBytecode.cpp, TypeCode) of the types without
// parameters, with the builtin spelling each converts to.
struct SimpleVhloType {
  uint64_t code;
  const char* element;
};
constexpr SimpleVhloType kSimpleVhloTypes[] = {
    {0, "i1"},          {2, "bf16"},        {3, "f16"},
    {4, "f32"},         {5, "f64"},         {6, "f8E4M3FN"},
    {7, "f8E5M2"},      {9, "index"},       {10, "i4"},
    {11, "i8"},         {12, "i16"},        {13, "i32"},
    {14, "i64"},        {15, "ui4"},        {16, "ui8"},
    {17, "ui16"},       {18, "ui32"},       {19, "ui64"},
    {27, "f8E4M3FNUZ"}, {28, "f8E5M2FNUZ"}, {29, "f8E4M3B11FNUZ"},
    {31, "i2"},         {32, "ui2"},        {33, "none"},
    {34, "tf32"},       {35, "f8E4M3"},     {36, "f8E3M4"},
    {37, "f4E2M1FN"},   {38, "f6E2M3FN"},   {39, "f6E3M2FN"},
    {40, "f8E8M0FNU"},  {43, "f8E5M3FNU"},
};
constexpr uint64_t kVhloComplexType = 1;
constexpr uint64_t kVhloFunctionType = 8;
constexpr uint64_t kVhloRankedTensorType = 20;
constexpr uint64_t kVhloRankedTensorWithEncoding = 21;
constexpr uint64_t kVhloTokenType = 22;
constexpr uint64_t kVhloTupleType = 23;
constexpr uint64_t kVhloUniformQuantizedType = 24;
constexpr uint64_t kVhloUniformQuantizedPerAxisType = 30;
constexpr uint64_t kVhloUnrankedTensorType = 25;
constexpr uint64_t kVhloRankedBufferType = 41;
constexpr uint64_t kVhloFutureType = 42;
constexpr uint64_t kVhloWitnessType = 26;

// The enum attributes: their StableHLO mnemonic and cases by value.
struct EnumInfo {
  uint64_t code;
  const char* name;
  std::vector<const char*> cases;  // Index = encoded value.
};
const std::vector<EnumInfo>& Enums() {
  static const auto* enums = new std::vector<EnumInfo>{
      {kVhloComparisonDirection,
       "comparison_direction",
       {"EQ", "NE", "GE", "GT", "LE", "LT"}},
      {kVhloComparisonType,
       "comparison_type",
       {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED", "WEAKORDER"}},
      {kVhloCustomCallApiVersion,
       "api_version",
       {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL",
        "API_VERSION_STATUS_RETURNING", "API_VERSION_STATUS_RETURNING_UNIFIED",
        "API_VERSION_TYPED_FFI"}},
      {kVhloFftType, "fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
      {kVhloPrecision, "precision", {"DEFAULT", "HIGH", "HIGHEST"}},
      {kVhloRngAlgorithm, "rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
      {kVhloRngDistribution, "rng_distribution", {"", "UNIFORM", "NORMAL"}},
      {kVhloTranspose,
       "transpose",
       {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
      {kVhloResultAccuracyMode,
       "result_accuracy_mode",
       {"DEFAULT", "HIGHEST", "TOLERANCE"}},
  };
  return *enums;
}

// Bit width of an integer or float element spelling; 0 if unknown.
int BitWidth(std::string_view element) {
  if (element == "index") return 64;
  if (element == "bf16" || element == "f16") return 16;
  if (element == "f32") return 32;
  if (element == "f64") return 64;
  if (element == "tf32") return 19;
  if (element.substr(0, 2) == "f8") return 8;
  if (element.substr(0, 2) == "f6") return 6;
  if (element.substr(0, 2) == "f4") return 4;
  std::string_view digits;
  if (element.substr(0, 2) == "ui" || element.substr(0, 2) == "si") {
    digits = element.substr(2);
  } else if (!element.empty() && element[0] == 'i') {
    digits = element.substr(1);
  }
  if (digits.empty() || digits.size() > 3) return 0;
  int width = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return 0;
    width = width * 10 + (c - '0');
  }
  return width;
}

// The value of a small binary float given its exponent and mantissa widths
// (IEEE-like; the FN/FNUZ variants differ only in their special values,
// which attributes do not use).
double MiniFloatValue(uint64_t bits, int exponent_bits, int mantissa_bits,
                      int bias) {
  const int total = exponent_bits + mantissa_bits + 1;
  const bool negative = (bits >> (total - 1)) & 1;
  const uint64_t exponent =
      (bits >> mantissa_bits) & ((uint64_t{1} << exponent_bits) - 1);
  const uint64_t mantissa = bits & ((uint64_t{1} << mantissa_bits) - 1);
  double value;
  if (exponent == 0) {
    value = std::ldexp(static_cast<double>(mantissa), 1 - bias - mantissa_bits);
  } else {
    value = std::ldexp(
        static_cast<double>(mantissa + (uint64_t{1} << mantissa_bits)),
        static_cast<int>(exponent) - bias - mantissa_bits);
  }
  return negative ? -value : value;
}

double FloatFromBits(std::string_view element, uint64_t bits) {
  if (element == "f64") {
    double value;
    std::memcpy(&value, &bits, sizeof(value));
    return value;
  }
  if (element == "f32") {
    const uint32_t narrow = static_cast<uint32_t>(bits);
    float value;
    std::memcpy(&value, &narrow, sizeof(value));
    return value;
  }
  if (element == "bf16") {
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;
    float value;
    std::memcpy(&value, &wide, sizeof(value));
    return value;
  }
  if (element == "f16") {
    if (((bits >> 10) & 0x1f) == 0x1f) {
      return (bits & 0x3ff) ? std::numeric_limits<double>::quiet_NaN()
                            : ((bits >> 15) ? -INFINITY : INFINITY);
    }
    return MiniFloatValue(bits, 5, 10, 15);
  }
  if (element == "tf32") return MiniFloatValue(bits, 8, 10, 127);
  if (element == "f8E5M2" || element == "f8E5M2FNUZ") {
    return MiniFloatValue(bits, 5, 2, element == "f8E5M2" ? 15 : 16);
  }
  if (element == "f8E4M3FN" || element == "f8E4M3" || element == "f8E4M3FNUZ") {
    return MiniFloatValue(bits, 4, 3, element == "f8E4M3FNUZ" ? 8 : 7);
  }
  if (element == "f8E4M3B11FNUZ") return MiniFloatValue(bits, 4, 3, 11);
  if (element == "f8E3M4") return MiniFloatValue(bits, 3, 4, 3);
  if (element == "f4E2M1FN") return MiniFloatValue(bits, 2, 1, 1);
  if (element == "f6E2M3FN") return MiniFloatValue(bits, 2, 3, 1);
  if (element == "f6E3M2FN") return MiniFloatValue(bits, 3, 2, 3);
  if (element == "f8E8M0FNU")
    return std::ldexp(1.0, static_cast<int>(bits) - 127);
  // Unsigned (no sign bit: MiniFloatValue's lands above the byte); 0xFF is
  // its only NaN and it has no infinity.
  if (element == "f8E5M3FNU") {
    return bits == 0xff ? std::numeric_limits<double>::quiet_NaN()
                        : MiniFloatValue(bits, 5, 3, 15);
  }
  return 0;
}

int64_t NumElements(const mlir::Type& type) {
  int64_t n = 1;
  for (int64_t dim : type.dims) {
    if (dim < 0) return -1;
    if (dim != 0 && n > std::numeric_limits<int64_t>::max() / dim) return -1;
    n *= dim;
  }
  return n;
}

std::string ElementSpelling(const mlir::Type& type) {
  return type.kind == mlir::Type::Kind::kScalar ? type.element : type.text;
}

}  // namespace

// One entry's decoding, with the reader over its bytes.
class AttributeTable::Decoder {
 public:
  Decoder(AttributeTable& table, EncodingReader& reader)
      : table_(table), reader_(reader) {}

  absl::Status Attribute(std::string_view dialect, DecodedAttribute& out) {
    out.dialect = std::string(dialect);
    if (dialect == "builtin") return BuiltinAttribute(out);
    if (dialect == "vhlo") return VhloAttribute(out);
    out.kind = DecodedAttribute::Kind::kOpaque;
    out.text = absl::StrCat(
        "#", absl::string_view(dialect.data(), dialect.size()), "<...>");
    return absl::OkStatus();
  }

  absl::Status Type(std::string_view dialect, mlir::Type& out) {
    if (dialect == "builtin") return BuiltinType(out);
    if (dialect == "vhlo") return VhloType(out);
    out = OtherType(absl::StrCat(
        "!", absl::string_view(dialect.data(), dialect.size()), "<...>"));
    return absl::OkStatus();
  }

 private:
  absl::StatusOr<const DecodedAttribute*> Ref() {
    return table_.ReadAttribute(reader_);
  }
  absl::StatusOr<mlir::Type> TypeRef() {
    PJRTX_ASSIGN_OR_RETURN(const mlir::Type* type, table_.ReadType(reader_));
    return *type;
  }
  absl::StatusOr<std::string> String() {
    PJRTX_ASSIGN_OR_RETURN(uint64_t index, reader_.ReadVarInt());
    if (index >= table_.file_.strings.size()) {
      return reader_.Error(
          absl::StrCat("string index ", index, " out of range"));
    }
    return std::string(table_.file_.strings[index]);
  }
  absl::StatusOr<std::string> StringAttribute() {
    PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* name, Ref());
    if (name->kind != DecodedAttribute::Kind::kString) {
      return reader_.Error("expected a string attribute");
    }
    return name->text;
  }
  absl::StatusOr<std::vector<int64_t>> SignedVarInts() {
    PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("integers"));
    std::vector<int64_t> values;
    values.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
      PJRTX_ASSIGN_OR_RETURN(int64_t value, reader_.ReadSignedVarInt());
      values.push_back(value);
    }
    return values;
  }
  absl::StatusOr<std::vector<mlir::Type>> Types() {
    PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("types"));
    std::vector<mlir::Type> types;
    for (uint64_t i = 0; i < count; ++i) {
      PJRTX_ASSIGN_OR_RETURN(mlir::Type type, TypeRef());
      types.push_back(std::move(type));
    }
    return types;
  }
  // An APInt of `width` bits (MLIR's readAPIntWithKnownWidth).
  absl::StatusOr<uint64_t> ApInt(int width) {
    if (width <= 0) return reader_.Error("integer of unknown width");
    if (width <= 8) return reader_.ReadByte();
    if (width <= 64) {
      PJRTX_ASSIGN_OR_RETURN(int64_t value, reader_.ReadSignedVarInt());
      return static_cast<uint64_t>(value);
    }
    // Wider values: the active words, each a signed varint; only the low
    // word is kept (no StableHLO attribute is wider than 64 bits).
    PJRTX_ASSIGN_OR_RETURN(uint64_t words, reader_.ReadCount("words"));
    uint64_t low = 0;
    for (uint64_t i = 0; i < words; ++i) {
      PJRTX_ASSIGN_OR_RETURN(int64_t word, reader_.ReadSignedVarInt());
      if (i == 0) low = static_cast<uint64_t>(word);
    }
    return low;
  }
  // The value of `bits` as an integer of `element`'s type: unsigned types
  // zero-extend, the others sign-extend.
  static int64_t Extend(std::string_view element, uint64_t bits) {
    const int width = BitWidth(element);
    if (width <= 0 || width >= 64) return static_cast<int64_t>(bits);
    const uint64_t mask = (uint64_t{1} << width) - 1;
    bits &= mask;
    if (element.substr(0, 2) == "ui" || element == "i1") {
      return static_cast<int64_t>(bits);
    }
    if (bits >> (width - 1)) bits |= ~mask;
    return static_cast<int64_t>(bits);
  }
  absl::Status Integer(const mlir::Type& type, DecodedAttribute& out) {
    const std::string element = ElementSpelling(type);
    PJRTX_ASSIGN_OR_RETURN(uint64_t bits, ApInt(BitWidth(element)));
    out.type = type;
    if (element == "i1") {
      out.kind = DecodedAttribute::Kind::kBool;
      out.integer = bits & 1;
      return absl::OkStatus();
    }
    out.kind = DecodedAttribute::Kind::kInteger;
    out.integer = Extend(element, bits);
    return absl::OkStatus();
  }
  absl::Status Float(const mlir::Type& type, DecodedAttribute& out) {
    const std::string element = ElementSpelling(type);
    PJRTX_ASSIGN_OR_RETURN(uint64_t bits, ApInt(BitWidth(element)));
    out.kind = DecodedAttribute::Kind::kFloat;
    out.type = type;
    out.real = FloatFromBits(element, bits);
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<uint8_t>> Blob() {
    PJRTX_ASSIGN_OR_RETURN(uint64_t size, reader_.ReadVarInt());
    PJRTX_ASSIGN_OR_RETURN(absl::Span<const uint8_t> bytes,
                           reader_.ReadBytes(size));
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }
  // A reference to a location: its source position (line 0 for none).
  absl::StatusOr<mlir::Location> LocationRef() {
    PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* location, Ref());
    if (location->kind != DecodedAttribute::Kind::kLocation) {
      return reader_.Error("expected a location attribute");
    }
    return location->location;
  }
  absl::StatusOr<int> LineOrColumn() {
    PJRTX_ASSIGN_OR_RETURN(uint64_t value, reader_.ReadVarInt());
    if (value > static_cast<uint64_t>(std::numeric_limits<int>::max())) {
      return reader_.Error(
          absl::StrCat("line or column number ", value, " out of range"));
    }
    return static_cast<int>(value);
  }
  // The builtin location attributes. Only the position an error message
  // can point to is kept: for JAX, a NameLoc ("jit(f)/sin") around a
  // CallSiteLoc whose callee is the user's frame (file:line:col) and whose
  // caller is the rest of the Python stack.
  absl::Status BuiltinLocation(uint64_t code, DecodedAttribute& out) {
    out.kind = DecodedAttribute::Kind::kLocation;
    switch (code) {
      case kBuiltinCallSiteLoc: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Location callee, LocationRef());
        PJRTX_ASSIGN_OR_RETURN(mlir::Location caller, LocationRef());
        out.location = callee.line > 0 ? callee : caller;
        return absl::OkStatus();
      }
      case kBuiltinFileLineColLoc:
      case kBuiltinFileLineColRange: {
        PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* file, Ref());
        if (file->kind != DecodedAttribute::Kind::kString) {
          return reader_.Error("location file name is not a string");
        }
        // A range lists what it has: nothing, the line, then the start
        // column, then where it ends (which messages do not need).
        uint64_t count = 2;
        if (code == kBuiltinFileLineColRange) {
          PJRTX_ASSIGN_OR_RETURN(count, reader_.ReadCount("line and columns"));
          if (count > 4) {
            return reader_.Error(absl::StrCat("location range with ", count,
                                              " line and column numbers"));
          }
        }
        int numbers[4] = {0, 0, 0, 0};
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(numbers[i], LineOrColumn());
        }
        // Line 0 is MLIR's unknown line: no position to point to.
        if (numbers[0] > 0) {
          out.location.line = numbers[0];
          out.location.column = numbers[1];
          out.location.file = table_.FileName(*file);
        }
        return absl::OkStatus();
      }
      case kBuiltinFusedLoc:
      case kBuiltinFusedLocWithMetadata: {
        PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("locations"));
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(mlir::Location location, LocationRef());
          if (out.location.line == 0) out.location = std::move(location);
        }
        if (code == kBuiltinFusedLocWithMetadata) {
          PJRTX_RETURN_IF_ERROR(Ref().status());
        }
        return absl::OkStatus();
      }
      case kBuiltinNameLoc: {
        PJRTX_RETURN_IF_ERROR(StringAttribute().status());
        PJRTX_ASSIGN_OR_RETURN(out.location, LocationRef());
        return absl::OkStatus();
      }
      default:  // kBuiltinUnknownLoc
        return absl::OkStatus();
    }
  }

  absl::Status BuiltinAttribute(DecodedAttribute& out) {
    using Kind = DecodedAttribute::Kind;
    PJRTX_ASSIGN_OR_RETURN(uint64_t code, reader_.ReadVarInt());
    switch (code) {
      case kBuiltinArray: {
        out.kind = Kind::kArray;
        PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("elements"));
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* element, Ref());
          out.weight += element->weight;
          out.elements.push_back(*element);
        }
        return absl::OkStatus();
      }
      case kBuiltinDictionary: {
        out.kind = Kind::kDictionary;
        PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("entries"));
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(std::string name, StringAttribute());
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* value, Ref());
          out.weight += value->weight + name.size() / 8;
          out.entries.emplace_back(std::move(name), *value);
        }
        return absl::OkStatus();
      }
      case kBuiltinString:
      case kBuiltinStringWithType: {
        out.kind = Kind::kString;
        PJRTX_ASSIGN_OR_RETURN(out.text, String());
        if (code == kBuiltinStringWithType) {
          PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
        }
        return absl::OkStatus();
      }
      case kBuiltinFlatSymbolRef:
      case kBuiltinSymbolRef: {
        out.kind = Kind::kSymbolRef;
        PJRTX_ASSIGN_OR_RETURN(out.text, StringAttribute());
        if (code == kBuiltinSymbolRef) {
          PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("nested"));
          for (uint64_t i = 0; i < count; ++i) {
            PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* nested, Ref());
            out.weight += nested->weight;
            out.elements.push_back(*nested);
          }
        }
        return absl::OkStatus();
      }
      case kBuiltinType: {
        out.kind = Kind::kType;
        PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
        return absl::OkStatus();
      }
      case kBuiltinUnit:
        out.kind = Kind::kUnit;
        return absl::OkStatus();
      case kBuiltinInteger: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type type, TypeRef());
        return Integer(type, out);
      }
      case kBuiltinFloat: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type type, TypeRef());
        return Float(type, out);
      }
      case kBuiltinCallSiteLoc:
      case kBuiltinFileLineColLoc:
      case kBuiltinFileLineColRange:
      case kBuiltinFusedLoc:
      case kBuiltinFusedLocWithMetadata:
      case kBuiltinNameLoc:
      case kBuiltinUnknownLoc:
        return BuiltinLocation(code, out);
      case kBuiltinDenseArray: {
        out.kind = Kind::kDenseArray;
        PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
        PJRTX_ASSIGN_OR_RETURN(uint64_t size, reader_.ReadVarInt());
        out.integer = static_cast<int64_t>(size);
        PJRTX_ASSIGN_OR_RETURN(out.data, Blob());
        return absl::OkStatus();
      }
      case kBuiltinDenseIntOrFp: {
        out.kind = Kind::kTensor;
        PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
        PJRTX_ASSIGN_OR_RETURN(out.data, Blob());
        return absl::OkStatus();
      }
      default:
        return reader_.Error(absl::StrCat(
            "builtin attribute code ", code,
            " is not supported (dense_resource, sparse, string elements and "
            "distinct attributes do not occur in StableHLO artifacts)"));
    }
  }

  absl::Status BuiltinType(mlir::Type& out) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t code, reader_.ReadVarInt());
    switch (code) {
      case kBuiltinIntegerType: {
        PJRTX_ASSIGN_OR_RETURN(uint64_t encoded, reader_.ReadVarInt());
        const uint64_t width = encoded >> 2;
        const uint64_t signedness = encoded & 3;
        const char* prefix = signedness == 1   ? "si"
                             : signedness == 2 ? "ui"
                                               : "i";
        out = ScalarType(absl::StrCat(prefix, width));
        return absl::OkStatus();
      }
      case kBuiltinIndexType:
        out = ScalarType("index");
        return absl::OkStatus();
      case kBuiltinFunctionType: {
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> inputs, Types());
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> results, Types());
        out = FunctionType(std::move(inputs), std::move(results));
        return absl::OkStatus();
      }
      case kBuiltinBf16:
        out = ScalarType("bf16");
        return absl::OkStatus();
      case kBuiltinF16:
        out = ScalarType("f16");
        return absl::OkStatus();
      case kBuiltinF32:
        out = ScalarType("f32");
        return absl::OkStatus();
      case kBuiltinF64:
        out = ScalarType("f64");
        return absl::OkStatus();
      case kBuiltinF80:
        out = ScalarType("f80");
        return absl::OkStatus();
      case kBuiltinF128:
        out = ScalarType("f128");
        return absl::OkStatus();
      case kBuiltinNone:
        out = ScalarType("none");
        return absl::OkStatus();
      case kBuiltinComplex: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
        out =
            ScalarType(absl::StrCat("complex<", ElementSpelling(element), ">"));
        return absl::OkStatus();
      }
      case kBuiltinRankedTensor:
      case kBuiltinRankedTensorWithEncoding:
        return Tensor(code == kBuiltinRankedTensorWithEncoding, out);
      case kBuiltinTuple: {
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> elements, Types());
        out = TupleType(std::move(elements));
        return absl::OkStatus();
      }
      case kBuiltinUnrankedTensor: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
        out =
            OtherType(absl::StrCat("tensor<*x", ElementSpelling(element), ">"));
        return absl::OkStatus();
      }
      default:
        return reader_.Error(absl::StrCat(
            "builtin type code ", code,
            " is not supported (memref and vector types do not occur in "
            "StableHLO artifacts)"));
    }
  }

  absl::Status Tensor(bool with_encoding, mlir::Type& out) {
    std::string encoding;
    if (with_encoding) {
      PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* attribute, Ref());
      if (attribute->kind == DecodedAttribute::Kind::kTypeExtensions) {
        std::string bounds;
        for (int64_t bound : attribute->integers) {
          if (!bounds.empty()) bounds += ", ";
          absl::StrAppend(&bounds, bound == std::numeric_limits<int64_t>::min()
                                       ? "?"
                                       : absl::StrCat(bound));
        }
        encoding =
            absl::StrCat("#stablehlo.type_extensions<bounds = [", bounds, "]>");
      } else {
        encoding = attribute->text;
      }
    }
    PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> shape, SignedVarInts());
    for (int64_t& dim : shape) {
      // ShapedType::kDynamic is INT64_MIN; the tree writes -1.
      if (dim < 0) dim = -1;
    }
    PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
    if (element.kind != mlir::Type::Kind::kScalar &&
        element.kind != mlir::Type::Kind::kOther) {
      return reader_.Error("tensor element type is not a scalar");
    }
    out = TensorType(std::move(shape), ElementSpelling(element),
                     std::move(encoding));
    return absl::OkStatus();
  }

  absl::Status VhloType(mlir::Type& out) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t code, reader_.ReadVarInt());
    for (const SimpleVhloType& simple : kSimpleVhloTypes) {
      if (simple.code == code) {
        out = ScalarType(simple.element);
        return absl::OkStatus();
      }
    }
    switch (code) {
      case kVhloComplexType: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
        out =
            ScalarType(absl::StrCat("complex<", ElementSpelling(element), ">"));
        return absl::OkStatus();
      }
      case kVhloFunctionType: {
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> inputs, Types());
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> results, Types());
        out = FunctionType(std::move(inputs), std::move(results));
        return absl::OkStatus();
      }
      case kVhloRankedTensorType:
      case kVhloRankedTensorWithEncoding:
        return Tensor(code == kVhloRankedTensorWithEncoding, out);
      case kVhloTokenType:
        out = TokenType();
        return absl::OkStatus();
      case kVhloTupleType: {
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> elements, Types());
        out = TupleType(std::move(elements));
        return absl::OkStatus();
      }
      case kVhloUnrankedTensorType: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
        out =
            OtherType(absl::StrCat("tensor<*x", ElementSpelling(element), ">"));
        return absl::OkStatus();
      }
      case kVhloWitnessType:
        out = OtherType("!shape.witness");
        return absl::OkStatus();
      case kVhloRankedBufferType: {
        // memref<2xf32>: kept as text, as the text parser keeps it.
        PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> shape, SignedVarInts());
        PJRTX_ASSIGN_OR_RETURN(mlir::Type element, TypeRef());
        std::string text = "memref<";
        for (int64_t dim : shape) {
          absl::StrAppend(&text, dim < 0 ? "?" : absl::StrCat(dim), "x");
        }
        out = OtherType(absl::StrCat(text, ElementSpelling(element), ">"));
        return absl::OkStatus();
      }
      case kVhloFutureType: {
        PJRTX_ASSIGN_OR_RETURN(std::vector<mlir::Type> types, Types());
        std::string text = "!stablehlo.future<";
        for (size_t i = 0; i < types.size(); ++i) {
          absl::StrAppend(&text, i > 0 ? ", " : "", TypeText(types[i]));
        }
        out = OtherType(absl::StrCat(text, ">"));
        return absl::OkStatus();
      }
      case kVhloUniformQuantizedType:
      case kVhloUniformQuantizedPerAxisType:
        return Quantized(code == kVhloUniformQuantizedPerAxisType, out);
      default:
        return reader_.Error(absl::StrCat(
            "VHLO type code ", code,
            " is not supported (quantized, buffer and future types)"));
    }
  }

  absl::Status VhloAttribute(DecodedAttribute& out) {
    using Kind = DecodedAttribute::Kind;
    PJRTX_ASSIGN_OR_RETURN(uint64_t code, reader_.ReadVarInt());
    for (const EnumInfo& info : Enums()) {
      if (info.code != code) continue;
      PJRTX_ASSIGN_OR_RETURN(uint64_t value, reader_.ReadVarInt());
      if (value >= info.cases.size() || info.cases[value][0] == '\0') {
        return reader_.Error(absl::StrCat("value ", value, " of enum ",
                                          info.name, " is not known"));
      }
      out.kind = Kind::kEnum;
      out.enum_name = info.name;
      out.text = info.cases[value];
      out.integer = static_cast<int64_t>(value);
      return absl::OkStatus();
    }
    switch (code) {
      case kVhloArray: {
        out.kind = Kind::kArray;
        PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("elements"));
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* element, Ref());
          out.weight += element->weight;
          out.elements.push_back(*element);
        }
        return absl::OkStatus();
      }
      case kVhloBoolean: {
        out.kind = Kind::kBool;
        PJRTX_ASSIGN_OR_RETURN(uint64_t value, reader_.ReadVarInt());
        out.integer = value != 0;
        return absl::OkStatus();
      }
      case kVhloDictionary: {
        out.kind = Kind::kDictionary;
        PJRTX_ASSIGN_OR_RETURN(uint64_t count, reader_.ReadCount("entries"));
        for (uint64_t i = 0; i < count; ++i) {
          PJRTX_ASSIGN_OR_RETURN(std::string name, StringAttribute());
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* value, Ref());
          out.weight += value->weight + name.size() / 8;
          out.entries.emplace_back(std::move(name), *value);
        }
        return absl::OkStatus();
      }
      case kVhloFloat: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type type, TypeRef());
        return Float(type, out);
      }
      case kVhloInteger: {
        PJRTX_ASSIGN_OR_RETURN(mlir::Type type, TypeRef());
        return Integer(type, out);
      }
      case kVhloOutputOperandAlias: {
        out.kind = Kind::kOutputOperandAlias;
        PJRTX_ASSIGN_OR_RETURN(out.integers, SignedVarInts());
        PJRTX_ASSIGN_OR_RETURN(out.integer, reader_.ReadSignedVarInt());
        PJRTX_ASSIGN_OR_RETURN(out.integers2, SignedVarInts());
        return absl::OkStatus();
      }
      case kVhloString: {
        out.kind = Kind::kString;
        PJRTX_ASSIGN_OR_RETURN(out.text, String());
        return absl::OkStatus();
      }
      case kVhloTensor:
        return VhloTensor(out);
      case kVhloType: {
        out.kind = Kind::kType;
        PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
        return absl::OkStatus();
      }
      case kVhloTypeExtensions: {
        out.kind = Kind::kTypeExtensions;
        PJRTX_ASSIGN_OR_RETURN(out.integers, SignedVarInts());
        return absl::OkStatus();
      }
      case kVhloResultAccuracy: {
        out.kind = Kind::kResultAccuracy;
        PJRTX_ASSIGN_OR_RETURN(uint64_t atol, ApInt(64));
        PJRTX_ASSIGN_OR_RETURN(uint64_t rtol, ApInt(64));
        out.real = FloatFromBits("f64", atol);
        out.real2 = FloatFromBits("f64", rtol);
        PJRTX_ASSIGN_OR_RETURN(out.integer, reader_.ReadSignedVarInt());
        PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* mode, Ref());
        out.text = mode->text;
        return absl::OkStatus();
      }
      case kVhloSubAxisInfo:
      case kVhloAxisRef:
      case kVhloReplicaGroupMeshAxes:
      case kVhloMeshAxis:
      case kVhloMesh:
        return MeshAttribute(code, out);
      default:
        return reader_.Error(
            absl::StrCat("VHLO attribute code ", code,
                         " is not supported (the newest this reader knows is ",
                         static_cast<uint64_t>(kVhloMesh), ")"));
    }
  }

  // A double as the quant dialect's printer writes scales: 34.0, 0.5.
  static std::string ScaleText(double value) {
    if (std::floor(value) == value && std::fabs(value) < 1e15) {
      return absl::StrCat(static_cast<int64_t>(value), ".0");
    }
    return absl::StrCat(value);
  }

  // !quant.uniform<i8:f32, 34.0:16> and the per-axis
  // !quant.uniform<i8:f32:0, {34.0:16, ...}>, spelled as the quant dialect
  // prints them: the tree keeps quantized element types as text.
  absl::Status Quantized(bool per_axis, mlir::Type& out) {
    PJRTX_ASSIGN_OR_RETURN(uint64_t flags, reader_.ReadVarInt());
    PJRTX_ASSIGN_OR_RETURN(mlir::Type storage, TypeRef());
    PJRTX_ASSIGN_OR_RETURN(mlir::Type expressed, TypeRef());
    const int width = BitWidth(storage.element);
    if (width <= 0 || width > 64) {
      return reader_.Error("quantized type with a non-integer storage type");
    }
    const bool is_signed = flags & 1;
    std::string text =
        absl::StrCat("!quant.uniform<", is_signed ? "i" : "u", width);
    auto min_max = [&](int64_t min, int64_t max) {
      const int64_t default_min = is_signed ? -(int64_t{1} << (width - 1)) : 0;
      const int64_t default_max =
          is_signed ? (int64_t{1} << (width - 1)) - 1
                    : static_cast<int64_t>((uint64_t{1} << width) - 1);
      if (width < 64 && (min != default_min || max != default_max)) {
        absl::StrAppend(&text, "<", min, ":", max, ">");
      }
    };
    auto scale_and_zero = [&](double scale, int64_t zero) {
      std::string item = ScaleText(scale);
      if (zero != 0) absl::StrAppend(&item, ":", zero);
      return item;
    };
    if (!per_axis) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t scale_bits, ApInt(64));
      PJRTX_ASSIGN_OR_RETURN(int64_t zero, reader_.ReadSignedVarInt());
      PJRTX_ASSIGN_OR_RETURN(int64_t min, reader_.ReadSignedVarInt());
      PJRTX_ASSIGN_OR_RETURN(int64_t max, reader_.ReadSignedVarInt());
      min_max(min, max);
      absl::StrAppend(&text, ":", ElementSpelling(expressed), ", ",
                      scale_and_zero(FloatFromBits("f64", scale_bits), zero),
                      ">");
      out = OtherType(std::move(text));
      return absl::OkStatus();
    }
    PJRTX_ASSIGN_OR_RETURN(uint64_t dimension, reader_.ReadVarInt());
    PJRTX_ASSIGN_OR_RETURN(int64_t min, reader_.ReadSignedVarInt());
    PJRTX_ASSIGN_OR_RETURN(int64_t max, reader_.ReadSignedVarInt());
    PJRTX_ASSIGN_OR_RETURN(uint64_t num_scales, reader_.ReadCount("scales"));
    std::vector<double> scales;
    for (uint64_t i = 0; i < num_scales; ++i) {
      PJRTX_ASSIGN_OR_RETURN(uint64_t bits, ApInt(64));
      scales.push_back(FloatFromBits("f64", bits));
    }
    PJRTX_ASSIGN_OR_RETURN(std::vector<int64_t> zeros, SignedVarInts());
    if (zeros.size() != scales.size()) {
      return reader_.Error("quantized type with unequal scales and zeros");
    }
    min_max(min, max);
    absl::StrAppend(&text, ":", ElementSpelling(expressed), ":", dimension,
                    ", {");
    for (size_t i = 0; i < scales.size(); ++i) {
      absl::StrAppend(&text, i > 0 ? ", " : "",
                      scale_and_zero(scales[i], zeros[i]));
    }
    absl::StrAppend(&text, "}>");
    out = OtherType(std::move(text));
    return absl::OkStatus();
  }

  // The mesh attributes of collectives (1.16 and later), as structs.
  absl::Status MeshAttribute(uint64_t code, DecodedAttribute& out) {
    out.kind = DecodedAttribute::Kind::kStruct;
    auto add_int = [&](const char* name) -> absl::Status {
      PJRTX_ASSIGN_OR_RETURN(int64_t value, reader_.ReadSignedVarInt());
      DecodedAttribute field;
      field.kind = DecodedAttribute::Kind::kInteger;
      field.integer = value;
      field.type = ScalarType("i64");
      out.entries.emplace_back(name, std::move(field));
      return absl::OkStatus();
    };
    auto add_ref = [&](const char* name) -> absl::Status {
      PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* value, Ref());
      out.weight += value->weight;
      out.entries.emplace_back(name, *value);
      return absl::OkStatus();
    };
    switch (code) {
      case kVhloSubAxisInfo:
        out.enum_name = "sub_axis_info";
        PJRTX_RETURN_IF_ERROR(add_int("pre_size"));
        return add_int("size");
      case kVhloAxisRef: {
        out.enum_name = "axis_ref";
        PJRTX_RETURN_IF_ERROR(add_ref("name"));
        PJRTX_ASSIGN_OR_RETURN(uint64_t has_sub_axis, reader_.ReadVarInt());
        if (has_sub_axis) return add_ref("sub_axis_info");
        return absl::OkStatus();
      }
      case kVhloReplicaGroupMeshAxes:
        out.enum_name = "replica_group_mesh_axes";
        PJRTX_RETURN_IF_ERROR(add_ref("mesh"));
        return add_ref("axes");
      case kVhloMeshAxis:
        out.enum_name = "mesh_axis";
        PJRTX_RETURN_IF_ERROR(add_ref("name"));
        return add_int("size");
      default: {
        out.enum_name = "mesh";
        PJRTX_RETURN_IF_ERROR(add_ref("axes"));
        uint64_t index = 0;
        bool present = false;
        PJRTX_RETURN_IF_ERROR(reader_.ReadVarIntWithFlag(&index, &present));
        if (present) {
          PJRTX_ASSIGN_OR_RETURN(const DecodedAttribute* ids,
                                 table_.Attribute(index));
          out.weight += ids->weight;
          out.entries.emplace_back("device_ids", *ids);
        }
        return absl::OkStatus();
      }
    }
  }

  // #vhlo.tensor_v1: raw little-endian bytes; i1 tensors are bit-packed,
  // and a single 0xFF byte is a splat of true.
  absl::Status VhloTensor(DecodedAttribute& out) {
    out.kind = DecodedAttribute::Kind::kTensor;
    PJRTX_ASSIGN_OR_RETURN(out.type, TypeRef());
    if (out.type.kind != mlir::Type::Kind::kTensor) {
      return reader_.Error("tensor attribute of a non-tensor type");
    }
    PJRTX_ASSIGN_OR_RETURN(out.data, Blob());
    if (out.type.element != "i1") return absl::OkStatus();
    const int64_t n = NumElements(out.type);
    if (n < 0) return reader_.Error("tensor attribute of a dynamic shape");
    const size_t packed = static_cast<size_t>((n + 7) / 8);
    if (out.data.size() == 1 && out.data[0] == 0xFF) {
      out.data = {1};
    } else if (out.data.size() == packed &&
               out.data.size() != static_cast<size_t>(n)) {
      std::vector<uint8_t> unpacked(n);
      for (int64_t i = 0; i < n; ++i) {
        unpacked[i] = (out.data[i / 8] >> (i % 8)) & 1;
      }
      out.data = std::move(unpacked);
    }
    return absl::OkStatus();
  }

  AttributeTable& table_;
  EncodingReader& reader_;
};

AttributeTable::AttributeTable(const BytecodeFile& file)
    : file_(file),
      attributes_(file.attributes.size()),
      types_(file.types.size()),
      attribute_busy_(file.attributes.size()),
      type_busy_(file.types.size()) {
  uint64_t bytes = 0;
  for (const AttrTypeEntry& entry : file.attributes) bytes += entry.data.size();
  budget_ = 64 * (file.attributes.size() + file.types.size()) + bytes +
            (uint64_t{1} << 22);
}

absl::Status AttributeTable::Spend(uint64_t weight,
                                   const EncodingReader& reader) {
  // Generous for real files (each entry is decoded once), but linear in
  // the input: sharing cannot blow it up.
  spent_ += weight;
  if (spent_ > budget_) {
    return reader.Error(
        "attributes and types expand beyond what the input justifies");
  }
  return absl::OkStatus();
}

std::shared_ptr<const std::string> AttributeTable::FileName(
    const DecodedAttribute& name) {
  std::shared_ptr<const std::string>& file = file_names_[&name];
  if (file == nullptr) file = std::make_shared<const std::string>(name.text);
  return file;
}

absl::StatusOr<const DecodedAttribute*> AttributeTable::ReadAttribute(
    EncodingReader& reader) {
  PJRTX_ASSIGN_OR_RETURN(uint64_t index, reader.ReadVarInt());
  if (index >= attributes_.size()) {
    return reader.Error(
        absl::StrCat("attribute index ", index, " out of range"));
  }
  return Attribute(index);
}

absl::StatusOr<const mlir::Type*> AttributeTable::ReadType(
    EncodingReader& reader) {
  PJRTX_ASSIGN_OR_RETURN(uint64_t index, reader.ReadVarInt());
  if (index >= types_.size()) {
    return reader.Error(absl::StrCat("type index ", index, " out of range"));
  }
  return Type(index);
}

absl::StatusOr<const DecodedAttribute*> AttributeTable::Attribute(
    uint64_t index) {
  if (index >= attributes_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("attribute index ", index, " out of range"));
  }
  if (attributes_[index] != nullptr) return attributes_[index].get();
  const AttrTypeEntry& entry = file_.attributes[index];
  EncodingReader reader(entry.data, entry.offset);
  if (attribute_busy_[index] || depth_ >= kMaxDepth) {
    return reader.Error("attribute refers to itself or nests too deeply");
  }
  auto decoded = std::make_unique<DecodedAttribute>();
  const std::string_view dialect = file_.dialects[entry.dialect].name;
  if (!entry.has_custom_encoding) {
    // The assembly-format fallback: the attribute's text.
    PJRTX_ASSIGN_OR_RETURN(std::string_view text, reader.ReadNulTerminated());
    decoded->kind = DecodedAttribute::Kind::kOpaque;
    decoded->dialect = std::string(dialect);
    decoded->text = std::string(text);
  } else {
    attribute_busy_[index] = true;
    ++depth_;
    Decoder decoder(*this, reader);
    absl::Status status = decoder.Attribute(dialect, *decoded);
    --depth_;
    attribute_busy_[index] = false;
    PJRTX_RETURN_IF_ERROR(status);
  }
  decoded->weight += (decoded->data.size() + decoded->text.size()) / 8;
  PJRTX_RETURN_IF_ERROR(Spend(decoded->weight, reader));
  attributes_[index] = std::move(decoded);
  return attributes_[index].get();
}

absl::StatusOr<const mlir::Type*> AttributeTable::Type(uint64_t index) {
  if (index >= types_.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("type index ", index, " out of range"));
  }
  if (types_[index] != nullptr) return types_[index].get();
  const AttrTypeEntry& entry = file_.types[index];
  EncodingReader reader(entry.data, entry.offset);
  if (type_busy_[index] || depth_ >= kMaxDepth) {
    return reader.Error("type refers to itself or nests too deeply");
  }
  auto decoded = std::make_unique<mlir::Type>();
  const std::string_view dialect = file_.dialects[entry.dialect].name;
  if (!entry.has_custom_encoding) {
    PJRTX_ASSIGN_OR_RETURN(std::string_view text, reader.ReadNulTerminated());
    *decoded = OtherType(std::string(text));
  } else {
    type_busy_[index] = true;
    ++depth_;
    Decoder decoder(*this, reader);
    absl::Status status = decoder.Type(dialect, *decoded);
    --depth_;
    type_busy_[index] = false;
    PJRTX_RETURN_IF_ERROR(status);
  }
  PJRTX_RETURN_IF_ERROR(Spend(1 + decoded->text.size() / 8, reader));
  types_[index] = std::move(decoded);
  return types_[index].get();
}

}  // namespace pjrtx::bytecode
