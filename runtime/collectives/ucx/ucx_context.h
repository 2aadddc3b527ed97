// A process's UCX state for the DCN transport: one UCP context and one
// worker, driven by whichever thread waits on it, or else by a progress
// thread.
#ifndef PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_
#define PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_

#include <ucp/api/ucp.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"

namespace pjrtx::collectives {

// Owns the UCP context, its worker and the worker's progress thread.
//
// One thread at a time drives the worker (calls UCP). A thread waiting for
// its messages (Await) drives it inline: it polls the worker for `spin`
// after the last event, then sleeps on the worker's event descriptor
// itself. Handing each call and each completion to another thread instead
// costs two thread switches per message, which on a small machine is most
// of a short message's latency. When nobody waits, the progress thread
// drives the worker (so that peers' messages, connection set-up and
// rendezvous requests are answered); it sleeps on the event descriptor at
// once, without spinning, and steps aside while a thread waits inline.
//
// Other threads never call UCP directly: they Post closures, which the
// driving thread runs, in order, between progress calls. Hence the worker
// can be SERIALIZED rather than MULTI (no UCP-internal locking), and
// completion callbacks and posted work never race.
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
    // Further settings of this context's own configuration, named as in
    // UCX_<name> variables, each applied unless the user set that variable.
    // The defaults suit bulk transfers over tcp with peer failure detection
    // on, which rules out tcp's zero-copy rendezvous: messages go eagerly
    // (no rendezvous round trip) in 512 KiB segments through 8 MiB socket
    // buffers. On loopback ucx_perftest with error handling moved 1 MiB
    // messages at 2.9 GB/s with UCX's defaults and 4.6 GB/s with these.
    // Eager sends copy into UCX's segments (ZCOPY_THRESH=inf): tcp's
    // zero-copy sends complete twice when the peer dies while one is
    // partly sent (UCX 1.13's uct_tcp_ep_sendv purges the send, then
    // completes it again), which aborts the surviving process on UCX's
    // assertion instead of failing the exchange; the copy cost no
    // throughput measurable on loopback (docs/benchmarks.md).
    std::vector<std::pair<std::string, std::string>> settings = {
        {"RNDV_THRESH", "inf"},      {"ZCOPY_THRESH", "inf"},
        {"TCP_TX_SEG_SIZE", "512K"}, {"TCP_RX_SEG_SIZE", "512K"},
        {"TCP_SNDBUF", "8M"},        {"TCP_RCVBUF", "8M"}};
    // How long a waiting thread keeps polling after the last event before
    // it sleeps on the event descriptor: long enough to span the gap
    // between the steps of a collective, short enough that a rank waiting
    // for a late peer gives its core back.
    std::chrono::microseconds spin = std::chrono::microseconds(1000);
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

  // Runs `work` on the thread driving the worker, after everything posted
  // before it. `work` must not block for long: it holds up all progress.
  void Post(std::function<void(ucp_worker_h)> work);

  // Posts `work` and waits (driving the worker if free) until it has run.
  // Must not be called from posted work or a UCP callback.
  void Run(std::function<void(ucp_worker_h)> work);

  // Runs `first` (if given) as Post would, then waits until `done()` holds
  // or `deadline` passes and returns `done()`. While no other thread waits
  // inline, the caller drives the worker itself, and then runs `first`
  // itself too. `done` is read on the calling thread; whatever makes it
  // true on the driving thread must call NotifyWaiters afterwards. Must not
  // be called from posted work or a UCP callback.
  bool Await(const std::function<bool()>& done,
             std::chrono::steady_clock::time_point deadline,
             std::function<void(ucp_worker_h)> first = nullptr);

  // Wakes Await callers to check their `done` again.
  void NotifyWaiters();

  // A tag space is the top 16 bits of the UCP tags a transport receives
  // (see UcxTagFor). UCP matches receives per worker, so transports
  // sharing the worker need distinct spaces; a transport publishes its
  // space beside its address, and senders use the receiver's.
  // RESOURCE_EXHAUSTED when all 65536 are taken.
  absl::StatusOr<uint16_t> AllocateTagSpace();
  void ReleaseTagSpace(uint16_t space);

 private:
  using Clock = std::chrono::steady_clock;

  UcxContext(ucp_context_h context, ucp_worker_h worker, int worker_fd,
             int progress_epoll_fd, int inline_epoll_fd, int wake_fd,
             std::string worker_address, std::chrono::microseconds spin);

  void ProgressLoop();
  // Runs every queued closure. Only while driving the worker.
  void RunQueued();
  // Drives the worker until `done()` or `deadline`. Holds worker_mu_.
  void DriveUntil(const std::function<bool()>& done,
                  Clock::time_point deadline);
  // Sleeps in `epoll_fd` (the worker's event descriptor and the wake-up
  // event) until either fires or `timeout_ms` (-1: no limit) passes.
  // Returns whether one fired.
  bool SleepOn(int epoll_fd, int timeout_ms);
  // Interrupts a SleepOn.
  void Wake();

  const ucp_context_h context_;
  const ucp_worker_h worker_;
  const int worker_fd_;  // Owned by the worker.
  // Both wait on worker_fd_ and wake_fd_; see Create.
  const int progress_epoll_fd_;
  const int inline_epoll_fd_;
  const int wake_fd_;  // An eventfd: Post writes it to wake the driver.
  const std::string worker_address_;
  const std::chrono::microseconds spin_;

  // Held by the thread driving the worker. The progress thread holds it
  // only while it processes events, never while it sleeps.
  std::mutex worker_mu_;

  std::mutex queue_mu_;
  std::deque<std::function<void(ucp_worker_h)>> queue_;  // By queue_mu_.
  // Lets the driving thread notice posted work without taking queue_mu_.
  std::atomic<int64_t> queued_{0};

  std::mutex wait_mu_;
  std::condition_variable wait_cv_;
  bool inline_driver_ = false;  // Guarded by wait_mu_: an Await drives.
  bool stopping_ = false;       // Guarded by wait_mu_.
  // Threads inside Await; the progress thread steps aside while any are.
  std::atomic<int> inline_waiters_{0};
  // Parks the progress thread while threads wait inline.
  std::condition_variable progress_cv_;

  std::mutex spaces_mu_;
  std::vector<bool> tag_spaces_ = std::vector<bool>(1 << 16);  // In use.
  size_t next_tag_space_ = 0;  // Guarded by spaces_mu_.

  std::thread thread_;
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_CONTEXT_H_
