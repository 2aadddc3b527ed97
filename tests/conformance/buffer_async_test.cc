// Asynchronous buffer behaviour: wait events, error propagation through
// dependent buffers, deferred frees and transfer accounting.

#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace pjrtx::conformance {
namespace {

using std::chrono::milliseconds;

// Long enough for a copy that ignored its wait events to have finished.
constexpr milliseconds kSettle(20);
constexpr milliseconds kAccountingDeadline = std::chrono::seconds(5);

class BufferAsyncTest : public ClientTest {
 protected:
  // A defined buffer on `target` holding `bytes` as a 1-D u8 array, copied
  // with kImmutableUntilTransferCompletes (so that copies are counted).
  BufferPtr MakeBuffer(const std::vector<uint8_t>& bytes,
                       PJRTX_Device* target) {
    HostBufferSpec spec =
        DenseSpec(bytes.data(), PJRTX_Buffer_Type_U8,
                  {static_cast<int64_t>(bytes.size())}, target);
    spec.semantics = PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
    BufferPtr buffer;
    EXPECT_PJRTX_OK(BufferFromHost(client(), spec, &buffer));
    EXPECT_NE(buffer, nullptr);
    if (buffer != nullptr) {
      EXPECT_PJRTX_OK(AwaitBufferReady(buffer.get()));
    }
    return buffer;
  }

  EventPtr NewEvent() {
    EventPtr event;
    EXPECT_PJRTX_OK(CreateEvent(&event));
    EXPECT_NE(event, nullptr);
    return event;
  }

  // A second addressable device, or NULL if there is only one.
  PJRTX_Device* other_device() const {
    return addressable_devices().size() > 1 ? addressable_devices()[1]
                                            : nullptr;
  }
};

TEST_F(BufferAsyncTest, ToHostBufferWaitsForItsWaitEvents) {
  const std::vector<uint8_t> bytes = PatternBytes(4096);
  BufferPtr buffer = MakeBuffer(bytes, device());
  EventPtr gate = NewEvent();
  ASSERT_TRUE(buffer != nullptr && gate != nullptr);
  auto dst = std::make_unique<std::vector<uint8_t>>(bytes.size());
  EventPtr transfer;
  ASSERT_PJRTX_OK(StartToHost(buffer.get(), dst->data(), dst->size(),
                              {gate.get()}, &transfer));
  ASSERT_NE(transfer, nullptr);
  std::this_thread::sleep_for(kSettle);
  EXPECT_FALSE(IsReady(transfer.get()))
      << "the copy finished before its wait event was set";
  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ScopedError done = AwaitEvent(transfer.get());
  if (!IsReady(transfer.get())) static_cast<void>(dst.release());
  ASSERT_PJRTX_OK(std::move(done));
  EXPECT_EQ(*dst, bytes);
}

TEST_F(BufferAsyncTest, CopyToDeviceWaitsForItsWaitEvents) {
  const std::vector<uint8_t> bytes = PatternBytes(4096, 1);
  BufferPtr buffer = MakeBuffer(bytes, device());
  EventPtr gate = NewEvent();
  ASSERT_TRUE(buffer != nullptr && gate != nullptr);
  PJRTX_Device* target = other_device() != nullptr ? other_device() : device();
  BufferPtr copy;
  ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), target, &copy, {gate.get()}));
  EventPtr ready;
  ASSERT_PJRTX_OK(ReadyEvent(copy.get(), &ready));
  std::this_thread::sleep_for(kSettle);
  EXPECT_FALSE(IsReady(ready.get()))
      << "the copy finished before its wait event was set";
  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ASSERT_PJRTX_OK(AwaitEvent(ready.get()));
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(copy.get(), &read));
  EXPECT_EQ(read, bytes);
}

TEST_F(BufferAsyncTest, BufferFromHostBufferWaitsForItsWaitEvents) {
  const std::vector<uint8_t> bytes = PatternBytes(4096, 2);
  EventPtr gate = NewEvent();
  ASSERT_NE(gate, nullptr);
  HostBufferSpec spec =
      DenseSpec(bytes.data(), PJRTX_Buffer_Type_U8,
                {static_cast<int64_t>(bytes.size())}, device());
  spec.semantics = PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  spec.wait_events = {gate.get()};
  BufferPtr buffer;
  EventPtr done;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer, &done));
  EventPtr ready;
  ASSERT_PJRTX_OK(ReadyEvent(buffer.get(), &ready));
  std::this_thread::sleep_for(kSettle);
  EXPECT_FALSE(IsReady(ready.get()))
      << "the buffer was defined before its wait event was set";
  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  ASSERT_PJRTX_OK(AwaitEvent(ready.get()));
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  EXPECT_EQ(read, bytes);
}

