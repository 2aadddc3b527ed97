#include "tests/plugins/cuda/fake_cuda/fault_injection.h"

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>

#include "tests/plugins/cuda/fake_cuda/config.h"

namespace fake_cuda {
namespace {

// One counter per FAKE_CUDA_FAIL_AFTER item, in the same order.
std::atomic<int64_t>* CallCounters() {
  static std::atomic<int64_t>* counters =
      new std::atomic<int64_t>[GetConfig().fail_after.size() + 1]();
  return counters;
}

}  // namespace

CUresult CountCall(const char* name) {
  const Config& config = GetConfig();
  for (size_t i = 0; i < config.fail_after.size(); ++i) {
    if (config.fail_after[i].first != name) continue;
    if (CallCounters()[i].fetch_add(1) >= config.fail_after[i].second) {
      return CUDA_ERROR_UNKNOWN;
    }
  }
  return CUDA_SUCCESS;
}

bool AllocationFails() {
  static std::atomic<int64_t> allocations{0};
  const int64_t limit = GetConfig().fail_alloc_after;
  return limit >= 0 && allocations.fetch_add(1) >= limit;
}

bool LaunchFails() { return GetConfig().fail_launch; }

}  // namespace fake_cuda
