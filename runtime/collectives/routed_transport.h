// One rank's links when a communicator spans processes: peers in the same
// process over the in-process fabric (ICI), peers in other processes over
// the remote transport (DCN).
#ifndef PJRTX_RUNTIME_COLLECTIVES_ROUTED_TRANSPORT_H_
#define PJRTX_RUNTIME_COLLECTIVES_ROUTED_TRANSPORT_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// Ranks are the communicator's; `local` and `remote` are endpoints of this
// rank over the same rank numbering (a fabric or transport of the
// communicator's size, of which only the peers of their kind are used).
// SendRecv with one peer of each kind deposits a local send first (which
// never blocks), then runs the remote half, then takes the local receive,
// so a ring or butterfly crossing process boundaries stays deadlock-free.
class RoutedTransport : public Transport {
 public:
  // `in_this_process[r]` says whether rank r lives in this process.
  RoutedTransport(std::vector<bool> in_this_process,
                  std::unique_ptr<Transport> local,
                  std::unique_ptr<Transport> remote);

  int rank() const override { return local_->rank(); }
  int size() const override {
    return static_cast<int>(in_this_process_.size());
  }

  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override;
  // Goes to the remote transport's own when both peers are in other
  // processes (or -1); stages through host memory otherwise.
  absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                              StagedMemory* recv, uint64_t tag,
                              Deadline deadline) override;

  // Both links together.
  TransportCounters counters() const override;
  // What crossed to and from other processes (DCN).
  TransportCounters remote_counters() const { return remote_->counters(); }

  void BeginOperation(const OperationHeader& header) override {
    remote_->BeginOperation(header);
  }

 private:
  bool IsLocal(int peer) const { return peer >= 0 && in_this_process_[peer]; }

  const std::vector<bool> in_this_process_;
  const std::unique_ptr<Transport> local_;
  const std::unique_ptr<Transport> remote_;
};

// A sub-communicator's view of a transport: rank i of the subset is rank
// `ranks[i]` of `base`, whose own rank must be among them. Tags are the
// base's, so subsets used at the same time must not share a pair of ranks
// and a tag (the phases of a hierarchical all-reduce never do: they link
// chips of one slice, or chips of different slices).
class SubsetTransport : public Transport {
 public:
  SubsetTransport(Transport& base, std::vector<int> ranks);

  int rank() const override { return rank_; }
  int size() const override { return static_cast<int>(ranks_.size()); }

  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override;
  absl::Status SendRecvStaged(int to, StagedMemory* send, int from,
                              StagedMemory* recv, uint64_t tag,
                              Deadline deadline) override;

  TransportCounters counters() const override { return base_.counters(); }
  void BeginOperation(const OperationHeader& header) override {
    base_.BeginOperation(header);
  }

 private:
  Transport& base_;
  const std::vector<int> ranks_;
  int rank_ = -1;
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_ROUTED_TRANSPORT_H_
