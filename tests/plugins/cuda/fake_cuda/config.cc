#include "tests/plugins/cuda/fake_cuda/config.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string_view>

namespace fake_cuda {
namespace {

// A non-negative integer with an optional K, M or G suffix (binary); false
// when `text` is not one.
bool ParseSize(std::string_view text, uint64_t* value) {
  if (text.empty() || text[0] < '0' || text[0] > '9') return false;
  std::string copy(text);
  char* end = nullptr;
  errno = 0;
  unsigned long long parsed = std::strtoull(copy.c_str(), &end, 10);
  if (errno != 0) return false;
  std::string_view rest(end);
  int shift = 0;
  if (rest == "K" || rest == "k") {
    shift = 10;
  } else if (rest == "M" || rest == "m") {
    shift = 20;
  } else if (rest == "G" || rest == "g") {
    shift = 30;
  } else if (!rest.empty()) {
    return false;
  }
  if (shift > 0 && parsed > (~0ull >> shift)) return false;
  *value = static_cast<uint64_t>(parsed) << shift;
  return true;
}

// Reads integer variable `name` into `*value` when it is set and valid; a
// malformed value is reported and ignored, so that a typo does not pass for
// the default silently.
template <typename T>
void ReadNumber(const char* name, T* value) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return;
  uint64_t parsed = 0;
  if (!ParseSize(text, &parsed) ||
      parsed > static_cast<uint64_t>(std::numeric_limits<T>::max())) {
    std::fprintf(stderr, "fake_cuda: ignoring %s=%s (not a number)\n", name,
                 text);
    return;
  }
  *value = static_cast<T>(parsed);
}

// "name:N[,name:N...]".
void ReadFailAfter(Config& config) {
  const char* text = std::getenv("FAKE_CUDA_FAIL_AFTER");
  if (text == nullptr) return;
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view()
                                           : rest.substr(comma + 1);
    const size_t colon = item.find(':');
    uint64_t count = 0;
    if (colon == std::string_view::npos || colon == 0 ||
        !ParseSize(item.substr(colon + 1), &count)) {
      std::fprintf(stderr,
                   "fake_cuda: ignoring FAKE_CUDA_FAIL_AFTER item '%.*s' "
                   "(want name:N)\n",
                   static_cast<int>(item.size()), item.data());
      continue;
    }
    config.fail_after.emplace_back(std::string(item.substr(0, colon)),
                                   static_cast<int64_t>(count));
  }
}

Config Read() {
  Config config;
  if (const char* mode = std::getenv("FAKE_CUDA_MODE"); mode != nullptr) {
    config.mode = mode;
  }
  if (config.mode == "old") config.driver_version = 11080;
  ReadNumber("FAKE_CUDA_GPUS", &config.gpus);
  if (config.gpus > kMaxDevices) config.gpus = kMaxDevices;
  ReadNumber("FAKE_CUDA_MEMORY_BYTES", &config.memory_bytes);
  // Twice the usable bytes, at least 1 GiB, in 2 MiB units.
  constexpr uint64_t kUnit = uint64_t{2} << 20;
  const uint64_t span =
      std::max<uint64_t>(config.memory_bytes * 2, uint64_t{1} << 30);
  config.address_span = (span + kUnit - 1) / kUnit * kUnit;
  ReadNumber("FAKE_CUDA_JITTER_US", &config.jitter_us);
  ReadNumber("FAKE_CUDA_SLOW_MS", &config.slow_ms);
  ReadNumber("FAKE_CUDA_SLOW_STREAM", &config.slow_stream);
  ReadNumber("FAKE_CUDA_SEED", &config.seed);
  ReadNumber("FAKE_CUDA_FAIL_ALLOC_AFTER", &config.fail_alloc_after);
  int fail_launch = 0;
  ReadNumber("FAKE_CUDA_FAIL_LAUNCH", &fail_launch);
  config.fail_launch = fail_launch != 0;
  ReadFailAfter(config);
  return config;
}

}  // namespace

const Config& GetConfig() {
  static const Config* config = new Config(Read());
  return *config;
}

}  // namespace fake_cuda
