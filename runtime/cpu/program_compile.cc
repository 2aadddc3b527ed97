#include "runtime/cpu/program_compile.h"

#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "compiler_stub/compiler.h"
#include "runtime/cpu/program_signature.h"
#include "support/status_macros.h"

namespace pjrtx::cpu {

absl::StatusOr<CompiledStableHlo> CompileStableHlo(
    std::string_view format, std::string_view code,
    const ProgramOptions& options, bool force_fusion) {
  if (format != "mlir") {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown program format '", std::string(format),
                     "'; this plugin compiles format 'mlir' (StableHLO text)"));
  }
  compiler::CompileOptions compile_options;
  compile_options.entry = options.entry;
  compile_options.checks_as_outputs = options.checks_as_outputs;
  compile_options.fusion = force_fusion || options.fusion;
  compile_options.num_replicas = options.num_replicas;
  compile_options.num_partitions = options.num_partitions;
  CompiledStableHlo result;
  PJRTX_ASSIGN_OR_RETURN(result.program,
                         compiler::Compile(code, compile_options));
  const ir::Program& program = result.program;
  const ir::Computation& entry = program.computations[program.entry];
  CompiledProgram& compiled = result.compiled;
  compiled.name = entry.name;
  PJRTX_ASSIGN_OR_RETURN(compiled.inputs,
                         Signatures(entry.parameter_types,
                                    program.complex_parameters, "argument"));
  PJRTX_ASSIGN_OR_RETURN(
      compiled.outputs,
      Signatures(entry.result_types, program.complex_results, "result"));
  for (int64_t alias : program.parameter_aliases) {
    compiled.input_output_aliases.push_back(
        alias == ir::kNotDonated ? kInputNotDonatable : alias);
  }
  compiled.has_collectives = program.has_collectives;
  compiled.num_replicas = program.num_replicas;
  compiled.num_partitions = program.num_partitions;
  return result;
}

}  // namespace pjrtx::cpu
