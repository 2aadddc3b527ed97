#include "runtime/collectives/hierarchical.h"

#include "runtime/collectives/buffer_chunks.h"
#include "runtime/collectives/ring.h"
#include "runtime/collectives/staged_ring.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

absl::Status HierarchicalAllReduce(Transport& intra_slice,
                                   Transport& inter_slice, ReduceOp op,
                                   PJRTX_Buffer_Type type, void* data,
                                   size_t count, uint32_t communicator,
                                   uint32_t sequence, Deadline deadline,
                                   ShardStaging* staging) {
  PJRTX_ASSIGN_OR_RETURN(size_t element_size, ReducibleElementSize(type));
  PJRTX_RETURN_IF_ERROR(CheckHostBuffer("HierarchicalAllReduce", data, count));
  PJRTX_RETURN_IF_ERROR(RingReduceScatter(intra_slice, op, type, data, count,
                                          communicator, sequence, deadline));
  // The two transports are separate links, so the inner all-reduce may
  // reuse the sequence's tags.
  const ChunkRange shard = Chunk(count, intra_slice.size(), intra_slice.rank());
  uint8_t* shard_data =
      static_cast<uint8_t*>(data) + shard.begin * element_size;
  const size_t shard_bytes = shard.size * element_size;
  if (staging != nullptr && inter_slice.size() > 1) {
    PJRTX_RETURN_IF_ERROR(StagedRingAllReduce(
        inter_slice, op, type, staging->Device(shard_data, shard_bytes),
        staging->Host(shard_bytes), shard.size, communicator, sequence,
        deadline));
  } else {
    PJRTX_RETURN_IF_ERROR(RingAllReduce(inter_slice, op, type, shard_data,
                                        shard.size, communicator, sequence,
                                        deadline));
  }
  return RingAllGather(intra_slice, type, data, count, communicator, sequence,
                       deadline);
}

}  // namespace pjrtx::collectives
