// A device buffer owned by the framework.
#ifndef PJRTX_RUNTIME_CLIENT_BUFFER_H_
#define PJRTX_RUNTIME_CLIENT_BUFFER_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/device.h"
#include "runtime/client/event_future.h"

namespace pjrtx::client {

// Owns a PJRTX_Buffer; move-only. Destroying it releases the memory once the
// work using it is done.
class Buffer {
 public:
  Buffer() = default;
  Buffer(const PJRTX_Api* api, PJRTX_Buffer* handle)
      : api_(api), handle_(handle) {}
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  ~Buffer();

  PJRTX_Buffer* handle() const { return handle_; }
  PJRTX_Buffer_Type element_type() const;
  std::vector<int64_t> dims() const;
  size_t size_in_bytes() const;
  Device device() const;

  // Starts a copy into `dst` (which must stay alive until the future is
  // ready).
  absl::StatusOr<EventFuture> ToHost(void* dst, size_t dst_size) const;
  // Copies to a host vector and waits.
  absl::StatusOr<std::vector<uint8_t>> ToHostSync() const;
  absl::StatusOr<Buffer> CopyToDevice(const Device& device) const;
  EventFuture ReadyEvent() const;
  absl::Status Delete();

 private:
  const PJRTX_Api* api_ = nullptr;
  PJRTX_Buffer* handle_ = nullptr;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_BUFFER_H_
