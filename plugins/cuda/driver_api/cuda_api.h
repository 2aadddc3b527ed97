// The CUDA Driver API, loaded at run time and never linked: a binary linked
// with -lcuda does not even start where no driver is installed. Every
// symbol is resolved through cuGetProcAddress_v2 at a version pinned per
// symbol (../shared REFERENCE 2.2), so a newer driver cannot silently bind
// a changed ABI (CUDA 13 changed cuCtxSynchronize behind the same name).
#ifndef PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_API_H_
#define PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_API_H_

#include <cudaTypedefs.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cuda_plugin {

// The driver entry points the plugin uses, each with the version it is
// requested at: X(name, version) declares `PFN_<name>_v<version> name`.
// Resolution follows this order, so the error names come first.
#define PJRTX_CUDA_ENTRY_POINTS(X)    \
  X(cuGetErrorName, 6000)             \
  X(cuGetErrorString, 6000)           \
  X(cuInit, 2000)                     \
  X(cuDriverGetVersion, 2020)         \
  X(cuDeviceGetCount, 2000)           \
  X(cuDeviceGet, 2000)                \
  X(cuDeviceGetName, 2000)            \
  X(cuDeviceGetAttribute, 2000)       \
  X(cuDeviceTotalMem, 3020)           \
  X(cuDeviceGetPCIBusId, 4010)        \
  X(cuDevicePrimaryCtxRetain, 7000)   \
  X(cuDevicePrimaryCtxRelease, 11000) \
  X(cuCtxSetCurrent, 4000)            \
  X(cuMemGetInfo, 3020)               \
  X(cuMemPoolCreate, 11020)           \
  X(cuMemPoolDestroy, 11020)          \
  X(cuMemPoolSetAttribute, 11020)     \
  X(cuMemAllocFromPoolAsync, 11020)   \
  X(cuMemFreeAsync, 11020)            \
  X(cuMemHostAlloc, 2020)             \
  X(cuMemFreeHost, 2000)              \
  X(cuMemHostRegister, 6050)          \
  X(cuMemHostUnregister, 4000)        \
  X(cuPointerGetAttribute, 4000)      \
  X(cuMemcpyHtoDAsync, 3020)          \
  X(cuMemcpyDtoHAsync, 3020)          \
  X(cuMemcpyDtoDAsync, 3020)          \
  X(cuMemcpyPeerAsync, 4000)          \
  X(cuStreamCreate, 2000)             \
  X(cuStreamDestroy, 4000)            \
  X(cuStreamSynchronize, 2000)        \
  X(cuStreamWaitEvent, 3020)          \
  X(cuEventCreate, 2000)              \
  X(cuEventDestroy, 4000)             \
  X(cuEventRecord, 2000)              \
  X(cuEventQuery, 2000)               \
  X(cuModuleLoadDataEx, 2010)         \
  X(cuModuleGetFunction, 2000)        \
  X(cuModuleUnload, 2000)             \
  X(cuLaunchKernel, 4000)             \
  X(cuLaunchHostFunc, 10000)

// The resolved table; every member is non-null once Discover() found a
// usable driver.
struct DriverApi {
#define PJRTX_CUDA_DECLARE_ENTRY(name, version) \
  PFN_##name##_v##version name = nullptr;
  PJRTX_CUDA_ENTRY_POINTS(PJRTX_CUDA_DECLARE_ENTRY)
#undef PJRTX_CUDA_DECLARE_ENTRY
};

struct GpuInfo {
  int ordinal = 0;
  std::string name;
  int compute_major = 0;
  int compute_minor = 0;
  int sm_count = 0;
  size_t memory_bytes = 0;
  std::string pci_bus_id;
};

// What loading the driver found.
struct Discovery {
  std::string driver_path;  // What was loaded (or tried).
  int driver_version = 0;   // 1000 * major + 10 * minor; 0 if unknown.
  std::vector<GpuInfo> gpus;
  // The driver's entry points; set (and complete) whenever the driver was
  // loaded and initialised, even if it has no usable GPU.
  const DriverApi* api = nullptr;
  // Empty when the plugin can use the GPUs; otherwise why not, in words a
  // user can act on (no driver, the toolkit's stub, an old driver, no
  // device, ...).
  std::string unavailable_reason;
};

// The oldest driver the plugin accepts: CUDA 12.0.
constexpr int kMinDriverVersion = 12000;

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or the bare code when the
// driver cannot name it.
std::string ErrorText(const DriverApi& api, CUresult result);

// Loads the driver once per process (PJRTX_CUDA_DRIVER_PATH names the
// library, for tests; default "libcuda.so.1") and lists the GPUs. Never
// crashes and never fails: every problem becomes the unavailable reason.
const Discovery& Discover();

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_DRIVER_API_CUDA_API_H_
