#include "tests/plugins/cuda/fake_driver_link/driver_link.h"

#include <dlfcn.h>

#include <cstdlib>

namespace fake_driver_link {
namespace {

struct Linked {
  DriverLink link;
  std::string error;
  bool ok = false;
};

template <typename Fn>
bool Resolve(PFN_cuGetProcAddress_v12000 get, const char* name, int version,
             Fn* fn, std::string* error) {
  void* pointer = nullptr;
  CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SUCCESS;
  if (get(name, &pointer, version, CU_GET_PROC_ADDRESS_DEFAULT, &status) !=
          CUDA_SUCCESS ||
      pointer == nullptr) {
    *error =
        std::string("the CUDA driver has no ") + name +
        " (the fake cuBLASLt and NCCL run on the tests' fake libcuda only)";
    return false;
  }
  *fn = reinterpret_cast<Fn>(pointer);
  return true;
}

Linked Link() {
  Linked linked;
  const char* path = std::getenv("PJRTX_CUDA_DRIVER_PATH");
  if (path == nullptr || *path == '\0') path = "libcuda.so.1";
  // The plugin loaded it already: this finds the same library.
  void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* why = dlerror();
    linked.error = std::string("cannot load the CUDA driver ") + path + ": " +
                   (why != nullptr ? why : "unknown error");
    return linked;
  }
  auto get = reinterpret_cast<PFN_cuGetProcAddress_v12000>(
      dlsym(library, "cuGetProcAddress_v2"));
  if (get == nullptr) {
    linked.error = std::string(path) + " has no cuGetProcAddress_v2";
    return linked;
  }
  DriverLink& link = linked.link;
  linked.ok =
      Resolve(get, "cuCtxGetCurrent", 4000, &link.cuCtxGetCurrent,
              &linked.error) &&
      Resolve(get, "cuCtxSetCurrent", 4000, &link.cuCtxSetCurrent,
              &linked.error) &&
      Resolve(get, "cuCtxGetDevice", 2000, &link.cuCtxGetDevice,
              &linked.error) &&
      Resolve(get, "fakeCudaEnqueueHostWork", 0, &link.enqueue_host_work,
              &linked.error) &&
      Resolve(get, "fakeCudaTranslate", 0, &link.translate, &linked.error);
  return linked;
}

const Linked& Get() {
  static const Linked* linked = new Linked(Link());
  return *linked;
}

}  // namespace

const DriverLink* Driver() { return Get().ok ? &Get().link : nullptr; }

const std::string& LinkError() { return Get().error; }

}  // namespace fake_driver_link
