// Primary contexts and the per-thread current context. The last release of
// a primary context destroys it: its streams finish their queued work and
// their workers are joined, then its events, modules, device memory and
// pinned host memory go, and a later retain starts a fresh context with
// no sticky error.
#include "tests/plugins/cuda/fake_cuda/driver.h"
#include "tests/plugins/cuda/fake_cuda/entry_points.h"
#include "tests/plugins/cuda/fake_cuda/memory.h"
#include "tests/plugins/cuda/fake_cuda/stream.h"

namespace fake_cuda {
namespace {

// A context named by handle, or the current one for NULL (the CUDA 13
// signatures).
CUresult ContextOrCurrent(CUcontext handle, Context** context) {
  if (handle == nullptr) {
    return CurrentContext(context, /*check_sticky=*/false);
  }
  Context* named = FromHandle(handle);
  if (named == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
  if (!named->alive.load()) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
  *context = named;
  return CUDA_SUCCESS;
}

}  // namespace

namespace api {

CUresult DevicePrimaryCtxRetain(CUcontext* handle, CUdevice device) {
  if (handle == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!ValidDevice(device)) return CUDA_ERROR_INVALID_DEVICE;
  Context* context = DeviceContext(device);
  std::lock_guard<std::mutex> lock(context->lifecycle_mu);
  if (context->refcount == 0) {
    if (CUresult result = EnsureArena(device); result != CUDA_SUCCESS) {
      return result;
    }
    context->sticky.store(CUDA_SUCCESS);
    context->alive.store(true);
  }
  ++context->refcount;
  *handle = context->handle();
  return CUDA_SUCCESS;
}

CUresult DevicePrimaryCtxRelease(CUdevice device) {
  if (!ValidDevice(device)) return CUDA_ERROR_INVALID_DEVICE;
  Context* context = DeviceContext(device);
  std::lock_guard<std::mutex> lock(context->lifecycle_mu);
  if (context->refcount == 0) return CUDA_ERROR_INVALID_CONTEXT;
  if (--context->refcount > 0) return CUDA_SUCCESS;
  // New calls on the context fail from here on; queued work still runs,
  // so memory goes only after the streams are done.
  context->alive.store(false);
  ReleaseContextStreams(context);
  ReleaseContextEvents(context);
  ReleaseContextModules(context);
  ReleaseContextMemory(context);
  context->sticky.store(CUDA_SUCCESS);
  return CUDA_SUCCESS;
}

CUresult CtxSetCurrent(CUcontext handle) {
  if (handle == nullptr) {
    SetCurrent(nullptr);
    return CUDA_SUCCESS;
  }
  Context* context = FromHandle(handle);
  if (context == nullptr || !context->alive.load()) {
    return CUDA_ERROR_INVALID_CONTEXT;
  }
  SetCurrent(context);
  return CUDA_SUCCESS;
}

CUresult CtxGetCurrent(CUcontext* handle) {
  if (handle == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Context* current = GetCurrent();
  *handle = current != nullptr ? current->handle() : nullptr;
  return CUDA_SUCCESS;
}

CUresult CtxSynchronize() {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  return SynchronizeContext(context);
}

CUresult CtxSynchronizeV13(CUcontext handle) {
  Context* context;
  if (CUresult result = ContextOrCurrent(handle, &context);
      result != CUDA_SUCCESS) {
    return result;
  }
  return SynchronizeContext(context);
}

CUresult CtxGetDevice(CUdevice* device) {
  Context* context;
  if (CUresult result = CurrentContext(&context, /*check_sticky=*/false);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *device = context->device;
  return CUDA_SUCCESS;
}

CUresult CtxGetDeviceV13(CUdevice* device, CUcontext handle) {
  Context* context;
  if (CUresult result = ContextOrCurrent(handle, &context);
      result != CUDA_SUCCESS) {
    return result;
  }
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *device = context->device;
  return CUDA_SUCCESS;
}

}  // namespace api
}  // namespace fake_cuda
