// Invalid arguments to buffer calls are rejected with INVALID_ARGUMENT (and
// a message naming the bad value where there is one), never a crash.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

class BufferInputTest : public ClientTest {
 protected:
  // Creates a buffer from `spec`, expecting INVALID_ARGUMENT naming `words`.
  ::testing::AssertionResult Rejects(const HostBufferSpec& spec,
                                     const std::vector<std::string>& words = {},
                                     PJRTX_Client* on = nullptr) {
    BufferPtr buffer;
    ::testing::AssertionResult result =
        IsError(BufferFromHost(on != nullptr ? on : client(), spec, &buffer),
                PJRTX_Error_Code_INVALID_ARGUMENT, words);
    if (result && buffer != nullptr) {
      return ::testing::AssertionFailure() << "an error and a buffer";
    }
    return result;
  }

  const std::vector<uint8_t> host_ = PatternBytes(256);
};

TEST_F(BufferInputTest, NullClientIsRejected) {
  BufferPtr buffer;
  EXPECT_TRUE(
      IsError(BufferFromHost(
                  nullptr,
                  DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {16}, device()),
                  &buffer),
              PJRTX_Error_Code_INVALID_ARGUMENT));
}

TEST_F(BufferInputTest, NeitherDeviceNorMemoryIsRejected) {
  EXPECT_TRUE(
      Rejects(DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {16}, nullptr)));
}

TEST_F(BufferInputTest, NegativeDimensionIsRejectedNamingIt) {
  EXPECT_TRUE(
      Rejects(DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {2, -3}, device()),
              {"-3"}));
}

TEST_F(BufferInputTest, ByteStridesCountMustMatchTheRank) {
  HostBufferSpec spec =
      DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {2, 3}, device());
  spec.byte_strides = std::vector<int64_t>{3};
  EXPECT_TRUE(Rejects(spec));
}

TEST_F(BufferInputTest, NullDataWithElementsIsRejected) {
  EXPECT_TRUE(Rejects(DenseSpec(nullptr, PJRTX_Buffer_Type_U8, {4}, device())));
}

TEST_F(BufferInputTest, MemoryNotAddressableByTheDeviceIsRejected) {
  int tried = 0;
  for (PJRTX_Memory* memory : AddressableMemories(client())) {
    const std::vector<PJRTX_Device*> users = MemoryDevices(memory);
    for (PJRTX_Device* device : addressable_devices()) {
      if (std::find(users.begin(), users.end(), device) != users.end()) {
        continue;
      }
      HostBufferSpec spec =
          DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {16}, device);
      spec.memory = memory;
      EXPECT_TRUE(Rejects(spec)) << "memory " << MemoryId(memory)
                                 << " with device " << DeviceId(device);
      ++tried;
    }
  }
  if (tried == 0) {
    GTEST_SKIP() << "every memory is addressable by every device";
  }
}

TEST_F(BufferInputTest, NullBuffersAndTargetsAreRejected) {
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(host_.data(), PJRTX_Buffer_Type_U8, {16}, device()),
      &buffer));
  std::vector<uint8_t> dst(16);
  EventPtr event;
  EXPECT_TRUE(IsError(StartToHost(nullptr, dst.data(), dst.size(), {}, &event),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_ToHostBuffer of NULL";
  BufferPtr copy;
  EXPECT_TRUE(IsError(CopyToDevice(nullptr, device(), &copy),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToDevice of NULL";
  EXPECT_TRUE(IsError(CopyToDevice(buffer.get(), nullptr, &copy),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToDevice to a NULL device";
  EXPECT_TRUE(IsError(CopyToMemory(buffer.get(), nullptr, &copy),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_CopyToMemory to a NULL memory";
  EventPtr ready;
  EXPECT_TRUE(
      IsError(ReadyEvent(nullptr, &ready), PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_ReadyEvent of NULL";
  auto dims = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Dimensions_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Buffer_Dimensions(&dims)),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_Dimensions of NULL";
  auto is_deleted = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_IsDeleted_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Buffer_IsDeleted(&is_deleted)),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Buffer_IsDeleted of NULL";
  auto await = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Await_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Event_Await(&await)),
                      PJRTX_Error_Code_INVALID_ARGUMENT))
      << "Event_Await of NULL";
}

}  // namespace
}  // namespace pjrtx::conformance
