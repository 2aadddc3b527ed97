// The devices a communicator spans, from the global device ids its caller
// lists in rank order.
#ifndef PJRTX_RUNTIME_COLLECTIVES_DEVICE_IDS_H_
#define PJRTX_RUNTIME_COLLECTIVES_DEVICE_IDS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/core/base/client_state.h"

namespace pjrtx::collectives {

// The client's device index of each of `device_ids`, in the same order.
// INVALID_ARGUMENT naming the position and the id for an id that is not a
// device of the client, and for an id listed twice (a device is one rank).
absl::StatusOr<std::vector<int>> ResolveDeviceIds(
    const ClientState& client, absl::Span<const int64_t> device_ids);

// The slice a device belongs to: its `slice_index` attribute, else its
// process (where a plugin has no slices, each process is one).
int64_t SliceOf(const DeviceSpec& spec);

// Where the processes of a communicator meet in the key-value store: the
// same string in every process for the same ids, and a different one for
// each creation over them in this process, so that creations (made in the
// same order everywhere) pair up in order.
std::string CommunicatorKey(absl::Span<const int64_t> device_ids);

}  // namespace pjrtx::collectives

#endif  // PJRTX_RUNTIME_COLLECTIVES_DEVICE_IDS_H_
