// The Transport between chips of one process (their ICI link): ranks are
// threads sharing an InProcessFabric; a message is copied straight into
// the receiver's buffer if it waits already, else left in its mailbox.
#ifndef PJRTX_RUNTIME_COLLECTIVES_IN_PROCESS_TRANSPORT_H_
#define PJRTX_RUNTIME_COLLECTIVES_IN_PROCESS_TRANSPORT_H_

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/types/span.h"
#include "runtime/collectives/transport.h"

namespace pjrtx::collectives {

// The mailboxes of `size` ranks. Thread-safe. Endpoints keep the fabric
// alive, so it may be dropped by its creator once they are handed out.
class InProcessFabric : public std::enable_shared_from_this<InProcessFabric> {
 public:
  // `size` must be at least 1.
  static std::shared_ptr<InProcessFabric> Create(int size);

  int size() const { return size_; }

  // The endpoint of `rank`, in 0..size()-1 (nullptr otherwise). Several
  // endpoints of one rank share its mailboxes but not their counters.
  std::unique_ptr<Transport> Endpoint(int rank);

  // Poisons the fabric, as a dead peer would: every blocked and every later
  // SendRecv returns `status` (the first one given wins). `status` must not
  // be OK.
  void Fail(absl::Status status);

  // For endpoints: one rank's exchange (Transport::SendRecv, `to` or
  // `from` -1 for none). The receive is posted before the send goes out
  // (unless the two buffers overlap), so a peer that sends to a rank
  // already waiting copies straight into its buffer; a message for a rank
  // that is not waiting yet is left in its mailbox (a copy), so
  // simultaneous exchanges never deadlock. `delivered` tells whether the
  // send went out, whatever became of the receive.
  absl::Status Exchange(int rank, int to, absl::Span<const uint8_t> send,
                        int from, absl::Span<uint8_t> recv, uint64_t tag,
                        Deadline deadline, bool* delivered);

 private:
  using MailboxKey = std::tuple<int, int, uint64_t>;

  // A receive waiting for its message, on the receiving thread's stack.
  struct PostedReceive {
    enum class State { kWaiting, kClaimed, kFilled, kWithdrawn };
    absl::Span<uint8_t> data;
    State state = State::kWaiting;   // Guarded by the fabric's mutex_.
    absl::Status status;             // Set with kFilled.
    std::condition_variable filled;  // Signalled at kFilled and at Fail.
  };

  explicit InProcessFabric(int size) : size_(size) {}

  // Leaves `data` for the receive (from, to, tag): copied into the oldest
  // posted one (outside the lock) or into the mailbox.
  absl::Status Deliver(int from, int to, uint64_t tag,
                       absl::Span<const uint8_t> data);
  // Receives into `recv`, running `meanwhile` (the send) once the receive
  // is posted, or taken from the mailbox.
  absl::Status Receive(int rank, int from, absl::Span<uint8_t> recv,
                       uint64_t tag, Deadline deadline,
                       absl::FunctionRef<absl::Status()> meanwhile);
  // Waits out a sender copying into `posted`, then withdraws it if it is
  // still waiting (returns true). Requires `lock` on mutex_.
  bool Settle(std::unique_lock<std::mutex>& lock, const MailboxKey& key,
              PostedReceive& posted);

  const int size_;
  std::mutex mutex_;
  absl::Status failure_;  // Guarded by mutex_; OK until Fail.
  // Messages sent before their receive was posted. Guarded by mutex_.
  std::map<MailboxKey, std::deque<std::vector<uint8_t>>> mailboxes_;
  // Receives posted before their message came, oldest first. Guarded by
  // mutex_.
  std::map<MailboxKey, std::deque<PostedReceive*>> posted_;
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_IN_PROCESS_TRANSPORT_H_