TEST_F(BufferAsyncTest, WaitEventErrorPropagatesThroughDependentBuffers) {
  const std::vector<uint8_t> bytes = PatternBytes(1024);
  BufferPtr source = MakeBuffer(bytes, device());
  EventPtr gate = NewEvent();
  ASSERT_TRUE(source != nullptr && gate != nullptr);
  PJRTX_Device* target = other_device() != nullptr ? other_device() : device();
  BufferPtr first;
  ASSERT_PJRTX_OK(CopyToDevice(source.get(), target, &first, {gate.get()}));
  BufferPtr second;
  ASSERT_PJRTX_OK(CopyToDevice(first.get(), device(), &second));
  ASSERT_PJRTX_OK(
      SetEvent(gate.get(), PJRTX_Error_Code_INTERNAL, "injected failure"));

  EXPECT_TRUE(IsError(AwaitBufferReady(first.get()), PJRTX_Error_Code_INTERNAL,
                      {"injected failure"}))
      << "the copy that waited on the failed event";
  EXPECT_TRUE(IsError(AwaitBufferReady(second.get()), PJRTX_Error_Code_INTERNAL,
                      {"injected failure"}))
      << "the copy of that copy";
  std::vector<uint8_t> read;
  EXPECT_TRUE(IsError(ToHost(second.get(), &read), PJRTX_Error_Code_INTERNAL,
                      {"injected failure"}))
      << "reading the copy of that copy";
  // The source itself is unaffected.
  EXPECT_PJRTX_OK(AwaitBufferReady(source.get()));
}

TEST_F(BufferAsyncTest, WaitEventErrorBecomesTheNewBuffersError) {
  const std::vector<uint8_t> bytes = PatternBytes(1024);
  EventPtr gate = NewEvent();
  ASSERT_NE(gate, nullptr);
  HostBufferSpec spec =
      DenseSpec(bytes.data(), PJRTX_Buffer_Type_U8,
                {static_cast<int64_t>(bytes.size())}, device());
  spec.semantics = PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes;
  spec.wait_events = {gate.get()};
  BufferPtr buffer;
  EventPtr done;
  ASSERT_PJRTX_OK(BufferFromHost(client(), spec, &buffer, &done));
  ASSERT_PJRTX_OK(
      SetEvent(gate.get(), PJRTX_Error_Code_INTERNAL, "injected failure"));
  EXPECT_TRUE(IsError(AwaitBufferReady(buffer.get()), PJRTX_Error_Code_INTERNAL,
                      {"injected failure"}));
  // Whatever the outcome, the host data is released in the end.
  EXPECT_TRUE(PollUntil([&] { return IsReady(done.get()); }))
      << "done_with_host_buffer never became ready";
}

// Deleting a buffer while a transfer still has to read it keeps its memory
// (as Device_MemoryStats shows) until the transfer is done, then frees it.
// Each test holds the transfer back with a wait event to make the window.
class DeferredFreeTest : public BufferAsyncTest {
 protected:
  static constexpr int64_t kBytes = 1 << 20;

  int64_t InUse(PJRTX_Device* device) {
    return MemoryStats(device).bytes_in_use;
  }

  // Copies a buffer of device() to `target`, held back by a wait event,
  // deletes and destroys the source, and checks the source's memory stays
  // accounted until the copy is done and is released afterwards.
  void ExpectDeleteWaitsForCopyTo(PJRTX_Device* target) {
    const bool same_device = target == device();
    const std::vector<uint8_t> bytes = PatternBytes(kBytes, 11);
    const int64_t source_before = InUse(device());
    const int64_t target_before = InUse(target);
    BufferPtr buffer = MakeBuffer(bytes, device());
    ASSERT_NE(buffer, nullptr);
    EXPECT_GE(InUse(device()), source_before + kBytes);

    EventPtr gate = NewEvent();
    ASSERT_NE(gate, nullptr);
    BufferPtr copy;
    ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), target, &copy, {gate.get()}));
    ASSERT_PJRTX_OK(DeleteBuffer(buffer.get()));
    buffer.reset();
    std::this_thread::sleep_for(kSettle);
    EXPECT_GE(InUse(device()), source_before + kBytes)
        << "the source was freed while a copy still had to read it";

    ASSERT_PJRTX_OK(SetEvent(gate.get()));
    ASSERT_PJRTX_OK(AwaitBufferReady(copy.get()));
    std::vector<uint8_t> read;
    ASSERT_PJRTX_OK(ToHost(copy.get(), &read));
    EXPECT_EQ(read, bytes);
    // Only the copy is left.
    const int64_t source_after =
        same_device ? source_before + kBytes : source_before;
    EXPECT_TRUE(PollUntil([&] { return InUse(device()) <= source_after; },
                          kAccountingDeadline))
        << "the source device still has " << InUse(device())
        << " bytes in use, not " << source_after << ", after the copy finished";

    copy.reset();
    EXPECT_TRUE(PollUntil([&] { return InUse(target) <= target_before; },
                          kAccountingDeadline))
        << "the target device still has " << InUse(target)
        << " bytes in use, not " << target_before
        << ", after the copy was destroyed";
  }
};

