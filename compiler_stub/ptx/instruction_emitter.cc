#include "compiler_stub/ptx/instruction_emitter.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <map>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "compiler_stub/mlir/location_text.h"

namespace pjrtx::ptx {
namespace {

using ir::BinaryOp;
using ir::ElementType;
using ir::UnaryOp;

// log2(e) and ln(2) in f32: exp(x) = 2^(x log2 e), log(x) = log2(x) ln 2.
constexpr float kLog2E = 1.44269504f;
constexpr float kLn2 = 0.693147181f;

// cvt.rn.bf16.f32 came with sm_80 and PTX ISA 7.0.
constexpr int kBf16Sm = 80;
constexpr int kBf16Isa = 70;

bool IsNarrowFloat(ElementType type) {
  return type == ElementType::kF16 || type == ElementType::kBF16;
}

bool Is64Bit(ElementType type) { return ir::BitWidth(type) == 64; }

// Type suffixes of the instructions that compute on `type`.
std::string FloatSuffix(ElementType type) {
  return type == ElementType::kF64 ? "f64" : "f32";
}
std::string IntSuffix(ElementType type, bool is_signed) {
  return absl::StrCat(is_signed ? "s" : "u", Is64Bit(type) ? "64" : "32");
}
std::string BitsSuffix(ElementType type) {
  return Is64Bit(type) ? "b64" : "b32";
}

// The all-ones mask of the low `bits` bits (`bits` < 32).
std::string LowBitsMask(int bits) {
  return HexImmediate((uint64_t{1} << bits) - 1, 8);
}

absl::Status Unsupported(const ir::Instruction& instruction,
                         absl::string_view what) {
  return absl::UnimplementedError(absl::StrCat(
      mlir::LocationText(instruction.location), ": ", instruction.name, " ",
      what, " is not supported by the PTX emitter"));
}

// 0 and +-1 as immediates of the float type `suffix` ("f32" or "f64").
std::string Zero(absl::string_view suffix) {
  return suffix == "f64" ? F64Immediate(0.0) : F32Immediate(0.0f);
}
std::string One(absl::string_view suffix, bool negative) {
  const double one = negative ? -1.0 : 1.0;
  return suffix == "f64" ? F64Immediate(one)
                         : F32Immediate(static_cast<float>(one));
}

std::string On(ElementType type) {
  return absl::StrCat("on ", ir::ElementTypeToMlir(type));
}

}  // namespace

InstructionEmitter::InstructionEmitter(PtxBuilder& builder, int sm)
    : builder_(builder), sm_(sm) {}

absl::StatusOr<Register> InstructionEmitter::Emit(
    const ir::Instruction& instruction, const std::vector<Register>& operands) {
  const ElementType result = instruction.result_types[0].shape.type;
  for (const Register& operand : operands) {
    if (!RegisterClassFor(operand.type)) {
      return Unsupported(instruction, On(operand.type));
    }
  }
  if (!RegisterClassFor(result)) return Unsupported(instruction, On(result));
  // Widening bf16 is a shift; only rounding to it needs cvt.rn.bf16.f32.
  if (result == ElementType::kBF16 && sm_ < kBf16Sm) {
    return Unsupported(instruction, absl::StrCat("on bf16 for sm_", sm_,
                                                 " (needs sm_", kBf16Sm, ")"));
  }
  switch (instruction.opcode) {
    case ir::OpCode::kConstant:
      return Constant(instruction);
    case ir::OpCode::kBroadcastInDim:
      // Of one element (see FusedKernel): the value itself.
      return Register{operands[0].name, result};
    case ir::OpCode::kUnary:
      return Unary(instruction, operands[0]);
    case ir::OpCode::kBinary:
      return Binary(instruction, operands[0], operands[1]);
    case ir::OpCode::kCompare:
      return Compare(instruction, operands[0], operands[1]);
    case ir::OpCode::kSelect:
      return Select(operands[0], operands[1], operands[2]);
    case ir::OpCode::kClamp:
      // The spec's clamp(min, x, max) = minimum(maximum(x, min), max).
      return MaxMin(false, MaxMin(true, operands[1], operands[0]), operands[2]);
    case ir::OpCode::kFma:
      return Fma(instruction, operands[0], operands[1], operands[2]);
    case ir::OpCode::kConvert:
      return Convert(operands[0], result);
    case ir::OpCode::kReducePrecision:
      return ReducePrecision(instruction, operands[0]);
    default:
      return Unsupported(instruction, "(not elementwise)");
  }
}

absl::StatusOr<Register> InstructionEmitter::Constant(
    const ir::Instruction& instruction) {
  const ElementType type = instruction.result_types[0].shape.type;
  const std::vector<uint8_t>& bytes = instruction.attributes.constant;
  const size_t size = ir::StorageSize(type);
  if (bytes.size() < size) return Unsupported(instruction, "with no elements");
  // The first element (kernels only hold splats), little-endian as the
  // Literal layout stores it; 2- and 4-bit integers arrive extended.
  uint64_t bits = 0;
  std::memcpy(&bits, bytes.data(), size);
  if (ir::IsSignedInt(type) && size < 8) {
    const int shift = 64 - 8 * static_cast<int>(size);
    bits = static_cast<uint64_t>(static_cast<int64_t>(bits << shift) >> shift);
  }
  const std::string r = NewRegister(type);
  switch (type) {
    case ElementType::kPred:
      builder_.Emit("mov.pred", {r, bits != 0 ? "1" : "0"});
      break;
    case ElementType::kF16:
    case ElementType::kBF16:
      builder_.Emit("mov.b16", {r, HexImmediate(bits, 4)});
      break;
    case ElementType::kF32:
      builder_.Emit(
          "mov.f32",
          {r, F32Immediate(std::bit_cast<float>(static_cast<uint32_t>(bits)))});
      break;
    case ElementType::kF64:
      builder_.Emit("mov.f64", {r, F64Immediate(std::bit_cast<double>(bits))});
      break;
    default:
      if (Is64Bit(type)) {
        builder_.Emit("mov.b64", {r, HexImmediate(bits, 16)});
      } else {
        builder_.Emit("mov.b32", {r, HexImmediate(bits, 8)});
      }
  }
  return Register{r, type};
}

absl::StatusOr<Register> InstructionEmitter::Unary(
    const ir::Instruction& instruction, const Register& x) {
  const UnaryOp op = instruction.attributes.unary;
  const ElementType type = x.type;
  if (type == ElementType::kPred) {
    if (op != UnaryOp::kNot) return Unsupported(instruction, On(type));
    const std::string r = NewRegister(type);
    builder_.Emit("not.pred", {r, x.name});
    return Register{r, type};
  }
  if (ir::IsInteger(type)) {
    std::string opcode;
    switch (op) {
      case UnaryOp::kAbs:  // Only signed types; abs(MIN) wraps to MIN.
        opcode = absl::StrCat("abs.", IntSuffix(type, true));
        break;
      case UnaryOp::kNegate:
        opcode = absl::StrCat("neg.", IntSuffix(type, true));
        break;
      case UnaryOp::kNot:
        opcode = absl::StrCat("not.", BitsSuffix(type));
        break;
      case UnaryOp::kSign:
      case UnaryOp::kPopcnt:
      case UnaryOp::kCountLeadingZeros:
        return IntUnary(op, x);
      default:
        return Unsupported(instruction, On(type));
    }
    const std::string r = NewRegister(type);
    builder_.Emit(opcode, {r, x.name});
    return Register{Normalize(r, type), type};
  }
  // Exponential and log of the narrower types keep their fast f32
  // approximation below; everything else goes through f64.
  if (IsMathFunction(op) &&
      (type == ElementType::kF64 ||
       (op != UnaryOp::kExponential && op != UnaryOp::kLog))) {
    return FromF64(MathF64(op, ToF64(x)), type);
  }
  const std::string s = FloatSuffix(type);
  const std::string v = Widen(x);
  const std::string r = NewWideRegister(type);
  switch (op) {
    case UnaryOp::kAbs:
      builder_.Emit(absl::StrCat("abs.", s), {r, v});
      break;
    case UnaryOp::kNegate:
      builder_.Emit(absl::StrCat("neg.", s), {r, v});
      break;
    case UnaryOp::kSqrt:
      builder_.Emit(absl::StrCat("sqrt.rn.", s), {r, v});
      break;
    case UnaryOp::kRsqrt:
      if (type == ElementType::kF64) {
        // No accurate rsqrt.f64: two correctly rounded steps instead.
        const std::string root = NewWideRegister(type);
        builder_.Emit("sqrt.rn.f64", {root, v});
        builder_.Emit("rcp.rn.f64", {r, root});
      } else {
        builder_.Emit("rsqrt.approx.f32", {r, v});
      }
      break;
    case UnaryOp::kExponential:
    case UnaryOp::kLog: {
      const std::string t = NewWideRegister(type);
      if (op == UnaryOp::kExponential) {
        builder_.Emit("mul.rn.f32", {t, v, F32Immediate(kLog2E)});
        builder_.Emit("ex2.approx.f32", {r, t});
      } else {
        builder_.Emit("lg2.approx.f32", {t, v});
        builder_.Emit("mul.rn.f32", {r, t, F32Immediate(kLn2)});
      }
      break;
    }
    case UnaryOp::kFloor:
      builder_.Emit(absl::StrCat("cvt.rmi.", s, ".", s), {r, v});
      break;
    case UnaryOp::kCeil:
      builder_.Emit(absl::StrCat("cvt.rpi.", s, ".", s), {r, v});
      break;
    case UnaryOp::kRoundNearestEven:
      builder_.Emit(absl::StrCat("cvt.rni.", s, ".", s), {r, v});
      break;
    case UnaryOp::kRoundNearestAfz:
      return Narrow(RoundHalfAwayFromZero(v, type == ElementType::kF64
                                                 ? ElementType::kF64
                                                 : ElementType::kF32),
                    type);
    case UnaryOp::kIsFinite: {
      const std::string p = NewRegister(ElementType::kPred);
      builder_.Emit(absl::StrCat("testp.finite.", s), {p, v});
      return Register{p, ElementType::kPred};
    }
    case UnaryOp::kSign:
      return FloatSign(x);
    default:
      return Unsupported(instruction, On(type));
  }
  return Narrow(r, type);
}

absl::StatusOr<Register> InstructionEmitter::Binary(
    const ir::Instruction& instruction, const Register& a, const Register& b) {
  const BinaryOp op = instruction.attributes.binary;
  const ElementType type = a.type;
  if (op == BinaryOp::kMaximum || op == BinaryOp::kMinimum) {
    return MaxMin(op == BinaryOp::kMaximum, a, b);
  }
  if (type == ElementType::kPred) {
    // Booleans: add is OR and multiply is AND, as on the CPU.
    const char* opcode = nullptr;
    switch (op) {
      case BinaryOp::kAdd:
      case BinaryOp::kOr:
        opcode = "or.pred";
        break;
      case BinaryOp::kAnd:
      case BinaryOp::kMultiply:
        opcode = "and.pred";
        break;
      case BinaryOp::kXor:
        opcode = "xor.pred";
        break;
      default:
        return Unsupported(instruction, On(type));
    }
    const std::string r = NewRegister(type);
    builder_.Emit(opcode, {r, a.name, b.name});
    return Register{r, type};
  }
  if (ir::IsInteger(type)) {
    const int bits = ir::BitWidth(type);
    const bool is_signed = ir::IsSignedInt(type);
    const std::string r = NewRegister(type);
    switch (op) {
      case BinaryOp::kAdd:
        builder_.Emit(absl::StrCat("add.", IntSuffix(type, is_signed)),
                      {r, a.name, b.name});
        break;
      case BinaryOp::kSubtract:
        builder_.Emit(absl::StrCat("sub.", IntSuffix(type, is_signed)),
                      {r, a.name, b.name});
        break;
      case BinaryOp::kMultiply:
        builder_.Emit(absl::StrCat("mul.lo.", IntSuffix(type, is_signed)),
                      {r, a.name, b.name});
        break;
      case BinaryOp::kAnd:
      case BinaryOp::kOr:
      case BinaryOp::kXor: {
        // Extended operands give an extended result: no Normalize.
        const char* name = op == BinaryOp::kAnd  ? "and."
                           : op == BinaryOp::kOr ? "or."
                                                 : "xor.";
        builder_.Emit(absl::StrCat(name, BitsSuffix(type)),
                      {r, a.name, b.name});
        return Register{r, type};
      }
      case BinaryOp::kShiftLeft:
        builder_.Emit(absl::StrCat("shl.", BitsSuffix(type)),
                      {r, a.name, ShiftAmount(b.name, type)});
        break;
      case BinaryOp::kShiftRightArithmetic: {
        // Shifts the two's complement pattern, for unsigned types too.
        const std::string x =
            !is_signed && bits < 32 ? Extend(a.name, bits, true) : a.name;
        builder_.Emit(absl::StrCat("shr.", IntSuffix(type, true)),
                      {r, x, ShiftAmount(b.name, type)});
        break;
      }
      case BinaryOp::kShiftRightLogical: {
        const std::string x =
            is_signed && bits < 32 ? Extend(a.name, bits, false) : a.name;
        builder_.Emit(absl::StrCat("shr.", IntSuffix(type, false)),
                      {r, x, ShiftAmount(b.name, type)});
        break;
      }
      case BinaryOp::kDivide:
      case BinaryOp::kRemainder:
        return IntDivide(op == BinaryOp::kRemainder, a, b);
      case BinaryOp::kPower:
        return IntPower(a, b);
      default:
        return Unsupported(instruction, On(type));
    }
    return Register{Normalize(r, type), type};
  }
  const char* opcode = nullptr;
  switch (op) {
    case BinaryOp::kAdd:
      opcode = "add.rn.";
      break;
    case BinaryOp::kSubtract:
      opcode = "sub.rn.";
      break;
    case BinaryOp::kMultiply:
      opcode = "mul.rn.";
      break;
    case BinaryOp::kDivide:
      opcode = "div.rn.";
      break;
    case BinaryOp::kPower:
      return FromF64(PowerF64(ToF64(a), ToF64(b)), type);
    case BinaryOp::kAtan2:
      return FromF64(Atan2F64(ToF64(a), ToF64(b)), type);
    case BinaryOp::kRemainder:
      // Exact in f64 for every float type, so rounding back is exact too.
      return FromF64(RemainderF64(ToF64(a), ToF64(b)), type);
    default:
      return Unsupported(instruction, On(type));
  }
  // .rn also keeps ptxas from contracting a multiply and an add into an
  // fma, which would round once where the program rounds twice.
  const std::string x = Widen(a);
  const std::string y = Widen(b);
  const std::string r = NewWideRegister(type);
  builder_.Emit(absl::StrCat(opcode, FloatSuffix(type)), {r, x, y});
  return Narrow(r, type);
}

absl::StatusOr<Register> InstructionEmitter::Fma(
    const ir::Instruction& instruction, const Register& a, const Register& b,
    const Register& c) {
  const ElementType type = b.type;
  if (type == ElementType::kF32 || type == ElementType::kF64) {
    const std::string r = NewRegister(type);
    builder_.Emit(absl::StrCat("fma.rn.", FloatSuffix(type)),
                  {r, a.name, b.name, c.name});
    return Register{r, type};
  }
  if (!IsNarrowFloat(type)) return Unsupported(instruction, On(type));
  // f16 and bf16: the product is exact in f64, and the sum is rounded to
  // odd there (truncated, lowest bit set when inexact, which TwoSum's
  // error term tells), so that FromF64's further roundings give the one
  // rounding fma asks for. Rounding the sum to nearest in f64 could lose
  // a tiny addend that decides a tie of the narrow type.
  const std::string x = ToF64(a), y = ToF64(b), z = ToF64(c);
  const std::string product = F64Op("mul.rn.f64", {x, y});
  const std::string sum = F64Op("add.rn.f64", {product, z});
  const std::string z_part = F64Op("sub.rn.f64", {sum, product});
  const std::string error =
      F64Op("add.rn.f64",
            {F64Op("sub.rn.f64", {product, F64Op("sub.rn.f64", {sum, z_part})}),
             F64Op("sub.rn.f64", {z, z_part})});
  const std::string truncated = F64Op("add.rz.f64", {product, z});
  const std::string odd = F64Op("or.b64", {truncated, "1"});
  const std::string inexact = PredOp("setp.ne.f64", {error, F64Immediate(0.0)});
  return FromF64(F64Op("selp.f64", {odd, truncated, inexact}), type);
}

absl::StatusOr<Register> InstructionEmitter::Compare(
    const ir::Instruction& instruction, const Register& a, const Register& b) {
  const ir::ComparisonType comparison = instruction.attributes.comparison_type;
  const ElementType type = a.type;
  if (comparison == ir::ComparisonType::kTotalOrder && ir::IsFloat(type)) {
    return TotalOrderCompare(instruction.attributes.comparison, a, b);
  }
  const bool is_float = ir::IsFloat(type);
  const char* direction = "";
  switch (instruction.attributes.comparison) {
    case ir::ComparisonDirection::kEq:
      direction = "eq";
      break;
    case ir::ComparisonDirection::kNe:
      direction = is_float ? "neu" : "ne";  // NaN != x holds.
      break;
    case ir::ComparisonDirection::kGe:
      direction = "ge";
      break;
    case ir::ComparisonDirection::kGt:
      direction = "gt";
      break;
    case ir::ComparisonDirection::kLe:
      direction = "le";
      break;
    case ir::ComparisonDirection::kLt:
      direction = "lt";
      break;
  }
  std::string suffix;
  std::string x = a.name;
  std::string y = b.name;
  if (is_float) {
    suffix = FloatSuffix(type);
    x = Widen(a);
    y = Widen(b);
  } else if (type == ElementType::kPred) {
    // setp has no .pred form; false < true as 0 < 1.
    suffix = "u32";
    for (std::string* operand : {&x, &y}) {
      const std::string value = NewRegister(ElementType::kU32);
      builder_.Emit("selp.u32", {value, "1", "0", *operand});
      *operand = value;
    }
  } else {
    const bool is_signed =
        comparison == ir::ComparisonType::kSigned ||
        (comparison != ir::ComparisonType::kUnsigned && ir::IsSignedInt(type));
    const int bits = ir::BitWidth(type);
    if (bits < 32 && is_signed != ir::IsSignedInt(type)) {
      x = Extend(x, bits, is_signed);
      y = Extend(y, bits, is_signed);
    }
    suffix = IntSuffix(type, is_signed);
  }
  if (is_float && comparison == ir::ComparisonType::kWeakOrder) {
    return WeakOrderCompare(direction, suffix, x, y);
  }
  const std::string p = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.", direction, ".", suffix), {p, x, y});
  return Register{p, ElementType::kPred};
}

Register InstructionEmitter::Select(const Register& predicate,
                                    const Register& on_true,
                                    const Register& on_false) {
  const ElementType type = on_true.type;
  const std::string r = NewRegister(type);
  if (type == ElementType::kPred) {
    // selp has no .pred form.
    builder_.Emit(absl::StrCat("@", predicate.name, " mov.pred"),
                  {r, on_true.name});
    builder_.Emit(absl::StrCat("@!", predicate.name, " mov.pred"),
                  {r, on_false.name});
  } else {
    const std::string suffix = IsNarrowFloat(type) ? "b16"
                               : ir::IsFloat(type) ? FloatSuffix(type)
                                                   : BitsSuffix(type);
    builder_.Emit(absl::StrCat("selp.", suffix),
                  {r, on_true.name, on_false.name, predicate.name});
  }
  return Register{r, type};
}

Register InstructionEmitter::MaxMin(bool maximum, const Register& a,
                                    const Register& b) {
  const ElementType type = a.type;
  if (type == ElementType::kPred) {
    const std::string r = NewRegister(type);
    builder_.Emit(maximum ? "or.pred" : "and.pred", {r, a.name, b.name});
    return Register{r, type};
  }
  const char* name = maximum ? "max." : "min.";
  if (ir::IsInteger(type)) {
    const std::string r = NewRegister(type);
    builder_.Emit(absl::StrCat(name, IntSuffix(type, ir::IsSignedInt(type))),
                  {r, a.name, b.name});
    return Register{r, type};
  }
  // max/min.f32 and .f64 return the number when one operand is NaN;
  // StableHLO wants the NaN, and -0 < +0, which this does not leave to how
  // the hardware orders zeros. So: a NaN operand selects a + b (a NaN), and
  // equal operands select their bitwise AND for maximum (+0 if either is
  // +0) or OR for minimum (-0 if either is -0); equal nonzero values are
  // bitwise equal.
  const std::string s = FloatSuffix(type);
  const std::string x = Widen(a);
  const std::string y = Widen(b);
  const std::string m = NewWideRegister(type);
  builder_.Emit(absl::StrCat(name, s), {m, x, y});
  const std::string any_nan = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.nan.", s), {any_nan, x, y});
  const std::string sum = NewWideRegister(type);
  builder_.Emit(absl::StrCat("add.rn.", s), {sum, x, y});
  const std::string m_or_nan = NewWideRegister(type);
  builder_.Emit(absl::StrCat("selp.", s), {m_or_nan, sum, m, any_nan});
  const std::string equal = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.eq.", s), {equal, x, y});
  const std::string bits = NewWideRegister(type);
  const std::string bits_type = type == ElementType::kF64 ? "b64" : "b32";
  builder_.Emit(absl::StrCat(maximum ? "and." : "or.", bits_type),
                {bits, x, y});
  const std::string r = NewWideRegister(type);
  builder_.Emit(absl::StrCat("selp.", s), {r, bits, m_or_nan, equal});
  return Narrow(r, type);
}

Register InstructionEmitter::Convert(const Register& x, ElementType to) {
  const ElementType from = x.type;
  if (from == to) return x;
  if (to == ElementType::kPred) {
    const std::string p = NewRegister(to);
    if (ir::IsFloat(from)) {
      // neu: NaN is nonzero, so true; -0 is zero.
      const std::string zero =
          from == ElementType::kF64 ? F64Immediate(0) : F32Immediate(0);
      builder_.Emit(absl::StrCat("setp.neu.", FloatSuffix(from)),
                    {p, Widen(x), zero});
    } else {
      builder_.Emit(absl::StrCat("setp.ne.", IntSuffix(from, false)),
                    {p, x.name, "0"});
    }
    return Register{p, to};
  }
  if (from == ElementType::kPred) {
    if (ir::IsFloat(to)) {
      const std::string r = NewWideRegister(to);
      if (to == ElementType::kF64) {
        builder_.Emit("selp.f64",
                      {r, F64Immediate(1), F64Immediate(0), x.name});
      } else {
        builder_.Emit("selp.f32",
                      {r, F32Immediate(1), F32Immediate(0), x.name});
      }
      return Narrow(r, to);
    }
    const std::string r = NewRegister(to);
    builder_.Emit(absl::StrCat("selp.", IntSuffix(to, false)),
                  {r, "1", "0", x.name});
    return Register{r, to};
  }
  if (ir::IsFloat(to)) {
    if (IsNarrowFloat(to) &&
        (from == ElementType::kF64 || ir::IsInteger(from))) {
      return Narrow(RoundToOddF32(x), to);
    }
    if (ir::IsFloat(from) && to != ElementType::kF64 &&
        from != ElementType::kF64) {
      return Narrow(Widen(x), to);  // Widening is exact.
    }
    const std::string r = NewWideRegister(to);
    const std::string source = ir::IsFloat(from)
                                   ? FloatSuffix(from)
                                   : IntSuffix(from, ir::IsSignedInt(from));
    // f32 -> f64 is exact and takes no rounding modifier.
    const std::string rounding =
        from == ElementType::kF32 || IsNarrowFloat(from) ? "" : ".rn";
    builder_.Emit(
        absl::StrCat("cvt", rounding, ".", FloatSuffix(to), ".", source),
        {r, ir::IsFloat(from) ? Widen(x) : x.name});
    return Register{r, to};
  }
  const int bits = ir::BitWidth(to);
  const bool is_signed = ir::IsSignedInt(to);
  if (ir::IsFloat(from)) {
    // cvt.rzi to an integer type truncates, saturates and maps NaN to 0;
    // narrower targets clamp the 32-bit result to their range.
    const std::string v = Widen(x);
    const std::string s = FloatSuffix(from);
    const std::string r = NewRegister(to);
    builder_.Emit(absl::StrCat("cvt.rzi.", IntSuffix(to, is_signed), ".", s),
                  {r, v});
    if (bits >= 32) return Register{r, to};
    const std::string clamped = NewRegister(to);
    if (is_signed) {
      const std::string low = NewRegister(to);
      builder_.Emit("max.s32",
                    {low, r, absl::StrCat(-(int64_t{1} << (bits - 1)))});
      builder_.Emit("min.s32", {clamped, low,
                                absl::StrCat((int64_t{1} << (bits - 1)) - 1)});
    } else {
      builder_.Emit("min.u32",
                    {clamped, r, absl::StrCat((int64_t{1} << bits) - 1)});
    }
    return Register{clamped, to};
  }
  // Integer to integer wraps: keep the low bits, extended as `to` says.
  const int from_bits = ir::BitWidth(from);
  std::string value = x.name;
  if (from_bits <= 32 && bits == 64) {
    value = NewRegister(to);
    const bool from_signed = ir::IsSignedInt(from);
    builder_.Emit(absl::StrCat("cvt.", IntSuffix(to, from_signed), ".",
                               IntSuffix(from, from_signed)),
                  {value, x.name});
  } else if (from_bits == 64 && bits <= 32) {
    value = NewRegister(to);
    builder_.Emit("cvt.u32.u64", {value, x.name});
  }
  return Register{Normalize(value, to), to};
}

std::string InstructionEmitter::Widen(const Register& x) {
  switch (x.type) {
    case ElementType::kF16: {
      const std::string r = NewWideRegister(x.type);
      builder_.Emit("cvt.f32.f16", {r, x.name});
      return r;
    }
    case ElementType::kBF16: {
      // bf16 is the high half of an f32.
      const std::string wide = NewRegister(ElementType::kU32);
      builder_.Emit("cvt.u32.u16", {wide, x.name});
      const std::string shifted = NewRegister(ElementType::kU32);
      builder_.Emit("shl.b32", {shifted, wide, "16"});
      const std::string r = NewWideRegister(x.type);
      builder_.Emit("mov.b32", {r, shifted});
      return r;
    }
    default:
      return x.name;
  }
}

Register InstructionEmitter::Narrow(const std::string& wide, ElementType type) {
  if (!IsNarrowFloat(type)) return Register{wide, type};
  const std::string r = NewRegister(type);
  if (type == ElementType::kBF16) {
    builder_.Emit("cvt.rn.bf16.f32", {r, wide});
    required_isa_ = std::max(required_isa_, kBf16Isa);
  } else {
    builder_.Emit("cvt.rn.f16.f32", {r, wide});
  }
  return Register{r, type};
}

std::string InstructionEmitter::RoundToOddF32(const Register& wide) {
  const std::string truncated = NewRegister(ElementType::kF32);
  const std::string inexact = NewRegister(ElementType::kPred);
  if (wide.type == ElementType::kF64) {
    builder_.Emit("cvt.rz.f32.f64", {truncated, wide.name});
    const std::string back = NewRegister(ElementType::kF64);
    builder_.Emit("cvt.f64.f32", {back, truncated});
    builder_.Emit("setp.neu.f64", {inexact, back, wide.name});
  } else {
    const std::string type = IntSuffix(wide.type, ir::IsSignedInt(wide.type));
    builder_.Emit(absl::StrCat("cvt.rz.f32.", type), {truncated, wide.name});
    const std::string back = NewRegister(wide.type);
    builder_.Emit(absl::StrCat("cvt.rzi.", type, ".f32"), {back, truncated});
    builder_.Emit(absl::StrCat("setp.ne.", type), {inexact, back, wide.name});
  }
  const std::string odd = NewRegister(ElementType::kF32);
  builder_.Emit("or.b32", {odd, truncated, "1"});
  const std::string r = NewRegister(ElementType::kF32);
  builder_.Emit("selp.f32", {r, odd, truncated, inexact});
  return r;
}

Register InstructionEmitter::IntDivide(bool remainder, const Register& a,
                                       const Register& b) {
  const ElementType type = a.type;
  const bool is_signed = ir::IsSignedInt(type);
  const std::string t = IntSuffix(type, is_signed);
  // The divisor the hardware sees is 1 where the result is fixed anyway.
  const std::string by_zero = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.eq.", t), {by_zero, b.name, "0"});
  std::string fixed = by_zero;
  std::string by_minus_one;
  if (is_signed) {
    by_minus_one = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.eq.", t), {by_minus_one, b.name, "-1"});
    fixed = NewRegister(ElementType::kPred);
    builder_.Emit("or.pred", {fixed, by_zero, by_minus_one});
  }
  const std::string divisor = NewRegister(type);
  builder_.Emit(absl::StrCat("selp.", t), {divisor, "1", b.name, fixed});
  std::string r = NewRegister(type);
  builder_.Emit(absl::StrCat(remainder ? "rem." : "div.", t),
                {r, a.name, divisor});
  if (is_signed) {
    std::string when_minus_one = "0";
    if (!remainder) {
      when_minus_one = NewRegister(type);
      builder_.Emit(absl::StrCat("neg.", t), {when_minus_one, a.name});
    }
    const std::string q = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t),
                  {q, when_minus_one, r, by_minus_one});
    r = q;
  }
  const std::string when_zero =
      remainder
          ? a.name
          : (is_signed ? std::string("-1")
                       : HexImmediate(~uint64_t{0}, Is64Bit(type) ? 16 : 8));
  const std::string q = NewRegister(type);
  builder_.Emit(absl::StrCat("selp.", t), {q, when_zero, r, by_zero});
  return Register{Normalize(q, type), type};
}

