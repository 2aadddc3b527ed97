#include "runtime/pjrt/compile_options.h"

#include <cstdint>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

// The folder of make_compile_options.py's output, set by the build.
#ifndef PJRTX_COMPILE_OPTIONS_TESTDATA
#error "PJRTX_COMPILE_OPTIONS_TESTDATA must name tests/runtime/pjrt/testdata"
#endif

namespace pjrtx::pjrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string ReadTestData(const std::string& name) {
  const std::string path =
      absl::StrCat(PJRTX_COMPILE_OPTIONS_TESTDATA, "/", name);
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  return std::string(std::istreambuf_iterator<char>(file), {});
}

absl::Span<const uint8_t> Bytes(const std::string& s) {
  return absl::MakeConstSpan(reinterpret_cast<const uint8_t*>(s.data()),
                             s.size());
}

// Protobuf wire format, written by hand.
std::string Varint(uint64_t value) {
  std::string out;
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
  return out;
}
std::string Key(uint32_t field, uint32_t wire_type) {
  return Varint((uint64_t{field} << 3) | wire_type);
}
std::string VarintField(uint32_t field, uint64_t value) {
  return Key(field, 0) + Varint(value);
}
std::string LenField(uint32_t field, const std::string& payload) {
  return Key(field, 2) + Varint(payload.size()) + payload;
}
// Unknown fields of every wire type: varint, 64-bit, length-delimited,
// 32-bit and a group holding a group, numbered above any known field.
std::string UnknownFields() {
  return VarintField(1000, ~uint64_t{0}) + Key(1001, 1) +
         std::string(8, '\xff') + LenField(1002, std::string(5, '\x80')) +
         Key(1003, 5) + std::string(4, '\xff') + Key(1004, 3) +
         VarintField(1, 7) + Key(1005, 3) + LenField(9, "x") + Key(1005, 4) +
         Key(1004, 4);
}
std::string ComputationDevice(std::initializer_list<uint64_t> ids) {
  std::string packed;
  for (uint64_t id : ids) packed += Varint(id);
  return LenField(1, packed);
}
std::string Assignment(int replicas, int computations,
                       const std::vector<std::string>& devices) {
  std::string out = VarintField(1, replicas) + VarintField(2, computations);
  for (const std::string& device : devices) out += LenField(3, device);
  return out;
}
std::string Options(const std::string& build_options) {
  return LenField(3, build_options);
}
std::string Build(int replicas, int partitions, const std::string& rest = "") {
  return VarintField(4, replicas) + VarintField(5, partitions) + rest;
}

absl::Status ParseStatus(const std::string& bytes) {
  return ParseCompileOptions(Bytes(bytes)).status();
}

void ExpectInvalid(const std::string& bytes, const std::string& message) {
  const absl::Status status = ParseStatus(bytes);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << status;
  EXPECT_THAT(status.message(), HasSubstr(message));
}

TEST(CompileOptionsTest, ReadsJaxTwoReplicasOnDevicesThreeAndFive) {
  absl::StatusOr<CompileOptions> options =
      ParseCompileOptions(Bytes(ReadTestData("compile_options_2replicas.pb")));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 2);
  EXPECT_EQ(options->num_partitions, 1);
  EXPECT_FALSE(options->compile_portable_executable);
  ASSERT_TRUE(options->device_assignment.has_value());
  EXPECT_EQ(options->device_assignment->replica_count, 2);
  EXPECT_EQ(options->device_assignment->computation_count, 1);
  EXPECT_THAT(options->device_assignment->device_ids, ElementsAre(3, 5));
  EXPECT_EQ(options->device_assignment->device_id(1, 0), 5);
}

TEST(CompileOptionsTest, ReadsJaxOneReplicaTwoPartitions) {
  absl::StatusOr<CompileOptions> options = ParseCompileOptions(
      Bytes(ReadTestData("compile_options_2partitions.pb")));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 1);
  EXPECT_EQ(options->num_partitions, 2);
  ASSERT_TRUE(options->device_assignment.has_value());
  EXPECT_EQ(options->device_assignment->replica_count, 1);
  EXPECT_EQ(options->device_assignment->computation_count, 2);
  EXPECT_THAT(options->device_assignment->device_ids, ElementsAre(2, 7));
  EXPECT_EQ(options->device_assignment->device_id(0, 1), 7);
}

