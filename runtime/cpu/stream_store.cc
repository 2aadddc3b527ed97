#include "runtime/cpu/stream_store.h"

#include <immintrin.h>

#include <cstring>

namespace pjrtx::cpu {
namespace {

__attribute__((target("avx512f"))) void StreamAvx512(float* dst,
                                                     const float* src,
                                                     int64_t n) {
  int64_t i = 0;
  // Head until `dst` is 64-byte aligned, as streaming stores require.
  for (; i < n && (reinterpret_cast<uintptr_t>(dst + i) & 63) != 0; ++i) {
    dst[i] = src[i];
  }
  for (; i + 16 <= n; i += 16) {
    _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
  }
  for (; i < n; ++i) dst[i] = src[i];
}

__attribute__((target("avx"))) void StreamAvx(float* dst, const float* src,
                                              int64_t n) {
  int64_t i = 0;
  for (; i < n && (reinterpret_cast<uintptr_t>(dst + i) & 31) != 0; ++i) {
    dst[i] = src[i];
  }
  for (; i + 8 <= n; i += 8) {
    _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
  }
  for (; i < n; ++i) dst[i] = src[i];
}

using StreamFn = void (*)(float*, const float*, int64_t);

StreamFn PickStream() {
  if (__builtin_cpu_supports("avx512f")) return StreamAvx512;
  if (__builtin_cpu_supports("avx")) return StreamAvx;
  return [](float* dst, const float* src, int64_t n) {
    std::memcpy(dst, src, n * sizeof(float));
  };
}

}  // namespace

void StreamStore(float* dst, const float* src, int64_t n) {
  static const StreamFn stream = PickStream();
  stream(dst, src, n);
}

void StreamFence() { _mm_sfence(); }

}  // namespace pjrtx::cpu
