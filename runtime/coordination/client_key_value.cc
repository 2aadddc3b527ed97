#include "runtime/coordination/client_key_value.h"

namespace pjrtx {

client::KeyValueCallbacks KeyValueCallbacksFor(KeyValueStore* store) {
  client::KeyValueCallbacks callbacks;
  if (store == nullptr) return callbacks;
  callbacks.get = [store](absl::string_view key, int64_t timeout_ms) {
    return store->Get(key, timeout_ms);
  };
  callbacks.put = [store](absl::string_view key, absl::string_view value) {
    return store->Put(key, value);
  };
  return callbacks;
}

}  // namespace pjrtx
