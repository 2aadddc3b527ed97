#include "compiler_stub/compiler.h"

#include "compiler_stub/mlir/parser.h"

namespace pjrtx::compiler {

absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    const CompileOptions& options) {
  absl::StatusOr<mlir::Module> module = mlir::ParseModule(text);
  if (!module.ok()) return module.status();
  return ir::LowerModule(*module, options);
}

}  // namespace pjrtx::compiler
