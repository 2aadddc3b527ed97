// The chlo ops (client ops that JAX and other frontends leave in their
// StableHLO) this compiler knows and that are more than one elementwise op
// (those are in elementwise_lowering.cc's table): each lowered to the
// instructions it is made of (InstructionBuilder, or a template), so that
// every target runs them with the kernels it already has. Math on f16, bf16 and
// the FP8 types is done in f32 and rounded once at the end, as the
// chlo-to-stablehlo decompositions do. Other chlo ops are UNIMPLEMENTED.
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "compiler_stub/ir/instruction_builder.h"
#include "compiler_stub/ir/op_lowering.h"
#include "compiler_stub/ir/template_lowering.h"
#include "support/status_macros.h"

namespace pjrtx::ir {
namespace {

using Value = InstructionBuilder::Value;

// One floating-point operand and a result of its shape (of `result_type`
// when given, else the operand's type).
absl::Status FloatUnary(OpState& s,
                        std::optional<ElementType> result_type = {}) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  if (!IsFloat(s.shape(0).type)) {
    return s.Error(absl::StrCat("does not accept ",
                                ElementTypeToMlir(s.shape(0).type),
                                "; expected a floating-point type"));
  }
  Shape inferred = s.shape(0);
  if (result_type) inferred.type = *result_type;
  return s.ExpectResult(0, inferred);
}

// Where an op's math is computed: f32 for the narrower types and f64 for
// f64, unless the function asks for more.
enum class Precision {
  kNative,
  // f32 in f64 too: functions built on exp of large arguments, where the
  // GPU's f32 exp loses precision in proportion to the argument.
  kF32InF64,
};

ElementType ComputeType(ElementType type, Precision precision) {
  if (type == ElementType::kF64 ||
      (type == ElementType::kF32 && precision == Precision::kF32InF64)) {
    return ElementType::kF64;
  }
  return ElementType::kF32;
}

// f(x) for a float unary op: x converted to the compute type w, the
// result rounded back to the operand's type.
struct FloatFunction {
  std::function<Value(InstructionBuilder&, Value x, ElementType w)> build;
  Precision precision = Precision::kNative;
};

absl::Status LowerFloatFunction(OpState& s, const FloatFunction& f) {
  if (absl::Status status = FloatUnary(s); !status.ok()) return status;
  InstructionBuilder b(s);
  const ElementType type = s.shape(0).type;
  const ElementType w = ComputeType(type, f.precision);
  const Value x = b.Convert(b.Operand(0), w);
  return b.Finish(b.Convert(f.build(b, x, w), type));
}

// Beyond this magnitude x^2 + 1 rounds to x^2 in the compute type, so
// sqrt(x^2 + 1) is |x| and the inverse hyperbolic functions become
// log(2|x|), which also avoids overflowing x^2.
double LargeArgument(ElementType w) {
  return w == ElementType::kF64 ? 0x1p27 : 0x1p12;
}

Value Sqrt(InstructionBuilder& b, Value x) {
  return b.Unary(UnaryOp::kSqrt, x);
}
Value Add(InstructionBuilder& b, Value x, Value y) {
  return b.Binary(BinaryOp::kAdd, x, y);
}
Value Sub(InstructionBuilder& b, Value x, Value y) {
  return b.Binary(BinaryOp::kSubtract, x, y);
}
Value Mul(InstructionBuilder& b, Value x, Value y) {
  return b.Binary(BinaryOp::kMultiply, x, y);
}
Value Div(InstructionBuilder& b, Value x, Value y) {
  return b.Binary(BinaryOp::kDivide, x, y);
}

// sqrt((1 - x)(1 + x)): sqrt(1 - x^2) without cancellation near |x| = 1.
Value SqrtOneMinusSquare(InstructionBuilder& b, Value x, ElementType w) {
  const Value one = b.Constant(1, w);
  return Sqrt(b, Mul(b, Sub(b, one, x), Add(b, one, x)));
}

// log(|x|) + log(2), for arguments beyond LargeArgument.
Value LogTwice(InstructionBuilder& b, Value a, ElementType w) {
  return Add(b, b.Unary(UnaryOp::kLog, a), b.Constant(std::log(2.0), w));
}

const std::map<std::string, FloatFunction>& FloatFunctions() {
  static const auto* functions = new std::map<std::string, FloatFunction>{
      {"chlo.asin", {[](InstructionBuilder& b, Value x, ElementType w) {
         return b.Binary(BinaryOp::kAtan2, x, SqrtOneMinusSquare(b, x, w));
       }}},
      {"chlo.acos", {[](InstructionBuilder& b, Value x, ElementType w) {
         return b.Binary(BinaryOp::kAtan2, SqrtOneMinusSquare(b, x, w), x);
       }}},
      {"chlo.atan", {[](InstructionBuilder& b, Value x, ElementType w) {
         return b.Binary(BinaryOp::kAtan2, x, b.Constant(1, w));
       }}},
      // With h = exp(|x| / 2): e^|x| = h * h, which overflows only where
      // the result does. Below 1, (e + e / (e + 1)) / 2 with e =
      // expm1(|x|) keeps the small result's precision.
      {"chlo.sinh",
       {[](InstructionBuilder& b, Value x, ElementType w) {
          const Value a = b.Unary(UnaryOp::kAbs, x);
          const Value half = b.Constant(0.5, w);
          const Value h = b.Unary(UnaryOp::kExponential, Mul(b, a, half));
          const Value large =
              Sub(b, Mul(b, h, Mul(b, h, half)), Div(b, half, Mul(b, h, h)));
          const Value e = b.Unary(UnaryOp::kExponentialMinusOne, a);
          const Value small =
              Mul(b, half, Add(b, e, Div(b, e, Add(b, e, b.Constant(1, w)))));
          const Value below_one =
              b.Compare(ComparisonDirection::kLt, a, b.Constant(1, w));
          return Mul(b, b.Unary(UnaryOp::kSign, x),
                     b.Select(below_one, small, large));
        },
        Precision::kF32InF64}},
      {"chlo.cosh",
       {[](InstructionBuilder& b, Value x, ElementType w) {
          const Value a = b.Unary(UnaryOp::kAbs, x);
          const Value half = b.Constant(0.5, w);
          const Value h = b.Unary(UnaryOp::kExponential, Mul(b, a, half));
          return Add(b, Mul(b, h, Mul(b, h, half)), Div(b, half, Mul(b, h, h)));
        },
        Precision::kF32InF64}},
      // sign(x) log1p(|x| + x^2 / (1 + sqrt(1 + x^2))).
      {"chlo.asinh", {[](InstructionBuilder& b, Value x, ElementType w) {
         const Value a = b.Unary(UnaryOp::kAbs, x);
         const Value one = b.Constant(1, w);
         const Value square = Mul(b, a, a);
         const Value moderate = b.Unary(
             UnaryOp::kLogPlusOne,
             Add(b, a,
                 Div(b, square, Add(b, one, Sqrt(b, Add(b, one, square))))));
         const Value large = b.Compare(ComparisonDirection::kGt, a,
                                       b.Constant(LargeArgument(w), w));
         return Mul(b, b.Unary(UnaryOp::kSign, x),
                    b.Select(large, LogTwice(b, a, w), moderate));
       }}},
      // log1p(t + sqrt(t (t + 2))) with t = x - 1 (exact near 1).
      {"chlo.acosh", {[](InstructionBuilder& b, Value x, ElementType w) {
         const Value t = Sub(b, x, b.Constant(1, w));
         const Value moderate = b.Unary(
             UnaryOp::kLogPlusOne,
             Add(b, t, Sqrt(b, Mul(b, t, Add(b, t, b.Constant(2, w))))));
         const Value large = b.Compare(ComparisonDirection::kGt, x,
                                       b.Constant(LargeArgument(w), w));
         return b.Select(large, LogTwice(b, x, w), moderate);
       }}},
      // sign(x) log1p(2|x| / (1 - |x|)) / 2: with |x| the argument of
      // log1p is positive, where it is well conditioned (1 - |x| is exact
      // for |x| >= 1/2).
      {"chlo.atanh", {[](InstructionBuilder& b, Value x, ElementType w) {
         const Value a = b.Unary(UnaryOp::kAbs, x);
         const Value ratio = Div(b, Add(b, a, a), Sub(b, b.Constant(1, w), a));
         return Mul(
             b, b.Unary(UnaryOp::kSign, x),
             Mul(b, b.Constant(0.5, w), b.Unary(UnaryOp::kLogPlusOne, ratio)));
       }}},
  };
  return *functions;
}

// is_inf, is_pos_inf, is_neg_inf: i1 results.
absl::Status LowerInfinityTest(OpState& s, bool positive, bool negative) {
  if (absl::Status status = FloatUnary(s, ElementType::kPred); !status.ok()) {
    return status;
  }
  InstructionBuilder b(s);
  const ElementType w = ComputeType(s.shape(0).type, Precision::kNative);
  Value x = b.Convert(b.Operand(0), w);
  double infinity = std::numeric_limits<double>::infinity();
  if (positive && negative) {
    x = b.Unary(UnaryOp::kAbs, x);
  } else if (negative) {
    infinity = -infinity;
  }
  return b.Finish(
      b.Compare(ComparisonDirection::kEq, x, b.Constant(infinity, w)));
}

// The high half of the double-width product of two integers.
absl::Status LowerMulhi(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(2));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const ElementType type = s.shape(0).type;
  if (!IsInteger(type)) {
    return s.Error(absl::StrCat("does not accept ", ElementTypeToMlir(type),
                                "; expected an integer type"));
  }
  if (!(s.shape(1) == s.shape(0))) {
    return s.Error(absl::StrCat("operand 1 is ", s.shape(1).ToString(),
                                ", expected ", s.shape(0).ToString()));
  }
  if (absl::Status result = s.ExpectResult(0, s.shape(0)); !result.ok()) {
    return result;
  }
  InstructionBuilder b(s);
  const bool is_signed = IsSignedInt(type);
  const int bits = BitWidth(type);
  if (bits <= 32) {
    // The product fits 64 bits; its high half fits the type.
    const ElementType wide = is_signed ? ElementType::kS64 : ElementType::kU64;
    const Value product =
        Mul(b, b.Convert(b.Operand(0), wide), b.Convert(b.Operand(1), wide));
    const Value high = b.Binary(is_signed ? BinaryOp::kShiftRightArithmetic
                                          : BinaryOp::kShiftRightLogical,
                                product, b.IntegerConstant(bits, wide));
    return b.Finish(b.Convert(high, type));
  }
  // 64 bits: the unsigned high half from 32-bit halves (no partial sum
  // overflows), then, for signed operands, minus the other operand for
  // each negative one (two's complement).
  const ElementType u = ElementType::kU64;
  const Value x = b.Convert(b.Operand(0), u);
  const Value y = b.Convert(b.Operand(1), u);
  const Value mask = b.IntegerConstant(0xFFFFFFFF, u);
  const Value shift = b.IntegerConstant(32, u);
  auto low_half = [&](Value v) { return b.Binary(BinaryOp::kAnd, v, mask); };
  auto high_half = [&](Value v) {
    return b.Binary(BinaryOp::kShiftRightLogical, v, shift);
  };
  const Value x0 = low_half(x), x1 = high_half(x);
  const Value y0 = low_half(y), y1 = high_half(y);
  const Value low_low = Mul(b, x0, y0);
  const Value high_low = Mul(b, x1, y0);
  const Value low_high = Mul(b, x0, y1);
  const Value cross =
      Add(b, Add(b, high_half(low_low), low_half(high_low)), low_high);
  Value high =
      Add(b, Add(b, Mul(b, x1, y1), high_half(high_low)), high_half(cross));
  if (is_signed) {
    const Value zero = b.IntegerConstant(0, type);
    const Value zero_u = b.IntegerConstant(0, u);
    const Value x_negative =
        b.Compare(ComparisonDirection::kLt, b.Operand(0), zero);
    const Value y_negative =
        b.Compare(ComparisonDirection::kLt, b.Operand(1), zero);
    high = Sub(b, high, b.Select(x_negative, y, zero_u));
    high = Sub(b, high, b.Select(y_negative, x, zero_u));
  }
  return b.Finish(b.Convert(high, type));
}

