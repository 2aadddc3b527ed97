// The GPUs of every process of a multi-process job: each process publishes
// its own through the framework's key-value store and reads the others',
// so that every process numbers the job's devices the same way (process 0's
// GPUs first, in ordinal order, then process 1's, ...).
#ifndef PJRTX_PLUGINS_CUDA_JOB_GPUS_H_
#define PJRTX_PLUGINS_CUDA_JOB_GPUS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "plugins/cuda/cuda_driver.h"
#include "runtime/core/base/key_value_store.h"

namespace cuda_plugin {

// One line per GPU; the inverse of DecodeGpus.
std::string EncodeGpus(const std::vector<GpuInfo>& gpus);

// INVALID_ARGUMENT naming the malformed line otherwise.
absl::StatusOr<std::vector<GpuInfo>> DecodeGpus(absl::string_view text);

// Publishes `local` as process `process_index`'s GPUs and waits (up to
// `timeout_ms` for each) for those of all `num_processes` processes;
// returns them by process. `client` numbers the process's clients in the
// job (0, 1, ...): the n-th client of every process meets the n-th of the
// others. DEADLINE_EXCEEDED names the processes that never published;
// INVALID_ARGUMENT when a process published no GPU (every process of a
// job brings at least one).
absl::StatusOr<std::vector<std::vector<GpuInfo>>> ExchangeJobGpus(
    pjrtx::KeyValueStore& store, int client, int num_processes,
    int process_index, const std::vector<GpuInfo>& local, int64_t timeout_ms);

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_JOB_GPUS_H_
