// The implementations behind the versioned entry points that
// cuGetProcAddress_v2 hands out (fake_cuda.cc), by the file defining them.
// Each has the signature of the version it implements.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_ENTRY_POINTS_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_ENTRY_POINTS_H_

#include <cuda.h>

#include <cstddef>

#include "tests/plugins/cuda/fake_cuda/private_api.h"

namespace fake_cuda::api {

// errors.cc
CUresult GetErrorName(CUresult code, const char** name);
CUresult GetErrorString(CUresult code, const char** text);

// device.cc
CUresult Init(unsigned flags);
CUresult DriverGetVersion(int* version);
CUresult DeviceGetCount(int* count);
CUresult DeviceGet(CUdevice* device, int ordinal);
CUresult DeviceGetName(char* name, int length, CUdevice device);
CUresult DeviceGetAttribute(int* value, CUdevice_attribute attribute,
                            CUdevice device);
CUresult DeviceTotalMem(size_t* bytes, CUdevice device);
CUresult DeviceGetPCIBusId(char* bus, int length, CUdevice device);

// context.cc
CUresult DevicePrimaryCtxRetain(CUcontext* handle, CUdevice device);
CUresult DevicePrimaryCtxRelease(CUdevice device);
CUresult CtxSetCurrent(CUcontext handle);
CUresult CtxGetCurrent(CUcontext* handle);
CUresult CtxSynchronize();
CUresult CtxSynchronizeV13(CUcontext handle);
CUresult CtxGetDevice(CUdevice* device);
CUresult CtxGetDeviceV13(CUdevice* device, CUcontext handle);

// memory_api.cc
CUresult MemGetInfo(size_t* free, size_t* total);
CUresult MemAlloc(CUdeviceptr* address, size_t bytes);
CUresult MemFree(CUdeviceptr address);
CUresult MemAllocAsync(CUdeviceptr* address, size_t bytes, CUstream handle);
CUresult MemFreeAsync(CUdeviceptr address, CUstream handle);
CUresult MemAllocFromPoolAsync(CUdeviceptr* address, size_t bytes,
                               CUmemoryPool pool, CUstream handle);
CUresult MemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* properties);
CUresult MemPoolDestroy(CUmemoryPool pool);
CUresult MemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute,
                             void* value);
CUresult MemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attribute,
                             void* value);
CUresult MemPoolTrimTo(CUmemoryPool pool, size_t keep);
CUresult DeviceGetDefaultMemPool(CUmemoryPool* pool, CUdevice device);
CUresult MemHostAlloc(void** pointer, size_t bytes, unsigned flags);
CUresult MemFreeHost(void* pointer);
CUresult MemHostRegister(void* pointer, size_t bytes, unsigned flags);
CUresult MemHostUnregister(void* pointer);
CUresult MemHostGetDevicePointer(CUdeviceptr* address, void* pointer,
                                 unsigned flags);
CUresult PointerGetAttribute(void* data, CUpointer_attribute attribute,
                             CUdeviceptr pointer);

// copy.cc
CUresult MemcpyHtoDAsync(CUdeviceptr destination, const void* source,
                         size_t bytes, CUstream handle);
CUresult MemcpyDtoHAsync(void* destination, CUdeviceptr source, size_t bytes,
                         CUstream handle);
CUresult MemcpyDtoDAsync(CUdeviceptr destination, CUdeviceptr source,
                         size_t bytes, CUstream handle);
CUresult MemcpyPeerAsync(CUdeviceptr destination, CUcontext destination_context,
                         CUdeviceptr source, CUcontext source_context,
                         size_t bytes, CUstream handle);
CUresult MemcpyHtoD(CUdeviceptr destination, const void* source, size_t bytes);
CUresult MemcpyDtoH(void* destination, CUdeviceptr source, size_t bytes);
CUresult MemsetD8Async(CUdeviceptr destination, unsigned char value,
                       size_t count, CUstream handle);

// stream.cc
CUresult StreamCreate(CUstream* stream, unsigned flags);
CUresult StreamDestroy(CUstream handle);
CUresult StreamSynchronize(CUstream handle);
CUresult StreamQuery(CUstream handle);
CUresult StreamWaitEvent(CUstream handle, CUevent event, unsigned flags);
CUresult LaunchHostFunc(CUstream handle, CUhostFn function, void* data);
CUresult EventCreate(CUevent* event, unsigned flags);
CUresult EventDestroy(CUevent handle);
CUresult EventRecord(CUevent event, CUstream stream);
CUresult EventQuery(CUevent handle);
CUresult EventSynchronize(CUevent handle);
CUresult EventElapsedTime(float* milliseconds, CUevent start, CUevent end);

// module.cc
CUresult ModuleLoadDataEx(CUmodule* module, const void* image,
                          unsigned option_count, CUjit_option* options,
                          void** values);
CUresult ModuleLoadData(CUmodule* module, const void* image);
CUresult ModuleGetFunction(CUfunction* function, CUmodule handle,
                           const char* name);
CUresult ModuleUnload(CUmodule handle);
CUresult LaunchKernel(CUfunction handle, unsigned grid_x, unsigned grid_y,
                      unsigned grid_z, unsigned block_x, unsigned block_y,
                      unsigned block_z, unsigned shared_bytes, CUstream stream,
                      void** parameters, void** extra);
CUresult FuncGetAttribute(int* value, CUfunction_attribute attribute,
                          CUfunction handle);

// private_api.h: for the tests' fake NCCL. stream.cc, memory_api.cc.
CUresult EnqueueHostWork(CUstream handle, FakeCudaHostWork work, void* data);
CUresult TranslateAddress(CUdeviceptr address, size_t bytes, int write,
                          void** host);
// private_api.h: for the plugin's tests. copy.cc.
CUresult RegisteredHostCopies(uint64_t* uploads, uint64_t* downloads);

}  // namespace fake_cuda::api

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_ENTRY_POINTS_H_
