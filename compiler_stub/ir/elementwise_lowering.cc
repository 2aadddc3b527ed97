// Rules for constants, iota and elementwise ops.
#include <algorithm>
#include <map>
#include <string>

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/type_conversion.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

enum class Accepts {
  kFloat,
  kInteger,
  kIntegerOrPred,
  kSignedOrFloat,
  kNumeric,
  kAny
};

struct UnaryRule {
  UnaryOp op;
  Accepts accepts;
};
struct BinaryRule {
  BinaryOp op;
  Accepts accepts;
};

const std::map<std::string, UnaryRule>& UnaryRules() {
  static const auto* rules = new std::map<std::string, UnaryRule>{
      {"stablehlo.abs", {UnaryOp::kAbs, Accepts::kSignedOrFloat}},
      // chlo ops that are one elementwise op (the rest: chlo_lowering.cc).
      {"chlo.digamma", {UnaryOp::kDigamma, Accepts::kFloat}},
      {"chlo.erf", {UnaryOp::kErf, Accepts::kFloat}},
      {"chlo.erf_inv", {UnaryOp::kErfInv, Accepts::kFloat}},
      {"chlo.erfc", {UnaryOp::kErfc, Accepts::kFloat}},
      {"chlo.lgamma", {UnaryOp::kLgamma, Accepts::kFloat}},
      {"chlo.tan", {UnaryOp::kTan, Accepts::kFloat}},
      {"stablehlo.cbrt", {UnaryOp::kCbrt, Accepts::kFloat}},
      {"stablehlo.ceil", {UnaryOp::kCeil, Accepts::kFloat}},
      {"stablehlo.cosine", {UnaryOp::kCosine, Accepts::kFloat}},
      {"stablehlo.count_leading_zeros",
       {UnaryOp::kCountLeadingZeros, Accepts::kInteger}},
      {"stablehlo.exp2", {UnaryOp::kExp2, Accepts::kFloat}},
      {"stablehlo.exponential", {UnaryOp::kExponential, Accepts::kFloat}},
      {"stablehlo.exponential_minus_one",
       {UnaryOp::kExponentialMinusOne, Accepts::kFloat}},
      {"stablehlo.floor", {UnaryOp::kFloor, Accepts::kFloat}},
      {"stablehlo.is_finite", {UnaryOp::kIsFinite, Accepts::kFloat}},
      {"stablehlo.log", {UnaryOp::kLog, Accepts::kFloat}},
      {"stablehlo.log2", {UnaryOp::kLog2, Accepts::kFloat}},
      {"stablehlo.log_plus_one", {UnaryOp::kLogPlusOne, Accepts::kFloat}},
      {"stablehlo.logistic", {UnaryOp::kLogistic, Accepts::kFloat}},
      {"stablehlo.negate", {UnaryOp::kNegate, Accepts::kNumeric}},
      {"stablehlo.not", {UnaryOp::kNot, Accepts::kIntegerOrPred}},
      {"stablehlo.popcnt", {UnaryOp::kPopcnt, Accepts::kInteger}},
      {"stablehlo.round_nearest_afz",
       {UnaryOp::kRoundNearestAfz, Accepts::kFloat}},
      {"stablehlo.round_nearest_even",
       {UnaryOp::kRoundNearestEven, Accepts::kFloat}},
      {"stablehlo.rsqrt", {UnaryOp::kRsqrt, Accepts::kFloat}},
      {"stablehlo.sign", {UnaryOp::kSign, Accepts::kSignedOrFloat}},
      {"stablehlo.sine", {UnaryOp::kSine, Accepts::kFloat}},
      {"stablehlo.sqrt", {UnaryOp::kSqrt, Accepts::kFloat}},
      {"stablehlo.tan", {UnaryOp::kTan, Accepts::kFloat}},
      {"stablehlo.tanh", {UnaryOp::kTanh, Accepts::kFloat}},
  };
  return *rules;
}

