// GPU kernels for the instructions of a computation that are not fused
// elementwise chains: data movement (broadcast_in_dim, transpose, reshape,
// slice, concatenate, pad, reverse), iota, reduce (and kFusedReduce) and
// reduce_window with a one-op body, dot_general, and the elementwise ops
// fusion leaves alone
// (as a fused kernel of one step, ptx_emitter.h). Each kernel computes one
// instruction by itself, one thread per output element, with the shapes
// baked into the PTX as constants. Results are bit for bit those of the
// CPU reference kernels (runtime/cpu): reductions fold in its order, dots
// accumulate in its domains (see dot_kernels.cc; the CPU interpreter's
// oneDNN path for f32 and bf16 dots is not the reference and may differ in
// the last bits). One thread per output element keeps every sum in that
// order; it is not fast for reductions to few elements or for large dots.
#ifndef PJRTX_COMPILER_STUB_PTX_INSTRUCTION_KERNELS_H_
#define PJRTX_COMPILER_STUB_PTX_INSTRUCTION_KERNELS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/ptx/ptx_emitter.h"

namespace pjrtx::ptx {

// A kernel computing one instruction of a computation by itself.
struct InstructionKernel {
  std::string name;          // == the requested name; the PTX entry.
  std::string ptx;           // A module with that one .entry.
  std::vector<int> inputs;   // Values read, in parameter order.
  std::vector<int> outputs;  // Values written, in parameter order.
  uint64_t threads = 0;      // n: the launch covers n threads' work
                             // (grid-stride).
};

// The kernel for `instruction` of `computation`:
//
//   .visible .entry <name>(.param .u64 in0, ..., .param .u64 out0, ...,
//                          .param .u64 n)
//
// the same convention as the fused kernels (ptx_emitter.h): in<i> and
// out<i> are the global addresses of inputs[i] and outputs[i] in the
// storage layout, n is `threads`, and any grid computes all of it.
// inputs are the instruction's operands and outputs its results, in order.
//
// Element types: the moves copy the bytes of the storage layout and work
// for every type; iota, reduce, dot_general and the elementwise ops compute
// on the types the elementwise emitter supports (not FP8). reduce takes one
// input, and a body that is one add, multiply, maximum, minimum, and or or of
// its two parameters; multi-input reduces are UNIMPLEMENTED. reduce_window
// likewise (one input, a one-op body), with any strides, dilations and
// padding.
//
// Errors: INVALID_ARGUMENT for an unknown target or a name that is not a
// PTX identifier; UNIMPLEMENTED "L:C: <op> ..." for an instruction or
// element type this does not generate.
absl::StatusOr<InstructionKernel> EmitInstructionKernel(
    const ir::Program& program, const ir::Computation& computation,
    const ir::Instruction& instruction, const std::string& name,
    const PtxTarget& target);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_INSTRUCTION_KERNELS_H_
