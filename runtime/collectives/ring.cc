#include "runtime/collectives/ring.h"

#include <memory>

#include "absl/types/span.h"
#include "runtime/collectives/buffer_chunks.h"
#include "runtime/core/base/element_type.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

int Wrap(int value, int size) { return ((value % size) + size) % size; }

absl::Span<uint8_t> Bytes(uint8_t* data, ChunkRange chunk,
                          size_t element_size) {
  return absl::MakeSpan(data + chunk.begin * element_size,
                        chunk.size * element_size);
}

}  // namespace

absl::Status RingReduceScatter(Transport& transport, ReduceOp op,
                               PJRTX_Buffer_Type type, void* data, size_t count,
                               uint32_t communicator, uint32_t sequence,
                               Deadline deadline) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, ReducibleElementSize(type));
  PJRTX_RETURN_IF_ERROR(CheckHostBuffer("RingReduceScatter", data, count));
  const int size = transport.size();
  const int rank = transport.rank();
  if (size == 1 || count == 0) return absl::OkStatus();
  auto* bytes = static_cast<uint8_t*>(data);
  // Chunk 0 is the largest, so one buffer fits every incoming chunk. Left
  // uninitialized: zeroing it cost a pass over the buffer per operation.
  std::unique_ptr<uint8_t[]> incoming(
      new uint8_t[Chunk(count, size, 0).size * element_size]);
  // At step s rank r passes on chunk r-s-1, which it has reduced s times,
  // and receives chunk r-s-2 from r-1; after size-1 steps the chunk it
  // received last, chunk r, holds every rank's contribution.
  for (int step = 0; step < size - 1; ++step) {
    const ChunkRange send = Chunk(count, size, Wrap(rank - step - 1, size));
    const ChunkRange recv = Chunk(count, size, Wrap(rank - step - 2, size));
    PJRTX_RETURN_IF_ERROR(transport.SendRecv(
        Wrap(rank + 1, size), Bytes(bytes, send, element_size),
        Wrap(rank - 1, size),
        absl::MakeSpan(incoming.get(), recv.size * element_size),
        MakeTag(communicator, sequence, step), deadline));
    PJRTX_RETURN_IF_ERROR(Accumulate(op, type,
                                     bytes + recv.begin * element_size,
                                     incoming.get(), recv.size));
  }
  return absl::OkStatus();
}

absl::Status RingAllGather(Transport& transport, PJRTX_Buffer_Type type,
                           void* data, size_t count, uint32_t communicator,
                           uint32_t sequence, Deadline deadline) {
  // Only moves data, so any type with a fixed size will do.
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, SupportedElementSize(type));
  PJRTX_RETURN_IF_ERROR(CheckHostBuffer("RingAllGather", data, count));
  const int size = transport.size();
  const int rank = transport.rank();
  if (size == 1 || count == 0) return absl::OkStatus();
  auto* bytes = static_cast<uint8_t*>(data);
  // At step s rank r forwards chunk r-s (its own at step 0) and receives
  // chunk r-s-1 straight into place.
  for (int step = 0; step < size - 1; ++step) {
    const ChunkRange send = Chunk(count, size, Wrap(rank - step, size));
    const ChunkRange recv = Chunk(count, size, Wrap(rank - step - 1, size));
    PJRTX_RETURN_IF_ERROR(transport.SendRecv(
        Wrap(rank + 1, size), Bytes(bytes, send, element_size),
        Wrap(rank - 1, size), Bytes(bytes, recv, element_size),
        MakeTag(communicator, sequence, kRingAllGatherFirstStep + step),
        deadline));
  }
  return absl::OkStatus();
}

absl::Status RingAllReduce(Transport& transport, ReduceOp op,
                           PJRTX_Buffer_Type type, void* data, size_t count,
                           uint32_t communicator, uint32_t sequence,
                           Deadline deadline) {
  PJRTX_RETURN_IF_ERROR(RingReduceScatter(transport, op, type, data, count,
                                          communicator, sequence, deadline));
  return RingAllGather(transport, type, data, count, communicator, sequence,
                       deadline);
}

}  // namespace pjrtx::collectives
