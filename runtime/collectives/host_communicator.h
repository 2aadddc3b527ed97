// The communicator that runs collectives on host threads: over device
// memory itself where the host can address it (the TPU emulator's chips),
// else over copies the driver makes (GPUs whose ranks span processes), with
// ranks in other processes reached through a remote transport (UCX).
#ifndef PJRTX_RUNTIME_COLLECTIVES_HOST_COMMUNICATOR_H_
#define PJRTX_RUNTIME_COLLECTIVES_HOST_COMMUNICATOR_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/collectives/hierarchical.h"
#include "runtime/collectives/ordered_worker.h"
#include "runtime/collectives/routed_transport.h"
#include "runtime/collectives/transport.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/communicator.h"

namespace pjrtx::collectives {

// Thread-safe. Each local rank has an OrderedWorker; an operation's part on
// a rank runs there once every local input is defined and the wait events
// are ready, writes a fresh output buffer in the rank's device memory (the
// input's own memory when donated and the shapes allow it), and sets the
// rank's event. Bytes a rank sends to its peers are counted as
// device-to-device (ICI) transfers of its device.
//
// Local dependencies are joined: if any local rank's input or a wait event
// fails, every local rank's part fails with that error without sending
// anything, so no rank is left waiting for a peer that will never come.
//
// Across processes. Every process whose devices are ranks creates the
// communicator with the same device ids (creations over the same ids pair
// up in order, as operations do); their ranks meet through the client's
// key-value store. Links to ranks in other processes are remote transports
// (DCN), which cannot read device memory: data crossing them is staged
// through host memory pooled per rank, exactly one copy out of the device
// and one back per rank and operation (for the hierarchical all-reduce,
// only the rank's 1/c shard), counted as staging, device-to-host and
// host-to-device transfers; bytes sent and received over DCN are counted
// per device. Each operation's first message to a remote peer carries its
// header, so ranks that disagree on an operation are told so.
//
// Device memory the host cannot address (a GPU's) is staged the same way
// for every operation, through the driver's copies (Driver::CopyToHost and
// CopyFromHost, which go through its pinned staging pool): one copy of the
// input out of the device and one of the output back per rank and
// operation, whole buffers (the hierarchical all-reduce included).
class HostCommunicator : public Communicator {
 public:
  // Ranks are `device_ids` (global ids, each once, devices of `client`'s
  // topology). INVALID_ARGUMENT names an unknown or repeated id, or a list
  // without a device of this process; UNIMPLEMENTED when ranks are in
  // other processes and `make_remote` is null; FAILED_PRECONDITION when ranks
  // are in other processes and the client has no key-value store. `timeout_ms`
  // (> 0) is the operations' default timeout, and bounds the wait for the other
  // processes at creation.
  static absl::StatusOr<std::unique_ptr<Communicator>> Create(
      std::shared_ptr<ClientState> client, absl::Span<const int64_t> device_ids,
      int64_t timeout_ms, TransportFactory make_remote = nullptr);

  // Waits for the operations in flight.
  ~HostCommunicator() override;

  int64_t size() const override { return size_; }
  const std::vector<int64_t>& local_ranks() const override {
    return local_ranks_;
  }

  absl::StatusOr<std::vector<CollectiveResult>> Collective(
      const CollectiveRequest& request) override;

 private:
  struct Operation;
  struct Layout;
  class Staging;

  // One local rank: its device, its links to the other ranks, its thread.
  struct LocalRank {
    int64_t rank = 0;
    int device = 0;  // Index into the client's devices.
    std::unique_ptr<Transport> transport;
    // The links of a hierarchical all-reduce: the rank's slice, and the
    // chips at its position in every slice.
    std::unique_ptr<Transport> intra_slice;
    std::unique_ptr<Transport> inter_slice;
    // Null while every rank is in this process. Owned by `transport`.
    RoutedTransport* routed = nullptr;
    std::unique_ptr<Staging> staging;
    // What was already added to the device's counters: ICI bytes sent, and
    // the remote link's counters.
    TransportCounters counted;
    TransportCounters counted_remote;
    std::unique_ptr<OrderedWorker> worker;
  };

  HostCommunicator(std::shared_ptr<ClientState> client, const Layout& layout,
                   int64_t timeout_ms);

  // Turns the local ranks' links into routed ones over `remotes` (one per
  // local rank) and sets up the hierarchical all-reduce's sub-links.
  void ConnectRemote(
      const Layout& layout,
      std::vector<absl::StatusOr<std::unique_ptr<Transport>>>& remotes);

  // Checks `request` and works out what the operation moves; its buffers
  // are not touched yet.
  absl::StatusOr<std::shared_ptr<Operation>> PlanOperation(
      const CollectiveRequest& request);
  // Takes the inputs for the operation (donated ones deleted, the others
  // read until the parts are done), allocates the outputs and adds what
  // the parts must wait for to `dependencies`.
  absl::StatusOr<std::vector<CollectiveResult>> AcquireParts(
      const CollectiveRequest& request, Operation& operation,
      std::vector<EventRef>& dependencies);
  // Queues the parts on the local ranks' workers, in the same order on
  // every rank, to run once `dependencies` are ready.
  void Issue(const std::shared_ptr<Operation>& operation,
             std::vector<EventRef> dependencies);

  // Runs local rank `index`'s part of `operation` on its worker.
  absl::Status RunPart(const Operation& operation, size_t index);
  // The part across processes where the links copy the chip's memory
  // piece by piece as it travels (send/recv, the ring all-reduce); nullopt
  // where the operation is staged whole instead.
  std::optional<absl::Status> RunPiecewise(const Operation& operation,
                                           size_t index, uint8_t* device_in,
                                           uint8_t* device_out,
                                           Deadline deadline);
  // The collective algorithm of the part, from `in` to `out` (device or
  // host memory); `shard_staged`: the hierarchical all-reduce stages its
  // cross-slice shard itself.
  absl::Status RunAlgorithm(const Operation& operation, size_t index,
                            uint8_t* in, uint8_t* out, bool shard_staged,
                            Deadline deadline);
  // Local rank `index`'s part of a send/recv across processes: the
  // transport copies the chips' buffers into and out of its own host
  // buffers (Transport::SendRecvStaged), counted as `staging`'s copies.
  absl::Status StagedSendRecv(const Operation& operation, size_t index,
                              Staging& staging, uint8_t* device_in,
                              uint8_t* device_out, Deadline deadline);
  // Adds what local rank `local`'s links moved since the last call to its
  // device's counters.
  void CountTraffic(LocalRank& local);

  const std::shared_ptr<ClientState> client_;
  const int64_t size_;
  const int64_t timeout_ms_;
  // Whether the hierarchical all-reduce can run (equal slices), and with
  // its shard staged (every slice within one process).
  int num_slices_ = 1;
  bool equal_slices_ = true;
  bool multi_process_ = false;
  // Whether the host can address the local devices' memory (the TPU
  // emulator's chips); if not (GPUs), every operation is staged through
  // the driver's copies.
  bool device_memory_on_host_ = true;
  bool shard_staging_ = false;
  const uint32_t id_;  // Tags of different communicators never collide.
  std::vector<int64_t> local_ranks_;
  std::vector<LocalRank> local_;

  // Held while an operation is handed to the workers, so concurrent callers
  // queue operations in the same order on every rank.
  std::mutex issue_mu_;
  uint32_t next_sequence_ = 0;  // Guarded by issue_mu_.
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_HOST_COMMUNICATOR_H_
