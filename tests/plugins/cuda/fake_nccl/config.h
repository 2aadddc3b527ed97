// The fake NCCL's configuration, read from the environment once, at the
// first call that needs it (fake_nccl.cc lists the variables).
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CONFIG_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CONFIG_H_

#include <set>
#include <string>

namespace fake_nccl {

struct Config {
  // FAKE_NCCL_MODE: "ok", "init_fails" or "old".
  std::string mode = "ok";
  // Entry point names, e.g. "ncclAllReduce".
  std::set<std::string> fail;         // FAKE_NCCL_FAIL
  std::set<std::string> hang;         // FAKE_NCCL_HANG
  std::set<std::string> async_error;  // FAKE_NCCL_ASYNC_ERROR
};

const Config& GetConfig();

inline bool IsMode(const char* mode) { return GetConfig().mode == mode; }

}  // namespace fake_nccl

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_NCCL_CONFIG_H_
