// A device of a client (non-owning view; the client owns it).
#ifndef PJRTX_RUNTIME_CLIENT_DEVICE_H_
#define PJRTX_RUNTIME_CLIENT_DEVICE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/named_value.h"

namespace pjrtx::client {

struct TransferCounters {
  int64_t host_to_device_bytes = 0, host_to_device_ops = 0;
  int64_t device_to_host_bytes = 0, device_to_host_ops = 0;
  int64_t device_to_device_bytes = 0, device_to_device_ops = 0;
  int64_t staging_bytes = 0, staging_ops = 0;
  int64_t dcn_sent_bytes = 0, dcn_sent_ops = 0;
  int64_t dcn_received_bytes = 0, dcn_received_ops = 0;
};

struct MemoryStats {
  int64_t bytes_in_use = 0;
  int64_t peak_bytes_in_use = 0;
  int64_t num_allocs = 0;
  int64_t bytes_limit = 0;
};

struct MemoryInfo {
  PJRTX_Memory* handle = nullptr;
  int id = 0;
  std::string kind;
};

// Copyable view; valid while its client lives.
class Device {
 public:
  Device(const PJRTX_Api* api, PJRTX_Device* handle)
      : api_(api), handle_(handle) {}

  PJRTX_Device* handle() const { return handle_; }
  int64_t id() const;
  int process_index() const;
  std::string kind() const;
  std::string ToString() const;
  bool is_addressable() const;
  std::vector<NamedValue> attributes() const;
  absl::StatusOr<std::vector<MemoryInfo>> memories() const;
  absl::StatusOr<MemoryStats> memory_stats() const;
  absl::StatusOr<TransferCounters> transfer_counters() const;

 private:
  PJRTX_DeviceDescription* description() const;

  const PJRTX_Api* api_;
  PJRTX_Device* handle_;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_DEVICE_H_
