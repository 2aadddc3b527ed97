// Numeric literals of PTX operands: integers (decimal, 0x hex, 0b binary,
// 0 octal, optional U suffix), exact float bits (0fXXXXXXXX for f32,
// 0dXXXXXXXXXXXXXXXX for f64) and decimal floats ("1.5", "2e-3").
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LITERALS_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LITERALS_H_

#include <cstdint>
#include <string_view>

#include "tests/plugins/cuda/ptx_interpreter/types.h"

namespace fake_cuda::ptx {

struct Literal {
  enum class Kind { kInteger, kFloatBits, kDoubleBits, kDecimal };
  Kind kind = Kind::kInteger;
  // kInteger: the value, two's complement when negative; kFloatBits and
  // kDoubleBits: the IEEE bits (the sign flipped when negative).
  uint64_t bits = 0;
  double decimal = 0;  // kDecimal, negated when negative.
  bool negative = false;
};

// Parses `word`, written after a '-' when `negative`. Returns false when
// it is not a literal (or an integer does not fit in 64 bits).
bool ParseLiteral(std::string_view word, bool negative, Literal* literal);

// The literal as an operand of `type`, as a register slot holds it:
// integers truncated to the type's width, floats rounded to nearest.
// Integer literals give .f16/.bf16 operands their raw bits (as mov.b16
// does) and other float operands their value; .pred takes 0 or nonzero.
// Returns false for a float literal where an integer is expected.
bool EncodeLiteral(const Literal& literal, Type type, Slot* slot);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_LITERALS_H_
