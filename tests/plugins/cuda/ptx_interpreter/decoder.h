// Opcode decoding: "cvt.rzi.s32.f32" -> what the executor runs and what
// operands it takes. This is where the supported PTX subset is decided.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_DECODER_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_DECODER_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/program.h"
#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"
#include "tests/plugins/cuda/ptx_interpreter/types.h"

namespace fake_cuda::ptx {

// An opcode split at its dots: base "cvt", modifiers {"rzi"} and types
// {s32, f32}, each list in the order written.
struct Opcode {
  std::string_view base;
  std::vector<std::string_view> modifiers;
  std::vector<Type> types;
};
Opcode SplitOpcode(std::string_view text);

enum class OperandKind {
  kValue,    // A register, special register or immediate of `type`.
  kAddress,  // [register + offset], or [param + offset] for ld.param.
  kLabel,    // A branch target.
};

struct OperandSpec {
  OperandKind kind = OperandKind::kValue;
  Type type = Type::kNone;  // kValue: immediates are encoded in it.
};

struct Operation {
  Kind kind = Kind::kCompute;
  ComputeFn compute = nullptr;
  // In the order written; the first is written when has_destination.
  std::vector<OperandSpec> operands;
  bool has_destination = true;
  // Copied into the Instruction.
  Rounding rounding = Rounding::kNearestEven;
  bool ftz = false;
  bool sat = false;
  uint8_t combine = 0;
  uint8_t width = 0;
  bool sign_extend = false;
  bool param_space = false;  // ld.param: the address names a parameter.
};

// nullopt when the opcode, or its combination of modifiers and types, is
// not one the interpreter supports.
std::optional<Operation> Decode(const Opcode& opcode);

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_DECODER_H_