// x * x in x's own type: chlo's decomposition of square for real types
// (complex ones are expanded before lowering), which the portable artifact
// of the same program carries in its place.
absl::Status LowerSquare(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(1));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const ElementType type = s.shape(0).type;
  if (!IsFloat(type) && !IsInteger(type)) {
    return s.Error(absl::StrCat("does not accept ", ElementTypeToMlir(type),
                                "; expected an integer or floating-point "
                                "type"));
  }
  if (absl::Status result = s.ExpectResult(0, s.shape(0)); !result.ok()) {
    return result;
  }
  InstructionBuilder b(s);
  return b.Finish(Mul(b, b.Operand(0), b.Operand(0)));
}

// The k largest elements along the last dimension, in descending order
// (ties in their original order; floats by total order, so NaN above
// infinity), and their indices: a stable sort of (x, iota) and two slices.
absl::Status LowerTopK(OpState& s) {
  PJRTX_RETURN_IF_ERROR(s.RequireOperands(1));
  PJRTX_RETURN_IF_ERROR(s.RequireResults(2));
  PJRTX_RETURN_IF_ERROR(s.RequireTensors());
  const Shape& x = s.shape(0);
  if (x.rank() < 1) return s.Error("needs an operand of rank 1 or more");
  if (!IsFloat(x.type) && !IsInteger(x.type)) {
    return s.Error(absl::StrCat("does not accept ", ElementTypeToMlir(x.type),
                                "; expected an integer or floating-point "
                                "type"));
  }
  PJRTX_ASSIGN_OR_RETURN(int64_t k, s.attributes.Integer("k"));
  const int last = x.rank() - 1;
  if (x.dims[last] > std::numeric_limits<int32_t>::max()) {
    return s.Error(absl::StrCat("the last dimension (", x.dims[last],
                                ") is too long for its i32 indices"));
  }
  if (k < 0 || k > x.dims[last]) {
    return s.Error(absl::StrCat("k = ", k, " is not in [0, ", x.dims[last],
                                "], the size of the last dimension"));
  }
  Shape values = x;
  values.dims[last] = k;
  Shape indices{ElementType::kS32, values.dims};
  if (absl::Status v = s.ExpectResult(0, values); !v.ok()) return v;
  if (absl::Status i = s.ExpectResult(1, indices); !i.ok()) return i;

  const std::string t = TensorText(x.dims, x.type);
  const std::string it = TensorText(x.dims, ElementType::kS32);
  const std::string scalar = TensorText({}, x.type);
  const std::string vt = TensorText(values.dims, x.type);
  const std::string jt = TensorText(values.dims, ElementType::kS32);
  std::vector<int64_t> zeros(x.rank(), 0), ones(x.rank(), 1);
  const std::string slice =
      absl::StrCat("{start_indices = ", ArrayText(zeros),
                   ", limit_indices = ", ArrayText(values.dims),
                   ", strides = ", ArrayText(ones), "}");
  const std::string order =
      IsFloat(x.type)
          ? ", compare_type = #stablehlo<comparison_type TOTALORDER>"
          : "";
  return LowerFromTemplate(
      s,
      absl::StrCat(
          "func.func @top_k(%x: ", t, ") -> (", vt, ", ", jt, ") {\n",
          "  %i = \"stablehlo.iota\"() {iota_dimension = ", last,
          " : i64} : () -> ", it, "\n",
          "  %s:2 = \"stablehlo.sort\"(%x, %i) ({\n", "  ^bb0(%a: ", scalar,
          ", %b: ", scalar, ", %c: tensor<si32>, %d: tensor<si32>):\n",
          "    %g = \"stablehlo.compare\"(%a, %b) {comparison_direction = "
          "#stablehlo<comparison_direction GT>",
          order, "} : (", scalar, ", ", scalar, ") -> tensor<i1>\n",
          "    \"stablehlo.return\"(%g) : (tensor<i1>) -> ()\n",
          "  }) {dimension = ", last, " : i64, is_stable = true} : (", t, ", ",
          it, ") -> (", t, ", ", it, ")\n", "  %v = \"stablehlo.slice\"(%s#0) ",
          slice, " : (", t, ") -> ", vt, "\n",
          "  %j = \"stablehlo.slice\"(%s#1) ", slice, " : (", it, ") -> ", jt,
          "\n", "  func.return %v, %j : ", vt, ", ", jt, "\n}\n"));
}

}  // namespace

bool LowerChloOp(OpState& s, absl::Status* status) {
  const std::string& name = s.op.name;
  if (!absl::StartsWith(name, "chlo.")) return false;
  const auto& functions = FloatFunctions();
  if (auto f = functions.find(name); f != functions.end()) {
    *status = LowerFloatFunction(s, f->second);
  } else if (name == "chlo.is_inf") {
    *status = LowerInfinityTest(s, true, true);
  } else if (name == "chlo.is_pos_inf") {
    *status = LowerInfinityTest(s, true, false);
  } else if (name == "chlo.is_neg_inf") {
    *status = LowerInfinityTest(s, false, true);
  } else if (name == "chlo.square") {
    *status = LowerSquare(s);
  } else if (name == "chlo.mulhi") {
    *status = LowerMulhi(s);
  } else if (name == "chlo.top_k") {
    *status = LowerTopK(s);
  } else if (name == "chlo.ragged_dot") {
    *status = LowerRaggedDot(s);
  } else if (name == "chlo.scan") {
    *status = LowerScan(s);
  } else {
    *status = UnsupportedAt(s.op.location,
                            absl::StrCat("op ", name, " is not supported"));
  }
  return true;
}

}  // namespace pjrtx::ir
