// StableHLO text -> verified program. The one entry point plugins use.
#ifndef PJRTX_COMPILER_STUB_COMPILER_H_
#define PJRTX_COMPILER_STUB_COMPILER_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/lower.h"
#include "compiler_stub/ir/program.h"

namespace pjrtx::compiler {

struct CompileOptions : ir::LowerOptions {
  // Inline straight-line calls and fuse elementwise chains
  // (ir::InlineStraightLineCalls, ir::FuseElementwise); off only to compare.
  bool fusion = true;
  // The launch's replica and partition counts (Program::num_replicas and
  // num_partitions). 0 keeps the module's mhlo.num_replicas and
  // mhlo.num_partitions (1 when absent); a launcher that knows its device
  // assignment overrides them. Negative counts are INVALID_ARGUMENT.
  int64_t num_replicas = 0;
  int64_t num_partitions = 0;
  // The entry's argument dimensions, one list per argument, for programs
  // with dynamic ('?') dimensions (jax.export's shape polymorphism): the
  // program is specialized for them (passes/shape_refinement.h). Empty:
  // none known; such programs then fail to lower.
  std::vector<std::vector<int64_t>> argument_dims;
};

// Parses and verifies `text` (StableHLO in MLIR text, pretty or generic
// form). Errors carry "L:C: " positions: INVALID_ARGUMENT for malformed or
// ill-typed programs, UNIMPLEMENTED for unsupported ops and types. `text`
// may also be a StableHLO portable artifact (MLIR bytecode of VHLO, as
// frameworks hand it over), read by compiler_stub/bytecode; malformed or
// too new artifacts are INVALID_ARGUMENT naming the offset or version, and
// errors in an artifact's program carry the source position its locations
// name, "file:L:C: " (for JAX, the user's Python line; "0:0: " where the
// location names none).
absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    const CompileOptions& options);

}  // namespace pjrtx::compiler

#endif  // PJRTX_COMPILER_STUB_COMPILER_H_
