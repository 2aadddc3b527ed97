// PTX for one elementwise instruction of a fused kernel, on registers that
// hold one element each.
#ifndef PJRTX_COMPILER_STUB_PTX_INSTRUCTION_EMITTER_H_
#define PJRTX_COMPILER_STUB_PTX_INSTRUCTION_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/ptx/ptx_builder.h"

namespace pjrtx::ptx {

// Lowers the instructions of a FusedKernel with the semantics of the CPU
// reference kernels (runtime/cpu): NaN-propagating maximum and minimum that
// order -0 below +0, wrapping integer arithmetic, shifts by the width or
// more giving 0 or the sign, saturating float-to-integer conversion with
// NaN to 0, and one rounding per op for f16 and bf16 (computed in f32).
// Exceptions, where the kernel uses the GPU's approximations: exponential
// and log (ex2/lg2.approx with scaling) and rsqrt (rsqrt.approx) in f32.
class InstructionEmitter {
 public:
  // `sm` is the target architecture (80 for sm_80); code goes to `builder`.
  InstructionEmitter(PtxBuilder& builder, int sm);

  // Emits `instruction` (kConstant, kBroadcastInDim of one element, or an
  // elementwise op) reading `operands`, one register per operand, and
  // returns the register of its result. UNIMPLEMENTED "L:C: ..." naming the
  // op and element type for what this emitter does not generate.
  absl::StatusOr<Register> Emit(const ir::Instruction& instruction,
                                const std::vector<Register>& operands);

  // The PTX ISA version, in tenths (70 for 7.0), that the instructions
  // emitted so far need.
  int required_isa() const { return required_isa_; }

 private:
  absl::StatusOr<Register> Constant(const ir::Instruction& instruction);
  absl::StatusOr<Register> Unary(const ir::Instruction& instruction,
                                 const Register& x);
  absl::StatusOr<Register> Binary(const ir::Instruction& instruction,
                                  const Register& a, const Register& b);
  // a * b + c rounded once (stablehlo.fma).
  absl::StatusOr<Register> Fma(const ir::Instruction& instruction,
                               const Register& a, const Register& b,
                               const Register& c);
  absl::StatusOr<Register> Compare(const ir::Instruction& instruction,
                                   const Register& a, const Register& b);
  Register Select(const Register& predicate, const Register& on_true,
                  const Register& on_false);
  Register Convert(const Register& x, ir::ElementType to);

  // Floats: f16 and bf16 are computed in f32.
  std::string Widen(const Register& x);  // To f32 or f64.
  Register Narrow(const std::string& wide, ir::ElementType type);
  // Rounds `wide` (an f64 or an integer) toward zero to f32 and sets the
  // lowest bit if that was inexact (round to odd): rounding the result to
  // f16 or bf16 then rounds `wide` correctly, where rounding to nearest
  // twice could be off by one ulp.
  std::string RoundToOddF32(const Register& wide);
  Register MaxMin(bool maximum, const Register& a, const Register& b);

  // Integer division or remainder as the CPU target defines them (XLA's
  // choices): x / 0 is all ones, x % 0 is x, x / -1 negates (wrapping) and
  // x % -1 is 0; PTX leaves division by zero and overflow unspecified.
  Register IntDivide(bool remainder, const Register& a, const Register& b);
  // Exponentiation by squaring, wrapping; a negative exponent gives 0
  // unless the base is 1 or -1. Unrolled over the exponent's bits.
  Register IntPower(const Register& base, const Register& exponent);
  // sign, popcnt or count_leading_zeros of an integer.
  Register IntUnary(ir::UnaryOp op, const Register& x);
  // sign of a float: -1, +1, or x itself for zeros and NaN.
  Register FloatSign(const Register& x);
  // reduce_precision as the CPU target does it, on the bits of x's type.
  absl::StatusOr<Register> ReducePrecision(const ir::Instruction& instruction,
                                           const Register& x);

