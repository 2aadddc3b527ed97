// `pjrtx run-mlir`'s program mode: one StableHLO program run once, its
// arguments read from .npy files and its results written to .npy files.
#ifndef PJRTX_RUNTIME_CLI_RUN_PROGRAM_FILES_H_
#define PJRTX_RUNTIME_CLI_RUN_PROGRAM_FILES_H_

#include <ostream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "runtime/client/client.h"

namespace pjrtx::cli {

struct ProgramFiles {
  std::string program;              // StableHLO, MLIR text.
  std::vector<std::string> inputs;  // One .npy file per entry argument.
  std::string output_dir;           // Created if missing.
};

// Compiles `files.program` through PJRTX_Client_Compile (the text path),
// runs it on the client's first addressable device with the arrays of
// `files.inputs` as arguments, and writes result i to
// `<output_dir>/output_<i>.npy`, logging one line per result. An input
// must have the argument's shape and its element type's NumPy type code
// (npy_element_type.h); INVALID_ARGUMENT naming the input otherwise.
// Compile and run errors are the plugin's.
absl::Status RunProgramFiles(const client::Client& client,
                             const ProgramFiles& files, std::ostream& log);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_RUN_PROGRAM_FILES_H_
