// Rabenseifner's all-reduce: reduce-scatter by recursive halving, then
// all-gather by recursive doubling. 2*log2(p) steps instead of the ring's
// 2*(p-1), for the same 2*(p-1)/p of the buffer sent per rank, so it wins
// where latency dominates: small buffers and many ranks. The smallest
// buffers go by plain recursive doubling of the whole buffer: half the
// steps again, for log2(p) times the buffer sent.
#ifndef PJRTX_RUNTIME_COLLECTIVES_HALVING_DOUBLING_H_
#define PJRTX_RUNTIME_COLLECTIVES_HALVING_DOUBLING_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/status.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Up to this many bytes a step's latency (~10 us over TCP) outweighs
// sending the whole buffer in each of log2(p) steps instead of halves in
// 2*log2(p) steps (~16 KiB at 1.5 GB/s).
inline constexpr size_t kWholeBufferDoublingBytes = 16 * 1024;

// Whether an all-reduce of `bytes` over `power` ranks (a power of two,
// after the fold) swaps whole buffers: at or below
// kWholeBufferDoublingBytes, and for two ranks always, where both schemes
// send the same bytes and recursive doubling takes one step instead of two.
bool UsesWholeBufferDoubling(size_t bytes, int power);

// In-place all-reduce of `count` elements over every rank of `transport`,
// called by all ranks at once; the result is bitwise equal on every rank.
// For a size that is not a power of two, p being the largest power of two
// below it, the first 2*(size-p) ranks pair up first: each even rank sends
// its whole buffer to the odd rank after it, sits out the p-rank exchange,
// and gets the result back from it at the end (MPICH's fold), which costs
// those pairs two extra whole-buffer messages. Tags use steps
// 0..2*log2(p)+1.
absl::Status HalvingDoublingAllReduce(Transport& transport, ReduceOp op,
                                      PJRTX_Buffer_Type type, void* data,
                                      size_t count, uint32_t communicator,
                                      uint32_t sequence, Deadline deadline);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_HALVING_DOUBLING_H_
