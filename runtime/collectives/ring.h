// Ring collectives: each rank talks only to its neighbours r-1 and r+1, and
// every step moves one chunk of about count/size elements, so each link
// carries (size-1)/size of the buffer per phase whatever the ring's size.
// Best for large buffers; latency grows linearly with size.
//
// All functions work in place on a host buffer of `count` elements split
// into size() chunks by Chunk(count, size, i), are called by every rank of
// `transport` at once with the same arguments (except the data), and use
// tags MakeTag(communicator, sequence, step) for their steps.
#ifndef PJRTX_RUNTIME_COLLECTIVES_RING_H_
#define PJRTX_RUNTIME_COLLECTIVES_RING_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Reduce-scatter uses steps 0..size-2 and all-gather steps from here on, so
// an all-reduce (one of each, same sequence) never reuses a tag.
inline constexpr uint32_t kRingAllGatherFirstStep = 1u << 23;

// Leaves chunk rank() of `data` reduced over all ranks with `op`; the other
// chunks are left holding partial results. size()-1 steps; each rank sends
// every chunk but its own once.
absl::Status RingReduceScatter(Transport& transport, ReduceOp op,
                               PJRTX_Buffer_Type type, void* data, size_t count,
                               uint32_t communicator, uint32_t sequence,
                               Deadline deadline);

// Given chunk rank() of `data` on each rank, fills in every other chunk
// from the rank that owns it. size()-1 steps; each rank sends every chunk
// but that of rank()+1 once.
absl::Status RingAllGather(Transport& transport, PJRTX_Buffer_Type type,
                           void* data, size_t count, uint32_t communicator,
                           uint32_t sequence, Deadline deadline);

// Reduce-scatter then all-gather: every rank ends with the reduction of all
// ranks' `data`, bitwise equal on every rank (each element is reduced once,
// by its chunk's owner, and copied). Each rank sends
// 2 * (size-1)/size * count elements in 2 * (size-1) messages.
absl::Status RingAllReduce(Transport& transport, ReduceOp op,
                           PJRTX_Buffer_Type type, void* data, size_t count,
                           uint32_t communicator, uint32_t sequence,
                           Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_RING_H_