const std::map<std::string, BinaryRule>& BinaryRules() {
  static const auto* rules = new std::map<std::string, BinaryRule>{
      {"stablehlo.add", {BinaryOp::kAdd, Accepts::kAny}},
      {"stablehlo.and", {BinaryOp::kAnd, Accepts::kIntegerOrPred}},
      {"stablehlo.atan2", {BinaryOp::kAtan2, Accepts::kFloat}},
      {"stablehlo.divide", {BinaryOp::kDivide, Accepts::kNumeric}},
      {"stablehlo.maximum", {BinaryOp::kMaximum, Accepts::kAny}},
      {"stablehlo.minimum", {BinaryOp::kMinimum, Accepts::kAny}},
      {"stablehlo.multiply", {BinaryOp::kMultiply, Accepts::kAny}},
      {"stablehlo.or", {BinaryOp::kOr, Accepts::kIntegerOrPred}},
      {"stablehlo.power", {BinaryOp::kPower, Accepts::kNumeric}},
      {"stablehlo.remainder", {BinaryOp::kRemainder, Accepts::kNumeric}},
      {"stablehlo.shift_left", {BinaryOp::kShiftLeft, Accepts::kInteger}},
      {"stablehlo.shift_right_arithmetic",
       {BinaryOp::kShiftRightArithmetic, Accepts::kInteger}},
      {"stablehlo.shift_right_logical",
       {BinaryOp::kShiftRightLogical, Accepts::kInteger}},
      {"stablehlo.subtract", {BinaryOp::kSubtract, Accepts::kNumeric}},
      {"stablehlo.xor", {BinaryOp::kXor, Accepts::kIntegerOrPred}},
  };
  return *rules;
}

bool Admits(Accepts accepts, ElementType t) {
  switch (accepts) {
    case Accepts::kFloat:
      return IsFloat(t);
    case Accepts::kInteger:
      return IsInteger(t);
    case Accepts::kIntegerOrPred:
      return IsInteger(t) || t == ElementType::kPred;
    case Accepts::kSignedOrFloat:
      return IsSignedInt(t) || IsFloat(t);
    case Accepts::kNumeric:
      return IsInteger(t) || IsFloat(t);
    case Accepts::kAny:
      return true;
  }
  return false;
}

const char* Describe(Accepts accepts) {
  switch (accepts) {
    case Accepts::kFloat:
      return "a floating-point type";
    case Accepts::kInteger:
      return "an integer type";
    case Accepts::kIntegerOrPred:
      return "an integer or i1 type";
    case Accepts::kSignedOrFloat:
      return "a signed integer or floating-point type";
    case Accepts::kNumeric:
      return "an integer or floating-point type";
    case Accepts::kAny:
      return "any type";
  }
  return "";
}

// All operands and the result have the same shape (and element type,
// unless `result_type` overrides it).
absl::Status SameShapes(OpState& s, size_t arity, Accepts accepts,
                        std::optional<ElementType> result_type = {}) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(arity));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  for (size_t i = 1; i < arity; ++i) {
    if (!(s.shape(i) == s.shape(0))) {
      return s.Error(absl::StrCat("operand ", i, " is ", s.shape(i).ToString(),
                                  ", expected ", s.shape(0).ToString()));
    }
  }
  if (!Admits(accepts, s.shape(0).type)) {
    return s.Error(absl::StrCat("does not accept ",
                                ElementTypeToMlir(s.shape(0).type),
                                "; expected ", Describe(accepts)));
  }
  Shape inferred = s.shape(0);
  if (result_type) inferred.type = *result_type;
  return s.ExpectResult(0, inferred);
}

absl::Status LowerConstant(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(0));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const mlir::Attribute* value = s.attributes.Find("value");
  if (value == nullptr ||
      value->kind != mlir::Attribute::Kind::kDenseElements) {
    return s.Error("needs a dense<...> value");
  }
  PJRTX_ASSIGN_OR_RETURN(ValueType type, ConvertType(value->type));
  if (!(type == s.result_types[0])) {
    return s.Error(absl::StrCat("value has type ", type.ToString(),
                                " but the result is ",
                                s.result_types[0].ToString()));
  }
  PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                         DenseToBytes(*value, s.result(0)));
  s.instruction.opcode = OpCode::kConstant;
  s.instruction.attributes.constant = std::move(bytes);
  return absl::OkStatus();
}

