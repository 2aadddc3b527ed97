// Zero-copy exchange of buffers with other frameworks through DLPack.
#ifndef PJRTX_RUNTIME_CORE_BASE_DLPACK_EXCHANGE_H_
#define PJRTX_RUNTIME_CORE_BASE_DLPACK_EXCHANGE_H_

#include <memory>

#include "absl/status/statusor.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/event.h"

struct DLManagedTensor;

namespace pjrtx {

struct ExportedTensor {
  DLManagedTensor* tensor;  // Owned by the consumer, who calls its deleter.
  EventRef ready;           // The data may be read once this is ready.
};

// Exports `buffer` in place. The tensor holds a reference to the memory, so
// it outlives a Delete() of the buffer. UNIMPLEMENTED when the memory is not
// exchangeable (MemorySpec::dlpack_device_type is kNone) or the element type
// has no DLPack 0.6 code.
absl::StatusOr<ExportedTensor> ExportToDLPack(const Buffer& buffer);

// Wraps `tensor` (consumed on success: its deleter runs when the buffer's
// memory is released) as a buffer in the default memory of `device`.
absl::StatusOr<std::unique_ptr<Buffer>> ImportFromDLPack(
    std::shared_ptr<ClientState> client, int device, DLManagedTensor* tensor);

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_DLPACK_EXCHANGE_H_
