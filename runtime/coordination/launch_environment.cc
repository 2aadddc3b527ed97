#include "runtime/coordination/launch_environment.h"

#include <cstdint>
#include <cstdlib>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "runtime/coordination/host_port.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

using GetEnv = std::function<std::optional<std::string>(const char*)>;

absl::Status Invalid(const char* name, absl::string_view value,
                     absl::string_view expected) {
  return absl::InvalidArgumentError(absl::StrCat(
      "environment variable ", name, "='", value, "'; expected ", expected));
}

absl::Status Missing(const char* name, absl::string_view because) {
  return absl::InvalidArgumentError(absl::StrCat(
      "environment variable ", name, " is not set; it is required ", because));
}

absl::StatusOr<int> ReadCount(const char* name, const std::string& value) {
  int count = 0;
  if (!absl::SimpleAtoi(value, &count) || count < 1) {
    return Invalid(name, value, "an integer >= 1");
  }
  return count;
}

absl::StatusOr<int> ReadId(const char* name, const std::string& value,
                           const char* count_name, int count) {
  int id = 0;
  if (!absl::SimpleAtoi(value, &id) || id < 0 || id >= count) {
    return Invalid(name, value,
                   absl::StrCat("an integer in 0..", count - 1, " (",
                                count_name, " is ", count, ")"));
  }
  return id;
}

// Fills num_processes and process_id from a launcher's variable pair.
absl::Status ReadLayout(const GetEnv& getenv_fn, const char* count_name,
                        const char* id_name, absl::string_view launcher,
                        LaunchEnvironment& env) {
  std::optional<std::string> count = getenv_fn(count_name);
  if (!count.has_value()) {
    return Missing(count_name, absl::StrCat("when ", id_name, " is set (",
                                            launcher, " launch)"));
  }
  PJRTX_ASSIGN_OR_RETURN(int num, ReadCount(count_name, *count));
  PJRTX_ASSIGN_OR_RETURN(int id,
                         ReadId(id_name, *getenv_fn(id_name), count_name, num));
  env.num_processes = num;
  env.process_id = id;
  return absl::OkStatus();
}

// PJRTX_COORDINATOR when set (validated), else `fallback`.
absl::StatusOr<std::string> Coordinator(const GetEnv& getenv_fn,
                                        std::string fallback) {
  std::optional<std::string> coordinator = getenv_fn("PJRTX_COORDINATOR");
  if (!coordinator.has_value()) return fallback;
  if (!ParseHostPort(*coordinator).ok()) {
    return Invalid("PJRTX_COORDINATOR", *coordinator,
                   "host:port, e.g. node0:47100");
  }
  return *coordinator;
}

absl::StatusOr<std::string> SlurmCoordinator(const GetEnv& getenv_fn) {
  if (getenv_fn("PJRTX_COORDINATOR").has_value()) {
    return Coordinator(getenv_fn, "");
  }
  const char* list_name = "SLURM_STEP_NODELIST";
  std::optional<std::string> nodelist = getenv_fn(list_name);
  if (!nodelist.has_value()) {
    list_name = "SLURM_JOB_NODELIST";
    nodelist = getenv_fn(list_name);
  }
  if (!nodelist.has_value()) {
    return Missing("SLURM_STEP_NODELIST",
                   "(or SLURM_JOB_NODELIST or PJRTX_COORDINATOR) to find the "
                   "coordinator host under Slurm");
  }
  absl::StatusOr<std::string> host = FirstSlurmHost(*nodelist);
  if (!host.ok()) {
    return Invalid(list_name, *nodelist,
                   "a Slurm node list such as node[01-04,07] or a,b");
  }
  int port = kDefaultCoordinatorPort;
  if (std::optional<std::string> job = getenv_fn("SLURM_JOB_ID")) {
    int64_t job_id = 0;
    if (!absl::SimpleAtoi(*job, &job_id) || job_id < 0) {
      return Invalid("SLURM_JOB_ID", *job, "a non-negative integer");
    }
    port = 61440 + static_cast<int>(job_id % 4096);
  }
  return FormatHostPort({*host, port});
}

}  // namespace

