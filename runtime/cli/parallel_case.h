// A corpus case whose entry runs programs in parallel
// (interpreter.run_parallel): the programs of a num_replicas x
// num_partitions launch, their inputs, and the checks on their results.
#ifndef PJRTX_RUNTIME_CLI_PARALLEL_CASE_H_
#define PJRTX_RUNTIME_CLI_PARALLEL_CASE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "compiler_stub/ir/element_type.h"
#include "runtime/cli/corpus_case.h"

namespace pjrtx::cli {

struct ParallelInput {
  ir::Shape shape;
  std::vector<uint8_t> bytes;  // Storage bytes of a constant.
};

struct ParallelCase {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  // One function per process, row-major over (replica, partition).
  std::vector<std::string> programs;
  // Arguments and results per process: the run_parallel operands and
  // results are these lists concatenated in process order.
  std::vector<std::vector<ParallelInput>> arguments;
  std::vector<int> num_results;
  // Checks, each comparing results of run_parallel (by index) with a
  // constant or with each other.
  std::vector<Check> checks;
  std::vector<std::vector<int>> checked_results;  // Per check.
};

// Reads the case's entry function. UNIMPLEMENTED (reported as a skip)
// for what this runner cannot run: inputs that are not constants, tokens
// passed between the host and the programs, host-transfer send/recv,
// checks on values computed in the entry function.
absl::StatusOr<ParallelCase> ReadParallelCase(const std::string& text);

}  // namespace pjrtx::cli

#endif  // PJRTX_RUNTIME_CLI_PARALLEL_CASE_H_