Register InstructionEmitter::IntPower(const Register& base,
                                      const Register& exponent) {
  const ElementType type = base.type;
  const bool is_signed = ir::IsSignedInt(type);
  const std::string t = IntSuffix(type, is_signed);
  const std::string u = IntSuffix(type, false);
  const std::string b = BitsSuffix(type);
  std::string result = NewRegister(type);
  builder_.Emit(absl::StrCat("mov.", b), {result, "1"});
  std::string square = base.name;
  std::string rest = exponent.name;
  // Narrow types hold their exponent extended: its own bits suffice for a
  // non-negative one.
  const int bits = ir::BitWidth(type);
  for (int i = 0; i < bits; ++i) {
    const std::string bit = NewRegister(type);
    builder_.Emit(absl::StrCat("and.", b), {bit, rest, "1"});
    const std::string odd = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.ne.", u), {odd, bit, "0"});
    const std::string product = NewRegister(type);
    builder_.Emit(absl::StrCat("mul.lo.", t), {product, result, square});
    const std::string next = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {next, product, result, odd});
    result = next;
    if (i + 1 == bits) break;
    const std::string squared = NewRegister(type);
    builder_.Emit(absl::StrCat("mul.lo.", t), {squared, square, square});
    square = squared;
    const std::string shifted = NewRegister(type);
    builder_.Emit(absl::StrCat("shr.", u), {shifted, rest, "1"});
    rest = shifted;
  }
  if (is_signed) {
    // A negative exponent: 1 for base 1, +-1 for base -1, else 0.
    const std::string negative = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.lt.", t), {negative, exponent.name, "0"});
    const std::string odd_bit = NewRegister(type);
    builder_.Emit(absl::StrCat("and.", b), {odd_bit, exponent.name, "1"});
    const std::string odd = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.ne.", t), {odd, odd_bit, "0"});
    const std::string of_minus_one = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {of_minus_one, "-1", "1", odd});
    const std::string is_minus_one = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.eq.", t), {is_minus_one, base.name, "-1"});
    const std::string is_one = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.eq.", t), {is_one, base.name, "1"});
    const std::string small = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t),
                  {small, of_minus_one, "0", is_minus_one});
    const std::string fraction = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {fraction, "1", small, is_one});
    const std::string r = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {r, fraction, result, negative});
    result = r;
  }
  return Register{Normalize(result, type), type};
}

