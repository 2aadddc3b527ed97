#include "runtime/collectives/broadcast.h"

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

absl::Status Broadcast(Transport& transport, int root, absl::Span<uint8_t> data,
                       uint32_t communicator, uint32_t sequence,
                       Deadline deadline) {
  const int size = transport.size();
  if (root < 0 || root >= size) {
    return absl::InvalidArgumentError(absl::StrCat(
        "broadcast root ", root, " is out of range; expected 0..", size - 1));
  }
  // Ranks are renumbered so that the root is 0; rank v then receives from
  // v minus its lowest set bit and sends to v + 2^k for each 2^k below that
  // bit.
  auto real_rank = [&](int virtual_rank) {
    return (virtual_rank + root) % size;
  };
  const int virtual_rank = (transport.rank() - root + size) % size;
  const uint64_t tag = MakeTag(communicator, sequence, 0);
  int mask = 1;
  while (mask < size) {
    if ((virtual_rank & mask) != 0) {
      PJRTX_RETURN_IF_ERROR(
          transport.Recv(real_rank(virtual_rank - mask), data, tag, deadline));
      break;
    }
    mask *= 2;
  }
  for (mask /= 2; mask > 0; mask /= 2) {
    if (virtual_rank + mask < size) {
      PJRTX_RETURN_IF_ERROR(
          transport.Send(real_rank(virtual_rank + mask), data, tag, deadline));
    }
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
