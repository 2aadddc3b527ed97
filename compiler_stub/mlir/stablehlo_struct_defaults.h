// The fields StableHLO's printer leaves out of its struct attributes when
// they hold their default. printStruct (StablehloOps.cpp) writes an integer
// field only when it is non-zero and a list field only when it is
// non-empty, and the dialect's parser defaults them back, so
//   #stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
//                     start_index_map = [0]>
// has index_vector_dim = 0 (not the rank of the indices). JAX's
// `as_text()` prints such attributes whenever the indices of a gather or
// scatter hold one index (a traced scalar index, x.at[i] with a scalar i).
#ifndef PJRTX_COMPILER_STUB_MLIR_STABLEHLO_STRUCT_DEFAULTS_H_
#define PJRTX_COMPILER_STUB_MLIR_STABLEHLO_STRUCT_DEFAULTS_H_

#include "compiler_stub/mlir/ast.h"

namespace pjrtx::mlir {

// Adds to a parsed #stablehlo.<mnemonic><...> attribute the integer fields
// its text left out, as `name = 0 : i64` at `location` (the attribute's),
// so that the tree holds them as the bytecode reader's does (a portable
// artifact always carries them).
// Omitted list fields stay absent: readers take them as empty, as the
// bytecode reader leaves empty lists out too.
void AddOmittedStructFields(Attribute& attribute, const Location& location);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_STABLEHLO_STRUCT_DEFAULTS_H_
