#include "tests/plugins/cuda/fake_cuda/driver.h"

#include "tests/plugins/cuda/fake_cuda/config.h"
#include "tests/plugins/cuda/fake_cuda/fault_injection.h"

namespace fake_cuda {
namespace {

// Set once by the first successful cuInit; a failed cuInit leaves the
// driver uninitialized, as a real one does.
std::atomic<bool> initialized{false};

thread_local Context* current_context = nullptr;
thread_local int host_function_depth = 0;

Context* Contexts() {
  // Never freed: contexts outlive any handle the plugin may still hold.
  static Context* contexts = [] {
    Context* all = new Context[kMaxDevices];
    for (int i = 0; i < kMaxDevices; ++i) all[i].device = i;
    return all;
  }();
  return contexts;
}

// Joins the stream workers when the process exits: a library loaded with
// dlopen cannot count on anyone releasing its contexts.
struct ShutdownAtExit {
  ~ShutdownAtExit() { ShutdownStreams(); }
} shutdown_at_exit;

}  // namespace

CUresult EnterApi(const char* name, Gate gate) {
  if (gate != Gate::kNone && host_function_depth > 0) {
    return CUDA_ERROR_NOT_PERMITTED;
  }
  if (CUresult injected = CountCall(name); injected != CUDA_SUCCESS) {
    return injected;
  }
  if (gate == Gate::kInitialized && !initialized.load()) {
    return CUDA_ERROR_NOT_INITIALIZED;
  }
  return CUDA_SUCCESS;
}

CUresult Init(unsigned flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;
  if (IsMode("no_device")) return CUDA_ERROR_NO_DEVICE;
  if (IsMode("stub")) return CUDA_ERROR_STUB_LIBRARY;
  initialized.store(true);
  return CUDA_SUCCESS;
}

int DeviceCount() { return GetConfig().gpus; }

bool ValidDevice(CUdevice device) {
  return device >= 0 && device < DeviceCount();
}

Context* DeviceContext(int device) {
  return ValidDevice(device) ? &Contexts()[device] : nullptr;
}

Context* FromHandle(CUcontext handle) {
  Context* contexts = Contexts();
  for (int i = 0; i < DeviceCount(); ++i) {
    if (handle == contexts[i].handle()) return &contexts[i];
  }
  return nullptr;
}

CUresult CurrentContext(Context** context, bool check_sticky) {
  Context* current = current_context;
  if (current == nullptr) return CUDA_ERROR_INVALID_CONTEXT;
  if (!current->alive.load()) return CUDA_ERROR_CONTEXT_IS_DESTROYED;
  if (check_sticky) {
    if (CUresult sticky = current->sticky.load(); sticky != CUDA_SUCCESS) {
      return sticky;
    }
  }
  *context = current;
  return CUDA_SUCCESS;
}

void SetCurrent(Context* context) { current_context = context; }

Context* GetCurrent() { return current_context; }

HostFunctionScope::HostFunctionScope() { ++host_function_depth; }

HostFunctionScope::~HostFunctionScope() { --host_function_depth; }

}  // namespace fake_cuda
