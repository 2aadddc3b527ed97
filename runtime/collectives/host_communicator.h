// The communicator of drivers whose device memory is host addressable (the
// TPU emulator): collectives run on host threads straight over device
// memory.
#ifndef PJRTX_RUNTIME_COLLECTIVES_HOST_COMMUNICATOR_H_
#define PJRTX_RUNTIME_COLLECTIVES_HOST_COMMUNICATOR_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/collectives/ordered_worker.h"
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
class HostCommunicator : public Communicator {
 public:
  // Ranks are `device_ids` (global ids, each once, devices of `client`).
  // INVALID_ARGUMENT names an unknown or repeated id; UNIMPLEMENTED when a
  // device belongs to another process or its memory is not host
  // addressable. `timeout_ms` (> 0) is the operations' default timeout.
  static absl::StatusOr<std::unique_ptr<Communicator>> Create(
      std::shared_ptr<ClientState> client, absl::Span<const int64_t> device_ids,
      int64_t timeout_ms);

  // Waits for the operations in flight.
  ~HostCommunicator() override;

  int64_t size() const override {
    return static_cast<int64_t>(devices_.size());
  }
  const std::vector<int64_t>& local_ranks() const override {
    return local_ranks_;
  }

  absl::StatusOr<std::vector<CollectiveResult>> Collective(
      const CollectiveRequest& request) override;

 private:
  struct Operation;

  // One local rank: its device, its links to the other ranks, its thread.
  struct LocalRank {
    int64_t rank = 0;
    int device = 0;  // Index into the client's devices.
    std::unique_ptr<Transport> transport;
    // The single-rank cross-slice link a hierarchical all-reduce uses
    // while every rank is in one slice.
    std::unique_ptr<Transport> inter_slice;
    int64_t bytes_counted = 0;  // transport's bytes_sent already counted.
    std::unique_ptr<OrderedWorker> worker;
  };

  HostCommunicator(std::shared_ptr<ClientState> client,
                   std::vector<int> devices, int64_t timeout_ms);

  // Runs local rank `index`'s part of `operation` on its worker.
  absl::Status RunPart(const Operation& operation, size_t index);

  const std::shared_ptr<ClientState> client_;
  const std::vector<int> devices_;  // Client device index of every rank.
  const int64_t timeout_ms_;
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
