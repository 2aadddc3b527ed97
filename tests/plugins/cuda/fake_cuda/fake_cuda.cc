// A functional stand-in for libcuda.so.1, for testing the CUDA plugin
// without a GPU (tests load it through PJRTX_CUDA_DRIVER_PATH). It exports
// only cuGetProcAddress_v2; every entry point comes from it, with the
// signature of the version asked for.
//
// What it emulates: devices with primary contexts and per-thread current
// contexts; device memory at addresses the host cannot dereference; pinned
// host memory usable as a device address (unified addressing); streams run
// by worker threads; events; stream-ordered allocation; PTX modules run by
// the PTX interpreter; sticky device faults.
//
// Where it is stricter than a real driver, to catch what a GPU might let
// pass: cuMemFree frees at once, without waiting for queued work that
// still uses the memory; memory freed with cuMemFreeAsync is gone when the
// stream reaches the free, so a later or unordered access faults; an
// access outside a live allocation (red zones separate them) faults; a
// fault is logged on stderr ("fake_cuda: device fault ...").
//
// For the tests' fake NCCL it also has two entry points of its own
// (private_api.h): work queued on a stream, and its view of device memory.
//
// What it does not emulate: entry points it lacks resolve to NULL
// (CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND). These return
// CUDA_ERROR_NOT_SUPPORTED (801): cubin and fatbin images, packed kernel
// parameters (cuLaunchKernel's `extra`), interprocess events, IO memory
// registration, pools with shareable handles or in host memory, the
// pointer attributes beyond context, memory type, device and host
// pointer, buffer id, managed, device ordinal, range, mapped and pool, and
// the 32-bit CUdeviceptr ABIs of CUDA 2.x (requested below 3020). There is
// no legacy NULL stream and no per-thread default stream: passing one
// returns CUDA_ERROR_INVALID_HANDLE (400), so that the plugin names its
// streams. Device attributes of features it lacks (managed memory, peer
// access, cooperative launch, virtual memory management) read 0.
//
// The environment, read at the first call:
//   FAKE_CUDA_MODE=ok|no_device|stub|old|missing_symbol  The situation:
//       "ok" (default); cuInit fails with NO_DEVICE (100) or STUB_LIBRARY
//       (34); "old" is a CUDA 11.8 driver (cuDriverGetVersion 11080, and
//       cuGetProcAddress_v2 refuses versions above it); "missing_symbol"
//       lacks cuDeviceGetPCIBusId.
//   FAKE_CUDA_GPUS=N             Devices (default 2, at most 16).
//   FAKE_CUDA_MEMORY_BYTES=N[K|M|G]  Usable device memory per device
//       (default 4G); allocations past it return OUT_OF_MEMORY (2). Also
//       what cuDeviceTotalMem and cuMemGetInfo report.
//   FAKE_CUDA_JITTER_US=N        A random delay of up to N microseconds
//       before each stream operation, to shake out missing
//       synchronization.
//   FAKE_CUDA_SEED=N             Seeds the jitter (default 1).
//   FAKE_CUDA_SLOW_MS=N          N milliseconds before each operation of
//       every stream, or with FAKE_CUDA_SLOW_STREAM=K only of the K-th
//       stream created (0-based, in creation order over the process).
//   FAKE_CUDA_FAIL_ALLOC_AFTER=N The first N device allocations (cuMemAlloc
//       and the stream-ordered ones) succeed; every later one returns
//       OUT_OF_MEMORY (2).
//   FAKE_CUDA_FAIL_LAUNCH=1      cuLaunchKernel returns
//       CUDA_ERROR_LAUNCH_FAILED (719), which poisons the context like a
//       real launch failure.
//   FAKE_CUDA_FAIL_AFTER=name:N[,name:N...]  The first N calls of entry
//       point `name` (base name, e.g. cuMemcpyHtoDAsync) go through; every
//       later one returns CUDA_ERROR_UNKNOWN (999).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "tests/plugins/cuda/fake_cuda/config.h"
#include "tests/plugins/cuda/fake_cuda/driver.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"