Register InstructionEmitter::IntUnary(UnaryOp op, const Register& x) {
  const ElementType type = x.type;
  const bool is_signed = ir::IsSignedInt(type);
  const std::string t = IntSuffix(type, is_signed);
  const int bits = ir::BitWidth(type);
  if (op == UnaryOp::kSign) {
    // Of signed types only (the checker rejects unsigned ones).
    const std::string positive = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.gt.", t), {positive, x.name, "0"});
    const std::string zero_or_one = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {zero_or_one, "1", "0", positive});
    const std::string negative = NewRegister(ElementType::kPred);
    builder_.Emit(absl::StrCat("setp.lt.", t), {negative, x.name, "0"});
    const std::string r = NewRegister(type);
    builder_.Emit(absl::StrCat("selp.", t), {r, "-1", zero_or_one, negative});
    return Register{Normalize(r, type), type};
  }
  // Counted over the type's own bits: narrow values are extended in their
  // registers, so they count from their zero-extended form.
  const std::string value = bits < 32 ? Extend(x.name, bits, false) : x.name;
  const std::string count = NewRegister(ElementType::kU32);
  builder_.Emit(
      absl::StrCat(op == UnaryOp::kPopcnt ? "popc." : "clz.", BitsSuffix(type)),
      {count, value});
  std::string r = count;
  if (op == UnaryOp::kCountLeadingZeros && bits < 32) {
    r = NewRegister(ElementType::kU32);
    builder_.Emit("sub.u32", {r, count, absl::StrCat(32 - bits)});
  }
  if (Is64Bit(type)) {
    const std::string wide = NewRegister(type);
    builder_.Emit("cvt.u64.u32", {wide, r});
    r = wide;
  }
  return Register{Normalize(r, type), type};
}

