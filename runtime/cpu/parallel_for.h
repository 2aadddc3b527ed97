// Data-parallel loops of the CPU engine's kernels over the machine's cores.
#ifndef PJRTX_RUNTIME_CPU_PARALLEL_FOR_H_
#define PJRTX_RUNTIME_CPU_PARALLEL_FOR_H_

#include <cstdint>

#include "absl/functional/function_ref.h"

namespace pjrtx::cpu {

// Runs body(i) for every i in [0, count), each exactly once, possibly
// concurrently on helper threads, and returns when all have run. The
// calling thread takes part: it claims indices like any helper, so the
// loop finishes even when no helper is free (the caller may itself be a
// pool thread of a busy runtime, and helpers may be running other loops):
// it never waits for a helper that has not started. One helper thread per
// core beyond the first, started on first use and kept.
//
// `body` must not throw and may run on any thread.
void ParallelFor(int64_t count, absl::FunctionRef<void(int64_t)> body);

// How many threads a ParallelFor may use: the cores the process may run on,
// at most $PJRTX_CPU_THREADS when that is a positive number.
int ParallelForWidth();

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_PARALLEL_FOR_H_
