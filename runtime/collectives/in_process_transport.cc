#include "runtime/collectives/in_process_transport.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <utility>

#include "absl/cleanup/cleanup.h"
#include "absl/functional/function_ref.h"
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
    bool delivered = false;
    absl::Status status = fabric_->Exchange(rank_, to, send, from, recv, tag,
                                            deadline, &delivered);
    // A send that went out counts even if the receive then failed.
    if (delivered) {
      bytes_sent_ += static_cast<int64_t>(send.size());
      ++messages_sent_;
    }
    if (!status.ok()) return status;
    if (from != -1) {
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
  std::lock_guard<std::mutex> lock(mutex_);
  if (failure_.ok()) failure_ = std::move(status);
  // Under the lock: a receive's variable lives on its waiting thread's
  // stack, gone as soon as that thread sees the failure.
  for (auto& [key, receives] : posted_) {
    for (PostedReceive* posted : receives) posted->filled.notify_all();
  }
}

namespace {

absl::Status WrongSize(int from, int to, uint64_t tag, size_t got,
                       size_t expected) {
  return absl::InvalidArgumentError(absl::StrCat(
      "rank ", to, " received a message of ", got, " bytes from rank ", from,
      " with tag 0x", absl::Hex(tag), "; expected ", expected, " bytes"));
}

}  // namespace

absl::Status InProcessFabric::Deliver(int from, int to, uint64_t tag,
                                      absl::Span<const uint8_t> data) {
  std::unique_lock<std::mutex> lock(mutex_);
  if (!failure_.ok()) return failure_;
  const MailboxKey key(from, to, tag);
  auto it = posted_.find(key);
  if (it == posted_.end()) {
    mailboxes_[key].emplace_back(data.begin(), data.end());
    return absl::OkStatus();
  }
  PostedReceive* posted = it->second.front();
  // Everything that may fail comes before the claim: from the claim on the
  // receive waits for this thread, which must always fill it.
  absl::Status status;
  if (posted->data.size() != data.size()) {
    status = WrongSize(from, to, tag, data.size(), posted->data.size());
  }
  it->second.pop_front();
  if (it->second.empty()) posted_.erase(it);
  // Claimed, the receive waits for this copy whatever happens, so it can
  // run outside the lock, beside the other ranks' exchanges.
  posted->state = PostedReceive::State::kClaimed;
  lock.unlock();
  if (status.ok() && !data.empty()) {
    std::memcpy(posted->data.data(), data.data(), data.size());
  }
  lock.lock();
  posted->status = std::move(status);
  posted->state = PostedReceive::State::kFilled;
  // Under the lock, as in Fail.
  posted->filled.notify_all();
  return absl::OkStatus();
}

bool InProcessFabric::Settle(std::unique_lock<std::mutex>& lock,
                             const MailboxKey& key, PostedReceive& posted) {
  using State = PostedReceive::State;
  // A sender copying into the buffer is let finish: it is the caller's.
  posted.filled.wait(lock, [&] { return posted.state != State::kClaimed; });
  if (posted.state != State::kWaiting) return false;
  auto it = posted_.find(key);
  std::deque<PostedReceive*>& receives = it->second;
  receives.erase(std::find(receives.begin(), receives.end(), &posted));
  if (receives.empty()) posted_.erase(it);
  posted.state = State::kWithdrawn;
  return true;
}

absl::Status InProcessFabric::Receive(
    int rank, int from, absl::Span<uint8_t> recv, uint64_t tag,
    Deadline deadline, absl::FunctionRef<absl::Status()> meanwhile) {
  using State = PostedReceive::State;
  const MailboxKey key(from, rank, tag);
  PostedReceive posted;
  posted.data = recv;
  std::vector<uint8_t> early;  // A message that came before the receive.
  bool came_early = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.ok()) return failure_;
    auto it = mailboxes_.find(key);
    if (it != mailboxes_.end()) {
      early = std::move(it->second.front());
      it->second.pop_front();
      if (it->second.empty()) mailboxes_.erase(it);
      came_early = true;
    } else {
      posted_[key].push_back(&posted);
    }
  }
  if (came_early) {
    if (absl::Status status = meanwhile(); !status.ok()) return status;
    if (early.size() != recv.size()) {
      return WrongSize(from, rank, tag, early.size(), recv.size());
    }
    if (!early.empty()) std::memcpy(recv.data(), early.data(), recv.size());
    return absl::OkStatus();
  }
  std::unique_lock<std::mutex> lock(mutex_, std::defer_lock);
  // However this returns (an exception included), the receive leaves the
  // fabric before its variable leaves the stack.
  absl::Cleanup withdraw = [&] {
    if (!lock.owns_lock()) lock.lock();
    Settle(lock, key, posted);
  };
  const absl::Status sent = meanwhile();
  lock.lock();
  if (sent.ok()) {
    posted.filled.wait_until(lock, deadline, [&] {
      return posted.state == State::kFilled ||
             (posted.state == State::kWaiting && !failure_.ok());
    });
  }
  if (Settle(lock, key, posted)) {
    if (!sent.ok()) return sent;
    if (!failure_.ok()) return failure_;
    return absl::DeadlineExceededError(
        absl::StrCat("rank ", rank, " waited past its deadline for ",
                     recv.size(), " bytes from rank ", from, " with tag 0x",
                     absl::Hex(tag), "; the peer never sent them"));
  }
  if (!sent.ok()) return sent;
  return posted.status;
}

absl::Status InProcessFabric::Exchange(int rank, int to,
                                       absl::Span<const uint8_t> send, int from,
                                       absl::Span<uint8_t> recv, uint64_t tag,
                                       Deadline deadline, bool* delivered) {
  *delivered = false;
  auto deliver = [&] {
    absl::Status status = Deliver(rank, to, tag, send);
    *delivered = status.ok();
    return status;
  };
  auto nothing = [] { return absl::OkStatus(); };
  if (from == -1) return to == -1 ? absl::OkStatus() : deliver();
  // Buffers that overlap (an exchange in place) are read before anything
  // may land in them: the send goes out before the receive is posted.
  const bool send_first = to != -1 && !send.empty() && !recv.empty() &&
                          send.data() < recv.data() + recv.size() &&
                          recv.data() < send.data() + send.size();
  if (send_first) {
    if (absl::Status status = deliver(); !status.ok()) return status;
  }
  const bool send_meanwhile = to != -1 && !send_first;
  return send_meanwhile ? Receive(rank, from, recv, tag, deadline, deliver)
                        : Receive(rank, from, recv, tag, deadline, nothing);
}

}  // namespace pjrtx::collectives
