// Groups of elementwise instructions that one GPU kernel computes with one
// thread per element, so that the values between them never reach memory.
//
// The grouping is target-neutral: it reads the verified program and says
// which instructions a kernel covers, what it reads and what it writes. A
// code generator (ptx_emitter.h) turns each group into a kernel; a group it
// cannot generate runs the usual way, instruction by instruction.
#ifndef PJRTX_COMPILER_STUB_PTX_ELEMENTWISE_FUSION_H_
#define PJRTX_COMPILER_STUB_PTX_ELEMENTWISE_FUSION_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler_stub/ir/element_type.h"
#include "compiler_stub/ir/program.h"

namespace pjrtx::ptx {

// A value of the computation that the kernel reads.
struct FusedInput {
  int value = -1;
  ir::Shape shape;
  // A one-element value that every thread reads whole: a rank-0 select
  // predicate or clamp bound, or the operand of a splat broadcast.
  // Otherwise the value has the kernel's dims and thread i reads element i.
  bool is_scalar = false;
};

// A value the kernel computes and writes, element i by thread i.
struct FusedOutput {
  int value = -1;
  ir::Shape shape;
};

struct FusedKernel {
  std::string name;  // A PTX identifier, unique within one computation.
  // The index space: every output has these dims; the launch passes their
  // product as the element count.
  std::vector<int64_t> dims;
  std::vector<FusedInput> inputs;    // In the order of first reads.
  std::vector<FusedOutput> outputs;  // In program order.
  // The instructions the kernel evaluates, in order: the fused body's steps
  // as instructions over the computation's value numbers. Steps that are
  // the fused instruction's results keep its result numbers; the values in
  // between are numbered past the computation's own.
  std::vector<ir::Instruction> instructions;
  // For each entry of `instructions`, its index in the computation.
  std::vector<int> source_instructions;
};

// The kernels of `program.computations[computation]`: one per
// kFusedElementwise instruction that ir::FuseElementwise made (fusion is
// decided once, in the target-neutral IR, for every target). Kernels are
// named `<computation>_fusion<k>`.
std::vector<FusedKernel> FindElementwiseFusions(const ir::Program& program,
                                                int computation);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_ELEMENTWISE_FUSION_H_
