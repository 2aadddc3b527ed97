// The `pjrtx` command line: `pjrtx <command> [args]`.
#include <iostream>
#include <string>
#include <vector>

#include "runtime/cli/info_command.h"
#include "runtime/cli/launch_command.h"
#include "runtime/cli/run_mlir_command.h"

int main(int argc, char** argv) {
  const char* usage =
      "usage: pjrtx <command> [args]\n"
      "commands:\n"
      "  info --plugin=PATH [--option name=value]...   describe a plugin "
      "and its devices\n"
      "  run-mlir --plugin=PATH [--option name=value]... FILE...   run "
      "StableHLO test files\n"
      "  run-mlir --plugin=PATH [--input=ARG.npy]... --output-dir=DIR "
      "PROGRAM   run one\n"
      "      StableHLO program on .npy inputs, writing DIR/output_<i>.npy "
      "(run-mlir --help)\n"
      "  launch -n N [--grace-seconds S] -- PROGRAM [ARGS]...   run N local "
      "processes of PROGRAM\n"
      "      (PJRTX_NUM_PROCESSES, PJRTX_PROCESS_ID, and PJRTX_COORDINATOR, "
      "where process 0 hosts the coordination service)\n";
  if (argc < 2 || std::string(argv[1]) == "--help" ||
      std::string(argv[1]) == "help") {
    std::cout << usage;
    return argc < 2 ? 2 : 0;
  }
  std::vector<std::string> args(argv + 2, argv + argc);
  const std::string command = argv[1];
  if (command == "info") return pjrtx::cli::RunInfo(args);
  if (command == "run-mlir") return pjrtx::cli::RunMlir(args);
  if (command == "launch") return pjrtx::cli::RunLaunch(args);
  std::cerr << "pjrtx: unknown command '" << command << "'\n" << usage;
  return 2;
}
