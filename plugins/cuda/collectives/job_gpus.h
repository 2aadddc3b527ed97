// The GPUs of every process of a multi-process job: each process publishes
// its own through the framework's key-value store and reads the others',
// so that every process numbers the job's devices the same way (process 0's
// GPUs first, in ordinal order, then process 1's, ...).
#ifndef PJRTX_PLUGINS_CUDA_COLLECTIVES_JOB_GPUS_H_
#define PJRTX_PLUGINS_CUDA_COLLECTIVES_JOB_GPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "plugins/cuda/driver_api/cuda_api.h"
#include "runtime/core/base/key_value_store.h"

namespace cuda_plugin {

// What a process of the job brings: the machine it runs on (processes of
// one machine form a slice: their GPUs talk over NVLink/PCIe, NCCL's
// ground; different machines meet over the data-center network) and its
// GPUs.
struct JobProcess {
  std::string host;
  std::vector<GpuInfo> gpus;
};

// One line per GPU; the inverse of DecodeGpus.
std::string EncodeGpus(const std::vector<GpuInfo>& gpus);

// INVALID_ARGUMENT naming the malformed line otherwise.
absl::StatusOr<std::vector<GpuInfo>> DecodeGpus(absl::string_view text);

// A line naming the host, then the GPUs; the inverse of DecodeJobProcess.
std::string EncodeJobProcess(const JobProcess& process);
absl::StatusOr<JobProcess> DecodeJobProcess(absl::string_view text);

// Publishes `local` as process `process_index`'s host and GPUs and waits
// (up to `timeout_ms` for each) for those of all `num_processes`
// processes; returns them by process. `client` numbers the process's clients in
// the job (0, 1, ...): the n-th client of every process meets the n-th of the
// others. DEADLINE_EXCEEDED names the processes that never published;
// INVALID_ARGUMENT when a process published no GPU (every process of a
// job brings at least one).
absl::StatusOr<std::vector<JobProcess>> ExchangeJobGpus(
    pjrtx::KeyValueStore& store, int client, int num_processes,
    int process_index, const JobProcess& local, int64_t timeout_ms);

// The slice of every process: processes of the same host share one,
// numbered in order of first appearance.
std::vector<int> SlicesOfProcesses(const std::vector<JobProcess>& job);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_COLLECTIVES_JOB_GPUS_H_
