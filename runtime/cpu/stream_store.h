// Copies that bypass the cache on the way to memory.
#ifndef PJRTX_RUNTIME_CPU_STREAM_STORE_H_
#define PJRTX_RUNTIME_CPU_STREAM_STORE_H_

#include <cstdint>

namespace pjrtx::cpu {

// Copies `n` floats from `src` (hot in cache) to `dst` (a large output)
// with non-temporal stores where the CPU has them: the destination's lines
// are neither read first (no read-for-ownership) nor left in the cache,
// which is how memcpy moves large buffers. Callers issue a fence after
// their last stream (StreamFence) before others read `dst`.
void StreamStore(float* dst, const float* src, int64_t n);
void StreamFence();

}  // namespace pjrtx::cpu

#endif  // PJRTX_RUNTIME_CPU_STREAM_STORE_H_
