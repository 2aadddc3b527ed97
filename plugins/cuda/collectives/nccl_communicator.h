// The CUDA plugin's communicator: NCCL over GPUs of one machine, one NCCL
// rank (ncclComm_t) per local rank, each collective issued on the GPU
// streams of the device queues so that it is ordered with the queues'
// other work on the GPU, never by waiting on the host. Its ranks may span
// the processes of the machine: the process of rank 0 makes the NCCL
// unique id and hands it to the others through the key-value store.
#ifndef PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_COMMUNICATOR_H_
#define PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_COMMUNICATOR_H_

#include <nccl.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "plugins/cuda/collectives/nccl_library.h"
#include "plugins/cuda/device/gpu_driver.h"
#include "runtime/collectives/reduction.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/communicator.h"

namespace cuda_plugin {

// Thread-safe.
//
// Each operation becomes one task per local rank on that rank's device
// queue. The task's body runs on the queue's issue thread inside its issue
// scope: it orders the GPU's compute stream after the queue's earlier work
// and after the operation's dependencies (on the GPU where they are queue
// tasks, on the host for events from outside), then issues the rank's NCCL
// calls on that stream and returns; completion is observed like any task's.
// The rank's result event is registered as a task of its queue, so later
// work on any queue orders itself after the collective on the GPU.
//
// Threads and groups. NCCL requires the ranks of a collective either to be
// called from one thread inside one ncclGroupStart/End, or concurrently
// from different threads. Here every rank's calls are made by its own
// queue's thread, each in a group of its own (which also fuses the sends
// and receives of all-to-all and send/recv), and only once every local
// rank's queue has reached the operation: the ranks meet on the host
// first. That meeting is what keeps the GPUs from deadlocking. A task
// queued ahead of a rank's part may make its GPU wait for whatever another
// GPU's stream holds when it is issued (a copy between GPUs does); were a
// peer's NCCL kernel of this very collective already there, it would wait
// for the rank's kernel, queued behind that wait. After the meeting no
// kernel of the operation is on any stream until every queue has issued
// all that precedes it. One thread grouping all ranks' calls would need
// the same meeting and save nothing.
//
// The queues' threads get to the meeting: the tasks of one operation are
// enqueued on every queue under one process-wide lock, so operations (of
// any communicator) are in the same order on every queue, and a queue
// thread otherwise waits on the host only for tasks enqueued before its
// own to be issued (not completed) and for events from outside. Should a
// queue still not arrive (work enqueued concurrently by other threads can
// order itself between an operation's tasks), the operation fails after
// its timeout on every rank, having issued nothing. An NCCL call returns
// once its work is enqueued on the stream; it blocks its thread only while
// NCCL connects ranks on first use, until the peers' threads make the same
// call, which after the meeting they do.
//
// Every rank always issues its NCCL calls, whatever its dependencies
// turned out to be: a rank that skipped its part would leave its peers'
// kernels waiting forever, and ranks cannot agree on a dependency's
// outcome when some see it already failed and others still pending. A
// failed dependency fails the result events instead (the data was
// computed from undefined inputs).
//
// Failures. An NCCL call failing, an asynchronous error
// (ncclCommGetAsyncError, polled while operations are in flight and
// checked as each completes) or an operation not completing within its
// timeout (counted from when every local rank has issued it) aborts the
// communicator: every NCCL rank is aborted (ncclCommAbort), which ends the
// kernels in flight; their results and every later operation fail with
// the first error.
class NcclCommunicator : public pjrtx::Communicator {
 public:
  // Ranks are `device_ids` (global ids of `client`'s devices, each once);
  // INVALID_ARGUMENT names an unknown or repeated id. Every process of the
  // ranks calls it with the same ids, in the same order as its other
  // creations. The process of rank 0 makes the unique id and puts it in
  // the client's key-value store (required when ranks span processes); the
  // others wait up to `timeout_ms` for it. Each process creates its NCCL
  // ranks in one ncclGroupStart/End; a failure is the status of the
  // failing call. `driver` is `client`'s driver.
  // `timeout_ms` (> 0) is the operations' default timeout.
  static absl::StatusOr<std::unique_ptr<pjrtx::Communicator>> Create(
      const NcclLibrary& nccl, GpuDriver& driver,
      std::shared_ptr<pjrtx::ClientState> client,
      absl::Span<const int64_t> device_ids, int64_t timeout_ms);

  // Waits for the operations in flight, then destroys the NCCL ranks.
  ~NcclCommunicator() override;

  int64_t size() const override { return size_; }
  const std::vector<int64_t>& local_ranks() const override {
    return local_ranks_;
  }

  absl::StatusOr<std::vector<pjrtx::CollectiveResult>> Collective(
      const pjrtx::CollectiveRequest& request) override;

