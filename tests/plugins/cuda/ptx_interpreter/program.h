// The decoded form of a kernel: what the parser produces once and the
// executor runs for every thread. Operands are slot indices into one
// register file per thread, so that running an instruction is an indexed
// load or two and a call, with no name lookups or text left.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PROGRAM_H_
#define PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PROGRAM_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/plugins/cuda/ptx_interpreter/soft_float.h"
#include "tests/plugins/cuda/ptx_interpreter/types.h"

namespace fake_cuda::ptx {

// The register file of a thread:
//   kTrueSlot                 always 1: the guard of unguarded instructions
//   the special registers     %tid, %ntid, %ctaid, %nctaid (.x, .y, .z)
//   the declared registers    zeroed when a thread starts
//   the immediates            each operand literal, encoded in its type
inline constexpr uint32_t kTrueSlot = 0;
inline constexpr uint32_t kTidSlot = 1;      // .x, .y, .z follow.
inline constexpr uint32_t kNtidSlot = 4;     // .x, .y, .z follow.
inline constexpr uint32_t kCtaidSlot = 7;    // .x, .y, .z follow.
inline constexpr uint32_t kNctaidSlot = 10;  // .x, .y, .z follow.
inline constexpr uint32_t kFirstRegisterSlot = 13;

struct Instruction;
// Computes one instruction of kind kCompute on a thread's register file.
using ComputeFn = void (*)(const Instruction& instruction, Slot* slots);

enum class Kind : uint8_t {
  kCompute,    // compute(instruction, slots).
  kLoadParam,  // slots[d] = `width` bytes of parameter `target` at offset.
  kLoad,       // slots[d] = `width` bytes at slots[a] + offset.
  kStore,      // `width` bytes of slots[b] to slots[a] + offset.
  kBranch,     // Continue at code[target].
  kReturn,     // The thread is done.
};

struct Instruction {
  ComputeFn compute = nullptr;
  // Destination and sources; which ones an instruction reads is up to it.
  uint32_t d = 0, a = 0, b = 0, c = 0;
  // Runs when slots[guard] != 0 differs from guard_negated.
  uint32_t guard = kTrueSlot;
  bool guard_negated = false;
  Kind kind = Kind::kCompute;
  // Modifiers the compute function reads.
  Rounding rounding = Rounding::kNearestEven;
  bool ftz = false;
  bool sat = false;
  uint8_t combine = 0;  // setp: its Combine (compute_functions.h).
  // Memory accesses: bytes, and whether a load sign-extends.
  uint8_t width = 0;
  bool sign_extend = false;
  uint32_t target = 0;  // kBranch: instruction index; kLoadParam: param.
  int64_t offset = 0;   // Byte offset added to the address.
  int line = 0;         // In the module text, for messages.
};

struct KernelProgram {
  std::string name;
  std::vector<size_t> param_sizes;
  // Ends with a kReturn, so that running off the end finishes the thread.
  std::vector<Instruction> code;
  std::vector<std::string> opcodes;  // The opcode text of each instruction.
  // The register file a thread starts from (specials aside): registers
  // zero, immediates set.
  std::vector<Slot> initial_slots;
};

}  // namespace fake_cuda::ptx

#endif  // PJRTX_TESTS_PLUGINS_CUDA_PTX_INTERPRETER_PROGRAM_H_
