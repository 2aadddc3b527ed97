// Buffers: host round trips in every semantics, layouts and shapes, copies
// between devices and memories, and deletion.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::IsEmpty;

// A 3x4 f32 array whose values are their row-major positions.
std::vector<float> RowMajor3x4() {
  std::vector<float> values(12);
  for (int i = 0; i < 12; ++i) values[i] = static_cast<float>(i) + 0.5f;
  return values;
}

std::vector<uint8_t> AsBytes(const std::vector<float>& values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(float));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string SemanticsName(PJRTX_HostBufferSemantics semantics) {
  switch (semantics) {
    case PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall:
      return "ImmutableOnlyDuringCall";
    case PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes:
      return "ImmutableUntilTransferCompletes";
    case PJRTX_HostBufferSemantics_kImmutableZeroCopy:
      return "ImmutableZeroCopy";
    case PJRTX_HostBufferSemantics_kMutableZeroCopy:
      return "MutableZeroCopy";
  }
  return "Semantics" + std::to_string(static_cast<int>(semantics));
}

class BufferRoundTripTest
    : public ClientTest,
      public ::testing::WithParamInterface<PJRTX_HostBufferSemantics> {};

TEST_P(BufferRoundTripTest, ReadsBackTheSameBytesAndMetadata) {
  const PJRTX_HostBufferSemantics semantics = GetParam();
  const std::vector<int64_t> dims = {4, 8};
  const std::vector<uint8_t> expected = PatternBytes(4 * 8 * sizeof(float));
  // Aligned, since zero-copy semantics may alias it.
  AlignedBytes host = AllocateAligned(expected.size());
  std::memcpy(host.get(), expected.data(), expected.size());

  HostBufferSpec spec =
      DenseSpec(host.get(), PJRTX_Buffer_Type_F32, dims, device());
  spec.semantics = semantics;
  BufferPtr buffer;
  EventPtr done;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer, &done));
  ASSERT_NE(buffer, nullptr);
  ASSERT_NE(done, nullptr) << "no done_with_host_buffer event";
  if (semantics == PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall) {
    EXPECT_TRUE(IsReady(done.get()))
        << "the data is copied during the call, so the host buffer is free "
           "when it returns";
  }

  EXPECT_EQ(BufferElementType(buffer.get()), PJRTX_Buffer_Type_F32);
  EXPECT_THAT(BufferDims(buffer.get()), ElementsAreArray(dims));
  EXPECT_EQ(OnDeviceSize(buffer.get()), expected.size());
  EXPECT_EQ(BufferDevice(buffer.get()), device());
  EXPECT_EQ(BufferMemory(buffer.get()), DefaultMemory(device()));
  EXPECT_FALSE(IsDeleted(buffer.get()));
  EXPECT_PJRTX_OK(AwaitBufferReady(buffer.get()));

  std::vector<uint8_t> read;
  EXPECT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, expected);

  // For zero-copy semantics the event may wait for the buffer's memory to be
  // released, so the buffer goes first.
  buffer.reset();
  ScopedError released = AwaitEvent(done.get());
  if (released.code() == PJRTX_Error_Code_DEADLINE_EXCEEDED &&
      !IsReady(done.get())) {
    static_cast<void>(host.release());  // The plugin may still read it.
  }
  EXPECT_PJRTX_OK(std::move(released))
      << "done_with_host_buffer after the buffer was destroyed";
}

INSTANTIATE_TEST_SUITE_P(
    AllSemantics, BufferRoundTripTest,
    ::testing::Values(
        PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall,
        PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes,
        PJRTX_HostBufferSemantics_kImmutableZeroCopy,
        PJRTX_HostBufferSemantics_kMutableZeroCopy),
    [](const ::testing::TestParamInfo<PJRTX_HostBufferSemantics>& info) {
      return SemanticsName(info.param);
    });

class BufferTest : public ClientTest {
 protected:
  // A buffer on device() holding `bytes` as a 1-D u8 array.
  BufferPtr MakeBuffer(const std::vector<uint8_t>& bytes) {
    BufferPtr buffer;
    EXPECT_PJRTX_OK(BufferFromHost(
        client(),
        DenseSpec(bytes.data(), PJRTX_Buffer_Type_U8,
                  {static_cast<int64_t>(bytes.size())}, device()),
        &buffer));
    EXPECT_NE(buffer, nullptr);
    return buffer;
  }
};