absl::Status LowerIota(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(0));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  PJRTX_ASSIGN_OR_RETURN(int64_t dim, s.attributes.Integer("iota_dimension"));
  if (dim < 0 || dim >= s.result(0).rank()) {
    return s.Error(absl::StrCat("iota_dimension ", dim,
                                " is out of range for rank ",
                                s.result(0).rank()));
  }
  s.instruction.opcode = OpCode::kIota;
  s.instruction.attributes.dimension = dim;
  return absl::OkStatus();
}

absl::Status LowerCompare(OpState& s) {
  PJRTX_RETURN_IF_ERROR(SameShapes(s, 2, Accepts::kAny, ElementType::kPred));
  PJRTX_ASSIGN_OR_RETURN(std::string direction,
                         s.attributes.EnumBody("comparison_direction"));
  static const std::map<std::string, ComparisonDirection> kDirections = {
      {"EQ", ComparisonDirection::kEq}, {"NE", ComparisonDirection::kNe},
      {"GE", ComparisonDirection::kGe}, {"GT", ComparisonDirection::kGt},
      {"LE", ComparisonDirection::kLe}, {"LT", ComparisonDirection::kLt}};
  auto d = kDirections.find(direction);
  if (d == kDirections.end()) {
    return s.Error(absl::StrCat("comparison_direction '", direction,
                                "' is not one of EQ, NE, GE, GT, LE, LT"));
  }
  PJRTX_ASSIGN_OR_RETURN(
      std::string type,
      s.attributes.EnumBody("compare_type", std::string("NOTYPE")));
  static const std::map<std::string, ComparisonType> kTypes = {
      {"NOTYPE", ComparisonType::kNoType},
      {"FLOAT", ComparisonType::kFloat},
      {"TOTALORDER", ComparisonType::kTotalOrder},
      {"SIGNED", ComparisonType::kSigned},
      {"UNSIGNED", ComparisonType::kUnsigned},
      {"WEAKORDER", ComparisonType::kWeakOrder}};
  auto t = kTypes.find(type);
  if (t == kTypes.end()) {
    return s.Error(absl::StrCat("compare_type '", type,
                                "' is not one of NOTYPE, FLOAT, TOTALORDER, "
                                "SIGNED, UNSIGNED, WEAKORDER"));
  }
  if (t->second == ComparisonType::kWeakOrder && !IsFloat(s.shape(0).type)) {
    return s.Error(absl::StrCat(
        "compare_type WEAKORDER is only for floating-point operands, not ",
        s.shape(0).ToString()));
  }
  s.instruction.opcode = OpCode::kCompare;
  s.instruction.attributes.comparison = d->second;
  s.instruction.attributes.comparison_type = t->second;
  return absl::OkStatus();
}

absl::Status LowerSelectOrClamp(OpState& s, bool select) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(3));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  // select(pred, a, b); clamp(min, x, max).
  const int main = select ? 1 : 1;
  const Shape& value = s.shape(main);
  if (select) {
    if (!(s.shape(2) == value)) {
      return s.Error(absl::StrCat("on_false is ", s.shape(2).ToString(),
                                  ", expected ", value.ToString()));
    }
    const Shape& pred = s.shape(0);
    if (pred.type != ElementType::kPred ||
        !(pred.dims.empty() || pred.dims == value.dims)) {
      return s.Error(absl::StrCat("pred is ", pred.ToString(),
                                  "; expected tensor<i1> or i1 of the "
                                  "operands' shape"));
    }
    s.instruction.opcode = OpCode::kSelect;
  } else {
    for (int i : {0, 2}) {
      const Shape& bound = s.shape(i);
      if (bound.type != value.type ||
          !(bound.dims.empty() || bound.dims == value.dims)) {
        return s.Error(absl::StrCat(i == 0 ? "min" : "max", " is ",
                                    bound.ToString(),
                                    "; expected a scalar "
                                    "or the operand's shape of ",
                                    ElementTypeToMlir(value.type)));
      }
    }
    s.instruction.opcode = OpCode::kClamp;
  }
  return s.ExpectResult(0, value);
}