absl::StatusOr<Register> InstructionEmitter::ReducePrecision(
    const ir::Instruction& instruction, const Register& x) {
  int exponent = 0, mantissa = 0;
  switch (x.type) {
    case ElementType::kF16:
      exponent = 5, mantissa = 10;
      break;
    case ElementType::kBF16:
      exponent = 8, mantissa = 7;
      break;
    case ElementType::kF32:
      exponent = 8, mantissa = 23;
      break;
    case ElementType::kF64:
      exponent = 11, mantissa = 52;
      break;
    default:
      return Unsupported(instruction, On(x.type));
  }
  const int exponent_bits = std::max(instruction.attributes.exponent_bits, 1);
  const int mantissa_bits = std::max(instruction.attributes.mantissa_bits, 0);
  const int width = 1 + exponent + mantissa;
  auto mask = [](int bits) {
    return bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  };
  auto hex = [](uint64_t value) { return HexImmediate(value, 16); };
  const uint64_t sign_mask = uint64_t{1} << (width - 1);
  const uint64_t exponent_mask = mask(exponent) << mantissa;
  auto b64 = [&] { return NewRegister(ElementType::kU64); };
  // The bits, zero-extended to 64.
  std::string bits = b64();
  switch (x.type) {
    case ElementType::kF64:
      builder_.Emit("mov.b64", {bits, x.name});
      break;
    case ElementType::kF32: {
      const std::string word = NewRegister(ElementType::kU32);
      builder_.Emit("mov.b32", {word, x.name});
      builder_.Emit("cvt.u64.u32", {bits, word});
      break;
    }
    default:
      builder_.Emit("cvt.u64.u16", {bits, x.name});
  }
  std::string value = bits;
  if (mantissa_bits < mantissa) {
    // Adding just under half an ulp, plus one if the last kept bit is odd,
    // rounds to nearest with ties to even.
    const int dropped = mantissa - mantissa_bits;
    const uint64_t last_kept = uint64_t{1} << dropped;
    const std::string shifted = b64();
    builder_.Emit("shr.u64", {shifted, value, absl::StrCat(dropped)});
    const std::string odd = b64();
    builder_.Emit("and.b64", {odd, shifted, "1"});
    const std::string bias = b64();
    builder_.Emit("add.u64", {bias, odd, hex((last_kept >> 1) - 1)});
    const std::string sum = b64();
    builder_.Emit("add.u64", {sum, value, bias});
    const std::string rounded = b64();
    builder_.Emit("and.b64",
                  {rounded, sum, hex(~(last_kept - 1) & mask(width))});
    value = rounded;
  }
  if (exponent_bits < exponent) {
    // Beyond the reduced range: infinity (keeping the sign) or zero.
    const uint64_t bias = mask(exponent - 1);
    const uint64_t reduced_bias = mask(exponent_bits - 1);
    const std::string field = b64();
    builder_.Emit("and.b64", {field, value, hex(exponent_mask)});
    const std::string sign = b64();
    builder_.Emit("and.b64", {sign, value, hex(sign_mask)});
    const std::string infinity = b64();
    builder_.Emit("or.b64", {infinity, sign, hex(exponent_mask)});
    const std::string overflow = NewRegister(ElementType::kPred);
    builder_.Emit("setp.gt.u64",
                  {overflow, field, hex((bias + reduced_bias) << mantissa)});
    const std::string underflow = NewRegister(ElementType::kPred);
    builder_.Emit("setp.le.u64",
                  {underflow, field, hex((bias - reduced_bias) << mantissa)});
    const std::string flushed = b64();
    builder_.Emit("selp.b64", {flushed, sign, value, underflow});
    const std::string clamped = b64();
    builder_.Emit("selp.b64", {clamped, infinity, flushed, overflow});
    value = clamped;
  }
  // A NaN stays as it was; without mantissa bits it becomes +inf.
  const std::string field = b64();
  builder_.Emit("and.b64", {field, bits, hex(exponent_mask)});
  const std::string all_ones = NewRegister(ElementType::kPred);
  builder_.Emit("setp.eq.u64", {all_ones, field, hex(exponent_mask)});
  const std::string payload = b64();
  builder_.Emit("and.b64", {payload, bits, hex(mask(mantissa))});
  const std::string has_payload = NewRegister(ElementType::kPred);
  builder_.Emit("setp.ne.u64", {has_payload, payload, "0"});
  const std::string nan = NewRegister(ElementType::kPred);
  builder_.Emit("and.pred", {nan, all_ones, has_payload});
  const std::string result = b64();
  builder_.Emit(
      "selp.b64",
      {result, mantissa_bits > 0 ? bits : hex(exponent_mask), value, nan});
  const std::string r = NewRegister(x.type);
  switch (x.type) {
    case ElementType::kF64:
      builder_.Emit("mov.b64", {r, result});
      break;
    case ElementType::kF32: {
      const std::string word = NewRegister(ElementType::kU32);
      builder_.Emit("cvt.u32.u64", {word, result});
      builder_.Emit("mov.b32", {r, word});
      break;
    }
    default:
      builder_.Emit("cvt.u16.u64", {r, result});
  }
  return Register{r, x.type};
}