TEST_F(DeferredFreeTest, DeleteWaitsForAPendingTransferToHost) {
  const std::vector<uint8_t> bytes = PatternBytes(kBytes, 9);
  const int64_t before = InUse(device());
  BufferPtr buffer = MakeBuffer(bytes, device());
  ASSERT_NE(buffer, nullptr);
  EXPECT_GE(InUse(device()), before + kBytes);

  EventPtr gate = NewEvent();
  ASSERT_NE(gate, nullptr);
  auto dst = std::make_unique<std::vector<uint8_t>>(bytes.size());
  EventPtr transfer;
  ASSERT_PJRTX_OK(StartToHost(buffer.get(), dst->data(), dst->size(),
                              {gate.get()}, &transfer));
  ASSERT_PJRTX_OK(DeleteBuffer(buffer.get()));
  buffer.reset();
  std::this_thread::sleep_for(kSettle);
  EXPECT_GE(InUse(device()), before + kBytes)
      << "the memory was freed while a transfer still had to read it";

  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ScopedError done = AwaitEvent(transfer.get());
  if (!IsReady(transfer.get())) static_cast<void>(dst.release());
  ASSERT_PJRTX_OK(std::move(done));
  EXPECT_EQ(*dst, bytes);
  EXPECT_TRUE(
      PollUntil([&] { return InUse(device()) <= before; }, kAccountingDeadline))
      << "bytes in use stayed at " << InUse(device()) << ", not back to "
      << before << ", after the transfer finished";
}

TEST_F(DeferredFreeTest, DeleteWaitsForAPendingCopyToAnotherDevice) {
  PJRTX_Device* target = other_device();
  if (target == nullptr) GTEST_SKIP() << "needs two addressable devices";
  ExpectDeleteWaitsForCopyTo(target);
}

TEST_F(DeferredFreeTest, DeleteWaitsForAPendingCopyOnTheSameDevice) {
  // Here the copy's own allocation may hide an early free in the statistics;
  // the contents check (and a sanitizer) still catch a copy that read freed
  // memory.
  ExpectDeleteWaitsForCopyTo(device());
}

class TransferCounterTest : public BufferAsyncTest {
 protected:
  static constexpr int64_t kBytes = 64 * 1024;
};

TEST_F(TransferCounterTest, HostToDeviceCopiesAreCounted) {
  const auto before = TransferCounters(device());
  BufferPtr buffer = MakeBuffer(PatternBytes(kBytes), device());
  ASSERT_NE(buffer, nullptr);
  EXPECT_TRUE(PollUntil(
      [&] {
        return TransferCounters(device()).host_to_device_bytes >=
               before.host_to_device_bytes + kBytes;
      },
      kAccountingDeadline))
      << "host_to_device_bytes grew by "
      << TransferCounters(device()).host_to_device_bytes -
             before.host_to_device_bytes
      << ", expected at least " << kBytes;
  EXPECT_GE(TransferCounters(device()).host_to_device_ops,
            before.host_to_device_ops + 1);
}

TEST_F(TransferCounterTest, DeviceToHostCopiesAreCounted) {
  BufferPtr buffer = MakeBuffer(PatternBytes(kBytes), device());
  ASSERT_NE(buffer, nullptr);
  const auto before = TransferCounters(device());
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  PollUntil(
      [&] {
        return TransferCounters(device()).device_to_host_bytes >=
               before.device_to_host_bytes + kBytes;
      },
      kAccountingDeadline);
  const auto after = TransferCounters(device());
  EXPECT_EQ(after.device_to_host_bytes, before.device_to_host_bytes + kBytes);
  EXPECT_GE(after.device_to_host_ops, before.device_to_host_ops + 1);
}

TEST_F(TransferCounterTest, DeviceToDeviceCopiesAreCountedAtTheDestination) {
  PJRTX_Device* target = other_device();
  if (target == nullptr) GTEST_SKIP() << "needs two addressable devices";
  BufferPtr buffer = MakeBuffer(PatternBytes(kBytes), device());
  ASSERT_NE(buffer, nullptr);
  const auto source_before = TransferCounters(device());
  const auto target_before = TransferCounters(target);
  BufferPtr copy;
  ASSERT_PJRTX_OK(CopyToDevice(buffer.get(), target, &copy));
  ASSERT_PJRTX_OK(AwaitBufferReady(copy.get()));
  PollUntil(
      [&] {
        return TransferCounters(target).device_to_device_bytes >=
               target_before.device_to_device_bytes + kBytes;
      },
      kAccountingDeadline);
  const auto target_after = TransferCounters(target);
  EXPECT_EQ(target_after.device_to_device_bytes,
            target_before.device_to_device_bytes + kBytes);
  EXPECT_GE(target_after.device_to_device_ops,
            target_before.device_to_device_ops + 1);
  // Counted where the data arrives, not where it left.
  EXPECT_EQ(TransferCounters(device()).device_to_device_bytes,
            source_before.device_to_device_bytes);
}

}  // namespace
}  // namespace pjrtx::conformance
