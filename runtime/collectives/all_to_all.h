// All-to-all: rank r's block j goes to rank j, where it lands as block r.
#ifndef PJRTX_RUNTIME_COLLECTIVES_ALL_TO_ALL_H_
#define PJRTX_RUNTIME_COLLECTIVES_ALL_TO_ALL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// `send` and `recv` are size() blocks of the same number of bytes each,
// on every rank; they must not overlap (the exchange writes a block before
// it has sent the one in its place). Pairwise exchange: in step k (1 to
// size-1) rank r sends to r+k and receives from r-k, so each rank sends and
// receives once per step and no link is used twice at once.
// INVALID_ARGUMENT naming the sizes when they differ or do not divide by
// size(), or when the buffers overlap.
absl::Status AllToAll(Transport& transport, absl::Span<const uint8_t> send,
                      absl::Span<uint8_t> recv, uint32_t communicator,
                      uint32_t sequence, Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_ALL_TO_ALL_H_