absl::Status LowerConversion(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& in = s.shape(0);
  const Shape& out = s.result(0);
  if (s.op.name == "stablehlo.convert") {
    if (in.dims != out.dims) {
      return s.Error(absl::StrCat("result dims of ", out.ToString(),
                                  " differ from the operand's ",
                                  in.ToString()));
    }
    s.instruction.opcode = OpCode::kConvert;
    return absl::OkStatus();
  }
  if (s.op.name == "stablehlo.reduce_precision") {
    PJRTX_ASSIGN_OR_RETURN(int64_t e, s.attributes.Integer("exponent_bits"));
    PJRTX_ASSIGN_OR_RETURN(int64_t m, s.attributes.Integer("mantissa_bits"));
    if (e < 1 || e > 30 || m < 0 || m > 60) {
      return s.Error(absl::StrCat("exponent_bits ", e, " / mantissa_bits ", m,
                                  " out of range (1..30 / 0..60)"));
    }
    if (!IsFloat(in.type)) return s.Error("operand must be floating point");
    s.instruction.opcode = OpCode::kReducePrecision;
    s.instruction.attributes.exponent_bits = static_cast<int>(e);
    s.instruction.attributes.mantissa_bits = static_cast<int>(m);
    return s.ExpectResult(0, in);
  }
  // bitcast_convert: equal widths keep the shape; otherwise the narrower
  // side has an extra minor dimension of the width ratio.
  const int in_bits = BitWidth(in.type);
  const int out_bits = BitWidth(out.type);
  if (std::max(in_bits, out_bits) % std::min(in_bits, out_bits) != 0) {
    return s.Error(absl::StrCat("cannot bitcast ", in_bits, "-bit to ",
                                out_bits, "-bit elements"));
  }
  std::vector<int64_t> expected = in.dims;
  if (in_bits > out_bits) {
    expected.push_back(in_bits / out_bits);
  } else if (in_bits < out_bits) {
    if (in.dims.empty() || in.dims.back() != out_bits / in_bits) {
      return s.Error(absl::StrCat("operand's last dimension must be ",
                                  out_bits / in_bits));
    }
    expected.pop_back();
  }
  s.instruction.opcode = OpCode::kBitcastConvert;
  return s.ExpectResult(0, Shape{out.type, expected});
}

}  // namespace

bool LowerElementwiseOp(OpState& s, absl::Status* status) {
  const std::string& name = s.op.name;
  if (auto it = UnaryRules().find(name); it != UnaryRules().end()) {
    const bool is_finite = it->second.op == UnaryOp::kIsFinite;
    *status = SameShapes(
        s, 1, it->second.accepts,
        is_finite ? std::optional(ElementType::kPred) : std::nullopt);
    s.instruction.opcode = OpCode::kUnary;
    s.instruction.attributes.unary = it->second.op;
    return true;
  }
  if (auto it = BinaryRules().find(name); it != BinaryRules().end()) {
    *status = SameShapes(s, 2, it->second.accepts);
    s.instruction.opcode = OpCode::kBinary;
    s.instruction.attributes.binary = it->second.op;
    return true;
  }
  if (name == "stablehlo.constant") {
    *status = LowerConstant(s);
  } else if (name == "stablehlo.iota") {
    *status = LowerIota(s);
  } else if (name == "stablehlo.compare") {
    *status = LowerCompare(s);
  } else if (name == "stablehlo.select" || name == "stablehlo.clamp") {
    *status = LowerSelectOrClamp(s, name == "stablehlo.select");
  } else if (name == "stablehlo.fma") {
    // No implicit broadcast: a, b, c and the result share one shape.
    *status = SameShapes(s, 3, Accepts::kFloat);
    s.instruction.opcode = OpCode::kFma;
  } else if (name == "stablehlo.convert" ||
             name == "stablehlo.bitcast_convert" ||
             name == "stablehlo.reduce_precision") {
    *status = LowerConversion(s);
  } else {
    return false;
  }
  return true;
}

}  // namespace pjrtx::ir
