// A process's UCX state for the DCN transport: one UCP context and one
// worker, driven by a progress thread that is the only thread calling UCP.
#ifndef PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_
#define PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_

#include <ucp/api/ucp.h>

#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/status/statusor.h"

namespace pjrtx::collectives {

// Owns the UCP context, its worker and the worker's progress thread. The
// thread spins on ucp_worker_progress for a short while after the last
// event (latency of back-to-back messages), then sleeps on the worker's
// event descriptor (no CPU burnt while idle). Other threads never call UCP:
// they Post closures that the progress thread runs, in order, between
// progress calls. That is why the worker can be SERIALIZED rather than
// MULTI (no UCP-internal locking) and why completion callbacks and posted
// work never race.
//
// Thread-safe. Shared (std::shared_ptr) by every UcxTransport of a process,
// which keeps it alive until the last one is gone; the destructor joins the
// progress thread after running everything already posted.
class UcxContext {
 public:
  struct Options {
    // UCX's TLS setting, written into this context's own configuration
    // (ucp_config_modify), never into the process environment. "tcp" is the
    // emulated DCN even between processes of one machine (by default UCX
    // would pick shared memory there); "self" lets a rank reach its own
    // worker, which tcp alone does not promise.
    std::string transports = "tcp,self";
    // How long the progress thread keeps polling after the last event
    // before it sleeps on the event descriptor.
    // Long enough to span the gap between the steps of a collective: at
    // 50 µs an 8-byte round trip on a loaded 2-core machine cost 300 µs
    // (the thread slept between messages), at 2 ms it costs 60 µs.
    std::chrono::microseconds spin = std::chrono::microseconds(2000);
  };

  // UNAVAILABLE naming the failing UCP call and its status when UCX cannot
  // be initialized with `options` (e.g. an unknown transport name).
  static absl::StatusOr<std::shared_ptr<UcxContext>> Create(
      const Options& options);

  ~UcxContext();
  UcxContext(const UcxContext&) = delete;
  UcxContext& operator=(const UcxContext&) = delete;

  // The worker's address, an opaque blob that peers pass to ucp_ep_create.
  const std::string& worker_address() const { return worker_address_; }

  // Runs `work` on the progress thread, after everything posted before it.
  // `work` must not block for long: it holds up all progress.
  void Post(std::function<void(ucp_worker_h)> work);

  // Posts `work` and waits until it has run.
  void Run(std::function<void(ucp_worker_h)> work);

 private:
  UcxContext(ucp_context_h context, ucp_worker_h worker, int worker_fd,
             int epoll_fd, int wake_fd, std::string worker_address,
             std::chrono::microseconds spin);

  void ProgressLoop();
  // Runs every queued closure; returns false once stopping was requested.
  bool RunQueued();

  const ucp_context_h context_;
  const ucp_worker_h worker_;
  const int worker_fd_;  // Owned by the worker.
  const int epoll_fd_;   // Waits on worker_fd_ and wake_fd_.
  const int wake_fd_;    // An eventfd: Post writes it to wake the thread.
  const std::string worker_address_;
  const std::chrono::microseconds spin_;

  std::mutex mu_;
  std::deque<std::function<void(ucp_worker_h)>> queue_;  // Guarded by mu_.
  bool stopping_ = false;                                // Guarded by mu_.
  // Lets the spinning thread notice posted work without taking mu_.
  std::atomic<int64_t> queued_{0};
  std::thread thread_;
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_
