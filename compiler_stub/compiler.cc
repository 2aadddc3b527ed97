#include "compiler_stub/compiler.h"

#include "absl/strings/str_cat.h"
#include "compiler_stub/ir/fusion.h"
#include "compiler_stub/mlir/parser.h"

namespace pjrtx::compiler {

absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    const CompileOptions& options) {
  if (options.num_replicas < 0 || options.num_partitions < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_replicas (", options.num_replicas,
                     ") and num_partitions (", options.num_partitions,
                     ") must be >= 0 (0 keeps the module's own count)"));
  }
  absl::StatusOr<mlir::Module> module = mlir::ParseModule(text);
  if (!module.ok()) return module.status();
  absl::StatusOr<ir::Program> program = ir::LowerModule(*module, options);
  if (!program.ok()) return program;
  if (options.num_replicas > 0) program->num_replicas = options.num_replicas;
  if (options.num_partitions > 0) {
    program->num_partitions = options.num_partitions;
  }
  if (options.fusion) ir::FuseElementwise(*program);
  return program;
}

}  // namespace pjrtx::compiler
