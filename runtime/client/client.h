// A client of a loaded plugin.
#ifndef PJRTX_RUNTIME_CLIENT_CLIENT_H_
#define PJRTX_RUNTIME_CLIENT_CLIENT_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/buffer.h"
#include "runtime/client/device.h"
#include "runtime/client/named_value.h"
#include "runtime/client/plugin_library.h"

namespace pjrtx::client {

// How the processes of a job find each other: the key-value store handed
// to the plugin at client creation, as two thread-safe functions (e.g. over
// runtime/coordination's TcpKeyValueStore).
struct KeyValueCallbacks {
  // Blocks until `key` exists, at most `timeout_ms`; DEADLINE_EXCEEDED then.
  std::function<absl::StatusOr<std::string>(absl::string_view key,
                                            int64_t timeout_ms)>
      get;
  std::function<absl::Status(absl::string_view key, absl::string_view value)>
      put;
};

// Owns a PJRTX_Client; move-only. Devices are views into it, so it must
// outlive them; buffers may outlive it.
class Client {
 public:
  // `key_value` is needed by multi-process jobs only (both functions or
  // neither); the client keeps it until destroyed.
  static absl::StatusOr<Client> Create(std::shared_ptr<PluginLibrary> library,
                                       const std::vector<NamedValue>& options,
                                       KeyValueCallbacks key_value = {});

  // Parses "k=v" strings into options typed by the plugin's schema: int64,
  // bool (true/false), float, int64 lists ("1,2,3"), strings. A name not in
  // the schema is passed as a string, so the plugin rejects it by name.
  static absl::StatusOr<std::vector<NamedValue>> ParseOptions(
      const PluginLibrary& library, const std::vector<std::string>& flags);

  Client(Client&& other) noexcept;
  Client& operator=(Client&& other) noexcept;
  ~Client();

  const PJRTX_Api* api() const { return library_->api(); }
  PJRTX_Client* handle() const { return handle_; }
  const PluginLibrary& library() const { return *library_; }

  std::string platform_name() const;
  std::string platform_version() const;
  int process_index() const;
  std::vector<Device> devices() const;
  std::vector<Device> addressable_devices() const;
  std::vector<NamedValue> attributes() const;
  std::vector<NamedValue> topology_attributes() const;

  // Copies dense row-major host data to `device` (semantics
  // kImmutableOnlyDuringCall: `data` may be reused at once).
  absl::StatusOr<Buffer> BufferFromHost(const void* data,
                                        PJRTX_Buffer_Type type,
                                        absl::Span<const int64_t> dims,
                                        const Device& device) const;

 private:
  Client(std::shared_ptr<PluginLibrary> library, PJRTX_Client* handle,
         std::unique_ptr<KeyValueCallbacks> key_value)
      : library_(std::move(library)),
        handle_(handle),
        key_value_(std::move(key_value)) {}

  std::shared_ptr<PluginLibrary> library_;
  PJRTX_Client* handle_ = nullptr;
  // The plugin holds its address until the client is destroyed.
  std::unique_ptr<KeyValueCallbacks> key_value_;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_CLIENT_H_
