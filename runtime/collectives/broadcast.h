// Broadcast of one rank's host buffer to every rank of a communicator.
#ifndef PJRTX_RUNTIME_COLLECTIVES_BROADCAST_H_
#define PJRTX_RUNTIME_COLLECTIVES_BROADCAST_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Copies `data` of rank `root` into `data` of every other rank, which must
// be the same size. Binomial tree: ceil(log2(size)) rounds, each rank
// receives once and the root sends ceil(log2(size)) times, which suits the
// small and medium buffers broadcast is mostly used for. INVALID_ARGUMENT
// naming `root` when it is not a rank.
absl::Status Broadcast(Transport& transport, int root, absl::Span<uint8_t> data,
                       uint32_t communicator, uint32_t sequence,
                       Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_BROADCAST_H_
