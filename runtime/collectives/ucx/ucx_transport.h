// The DCN transport: point-to-point links between the processes of a
// communicator over UCX tag messages (tcp by default).
#ifndef PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_H_
#define PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_H_

#include <ucp/api/ucp.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "runtime/collectives/operation_header.h"
#include "runtime/collectives/transport.h"
#include "runtime/collectives/ucx/ucx_context.h"
#include "runtime/core/base/key_value_store.h"

namespace pjrtx::collectives {

// The UCP tag of a message: the caller's tag (see MakeTag) with its
// communicator field replaced by the receiving transport's tag space (see
// UcxContext::AllocateTagSpace) and the sender's rank packed in, because
// UCP matches receives per worker, not per endpoint, so a receive must tell
// transports and senders apart by tag. High to low:
//   receiver's tag space (16 bits)
//   sender rank          (16 bits; hence at most 65536 ranks)
//   sequence             (low 8 of the given 24 bits)
//   step                 (24 bits, as given; see kHeaderStepBit)
// Dropping the sequence's high bits cannot mismatch: two messages whose
// tags then coincide come from the same sender over the same endpoint,
// where UCP keeps send order, and ranks issue operations in the same order,
// so the oldest one is the one the receiver wants. The 8 bits left are
// kept as a check against ranks that disagree on the operation order.
constexpr uint64_t UcxTagFor(uint16_t receiver_space, uint64_t tag,
                             int sender) {
  return (uint64_t{receiver_space} << 48) |
         (uint64_t{static_cast<uint32_t>(sender) & 0xffff} << 32) |
         (tag & 0x00000000ffffffffull);
}

// One rank of a multi-process communicator. Create publishes this process's
// worker address and the transport's tag space under
// "<communicator_key>/addr/<rank>" in the key-value store, reads every
// peer's and opens an endpoint to each (in peer error-handling mode, so
// that a dead peer fails requests instead of stalling them).
//
// After BeginOperation, the first message of the operation to each peer
// carries the operation's header in front of its data, and the first from
// each peer is checked against this rank's: ranks that disagree fail with
// INVALID_ARGUMENT naming both operations.
//
// An endpoint whose peer fails, or whose send misses its deadline, is closed
// in force mode, and later traffic to or from that rank fails at once with
// UNAVAILABLE; nothing ever waits on a dead peer beyond the deadline.
//
// As the Transport contract says, one thread at a time calls SendRecv;
// counters() may be read from any thread. Several transports (communicators)
// may share one UcxContext; they must then use distinct communicator ids in
// their tags.
class UcxTransport : public Transport {
 public:
  struct Options {
    // The process's UCX context; a new one is created from
    // `context_options` when null.
    std::shared_ptr<UcxContext> context;
    UcxContext::Options context_options;
    // How long Create waits for every peer to publish its address.
    int64_t connect_timeout_ms = 30000;
    // How long the destructor lets outstanding sends drain (flush) before
    // closing endpoints by force.
    int64_t flush_timeout_ms = 2000;
  };

  // INVALID_ARGUMENT for a size outside 1..65536 or a rank outside
  // 0..size-1; DEADLINE_EXCEEDED naming the rank whose address did not
  // arrive; UNAVAILABLE when UCX fails (naming the peer for endpoints).
  static absl::StatusOr<std::unique_ptr<UcxTransport>> Create(
      KeyValueStore& store, absl::string_view communicator_key, int rank,
      int size, Options options);

  // Flushes what was sent (bounded by flush_timeout_ms), closes every
  // endpoint, and returns even when peers are dead.
  ~UcxTransport() override;
  UcxTransport(const UcxTransport&) = delete;
  UcxTransport& operator=(const UcxTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }

  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override;
  // Copies straight between the buffers and UCX's own (its generic
  // datatype): one copy per byte and side, where staging through a host
  // buffer of the caller's adds one.
  absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                              StagedMemory* recv, uint64_t tag,
                              Deadline deadline) override;

  void BeginOperation(const OperationHeader& header) override;

  TransportCounters counters() const override;

 private:
  struct Peer;
  struct Exchange;

  UcxTransport(std::shared_ptr<UcxContext> context, uint16_t space, int rank,
               int size, int64_t flush_timeout_ms);

  // Checks the peers, then issues `exchange` (its spans or staged messages
  // set) and waits for it; SendRecv's contract.
  absl::Status Run(int to, int from, uint64_t tag, Deadline deadline,
                   std::shared_ptr<Exchange> exchange);

  // Driving thread only. Opens endpoints to every rank.
  absl::Status Connect(ucp_worker_h worker,
                       const std::vector<std::string>& addresses);
  // Driving thread only. Issues both halves of `exchange`.
  void Start(ucp_worker_h worker, const std::shared_ptr<Exchange>& exchange);
  // Driving thread only. Marks `peer` failed with `reason`, cancels a
  // pending receive from it and force-closes its endpoint.
  void FailPeer(ucp_worker_h worker, Peer& peer, absl::Status reason);
  // Driving thread only. Called when the current exchange's deadline
  // passed: cancels its receive and force-closes the endpoint its send is
  // queued on (a send cannot be cancelled, and the caller's buffer must be
  // free when SendRecv returns).
  void Abandon(ucp_worker_h worker, const std::shared_ptr<Exchange>& exchange);

  // Driving thread only. Record a finished half of an exchange and wake
  // its caller; `length` is the size of the message that arrived.
  void FinishSend(Exchange& exchange, ucs_status_t status);
  void FinishRecv(Exchange& exchange, ucs_status_t status, size_t length);

  // UCP callbacks, run on the driving thread within ucp_worker_progress.
  static void OnEndpointError(void* arg, ucp_ep_h endpoint,
                              ucs_status_t status);
  static void OnSendDone(void* request, ucs_status_t status, void* user_data);
  static void OnRecvDone(void* request, ucs_status_t status,
                         const ucp_tag_recv_info_t* info, void* user_data);

  const std::shared_ptr<UcxContext> context_;
  const uint16_t space_;  // This transport's receives; see UcxTagFor.
  // UCX's generic datatype of SendRecvStaged messages.
  ucp_datatype_t staged_type_ = 0;
  const int rank_;
  const int size_;
  const int64_t flush_timeout_ms_;
  // One per rank, this one's included. Touched only on the progress thread
  // once Create has returned.
  std::vector<std::unique_ptr<Peer>> peers_;
  // The exchange in flight, so that a peer failure can cancel its receive.
  // Driving thread only.
  std::shared_ptr<Exchange> current_;
  // Force-close requests of failed endpoints, freed at destruction.
  // Driving thread only.
  std::vector<void*> closing_;
  // Set by the destructor's teardown. Driving thread only.
  bool destroying_ = false;

  // The operation under way (BeginOperation); caller thread only.
  std::optional<OperationHeader> operation_;

  std::atomic<int64_t> bytes_sent_{0};
  std::atomic<int64_t> messages_sent_{0};
  std::atomic<int64_t> bytes_received_{0};
  std::atomic<int64_t> messages_received_{0};
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_UCX_UCX_TRANSPORT_H_
