// The client of the built-in key-value store (see KeyValueServer), usable
// wherever the runtime takes a KeyValueStore.
#ifndef PJRTX_RUNTIME_COORDINATION_TCP_KEY_VALUE_STORE_H_
#define PJRTX_RUNTIME_COORDINATION_TCP_KEY_VALUE_STORE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "runtime/coordination/framed_socket.h"
#include "runtime/coordination/host_port.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx {

// Thread-safe, and calls from different threads run concurrently: each call
// borrows an idle connection or opens another, so one thread blocked in Get
// does not hold up another thread's Put. Every call is bounded in time; when
// the server is gone, calls fail with UNAVAILABLE naming its address.
class TcpKeyValueStore : public KeyValueStore {
 public:
  // Retries until `timeout_ms` passes, since the server (normally in
  // process 0) may start after this process. INVALID_ARGUMENT for an
  // address not of the form "host:port" with a port in 1..65535;
  // UNAVAILABLE naming the address when nothing accepted in time.
  static absl::StatusOr<std::unique_ptr<TcpKeyValueStore>> Connect(
      absl::string_view address, int64_t timeout_ms);

  // The server holds the reply until `key` is set, so waiting costs no
  // traffic. DEADLINE_EXCEEDED naming the key and timeout.
  absl::StatusOr<std::string> Get(absl::string_view key,
                                  int64_t timeout_ms) override;
  absl::Status Put(absl::string_view key, absl::string_view value) override;

  // Every one of `num_processes` processes calls this with the same `name`
  // and count; returns once all have arrived. The name may be reused for a
  // later barrier once this one has completed. DEADLINE_EXCEEDED says how
  // many of how many arrived; a process that times out is withdrawn.
  absl::Status Barrier(absl::string_view name, int num_processes,
                       int64_t timeout_ms);

  const std::string& address() const { return address_; }

 private:
  TcpKeyValueStore(std::string address, HostPort host_port,
                   FramedSocket first_connection);

  // Sends `request` and reads the reply, which must arrive within
  // `server_wait_ms` (how long the server may hold it) plus a grace period
  // for the network. Maps transport failures to UNAVAILABLE.
  absl::StatusOr<std::string> Call(const std::vector<std::string>& request,
                                   int64_t server_wait_ms);

  const std::string address_;
  const HostPort host_port_;
  std::mutex mu_;
  std::vector<FramedSocket> idle_;  // Guarded by mu_.
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_COORDINATION_TCP_KEY_VALUE_STORE_H_
