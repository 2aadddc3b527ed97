// Reads a StableHLO portable artifact (MLIR bytecode of the VHLO dialect,
// as JAX hands it to a PJRT plugin) into the syntax tree the text parser
// builds for the same program written as StableHLO text, so that the
// verifier and the lowering after it see no difference.
#ifndef PJRTX_COMPILER_STUB_BYTECODE_PORTABLE_ARTIFACT_H_
#define PJRTX_COMPILER_STUB_BYTECODE_PORTABLE_ARTIFACT_H_

#include <cstdint>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::bytecode {

// Whether `bytes` start with MLIR bytecode's magic "ML\xefR".
bool IsBytecode(std::string_view bytes);

// Bytecode versions 0 to 6 and VHLO from StableHLO 0.9.0 to 1.25.3 (the
// producer string "StableHLO_vX.Y.Z"; MLIR's own producers are read as
// unversioned). Errors are INVALID_ARGUMENT: a newer bytecode version,
// producer or unknown op names what it found and the newest supported;
// malformed input names the file offset. Never crashes, hangs or allocates
// more than the input can justify.
absl::StatusOr<mlir::Module> ReadPortableArtifact(
    absl::Span<const uint8_t> bytes);
absl::StatusOr<mlir::Module> ReadPortableArtifact(std::string_view bytes);

}  // namespace pjrtx::bytecode

#endif  // PJRTX_COMPILER_STUB_BYTECODE_PORTABLE_ARTIFACT_H_
