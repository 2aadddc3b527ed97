// The CUDA Driver API, loaded at run time and never linked: a binary linked
// with -lcuda does not even start where no driver is installed. Every
// symbol is resolved through cuGetProcAddress_v2 at a version pinned per
// symbol (../shared REFERENCE 2.2), so a newer driver cannot silently bind
// a changed ABI (CUDA 13 changed cuCtxSynchronize behind the same name).
#ifndef PJRTX_PLUGINS_CUDA_CUDA_DRIVER_H_
#define PJRTX_PLUGINS_CUDA_CUDA_DRIVER_H_

#include <cudaTypedefs.h>

#include <cstddef>
#include <string>
#include <vector>

namespace cuda_plugin {

// The driver entry points the plugin uses, with the signatures of the
// versions requested.
struct DriverApi {
  PFN_cuGetErrorName_v6000 cuGetErrorName = nullptr;
  PFN_cuGetErrorString_v6000 cuGetErrorString = nullptr;
  PFN_cuInit_v2000 cuInit = nullptr;
  PFN_cuDriverGetVersion_v2020 cuDriverGetVersion = nullptr;
  PFN_cuDeviceGetCount_v2000 cuDeviceGetCount = nullptr;
  PFN_cuDeviceGet_v2000 cuDeviceGet = nullptr;
  PFN_cuDeviceGetName_v2000 cuDeviceGetName = nullptr;
  PFN_cuDeviceGetAttribute_v2000 cuDeviceGetAttribute = nullptr;
  PFN_cuDeviceTotalMem_v3020 cuDeviceTotalMem = nullptr;
  PFN_cuDeviceGetPCIBusId_v4010 cuDeviceGetPCIBusId = nullptr;
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
  // Empty when the plugin can use the GPUs; otherwise why not, in words a
  // user can act on (no driver, the toolkit's stub, an old driver, no
  // device, ...).
  std::string unavailable_reason;
};

// The oldest driver the plugin accepts: CUDA 12.0.
constexpr int kMinDriverVersion = 12000;

// Loads the driver once per process (PJRTX_CUDA_DRIVER_PATH names the
// library, for tests; default "libcuda.so.1") and lists the GPUs. Never
// crashes and never fails: every problem becomes the unavailable reason.
const Discovery& Discover();

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_CUDA_DRIVER_H_