  // Math functions (math_functions.cc), computed in f64 for every float
  // type: `op` of `x` (an f64 register) for the ops IsMathFunction names.
  static bool IsMathFunction(ir::UnaryOp op);
  std::string MathF64(ir::UnaryOp op, const std::string& x);
  std::string PowerF64(const std::string& x, const std::string& y);
  std::string Atan2F64(const std::string& y, const std::string& x);
  std::string RemainderF64(const std::string& x, const std::string& y);
  // The unbiased exponent (s32) of a positive finite f64, subnormals
  // included.
  std::string Exponent(const std::string& v);
  // A label not used before in this kernel.
  std::string NewLabel(absl::string_view stem);
  // Rounds half away from zero in `wide` (f32 or f64) arithmetic.
  std::string RoundHalfAwayFromZero(const std::string& x, ir::ElementType wide);
  // A float register as f64, and an f64 value rounded to `type`.
  std::string ToF64(const Register& x);
  Register FromF64(const std::string& value, ir::ElementType type);
  std::string ExpF64(const std::string& x);
  std::string Exp2F64(const std::string& x);
  // e^r 2^k for |r| <= ln2/2 and k an integral f64 in [-1076, 1025]
  // (applied in two halves); NaN where `x`, the caller's input, is NaN.
  std::string ScaledExpF64(const std::string& x, const std::string& r,
                           const std::string& k);
  std::string Expm1F64(const std::string& x);
  std::string LogF64(const std::string& x);
  std::string Log1pF64(const std::string& x);
  std::string SinCosTanF64(ir::UnaryOp op, const std::string& x);
  std::string TanhF64(const std::string& x);
  std::string LogisticF64(const std::string& x);
  std::string CbrtF64(const std::string& x);
  std::string ErfF64(const std::string& x);
  std::string ErfcF64(const std::string& x);
  std::string ErfInvF64(const std::string& y);
  std::string ErfSmallF64(const std::string& a);
  std::string ErfcLargeF64(const std::string& a);
  std::string ExpNegSquareF64(const std::string& a);
  std::string TrigPiF64(ir::UnaryOp op, const std::string& x);
  std::string ShiftedArgumentF64(const std::string& v);
  std::string LogGammaPositiveF64(const std::string& v);
  std::string LogGammaNearZeroF64(const std::string& e, bool at_two);
  std::string DigammaPositiveF64(const std::string& v);
  std::string LgammaF64(const std::string& x);
  std::string DigammaF64(const std::string& x);
  // Emits `opcode` into a new f64 (predicate) register, which it returns.
  std::string F64Op(absl::string_view opcode,
                    std::vector<std::string> operands);
  std::string PredOp(absl::string_view opcode,
                     std::vector<std::string> operands);
  // sum c[i] x^(n-1-i), c[0] the highest degree's coefficient.
  std::string Horner(const std::string& x, const std::vector<double>& c);
  // 2^k as an f64, for k (an s32 register) in the normal exponent range.
  std::string Pow2(const std::string& k);

  // Integers: re-extends the low BitWidth(type) bits of `value` as `type`
  // does (no-op for 32 and 64 bits) into a new register.
  std::string Normalize(const std::string& value, ir::ElementType type);
  std::string Extend(const std::string& value, int bits, bool is_signed);
  Register TotalOrderCompare(ir::ComparisonDirection direction,
                             const Register& a, const Register& b);
  // WEAKORDER on widened floats `x`, `y` of PTX type `suffix` (f32, f64).
  Register WeakOrderCompare(const std::string& direction,
                            const std::string& suffix, const std::string& x,
                            const std::string& y);
  // The shift amount operand (.u32) for shifting values of `type` by
  // `amount`, read as unsigned and capped at the width.
  std::string ShiftAmount(const std::string& amount, ir::ElementType type);

  std::string NewRegister(ir::ElementType type);
  // A register for `type` computed wide: .f64 for f64, else .f32.
  std::string NewWideRegister(ir::ElementType type);

  PtxBuilder& builder_;
  int sm_;
  int required_isa_ = 0;
  int labels_ = 0;
};

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_INSTRUCTION_EMITTER_H_
