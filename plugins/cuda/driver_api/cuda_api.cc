#include "plugins/cuda/driver_api/cuda_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <string>

#include "absl/strings/str_cat.h"

namespace cuda_plugin {
namespace {

using GetProcAddress = PFN_cuGetProcAddress_v12000;

}  // namespace

std::string ErrorText(const DriverApi& api, CUresult result) {
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName != nullptr) api.cuGetErrorName(result, &name);
  if (api.cuGetErrorString != nullptr) api.cuGetErrorString(result, &text);
  if (name == nullptr) return absl::StrCat("CUresult ", result);
  return text == nullptr ? std::string(name)
                         : absl::StrCat(name, " (", text, ")");
}

namespace {

// Resolves `symbol` at `version` into `*fn`; false (with the reason set)
// when the driver does not have it at that version.
template <typename Fn>
bool Resolve(GetProcAddress get, const char* symbol, int version, Fn* fn,
             Discovery& found) {
  void* pointer = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  const CUresult result =
      get(symbol, &pointer, version, CU_GET_PROC_ADDRESS_DEFAULT, &status);
  if (result == CUDA_ERROR_STUB_LIBRARY) {
    // The toolkit's stub answers every call so, lookups included.
    found.unavailable_reason = absl::StrCat(
        found.driver_path,
        " is the CUDA toolkit's stub library, not a driver "
        "(cuGetProcAddress_v2: CUDA_ERROR_STUB_LIBRARY); install the NVIDIA "
        "driver");
    return false;
  }
  if (result != CUDA_SUCCESS || pointer == nullptr ||
      status != CU_GET_PROC_ADDRESS_SUCCESS) {
    found.unavailable_reason = absl::StrCat(
        "the CUDA driver at ", found.driver_path, " has no ", symbol,
        " for CUDA ", version / 1000, ".", version % 1000 / 10,
        " (cuGetProcAddress_v2 returned ", result, ", status ", status,
        "); a driver for CUDA 12.0 or newer is needed");
    return false;
  }
  *fn = reinterpret_cast<Fn>(pointer);
  return true;
}

bool ResolveAll(GetProcAddress get, DriverApi& api, Discovery& found) {
#define PJRTX_CUDA_RESOLVE_ENTRY(name, version) \
  if (!Resolve(get, #name, version, &api.name, found)) return false;
  PJRTX_CUDA_ENTRY_POINTS(PJRTX_CUDA_RESOLVE_ENTRY)
#undef PJRTX_CUDA_RESOLVE_ENTRY
  return true;
}

std::string InitFailure(const DriverApi& api, const Discovery& found,
                        CUresult result) {
  switch (result) {
    case CUDA_ERROR_STUB_LIBRARY:
      return absl::StrCat(found.driver_path,
                          " is the CUDA toolkit's stub library, not a driver "
                          "(cuInit: ",
                          ErrorText(api, result),
                          "); install the NVIDIA driver");
    case CUDA_ERROR_NO_DEVICE:
      return absl::StrCat("no CUDA device (cuInit: ", ErrorText(api, result),
                          ")");
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH:
    case CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
      return absl::StrCat(
          "the CUDA driver library does not match the kernel driver or the "
          "device (cuInit: ",
          ErrorText(api, result), ")");
    default:
      return absl::StrCat("cuInit failed: ", ErrorText(api, result));
  }
}

void ListGpus(const DriverApi& api, Discovery& found) {
  int count = 0;
  CUresult result = api.cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) {
    found.unavailable_reason =
        absl::StrCat("cuDeviceGetCount failed: ", ErrorText(api, result));
    return;
  }
  for (int ordinal = 0; ordinal < count; ++ordinal) {
    CUdevice device = 0;
    GpuInfo gpu;
    gpu.ordinal = ordinal;
    result = api.cuDeviceGet(&device, ordinal);
    char name[256] = {};
    char bus[64] = {};
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceGetName(name, sizeof(name) - 1, device);
    }
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceGetAttribute(
          &gpu.compute_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
          device);
    }
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceGetAttribute(
          &gpu.compute_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
          device);
    }
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceGetAttribute(
          &gpu.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device);
    }
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceTotalMem(&gpu.memory_bytes, device);
    }
    if (result == CUDA_SUCCESS) {
      result = api.cuDeviceGetPCIBusId(bus, sizeof(bus) - 1, device);
    }
    if (result != CUDA_SUCCESS) {
      found.unavailable_reason = absl::StrCat(
          "cannot query CUDA device ", ordinal, ": ", ErrorText(api, result));
      found.gpus.clear();
      return;
    }
    gpu.name = name;
    gpu.pci_bus_id = bus;
    found.gpus.push_back(gpu);
  }
  if (found.gpus.empty()) {
    found.unavailable_reason = "no CUDA device (cuDeviceGetCount: 0)";
  }
}

Discovery Load() {
  Discovery found;
  const char* path = std::getenv("PJRTX_CUDA_DRIVER_PATH");
  found.driver_path = path != nullptr && *path != '\0' ? path : "libcuda.so.1";
  // Never closed: a driver cannot be unloaded safely, and the plugin lives
  // as long as the process.
  void* library = dlopen(found.driver_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    found.unavailable_reason = absl::StrCat(
        "no CUDA driver: cannot load ", found.driver_path, " (",
        why != nullptr ? why : "unknown error",
        "); install the NVIDIA driver or set PJRTX_CUDA_DRIVER_PATH");
    return found;
  }
  auto get =
      reinterpret_cast<GetProcAddress>(dlsym(library, "cuGetProcAddress_v2"));
  if (get == nullptr) {
    found.unavailable_reason = absl::StrCat(
        "the CUDA driver at ", found.driver_path,
        " predates CUDA 12.0 (it has no cuGetProcAddress_v2); a driver for "
        "CUDA 12.0 or newer is needed");
    return found;
  }
  // Load runs once per process (Discover); the table lives as long as the
  // library it points into, which is never closed.
  static DriverApi api;
  if (!ResolveAll(get, api, found)) return found;
  CUresult result = api.cuInit(0);
  if (result != CUDA_SUCCESS) {
    found.unavailable_reason = InitFailure(api, found, result);
    return found;
  }
  result = api.cuDriverGetVersion(&found.driver_version);
  if (result != CUDA_SUCCESS) {
    found.unavailable_reason =
        absl::StrCat("cuDriverGetVersion failed: ", ErrorText(api, result));
    return found;
  }
  if (found.driver_version < kMinDriverVersion) {
    found.unavailable_reason = absl::StrCat(
        "the CUDA driver supports CUDA ", found.driver_version / 1000, ".",
        found.driver_version % 1000 / 10, "; CUDA 12.0 or newer is needed");
    return found;
  }
  found.api = &api;
  ListGpus(api, found);
  return found;
}

}  // namespace

const Discovery& Discover() {
  static const Discovery* discovery = new Discovery(Load());
  return *discovery;
}

}  // namespace cuda_plugin
