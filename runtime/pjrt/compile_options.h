// The parts of OpenXLA's compile options that the PJRT front door uses, read
// from and written to protobuf's wire format without a protobuf library.
//
// PJRT_Client_Compile receives a serialized xla.CompileOptionsProto
// (openxla/xla: xla/pjrt/proto/compile_options.proto): of it the front door
// needs the replica and partition counts, the device assignment and whether
// the executable is portable. PJRT_LoadedExecutable_GetDeviceAssignment
// returns a serialized xla.DeviceAssignmentProto (xla/xla_data.proto).
//
// The reader is bounded: it never reads past its input, allocates at most in
// proportion to it, and rejects malformed input (a length beyond the input,
// a varint over 10 bytes, nesting past a small limit, counts that disagree)
// with INVALID_ARGUMENT naming the field and the bad value. Fields it does
// not know, of every wire type, are skipped, as protobuf does.
#ifndef PJRTX_RUNTIME_PJRT_COMPILE_OPTIONS_H_
#define PJRTX_RUNTIME_PJRT_COMPILE_OPTIONS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"

namespace pjrtx::pjrt {

// Which device runs each replica of each computation (partition) of an
// executable.
struct DeviceAssignment {
  int replica_count = 0;
  int computation_count = 0;
  // Global device ids, row-major: replica r of computation c is at
  // r * computation_count + c. Holds replica_count * computation_count ids.
  std::vector<int64_t> device_ids;

  int64_t device_id(int replica, int computation) const {
    return device_ids[static_cast<size_t>(replica) * computation_count +
                      computation];
  }
  friend bool operator==(const DeviceAssignment&,
                         const DeviceAssignment&) = default;
};

// What the front door reads of a CompileOptionsProto.
struct CompileOptions {
  // ExecutableBuildOptionsProto.num_replicas and num_partitions; 1 where
  // absent (proto3 does not tell an absent field from a 0).
  int num_replicas = 1;
  int num_partitions = 1;
  // ExecutableBuildOptionsProto.device_assignment; when present its counts
  // equal num_replicas and num_partitions.
  std::optional<DeviceAssignment> device_assignment;
  // CompileOptionsProto.compile_portable_executable: compile for any one
  // device, chosen at execution.
  bool compile_portable_executable = false;
};

// Decodes a serialized xla.CompileOptionsProto. Errors are INVALID_ARGUMENT
// naming the field, the bad value and its byte offset.
absl::StatusOr<CompileOptions> ParseCompileOptions(
    absl::Span<const uint8_t> bytes);

// Decodes a serialized xla.DeviceAssignmentProto: both counts at least 1,
// computation_count entries of replica_count device ids each (packed or
// not), every id at least 0.
absl::StatusOr<DeviceAssignment> ParseDeviceAssignment(
    absl::Span<const uint8_t> bytes);

// Encodes `assignment` as xla.DeviceAssignmentProto, byte for byte as
// protobuf would: fields in number order, zero counts omitted, device ids
// packed. `assignment.device_ids` must hold replica_count * computation_count
// ids.
std::string SerializeDeviceAssignment(const DeviceAssignment& assignment);

}  // namespace pjrtx::pjrt

#endif  // PJRTX_RUNTIME_PJRT_COMPILE_OPTIONS_H_
