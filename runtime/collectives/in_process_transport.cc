#include "runtime/collectives/in_process_transport.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"

namespace pjrtx::collectives {
namespace {

class InProcessEndpoint : public Transport {
 public:
  InProcessEndpoint(std::shared_ptr<InProcessFabric> fabric, int rank)
      : fabric_(std::move(fabric)), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return fabric_->size(); }

  absl::Status SendRecv(int to, absl::Span<const uint8_t> send, int from,
                        absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline) override {
    for (int peer : {to, from}) {
      if (peer < -1 || peer >= size()) {
        return absl::InvalidArgumentError(
            absl::StrCat("peer rank ", peer, " of rank ", rank_,
                         " is out of range; expected -1 or 0..", size() - 1));
      }
    }
    // The send is buffered, so it completes before the receive is waited
    // for; that is what makes simultaneous exchanges deadlock-free.
    if (to != -1) {
      absl::Status status = fabric_->Deposit(rank_, to, tag, send);
      if (!status.ok()) return status;
      bytes_sent_ += static_cast<int64_t>(send.size());
      ++messages_sent_;
    }
    if (from != -1) {
      absl::Status status = fabric_->Take(from, rank_, tag, recv, deadline);
      if (!status.ok()) return status;
      bytes_received_ += static_cast<int64_t>(recv.size());
      ++messages_received_;
    }
    return absl::OkStatus();
  }

  TransportCounters counters() const override {
    TransportCounters counters;
    counters.bytes_sent = bytes_sent_.load();
    counters.messages_sent = messages_sent_.load();
    counters.bytes_received = bytes_received_.load();
    counters.messages_received = messages_received_.load();
    return counters;
  }

 private:
  const std::shared_ptr<InProcessFabric> fabric_;
  const int rank_;
  // Atomic because tests read them from another thread than the one using
  // the endpoint.
  std::atomic<int64_t> bytes_sent_{0};
  std::atomic<int64_t> messages_sent_{0};
  std::atomic<int64_t> bytes_received_{0};
  std::atomic<int64_t> messages_received_{0};
};

}  // namespace

std::shared_ptr<InProcessFabric> InProcessFabric::Create(int size) {
  return std::shared_ptr<InProcessFabric>(
      new InProcessFabric(std::max(size, 1)));
}

std::unique_ptr<Transport> InProcessFabric::Endpoint(int rank) {
  if (rank < 0 || rank >= size_) return nullptr;
  return std::make_unique<InProcessEndpoint>(shared_from_this(), rank);
}

void InProcessFabric::Fail(absl::Status status) {
  if (status.ok()) {
    status = absl::InternalError("InProcessFabric::Fail was given OK");
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (failure_.ok()) failure_ = std::move(status);
  }
  arrived_.notify_all();
}

absl::Status InProcessFabric::Deposit(int from, int to, uint64_t tag,
                                      absl::Span<const uint8_t> data) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) return failure_;
    mailboxes_[MailboxKey(from, to, tag)].emplace_back(data.begin(),
                                                       data.end());
  }
  arrived_.notify_all();
  return absl::OkStatus();
}

absl::Status InProcessFabric::Take(int from, int to, uint64_t tag,
                                   absl::Span<uint8_t> data,
                                   Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  const MailboxKey key(from, to, tag);
  auto ready = [&] {
    if (!failure_.ok()) return true;
    auto it = mailboxes_.find(key);
    return it != mailboxes_.end() && !it->second.empty();
  };
  if (!arrived_.wait_until(lock, deadline, ready)) {
    return absl::DeadlineExceededError(
        absl::StrCat("rank ", to, " waited past its deadline for ", data.size(),
                     " bytes from rank ", from, " with tag 0x", absl::Hex(tag),
                     "; the peer never sent them"));
  }
  if (!failure_.ok()) return failure_;
  auto it = mailboxes_.find(key);
  std::vector<uint8_t> message = std::move(it->second.front());
  it->second.pop_front();
  if (it->second.empty()) mailboxes_.erase(it);
  if (message.size() != data.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat("rank ", to, " received a message of ", message.size(),
                     " bytes from rank ", from, " with tag 0x", absl::Hex(tag),
                     "; expected ", data.size(), " bytes"));
  }
  if (!message.empty()) std::memcpy(data.data(), message.data(), data.size());
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
