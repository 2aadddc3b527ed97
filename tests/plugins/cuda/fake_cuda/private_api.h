// Entry points of the fake driver that no real driver has, for the tests'
// fake NCCL (fake_nccl/): it runs its collectives on the fake's streams,
// as real NCCL runs kernels on the caller's streams, and moves data
// through the fake's own view of device memory. Like every entry point
// they come from cuGetProcAddress_v2 (at any version).
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_PRIVATE_API_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_PRIVATE_API_H_

#include <cuda.h>

#include <cstddef>
#include <cstdint>

// Runs on the stream's worker, in stream order, after the stream's earlier
// work; `error` is the stream's (or its context's) error so far. It plays a
// kernel, not a host function: it may block (waiting for peers, as an
// NCCL kernel spins) and never poisons the stream itself.
using FakeCudaHostWork = void (*)(void* data, CUresult error);

// "fakeCudaEnqueueHostWork": queues `work(data, ...)` on `stream` of the
// current context (INVALID_HANDLE for another context's or a legacy
// stream, as every stream call).
using PFN_fakeCudaEnqueueHostWork = CUresult (*)(CUstream stream,
                                                 FakeCudaHostWork work,
                                                 void* data);

// "fakeCudaTranslate": where the fake itself reads or (with `write`)
// writes [address, address + bytes) of device or pinned host memory;
// INVALID_VALUE unless one live allocation holds it. Callable from any
// thread, stream workers included.
using PFN_fakeCudaTranslate = CUresult (*)(CUdeviceptr address, size_t bytes,
                                           int write, void** host);

// "fakeCudaRegisteredHostCopies": how many cuMemcpyHtoDAsync (`uploads`)
// and cuMemcpyDtoHAsync (`downloads`) calls so far had their host side in
// memory registered with cuMemHostRegister, i.e. a caller's page-locked
// memory rather than a cuMemHostAlloc buffer such as a staging pool's: the
// tests see from it whether the plugin copied in place.
using PFN_fakeCudaRegisteredHostCopies = CUresult (*)(uint64_t* uploads,
                                                      uint64_t* downloads);

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_PRIVATE_API_H_
