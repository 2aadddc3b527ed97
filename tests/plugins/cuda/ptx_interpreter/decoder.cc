#include "tests/plugins/cuda/ptx_interpreter/decoder.h"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/compute_functions.h"

namespace fake_cuda::ptx {
namespace {

// The modifiers of an opcode not consumed yet: decoding takes those it
// understands, and any left over make the opcode unsupported.
class Modifiers {
 public:
  explicit Modifiers(std::vector<std::string_view> list)
      : list_(std::move(list)) {}

  bool Take(std::string_view name) {
    auto it = std::find(list_.begin(), list_.end(), name);
    if (it == list_.end()) return false;
    list_.erase(it);
    return true;
  }

  // The index in `names` of the one present (taken), or -1.
  int TakeOneOf(std::initializer_list<std::string_view> names) {
    int index = 0;
    for (std::string_view name : names) {
      if (Take(name)) return index;
      ++index;
    }
    return -1;
  }

  std::optional<Rounding> TakeRounding() {
    return ToRounding(TakeOneOf({"rn", "rz", "rm", "rp"}));
  }
  std::optional<Rounding> TakeIntegerRounding() {
    return ToRounding(TakeOneOf({"rni", "rzi", "rmi", "rpi"}));
  }

  bool empty() const { return list_.empty(); }

 private:
  static std::optional<Rounding> ToRounding(int index) {
    constexpr Rounding kModes[] = {Rounding::kNearestEven,
                                   Rounding::kTowardZero, Rounding::kDown,
                                   Rounding::kUp};
    if (index < 0) return std::nullopt;
    return kModes[index];
  }

