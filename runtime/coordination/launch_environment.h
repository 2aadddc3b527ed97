// Which launcher started this process, and the job's process layout, read
// from the environment the way JAX's cluster detection does.
#ifndef PJRTX_RUNTIME_COORDINATION_LAUNCH_ENVIRONMENT_H_
#define PJRTX_RUNTIME_COORDINATION_LAUNCH_ENVIRONMENT_H_

#include <functional>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pjrtx {

// Port of the coordinator (the KeyValueServer in process 0) when the
// launcher tells us its host but not a port. Launchers that share a host
// between jobs get a job-specific port instead (see DetectLaunchEnvironment).
inline constexpr int kDefaultCoordinatorPort = 47100;

struct LaunchEnvironment {
  // "pjrtx", "openmpi", "slurm", "kubernetes" or "single".
  std::string launcher;
  // "host:port" of the key-value server; empty for a single process.
  std::string coordinator;
  int num_processes = 1;
  int process_id = 0;
};

// Looks, in order, for:
//  - pjrtx: PJRTX_PROCESS_ID, with PJRTX_NUM_PROCESSES and (for more than
//    one process) PJRTX_COORDINATOR; set by `pjrtx launch` or by hand.
//  - openmpi: OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE. OpenMPI does
//    not name a coordinator host, so without PJRTX_COORDINATOR it is
//    "127.0.0.1:47100", correct only when every rank runs on one host.
//  - slurm: SLURM_PROCID and SLURM_NTASKS; the coordinator is the first
//    host of SLURM_STEP_NODELIST (else SLURM_JOB_NODELIST) on port
//    61440 + SLURM_JOB_ID % 4096, so jobs sharing a node do not collide
//    (47100 without a job id). PJRTX_COORDINATOR overrides it.
//  - kubernetes (indexed Jobs): JOB_COMPLETION_INDEX is the process id;
//    PJRTX_NUM_PROCESSES and PJRTX_COORDINATOR are required, since the pod
//    cannot see the Job's completions count or its peers' names.
//  - otherwise a single process (PJRTX_COORDINATOR, if set, is kept).
// INVALID_ARGUMENT names the variable, its value and what was expected for
// a non-numeric count or id, a count below 1, an id outside 0..count-1, a
// missing companion variable, or a coordinator not of the form host:port.
//
// `getenv_fn` returns a variable's value, or nullopt when unset.
absl::StatusOr<LaunchEnvironment> DetectLaunchEnvironment(
    const std::function<std::optional<std::string>(const char*)>& getenv_fn);
// Reads the process environment.
absl::StatusOr<LaunchEnvironment> DetectLaunchEnvironment();

// The first host of a Slurm node list: "a,b" -> "a", "node[01-04,07]" ->
// "node01", "n[1-2]-ib[3-4]" -> "n1-ib3". INVALID_ARGUMENT for an empty
// list or unbalanced brackets.
absl::StatusOr<std::string> FirstSlurmHost(absl::string_view nodelist);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_LAUNCH_ENVIRONMENT_H_
