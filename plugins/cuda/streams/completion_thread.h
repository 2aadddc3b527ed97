// Turns completed CUDA events into host-side completions. One thread per
// client polls cuEventQuery: cuEventSynchronize spins a core per waiter,
// and host functions on streams may not call CUDA, so neither can finish a
// task (../shared REFERENCE 2.6). Polling either costs a core or learns
// late (with backoff doubling up to 1 ms, a 200 us kernel was seen about
// 100 us after it ended on an H100), so there are two ways to wait
// (CompletionWait): spinning, where cores are plenty, and backing off,
// where each event also gets a host function that only wakes the thread
// (the backoff then remains for what host functions never report: a
// failed stream, a driver that refused the function). Host functions cost
// about 15 us per operation there, which is why spinning does without.
#ifndef PJRTX_PLUGINS_CUDA_STREAMS_COMPLETION_THREAD_H_
#define PJRTX_PLUGINS_CUDA_STREAMS_COMPLETION_THREAD_H_

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "plugins/cuda/device/gpu.h"
#include "plugins/cuda/driver_api/cuda_api.h"

namespace cuda_plugin {

// How the completion thread waits for events it has not seen complete.
enum class CompletionWait {
  // Polls continuously (yielding the core between polls) while events are
  // pending: learns of a completion within microseconds, as a
  // synchronising raw driver call does, at the price of a busy core while
  // the GPU works.
  kSpin,
  // Backs off (5 us doubling to 1 ms), cut short by a host function per
  // event that wakes the thread: costs no core, suits machines with few.
  kBackoff,
};

// kSpin where the machine has cores to spare (8 or more hardware threads),
// else kBackoff; or what `name` ("spin", "backoff", "auto") asks for.
absl::StatusOr<CompletionWait> ParseCompletionWait(std::string_view name);

class CompletionThread {
 public:
  // Called once the event completed (OK) or the device failed (the error),
  // on the completion thread with the GPU's context current. May call the
  // driver (frees, copies out of staging); must not wait for later work.
  using Callback = absl::AnyInvocable<void(absl::Status) &&>;

  CompletionThread(const DriverApi& api, CompletionWait wait);
  // Finishes every pending completion first.
  ~CompletionThread();
  CompletionThread(const CompletionThread&) = delete;
  CompletionThread& operator=(const CompletionThread&) = delete;

  // Calls `callback` once `event` (recorded on `gpu`, from its event pool,
  // which gets it back after the callback returned) has completed. Completions
  // of one `lane` run in the order they were added, so a queue's tasks finish
  // in order even when a later event is seen first.
  void Add(int64_t lane, Gpu* gpu, CUevent event, Callback callback);

  // With kBackoff, has the thread woken once `event`, recorded on `gpu` by
  // the calling thread (its context current), has completed, through a
  // host function on the GPU's wake stream (kSpin needs none). Best
  // effort: where the driver refuses, the backoff finds the event all the
  // same.
  void WakeWhenDone(Gpu& gpu, CUevent event);

  // Completions still pending.
  int64_t pending() const;

  // How this thread waits; queues feeding it wait for work the same way.
  CompletionWait wait() const { return wait_; }

 private:
  struct Pending {
    Gpu* gpu;
    CUevent event;
    Callback callback;
  };

  // The host function: wakes the thread registered under `id`, if it
  // still exists. Runs on a driver thread; makes no CUDA call.
  static void CUDA_CB WakeFromHostFunction(void* id);
  void Wake();

  void Run();
  // Polls each lane's oldest entry; returns how many completed.
  int PollOnce();

  const DriverApi& api_;
  const CompletionWait wait_;
  mutable std::mutex mu_;
  std::condition_variable work_;
  std::map<int64_t, std::deque<Pending>> lanes_;  // Guarded by mu_.
  int64_t pending_ = 0;                           // Guarded by mu_.
  bool stopping_ = false;                         // Guarded by mu_.
  bool woken_ = false;                            // Guarded by mu_.
  // Names this thread to host functions, which may run after it is gone.
  const uintptr_t wake_id_;
  std::thread thread_;
};

// A completion lane no queue uses, for work issued outside queue tasks.
int64_t NewPrivateLane();

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_STREAMS_COMPLETION_THREAD_H_
