// The driver's global state: initialization, devices and their primary
// contexts, the per-thread current context, and the checks every entry
// point starts with.
#ifndef PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_DRIVER_H_
#define PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_DRIVER_H_

#include <cuda.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace fake_cuda {

// A device's primary context, the only kind of context the fake has. One
// object per device for the life of the process: a released context keeps
// its address, so a stale handle is recognized rather than dereferenced
// freed memory.
struct Context {
  int device = 0;
  // Serializes retain and release, teardown included.
  std::mutex lifecycle_mu;
  int refcount = 0;  // Guarded by lifecycle_mu.
  std::atomic<bool> alive{false};
  // A device fault poisons the context until it is destroyed, like a real
  // one: every later call that needs it returns this error.
  std::atomic<CUresult> sticky{CUDA_SUCCESS};

  void SetSticky(CUresult error) {
    CUresult expected = CUDA_SUCCESS;
    sticky.compare_exchange_strong(expected, error);
  }
  CUcontext handle() { return reinterpret_cast<CUcontext>(this); }
};

// How much checking an entry point does before its body runs.
enum class Gate {
  kNone,         // cuGetErrorName/String: always callable.
  kAny,          // cuInit, cuDriverGetVersion: callable before cuInit.
  kInitialized,  // Everything else: CUDA_ERROR_NOT_INITIALIZED before it.
};

// NOT_PERMITTED inside a host function, FAKE_CUDA_FAIL_AFTER's injected
// failure, NOT_INITIALIZED before a successful cuInit.
CUresult EnterApi(const char* name, Gate gate);

CUresult Init(unsigned flags);
int DeviceCount();
// Whether `device` is an ordinal cuDeviceGet hands out.
bool ValidDevice(CUdevice device);
Context* DeviceContext(int device);
// The context `handle` names, or nullptr when it is none of the fake's.
Context* FromHandle(CUcontext handle);

// The calling thread's current context (201 INVALID_CONTEXT without one,
// 709 CONTEXT_IS_DESTROYED after its last release). With `check_sticky`,
// a poisoned context's error as well.
CUresult CurrentContext(Context** context, bool check_sticky = true);
void SetCurrent(Context* context);
Context* GetCurrent();

// Marks the calling thread as running a host function (cuLaunchHostFunc),
// where driver calls answer CUDA_ERROR_NOT_PERMITTED.
class HostFunctionScope {
 public:
  HostFunctionScope();
  ~HostFunctionScope();
  HostFunctionScope(const HostFunctionScope&) = delete;
  HostFunctionScope& operator=(const HostFunctionScope&) = delete;
};

// Live handles of one kind: the handle is the object's address, and a
// handle not in the table (never created, or destroyed) is refused with
// CUDA_ERROR_INVALID_HANDLE instead of being dereferenced.
template <typename T>
class HandleTable {
 public:
  template <typename Handle>
  Handle Add(std::shared_ptr<T> item) {
    std::lock_guard<std::mutex> lock(mu_);
    T* raw = item.get();
    items_.emplace(raw, std::move(item));
    return reinterpret_cast<Handle>(raw);
  }
  std::shared_ptr<T> Find(const void* handle) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = items_.find(handle);
    return it == items_.end() ? nullptr : it->second;
  }
  std::shared_ptr<T> Take(const void* handle) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = items_.find(handle);
    if (it == items_.end()) return nullptr;
    std::shared_ptr<T> item = std::move(it->second);
    items_.erase(it);
    return item;
  }
  template <typename Predicate>
  std::vector<std::shared_ptr<T>> TakeIf(Predicate predicate) {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<T>> taken;
    for (auto it = items_.begin(); it != items_.end();) {
      if (predicate(*it->second)) {
        taken.push_back(std::move(it->second));
        it = items_.erase(it);
      } else {
        ++it;
      }
    }
    return taken;
  }
  template <typename Predicate>
  std::vector<std::shared_ptr<T>> FindIf(Predicate predicate) const {
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<std::shared_ptr<T>> found;
    for (const auto& [handle, item] : items_) {
      if (predicate(*item)) found.push_back(item);
    }
    return found;
  }

 private:
  mutable std::mutex mu_;
  std::unordered_map<const void*, std::shared_ptr<T>> items_;
};

// Teardown of what a context owns, called in this order when a primary
// context's last reference goes (each defined by the file that owns those
// objects): streams finish their queued work and stop first, as it may
// still use the memory that goes last.
void ReleaseContextStreams(Context* context);
void ReleaseContextEvents(Context* context);
void ReleaseContextModules(Context* context);
void ReleaseContextMemory(Context* context);
// Stops every stream worker at process exit.
void ShutdownStreams();

}  // namespace fake_cuda

#endif  // PJRTX_TESTS_PLUGINS_CUDA_FAKE_CUDA_DRIVER_H_