TEST_F(BufferTest, ToHostBufferReportsItsSizeAndRejectsASmallerDestination) {
  const std::vector<uint8_t> bytes = PatternBytes(3 * 5 * sizeof(int32_t));
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(),
      DenseSpec(bytes.data(), PJRTX_Buffer_Type_S32, {3, 5}, device()),
      &buffer));

  auto query = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  query.src = buffer.get();
  ASSERT_PJRTX_OK(api()->Buffer_ToHostBuffer(&query));
  EventPtr query_event(query.event);
  EXPECT_EQ(query.dst_size, bytes.size());
  EXPECT_EQ(query_event, nullptr) << "a size query starts no copy";

  std::vector<uint8_t> small(bytes.size() - 1);
  EventPtr small_event;
  EXPECT_TRUE(IsError(
      StartToHost(buffer.get(), small.data(), small.size(), {}, &small_event),
      PJRTX_Error_Code_INVALID_ARGUMENT,
      {std::to_string(bytes.size()), std::to_string(small.size())}));
  EXPECT_EQ(small_event, nullptr);

  // A larger destination is fine; only the first bytes are written.
  std::vector<uint8_t> large(bytes.size() + 8, 0xee);
  EventPtr large_event;
  ASSERT_PJRTX_OK(
      StartToHost(buffer.get(), large.data(), large.size(), {}, &large_event));
  ASSERT_PJRTX_OK(AwaitEvent(large_event.get()));
  EXPECT_EQ(std::vector<uint8_t>(large.begin(), large.begin() + bytes.size()),
            bytes);
}

TEST_F(BufferTest, ColumnMajorByteStridesReadBackRowMajor) {
  const std::vector<float> logical = RowMajor3x4();
  // Element (i, j) of the logical array lives at host[j * 3 + i].
  std::vector<float> column_major(12);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) column_major[j * 3 + i] = logical[i * 4 + j];
  }
  HostBufferSpec spec =
      DenseSpec(column_major.data(), PJRTX_Buffer_Type_F32, {3, 4}, device());
  spec.byte_strides = std::vector<int64_t>{sizeof(float), 3 * sizeof(float)};
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer));
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, AsBytes(logical));
  EXPECT_EQ(OnDeviceSize(buffer.get()), 12 * sizeof(float));
}

TEST_F(BufferTest, PaddedRowStridesAreSkipped) {
  const std::vector<float> logical = RowMajor3x4();
  // Rows of 4 values padded to 6; the padding must not be read.
  std::vector<float> padded(18, -1.0f);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) padded[i * 6 + j] = logical[i * 4 + j];
  }
  HostBufferSpec spec =
      DenseSpec(padded.data(), PJRTX_Buffer_Type_F32, {3, 4}, device());
  spec.byte_strides = std::vector<int64_t>{6 * sizeof(float), sizeof(float)};
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer));
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, AsBytes(logical));
}

TEST_F(BufferTest, ScalarRoundTrips) {
  const float value = 3.25f;
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(&value, PJRTX_Buffer_Type_F32, {}, device()),
      &buffer));
  EXPECT_THAT(BufferDims(buffer.get()), IsEmpty());
  EXPECT_EQ(OnDeviceSize(buffer.get()), sizeof(float));
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, AsBytes({value}));
}

TEST_F(BufferTest, ZeroElementArrayRoundTrips) {
  const float unused = 0;
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(&unused, PJRTX_Buffer_Type_F32, {0, 5}, device()),
      &buffer));
  EXPECT_THAT(BufferDims(buffer.get()), ElementsAre(0, 5));
  EXPECT_EQ(OnDeviceSize(buffer.get()), 0u);
  EXPECT_PJRTX_OK(AwaitBufferReady(buffer.get()));
  std::vector<uint8_t> read(1);
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_THAT(read, IsEmpty());

  BufferPtr copy;
  ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), device(), &copy));
  EXPECT_PJRTX_OK(AwaitBufferReady(copy.get()));
  EXPECT_THAT(BufferDims(copy.get()), ElementsAre(0, 5));
}

TEST_F(BufferTest, HostBufferIsFreeOnceDoneWithHostBufferIsReady) {
  const std::vector<uint8_t> expected = PatternBytes(64 * 1024);
  std::vector<uint8_t> host = expected;
  HostBufferSpec spec =
      DenseSpec(host.data(), PJRTX_Buffer_Type_U8,
                {static_cast<int64_t>(host.size())}, device());
  spec.semantics = PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  BufferPtr buffer;
  EventPtr done;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer, &done));
  ASSERT_NE(done, nullptr);
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  std::memset(host.data(), 0xee, host.size());
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, expected);
}