absl::StatusOr<std::string> FirstSlurmHost(absl::string_view nodelist) {
  std::string host;
  bool in_brackets = false;
  bool skipping = false;  // Past the first element inside the brackets.
  for (char c : nodelist) {
    if (in_brackets) {
      if (c == ']') {
        in_brackets = false;
        skipping = false;
      } else if (c == '[') {
        break;  // Nested brackets: rejected below.
      } else if (c == ',' || c == '-') {
        skipping = true;
      } else if (!skipping) {
        host.push_back(c);
      }
    } else if (c == '[') {
      in_brackets = true;
    } else if (c == ']') {
      return absl::InvalidArgumentError(
          absl::StrCat("Slurm node list '", nodelist, "' has a stray ']'"));
    } else if (c == ',') {
      break;
    } else {
      host.push_back(c);
    }
  }
  size_t open = 0;
  size_t close = 0;
  for (char c : nodelist) {
    open += c == '[';
    close += c == ']';
  }
  if (open != close || in_brackets) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Slurm node list '", nodelist, "' has unbalanced brackets"));
  }
  if (host.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("Slurm node list '", nodelist, "' names no host"));
  }
  return host;
}

absl::StatusOr<LaunchEnvironment> DetectLaunchEnvironment(
    const GetEnv& getenv_fn) {
  LaunchEnvironment env;
  if (getenv_fn("PJRTX_PROCESS_ID").has_value()) {
    env.launcher = "pjrtx";
    PJRTX_RETURN_IF_ERROR(ReadLayout(getenv_fn, "PJRTX_NUM_PROCESSES",
                                     "PJRTX_PROCESS_ID", "pjrtx", env));
    PJRTX_ASSIGN_OR_RETURN(std::string coordinator, Coordinator(getenv_fn, ""));
    if (coordinator.empty() && env.num_processes > 1) {
      return Missing("PJRTX_COORDINATOR",
                     "when PJRTX_NUM_PROCESSES is greater than 1");
    }
    env.coordinator = coordinator;
    return env;
  }
  if (getenv_fn("OMPI_COMM_WORLD_RANK").has_value()) {
    env.launcher = "openmpi";
    PJRTX_RETURN_IF_ERROR(ReadLayout(getenv_fn, "OMPI_COMM_WORLD_SIZE",
                                     "OMPI_COMM_WORLD_RANK", "OpenMPI", env));
    PJRTX_ASSIGN_OR_RETURN(
        env.coordinator,
        Coordinator(getenv_fn,
                    FormatHostPort({"127.0.0.1", kDefaultCoordinatorPort})));
    return env;
  }
  if (getenv_fn("SLURM_PROCID").has_value()) {
    env.launcher = "slurm";
    PJRTX_RETURN_IF_ERROR(
        ReadLayout(getenv_fn, "SLURM_NTASKS", "SLURM_PROCID", "Slurm", env));
    PJRTX_ASSIGN_OR_RETURN(env.coordinator, SlurmCoordinator(getenv_fn));
    return env;
  }
  if (getenv_fn("JOB_COMPLETION_INDEX").has_value()) {
    env.launcher = "kubernetes";
    PJRTX_RETURN_IF_ERROR(ReadLayout(getenv_fn, "PJRTX_NUM_PROCESSES",
                                     "JOB_COMPLETION_INDEX",
                                     "Kubernetes indexed Job", env));
    PJRTX_ASSIGN_OR_RETURN(std::string coordinator, Coordinator(getenv_fn, ""));
    if (coordinator.empty()) {
      return Missing("PJRTX_COORDINATOR",
                     "for a Kubernetes indexed Job, e.g. "
                     "<job>-0.<service>:47100");
    }
    env.coordinator = coordinator;
    return env;
  }
  if (std::optional<std::string> num = getenv_fn("PJRTX_NUM_PROCESSES")) {
    return Missing("PJRTX_PROCESS_ID",
                   absl::StrCat("when PJRTX_NUM_PROCESSES is set ('", *num,
                                "') outside a known launcher"));
  }
  env.launcher = "single";
  PJRTX_ASSIGN_OR_RETURN(env.coordinator, Coordinator(getenv_fn, ""));
  return env;
}

absl::StatusOr<LaunchEnvironment> DetectLaunchEnvironment() {
  return DetectLaunchEnvironment(
      [](const char* name) -> std::optional<std::string> {
        const char* value = std::getenv(name);
        if (value == nullptr) return std::nullopt;
        return std::string(value);
      });
}

}  // namespace pjrtx
