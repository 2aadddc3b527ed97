#include "compiler_stub/compiler.h"

#include "compiler_stub/ir/fusion.h"
#include "compiler_stub/mlir/parser.h"

namespace pjrtx::compiler {

absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    const CompileOptions& options) {
  absl::StatusOr<mlir::Module> module = mlir::ParseModule(text);
  if (!module.ok()) return module.status();
  absl::StatusOr<ir::Program> program = ir::LowerModule(*module, options);
  if (program.ok() && options.fusion) ir::FuseElementwise(*program);
  return program;
}

}  // namespace pjrtx::compiler
