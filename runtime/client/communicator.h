// A group of devices running collectives, owned by the framework.
#ifndef PJRTX_RUNTIME_CLIENT_COMMUNICATOR_H_
#define PJRTX_RUNTIME_CLIENT_COMMUNICATOR_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/client/buffer.h"
#include "runtime/client/client.h"
#include "runtime/client/event_future.h"

namespace pjrtx::client {

// Options every collective takes. At namespace scope because a nested
// struct with member initializers cannot be a default argument of its
// enclosing class's methods.
struct CollectiveOptions {
  std::vector<bool> donate;  // Per local rank; empty: none.
  PJRTX_CollectiveAlgorithm algorithm = PJRTX_CollectiveAlgorithm_AUTO;
  int64_t timeout_ms = 0;  // <= 0: the communicator's.
};

// Owns a PJRTX_Communicator; move-only. Destruction waits for the
// operations in flight. Every method takes one buffer per local rank (in
// local_ranks() order), never blocks, and returns one output and one event
// per local rank.
class Communicator {
 public:
  using Options = CollectiveOptions;

  // Over `device_ids` (global ids; rank r is device_ids[r]); every process
  // owning one of them must call it with the same list. `timeout_ms` <= 0:
  // the plugin's default.
  static absl::StatusOr<Communicator> Create(
      const Client& client, const std::vector<int64_t>& device_ids,
      int64_t timeout_ms = 0);

  Communicator(Communicator&& other) noexcept;
  Communicator& operator=(Communicator&& other) noexcept;
  ~Communicator();

  // Ranks whose devices this process owns, ascending.
  const std::vector<int64_t>& local_ranks() const { return local_ranks_; }

  struct Result {
    std::vector<Buffer> outputs;  // Empty Buffer where nothing is received.
    std::vector<EventFuture> done;
  };
  absl::StatusOr<Result> AllReduce(const std::vector<const Buffer*>& inputs,
                                   PJRTX_ReduceOp op,
                                   const Options& options = {}) const;
  absl::StatusOr<Result> ReduceScatter(const std::vector<const Buffer*>& inputs,
                                       PJRTX_ReduceOp op,
                                       const Options& options = {}) const;
  absl::StatusOr<Result> AllGather(const std::vector<const Buffer*>& inputs,
                                   const Options& options = {}) const;
  absl::StatusOr<Result> Broadcast(const std::vector<const Buffer*>& inputs,
                                   int64_t root,
                                   const Options& options = {}) const;
  absl::StatusOr<Result> AllToAll(const std::vector<const Buffer*>& inputs,
                                  const Options& options = {}) const;
  // Local rank i sends to rank send_to[i] and receives from recv_from[i]
  // (-1: none).
  absl::StatusOr<Result> SendRecv(const std::vector<const Buffer*>& inputs,
                                  const std::vector<int64_t>& send_to,
                                  const std::vector<int64_t>& recv_from,
                                  const Options& options = {}) const;

  PJRTX_Communicator* handle() const { return handle_; }

 private:
  Communicator(const PJRTX_Api* api, PJRTX_Communicator* handle,
               std::vector<int64_t> local_ranks)
      : api_(api), handle_(handle), local_ranks_(std::move(local_ranks)) {}

  // One Communicator_Collective call; `args` has the kind-specific fields.
  absl::StatusOr<Result> Run(PJRTX_Communicator_Collective_Args& args,
                             const std::vector<const Buffer*>& inputs,
                             const Options& options) const;

  const PJRTX_Api* api_ = nullptr;
  PJRTX_Communicator* handle_ = nullptr;
  std::vector<int64_t> local_ranks_;
};

}  // namespace pjrtx::client

#endif  // PJRTX_RUNTIME_CLIENT_COMMUNICATOR_H_
