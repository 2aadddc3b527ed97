// What the ranks of one collective operation must agree on, in a form that
// travels with its first message between two processes.
#ifndef PJRTX_RUNTIME_COLLECTIVES_OPERATION_HEADER_H_
#define PJRTX_RUNTIME_COLLECTIVES_OPERATION_HEADER_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::collectives {

// Ranks of one process are checked against each other before an operation
// is issued; ranks of different processes only meet on the wire. A
// transport between processes sends the header with the first message of
// an operation to each peer and compares it on arrival, so that ranks that
// disagree (a different shape, type, kind or order of operations) get an
// error naming both sides, without an extra round trip.
struct OperationHeader {
  uint32_t sequence = 0;  // The operation's number in its communicator.
  PJRTX_CollectiveKind kind = PJRTX_Collective_ALL_REDUCE;
  PJRTX_ReduceOp op = PJRTX_ReduceOp_SUM;  // Reductions only.
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  int64_t count = 0;  // Elements of each rank's input.
  int64_t root = 0;   // Broadcast only.

  static constexpr size_t kWireBytes = 40;
  using Wire = std::array<uint8_t, kWireBytes>;

  Wire Encode() const;
  // nullopt when `wire` is not an encoded header (e.g. a message that was
  // cut short).
  static std::optional<OperationHeader> Decode(absl::Span<const uint8_t> wire);

  // Fields that must match; `sequence` included.
  bool Matches(const OperationHeader& other) const;

  // E.g. "all-reduce (sum) of 1024 x f32, operation 7".
  std::string ToString() const;
};

// "all-reduce", "send/recv", ...
const char* CollectiveKindName(PJRTX_CollectiveKind kind);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_OPERATION_HEADER_H_
