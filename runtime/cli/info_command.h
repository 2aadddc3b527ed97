// `pjrtx info`: what a plugin is and what devices it offers.
#ifndef PJRTX_RUNTIME_CLI_INFO_COMMAND_H_
#define PJRTX_RUNTIME_CLI_INFO_COMMAND_H_

#include <string>
#include <vector>

namespace pjrtx::cli {

// Runs `pjrtx info --plugin=PATH [--option k=v]...` with `args` the words
// after "info". Prints to stdout; errors to stderr. Returns the exit code:
// 0 success, 1 the plugin could not be loaded or failed, 2 bad usage or
// options.
int RunInfo(const std::vector<std::string>& args);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_INFO_COMMAND_H_
