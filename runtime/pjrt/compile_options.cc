#include "runtime/pjrt/compile_options.h"

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "support/status_macros.h"

namespace pjrtx::pjrt {
namespace {

// Field numbers, with the upstream names. xla.CompileOptionsProto and
// xla.ExecutableBuildOptionsProto: xla/pjrt/proto/compile_options.proto.
// CompileOptionsProto.executable_build_options
constexpr uint32_t kExecutableBuildOptionsField = 3;
// CompileOptionsProto.compile_portable_executable
constexpr uint32_t kCompilePortableExecutableField = 4;
// ExecutableBuildOptionsProto.num_replicas
constexpr uint32_t kNumReplicasField = 4;
// ExecutableBuildOptionsProto.num_partitions
constexpr uint32_t kNumPartitionsField = 5;
// ExecutableBuildOptionsProto.device_assignment
constexpr uint32_t kDeviceAssignmentField = 9;
// xla.DeviceAssignmentProto (xla/xla_data.proto): replica_count
constexpr uint32_t kReplicaCountField = 1;
// DeviceAssignmentProto.computation_count
constexpr uint32_t kComputationCountField = 2;
// DeviceAssignmentProto.computation_devices
constexpr uint32_t kComputationDevicesField = 3;
// DeviceAssignmentProto.ComputationDevice.replica_device_ids
constexpr uint32_t kReplicaDeviceIdsField = 1;

// Protobuf's wire types.
enum WireType : uint32_t {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

constexpr int kMaxVarintBytes = 10;
// The messages read here nest 3 deep (CompileOptionsProto > build options >
// device assignment > computation device); groups, which only unknown
// fields can hold, nest further, up to this depth.
constexpr int kMaxDepth = 8;

// A field's key: number, wire type and where it starts in the input.
struct Tag {
  uint32_t field;
  uint32_t wire_type;
  size_t offset;
};

// A length-delimited payload and where it starts in the input.
struct Payload {
  absl::Span<const uint8_t> bytes;
  size_t offset;
};

// Reads the fields of one message, a span of the whole input. Every read
// checks the bytes left; errors name the message and the byte offset in the
// whole input.
class WireReader {
 public:
  WireReader(Payload payload, std::string message)
      : bytes_(payload.bytes),
        base_(payload.offset),
        message_(std::move(message)) {}

  bool AtEnd() const { return pos_ == bytes_.size(); }
  size_t offset() const { return base_ + pos_; }
  const std::string& message() const { return message_; }

  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat(message_, ": ", what));
  }

  // Reads a varint of at most 10 bytes whose value fits 64 bits. `what`
  // names it in errors.
  absl::StatusOr<uint64_t> ReadVarint(absl::string_view what) {
    const size_t start = offset();
    uint64_t value = 0;
    for (int i = 0; i < kMaxVarintBytes; ++i) {
      if (pos_ == bytes_.size()) {
        return Error(absl::StrCat("varint (", what, ") at byte ", start,
                                  " is cut off after ", i, " bytes"));
      }
      const uint8_t byte = bytes_[pos_++];
      if (i == kMaxVarintBytes - 1) {
        if (byte & 0x80) {
          return Error(absl::StrCat("varint (", what, ") at byte ", start,
                                    " is longer than 10 bytes"));
        }
        if (byte > 1) {
          return Error(absl::StrCat("varint (", what, ") at byte ", start,
                                    " overflows 64 bits"));
        }
      }
      value |= static_cast<uint64_t>(byte & 0x7f) << (7 * i);
      if (!(byte & 0x80)) break;
    }
    return value;
  }

  // Reads a field's key: a field number of at least 1 and a wire type 0-5.
  absl::StatusOr<Tag> ReadTag() {
    const size_t start = offset();
    PJRTX_ASSIGN_OR_RETURN(const uint64_t key, ReadVarint("field key"));
    if (key > std::numeric_limits<uint32_t>::max()) {
      return Error(absl::StrCat("field key ", key, " at byte ", start,
                                " exceeds 32 bits"));
    }
    Tag tag{static_cast<uint32_t>(key >> 3), static_cast<uint32_t>(key & 7),
            start};
    if (tag.field == 0) {
      return Error(absl::StrCat("field number 0 at byte ", start,
                                "; field numbers start at 1"));
    }
    if (tag.wire_type > kFixed32) {
      return Error(absl::StrCat("wire type ", tag.wire_type, " of field ",
                                tag.field, " at byte ", start,
                                "; expected 0 to 5"));
    }
    return tag;
  }