namespace fake_cuda {
namespace {

// An entry point's base name as a template argument.
template <size_t N>
struct Name {
  constexpr Name(const char (&text)[N]) { std::copy_n(text, N, value); }
  char value[N];
};

// Wraps an implementation with the checks every entry point makes
// (driver.h EnterApi), keeping its exact signature.
template <Name kName, Gate kGate, auto kFunction>
struct Guarded;

template <Name kName, Gate kGate, typename... Args,
          CUresult (*kFunction)(Args...)>
struct Guarded<kName, kGate, kFunction> {
  static CUresult Call(Args... args) {
    if (CUresult result = EnterApi(kName.value, kGate);
        result != CUDA_SUCCESS) {
      return result;
    }
    return kFunction(args...);
  }
};

// An ABI the fake does not implement, behind a name it does: it fails
// loudly rather than leaving the caller with the wrong signature.
template <typename... Args>
CUresult Unsupported(Args...) {
  return CUDA_ERROR_NOT_SUPPORTED;
}

struct EntryPoint {
  const char* name;
  int version;  // The CUDA version that introduced this ABI.
  void* function;
};

// The entry point `Wrapper::Call`, checked at compile time against the
// signature cudaTypedefs.h gives the version (`Expected`).
template <typename Expected, typename Wrapper>
void* Checked() {
  static_assert(std::is_same_v<Expected, decltype(&Wrapper::Call)>,
                "the implementation's signature differs from the typedef");
  return reinterpret_cast<void*>(&Wrapper::Call);
}

// FAKE_CUDA_ENTRY_AS is for an older version with the same C signature as
// a newer one (`abi`), whose typedef cudaTypedefs.h does not declare.
// clang-format off
#define FAKE_CUDA_ENTRY_AS(name, version, abi, gate, implementation)  \
  EntryPoint{#name, version,                                          \
             Checked<PFN_##name##_v##abi,                             \
                     Guarded<#name, Gate::gate, &api::implementation>>()}
// Not written in terms of FAKE_CUDA_ENTRY_AS: a name passed on would be
// expanded by cuda.h's macros (cuMemAlloc -> cuMemAlloc_v2).
#define FAKE_CUDA_ENTRY(name, version, gate, implementation)          \
  EntryPoint{#name, version,                                          \
             Checked<PFN_##name##_v##version,                         \
                     Guarded<#name, Gate::gate, &api::implementation>>()}

// An entry point no real driver has (private_api.h): no typedef to check
// against, found by name at any version.
#define FAKE_CUDA_PRIVATE_ENTRY(name, gate, implementation) \
  EntryPoint{#name, 0,                                      \
             reinterpret_cast<void*>(                       \
                 &Guarded<#name, Gate::gate, &api::implementation>::Call)}

// The 32-bit CUdeviceptr ABIs of CUDA 2.x.
using DevicePointer32 = unsigned int;
#define FAKE_CUDA_OLD_ABI(name, version, ...) \
  EntryPoint{#name, version,                  \
             reinterpret_cast<void*>(&Unsupported<__VA_ARGS__>)}
// clang-format on

const EntryPoint kEntryPoints[] = {
    FAKE_CUDA_ENTRY(cuGetErrorName, 6000, kNone, GetErrorName),
    FAKE_CUDA_ENTRY(cuGetErrorString, 6000, kNone, GetErrorString),
    FAKE_CUDA_ENTRY(cuInit, 2000, kAny, Init),
    FAKE_CUDA_ENTRY(cuDriverGetVersion, 2020, kAny, DriverGetVersion),
    FAKE_CUDA_ENTRY(cuDeviceGetCount, 2000, kInitialized, DeviceGetCount),
    FAKE_CUDA_ENTRY(cuDeviceGet, 2000, kInitialized, DeviceGet),
    FAKE_CUDA_ENTRY(cuDeviceGetName, 2000, kInitialized, DeviceGetName),
    FAKE_CUDA_ENTRY(cuDeviceGetAttribute, 2000, kInitialized,
                    DeviceGetAttribute),
    FAKE_CUDA_OLD_ABI(cuDeviceTotalMem, 2000, unsigned int*, CUdevice),
    FAKE_CUDA_ENTRY(cuDeviceTotalMem, 3020, kInitialized, DeviceTotalMem),
    FAKE_CUDA_ENTRY(cuDeviceGetPCIBusId, 4010, kInitialized, DeviceGetPCIBusId),
    FAKE_CUDA_ENTRY(cuDevicePrimaryCtxRetain, 7000, kInitialized,
                    DevicePrimaryCtxRetain),
    FAKE_CUDA_ENTRY_AS(cuDevicePrimaryCtxRelease, 7000, 11000, kInitialized,
                       DevicePrimaryCtxRelease),
    FAKE_CUDA_ENTRY(cuDevicePrimaryCtxRelease, 11000, kInitialized,
                    DevicePrimaryCtxRelease),
    FAKE_CUDA_ENTRY(cuCtxSetCurrent, 4000, kInitialized, CtxSetCurrent),
    FAKE_CUDA_ENTRY(cuCtxGetCurrent, 4000, kInitialized, CtxGetCurrent),
    FAKE_CUDA_ENTRY(cuCtxSynchronize, 2000, kInitialized, CtxSynchronize),
    FAKE_CUDA_ENTRY(cuCtxSynchronize, 13000, kInitialized, CtxSynchronizeV13),
    FAKE_CUDA_ENTRY(cuCtxGetDevice, 2000, kInitialized, CtxGetDevice),
    FAKE_CUDA_ENTRY(cuCtxGetDevice, 13000, kInitialized, CtxGetDeviceV13),
    FAKE_CUDA_OLD_ABI(cuMemGetInfo, 2000, unsigned int*, unsigned int*),
    FAKE_CUDA_ENTRY(cuMemGetInfo, 3020, kInitialized, MemGetInfo),
    FAKE_CUDA_OLD_ABI(cuMemAlloc, 2000, DevicePointer32*, unsigned int),
    FAKE_CUDA_ENTRY(cuMemAlloc, 3020, kInitialized, MemAlloc),
    FAKE_CUDA_OLD_ABI(cuMemFree, 2000, DevicePointer32),
    FAKE_CUDA_ENTRY(cuMemFree, 3020, kInitialized, MemFree),
    FAKE_CUDA_ENTRY(cuMemAllocAsync, 11020, kInitialized, MemAllocAsync),
    FAKE_CUDA_ENTRY(cuMemFreeAsync, 11020, kInitialized, MemFreeAsync),
    FAKE_CUDA_ENTRY(cuMemAllocFromPoolAsync, 11020, kInitialized,
                    MemAllocFromPoolAsync),
    FAKE_CUDA_ENTRY(cuMemPoolCreate, 11020, kInitialized, MemPoolCreate),
    FAKE_CUDA_ENTRY(cuMemPoolDestroy, 11020, kInitialized, MemPoolDestroy),
    FAKE_CUDA_ENTRY(cuMemPoolSetAttribute, 11020, kInitialized,
                    MemPoolSetAttribute),
    FAKE_CUDA_ENTRY(cuMemPoolGetAttribute, 11020, kInitialized,
                    MemPoolGetAttribute),
    FAKE_CUDA_ENTRY(cuMemPoolTrimTo, 11020, kInitialized, MemPoolTrimTo),
    FAKE_CUDA_ENTRY(cuDeviceGetDefaultMemPool, 11020, kInitialized,
                    DeviceGetDefaultMemPool),
    FAKE_CUDA_ENTRY(cuMemHostAlloc, 2020, kInitialized, MemHostAlloc),
    FAKE_CUDA_ENTRY(cuMemFreeHost, 2000, kInitialized, MemFreeHost),
    FAKE_CUDA_ENTRY_AS(cuMemHostRegister, 4000, 6050, kInitialized,
                       MemHostRegister),
    FAKE_CUDA_ENTRY(cuMemHostRegister, 6050, kInitialized, MemHostRegister),
    FAKE_CUDA_ENTRY(cuMemHostUnregister, 4000, kInitialized, MemHostUnregister),
    FAKE_CUDA_OLD_ABI(cuMemHostGetDevicePointer, 2020, DevicePointer32*, void*,
                      unsigned int),
    FAKE_CUDA_ENTRY(cuMemHostGetDevicePointer, 3020, kInitialized,
                    MemHostGetDevicePointer),
    FAKE_CUDA_ENTRY(cuPointerGetAttribute, 4000, kInitialized,
                    PointerGetAttribute),
    FAKE_CUDA_OLD_ABI(cuMemcpyHtoDAsync, 2000, DevicePointer32, const void*,
                      unsigned int, CUstream),
    FAKE_CUDA_ENTRY(cuMemcpyHtoDAsync, 3020, kInitialized, MemcpyHtoDAsync),
    FAKE_CUDA_OLD_ABI(cuMemcpyDtoHAsync, 2000, void*, DevicePointer32,
                      unsigned int, CUstream),
    FAKE_CUDA_ENTRY(cuMemcpyDtoHAsync, 3020, kInitialized, MemcpyDtoHAsync),
    FAKE_CUDA_OLD_ABI(cuMemcpyDtoDAsync, 3000, DevicePointer32, DevicePointer32,
                      unsigned int, CUstream),
    FAKE_CUDA_ENTRY(cuMemcpyDtoDAsync, 3020, kInitialized, MemcpyDtoDAsync),
    FAKE_CUDA_ENTRY(cuMemcpyPeerAsync, 4000, kInitialized, MemcpyPeerAsync),
    FAKE_CUDA_OLD_ABI(cuMemcpyHtoD, 2000, DevicePointer32, const void*,
                      unsigned int),
    FAKE_CUDA_ENTRY(cuMemcpyHtoD, 3020, kInitialized, MemcpyHtoD),
    FAKE_CUDA_OLD_ABI(cuMemcpyDtoH, 2000, void*, DevicePointer32, unsigned int),
    FAKE_CUDA_ENTRY(cuMemcpyDtoH, 3020, kInitialized, MemcpyDtoH),
    FAKE_CUDA_ENTRY(cuMemsetD8Async, 3020, kInitialized, MemsetD8Async),
    FAKE_CUDA_ENTRY(cuStreamCreate, 2000, kInitialized, StreamCreate),
    FAKE_CUDA_ENTRY_AS(cuStreamDestroy, 2000, 4000, kInitialized,
                       StreamDestroy),
    FAKE_CUDA_ENTRY(cuStreamDestroy, 4000, kInitialized, StreamDestroy),
    FAKE_CUDA_ENTRY(cuStreamSynchronize, 2000, kInitialized, StreamSynchronize),
    FAKE_CUDA_ENTRY(cuStreamQuery, 2000, kInitialized, StreamQuery),
    FAKE_CUDA_ENTRY(cuStreamWaitEvent, 3020, kInitialized, StreamWaitEvent),
    FAKE_CUDA_ENTRY(cuLaunchHostFunc, 10000, kInitialized, LaunchHostFunc),
    FAKE_CUDA_ENTRY(cuEventCreate, 2000, kInitialized, EventCreate),
    FAKE_CUDA_ENTRY_AS(cuEventDestroy, 2000, 4000, kInitialized, EventDestroy),
    FAKE_CUDA_ENTRY(cuEventDestroy, 4000, kInitialized, EventDestroy),
    FAKE_CUDA_ENTRY(cuEventRecord, 2000, kInitialized, EventRecord),
    FAKE_CUDA_ENTRY(cuEventQuery, 2000, kInitialized, EventQuery),
    FAKE_CUDA_ENTRY(cuEventSynchronize, 2000, kInitialized, EventSynchronize),
    FAKE_CUDA_ENTRY(cuEventElapsedTime, 2000, kInitialized, EventElapsedTime),
    FAKE_CUDA_ENTRY(cuEventElapsedTime, 12080, kInitialized, EventElapsedTime),
    FAKE_CUDA_ENTRY(cuModuleLoadDataEx, 2010, kInitialized, ModuleLoadDataEx),
    FAKE_CUDA_ENTRY(cuModuleLoadData, 2000, kInitialized, ModuleLoadData),
    FAKE_CUDA_ENTRY(cuModuleGetFunction, 2000, kInitialized, ModuleGetFunction),
    FAKE_CUDA_ENTRY(cuModuleUnload, 2000, kInitialized, ModuleUnload),
    FAKE_CUDA_ENTRY(cuLaunchKernel, 4000, kInitialized, LaunchKernel),
    FAKE_CUDA_ENTRY(cuFuncGetAttribute, 2020, kInitialized, FuncGetAttribute),
    FAKE_CUDA_PRIVATE_ENTRY(fakeCudaEnqueueHostWork, kInitialized,
                            EnqueueHostWork),
    FAKE_CUDA_PRIVATE_ENTRY(fakeCudaTranslate, kNone, TranslateAddress),
    FAKE_CUDA_PRIVATE_ENTRY(fakeCudaRegisteredHostCopies, kNone,
                            RegisteredHostCopies),
};

#undef FAKE_CUDA_ENTRY
#undef FAKE_CUDA_ENTRY_AS
#undef FAKE_CUDA_OLD_ABI
#undef FAKE_CUDA_PRIVATE_ENTRY

}  // namespace
}  // namespace fake_cuda

#ifndef FAKE_CUDA_NO_V2
// The newest ABI of `symbol` introduced at or below `version`, as the real
// driver resolves it: INVALID_VALUE above the driver's own version;
// SUCCESS with NULL for an unknown name (SYMBOL_NOT_FOUND) or one newer
// than `version` (VERSION_NOT_SUFFICIENT).
extern "C" __attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(
    const char* symbol, void** function, int version, cuuint64_t flags,
    CUdriverProcAddressQueryResult* status) {
  using fake_cuda::kEntryPoints;
  CUdriverProcAddressQueryResult ignored;
  if (status == nullptr) status = &ignored;
  if (symbol == nullptr || function == nullptr ||
      flags > (CU_GET_PROC_ADDRESS_LEGACY_STREAM |
               CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  *function = nullptr;
  *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (version > fake_cuda::GetConfig().driver_version) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  if (fake_cuda::IsMode("missing_symbol") &&
      std::strcmp(symbol, "cuDeviceGetPCIBusId") == 0) {
    return CUDA_SUCCESS;
  }
  const fake_cuda::EntryPoint* best = nullptr;
  for (const fake_cuda::EntryPoint& entry : kEntryPoints) {
    if (std::strcmp(entry.name, symbol) != 0) continue;
    *status = CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
    if (entry.version <= version &&
        (best == nullptr || entry.version > best->version)) {
      best = &entry;
    }
  }
  if (best != nullptr) {
    *function = best->function;
    *status = CU_GET_PROC_ADDRESS_SUCCESS;
  }
  return CUDA_SUCCESS;
}
#endif  // FAKE_CUDA_NO_V2