TEST(CompileOptionsTest, ReadsJaxPortableOptions) {
  absl::StatusOr<CompileOptions> options =
      ParseCompileOptions(Bytes(ReadTestData("compile_options_portable.pb")));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 1);
  EXPECT_EQ(options->num_partitions, 1);
  EXPECT_TRUE(options->compile_portable_executable);
  EXPECT_FALSE(options->device_assignment.has_value());
}

TEST(CompileOptionsTest, EmptyOptionsAreOneReplicaOnePartition) {
  absl::StatusOr<CompileOptions> options = ParseCompileOptions({});
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 1);
  EXPECT_EQ(options->num_partitions, 1);
  EXPECT_FALSE(options->compile_portable_executable);
  EXPECT_FALSE(options->device_assignment.has_value());
  // Present build options with neither count: still 1 and 1.
  options = ParseCompileOptions(Bytes(Options("")));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 1);
  EXPECT_EQ(options->num_partitions, 1);
}

TEST(CompileOptionsTest, SerializesDeviceAssignmentsAsJaxlibDoes) {
  const DeviceAssignment two_by_one{2, 1, {3, 5}};
  EXPECT_EQ(SerializeDeviceAssignment(two_by_one),
            ReadTestData("device_assignment_2x1.pb"));
  // Replica r of computation c at r * 3 + c; 300 takes two varint bytes.
  const DeviceAssignment two_by_three{2, 3, {0, 1, 2, 300, 4, 5}};
  EXPECT_EQ(SerializeDeviceAssignment(two_by_three),
            ReadTestData("device_assignment_2x3.pb"));
}

TEST(CompileOptionsTest, DeviceAssignmentsRoundTrip) {
  for (const DeviceAssignment& assignment :
       {DeviceAssignment{2, 1, {3, 5}},
        DeviceAssignment{2, 3, {0, 1, 2, 300, 4, 5}},
        DeviceAssignment{1, 1, {int64_t{1} << 40}}}) {
    absl::StatusOr<DeviceAssignment> read =
        ParseDeviceAssignment(Bytes(SerializeDeviceAssignment(assignment)));
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_EQ(*read, assignment);
  }
  absl::StatusOr<DeviceAssignment> read =
      ParseDeviceAssignment(Bytes(ReadTestData("device_assignment_2x3.pb")));
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(read->device_id(1, 0), 300);
}

TEST(CompileOptionsTest, ReadsDeviceIdsPackedUnpackedAndMixed) {
  // Computation 0 unpacked, one field per id: 4, 6, 8. Computation 1 mixed,
  // a packed run and then a single id: 1, 9, 130.
  const std::string unpacked =
      VarintField(1, 4) + VarintField(1, 6) + VarintField(1, 8);
  const std::string mixed =
      LenField(1, Varint(1) + Varint(9)) + VarintField(1, 130);
  const std::string assignment = Assignment(3, 2, {unpacked, mixed});
  absl::StatusOr<CompileOptions> options =
      ParseCompileOptions(Bytes(Options(Build(3, 2, LenField(9, assignment)))));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_THAT(options->device_assignment->device_ids,
              ElementsAre(4, 1, 6, 9, 8, 130));
}

TEST(CompileOptionsTest, SkipsUnknownFieldsOfEveryWireTypeAtEveryLevel) {
  const std::string device =
      UnknownFields() + ComputationDevice({3, 5}) + UnknownFields();
  const std::string assignment =
      UnknownFields() + Assignment(2, 1, {device}) + UnknownFields();
  const std::string build =
      UnknownFields() + Build(2, 1, LenField(9, assignment)) + UnknownFields();
  const std::string bytes =
      UnknownFields() + Options(build) + VarintField(4, 1) + UnknownFields();
  absl::StatusOr<CompileOptions> options = ParseCompileOptions(Bytes(bytes));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 2);
  EXPECT_TRUE(options->compile_portable_executable);
  EXPECT_THAT(options->device_assignment->device_ids, ElementsAre(3, 5));
}

