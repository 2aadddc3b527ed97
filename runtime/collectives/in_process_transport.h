// The Transport between chips of one process (their ICI link): ranks are
// threads sharing an InProcessFabric, and a message is a copy left in the
// receiver's mailbox.
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

  // For endpoints: leaves a copy of `data` in the mailbox (from, to, tag),
  // behind whatever is already there.
  absl::Status Deposit(int from, int to, uint64_t tag,
                       absl::Span<const uint8_t> data);

  // For endpoints: waits until the mailbox (from, to, tag) holds a message
  // and moves the oldest one into `data`, which must be exactly its size.
  absl::Status Take(int from, int to, uint64_t tag, absl::Span<uint8_t> data,
                    Deadline deadline);

 private:
  explicit InProcessFabric(int size) : size_(size) {}

  using MailboxKey = std::tuple<int, int, uint64_t>;

  const int size_;
  std::mutex mutex_;
  // One variable for all mailboxes: waiters are few (one per rank) and a
  // spurious wake-up costs only a map lookup.
  std::condition_variable arrived_;
  absl::Status failure_;  // Guarded by mutex_; OK until Fail.
  std::map<MailboxKey, std::deque<std::vector<uint8_t>>> mailboxes_;
};

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_IN_PROCESS_TRANSPORT_H_
