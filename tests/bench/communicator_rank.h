// One rank of collectives_bench's plugin-level job: a process with one
// tpu_emu chip (a slice of its own), a communicator over the two chips of
// the job, and commands from the benchmark driver through the key-value
// store, so that between measurements the ranks sleep in the store rather
// than in a collective (the anchors then run on an idle machine).
#ifndef PJRTX_TESTS_BENCH_COMMUNICATOR_RANK_H_
#define PJRTX_TESTS_BENCH_COMMUNICATOR_RANK_H_

#include <string>

namespace pjrtx::bench {

// The key of command `index` and of rank 0's answer to it.
std::string CommandKey(int index);
std::string ResultKey(int index);

// Commands, one line each: "allreduce BYTES ITERATIONS" (answer: the
// seconds of every all-reduce, space separated), "sendrecv BYTES
// ITERATIONS" (rank 0 sends ITERATIONS messages to rank 1, one in flight;
// answer: seconds per message), "quit". An answer starting with "error:"
// says what failed.
//
// Runs rank `rank` (0 or 1) until "quit"; returns the exit code.
int RunCommunicatorRank(const std::string& plugin,
                        const std::string& coordinator, int rank);

}  // namespace pjrtx::bench

#endif  // PJRTX_TESTS_BENCH_COMMUNICATOR_RANK_H_