  // Reads a length and that many bytes.
  absl::StatusOr<Payload> ReadLengthDelimited(const Tag& tag) {
    PJRTX_ASSIGN_OR_RETURN(
        const uint64_t length,
        ReadVarint(absl::StrCat("length of field ", tag.field)));
    const size_t left = bytes_.size() - pos_;
    if (length > left) {
      return Error(absl::StrCat("length ", length, " of field ", tag.field,
                                " at byte ", tag.offset, " exceeds the ", left,
                                " bytes left"));
    }
    Payload payload{bytes_.subspan(pos_, length), offset()};
    pos_ += length;
    return payload;
  }

  // Skips a field this reader does not interpret, groups included, checking
  // what it skips as protobuf would.
  absl::Status SkipField(const Tag& tag, int depth) {
    switch (tag.wire_type) {
      case kVarint:
        return ReadVarint(absl::StrCat("field ", tag.field)).status();
      case kFixed64:
        return SkipFixed(tag, 8);
      case kLengthDelimited:
        return ReadLengthDelimited(tag).status();
      case kFixed32:
        return SkipFixed(tag, 4);
      case kStartGroup:
        return SkipGroup(tag, depth + 1);
      default:  // kEndGroup: ReadTag allows nothing else.
        return Error(absl::StrCat("end of group ", tag.field, " at byte ",
                                  tag.offset, " without its start"));
    }
  }

 private:
  absl::Status SkipFixed(const Tag& tag, size_t size) {
    const size_t left = bytes_.size() - pos_;
    if (size > left) {
      return Error(absl::StrCat("field ", tag.field, " at byte ", tag.offset,
                                " needs ", size, " bytes; ", left, " left"));
    }
    pos_ += size;
    return absl::OkStatus();
  }

  absl::Status SkipGroup(const Tag& start, int depth) {
    if (depth > kMaxDepth) {
      return Error(absl::StrCat("group ", start.field, " at byte ",
                                start.offset, " nests deeper than ", kMaxDepth,
                                " levels"));
    }
    while (!AtEnd()) {
      PJRTX_ASSIGN_OR_RETURN(const Tag tag, ReadTag());
      if (tag.wire_type == kEndGroup) {
        if (tag.field == start.field) return absl::OkStatus();
        return Error(absl::StrCat("end of group ", tag.field, " at byte ",
                                  tag.offset, " inside group ", start.field,
                                  " started at byte ", start.offset));
      }
      PJRTX_RETURN_IF_ERROR(SkipField(tag, depth));
    }
    return Error(absl::StrCat("group ", start.field, " at byte ", start.offset,
                              " has no end"));
  }

