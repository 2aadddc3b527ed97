#include "runtime/collectives/all_to_all.h"

#include <cstring>
#include <functional>

#include "absl/strings/str_cat.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {

absl::Status AllToAll(Transport& transport, absl::Span<const uint8_t> send,
                      absl::Span<uint8_t> recv, uint32_t communicator,
                      uint32_t sequence, Deadline deadline) {
  const int size = transport.size();
  const int rank = transport.rank();
  if (send.size() != recv.size() || send.size() % size != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "all-to-all send buffer of ", send.size(),
        " bytes and receive buffer of ", recv.size(),
        " bytes; expected equal sizes divisible by ", size, " ranks"));
  }
  if (send.empty()) return absl::OkStatus();
  // std::less gives a total order over unrelated pointers.
  std::less<const uint8_t*> before;
  if (before(send.data(), recv.data() + recv.size()) &&
      before(recv.data(), send.data() + send.size())) {
    return absl::InvalidArgumentError(
        "all-to-all send and receive buffers overlap; expected separate "
        "buffers");
  }
  const size_t block = send.size() / size;
  std::memcpy(recv.data() + rank * block, send.data() + rank * block, block);
  for (int step = 1; step < size; ++step) {
    const int to = (rank + step) % size;
    const int from = (rank - step + size) % size;
    PJRTX_RETURN_IF_ERROR(
        transport.SendRecv(to, send.subspan(to * block, block), from,
                           recv.subspan(from * block, block),
                           MakeTag(communicator, sequence, step), deadline));
  }
  return absl::OkStatus();
}

}  // namespace pjrtx::collectives
