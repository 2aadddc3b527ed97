// A framework's key-value store, in memory, for tests whose "processes"
// are threads of one process.
#ifndef PJRTX_TESTS_RUNTIME_CORE_MEMORY_KEY_VALUE_STORE_H_
#define PJRTX_TESTS_RUNTIME_CORE_MEMORY_KEY_VALUE_STORE_H_

#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx::testing {

class MemoryKeyValueStore : public KeyValueStore {
 public:
  absl::StatusOr<std::string> Get(absl::string_view key,
                                  int64_t timeout_ms) override {
    std::unique_lock<std::mutex> lock(mu_);
    const std::string wanted(key);
    if (!changed_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return values_.count(wanted) > 0; })) {
      return absl::DeadlineExceededError(absl::StrCat("no key '", wanted, "'"));
    }
    return values_[wanted];
  }
  absl::Status Put(absl::string_view key, absl::string_view value) override {
    std::lock_guard<std::mutex> lock(mu_);
    values_[std::string(key)] = std::string(value);
    changed_.notify_all();
    return absl::OkStatus();
  }

 private:
  std::mutex mu_;
  std::condition_variable changed_;
  std::map<std::string, std::string> values_;
};

}  // namespace pjrtx::testing

#endif  // PJRTX_TESTS_RUNTIME_CORE_MEMORY_KEY_VALUE_STORE_H_
