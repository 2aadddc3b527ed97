// The scaffolding the single-instruction kernels (instruction_kernels.h)
// share: parameters, the grid-stride loop, index arithmetic with the
// shapes baked in as constants, loads and stores in the storage layout,
// and nested loops over reduced or contracted dimensions.
#ifndef PJRTX_COMPILER_STUB_PTX_KERNEL_WRITER_H_
#define PJRTX_COMPILER_STUB_PTX_KERNEL_WRITER_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/ptx/instruction_emitter.h"
#include "compiler_stub/ptx/ptx_builder.h"
#include "compiler_stub/ptx/ptx_emitter.h"

namespace pjrtx::ptx {

class KernelWriter {
 public:
  // Declares in0..in{num_inputs-1}, out0..out{num_outputs-1} and n, and
  // loads their global addresses.
  KernelWriter(const PtxTarget& target, int num_inputs, int num_outputs);

  PtxBuilder& builder() { return builder_; }
  InstructionEmitter& emitter() { return emitter_; }
  // Registers holding the global address of input / output `i`.
  const std::string& input(int i) const { return inputs_[i]; }
  const std::string& output(int i) const { return outputs_[i]; }

  // Opens the grid-stride loop over [0, n) and returns its index (a .b64
  // register); what is emitted up to EndLoop runs once per index.
  std::string BeginLoop();
  void EndLoop();

  // A label not used before: "$L__<stem><k>".
  std::string NewLabel(absl::string_view stem);
  std::string NewB64() { return builder_.NewRegister(RegisterClass::kB64); }
  std::string NewPred() { return builder_.NewRegister(RegisterClass::kPred); }

  // The row-major multi-index of `linear` (< the product of `dims`): one
  // operand per dimension, "0" for dimensions of size 1.
  std::vector<std::string> Unflatten(const std::string& linear,
                                     const std::vector<int64_t>& dims);
  // constant + sum of coefficients[d] * index[d], modulo 2^64 (so negative
  // coefficients work), in a new .b64 register.
  std::string Affine(const std::vector<std::string>& index,
                     const std::vector<int64_t>& coefficients,
                     int64_t constant);

  // "[address]" of element `element` (a .b64 register or immediate) of an
  // array at `base` whose elements take `element_size` bytes.
  std::string Address(const std::string& base, const std::string& element,
                      size_t element_size);
  // An element of `type` in its register class (see RegisterClassFor);
  // i1 is one byte in memory.
  Register Load(ir::ElementType type, const std::string& address);
  void Store(const Register& value, const std::string& address);
  // Copies one element of `size` bytes, whatever its type.
  void Copy(size_t size, const std::string& from, const std::string& to);
  // to = from, both of to.type.
  void Move(const Register& to, const Register& from);

  // Runs `body` once per multi-index of `dims` in row-major order (the
  // last dimension fastest), every dimension > 0. Each offsets[k] (a .b64
  // register) advances by strides[k][d] per step of dimension d while the
  // loops run, and holds its value again afterwards.
  absl::Status Loops(const std::vector<int64_t>& dims,
                     const std::vector<std::vector<int64_t>>& strides,
                     const std::vector<std::string>& offsets,
                     const std::function<absl::Status()>& body);

  // Runs `body` with index = 0, 1, ..., n - 1 (a .b64 register); nothing
  // when n is 0. For the serial parts of kernels that one thread does.
  absl::Status CountedLoop(
      int64_t n, const std::function<absl::Status(const std::string&)>& body);
  // Branches to `label` unless `value` (a .b64 register) is 0: where one
  // thread of several does the work.
  void BranchUnlessZero(const std::string& value, const std::string& label);

  // The element of an input dimension of `size` elements, spread out by
  // `dilation` (holes between elements), that position `x` (a .b64
  // register, any sign) of the dilated, padded axis reads; branches to
  // `padding` where it reads none (before the start, in a hole, past the
  // end). For windows over base-dilated inputs.
  std::string DilatedElementOrBranch(const std::string& x, int64_t dilation,
                                     int64_t size, const std::string& padding);

  // The module with one entry, `name`, for the code emitted so far.
  std::string Module(const std::string& name, absl::string_view comment,
                     int isa) const;

 private:
  absl::Status LoopsFrom(size_t d, const std::vector<int64_t>& dims,
                         const std::vector<std::vector<int64_t>>& strides,
                         const std::vector<std::string>& offsets,
                         const std::function<absl::Status()>& body);

