// The text of one PTX function body under construction, and the virtual
// registers it uses.
#ifndef PJRTX_COMPILER_STUB_PTX_PTX_BUILDER_H_
#define PJRTX_COMPILER_STUB_PTX_PTX_BUILDER_H_

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/string_view.h"
#include "compiler_stub/ir/element_type.h"

namespace pjrtx::ptx {

enum class RegisterClass { kPred, kB16, kB32, kB64, kF32, kF64 };

// Where a value of each element type lives: i1 in .pred; f16 and bf16 as
// raw bits in .b16; f32 and f64 in .f32 and .f64; integers of up to 32 bits
// in .b32, sign- or zero-extended from their width as their type says (as
// the storage layout keeps the 2- and 4-bit types), 64-bit ones in .b64.
// nullopt for the FP8 types, which the emitter does not support yet.
std::optional<RegisterClass> RegisterClassFor(ir::ElementType type);

// A value of the kernel held in a register.
struct Register {
  std::string name;  // "%f3".
  ir::ElementType type = ir::ElementType::kF32;
};

// PTX spellings of immediates: the low `digits` hex digits of `bits`
// ("0x00FF" for 255 and 4), "0f3F800000" for 1.0f, "0d3FF0000000000000" for
// 1.0. The float forms keep every bit, NaN payloads included.
std::string HexImmediate(uint64_t bits, int digits);
std::string F32Immediate(float value);
std::string F64Immediate(double value);

class PtxBuilder {
 public:
  // A register not handed out before, e.g. "%r7". Each value gets its own;
  // ptxas allocates the hardware registers.
  std::string NewRegister(RegisterClass register_class);

  // Appends "  <opcode> <operand>, <operand>, ...;". A guarded instruction
  // puts its guard in `opcode` ("@%p1 bra").
  void Emit(absl::string_view opcode,
            std::initializer_list<absl::string_view> operands);
  void Emit(absl::string_view opcode, const std::vector<std::string>& operands);
  void EmitLabel(absl::string_view label);

  // The .reg declarations for every register handed out, one line each.
  std::string RegisterDeclarations() const;
  const std::string& code() const { return code_; }

 private:
  std::array<int, 6> counts_{};
  std::string code_;
};

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_PTX_BUILDER_H_
