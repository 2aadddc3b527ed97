// The checks every communicator makes of a collective request before it
// issues anything, and the sizes they yield, written once: the host
// communicator and the NCCL one differ only where their hardware does.
#ifndef PJRTX_RUNTIME_COLLECTIVES_COLLECTIVE_REQUEST_H_
#define PJRTX_RUNTIME_COLLECTIVES_COLLECTIVE_REQUEST_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/collectives/reduction.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/communicator.h"

namespace pjrtx::collectives {

// A SEND_RECV message between two local ranks whose other side names a
// third rank: local rank `index` (rank `rank`) sends to (`sends`) or
// receives from local rank `peer_index` (rank `peer_rank`), whose
// recv_from (send_to) is `peer_names` instead of `rank`.
struct UnmatchedMessage {
  bool sends = true;
  size_t index = 0;
  int64_t rank = 0;
  size_t peer_index = 0;
  int64_t peer_rank = 0;
  int64_t peer_names = 0;
};

// What a communicator is, for the checks, and where it adds its own.
struct CollectiveRequestChecks {
  const ClientState* client = nullptr;
  int64_t size = 0;                       // Ranks in every process.
  absl::Span<const int64_t> local_ranks;  // Ranks of this process.
  absl::Span<const int> local_devices;    // Client device per local rank.
  // Checks inputs[index] beyond what every communicator checks; runs right
  // after its device is (e.g. NCCL needs device memory). Null: nothing.
  std::function<absl::Status(size_t index, const Buffer& input)> check_input;
  // How the inputs' `type` reduces with `op` (ALL_REDUCE, REDUCE_SCATTER):
  // what the communicator can reduce; its error is the request's.
  std::function<absl::StatusOr<ReductionLayout>(PJRTX_Buffer_Type type,
                                                PJRTX_ReduceOp op)>
      reduction;
  // The error for an unmatched message between local ranks, in the
  // communicator's words.
  std::function<absl::Status(const UnmatchedMessage&)> unmatched;
};

// What a checked request moves, per local rank.
struct CheckedCollective {
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;  // Every input's.
  std::vector<int64_t> output_dims;                // Every output's.
  // ALL_REDUCE, REDUCE_SCATTER: how the inputs reduce (as `reduction`
  // said); otherwise the inputs' own element size, one value per element.
  ReductionLayout reduction;
  size_t input_count = 0;   // Elements of each input.
  size_t reduce_count = 0;  // Values a reduction combines per input.
  size_t input_bytes = 0;
  size_t output_bytes = 0;
};

// Checks `request` in this order, the first failure being the error: one
// input per local rank; each on its local rank's device (then
// `check_input`), all of the first one's type and shape; the element type
// (`reduction` for reducing kinds, else one supported in ABI 0.1); the
// output shape (CollectiveOutputDims); for SEND_RECV, that a message
// between local ranks names each side on the other (`unmatched`).
absl::StatusOr<CheckedCollective> CheckCollectiveRequest(
    const CollectiveRequest& request, const CollectiveRequestChecks& checks);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_COLLECTIVE_REQUEST_H_
