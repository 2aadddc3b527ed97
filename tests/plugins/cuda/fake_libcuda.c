/* A stand-in for libcuda.so.1 that tests load through
 * PJRTX_CUDA_DRIVER_PATH: enough of the Driver API for the plugin's driver
 * discovery. FAKE_CUDA_MODE picks a situation: "ok" (FAKE_CUDA_GPUS GPUs,
 * default 2), "no_device" and "stub" (cuInit fails with NO_DEVICE /
 * STUB_LIBRARY), "old" (a CUDA 11.8 driver), "missing_symbol" (no
 * cuDeviceGetPCIBusId). Built with FAKE_CUDA_NO_V2 it has no
 * cuGetProcAddress_v2 at all, like drivers before CUDA 12.0. */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int Mode(const char* mode) {
  const char* set = getenv("FAKE_CUDA_MODE");
  return strcmp(set != NULL ? set : "ok", mode) == 0;
}

static CUresult FakeInit(unsigned int flags) {
  (void)flags;
  if (Mode("no_device")) return CUDA_ERROR_NO_DEVICE;
  if (Mode("stub")) return CUDA_ERROR_STUB_LIBRARY;
  return CUDA_SUCCESS;
}

static CUresult FakeDriverGetVersion(int* version) {
  *version = Mode("old") ? 11080 : 13000;
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceGetCount(int* count) {
  const char* gpus = getenv("FAKE_CUDA_GPUS");
  *count = gpus != NULL ? atoi(gpus) : 2;
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceGet(CUdevice* device, int ordinal) {
  *device = ordinal;
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceGetName(char* name, int length, CUdevice device) {
  snprintf(name, (size_t)length, "Fake H100 %d", device);
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceGetAttribute(int* value, CUdevice_attribute what,
                                       CUdevice device) {
  (void)device;
  switch (what) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = 9;
      break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = 0;
      break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT:
      *value = 132;
      break;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceTotalMem(size_t* bytes, CUdevice device) {
  (void)device;
  *bytes = (size_t)80 << 30;
  return CUDA_SUCCESS;
}

static CUresult FakeDeviceGetPCIBusId(char* bus, int length, CUdevice device) {
  snprintf(bus, (size_t)length, "0000:%02x:00.0", 0x18 + device);
  return CUDA_SUCCESS;
}

static CUresult FakeGetErrorName(CUresult error, const char** name) {
  switch (error) {
    case CUDA_ERROR_NO_DEVICE:
      *name = "CUDA_ERROR_NO_DEVICE";
      break;
    case CUDA_ERROR_STUB_LIBRARY:
      *name = "CUDA_ERROR_STUB_LIBRARY";
      break;
    default:
      *name = "CUDA_ERROR_UNKNOWN";
      break;
  }
  return CUDA_SUCCESS;
}

static CUresult FakeGetErrorString(CUresult error, const char** text) {
  *text = error == CUDA_ERROR_STUB_LIBRARY ? "CUDA driver is a stub library"
                                           : "fake driver error";
  return CUDA_SUCCESS;
}

#ifndef FAKE_CUDA_NO_V2
CUresult cuGetProcAddress_v2(const char* symbol, void** pfn, int version,
                             cuuint64_t flags,
                             CUdriverProcAddressQueryResult* status) {
  static const struct {
    const char* name;
    void* fn;
  } table[] = {
      {"cuInit", (void*)FakeInit},
      {"cuDriverGetVersion", (void*)FakeDriverGetVersion},
      {"cuDeviceGetCount", (void*)FakeDeviceGetCount},
      {"cuDeviceGet", (void*)FakeDeviceGet},
      {"cuDeviceGetName", (void*)FakeDeviceGetName},
      {"cuDeviceGetAttribute", (void*)FakeDeviceGetAttribute},
      {"cuDeviceTotalMem", (void*)FakeDeviceTotalMem},
      {"cuDeviceGetPCIBusId", (void*)FakeDeviceGetPCIBusId},
      {"cuGetErrorName", (void*)FakeGetErrorName},
      {"cuGetErrorString", (void*)FakeGetErrorString},
  };
  (void)version;
  (void)flags;
  *pfn = NULL;
  *status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  if (Mode("missing_symbol") && strcmp(symbol, "cuDeviceGetPCIBusId") == 0) {
    return CUDA_SUCCESS;
  }
  for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); ++i) {
    if (strcmp(symbol, table[i].name) == 0) {
      *pfn = table[i].fn;
      *status = CU_GET_PROC_ADDRESS_SUCCESS;
    }
  }
  return CUDA_SUCCESS;
}
#endif