  absl::Span<const uint8_t> bytes_;
  size_t base_;  // Offset of bytes_ in the whole input.
  size_t pos_ = 0;
  std::string message_;
};

const char* WireTypeName(uint32_t wire_type) {
  switch (wire_type) {
    case kVarint:
      return "varint";
    case kFixed64:
      return "64-bit";
    case kLengthDelimited:
      return "length-delimited";
    case kStartGroup:
      return "start group";
    case kEndGroup:
      return "end group";
    default:
      return "32-bit";
  }
}

// A known field with another wire type than its declaration's is rejected:
// no protobuf writer produces one.
absl::Status ExpectWireType(const WireReader& reader, const Tag& tag,
                            absl::string_view name, uint32_t expected) {
  if (tag.wire_type == expected) return absl::OkStatus();
  return reader.Error(absl::StrCat(
      name, " (field ", tag.field, ") at byte ", tag.offset, " has wire type ",
      tag.wire_type, " (", WireTypeName(tag.wire_type), "); expected ",
      expected, " (", WireTypeName(expected), ")"));
}

// Reads an int32 field, which protobuf writes sign-extended to 64 bits.
absl::StatusOr<int32_t> ReadInt32(WireReader& reader, const Tag& tag,
                                  absl::string_view name) {
  PJRTX_RETURN_IF_ERROR(ExpectWireType(reader, tag, name, kVarint));
  PJRTX_ASSIGN_OR_RETURN(const uint64_t raw, reader.ReadVarint(name));
  const int64_t value = static_cast<int64_t>(raw);
  if (value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max()) {
    return reader.Error(absl::StrCat(name, " ", value, " at byte ", tag.offset,
                                     " does not fit 32 bits"));
  }
  return static_cast<int32_t>(value);
}

absl::StatusOr<int64_t> ReadInt64(WireReader& reader, const Tag& tag,
                                  absl::string_view name) {
  PJRTX_RETURN_IF_ERROR(ExpectWireType(reader, tag, name, kVarint));
  PJRTX_ASSIGN_OR_RETURN(const uint64_t raw, reader.ReadVarint(name));
  return static_cast<int64_t>(raw);
}

absl::Status CheckDepth(const WireReader& reader, int depth) {
  if (depth <= kMaxDepth) return absl::OkStatus();
  return reader.Error(absl::StrCat("nests deeper than ", kMaxDepth, " levels"));
}

// A DeviceAssignmentProto's fields as read. Occurrences of the message
// merge, as in protobuf: later scalars win, repeated fields append.
struct DeviceAssignmentFields {
  int32_t replica_count = 0;
  int32_t computation_count = 0;
  // Per computation, its replicas' device ids.
  std::vector<std::vector<int64_t>> computation_devices;
};

absl::Status AppendDeviceId(WireReader& reader, uint64_t raw,
                            std::vector<int64_t>& ids) {
  const int64_t id = static_cast<int64_t>(raw);
  if (id < 0) {
    return reader.Error(absl::StrCat("replica_device_ids holds ", id,
                                     "; device ids are at least 0"));
  }
  ids.push_back(id);
  return absl::OkStatus();
}

absl::Status ReadComputationDevice(Payload payload, std::string message,
                                   int depth, std::vector<int64_t>& ids) {
  WireReader reader(payload, std::move(message));
  PJRTX_RETURN_IF_ERROR(CheckDepth(reader, depth));
  while (!reader.AtEnd()) {
    PJRTX_ASSIGN_OR_RETURN(const Tag tag, reader.ReadTag());
    if (tag.field != kReplicaDeviceIdsField) {
      PJRTX_RETURN_IF_ERROR(reader.SkipField(tag, depth));
      continue;
    }
    // Repeated scalars come one per field or packed into one payload.
    if (tag.wire_type == kVarint) {
      PJRTX_ASSIGN_OR_RETURN(const uint64_t raw,
                             reader.ReadVarint("replica_device_ids"));
      PJRTX_RETURN_IF_ERROR(AppendDeviceId(reader, raw, ids));
      continue;
    }
    PJRTX_RETURN_IF_ERROR(
        ExpectWireType(reader, tag, "replica_device_ids", kLengthDelimited));
    PJRTX_ASSIGN_OR_RETURN(const Payload packed,
                           reader.ReadLengthDelimited(tag));
    WireReader ids_reader(
        packed, absl::StrCat(reader.message(), ".replica_device_ids"));
    while (!ids_reader.AtEnd()) {
      PJRTX_ASSIGN_OR_RETURN(const uint64_t raw,
                             ids_reader.ReadVarint("packed device id"));
      PJRTX_RETURN_IF_ERROR(AppendDeviceId(ids_reader, raw, ids));
    }
  }
  return absl::OkStatus();
}

absl::Status ReadDeviceAssignment(Payload payload, std::string message,
                                  int depth, DeviceAssignmentFields& fields) {
  WireReader reader(payload, std::move(message));
  PJRTX_RETURN_IF_ERROR(CheckDepth(reader, depth));
  while (!reader.AtEnd()) {
    PJRTX_ASSIGN_OR_RETURN(const Tag tag, reader.ReadTag());
    switch (tag.field) {
      case kReplicaCountField: {
        PJRTX_ASSIGN_OR_RETURN(fields.replica_count,
                               ReadInt32(reader, tag, "replica_count"));
        break;
      }
      case kComputationCountField: {
        PJRTX_ASSIGN_OR_RETURN(fields.computation_count,
                               ReadInt32(reader, tag, "computation_count"));
        break;
      }
      case kComputationDevicesField: {
        PJRTX_RETURN_IF_ERROR(ExpectWireType(reader, tag, "computation_devices",
                                             kLengthDelimited));
        PJRTX_ASSIGN_OR_RETURN(const Payload device,
                               reader.ReadLengthDelimited(tag));
        const size_t index = fields.computation_devices.size();
        fields.computation_devices.emplace_back();
        PJRTX_RETURN_IF_ERROR(ReadComputationDevice(
            device,
            absl::StrCat(reader.message(), ".computation_devices[", index, "]"),
            depth + 1, fields.computation_devices.back()));
        break;
      }
      default:
        PJRTX_RETURN_IF_ERROR(reader.SkipField(tag, depth));
    }
  }
  return absl::OkStatus();
}

// Checks the counts against each other and lays the ids out row-major.
absl::StatusOr<DeviceAssignment> FinishDeviceAssignment(
    const DeviceAssignmentFields& fields, absl::string_view message) {
  auto error = [&](auto&&... parts) {
    return absl::InvalidArgumentError(absl::StrCat(message, ": ", parts...));
  };
  if (fields.replica_count < 1) {
    return error("replica_count is ", fields.replica_count,
                 "; expected at least 1");
  }
  if (fields.computation_count < 1) {
    return error("computation_count is ", fields.computation_count,
                 "; expected at least 1");
  }
  const size_t computations = fields.computation_devices.size();
  if (computations != static_cast<size_t>(fields.computation_count)) {
    return error("holds ", computations,
                 " computation_devices; expected computation_count, ",
                 fields.computation_count);
  }
  for (size_t c = 0; c < computations; ++c) {
    const size_t replicas = fields.computation_devices[c].size();
    if (replicas != static_cast<size_t>(fields.replica_count)) {
      return error("computation_devices[", c, "] holds ", replicas,
                   " replica_device_ids; expected replica_count, ",
                   fields.replica_count);
    }
  }
  // The ids were all read from the input, so this is bounded by its size.
  DeviceAssignment assignment;
  assignment.replica_count = fields.replica_count;
  assignment.computation_count = fields.computation_count;
  assignment.device_ids.resize(static_cast<size_t>(fields.replica_count) *
                               fields.computation_count);
  for (int c = 0; c < fields.computation_count; ++c) {
    for (int r = 0; r < fields.replica_count; ++r) {
      assignment
          .device_ids[static_cast<size_t>(r) * fields.computation_count + c] =
          fields.computation_devices[c][r];
    }
  }
  return assignment;
}

// An ExecutableBuildOptionsProto's fields as read (occurrences merge).
struct BuildOptionsFields {
  int64_t num_replicas = 0;
  int64_t num_partitions = 0;
  bool has_device_assignment = false;
  DeviceAssignmentFields device_assignment;
};

absl::Status ReadBuildOptions(Payload payload, std::string message, int depth,
                              BuildOptionsFields& fields) {
  WireReader reader(payload, std::move(message));
  PJRTX_RETURN_IF_ERROR(CheckDepth(reader, depth));
  while (!reader.AtEnd()) {
    PJRTX_ASSIGN_OR_RETURN(const Tag tag, reader.ReadTag());
    switch (tag.field) {
      case kNumReplicasField: {
        PJRTX_ASSIGN_OR_RETURN(fields.num_replicas,
                               ReadInt64(reader, tag, "num_replicas"));
        break;
      }
      case kNumPartitionsField: {
        PJRTX_ASSIGN_OR_RETURN(fields.num_partitions,
                               ReadInt64(reader, tag, "num_partitions"));
        break;
      }
      case kDeviceAssignmentField: {
        PJRTX_RETURN_IF_ERROR(
            ExpectWireType(reader, tag, "device_assignment", kLengthDelimited));
        PJRTX_ASSIGN_OR_RETURN(const Payload assignment,
                               reader.ReadLengthDelimited(tag));
        fields.has_device_assignment = true;
        PJRTX_RETURN_IF_ERROR(ReadDeviceAssignment(
            assignment, absl::StrCat(reader.message(), ".device_assignment"),
            depth + 1, fields.device_assignment));
        break;
      }
      default:
        PJRTX_RETURN_IF_ERROR(reader.SkipField(tag, depth));
    }
  }
  return absl::OkStatus();
}

// A replica or partition count: absent (0) means 1.
absl::StatusOr<int> CheckCount(int64_t value, absl::string_view name) {
  if (value == 0) return 1;
  if (value < 0 || value > std::numeric_limits<int32_t>::max()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "CompileOptionsProto.executable_build_options: ", name, " is ", value,
        "; expected 1 to ", std::numeric_limits<int32_t>::max()));
  }
  return static_cast<int>(value);
}

