// The struct_size rule: a callee rejects an argument struct smaller than the
// one it knows (INVALID_ARGUMENT naming both sizes, writing nothing past the
// size it was given) and accepts a larger one from a newer caller.

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

// An older caller's struct lacks the last field, here the last 8 bytes.
constexpr size_t kShortfall = 8;
// A newer caller's struct has fields this header does not know.
constexpr size_t kExtra = 16;

// `Args` followed by zeroed room for kExtra unknown bytes.
template <typename Args>
struct Padded {
  Args args;
  unsigned char extra[kExtra];
};

template <typename Args>
Padded<Args> LargerArgs(size_t known_size) {
  Padded<Args> padded;
  std::memset(&padded, 0, sizeof(padded));
  padded.args.struct_size = known_size + kExtra;
  return padded;
}

::testing::AssertionResult RejectsSize(const ScopedError& error,
                                       size_t expected_size) {
  return IsError(error, PJRTX_Error_Code_INVALID_ARGUMENT,
                 {std::to_string(expected_size),
                  std::to_string(expected_size - kShortfall)});
}

// A value no plugin returns as a handle: if it changes, the callee wrote
// past the struct_size it was given.
template <typename T>
T* Canary() {
  return reinterpret_cast<T*>(uintptr_t{0x5a5a5a50});
}

class StructSizeTest : public ConformanceTest {};

TEST_F(StructSizeTest, PluginAttributesRejectsASmallerStruct) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Attributes_Args);
  args.struct_size -= kShortfall;
  constexpr size_t kCanaryCount = 0x5a5a;
  args.num_attributes = kCanaryCount;
  EXPECT_TRUE(RejectsSize(ScopedError(api()->Plugin_Attributes(&args)),
                          PJRTX_Plugin_Attributes_Args_STRUCT_SIZE));
  EXPECT_EQ(args.num_attributes, kCanaryCount)
      << "the plugin wrote past the struct_size it was given";
}

TEST_F(StructSizeTest, PluginAttributesAcceptsALargerStruct) {
  auto padded = LargerArgs<PJRTX_Plugin_Attributes_Args>(
      PJRTX_Plugin_Attributes_Args_STRUCT_SIZE);
  ASSERT_PJRTX_OK(api()->Plugin_Attributes(&padded.args));
  EXPECT_NE(padded.args.attributes, nullptr);
  EXPECT_GE(padded.args.num_attributes, 4u);
}

TEST_F(StructSizeTest, EventCreateRejectsASmallerStruct) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Create_Args);
  args.struct_size -= kShortfall;
  args.event = Canary<PJRTX_Event>();
  EXPECT_TRUE(RejectsSize(ScopedError(api()->Event_Create(&args)),
                          PJRTX_Event_Create_Args_STRUCT_SIZE));
  EXPECT_EQ(args.event, Canary<PJRTX_Event>())
      << "the plugin wrote past the struct_size it was given";
  if (args.event != Canary<PJRTX_Event>()) EventPtr discard(args.event);
}

TEST_F(StructSizeTest, EventCreateAcceptsALargerStruct) {
  auto padded =
      LargerArgs<PJRTX_Event_Create_Args>(PJRTX_Event_Create_Args_STRUCT_SIZE);
  ASSERT_PJRTX_OK(api()->Event_Create(&padded.args));
  EventPtr event(padded.args.event);
  ASSERT_NE(event, nullptr);
  EXPECT_FALSE(IsReady(event.get()));
  EXPECT_PJRTX_OK(SetEvent(event.get()));
}

TEST_F(StructSizeTest, ClientCreateRejectsASmallerStruct) {
  const std::vector<PJRTX_NamedValue> options = Plugin().options.View();
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Create_Args);
  args.struct_size -= kShortfall;
  args.create_options = options.data();
  args.num_options = options.size();
  args.client = Canary<PJRTX_Client>();
  EXPECT_TRUE(RejectsSize(ScopedError(api()->Client_Create(&args)),
                          PJRTX_Client_Create_Args_STRUCT_SIZE));
  EXPECT_EQ(args.client, Canary<PJRTX_Client>())
      << "the plugin wrote past the struct_size it was given";
  if (args.client != Canary<PJRTX_Client>()) ClientPtr discard(args.client);
}

TEST_F(StructSizeTest, ClientCreateAcceptsALargerStruct) {
  SkipIfUnavailable();
  if (IsSkipped()) return;
  const std::vector<PJRTX_NamedValue> options = Plugin().options.View();
  auto padded = LargerArgs<PJRTX_Client_Create_Args>(
      PJRTX_Client_Create_Args_STRUCT_SIZE);
  padded.args.create_options = options.data();
  padded.args.num_options = options.size();
  ASSERT_PJRTX_OK(api()->Client_Create(&padded.args));
  ClientPtr client(padded.args.client);
  ASSERT_NE(client, nullptr);
  EXPECT_FALSE(AddressableDevices(client.get()).empty());
}

class StructSizeClientTest : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    ASSERT_PJRTX_OK(BufferFromHost(
        client(),
        DenseSpec(host_.data(), PJRTX_Buffer_Type_U8,
                  {static_cast<int64_t>(host_.size())}, device()),
        &buffer_));
  }

  const std::vector<uint8_t> host_ = PatternBytes(64);
  BufferPtr buffer_;
};

TEST_F(StructSizeClientTest, ToHostBufferRejectsASmallerStruct) {
  std::vector<uint8_t> dst(host_.size());
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_ToHostBuffer_Args);
  args.struct_size -= kShortfall;
  args.src = buffer_.get();
  args.dst = dst.data();
  args.dst_size = dst.size();
  args.event = Canary<PJRTX_Event>();
  EXPECT_TRUE(RejectsSize(ScopedError(api()->Buffer_ToHostBuffer(&args)),
                          PJRTX_Buffer_ToHostBuffer_Args_STRUCT_SIZE));
  EXPECT_EQ(args.event, Canary<PJRTX_Event>())
      << "the plugin wrote past the struct_size it was given";
  if (args.event != Canary<PJRTX_Event>() && args.event != nullptr) {
    // A copy was started after all; let it finish before `dst` goes away.
    EventPtr event(args.event);
    EXPECT_PJRTX_OK(AwaitEvent(event.get()));
  }
}

TEST_F(StructSizeClientTest, ToHostBufferAcceptsALargerStruct) {
  std::vector<uint8_t> dst(host_.size());
  auto padded = LargerArgs<PJRTX_Buffer_ToHostBuffer_Args>(
      PJRTX_Buffer_ToHostBuffer_Args_STRUCT_SIZE);
  padded.args.src = buffer_.get();
  padded.args.dst = dst.data();
  padded.args.dst_size = dst.size();
  ASSERT_PJRTX_OK(api()->Buffer_ToHostBuffer(&padded.args));
  EventPtr event(padded.args.event);
  ASSERT_NE(event, nullptr);
  ASSERT_PJRTX_OK(AwaitEvent(event.get()));
  EXPECT_EQ(dst, host_);
}

}  // namespace
}  // namespace pjrtx::conformance
