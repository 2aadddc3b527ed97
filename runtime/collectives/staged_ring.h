// The ring all-reduce of a buffer in memory the links cannot address (a
// chip's, across processes): every byte is copied out of the device once
// and back once, and those copies are folded into the transfers instead of
// making passes of their own.
#ifndef PJRTX_RUNTIME_COLLECTIVES_STAGED_RING_H_
#define PJRTX_RUNTIME_COLLECTIVES_STAGED_RING_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// RingAllReduce (same steps, tags and result) of the `count` elements that
// `device` holds, reduced in `host` (host memory of the same size, contents
// ignored) and written back through `device`. Reading the device is folded
// into the first transfers: the chunk a rank passes on first is copied
// straight from the device into the link's own buffers, and every chunk it
// reduces is combined from the device's copy and the incoming bytes as
// they land. So is writing: each chunk goes to the device as it is
// completed or arrives, while it is in cache. Where the device reduces
// (reduces_on_device), the rank's own chunk, the last one reduced, is
// instead reduced there from the incoming bytes and sent on from the
// device: its bytes cross to the device and back once, not twice. In all,
// the copies out of the device (ToHost, ResultToHost) and into it
// (FromHost, ReduceFromHost) each cover every byte exactly once (for a
// single rank: none runs, nothing moves).
absl::Status StagedRingAllReduce(Transport& transport, ReduceOp op,
                                 PJRTX_Buffer_Type type, StagedMemory& device,
                                 uint8_t* host, size_t count,
                                 uint32_t communicator, uint32_t sequence,
                                 Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_STAGED_RING_H_
