#include "runtime/collectives/transport.h"

#include <memory>

namespace pjrtx::collectives {

absl::Status Transport::SendRecvStaged(int to, StagedMemory* send, int from,
                                       StagedMemory* recv, uint64_t tag,
                                       Deadline deadline) {
  const size_t send_bytes = to < 0 ? 0 : send->size();
  const size_t recv_bytes = from < 0 ? 0 : recv->size();
  // Uninitialized: every byte is written before it is read.
  std::unique_ptr<uint8_t[]> host(new uint8_t[send_bytes + recv_bytes]);
  if (send_bytes > 0) send->ToHost(0, host.get(), send_bytes);
  absl::Status status = SendRecv(
      to, absl::MakeConstSpan(host.get(), send_bytes), from,
      absl::MakeSpan(host.get() + send_bytes, recv_bytes), tag, deadline);
  if (status.ok() && recv_bytes > 0) {
    recv->FromHost(0, host.get() + send_bytes, recv_bytes);
  }
  return status;
}

}  // namespace pjrtx::collectives
