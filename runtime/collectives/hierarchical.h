// All-reduce across slices: chips of a slice share a fast link (ICI) and
// slices share a slow one (DCN), so the slow link should carry as little
// as possible.
#ifndef PJRTX_RUNTIME_COLLECTIVES_HIERARCHICAL_H_
#define PJRTX_RUNTIME_COLLECTIVES_HIERARCHICAL_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// A chip's cross-slice shard for inter-slice links that cannot read device
// memory (DCN): the links reach it only through copies, and it is reduced
// in host memory.
class ShardStaging {
 public:
  virtual ~ShardStaging() = default;
  // The `bytes` at `device` as the links may reach them, valid until the
  // operation ends.
  virtual StagedMemory& Device(uint8_t* device, size_t bytes) = 0;
  // Host memory of at least `bytes`, valid until the operation ends.
  virtual uint8_t* Host(size_t bytes) = 0;
};

// In-place all-reduce over s slices of c chips each, in three phases:
//   1. ring reduce-scatter inside the slice over `intra_slice` (c ranks),
//      after which chip r holds chunk r (of c) reduced over its slice;
//   2. ring all-reduce of that chunk over `inter_slice` (s ranks: chip r of
//      every slice, in slice order), c such rings running side by side;
//   3. ring all-gather inside the slice.
// Called by every chip at once with the same count; chip r of every slice
// must have intra_slice.rank() == r.
//
// Per chip, with M = count * element size bytes, the slow link carries
// 2 * (s-1)/s * M/c bytes (exactly, when s*c divides count): a 1/c shard
// instead of the whole buffer, and nearly flat in s. A flat ring over all
// s*c chips would put 2 * (sc-1)/(sc) * M on every link including DCN,
// and gathering every slice's whole buffer would move (s-1) * M. The fast
// link carries 2 * (c-1)/c * M per chip whatever s is.
//
// With `staging`, phase 2 reduces the shard in host memory
// (StagedRingAllReduce): it is copied out of device memory once and back
// once per chip (M/c bytes each, folded into the transfers), whatever s is.
absl::Status HierarchicalAllReduce(Transport& intra_slice,
                                   Transport& inter_slice, ReduceOp op,
                                   PJRTX_Buffer_Type type, void* data,
                                   size_t count, uint32_t communicator,
                                   uint32_t sequence, Deadline deadline,
                                   ShardStaging* staging = nullptr);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_HIERARCHICAL_H_
