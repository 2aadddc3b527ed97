// Syntax tree -> verified program: name resolution, type and shape checks,
// typed attributes.
#ifndef PJRTX_COMPILER_STUB_IR_LOWER_H_
#define PJRTX_COMPILER_STUB_IR_LOWER_H_

#include <string>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/program.h"
#include "compiler_stub/mlir/ast.h"

namespace pjrtx::ir {

struct LowerOptions {
  // The function to run; empty picks `main`, else the only function without
  // arguments (the StableHLO test corpus's convention), and lowers every
  // function of the module. A named entry lowers only the functions it
  // reaches through calls, so that a module's other functions (e.g. a
  // corpus @main of interpreter-only ops) need not compile.
  std::string entry;
  // Turns `check.*` ops of the entry function into extra outputs (after the
  // function's own results, in program order: one output for an
  // expect_*_const, two for expect_eq / expect_almost_eq / expect_close),
  // so that a test runner can compare them. Otherwise check ops are an
  // error.
  bool checks_as_outputs = false;
};

// The function LowerModule runs for `requested` (see LowerOptions::entry),
// or an error naming why none can be chosen.
absl::StatusOr<const mlir::Function*> FindEntryFunction(
    const mlir::Module& module, const std::string& requested);

// Lowers a module without complex types (passes/complex_expansion.h
// expands them first; compiler.h's Compile runs the whole pipeline).
// Errors: INVALID_ARGUMENT "L:C: ..." for an ill-formed or ill-typed
// program (naming the op, the value and what was expected);
// UNIMPLEMENTED "L:C: ..." naming an op or element type this compiler does
// not support (a test runner reports those cases as skipped).
absl::StatusOr<Program> LowerModule(const mlir::Module& module,
                                    const LowerOptions& options);

}  // namespace pjrtx::ir

#endif  // PJRTX_COMPILER_STUB_IR_LOWER_H_
