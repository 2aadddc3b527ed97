// PTX for the fused elementwise kernels of elementwise_fusion.h.
#ifndef PJRTX_COMPILER_STUB_PTX_PTX_EMITTER_H_
#define PJRTX_COMPILER_STUB_PTX_PTX_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler_stub/ptx/elementwise_fusion.h"
#include "compiler_stub/ptx/ptx_target.h"

namespace pjrtx::ptx {

// A PTX module with one entry point, `kernel.name`:
//
//   .visible .entry <name>(.param .u64 in0, ..., .param .u64 out0, ...,
//                          .param .u64 n)
//
// in<i> and out<i> are the global addresses of kernel.inputs[i] and
// kernel.outputs[i] (elements in the storage layout: i1 as one byte,
// 2- and 4-bit integers one per byte), n the number of elements (the
// product of kernel.dims). Any grid computes all n: each thread starts at
// its global index and strides by the number of threads in the grid.
//
// `.version` is the newest of 7.8, the oldest version that knows the
// target, and what the instructions need, so that one module text serves
// drivers from CUDA 11.8 on where the target allows.
//
// Errors: INVALID_ARGUMENT for an unknown target, a name that is not a PTX
// identifier, or a kernel that reads a value it neither gets nor computes;
// UNIMPLEMENTED "L:C: <op> ..." for an op, element type or conversion this
// emitter does not generate (the caller then runs that group's instructions
// one by one).
absl::StatusOr<std::string> EmitPtx(const FusedKernel& kernel,
                                    const PtxTarget& target);

}  // namespace pjrtx::ptx

#endif  // PJRTX_COMPILER_STUB_PTX_PTX_EMITTER_H_
