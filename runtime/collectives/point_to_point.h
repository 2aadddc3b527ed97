// Send and receive of one host buffer between two ranks of a communicator,
// tagged like the other collectives so they can share a transport.
#ifndef PJRTX_RUNTIME_COLLECTIVES_POINT_TO_POINT_H_
#define PJRTX_RUNTIME_COLLECTIVES_POINT_TO_POINT_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Sends `data` to rank `to`, which must call RecvFrom with the same
// communicator and sequence and a buffer of the same size. INVALID_ARGUMENT
// naming `to` when it is not a rank of `transport`.
absl::Status SendTo(Transport& transport, int to,
                    absl::Span<const uint8_t> data, uint32_t communicator,
                    uint32_t sequence, Deadline deadline);

// Receives exactly `data.size()` bytes from rank `from`.
absl::Status RecvFrom(Transport& transport, int from, absl::Span<uint8_t> data,
                      uint32_t communicator, uint32_t sequence,
                      Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_POINT_TO_POINT_H_