  const PtxTarget& target_;
  PtxBuilder builder_;
  InstructionEmitter emitter_;
  std::vector<std::string> parameters_;
  std::vector<std::string> inputs_;
  std::vector<std::string> outputs_;
  std::string index_, stride_, n_;
  int labels_ = 0;
};

// Integer immediates in PTX syntax; negative values as their 64-bit two's
// complement, which every .u64 / .s64 / .b64 operand accepts.
std::string Immediate(int64_t value);

// Row-major strides, in elements, of `dims`.
std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& dims);

// UNIMPLEMENTED "L:C: <op> <what> is not supported by the PTX kernels".
absl::Status Unsupported(const ir::Instruction& instruction,
                         absl::string_view what);

// UNIMPLEMENTED naming the first operand or result type of `instruction`
// that has no register class (see RegisterClassFor); OK otherwise.
absl::Status CheckRegisterTypes(const ir::Instruction& instruction);

// A conversion of the rank-0 `x` to `to` with the elementwise emitter's
// semantics (those of the CPU's convert), attributed to `instruction`.
absl::StatusOr<Register> ConvertRegister(KernelWriter& writer,
                                         const ir::Instruction& instruction,
                                         const Register& x, ir::ElementType to);

// The code of one group of ops, emitted into `writer` (which the caller
// made with one input per operand and one output per result). The caller
// has checked that every operand and result is a tensor.
absl::Status EmitLayoutKernel(KernelWriter& writer,
                              const ir::Instruction& instruction);
absl::Status EmitDynamicSliceKernel(KernelWriter& writer,
                                    const ir::Instruction& instruction);
absl::Status EmitGatherKernel(KernelWriter& writer,
                              const ir::Instruction& instruction);
absl::Status EmitConvolutionKernel(KernelWriter& writer,
                                   const ir::Instruction& instruction);
absl::Status EmitSortKernel(KernelWriter& writer, const ir::Program& program,
                            const ir::Instruction& instruction);
absl::Status EmitMapKernel(KernelWriter& writer, const ir::Program& program,
                           const ir::Instruction& instruction);
absl::Status EmitScatterKernel(KernelWriter& writer, const ir::Program& program,
                               const ir::Instruction& instruction);
absl::Status EmitSelectAndScatterKernel(KernelWriter& writer,
                                        const ir::Program& program,
                                        const ir::Instruction& instruction);
absl::Status EmitTriangularSolveKernel(KernelWriter& writer,
                                       const ir::Instruction& instruction);

// Region `region` of `instruction` evaluated on scalar `arguments` (its
// parameters, in order): every instruction emitted with the elementwise
// emitter, fused groups through their steps; its one result.
// UNIMPLEMENTED, attributed to `instruction`, for ops the emitter does not
// know, captured values or several results.
absl::StatusOr<Register> EmitScalarRegion(
    KernelWriter& writer, const ir::Program& program,
    const ir::Instruction& instruction, int region,
    const std::vector<Register>& arguments);
// The same for a region of any number of results, in order.
absl::StatusOr<std::vector<Register>> EmitScalarRegionResults(
    KernelWriter& writer, const ir::Program& program,
    const ir::Instruction& instruction, int region,
    const std::vector<Register>& arguments);
// accumulators = body(accumulators..., elements...) for a reduction of
// any body (reduce, reduce_window): `instruction`'s region evaluated on the
// registers, its results moved into the accumulators.
absl::Status FoldRegion(KernelWriter& writer, const ir::Program& program,
                        const ir::Instruction& instruction,
                        const std::vector<Register>& accumulators,
                        const std::vector<Register>& elements);
absl::Status EmitReduceKernel(KernelWriter& writer, const ir::Program& program,
                              const ir::Instruction& instruction);
absl::Status EmitReduceWindowKernel(KernelWriter& writer,
                                    const ir::Program& program,
                                    const ir::Instruction& instruction);

// The body of a reduction (reduce, reduce_window) when its region is
// exactly `return op(p0, p1)` (either order) with op one of add, multiply,
// maximum, minimum, and, or: that op; null otherwise.
const ir::Instruction* Reducer(const ir::Program& program,
                               const ir::Instruction& instruction);
// acc = reducer(acc, x), the operands in the order `instruction`'s region
// passes its parameters to `reducer` (its Reducer).
absl::Status Fold(KernelWriter& writer, const ir::Program& program,
                  const ir::Instruction& instruction,
                  const ir::Instruction& reducer, const Register& acc,
                  const Register& x);
absl::Status EmitDotKernel(KernelWriter& writer,
                           const ir::Instruction& instruction);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_KERNEL_WRITER_H_
