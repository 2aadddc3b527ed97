// `pjrtx launch`: runs one program as N local processes of one job.
#ifndef PJRTX_RUNTIME_CLI_LAUNCH_COMMAND_H_
#define PJRTX_RUNTIME_CLI_LAUNCH_COMMAND_H_

#include <string>
#include <vector>

namespace pjrtx::cli {

// Runs `pjrtx launch -n N [--grace-seconds S] -- PROGRAM [ARGS]...` with
// `args` the words after "launch".
//
// Starts N processes of PROGRAM (looked up in PATH), process i with
// PJRTX_NUM_PROCESSES=N, PJRTX_PROCESS_ID=i and PJRTX_COORDINATOR: a free
// loopback port chosen once, where process 0 is expected to host the
// coordination service, or the launcher's own PJRTX_COORDINATOR when set.
// Each process runs in its own process group, so signals reach whatever it
// started too. Every line a process writes to stdout or stderr is written to
// the launcher's stdout or stderr prefixed with "[i] ", whole.
//
// When a process fails (non-zero exit or a signal), the others get SIGTERM,
// and SIGKILL once S seconds (default 5) have passed; SIGINT or SIGTERM to
// the launcher does the same. Returns when every process has been reaped:
// 0 when all exited 0, else the first failure's exit code (128+signal for a
// signal death), 2 bad usage, 127 PROGRAM not found, 1 the processes could
// not be started.
int RunLaunch(const std::vector<std::string>& args);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_LAUNCH_COMMAND_H_
