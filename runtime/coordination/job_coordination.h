// Joins this process to its job's key-value store, wherever the launcher
// put the coordinator.
#ifndef PJRTX_RUNTIME_COORDINATION_JOB_COORDINATION_H_
#define PJRTX_RUNTIME_COORDINATION_JOB_COORDINATION_H_

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "runtime/coordination/key_value_server.h"
#include "runtime/coordination/launch_environment.h"
#include "runtime/coordination/tcp_key_value_store.h"

namespace pjrtx {

struct JobCoordination {
  LaunchEnvironment environment;
  // Process 0 serves the store at the coordinator address.
  std::unique_ptr<KeyValueServer> server;
  // Null for a single process.
  std::unique_ptr<TcpKeyValueStore> store;
};

// For more than one process: process 0 starts the key-value server on
// `environment.coordinator`, and every process connects to it, waiting up
// to `timeout_ms` for process 0. UNAVAILABLE naming the address when the
// server cannot bind or nobody answers.
absl::StatusOr<JobCoordination> JoinJob(LaunchEnvironment environment,
                                        int64_t timeout_ms);

// Call before exiting: every process but 0 says it is leaving; process 0
// waits (up to `timeout_ms`) until all have, so its key-value server
// outlives every request the others still have in flight.
absl::Status LeaveJob(JobCoordination& job, int64_t timeout_ms);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_JOB_COORDINATION_H_
