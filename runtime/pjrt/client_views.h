// The PJRT handles of a client's devices, memories and topology: views of
// the pjrtx client's, built once when the client is created and owned by
// it, as PJRT wants (the client owns its devices and memories).
#ifndef PJRTX_RUNTIME_PJRT_CLIENT_VIEWS_H_
#define PJRTX_RUNTIME_PJRT_CLIENT_VIEWS_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "runtime/pjrt/handles.h"

namespace pjrtx::pjrt {

// Fills `client`'s devices, memories and topology from `client.client`.
absl::Status BuildClientViews(PJRT_Client& client);

// The PJRT handle of a pjrtx device or memory of `client`; INTERNAL if it
// has none (a pjrtx object the client did not list).
absl::StatusOr<PJRT_Device*> DeviceOf(const PJRT_Client& client,
                                      const PJRTX_Device* device);
absl::StatusOr<PJRT_Memory*> MemoryOf(const PJRT_Client& client,
                                      const PJRTX_Memory* memory,
                                      const PJRTX_Device* device);

// The global device ids of `client`'s default assignment of
// `num_replicas` x `num_partitions` processes, replica-major: process
// (r, p) runs on addressable device p * num_replicas + r, as XLA's
// computation placer assigns them.
absl::StatusOr<std::vector<int64_t>> DefaultDeviceAssignment(
    const PJRT_Client& client, int num_replicas, int num_partitions);

// The global id of `device`.
int64_t GlobalId(const PJRT_Device& device);

}  // namespace pjrtx::pjrt

#endif  // PJRTX_RUNTIME_PJRT_CLIENT_VIEWS_H_