Register InstructionEmitter::FloatSign(const Register& x) {
  const std::string s = FloatSuffix(x.type);
  const std::string v = Widen(x);
  const std::string positive = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.gt.", s), {positive, v, Zero(s)});
  const std::string one = NewWideRegister(x.type);
  builder_.Emit(absl::StrCat("selp.", s),
                {one, One(s, false), One(s, true), positive});
  // equ: equal or unordered, so zeros (of either sign) and NaN stay.
  const std::string keep = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.equ.", s), {keep, v, Zero(s)});
  const std::string r = NewWideRegister(x.type);
  builder_.Emit(absl::StrCat("selp.", s), {r, v, one, keep});
  return Narrow(r, x.type);
}

std::string InstructionEmitter::Normalize(const std::string& value,
                                          ElementType type) {
  const int bits = ir::BitWidth(type);
  return bits >= 32 ? value : Extend(value, bits, ir::IsSignedInt(type));
}

// IEEE 754 totalOrder (-NaN < -Inf < ... < -0 < +0 < ... < +Inf < +NaN)
// as a signed comparison of keys, as the CPU compares: a float's bits,
// with the magnitude bits flipped where the sign is set.
Register InstructionEmitter::WeakOrderCompare(const std::string& direction,
                                              const std::string& suffix,
                                              const std::string& x,
                                              const std::string& y) {
  // Keys (is NaN, value or 0 for NaN) compared in turn: every NaN equal to
  // every other and above +inf; -0 == +0 as IEEE compares them.
  const std::string zero =
      suffix == "f64" ? F64Immediate(0.0) : std::string("0f00000000");
  auto flag = [&](const std::string& nan) {
    const std::string r = NewRegister(ElementType::kU32);
    builder_.Emit("selp.u32", {r, "1", "0", nan});
    return r;
  };
  auto value = [&](const std::string& v, const std::string& nan) {
    const std::string r =
        NewRegister(suffix == "f64" ? ElementType::kF64 : ElementType::kF32);
    builder_.Emit(absl::StrCat("selp.", suffix), {r, zero, v, nan});
    return r;
  };
  const std::string nan_x = PredOp(absl::StrCat("setp.nan.", suffix), {x, x});
  const std::string nan_y = PredOp(absl::StrCat("setp.nan.", suffix), {y, y});
  const std::string flag_x = flag(nan_x), flag_y = flag(nan_y);
  // No NaN is left in the values: the unordered "neu" and "ne" agree.
  const std::string ordered = direction == "neu" ? "ne" : direction;
  const std::string by_flag =
      PredOp(absl::StrCat("setp.", ordered, ".u32"), {flag_x, flag_y});
  const std::string by_value =
      PredOp(absl::StrCat("setp.", ordered, ".", suffix),
             {value(x, nan_x), value(y, nan_y)});
  const std::string flags_differ = PredOp("setp.ne.u32", {flag_x, flag_y});
  const std::string r = PredOp(
      "or.pred",
      {PredOp("and.pred", {flags_differ, by_flag}),
       PredOp("and.pred", {PredOp("not.pred", {flags_differ}), by_value})});
  return Register{r, ElementType::kPred};
}

