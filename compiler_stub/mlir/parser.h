// Parses MLIR text (StableHLO, func, check dialects) into the syntax tree.
#ifndef PJRTX_COMPILER_STUB_MLIR_PARSER_H_
#define PJRTX_COMPILER_STUB_MLIR_PARSER_H_

#include <string_view>

#include "absl/status/statusor.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::mlir {

// Parses one module: either `module [@name] [attributes {...}] { ... }` or
// a bare list of func.func definitions (as one test case of the StableHLO
// corpus is written), which becomes an unnamed module.
//
// Errors are INVALID_ARGUMENT with a message starting "<line>:<column>: "
// that names what was found and what was expected. MLIR bytecode (input
// starting with the bytes "ML\xefR") is UNIMPLEMENTED with a message asking
// for StableHLO text. Never crashes, never loops forever, on any input;
// nesting deeper than 256 is an error.
absl::StatusOr<Module> ParseModule(std::string_view text);

}  // namespace pjrtx::mlir

#endif  // PJRTX_COMPILER_STUB_MLIR_PARSER_H_
