// KeyValueStore over the framework's PJRTX_Client_Create callbacks.
#ifndef PJRTX_RUNTIME_CORE_ABI_CALLBACK_KEY_VALUE_STORE_H_
#define PJRTX_RUNTIME_CORE_ABI_CALLBACK_KEY_VALUE_STORE_H_

#include <string>

#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx::abi {

class CallbackKeyValueStore : public KeyValueStore {
 public:
  CallbackKeyValueStore(PJRTX_KeyValueGetCallback get, void* get_arg,
                        PJRTX_KeyValuePutCallback put, void* put_arg)
      : get_(get), get_arg_(get_arg), put_(put), put_arg_(put_arg) {}

  absl::StatusOr<std::string> Get(absl::string_view key,
                                  int64_t timeout_ms) override;
  absl::Status Put(absl::string_view key, absl::string_view value) override;

 private:
  PJRTX_KeyValueGetCallback get_;
  void* get_arg_;
  PJRTX_KeyValuePutCallback put_;
  void* put_arg_;
};

}  // namespace pjrtx::abi

#endif  // PJRTX_RUNTIME_CORE_ABI_CALLBACK_KEY_VALUE_STORE_H_