void AppendVarint(uint64_t value, std::string& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

void AppendKey(uint32_t field, WireType wire_type, std::string& out) {
  AppendVarint((static_cast<uint64_t>(field) << 3) | wire_type, out);
}

void AppendLengthDelimited(uint32_t field, const std::string& payload,
                           std::string& out) {
  AppendKey(field, kLengthDelimited, out);
  AppendVarint(payload.size(), out);
  out += payload;
}

}  // namespace

absl::StatusOr<CompileOptions> ParseCompileOptions(
    absl::Span<const uint8_t> bytes) {
  WireReader reader(Payload{bytes, 0}, "CompileOptionsProto");
  BuildOptionsFields build;
  bool has_build_options = false;
  CompileOptions options;
  while (!reader.AtEnd()) {
    PJRTX_ASSIGN_OR_RETURN(const Tag tag, reader.ReadTag());
    switch (tag.field) {
      case kExecutableBuildOptionsField: {
        PJRTX_RETURN_IF_ERROR(ExpectWireType(
            reader, tag, "executable_build_options", kLengthDelimited));
        PJRTX_ASSIGN_OR_RETURN(const Payload payload,
                               reader.ReadLengthDelimited(tag));
        has_build_options = true;
        PJRTX_RETURN_IF_ERROR(ReadBuildOptions(
            payload, "CompileOptionsProto.executable_build_options",
            /*depth=*/1, build));
        break;
      }
      case kCompilePortableExecutableField: {
        PJRTX_RETURN_IF_ERROR(ExpectWireType(
            reader, tag, "compile_portable_executable", kVarint));
        PJRTX_ASSIGN_OR_RETURN(
            const uint64_t portable,
            reader.ReadVarint("compile_portable_executable"));
        options.compile_portable_executable = portable != 0;
        break;
      }
      default:
        PJRTX_RETURN_IF_ERROR(reader.SkipField(tag, /*depth=*/0));
    }
  }
  if (!has_build_options) return options;
  PJRTX_ASSIGN_OR_RETURN(options.num_replicas,
                         CheckCount(build.num_replicas, "num_replicas"));
  PJRTX_ASSIGN_OR_RETURN(options.num_partitions,
                         CheckCount(build.num_partitions, "num_partitions"));
  if (!build.has_device_assignment) return options;
  constexpr absl::string_view kAssignment =
      "CompileOptionsProto.executable_build_options.device_assignment";
  PJRTX_ASSIGN_OR_RETURN(
      DeviceAssignment assignment,
      FinishDeviceAssignment(build.device_assignment, kAssignment));
  if (assignment.replica_count != options.num_replicas ||
      assignment.computation_count != options.num_partitions) {
    return absl::InvalidArgumentError(absl::StrCat(
        kAssignment, ": ", assignment.replica_count, " replicas x ",
        assignment.computation_count, " computations; num_replicas is ",
        options.num_replicas, " and num_partitions ", options.num_partitions));
  }
  options.device_assignment = std::move(assignment);
  return options;
}

