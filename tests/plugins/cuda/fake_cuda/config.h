// The fake driver's configuration, read from the environment once, at the
// first call into the library (fake_cuda.cc lists the variables).
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_CONFIG_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_CONFIG_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fake_cuda {

// The most devices FAKE_CUDA_GPUS may ask for.
constexpr int kMaxDevices = 16;

struct Config {
  // FAKE_CUDA_MODE: "ok", "no_device", "stub", "old" or "missing_symbol".
  std::string mode = "ok";
  int gpus = 2;
  // What cuDriverGetVersion reports and cuGetProcAddress_v2 accepts.
  int driver_version = 13000;
  // Usable device memory per device, and the address space reserved for
  // it (larger, so that red zones and fragmentation do not run it out
  // before the usable bytes).
  uint64_t memory_bytes = uint64_t{4} << 30;
  uint64_t address_span = uint64_t{8} << 30;
  int jitter_us = 0;
  int slow_ms = 0;
  int slow_stream = -1;  // -1: every stream is slow when slow_ms > 0.
  uint64_t seed = 1;
  int64_t fail_alloc_after = -1;  // -1: never.
  bool fail_launch = false;
  // FAKE_CUDA_FAIL_AFTER: entry point name -> calls that succeed.
  std::vector<std::pair<std::string, int64_t>> fail_after;
};

// The configuration, read from the environment on first use.
const Config& GetConfig();

inline bool IsMode(const char* mode) { return GetConfig().mode == mode; }

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_CONFIG_H_
