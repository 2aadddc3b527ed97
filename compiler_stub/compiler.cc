#include "compiler_stub/compiler.h"

#include "absl/strings/str_cat.h"
#include "compiler_stub/bytecode/portable_artifact.h"
#include "compiler_stub/mlir/parser.h"
#include "compiler_stub/passes/call_inlining.h"
#include "compiler_stub/passes/complex_expansion.h"
#include "compiler_stub/passes/custom_call_policy.h"
#include "compiler_stub/passes/dot_transpose_folding.h"
#include "compiler_stub/passes/fusion.h"
#include "compiler_stub/passes/shape_refinement.h"
#include "support/status_macros.h"

namespace pjrtx::compiler {
namespace {

// Lowers `module`, its complex values first expanded into pairs of real
// ones (the IR has no complex types); the entry's complex arguments and
// results are recorded on the program.
absl::StatusOr<ir::Program> Lower(const mlir::Module& module,
                                  const ir::LowerOptions& options) {
  if (!ir::MentionsComplex(module)) return ir::LowerModule(module, options);
  mlir::Module expanded = module;
  ir::ComplexSignatures signatures;
  PJRTX_RETURN_IF_ERROR(ir::ExpandComplex(expanded, &signatures));
  PJRTX_ASSIGN_OR_RETURN(ir::Program program,
                         ir::LowerModule(expanded, options));
  PJRTX_ASSIGN_OR_RETURN(const mlir::Function* entry,
                         ir::FindEntryFunction(expanded, options.entry));
  const ir::ComplexSignature& signature = signatures[entry->name];
  program.complex_parameters = signature.arguments;
  program.complex_results = signature.results;
  return program;
}

}  // namespace

absl::StatusOr<ir::Program> Compile(std::string_view text,
                                    const CompileOptions& options) {
  if (options.num_replicas < 0 || options.num_partitions < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("num_replicas (", options.num_replicas,
                     ") and num_partitions (", options.num_partitions,
                     ") must be >= 0 (0 keeps the module's own count)"));
  }
  // JAX hands plugins StableHLO portable artifacts (MLIR bytecode); both
  // front ends build the same syntax tree.
  PJRTX_ASSIGN_OR_RETURN(mlir::Module module,
                         bytecode::IsBytecode(text)
                             ? bytecode::ReadPortableArtifact(text)
                             : mlir::ParseModule(text));
  // Before complex expansion, so that a platform library call on complex
  // values is reported as such.
  PJRTX_RETURN_IF_ERROR(ir::RequireOneDevice(module));
  // Refined first, so that shape assertions see their predicates folded.
  if (!options.argument_dims.empty() && ir::HasDynamicShapes(module)) {
    PJRTX_RETURN_IF_ERROR(
        ir::RefineShapes(module, options.entry.empty() ? "main" : options.entry,
                         options.argument_dims));
  }
  PJRTX_RETURN_IF_ERROR(ir::ResolveCustomCalls(module));
  PJRTX_ASSIGN_OR_RETURN(ir::Program program, Lower(module, options));
  if (options.num_replicas > 0) program.num_replicas = options.num_replicas;
  if (options.num_partitions > 0) {
    program.num_partitions = options.num_partitions;
  }
  // Inlined first, so that fusion sees through JAX's outlined helpers.
  if (options.fusion) ir::InlineStraightLineCalls(program);
  ir::FoldTransposesIntoDots(program);
  if (options.fusion) ir::FuseElementwise(program);
  return program;
}

}  // namespace pjrtx::compiler
