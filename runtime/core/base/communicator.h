// What the C ABI needs of a communicator (PJRTX_Communicator): a group of
// devices running collectives together. Implemented outside the core (see
// runtime/collectives/host_communicator.h) and made by the plugin, so the
// core never depends on the collective algorithms.
#ifndef PJRTX_RUNTIME_CORE_BASE_COMMUNICATOR_H_
#define PJRTX_RUNTIME_CORE_BASE_COMMUNICATOR_H_

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/event.h"

namespace pjrtx {

// One collective, over this process's local ranks. Enum values were checked
// by the caller (the ABI layer); vectors indexed by local rank have one
// entry per local rank.
struct CollectiveRequest {
  PJRTX_CollectiveKind kind = PJRTX_Collective_ALL_REDUCE;
  PJRTX_ReduceOp op = PJRTX_ReduceOp_SUM;  // ALL_REDUCE, REDUCE_SCATTER.
  int64_t root = 0;                        // BROADCAST.
  std::vector<int64_t> send_to;            // SEND_RECV, per local rank.
  std::vector<int64_t> recv_from;          // SEND_RECV, per local rank.
  std::vector<Buffer*> inputs;             // Per local rank.
  std::vector<bool> donate;                // Per local rank, or empty.
  std::vector<EventRef> wait_for;
  PJRTX_CollectiveAlgorithm algorithm = PJRTX_CollectiveAlgorithm_AUTO;
  int64_t timeout_ms = 0;  // <= 0: the communicator's.
};

// A local rank's share of a collective.
struct CollectiveResult {
  // Defined by `done`; null for a SEND_RECV rank that receives nothing.
  std::unique_ptr<Buffer> output;
  // Ready when the rank's part has finished, with its status.
  EventRef done;
};

// Thread-safe. Destruction waits for the operations in flight.
class Communicator {
 public:
  virtual ~Communicator() = default;

  // Number of ranks (devices) of the communicator, in every process.
  virtual int64_t size() const = 0;

  // The ranks whose devices this process owns, ascending.
  virtual const std::vector<int64_t>& local_ranks() const = 0;

  // Issues one collective and returns at once, one result per local rank.
  // Errors found before anything is issued (shapes, types, devices) are
  // returned; errors while it runs reach the results' events.
  virtual absl::StatusOr<std::vector<CollectiveResult>> Collective(
      const CollectiveRequest& request) = 0;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_COMMUNICATOR_H_
