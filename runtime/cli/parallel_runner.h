// Runs a ParallelCase through a plugin: one executable per distinct
// program, each run on its processes' devices under one launch id, so the
// collectives of different programs (MPMD) meet as those of one.
#ifndef PJRTX_RUNTIME_CLI_PARALLEL_RUNNER_H_
#define PJRTX_RUNTIME_CLI_PARALLEL_RUNNER_H_

#include <chrono>
#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "runtime/cli/parallel_case.h"
#include "runtime/client/client.h"

namespace pjrtx::cli {

// Returns the first check that failed ("" when all pass). UNIMPLEMENTED
// when the plugin lacks what the case needs (too few devices, an
// unsupported op). `timed_out` is set when the runs did not finish by
// `deadline`: their work cannot be taken back, so the caller must stop.
absl::StatusOr<std::string> RunParallelCase(
    const client::Client& client, const std::string& text,
    const ParallelCase& parallel, int64_t launch_id,
    std::chrono::steady_clock::duration deadline, bool* timed_out);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_PARALLEL_RUNNER_H_
