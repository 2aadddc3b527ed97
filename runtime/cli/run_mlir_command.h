// `pjrtx run-mlir`: runs StableHLO interpreter test files, or one program
// on .npy inputs, through a plugin.
#ifndef PJRTX_RUNTIME_CLI_RUN_MLIR_COMMAND_H_
#define PJRTX_RUNTIME_CLI_RUN_MLIR_COMMAND_H_

#include <string>
#include <vector>

namespace pjrtx::cli {

// `pjrtx run-mlir --plugin=PATH [--option k=v]... FILE...`: splits each
// file on `// -----`, compiles every case through the C ABI with its check
// ops as outputs, runs it on the first device and evaluates the checks.
// Prints exactly one line per case, `PASS <file>:<n>`,
// `FAIL <file>:<n>: <reason>` or `SKIP <file>:<n>: <reason>`, then
// `cases: P passed, F failed, S skipped`. A case is skipped when its ops
// or types are unsupported. Exit code 1 if any case failed, 2 on bad usage.
//
// With `--output-dir=DIR` (and `--input=ARG.npy` per argument) it runs one
// program instead (run_program_files.h): exit code 1 if it fails to
// compile or run, naming why.
int RunMlir(const std::vector<std::string>& args);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_RUN_MLIR_COMMAND_H_
