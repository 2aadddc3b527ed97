#include "runtime/collectives/routed_transport.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

RoutedTransport::RoutedTransport(std::vector<bool> in_this_process,
                                 std::unique_ptr<Transport> local,
                                 std::unique_ptr<Transport> remote)
    : in_this_process_(std::move(in_this_process)),
      local_(std::move(local)),
      remote_(std::move(remote)) {}

absl::Status RoutedTransport::SendRecv(int to, absl::Span<const uint8_t> send,
                                       int from, absl::Span<uint8_t> recv,
                                       uint64_t tag, Deadline deadline) {
  for (int peer : {to, from}) {
    if (peer < -1 || peer >= size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("peer rank ", peer, " is outside 0..", size() - 1,
                       " (or -1 for none) on rank ", rank()));
    }
  }
  const bool local_to = IsLocal(to);
  const bool local_from = IsLocal(from);
  const bool remote_to = to >= 0 && !local_to;
  const bool remote_from = from >= 0 && !local_from;
  if (!remote_to && !remote_from) {
    return local_->SendRecv(to, send, from, recv, tag, deadline);
  }
  if (!local_to && !local_from) {
    return remote_->SendRecv(to, send, from, recv, tag, deadline);
  }
  // One peer of each kind.
  if (local_to) {
    PJRTX_RETURN_IF_ERROR(local_->Send(to, send, tag, deadline));
    return remote_->Recv(from, recv, tag, deadline);
  }
  PJRTX_RETURN_IF_ERROR(remote_->Send(to, send, tag, deadline));
  return local_->Recv(from, recv, tag, deadline);
}

absl::Status RoutedTransport::SendRecvStaged(int to, StagedMemory* send,
                                             int from, StagedMemory* recv,
                                             uint64_t tag, Deadline deadline) {
  const bool in_range = to >= -1 && to < size() && from >= -1 && from < size();
  if (in_range && !IsLocal(to) && !IsLocal(from)) {
    return remote_->SendRecvStaged(to, send, from, recv, tag, deadline);
  }
  return Transport::SendRecvStaged(to, send, from, recv, tag, deadline);
}

TransportCounters RoutedTransport::counters() const {
  TransportCounters total = local_->counters();
  const TransportCounters remote = remote_->counters();
  total.bytes_sent += remote.bytes_sent;
  total.messages_sent += remote.messages_sent;
  total.bytes_received += remote.bytes_received;
  total.messages_received += remote.messages_received;
  return total;
}

SubsetTransport::SubsetTransport(Transport& base, std::vector<int> ranks)
    : base_(base), ranks_(std::move(ranks)) {
  for (size_t i = 0; i < ranks_.size(); ++i) {
    if (ranks_[i] == base_.rank()) rank_ = static_cast<int>(i);
  }
}

absl::Status SubsetTransport::SendRecv(int to, absl::Span<const uint8_t> send,
                                       int from, absl::Span<uint8_t> recv,
                                       uint64_t tag, Deadline deadline) {
  for (int peer : {to, from}) {
    if (peer < -1 || peer >= size()) {
      return absl::InvalidArgumentError(absl::StrCat(
          "peer rank ", peer, " is outside 0..", size() - 1,
          " (or -1 for none) of a sub-communicator on rank ", rank_));
    }
  }
  return base_.SendRecv(to < 0 ? -1 : ranks_[to], send,
                        from < 0 ? -1 : ranks_[from], recv, tag, deadline);
}

absl::Status SubsetTransport::SendRecvStaged(int to, StagedMemory* send,
                                             int from, StagedMemory* recv,
                                             uint64_t tag, Deadline deadline) {
  if (to < -1 || to >= size() || from < -1 || from >= size()) {
    // SendRecv names the bad peer.
    return Transport::SendRecvStaged(to, send, from, recv, tag, deadline);
  }
  return base_.SendRecvStaged(to < 0 ? -1 : ranks_[to], send,
                              from < 0 ? -1 : ranks_[from], recv, tag,
                              deadline);
}

}  // namespace pjrtx::collectives
