#include "runtime/collectives/point_to_point.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "support/status_macros.h"

namespace pjrtx::collectives {
namespace {

// Checked here rather than left to the transport, because -1 means "no
// peer" to SendRecv and would silently turn a send into nothing.
absl::Status CheckPeer(const Transport& transport, absl::string_view role,
                       int peer) {
  if (peer < 0 || peer >= transport.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(role, " rank ", peer, " is out of range; expected 0..",
                     transport.size() - 1));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status SendTo(Transport& transport, int to,
                    absl::Span<const uint8_t> data, uint32_t communicator,
                    uint32_t sequence, Deadline deadline) {
  PJRTX_RETURN_IF_ERROR(CheckPeer(transport, "destination", to));
  return transport.Send(to, data, MakeTag(communicator, sequence, 0), deadline);
}

absl::Status RecvFrom(Transport& transport, int from, absl::Span<uint8_t> data,
                      uint32_t communicator, uint32_t sequence,
                      Deadline deadline) {
  PJRTX_RETURN_IF_ERROR(CheckPeer(transport, "source", from));
  return transport.Recv(from, data, MakeTag(communicator, sequence, 0),
                        deadline);
}

}  // namespace pjrtx::collectives