Register InstructionEmitter::TotalOrderCompare(
    ir::ComparisonDirection direction, const Register& a, const Register& b) {
  const int bits = ir::BitWidth(a.type);
  const bool wide = bits == 64;
  const ElementType key_type = wide ? ElementType::kS64 : ElementType::kS32;
  const std::string width = wide ? "64" : "32";
  auto key = [&](const Register& x) {
    const std::string v = NewRegister(key_type);
    if (bits == 16) {
      builder_.Emit("cvt.s32.s16", {v, x.name});  // Sign-extends.
    } else {
      builder_.Emit(absl::StrCat("mov.b", width), {v, x.name});
    }
    const std::string sign = NewRegister(key_type);
    builder_.Emit(absl::StrCat("shr.s", width), {sign, v, wide ? "63" : "31"});
    const std::string flip = NewRegister(key_type);
    builder_.Emit(
        absl::StrCat("and.b", width),
        {flip, sign,
         HexImmediate((uint64_t{1} << (bits - 1)) - 1, wide ? 16 : 8)});
    const std::string k = NewRegister(key_type);
    builder_.Emit(absl::StrCat("xor.b", width), {k, v, flip});
    return k;
  };
  static const std::map<ir::ComparisonDirection, const char*> kDirections = {
      {ir::ComparisonDirection::kEq, "eq"},
      {ir::ComparisonDirection::kNe, "ne"},
      {ir::ComparisonDirection::kGe, "ge"},
      {ir::ComparisonDirection::kGt, "gt"},
      {ir::ComparisonDirection::kLe, "le"},
      {ir::ComparisonDirection::kLt, "lt"}};
  const std::string x = key(a);
  const std::string y = key(b);
  const std::string p = NewRegister(ElementType::kPred);
  builder_.Emit(absl::StrCat("setp.", kDirections.at(direction), ".s", width),
                {p, x, y});
  return Register{p, ElementType::kPred};
}