TEST_F(BufferTest, CopyToEveryAddressableDevicePreservesContents) {
  const std::vector<uint8_t> bytes = PatternBytes(4096, 3);
  BufferPtr buffer = MakeBuffer(bytes);
  ASSERT_NE(buffer, nullptr);
  for (PJRTX_Device* target : addressable_devices()) {
    SCOPED_TRACE("device " + std::to_string(DeviceId(target)));
    BufferPtr copy;
    ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), target, &copy));
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(BufferDevice(copy.get()), target);
    EXPECT_EQ(BufferMemory(copy.get()), DefaultMemory(target));
    EXPECT_EQ(BufferElementType(copy.get()), PJRTX_Buffer_Type_U8);
    EXPECT_THAT(BufferDims(copy.get()),
                ElementsAre(static_cast<int64_t>(bytes.size())));
    EXPECT_PJRTX_OK(AwaitBufferReady(copy.get()));
    std::vector<uint8_t> read;
    ASSERT_PJRTX_OK(ToHost(copy.get(), &read));
    EXPECT_EQ(read, bytes);
  }
}

TEST_F(BufferTest, CopyToEveryMemoryOfTheDeviceAndBackPreservesContents) {
  const std::vector<uint8_t> bytes = PatternBytes(4096, 5);
  BufferPtr buffer = MakeBuffer(bytes);
  ASSERT_NE(buffer, nullptr);
  PJRTX_Memory* default_memory = DefaultMemory(device());
  for (PJRTX_Memory* memory : DeviceMemories(device())) {
    SCOPED_TRACE("memory " + MemoryKind(memory));
    BufferPtr there;
    ASSERT_PJRTX_OK(CopyToMemory(buffer.get(), memory, &there));
    ASSERT_NE(there, nullptr);
    EXPECT_EQ(BufferMemory(there.get()), memory);
    std::vector<uint8_t> read;
    ASSERT_PJRTX_OK(ToHost(there.get(), &read));
    EXPECT_EQ(read, bytes);

    BufferPtr back;
    ASSERT_PJRTX_OK(CopyToMemory(there.get(), default_memory, &back));
    EXPECT_EQ(BufferMemory(back.get()), default_memory);
    ASSERT_PJRTX_OK(ToHost(back.get(), &read));
    EXPECT_EQ(read, bytes);
  }
}

TEST_F(BufferTest, HostDataCanBeCreatedInEveryMemoryOfTheDevice) {
  const std::vector<uint8_t> bytes = PatternBytes(256, 7);
  for (PJRTX_Memory* memory : DeviceMemories(device())) {
    SCOPED_TRACE("memory " + MemoryKind(memory));
    HostBufferSpec spec =
        DenseSpec(bytes.data(), PJRTX_Buffer_Type_U8,
                  {static_cast<int64_t>(bytes.size())}, nullptr);
    spec.memory = memory;
    BufferPtr buffer;
    ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer));
    EXPECT_EQ(BufferMemory(buffer.get()), memory);
    std::vector<uint8_t> read;
    ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
    EXPECT_EQ(read, bytes);
  }
}

TEST_F(BufferTest, DeletedBufferRejectsUseButNotDestroy) {
  BufferPtr buffer = MakeBuffer(PatternBytes(64));
  ASSERT_NE(buffer, nullptr);
  EXPECT_FALSE(IsDeleted(buffer.get()));
  ASSERT_PJRTX_OK(DeleteBuffer(buffer.get()));
  EXPECT_TRUE(IsDeleted(buffer.get()));
  EXPECT_PJRTX_OK(DeleteBuffer(buffer.get())) << "deleting twice is a no-op";
  EXPECT_TRUE(IsDeleted(buffer.get()));

  // The error may come from the call or from the transfer's event.
  std::vector<uint8_t> read(64);
  EventPtr event;
  ScopedError error =
      StartToHost(buffer.get(), read.data(), read.size(), {}, &event);
  if (error.ok()) error = AwaitEvent(event.get());
  EXPECT_TRUE(IsError(error, PJRTX_Error_Code_FAILED_PRECONDITION, {"deleted"}))
      << "Buffer_ToHostBuffer of a deleted buffer";

  BufferPtr copy;
  error = CopyToDevice(buffer.get(), device(), &copy);
  if (error.ok()) error = AwaitBufferReady(copy.get());
  EXPECT_TRUE(IsError(error, PJRTX_Error_Code_FAILED_PRECONDITION, {"deleted"}))
      << "Buffer_CopyToDevice of a deleted buffer";

  BufferPtr moved;
  error = CopyToMemory(buffer.get(), DefaultMemory(device()), &moved);
  if (error.ok()) error = AwaitBufferReady(moved.get());
  EXPECT_TRUE(IsError(error, PJRTX_Error_Code_FAILED_PRECONDITION, {"deleted"}))
      << "Buffer_CopyToMemory of a deleted buffer";
  // Destroy after Delete happens when `buffer` goes out of scope.
}

}  // namespace
}  // namespace pjrtx::conformance
