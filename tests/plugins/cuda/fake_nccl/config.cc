#include "tests/plugins/cuda/fake_nccl/config.h"

#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fake_nccl {
namespace {

// "name[,name...]" of variable `variable`.
std::set<std::string> ReadNames(const char* variable) {
  std::set<std::string> names;
  const char* text = std::getenv(variable);
  if (text == nullptr) return names;
  std::string_view rest(text);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    std::string_view name = rest.substr(0, comma);
    if (!name.empty()) names.emplace(name);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return names;
}

Config Read() {
  Config config;
  if (const char* mode = std::getenv("FAKE_NCCL_MODE");
      mode != nullptr && *mode != '\0') {
    config.mode = mode;
    if (config.mode != "ok" && config.mode != "init_fails" &&
        config.mode != "old") {
      // A typo must not pass for the default silently.
      std::fprintf(stderr, "fake_nccl: ignoring FAKE_NCCL_MODE=%s\n", mode);
      config.mode = "ok";
    }
  }
  config.fail = ReadNames("FAKE_NCCL_FAIL");
  config.hang = ReadNames("FAKE_NCCL_HANG");
  config.async_error = ReadNames("FAKE_NCCL_ASYNC_ERROR");
  return config;
}

}  // namespace

const Config& GetConfig() {
  static const Config* config = new Config(Read());
  return *config;
}

}  // namespace fake_nccl
