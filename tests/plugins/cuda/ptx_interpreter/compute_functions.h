// The compute functions of kCompute instructions, by operation and type.
// Each lookup returns nullptr for a type the operation does not take, which
// the decoder reports as an unsupported instruction.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_COMPUTE_FUNCTIONS_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_COMPUTE_FUNCTIONS_H_

#include "tests/plugins/cuda/ptx_interpreter/program.h"
#include "tests/plugins/cuda/ptx_interpreter/types.h"

namespace fake_cuda::ptx {

// Integer (and, for the logic ops, predicate) operations; d, a, b, c are
// of the instruction's type unless noted.
enum class IntegerOp {
  kAdd,  // Wrapping.
  kSub,
  kAddSat,  // .s32 only: clamped to the range.
  kSubSat,
  kMulLo,  // The low half of the product.
  kMulHi,  // The high half.
  kDiv,    // x / 0 is all ones; MIN / -1 wraps to MIN.
  kRem,    // x % 0 is x; MIN % -1 is 0.
  kMin,
  kMax,
  kAnd,
  kOr,
  kXor,
  kNeg,
  kAbs,  // abs(MIN) is MIN.
  kNot,
  kCnot,  // a == 0 ? 1 : 0.
  kBrev,
  kPopc,     // d is .u32.
  kClz,      // d is .u32.
  kShl,      // b is .u32; amounts past the width give 0.
  kShr,      // b is .u32; past the width, 0 or the sign (.sN).
  kMadLo,    // d = lo(a * b) + c.
  kMadHi,    // d = hi(a * b) + c.
  kMulWide,  // d (twice as wide) = a * b; .s16/.u16/.s32/.u32.
  kMadWide,  // d, c twice as wide: d = a * b + c.
  kBfe,      // b (position) and c (length) are .u32.
};
ComputeFn IntegerOperation(IntegerOp op, Type type);

// Floating-point operations on .f16, .bf16, .f32 and .f64; they honour the
// instruction's rounding, ftz and sat where PTX has them.
enum class FloatOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFma,  // d = a * b + c, rounded once.
  kMin,  // One NaN operand gives the other; -0 < +0.
  kMax,
  kMinNaN,  // min.NaN / max.NaN: a NaN operand gives NaN.
  kMaxNaN,
  kNeg,
  kAbs,
  kCopysign,  // d = b with the sign of a.
  kSqrt,
  kRcp,
  // The .approx functions, computed accurately and rounded to nearest.
  kSqrtApprox,
  kRcpApprox,
  kDivApprox,
  kRsqrtApprox,
  kSinApprox,
  kCosApprox,
  kLg2Approx,
  kEx2Approx,
  kTanhApprox,
  kRoundToIntegral,  // cvt.rni.f32.f32 and friends.
};
ComputeFn FloatOperation(FloatOp op, Type type);

// setp: d (.pred) = a <cmp> b, combined with c (.pred) as the
// instruction's `combine` says.
enum class Comparison {
  kEq,
  kNe,
  kLt,
  kLe,
  kGt,
  kGe,  // Ordered for floats.
  kLo,
  kLs,
  kHi,
  kHs,  // Unsigned integer aliases.
  kEqu,
  kNeu,
  kLtu,
  kLeu,
  kGtu,
  kGeu,  // Floats: true when unordered.
  kNum,
  kNan,
};
enum class Combine { kNone, kAnd, kOr, kXor };
ComputeFn CompareOperation(Comparison comparison, Type type);

// testp: d (.pred) = whether a (.f32 or .f64) is of the class.
enum class FloatClass {
  kFinite,
  kInfinite,
  kNumber,
  kNotANumber,
  kNormal,
  kSubnormal,
};
ComputeFn TestOperation(FloatClass float_class, Type type);

ComputeFn MoveOperation(Type type);    // mov: d = a.
ComputeFn SelectOperation(Type type);  // selp: d = c ? a : b.
// cvt: d (of `to`) = a (of `from`), with the instruction's rounding
// (integer rounding for float-to-integer), ftz and sat. Float-to-integer
// saturates and maps NaN to 0, as PTX defines; integer-to-integer wraps,
// or saturates with .sat. Rounding a float to an integral float is
// FloatOp::kRoundToIntegral.
ComputeFn ConvertOperation(Type to, Type from);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_COMPUTE_FUNCTIONS_H_
