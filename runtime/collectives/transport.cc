#include "runtime/collectives/transport.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace pjrtx::collectives {

void StagedMemory::ReduceFromHost(size_t offset, const uint8_t* /*host*/,
                                  size_t bytes, ReduceOp op,
                                  PJRTX_Buffer_Type /*type*/) {
  // A programming error, not bad input: silently skipping the reduction
  // would lose the incoming bytes.
  std::fprintf(stderr,
               "StagedMemory::ReduceFromHost(%zu, %zu bytes, %s) on a buffer "
               "that does not override it\n",
               offset, bytes, std::string(ReduceOpName(op)).c_str());
  std::abort();
}

absl::Status Transport::SendRecvStaged(int to, StagedMemory* send, int from,
                                       StagedMemory* recv, uint64_t tag,
                                       Deadline deadline) {
  const size_t send_bytes = to < 0 ? 0 : send->size();
  const size_t recv_bytes = from < 0 ? 0 : recv->size();
  uint8_t* send_data = send_bytes == 0 ? nullptr : send->host_data();
  uint8_t* recv_data = recv_bytes == 0 ? nullptr : recv->host_data();
  // Host memory for the sides that are not host memory already;
  // uninitialized: every byte is written before it is read.
  std::unique_ptr<uint8_t[]> host;
  const size_t host_bytes = (send_data == nullptr ? send_bytes : 0) +
                            (recv_data == nullptr ? recv_bytes : 0);
  if (host_bytes > 0) host.reset(new uint8_t[host_bytes]);
  uint8_t* next = host.get();
  if (send_data == nullptr && send_bytes > 0) {
    send_data = next;
    next += send_bytes;
    send->ToHost(0, send_data, send_bytes);
  }
  const bool copy_in = recv_data == nullptr && recv_bytes > 0;
  if (copy_in) recv_data = next;
  absl::Status status =
      SendRecv(to, absl::MakeConstSpan(send_data, send_bytes), from,
               absl::MakeSpan(recv_data, recv_bytes), tag, deadline);
  if (status.ok() && copy_in) recv->FromHost(0, recv_data, recv_bytes);
  return status;
}

}  // namespace pjrtx::collectives
