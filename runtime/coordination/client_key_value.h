// Hands a job's key-value store to a plugin client: the bridge between
// runtime/coordination (the store) and runtime/client (the framework side).
#ifndef PJRTX_RUNTIME_COORDINATION_CLIENT_KEY_VALUE_H_
#define PJRTX_RUNTIME_COORDINATION_CLIENT_KEY_VALUE_H_

#include "runtime/client/client.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx {

// Callbacks over `store` for client::Client::Create; none (a single
// process) when `store` is null. `store` must outlive the client.
client::KeyValueCallbacks KeyValueCallbacksFor(KeyValueStore* store);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_CLIENT_KEY_VALUE_H_
