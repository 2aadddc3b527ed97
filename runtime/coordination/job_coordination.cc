#include "runtime/coordination/job_coordination.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx {

absl::StatusOr<JobCoordination> JoinJob(LaunchEnvironment environment,
                                        int64_t timeout_ms) {
  JobCoordination job;
  job.environment = std::move(environment);
  if (job.environment.num_processes <= 1) return job;
  const std::string& address = job.environment.coordinator;
  if (job.environment.process_id == 0) {
    absl::StatusOr<std::unique_ptr<KeyValueServer>> server =
        KeyValueServer::Start(address);
    if (!server.ok()) {
      return absl::Status(
          server.status().code(),
          absl::StrCat("process 0 cannot serve the job's key-value store at ",
                       address, ": ", server.status().message()));
    }
    job.server = *std::move(server);
  }
  PJRTX_ASSIGN_OR_RETURN(job.store,
                         TcpKeyValueStore::Connect(address, timeout_ms));
  return job;
}

absl::Status LeaveJob(JobCoordination& job, int64_t timeout_ms) {
  if (job.store == nullptr) return absl::OkStatus();
  const LaunchEnvironment& environment = job.environment;
  if (environment.process_id != 0) {
    absl::Status said = job.store->Put(
        absl::StrCat("pjrtx/job/left/", environment.process_id), "");
    // Process 0 may see the key and exit before the server acknowledges
    // the put: the store going away now is the expected end.
    if (absl::IsUnavailable(said)) return absl::OkStatus();
    return said;
  }
  for (int process = 1; process < environment.num_processes; ++process) {
    absl::StatusOr<std::string> left =
        job.store->Get(absl::StrCat("pjrtx/job/left/", process), timeout_ms);
    if (!left.ok()) {
      return absl::Status(
          left.status().code(),
          absl::StrCat("process ", process,
                       " did not leave the job: ", left.status().message()));
    }
  }
  return absl::OkStatus();
}

}  // namespace pjrtx