absl::StatusOr<DeviceAssignment> ParseDeviceAssignment(
    absl::Span<const uint8_t> bytes) {
  DeviceAssignmentFields fields;
  PJRTX_RETURN_IF_ERROR(ReadDeviceAssignment(
      Payload{bytes, 0}, "DeviceAssignmentProto", /*depth=*/0, fields));
  return FinishDeviceAssignment(fields, "DeviceAssignmentProto");
}

std::string SerializeDeviceAssignment(const DeviceAssignment& assignment) {
  assert(assignment.replica_count >= 0 && assignment.computation_count >= 0);
  assert(assignment.device_ids.size() ==
         static_cast<size_t>(assignment.replica_count) *
             assignment.computation_count);
  std::string out;
  // int32 fields: negative values are sign-extended to 64 bits, zero ones
  // are left out.
  if (assignment.replica_count != 0) {
    AppendKey(kReplicaCountField, kVarint, out);
    AppendVarint(static_cast<uint64_t>(int64_t{assignment.replica_count}), out);
  }
  if (assignment.computation_count != 0) {
    AppendKey(kComputationCountField, kVarint, out);
    AppendVarint(static_cast<uint64_t>(int64_t{assignment.computation_count}),
                 out);
  }
  for (int c = 0; c < assignment.computation_count; ++c) {
    std::string ids;
    for (int r = 0; r < assignment.replica_count; ++r) {
      AppendVarint(static_cast<uint64_t>(assignment.device_id(r, c)), ids);
    }
    std::string device;
    if (!ids.empty())
      AppendLengthDelimited(kReplicaDeviceIdsField, ids, device);
    AppendLengthDelimited(kComputationDevicesField, device, out);
  }
  return out;
}

}  // namespace pjrtx::pjrt
