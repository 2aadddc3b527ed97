// The framework's key-value store, as drivers see it.
#ifndef PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_STORE_H_
#define PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_STORE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace pjrtx {

// Used for multi-process bootstrap. Thread-safe.
class KeyValueStore {
 public:
  virtual ~KeyValueStore() = default;
  // Blocks until `key` exists; DEADLINE_EXCEEDED after `timeout_ms`.
  virtual absl::StatusOr<std::string> Get(absl::string_view key,
                                          int64_t timeout_ms) = 0;
  virtual absl::Status Put(absl::string_view key, absl::string_view value) = 0;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_KEY_VALUE_STORE_H_