std::string InstructionEmitter::Extend(const std::string& value, int bits,
                                       bool is_signed) {
  const std::string r = NewRegister(ElementType::kU32);
  if (is_signed) {
    builder_.Emit("bfe.s32", {r, value, "0", absl::StrCat(bits)});
  } else {
    builder_.Emit("and.b32", {r, value, LowBitsMask(bits)});
  }
  return r;
}

std::string InstructionEmitter::ShiftAmount(const std::string& amount,
                                            ElementType type) {
  const int bits = ir::BitWidth(type);
  if (bits == 32) return amount;  // PTX caps amounts above 32 at 32.
  const std::string r = NewRegister(ElementType::kU32);
  if (bits == 64) {
    // The amount operand is .u32: cap the 64-bit amount before narrowing.
    const std::string capped = NewRegister(ElementType::kU64);
    builder_.Emit("min.u64", {capped, amount, "64"});
    builder_.Emit("cvt.u32.u64", {r, capped});
  } else {
    // Narrow types: the amount's own bits, unsigned; past the width, the
    // 32-bit shift still clears (or fills) the whole value.
    const std::string unsigned_amount = Extend(amount, bits, false);
    builder_.Emit("min.u32", {r, unsigned_amount, absl::StrCat(bits)});
  }
  return r;
}

std::string InstructionEmitter::NewRegister(ElementType type) {
  return builder_.NewRegister(*RegisterClassFor(type));
}

std::string InstructionEmitter::NewWideRegister(ElementType type) {
  return builder_.NewRegister(type == ElementType::kF64 ? RegisterClass::kF64
                                                        : RegisterClass::kF32);
}

}  // namespace pjrtx::ptx