  std::vector<std::string_view> list_;
};

OperandSpec Value(Type type) { return {OperandKind::kValue, type}; }

// The destination type of the .wide forms.
Type Wider(Type type) {
  switch (type) {
    case Type::kS16:
      return Type::kS32;
    case Type::kU16:
      return Type::kU32;
    case Type::kS32:
      return Type::kS64;
    case Type::kU32:
      return Type::kU64;
    default:
      return Type::kNone;
  }
}

// Operands all of `type`: the destination and `sources` sources.
void Uniform(Operation& op, Type type, int sources) {
  op.operands.assign(sources + 1, Value(type));
}

bool DecodeIntegerArithmetic(std::string_view base, Type type, Modifiers& m,
                             Operation& op) {
  IntegerOp integer_op;
  int sources = 2;
  if (base == "add" || base == "sub") {
    const bool sat = m.Take("sat");
    integer_op = base == "add" ? (sat ? IntegerOp::kAddSat : IntegerOp::kAdd)
                               : (sat ? IntegerOp::kSubSat : IntegerOp::kSub);
  } else if (base == "mul" || base == "mad") {
    const bool mad = base == "mad";
    sources = mad ? 3 : 2;
    switch (m.TakeOneOf({"lo", "hi", "wide"})) {
      case 0:
        integer_op = mad ? IntegerOp::kMadLo : IntegerOp::kMulLo;
        break;
      case 1:
        integer_op = mad ? IntegerOp::kMadHi : IntegerOp::kMulHi;
        break;
      case 2: {
        const Type wide = Wider(type);
        if (wide == Type::kNone) return false;
        op.compute = IntegerOperation(
            mad ? IntegerOp::kMadWide : IntegerOp::kMulWide, type);
        op.operands = {Value(wide), Value(type), Value(type)};
        if (mad) op.operands.push_back(Value(wide));
        return true;
      }
      default:
        return false;
    }
  } else if (base == "div") {
    integer_op = IntegerOp::kDiv;
  } else if (base == "rem") {
    integer_op = IntegerOp::kRem;
  } else if (base == "min") {
    integer_op = IntegerOp::kMin;
  } else if (base == "max") {
    integer_op = IntegerOp::kMax;
  } else if (base == "abs" || base == "neg") {
    integer_op = base == "abs" ? IntegerOp::kAbs : IntegerOp::kNeg;
    sources = 1;
  } else {
    return false;
  }
  op.compute = IntegerOperation(integer_op, type);
  Uniform(op, type, sources);
  return true;
}

bool DecodeFloatArithmetic(std::string_view base, Type type, Modifiers& m,
                           Operation& op) {
  op.ftz = m.Take("ftz");
  FloatOp float_op;
  int sources = 2;
  if (base == "add" || base == "sub" || base == "mul") {
    float_op = base == "add"   ? FloatOp::kAdd
               : base == "sub" ? FloatOp::kSub
                               : FloatOp::kMul;
    op.rounding = m.TakeRounding().value_or(Rounding::kNearestEven);
    op.sat = m.Take("sat");
  } else if (base == "fma" || base == "mad") {
    float_op = FloatOp::kFma;
    sources = 3;
    op.rounding = m.TakeRounding().value_or(Rounding::kNearestEven);
    op.sat = m.Take("sat");
    // Directed rounding of an f64 fma needs the exact sum of three
    // doubles, which the interpreter does not compute.
    if (type == Type::kF64 && op.rounding != Rounding::kNearestEven) {
      return false;
    }
  } else if (base == "div") {
    if (m.Take("approx") || m.Take("full")) {
      if (type != Type::kF32) return false;
      float_op = FloatOp::kDivApprox;
    } else {
      float_op = FloatOp::kDiv;
      op.rounding = m.TakeRounding().value_or(Rounding::kNearestEven);
    }
  } else if (base == "min" || base == "max") {
    const bool nan = m.Take("NaN");
    float_op = base == "min" ? (nan ? FloatOp::kMinNaN : FloatOp::kMin)
                             : (nan ? FloatOp::kMaxNaN : FloatOp::kMax);
  } else if (base == "abs" || base == "neg") {
    float_op = base == "abs" ? FloatOp::kAbs : FloatOp::kNeg;
    sources = 1;
  } else if (base == "copysign") {
    if (type != Type::kF32 && type != Type::kF64) return false;
    float_op = FloatOp::kCopysign;
  } else {
    return false;
  }
  op.compute = FloatOperation(float_op, type);
  Uniform(op, type, sources);
  return true;
}

// sqrt, rcp and the approximate functions.
bool DecodeFloatFunction(std::string_view base, Type type, Modifiers& m,
                         Operation& op) {
  if (!IsFloat(type)) return false;
  op.ftz = m.Take("ftz");
  const bool approx = m.Take("approx");
  const bool f32 = type == Type::kF32;
  const bool f32_or_half = f32 || type == Type::kF16 || type == Type::kBF16;
  FloatOp float_op;
  if (base == "sqrt" || base == "rcp") {
    const bool sqrt = base == "sqrt";
    if (approx) {
      // rcp.approx.ftz.f64 exists too.
      const bool f64_rcp = !sqrt && type == Type::kF64 && op.ftz;
      if (!f32 && !f64_rcp) return false;
      float_op = sqrt ? FloatOp::kSqrtApprox : FloatOp::kRcpApprox;
    } else {
      float_op = sqrt ? FloatOp::kSqrt : FloatOp::kRcp;
      op.rounding = m.TakeRounding().value_or(Rounding::kNearestEven);
    }
  } else if (base == "rsqrt") {
    if (!approx || !(f32 || type == Type::kF64)) return false;
    float_op = FloatOp::kRsqrtApprox;
  } else if (base == "sin" || base == "cos" || base == "lg2") {
    if (!approx || !f32) return false;
    float_op = base == "sin"   ? FloatOp::kSinApprox
               : base == "cos" ? FloatOp::kCosApprox
                               : FloatOp::kLg2Approx;
  } else if (base == "ex2" || base == "tanh") {
    if (!approx || !f32_or_half) return false;
    float_op = base == "ex2" ? FloatOp::kEx2Approx : FloatOp::kTanhApprox;
  } else {
    return false;
  }
  op.compute = FloatOperation(float_op, type);
  Uniform(op, type, 1);
  return true;
}

bool DecodeLogic(std::string_view base, Type type, Operation& op) {
  if (type != Type::kPred && !IsInteger(type)) return false;
  struct Entry {
    std::string_view name;
    IntegerOp op;
    int sources;
  };
  static constexpr Entry kOps[] = {
      {"and", IntegerOp::kAnd, 2},   {"or", IntegerOp::kOr, 2},
      {"xor", IntegerOp::kXor, 2},   {"not", IntegerOp::kNot, 1},
      {"cnot", IntegerOp::kCnot, 1}, {"brev", IntegerOp::kBrev, 1},
  };
  for (const Entry& entry : kOps) {
    if (entry.name != base) continue;
    op.compute = IntegerOperation(entry.op, type);
    Uniform(op, type, entry.sources);
    return true;
  }
  return false;
}

bool DecodeBits(std::string_view base, Type type, Operation& op) {
  if (!IsInteger(type)) return false;
  if (base == "popc" || base == "clz") {
    op.compute = IntegerOperation(
        base == "popc" ? IntegerOp::kPopc : IntegerOp::kClz, type);
    op.operands = {Value(Type::kU32), Value(type)};
  } else if (base == "shl" || base == "shr") {
    op.compute = IntegerOperation(
        base == "shl" ? IntegerOp::kShl : IntegerOp::kShr, type);
    op.operands = {Value(type), Value(type), Value(Type::kU32)};
  } else if (base == "bfe") {
    op.compute = IntegerOperation(IntegerOp::kBfe, type);
    op.operands = {Value(type), Value(type), Value(Type::kU32),
                   Value(Type::kU32)};
  } else {
    return false;
  }
  return true;
}

bool DecodeSetp(Type type, Modifiers& m, Operation& op) {
  constexpr Comparison kComparisons[] = {
      Comparison::kEq,  Comparison::kNe,  Comparison::kLt,  Comparison::kLe,
      Comparison::kGt,  Comparison::kGe,  Comparison::kLo,  Comparison::kLs,
      Comparison::kHi,  Comparison::kHs,  Comparison::kEqu, Comparison::kNeu,
      Comparison::kLtu, Comparison::kLeu, Comparison::kGtu, Comparison::kGeu,
      Comparison::kNum, Comparison::kNan,
  };
  const int comparison =
      m.TakeOneOf({"eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs",
                   "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"});
  if (comparison < 0) return false;
  const int combine = m.TakeOneOf({"and", "or", "xor"});
  op.ftz = m.Take("ftz");
  op.combine = static_cast<uint8_t>(combine < 0    ? Combine::kNone
                                    : combine == 0 ? Combine::kAnd
                                    : combine == 1 ? Combine::kOr
                                                   : Combine::kXor);
  op.compute = CompareOperation(kComparisons[comparison], type);
  op.operands = {Value(Type::kPred), Value(type), Value(type)};
  if (combine >= 0) op.operands.push_back(Value(Type::kPred));
  return true;
}

bool DecodeTestp(Type type, Modifiers& m, Operation& op) {
  constexpr FloatClass kClasses[] = {
      FloatClass::kFinite,     FloatClass::kInfinite, FloatClass::kNumber,
      FloatClass::kNotANumber, FloatClass::kNormal,   FloatClass::kSubnormal,
  };
  const int float_class = m.TakeOneOf(
      {"finite", "infinite", "number", "notanumber", "normal", "subnormal"});
  if (float_class < 0) return false;
  op.compute = TestOperation(kClasses[float_class], type);
  op.operands = {Value(Type::kPred), Value(type)};
  return true;
}

bool DecodeCvt(const std::vector<Type>& types, Modifiers& m, Operation& op) {
  if (types.size() != 2) return false;
  const Type to = types[0];
  const Type from = types[1];
  const std::optional<Rounding> rounding = m.TakeRounding();
  const std::optional<Rounding> integer_rounding = m.TakeIntegerRounding();
  op.ftz = m.Take("ftz");
  op.sat = m.Take("sat");
  op.operands = {Value(to), Value(from)};
  if (rounding && integer_rounding) return false;
  // The modifiers ptxas requires: integer rounding to integers from
  // floats, float rounding to floats from integers and to narrower floats;
  // none between integers.
  if (IsInteger(to) && IsInteger(from)) {
    if (rounding || integer_rounding) return false;
  } else if (IsInteger(to) && IsFloat(from)) {
    if (!integer_rounding) return false;
    op.rounding = *integer_rounding;
  } else if (IsFloat(to) && IsInteger(from)) {
    if (!rounding) return false;
    op.rounding = *rounding;
  } else if (IsFloat(to) && IsFloat(from)) {
    if (integer_rounding) {
      // Rounding to an integral value in the same type.
      if (to != from) return false;
      op.rounding = *integer_rounding;
      op.compute = FloatOperation(FloatOp::kRoundToIntegral, to);
      return true;
    }
    const bool narrows =
        SizeOf(to) < SizeOf(from) || (SizeOf(to) == SizeOf(from) && to != from);
    if (narrows && !rounding) return false;
    op.rounding = rounding.value_or(Rounding::kNearestEven);
  } else {
    return false;
  }
  op.compute = ConvertOperation(to, from);
  return true;
}

bool DecodeMemory(std::string_view base, Type type, Modifiers& m,
                  Operation& op) {
  if (type == Type::kPred || type == Type::kNone) return false;
  const bool load = base == "ld";
  if (m.Take("param")) {
    if (!load) return false;  // st.param is for calls.
    op.param_space = true;
  } else {
    m.Take("global");  // Or generic, which the translator serves alike.
  }
  // Cache hints change nothing for a single host thread.
  if (load) {
    m.TakeOneOf({"ca", "cg", "cs", "lu", "cv", "nc"});
  } else {
    m.TakeOneOf({"wb", "cg", "cs", "wt"});
  }
  op.width = static_cast<uint8_t>(SizeOf(type));
  if (load) {
    op.kind = op.param_space ? Kind::kLoadParam : Kind::kLoad;
    op.sign_extend = IsSigned(type);
    op.operands = {Value(type), {OperandKind::kAddress, Type::kNone}};
  } else {
    op.kind = Kind::kStore;
    op.has_destination = false;
    op.operands = {{OperandKind::kAddress, Type::kNone}, Value(type)};
  }
  return true;
}

bool DecodeOneType(std::string_view base, Type type, Modifiers& m,
                   Operation& op) {
  if (base == "mov") {
    op.compute = MoveOperation(type);
    Uniform(op, type, 1);
    return true;
  }
  if (base == "ld" || base == "st") return DecodeMemory(base, type, m, op);
  if (base == "cvta") {
    // Global and generic addresses are the same here.
    m.Take("to");
    if (!m.Take("global") || type != Type::kU64) return false;
    op.compute = MoveOperation(type);
    Uniform(op, type, 1);
    return true;
  }
  if (base == "selp") {
    op.compute = SelectOperation(type);
    op.operands = {Value(type), Value(type), Value(type), Value(Type::kPred)};
    return true;
  }
  if (base == "setp") return DecodeSetp(type, m, op);
  if (base == "testp") return DecodeTestp(type, m, op);
  if (base == "and" || base == "or" || base == "xor" || base == "not" ||
      base == "cnot" || base == "brev") {
    return DecodeLogic(base, type, op);
  }
  if (base == "popc" || base == "clz" || base == "shl" || base == "shr" ||
      base == "bfe") {
    return DecodeBits(base, type, op);
  }
  if (base == "sqrt" || base == "rcp" || base == "rsqrt" || base == "sin" ||
      base == "cos" || base == "lg2" || base == "ex2" || base == "tanh") {
    return DecodeFloatFunction(base, type, m, op);
  }
  if (IsInteger(type)) return DecodeIntegerArithmetic(base, type, m, op);
  if (IsFloat(type)) return DecodeFloatArithmetic(base, type, m, op);
  return false;
}

}  // namespace

Opcode SplitOpcode(std::string_view text) {
  Opcode opcode;
  size_t start = 0;
  bool first = true;
  while (start <= text.size()) {
    size_t dot = text.find('.', start);
    if (dot == std::string_view::npos) dot = text.size();
    const std::string_view part = text.substr(start, dot - start);
    if (first) {
      opcode.base = part;
      first = false;
    } else if (std::optional<Type> type = TypeFromName(part)) {
      opcode.types.push_back(*type);
    } else {
      opcode.modifiers.push_back(part);
    }
    start = dot + 1;
  }
  return opcode;
}

std::optional<Operation> Decode(const Opcode& opcode) {
  Modifiers modifiers(opcode.modifiers);
  Operation op;
  bool decoded = false;
  if (opcode.base == "bra" || opcode.base == "ret" || opcode.base == "exit") {
    modifiers.Take("uni");
    if (!opcode.types.empty()) return std::nullopt;
    op.has_destination = false;
    if (opcode.base == "bra") {
      op.kind = Kind::kBranch;
      op.operands = {{OperandKind::kLabel, Type::kNone}};
    } else {
      op.kind = Kind::kReturn;
    }
    decoded = true;
  } else if (opcode.base == "cvt") {
    decoded = DecodeCvt(opcode.types, modifiers, op);
  } else if (opcode.types.size() == 1) {
    decoded = DecodeOneType(opcode.base, opcode.types[0], modifiers, op);
  }
  if (!decoded || !modifiers.empty()) return std::nullopt;
  if (op.kind == Kind::kCompute && op.compute == nullptr) return std::nullopt;
  return op;
}

}  // namespace fake_cuda::ptx