TEST(CompileOptionsTest, RepeatedMessagesMergeAsInProtobuf) {
  // Two build options: the counts of each, the later num_replicas winning;
  // two device assignments: their computations appended.
  const std::string bytes =
      Options(VarintField(4, 7) +
              LenField(
                  9, VarintField(1, 1) + LenField(3, ComputationDevice({4})))) +
      Options(
          VarintField(4, 1) + VarintField(5, 2) +
          LenField(9, VarintField(2, 2) + LenField(3, ComputationDevice({6}))));
  absl::StatusOr<CompileOptions> options = ParseCompileOptions(Bytes(bytes));
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->num_replicas, 1);
  EXPECT_EQ(options->num_partitions, 2);
  EXPECT_THAT(options->device_assignment->device_ids, ElementsAre(4, 6));
}

TEST(CompileOptionsTest, TruncationAtEveryByteNeverCrashes) {
  for (const char* name :
       {"compile_options_2replicas.pb", "compile_options_2partitions.pb",
        "compile_options_portable.pb", "device_assignment_2x3.pb"}) {
    const std::string bytes = ReadTestData(name);
    int errors = 0;
    for (size_t size = 0; size < bytes.size(); ++size) {
      // A copy of exactly `size` bytes, so ASan sees any read past it.
      const std::vector<uint8_t> prefix(bytes.begin(), bytes.begin() + size);
      absl::StatusOr<CompileOptions> options = ParseCompileOptions(prefix);
      absl::StatusOr<DeviceAssignment> assignment =
          ParseDeviceAssignment(prefix);
      if (!options.ok()) {
        ++errors;
        EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument)
            << name << " cut at " << size << ": " << options.status();
      } else if (options->device_assignment.has_value()) {
        EXPECT_EQ(options->device_assignment->device_ids.size(),
                  static_cast<size_t>(options->num_replicas) *
                      options->num_partitions);
      }
      if (!assignment.ok()) {
        EXPECT_EQ(assignment.status().code(),
                  absl::StatusCode::kInvalidArgument);
      }
    }
    // Most cuts land inside a field.
    if (bytes.size() > 100) {
      EXPECT_GT(errors, bytes.size() / 2) << name;
    }
  }
}

TEST(CompileOptionsTest, CorruptedBytesNeverCrash) {
  const std::string bytes = ReadTestData("compile_options_2replicas.pb");
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t value : {0x00, 0x01, 0x7f, 0x80, 0xff}) {
      std::vector<uint8_t> corrupted(bytes.begin(), bytes.end());
      corrupted[i] = value;
      absl::StatusOr<CompileOptions> options = ParseCompileOptions(corrupted);
      if (!options.ok()) {
        EXPECT_EQ(options.status().code(), absl::StatusCode::kInvalidArgument);
      }
    }
  }
}

TEST(CompileOptionsTest, RejectsALengthBeyondTheInput) {
  ExpectInvalid(Key(3, 2) + Varint(uint64_t{1} << 32) + "abc",
                "length 4294967296 of field 3 at byte 0 exceeds the 3 bytes "
                "left");
  ExpectInvalid(Key(3, 2) + Varint(~uint64_t{0}), "exceeds the 0 bytes left");
  // Inside a nested message, named by its path.
  ExpectInvalid(Options(Key(9, 2) + Varint(5) + "ab"),
                "CompileOptionsProto.executable_build_options: length 5 of "
                "field 9");
  ExpectInvalid(Key(2000, 1) + "1234567", "needs 8 bytes; 7 left");
  ExpectInvalid(Key(2000, 5) + "123", "needs 4 bytes; 3 left");
}

TEST(CompileOptionsTest, RejectsOverlongVarints) {
  ExpectInvalid(Key(2000, 0) + std::string(10, '\x80') + '\x00',
                "is longer than 10 bytes");
  ExpectInvalid(Key(2000, 0) + std::string(9, '\xff') + '\x02',
                "overflows 64 bits");
  ExpectInvalid(Key(2000, 0) + std::string(3, '\x80'),
                "is cut off after 3 bytes");
  // The largest 64-bit value is fine.
  EXPECT_TRUE(ParseStatus(VarintField(2000, ~uint64_t{0})).ok());
}

TEST(CompileOptionsTest, RejectsBadKeys) {
  ExpectInvalid(Key(0, 0) + Varint(1), "field number 0 at byte 0");
  ExpectInvalid(Key(7, 6), "wire type 6 of field 7");
  ExpectInvalid(Key(7, 7), "wire type 7 of field 7");
  ExpectInvalid(Varint(uint64_t{1} << 35), "exceeds 32 bits");
}

