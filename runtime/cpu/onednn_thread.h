// One thread of the process that calls oneDNN.
#ifndef PJRTX_RUNTIME_CPU_ONEDNN_THREAD_H_
#define PJRTX_RUNTIME_CPU_ONEDNN_THREAD_H_

#include "absl/functional/function_ref.h"

namespace pjrtx::cpu {

// Runs `work` on the process's oneDNN thread and returns when it has run;
// runs it in place when called from that thread. Calls from several threads
// run one at a time, in arrival order.
//
// Why: oneDNN as Debian builds it parallelizes with OpenMP, and OpenMP
// gives every thread that calls it a team of its own. Device queues drain
// on whichever pool worker is free, so one program's matmuls came from
// different threads, each with its own team, and a team that had just
// finished spin-waited on a core the running team needed: a 256x512x512
// matmul took about 1.5 ms in a program against 1.05 ms called alone. From
// one thread there is one team, and a matmul keeps every core either way.
void RunOnOneDnnThread(absl::FunctionRef<void()> work);

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_ONEDNN_THREAD_H_
