// DLPack exchange (ABI 0.2), for plugins with the `dlpack` capability:
// export and import share memory, never copy, and keep it alive exactly as
// long as either side needs it.

#include <dlpack/dlpack.h>

#include <cstring>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

class DLPackTest : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (Api()->struct_size < PJRTX_Api_STRUCT_SIZE_0_2) {
      GTEST_SKIP() << "plugin implements ABI < 0.2 (no DLPack slots)";
    }
  }

  BufferPtr MakeF32(const std::vector<float>& values,
                    std::vector<int64_t> dims) {
    BufferPtr buffer;
    EXPECT_PJRTX_OK(BufferFromHost(
        client(),
        DenseSpec(values.data(), PJRTX_Buffer_Type_F32, dims, device()),
        &buffer));
    return buffer;
  }

  ScopedError Export(PJRTX_Buffer* buffer, DLManagedTensor** tensor,
                     EventPtr* ready) {
    auto args = ZeroedArgs<PJRTX_Buffer_ToDLPack_Args>(
        PJRTX_Buffer_ToDLPack_Args_STRUCT_SIZE);
    args.buffer = buffer;
    ScopedError error(Api()->Buffer_ToDLPack(&args));
    *tensor = args.dl_managed_tensor;
    ready->reset(args.ready_event);
    return error;
  }

  ScopedError Import(DLManagedTensor* tensor, BufferPtr* buffer) {
    auto args = ZeroedArgs<PJRTX_Client_BufferFromDLPack_Args>(
        PJRTX_Client_BufferFromDLPack_Args_STRUCT_SIZE);
    args.client = client();
    args.dl_managed_tensor = tensor;
    args.device = device();
    ScopedError error(Api()->Client_BufferFromDLPack(&args));
    buffer->reset(args.buffer);
    return error;
  }

  // Sum of every byte counter of every addressable device.
  int64_t BytesMoved() {
    int64_t total = 0;
    for (PJRTX_Device* d : addressable_devices()) {
      auto c = TransferCounters(d);
      total += c.host_to_device_bytes + c.device_to_host_bytes +
               c.device_to_device_bytes + c.staging_bytes;
    }
    return total;
  }
};

TEST_F(DLPackTest, WithoutCapabilityExportIsUnimplemented) {
  if (HasCapability("dlpack")) GTEST_SKIP() << "plugin has dlpack";
  BufferPtr buffer = MakeF32({1, 2, 3, 4}, {4});
  ASSERT_NE(buffer, nullptr);
  DLManagedTensor* tensor = nullptr;
  EventPtr ready;
  EXPECT_TRUE(IsError(Export(buffer.get(), &tensor, &ready),
                      PJRTX_Error_Code_UNIMPLEMENTED));
  EXPECT_EQ(tensor, nullptr);
}

TEST_F(DLPackTest, ExportDescribesTheBufferAndSharesItsMemory) {
  if (!HasCapability("dlpack")) GTEST_SKIP() << "no dlpack capability";
  std::vector<float> values(32);
  for (size_t i = 0; i < values.size(); ++i) values[i] = 0.5f * i;
  BufferPtr buffer = MakeF32(values, {4, 8});
  ASSERT_NE(buffer, nullptr);
  ASSERT_PJRTX_OK(AwaitBufferReady(buffer.get()));
  const int64_t moved_before = BytesMoved();

  DLManagedTensor* tensor = nullptr;
  EventPtr ready;
  ASSERT_PJRTX_OK(Export(buffer.get(), &tensor, &ready));
  ASSERT_NE(tensor, nullptr);
  ASSERT_PJRTX_OK(AwaitEvent(ready.get()));
  const DLTensor& t = tensor->dl_tensor;
  EXPECT_EQ(t.ndim, 2);
  EXPECT_EQ(t.shape[0], 4);
  EXPECT_EQ(t.shape[1], 8);
  EXPECT_EQ(t.dtype.code, kDLFloat);
  EXPECT_EQ(t.dtype.bits, 32);
  EXPECT_EQ(t.dtype.lanes, 1);
  ASSERT_NE(t.data, nullptr);
  if (t.device.device_type == kDLCPU) {
    EXPECT_EQ(std::memcmp(static_cast<char*>(t.data) + t.byte_offset,
                          values.data(), values.size() * sizeof(float)),
              0);
  }
  // Exporting twice gives the same memory: nothing was copied.
  DLManagedTensor* again = nullptr;
  EventPtr ready_again;
  ASSERT_PJRTX_OK(Export(buffer.get(), &again, &ready_again));
  EXPECT_EQ(again->dl_tensor.data, t.data);
  EXPECT_EQ(BytesMoved(), moved_before);
  again->deleter(again);
  tensor->deleter(tensor);
}

