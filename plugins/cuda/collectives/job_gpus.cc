#include "plugins/cuda/collectives/job_gpus.h"

#include <map>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "runtime/core/base/key_value_gather.h"
#include "support/status_macros.h"

namespace cuda_plugin {
std::string EncodeGpus(const std::vector<GpuInfo>& gpus) {
  std::string text;
  for (const GpuInfo& gpu : gpus) {
    // The name is escaped: it is the one free-form field.
    absl::StrAppend(&text, gpu.ordinal, "\t", absl::CEscape(gpu.name), "\t",
                    gpu.compute_major, "\t", gpu.compute_minor, "\t",
                    gpu.sm_count, "\t", gpu.memory_bytes, "\t", gpu.pci_bus_id,
                    "\n");
  }
  return text;
}

absl::StatusOr<std::vector<GpuInfo>> DecodeGpus(absl::string_view text) {
  std::vector<GpuInfo> gpus;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    std::vector<absl::string_view> fields = absl::StrSplit(line, '\t');
    GpuInfo gpu;
    std::string name;
    if (fields.size() != 7 || !absl::SimpleAtoi(fields[0], &gpu.ordinal) ||
        !absl::CUnescape(fields[1], &name) ||
        !absl::SimpleAtoi(fields[2], &gpu.compute_major) ||
        !absl::SimpleAtoi(fields[3], &gpu.compute_minor) ||
        !absl::SimpleAtoi(fields[4], &gpu.sm_count) ||
        !absl::SimpleAtoi(fields[5], &gpu.memory_bytes)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "malformed GPU description '", absl::CEscape(line),
          "'; expected ordinal, name, compute capability major and minor, "
          "SM count, memory bytes and PCI bus id, separated by tabs"));
    }
    gpu.name = std::move(name);
    gpu.pci_bus_id = std::string(fields[6]);
    gpus.push_back(std::move(gpu));
  }
  return gpus;
}

std::string EncodeJobProcess(const JobProcess& process) {
  return absl::StrCat("host\t", absl::CEscape(process.host), "\n",
                      EncodeGpus(process.gpus));
}

absl::StatusOr<JobProcess> DecodeJobProcess(absl::string_view text) {
  const size_t end = text.find('\n');
  const absl::string_view first = text.substr(0, end);
  JobProcess process;
  if (!absl::StartsWith(first, "host\t") ||
      !absl::CUnescape(first.substr(5), &process.host)) {
    return absl::InvalidArgumentError(
        absl::StrCat("malformed first line '", absl::CEscape(first),
                     "'; expected 'host', a tab and the host's name"));
  }
  PJRTX_ASSIGN_OR_RETURN(process.gpus, DecodeGpus(end == absl::string_view::npos
                                                      ? absl::string_view()
                                                      : text.substr(end + 1)));
  return process;
}

std::vector<int> SlicesOfProcesses(const std::vector<JobProcess>& job) {
  std::map<std::string, int> slices;
  std::vector<int> slice_of;
  for (const JobProcess& process : job) {
    slice_of.push_back(
        slices.emplace(process.host, static_cast<int>(slices.size()))
            .first->second);
  }
  return slice_of;
}

absl::StatusOr<std::vector<JobProcess>> ExchangeJobGpus(
    pjrtx::KeyValueStore& store, int client, int num_processes,
    int process_index, const JobProcess& local, int64_t timeout_ms) {
  std::vector<int> processes(num_processes);
  for (int p = 0; p < num_processes; ++p) processes[p] = p;
  PJRTX_ASSIGN_OR_RETURN(
      pjrtx::GatheredValues gathered,
      pjrtx::PublishAndGather(
          store, absl::StrCat("pjrtx/cuda/gpus/", client, "/"), process_index,
          EncodeJobProcess(local), processes, timeout_ms));
  if (!gathered.missing.empty()) {
    return absl::DeadlineExceededError(absl::StrCat(
        "process(es) ", absl::StrJoin(gathered.missing, ", "), " of ",
        num_processes, " did not publish their GPUs within ", timeout_ms,
        " ms; every process of the job must create its client with the same "
        "num_processes"));
  }
  std::vector<JobProcess> job(num_processes);
  for (int p = 0; p < num_processes; ++p) {
    if (p == process_index) {
      job[p] = local;
      continue;
    }
    absl::StatusOr<JobProcess> process = DecodeJobProcess(gathered.values[p]);
    if (!process.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("process ", p, "'s GPUs: ", process.status().message()));
    }
    if (process->gpus.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("process ", p, " of the job has no GPU"));
    }
    job[p] = *std::move(process);
  }
  return job;
}

}  // namespace cuda_plugin
