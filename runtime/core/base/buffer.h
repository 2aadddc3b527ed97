// A device array: memory, shape, and the events that order its uses.
#ifndef PJRTX_RUNTIME_CORE_BASE_BUFFER_H_
#define PJRTX_RUNTIME_CORE_BASE_BUFFER_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/event.h"
#include "runtime/core/base/memory_space.h"

namespace pjrtx {

// Host data handed to Buffer::FromHost.
struct HostArray {
  const void* data = nullptr;
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_INVALID;
  std::vector<int64_t> dims;
  std::vector<int64_t> byte_strides;  // Empty: dense row-major.
};

// Thread-safe.
//
// Async model: the buffer's contents are defined when `definition_event()`
// is ready. Every operation reading the buffer waits for that event on a
// device queue (never on the host) and is recorded as a usage event. Every
// operation in flight holds a reference to the memory, so Delete() only
// drops the buffer's own reference and the memory is freed when the last
// operation using it completes.
class Buffer {
 public:
  // Makes a buffer in `memory` (which `device` addresses) from host data.
  // Copies on `device`'s queue after `wait_for`, or aliases the host data
  // for zero-copy semantics when the memory is host addressable and the
  // layout dense. `*done_with_host` becomes ready when the runtime no longer
  // reads `host.data`.
  static absl::StatusOr<std::unique_ptr<Buffer>> FromHost(
      std::shared_ptr<ClientState> client, const HostArray& host, int device,
      int memory, PJRTX_HostBufferSemantics semantics,
      std::vector<EventRef> wait_for, EventRef* done_with_host);

  // Copies the contents to `dst` (dense row-major) once defined and
  // `wait_for` is ready; the returned event says when `dst` is written.
  absl::StatusOr<EventRef> ToHost(void* dst, size_t dst_size,
                                  std::vector<EventRef> wait_for);

  // Copies into `dst_memory`, addressed by `dst_device`, on that device's
  // queue. The new buffer is defined when the copy completes.
  absl::StatusOr<std::unique_ptr<Buffer>> CopyTo(
      int dst_device, int dst_memory, std::vector<EventRef> wait_for);

  // A buffer over memory that is already defined, or will be when
  // `definition_event` is ready (e.g. an imported DLPack tensor).
  static std::unique_ptr<Buffer> FromAllocation(
      std::shared_ptr<ClientState> client, int device, int memory,
      PJRTX_Buffer_Type type, std::vector<int64_t> dims,
      std::shared_ptr<DeviceAllocation> allocation, EventRef definition_event);

  // The memory, for an operation named `operation` that reads it outside a
  // device queue (the operation keeps the reference as long as it reads);
  // FAILED_PRECONDITION if the buffer was deleted.
  absl::StatusOr<std::shared_ptr<DeviceAllocation>> AcquireForUse(
      const char* operation) const;

  // Records an operation reading the buffer.
  void AddUsage(EventRef event);
  // The operations reading the buffer that may still run; the list is
  // cleared (for donation: the next writer waits for all of them).
  std::vector<EventRef> TakeUsageEvents();

  // Releases the buffer's memory once the operations using it complete.
  // Idempotent.
  void Delete();
  bool IsDeleted() const;

  const EventRef& definition_event() const { return definition_event_; }
  PJRTX_Buffer_Type type() const { return type_; }
  const std::vector<int64_t>& dims() const { return dims_; }
  ClientState& client() const { return *client_; }
  size_t size_in_bytes() const { return size_in_bytes_; }
  int device() const { return device_; }
  int memory() const { return memory_; }

 private:
  Buffer(std::shared_ptr<ClientState> client, int device, int memory,
         PJRTX_Buffer_Type type, std::vector<int64_t> dims,
         size_t size_in_bytes, std::shared_ptr<DeviceAllocation> allocation,
         EventRef definition_event);

  const std::shared_ptr<ClientState> client_;
  const int device_;
  const int memory_;
  const PJRTX_Buffer_Type type_;
  const std::vector<int64_t> dims_;
  const size_t size_in_bytes_;
  const EventRef definition_event_;

  mutable std::mutex mu_;
  std::shared_ptr<DeviceAllocation> allocation_;  // Guarded by mu_.
  bool deleted_ = false;                          // Guarded by mu_.
  // Operations that read the buffer and may still be running. Pruned of
  // completed ones as new ones are added. Guarded by mu_.
  std::vector<EventRef> usage_events_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_BUFFER_H_
