// What the compiler makes of the custom calls and device annotations that
// frameworks (jax.export) put into otherwise plain StableHLO, before
// lowering: annotations are honoured or dropped as their meaning says, calls
// into platform libraries and programs for several devices are refused with
// a message naming what is missing.
#ifndef PJRTX_COMPILER_STUB_PASSES_CUSTOM_CALL_POLICY_H_
#define PJRTX_COMPILER_STUB_PASSES_CUSTOM_CALL_POLICY_H_

#include "absl/status/status.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

// UNIMPLEMENTED naming the missing SPMD partitioner when `module` is
// annotated for several devices: mhlo.num_partitions > 1 together with
// sharding annotations (mhlo.sharding, sdy.sharding, Sharding custom calls),
// an mhlo.sharding tiled over more than one device, or an
// sdy.manual_computation left over (the reader inlines those over one
// device). A program for several partitions without sharding annotations
// is already per-device code and passes.
absl::Status RequireOneDevice(const mlir::Module& module);

// Rewrites the custom calls whose meaning on one device is known:
//  - placement and sharding annotations (annotate_device_placement,
//    Sharding, SPMDFullToShardShape/SPMDShardToFullShape, MoveToHost,
//    MoveToDevice, xla.sdy.*) are identities on one device: dropped, their
//    results replaced by their operands;
//  - shape_assertion asserts a shape predicate: dropped when its predicate
//    is a constant true, INVALID_ARGUMENT with its error message when false,
//    UNIMPLEMENTED when computed at run time (dynamic shapes);
//  - calls into platform libraries (LAPACK, cuSOLVER, hipSOLVER, TPU
//    library calls, ...) are UNIMPLEMENTED naming the target.
// Other custom calls are left for the lowering (which rejects them).
absl::Status ResolveCustomCalls(mlir::Module& module);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_PASSES_CUSTOM_CALL_POLICY_H_