 private:
  struct Operation;
  struct Rank {
    int64_t rank = 0;
    int device = 0;  // Client device index, also the driver's GPU index.
    ncclComm_t comm = nullptr;
    // Its asynchronous error when the communicator was aborted, if any.
    // Guarded by comms_mu_.
    absl::Status async_error;
  };
  // A part of an operation: issued and not completed yet (in flight), or
  // failed and waiting for the abort (with its status).
  struct PartRef {
    std::shared_ptr<Operation> operation;
    size_t index = 0;
    absl::Status status;
  };

  NcclCommunicator(const NcclLibrary& nccl, GpuDriver& driver,
                   std::shared_ptr<pjrtx::ClientState> client, int64_t size,
                   int64_t timeout_ms);

  // Polls ranks created without blocking until every one has joined its
  // peers; an error, or DEADLINE_EXCEEDED after `timeout_ms`.
  static absl::Status AwaitJoined(const NcclApi& api,
                                  const std::vector<Rank>& ranks,
                                  int64_t timeout_ms);

  // Checks `request` and works out what the operation moves and how NCCL
  // reduces it; its buffers are not touched yet.
  absl::StatusOr<std::shared_ptr<Operation>> PlanOperation(
      const pjrtx::CollectiveRequest& request);
  // How NCCL reduces inputs of `type` with `reduce_op` (set in `op`), and
  // the layout the shared checks need; errors name `kind`.
  absl::StatusOr<pjrtx::collectives::ReductionLayout> NcclReduction(
      PJRTX_CollectiveKind kind, PJRTX_Buffer_Type type,
      PJRTX_ReduceOp reduce_op, Operation& op) const;
  // Takes the inputs for `op` (donated ones deleted, the others read until
  // the parts are done), allocates the outputs and gathers the
  // dependencies.
  absl::StatusOr<std::vector<pjrtx::CollectiveResult>> AcquireParts(
      const pjrtx::CollectiveRequest& request, Operation& op);
  // Enqueues one task per local rank on its device queue, in one order on
  // every queue.
  void Issue(const std::shared_ptr<Operation>& operation);
  // The body of local rank `index`'s task of `operation`, on its queue.
  void IssuePart(const std::shared_ptr<Operation>& operation, size_t index);
  // Where the local ranks of `operation` wait for each other before any
  // issues its NCCL calls: OK once all have arrived; otherwise (a rank
  // arrived with an error, in `status`, or the operation's timeout passed
  // first) the same error for every rank, and none issues.
  absl::Status Meet(Operation& operation, size_t index, absl::Status status);
  // Makes the rank's NCCL calls on `stream`, unless aborted, and counts
  // the part in flight.
  absl::Status CallNccl(const std::shared_ptr<Operation>& operation,
                        size_t index, CUstream stream);
  // The rank's GPU work completed with `device` (the stream's status).
  void Completed(const std::shared_ptr<Operation>& operation, size_t index,
                 absl::Status device);
  // Sets the rank's result event: the first error among the operation's
  // dependencies and `own`.
  void Finish(const std::shared_ptr<Operation>& operation, size_t index,
              absl::Status own);
  // Counts the bytes a ring would move for the rank's part.
  void CountTraffic(const Operation& operation, size_t index);

  // Has the watchdog abort the communicator (unless it is already) and
  // then set the part's result to `status`: a caller who saw a result fail
  // finds the communicator aborted.
  void AbortThenFinish(const std::shared_ptr<Operation>& operation,
                       size_t index, absl::Status status);
  // Aborts every NCCL rank and fails the parts in flight with `status`.
  void Abort(const absl::Status& status);
  // Polls for asynchronous errors and timeouts while parts are in flight.
  void Watch();
  // The first asynchronous error among the ranks, or OK.
  absl::Status PollAsyncErrors();

  const NcclApi& nccl_;
  bool fp8_reductions_ = false;  // Set by Create.
  GpuDriver& driver_;
  const std::shared_ptr<pjrtx::ClientState> client_;
  const int64_t size_;
  const int64_t timeout_ms_;
  std::vector<int64_t> local_ranks_;
  std::vector<Rank> ranks_;  // Per local rank.

  // NCCL calls on the ranks hold it shared; aborting (which frees the
  // ranks) holds it exclusively.
  std::shared_mutex comms_mu_;
  absl::Status aborted_;  // Guarded by comms_mu_.

  std::mutex mu_;
  std::condition_variable changed_;
  std::vector<PartRef> in_flight_;  // Guarded by mu_.
  std::vector<PartRef> failed_;     // Guarded by mu_.
  int64_t pending_parts_ = 0;       // Results not yet set. Guarded by mu_.
  bool stopping_ = false;           // Guarded by mu_.
  std::thread watchdog_;
};

}  // namespace cuda_plugin

#endif  // PJRTX_PLUGINS_CUDA_COLLECTIVES_NCCL_COMMUNICATOR_H_