TEST_F(DLPackTest, ExportKeepsMemoryAliveAfterDeleteUntilTheDeleterRuns) {
  if (!HasCapability("dlpack")) GTEST_SKIP() << "no dlpack capability";
  const int64_t before = MemoryStats(device()).bytes_in_use;
  std::vector<float> values(1 << 18, 3.0f);  // 1 MiB.
  BufferPtr buffer = MakeF32(values, {1 << 18});
  ASSERT_NE(buffer, nullptr);
  DLManagedTensor* tensor = nullptr;
  EventPtr ready;
  ASSERT_PJRTX_OK(Export(buffer.get(), &tensor, &ready));
  ASSERT_PJRTX_OK(AwaitEvent(ready.get()));
  ASSERT_PJRTX_OK(DeleteBuffer(buffer.get()));
  buffer.reset();
  EXPECT_GE(MemoryStats(device()).bytes_in_use, before + (1 << 20))
      << "memory freed while an exported tensor still points at it";
  if (tensor->dl_tensor.device.device_type == kDLCPU) {
    EXPECT_EQ(static_cast<float*>(tensor->dl_tensor.data)[12345], 3.0f);
  }
  tensor->deleter(tensor);
  EXPECT_TRUE(
      PollUntil([&] { return MemoryStats(device()).bytes_in_use <= before; }));
}

TEST_F(DLPackTest, PredicatesHaveNoDLPackForm) {
  if (!HasCapability("dlpack")) GTEST_SKIP() << "no dlpack capability";
  const uint8_t bits[4] = {1, 0, 1, 1};
  BufferPtr buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(bits, PJRTX_Buffer_Type_PRED, {4}, device()),
      &buffer));
  DLManagedTensor* tensor = nullptr;
  EventPtr ready;
  EXPECT_TRUE(IsError(Export(buffer.get(), &tensor, &ready),
                      PJRTX_Error_Code_UNIMPLEMENTED, {"PRED"}));
}

// A host tensor made by the test, recording its deleter calls.
struct HostTensor {
  std::vector<double> data;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  DLManagedTensor managed{};
  int deleter_calls = 0;

  HostTensor(std::vector<int64_t> dims, bool transposed_strides) {
    shape = dims;
    int64_t n = 1;
    for (int64_t d : dims) n *= d;
    data.resize(n);
    for (int64_t i = 0; i < n; ++i) data[i] = 1.25 * i - 7;
    DLTensor& t = managed.dl_tensor;
    t.data = data.data();
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int>(shape.size());
    t.dtype = DLDataType{kDLFloat, 64, 1};
    t.shape = shape.data();
    if (transposed_strides) {
      strides = {1, shape[0]};
      t.strides = strides.data();
    }
    managed.manager_ctx = this;
    managed.deleter = [](DLManagedTensor* self) {
      ++static_cast<HostTensor*>(self->manager_ctx)->deleter_calls;
    };
  }
};

TEST_F(DLPackTest, ImportWrapsHostTensorWithoutCopyAndCallsDeleterOnce) {
  if (!HasCapability("dlpack")) GTEST_SKIP() << "no dlpack capability";
  // Learn where this device's memory lives in DLPack terms.
  BufferPtr probe = MakeF32({0}, {1});
  DLManagedTensor* probe_tensor = nullptr;
  EventPtr probe_ready;
  ASSERT_PJRTX_OK(Export(probe.get(), &probe_tensor, &probe_ready));
  const bool host_memory = probe_tensor->dl_tensor.device.device_type == kDLCPU;
  probe_tensor->deleter(probe_tensor);
  HostTensor host({3, 5}, /*transposed_strides=*/false);
  const int64_t moved_before = BytesMoved();
  BufferPtr buffer;
  ScopedError imported = Import(&host.managed, &buffer);
  if (!host_memory) {
    EXPECT_TRUE(IsError(imported, PJRTX_Error_Code_INVALID_ARGUMENT));
    EXPECT_EQ(host.deleter_calls, 0) << "a failed import consumed the tensor";
    return;
  }
  ASSERT_PJRTX_OK(std::move(imported));
  EXPECT_EQ(BufferElementType(buffer.get()), PJRTX_Buffer_Type_F64);
  EXPECT_EQ(BufferDims(buffer.get()), (std::vector<int64_t>{3, 5}));
  EXPECT_EQ(BytesMoved(), moved_before) << "the import copied";
  // The buffer is the tensor's memory: exporting it gives the same pointer.
  DLManagedTensor* out = nullptr;
  EventPtr ready;
  ASSERT_PJRTX_OK(Export(buffer.get(), &out, &ready));
  EXPECT_EQ(out->dl_tensor.data, host.data.data());
  out->deleter(out);
  std::vector<uint8_t> read;
  ASSERT_PJRTX_OK(ToHost(buffer.get(), &read));
  ASSERT_EQ(read.size(), host.data.size() * sizeof(double));
  EXPECT_EQ(std::memcmp(read.data(), host.data.data(), read.size()), 0);
  EXPECT_EQ(host.deleter_calls, 0);
  buffer.reset();
  EXPECT_TRUE(PollUntil([&] { return host.deleter_calls == 1; }));
  EXPECT_EQ(host.deleter_calls, 1);
}

TEST_F(DLPackTest, ImportRejectsNonContiguousStridesAndKeepsTheTensor) {
  if (!HasCapability("dlpack")) GTEST_SKIP() << "no dlpack capability";
  HostTensor host({3, 5}, /*transposed_strides=*/true);
  BufferPtr buffer;
  EXPECT_TRUE(IsError(Import(&host.managed, &buffer),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"stride"}));
  EXPECT_EQ(buffer, nullptr);
  EXPECT_EQ(host.deleter_calls, 0);
}

}  // namespace
}  // namespace pjrtx::conformance