TEST(CompileOptionsTest, ChecksGroups) {
  std::string deep;
  for (int i = 0; i < 9; ++i) deep += Key(2000 + i, 3);
  ExpectInvalid(deep, "nests deeper than 8 levels");
  ExpectInvalid(Key(2000, 3) + VarintField(1, 1),
                "group 2000 at byte 0 has "
                "no end");
  ExpectInvalid(Key(2000, 3) + Key(2001, 4),
                "end of group 2001 at byte 2 inside group 2000");
  ExpectInvalid(Key(2000, 4), "end of group 2000 at byte 0 without its start");
  // Eight levels are fine.
  std::string eight_open, eight_close;
  for (int i = 0; i < 8; ++i) {
    eight_open += Key(2000 + i, 3);
    eight_close = Key(2000 + i, 4) + eight_close;
  }
  EXPECT_TRUE(ParseStatus(eight_open + eight_close).ok());
}

TEST(CompileOptionsTest, RejectsKnownFieldsOfAnotherWireType) {
  ExpectInvalid(Options(LenField(4, "")),
                "num_replicas (field 4) at byte 2 has wire type 2 "
                "(length-delimited); expected 0 (varint)");
  ExpectInvalid(VarintField(3, 1), "executable_build_options (field 3)");
  ExpectInvalid(Options(Build(1, 1, LenField(9, Key(3, 5) + "abcd"))),
                "computation_devices (field 3)");
  ExpectInvalid(
      Options(Build(1, 1, LenField(9, LenField(3, Key(1, 1) + "12345678")))),
      "replica_device_ids (field 1) at byte 10 has wire type 1 (64-bit)");
}

TEST(CompileOptionsTest, RejectsCountsThatDisagree) {
  const std::string two_ids = ComputationDevice({3, 5});
  // A computation with too few replicas.
  ExpectInvalid(
      Options(
          Build(2, 1, LenField(9, Assignment(2, 1, {ComputationDevice({3})})))),
      "device_assignment: computation_devices[0] holds 1 replica_device_ids; "
      "expected replica_count, 2");
  // Too few computations.
  ExpectInvalid(Options(Build(2, 2, LenField(9, Assignment(2, 2, {two_ids})))),
                "holds 1 computation_devices; expected computation_count, 2");
  // A count of zero (absent) or below.
  ExpectInvalid(
      Options(
          Build(2, 1, LenField(9, VarintField(2, 1) + LenField(3, two_ids)))),
      "replica_count is 0; expected at least 1");
  ExpectInvalid(Options(Build(2, 1, LenField(9, Assignment(2, -1, {two_ids})))),
                "computation_count is -1; expected at least 1");
  // An assignment of another shape than the counts.
  ExpectInvalid(Options(Build(1, 2, LenField(9, Assignment(2, 1, {two_ids})))),
                "2 replicas x 1 computations; num_replicas is 1 and "
                "num_partitions 2");
  ExpectInvalid(Options(VarintField(4, ~uint64_t{0})),
                "num_replicas is -1; expected 1 to 2147483647");
  ExpectInvalid(Options(VarintField(5, uint64_t{1} << 31)),
                "num_partitions is 2147483648");
  ExpectInvalid(
      Options(Build(1, 1, LenField(9, VarintField(1, uint64_t{1} << 32)))),
      "replica_count 4294967296 at byte 8 does not fit 32 bits");
  ExpectInvalid(
      Options(Build(
          1, 1,
          LenField(9, Assignment(1, 1, {ComputationDevice({~uint64_t{0}})})))),
      "replica_device_ids holds -1; device ids are at least 0");
}

TEST(CompileOptionsTest, StandaloneDeviceAssignmentErrorsNameTheMessage) {
  absl::StatusOr<DeviceAssignment> assignment =
      ParseDeviceAssignment(Bytes(Assignment(1, 2, {ComputationDevice({1})})));
  EXPECT_EQ(assignment.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(assignment.status().message(),
              HasSubstr("DeviceAssignmentProto: holds 1 computation_devices"));
}

}  // namespace
}  // namespace pjrtx::pjrt
