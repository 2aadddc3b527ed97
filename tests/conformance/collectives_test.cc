// Communicators (ABI 0.4), for plugins with the `collectives` capability:
// every kind of collective against values computed here, asynchrony (wait
// events, outputs defined by the events), donation, argument checks,
// destruction with operations in flight and the ICI bytes a ring moves.
// Plugins without the capability must answer UNIMPLEMENTED.

#include <algorithm>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gtest/gtest.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

struct CommunicatorDeleter {
  void operator()(PJRTX_Communicator* communicator) const {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Communicator_Destroy_Args);
    args.communicator = communicator;
    EXPECT_PJRTX_OK(Api()->Communicator_Destroy(&args));
  }
};
using CommunicatorPtr =
    std::unique_ptr<PJRTX_Communicator, CommunicatorDeleter>;

ScopedError CreateCommunicator(PJRTX_Client* client,
                               const std::vector<int64_t>& ids,
                               CommunicatorPtr* communicator,
                               std::vector<int64_t>* local_ranks = nullptr) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_CreateCommunicator_Args);
  args.client = client;
  args.device_ids = ids.data();
  args.num_devices = ids.size();
  args.timeout_in_ms = 10'000;
  ScopedError error(Api()->Client_CreateCommunicator(&args));
  communicator->reset(args.communicator);
  if (local_ranks != nullptr) {
    local_ranks->assign(args.local_ranks,
                        args.local_ranks + args.num_local_ranks);
  }
  return error;
}

// One Communicator_Collective call and what it returned.
struct Call {
  // Ints, stored into the argument struct byte-wise, so that a test can
  // pass values outside the enums as a C caller could (holding them in the
  // C++ enum types would be undefined).
  int kind = PJRTX_Collective_ALL_REDUCE;
  int op = PJRTX_ReduceOp_SUM;
  int64_t root = 0;
  std::vector<int64_t> send_to;
  std::vector<int64_t> recv_from;
  std::vector<PJRTX_Buffer*> inputs;
  std::vector<bool> donate;  // Empty: none.
  std::vector<PJRTX_Event*> wait_events;
  int algorithm = PJRTX_CollectiveAlgorithm_AUTO;
  // Out.
  std::vector<BufferPtr> outputs;
  std::vector<EventPtr> events;
};

ScopedError RunCollective(PJRTX_Communicator* communicator, Call& call,
                          size_t num_inputs_override = SIZE_MAX) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Communicator_Collective_Args);
  args.communicator = communicator;
  std::memcpy(&args.kind, &call.kind, sizeof(int));
  std::memcpy(&args.reduce_op, &call.op, sizeof(int));
  args.root = call.root;
  args.send_to = call.send_to.empty() ? nullptr : call.send_to.data();
  args.recv_from = call.recv_from.empty() ? nullptr : call.recv_from.data();
  args.inputs = call.inputs.data();
  args.num_inputs = num_inputs_override == SIZE_MAX ? call.inputs.size()
                                                    : num_inputs_override;
  std::unique_ptr<bool[]> donate(new bool[call.inputs.size() + 1]());
  for (size_t i = 0; i < call.donate.size(); ++i) donate[i] = call.donate[i];
  args.donate_inputs = call.donate.empty() ? nullptr : donate.get();
  args.wait_events = call.wait_events.data();
  args.num_wait_events = call.wait_events.size();
  std::memcpy(&args.algorithm, &call.algorithm, sizeof(int));
  std::vector<PJRTX_Buffer*> outputs(call.inputs.size() + 1, nullptr);
  std::vector<PJRTX_Event*> events(call.inputs.size() + 1, nullptr);
  args.outputs = outputs.data();
  args.events = events.data();
  ScopedError error(Api()->Communicator_Collective(&args));
  call.outputs.clear();
  call.events.clear();
  if (error.ok()) {
    for (size_t i = 0; i < call.inputs.size(); ++i) {
      call.outputs.emplace_back(outputs[i]);
      call.events.emplace_back(events[i]);
    }
  }
  return error;
}

template <typename T>
std::vector<T> Read(PJRTX_Buffer* buffer) {
  std::vector<uint8_t> bytes;
  EXPECT_PJRTX_OK(ToHost(buffer, &bytes));
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

uint16_t ToBf16(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);  // Exact for the values used.
}
float FromBf16(uint16_t value) {
  uint32_t bits = uint32_t{value} << 16;
  float result;
  std::memcpy(&result, &bits, sizeof(result));
  return result;
}

class CollectivesTest : public ClientTest {
 protected:
  void SetUp() override {
    ClientTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (Api()->struct_size < PJRTX_Api_STRUCT_SIZE_0_4) {
      GTEST_SKIP() << "plugin implements ABI < 0.4 (no communicators)";
    }
    if (!HasCapability("collectives")) {
      GTEST_SKIP() << "no collectives capability";
    }
    if (addressable_devices().size() < 2) {
      GTEST_SKIP() << "needs at least 2 addressable devices, the plugin has "
                   << addressable_devices().size();
    }
    for (PJRTX_Device* device : addressable_devices()) {
      ids_.push_back(DeviceId(device));
    }
    ASSERT_PJRTX_OK(
        CreateCommunicator(client(), ids_, &communicator_, &local_ranks_));
    ASSERT_EQ(local_ranks_.size(), ids_.size());
    for (size_t r = 0; r < local_ranks_.size(); ++r) {
      EXPECT_EQ(local_ranks_[r], static_cast<int64_t>(r));
    }
  }

  size_t size() const { return ids_.size(); }

  template <typename T>
  BufferPtr Make(const std::vector<T>& values, PJRTX_Buffer_Type type,
                 size_t rank, std::vector<int64_t> dims = {}) {
    if (dims.empty()) dims = {static_cast<int64_t>(values.size())};
    BufferPtr buffer;
    EXPECT_PJRTX_OK(BufferFromHost(
        client(),
        DenseSpec(values.data(), type, dims, addressable_devices()[rank]),
        &buffer));
    return buffer;
  }

  // Rank r's f32 input: n values r * 100 + i.
  std::vector<float> F32Input(size_t rank, size_t n) {
    std::vector<float> values(n);
    for (size_t i = 0; i < n; ++i) values[i] = rank * 100.0f + i;
    return values;
  }

  // Inputs of F32Input for every rank, owned by `owned`.
  std::vector<PJRTX_Buffer*> F32Inputs(size_t n,
                                       std::vector<BufferPtr>* owned) {
    std::vector<PJRTX_Buffer*> inputs;
    for (size_t r = 0; r < size(); ++r) {
      owned->push_back(Make(F32Input(r, n), PJRTX_Buffer_Type_F32, r));
      inputs.push_back(owned->back().get());
    }
    return inputs;
  }

  void ExpectAllOk(Call& call) {
    ASSERT_EQ(call.events.size(), size());
    for (size_t r = 0; r < size(); ++r) {
      EXPECT_TRUE(IsOk(AwaitEvent(call.events[r].get()))) << "rank " << r;
    }
  }

  std::vector<int64_t> ids_;
  std::vector<int64_t> local_ranks_;
  CommunicatorPtr communicator_;
};

TEST_F(CollectivesTest, AllReduceSumF32EveryAlgorithm) {
  for (PJRTX_CollectiveAlgorithm algorithm :
       {PJRTX_CollectiveAlgorithm_AUTO, PJRTX_CollectiveAlgorithm_RING,
        PJRTX_CollectiveAlgorithm_HALVING_DOUBLING,
        PJRTX_CollectiveAlgorithm_HIERARCHICAL}) {
    SCOPED_TRACE(algorithm);
    std::vector<BufferPtr> owned;
    Call call;
    call.inputs = F32Inputs(12, &owned);
    call.algorithm = algorithm;
    ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
    ExpectAllOk(call);
    for (size_t r = 0; r < size(); ++r) {
      EXPECT_EQ(BufferDevice(call.outputs[r].get()), addressable_devices()[r]);
      std::vector<float> got = Read<float>(call.outputs[r].get());
      ASSERT_EQ(got.size(), 12u);
      for (size_t i = 0; i < 12; ++i) {
        float expected = 0;
        for (size_t q = 0; q < size(); ++q) expected += F32Input(q, 12)[i];
        EXPECT_EQ(got[i], expected) << "rank " << r << " element " << i;
      }
    }
  }
}

TEST_F(CollectivesTest, AllReduceS32EveryOp) {
  const std::vector<std::pair<PJRTX_ReduceOp, int32_t (*)(int32_t, int32_t)>>
      ops = {
          {PJRTX_ReduceOp_SUM, [](int32_t a, int32_t b) { return a + b; }},
          {PJRTX_ReduceOp_PRODUCT, [](int32_t a, int32_t b) { return a * b; }},
          {PJRTX_ReduceOp_MIN,
           [](int32_t a, int32_t b) { return std::min(a, b); }},
          {PJRTX_ReduceOp_MAX,
           [](int32_t a, int32_t b) { return std::max(a, b); }}};
  auto input = [](size_t rank) {
    return std::vector<int32_t>{static_cast<int32_t>(rank) + 1,
                                -static_cast<int32_t>(rank) * 3, 7,
                                static_cast<int32_t>(rank % 2) - 2};
  };
  for (const auto& [op, fn] : ops) {
    SCOPED_TRACE(op);
    std::vector<BufferPtr> owned;
    Call call;
    call.op = op;
    for (size_t r = 0; r < size(); ++r) {
      owned.push_back(Make(input(r), PJRTX_Buffer_Type_S32, r));
      call.inputs.push_back(owned.back().get());
    }
    ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
    ExpectAllOk(call);
    std::vector<int32_t> expected = input(0);
    for (size_t q = 1; q < size(); ++q) {
      for (size_t i = 0; i < expected.size(); ++i) {
        expected[i] = fn(expected[i], input(q)[i]);
      }
    }
    for (size_t r = 0; r < size(); ++r) {
      EXPECT_EQ(Read<int32_t>(call.outputs[r].get()), expected) << r;
    }
  }
}

TEST_F(CollectivesTest, AllReduceBf16EveryOp) {
  // Powers of two, -1 and small integers: every sum, product, min and max
  // over up to 8 ranks is exact in bf16, whatever the reduction order.
  auto input = [](size_t rank) {
    return std::vector<float>{rank % 3 == 0 ? 1.0f : 2.0f, 0.5f,
                              -static_cast<float>(rank % 4),
                              rank % 2 == 0 ? 2.0f : -1.0f};
  };
  for (PJRTX_ReduceOp op : {PJRTX_ReduceOp_SUM, PJRTX_ReduceOp_PRODUCT,
                            PJRTX_ReduceOp_MIN, PJRTX_ReduceOp_MAX}) {
    SCOPED_TRACE(op);
    std::vector<BufferPtr> owned;
    Call call;
    call.op = op;
    for (size_t r = 0; r < size(); ++r) {
      std::vector<uint16_t> bits;
      for (float v : input(r)) bits.push_back(ToBf16(v));
      owned.push_back(Make(bits, PJRTX_Buffer_Type_BF16, r));
      call.inputs.push_back(owned.back().get());
    }
    ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
    ExpectAllOk(call);
    std::vector<float> expected = input(0);
    for (size_t q = 1; q < size(); ++q) {
      for (size_t i = 0; i < expected.size(); ++i) {
        const float v = input(q)[i];
        switch (op) {
          case PJRTX_ReduceOp_SUM:
            expected[i] += v;
            break;
          case PJRTX_ReduceOp_PRODUCT:
            expected[i] *= v;
            break;
          case PJRTX_ReduceOp_MIN:
            expected[i] = std::min(expected[i], v);
            break;
          case PJRTX_ReduceOp_MAX:
            expected[i] = std::max(expected[i], v);
            break;
        }
      }
    }
    for (size_t r = 0; r < size(); ++r) {
      std::vector<uint16_t> got = Read<uint16_t>(call.outputs[r].get());
      ASSERT_EQ(got.size(), expected.size());
      for (size_t i = 0; i < got.size(); ++i) {
        EXPECT_EQ(FromBf16(got[i]), expected[i]) << "rank " << r << " " << i;
      }
    }
  }
}

TEST_F(CollectivesTest, ComplexBuffersReduceBySum) {
  // Small integers in both parts: every sum is exact in any order.
  const size_t n = 2 * size();
  auto input = [n](size_t rank) {
    std::vector<std::complex<float>> values;
    for (size_t i = 0; i < n; ++i) {
      values.emplace_back(static_cast<float>(rank + i),
                          static_cast<float>(i % 3) - static_cast<float>(rank));
    }
    return values;
  };
  auto expected_sum = [&](size_t i) {
    std::complex<float> sum;
    for (size_t q = 0; q < size(); ++q) sum += input(q)[i];
    return sum;
  };
  // Every rank's output, read back, when `call` runs on complex inputs.
  std::vector<BufferPtr> owned;
  std::vector<PJRTX_Buffer*> inputs;
  for (size_t r = 0; r < size(); ++r) {
    owned.push_back(Make(input(r), PJRTX_Buffer_Type_C64, r));
    inputs.push_back(owned.back().get());
  }
  auto run = [&](Call& call) {
    call.inputs = inputs;
    std::vector<std::vector<std::complex<float>>> outputs;
    EXPECT_PJRTX_OK(RunCollective(communicator_.get(), call));
    ExpectAllOk(call);
    for (size_t r = 0; r < call.outputs.size(); ++r) {
      EXPECT_EQ(BufferElementType(call.outputs[r].get()),
                PJRTX_Buffer_Type_C64);
      outputs.push_back(Read<std::complex<float>>(call.outputs[r].get()));
    }
    return outputs;
  };
  for (PJRTX_CollectiveAlgorithm algorithm :
       {PJRTX_CollectiveAlgorithm_RING,
        PJRTX_CollectiveAlgorithm_HALVING_DOUBLING}) {
    SCOPED_TRACE(algorithm);
    Call call;
    call.algorithm = algorithm;
    const auto outputs = run(call);
    ASSERT_EQ(outputs.size(), size());
    for (size_t r = 0; r < size(); ++r) {
      ASSERT_EQ(outputs[r].size(), n);
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(outputs[r][i], expected_sum(i)) << "rank " << r << " " << i;
      }
    }
  }
  // Reduce-scatter: each rank's block of the sum, as complex values.
  Call call;
  call.kind = PJRTX_Collective_REDUCE_SCATTER;
  const auto outputs = run(call);
  ASSERT_EQ(outputs.size(), size());
  for (size_t r = 0; r < size(); ++r) {
    ASSERT_EQ(outputs[r].size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      EXPECT_EQ(outputs[r][i], expected_sum(r * 2 + i)) << "rank " << r;
    }
  }
  // A product of complex numbers is not one of their parts: unsupported,
  // and said so before anything moves.
  Call product;
  product.op = PJRTX_ReduceOp_PRODUCT;
  product.inputs = inputs;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), product),
                      PJRTX_Error_Code_UNIMPLEMENTED, {"C64", "sum"}));
}

TEST_F(CollectivesTest, ReduceScatterF32) {
  const size_t n = 2 * size();
  std::vector<BufferPtr> owned;
  Call call;
  call.kind = PJRTX_Collective_REDUCE_SCATTER;
  call.inputs = F32Inputs(n, &owned);
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_EQ(BufferDims(call.outputs[r].get()), std::vector<int64_t>{2});
    std::vector<float> got = Read<float>(call.outputs[r].get());
    ASSERT_EQ(got.size(), 2u);
    for (size_t i = 0; i < 2; ++i) {
      float expected = 0;
      for (size_t q = 0; q < size(); ++q) {
        expected += F32Input(q, n)[r * 2 + i];
      }
      EXPECT_EQ(got[i], expected) << "rank " << r << " element " << i;
    }
  }
}

TEST_F(CollectivesTest, AllGatherF32) {
  std::vector<BufferPtr> owned;
  Call call;
  call.kind = PJRTX_Collective_ALL_GATHER;
  for (size_t r = 0; r < size(); ++r) {
    owned.push_back(Make(F32Input(r, 6), PJRTX_Buffer_Type_F32, r, {3, 2}));
    call.inputs.push_back(owned.back().get());
  }
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  std::vector<float> expected;
  for (size_t q = 0; q < size(); ++q) {
    std::vector<float> block = F32Input(q, 6);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_EQ(BufferDims(call.outputs[r].get()),
              (std::vector<int64_t>{static_cast<int64_t>(3 * size()), 2}));
    EXPECT_EQ(Read<float>(call.outputs[r].get()), expected) << r;
  }
}

TEST_F(CollectivesTest, BroadcastF32) {
  std::vector<BufferPtr> owned;
  Call call;
  call.kind = PJRTX_Collective_BROADCAST;
  call.root = static_cast<int64_t>(size()) - 1;
  call.inputs = F32Inputs(5, &owned);
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_EQ(Read<float>(call.outputs[r].get()), F32Input(size() - 1, 5)) << r;
  }
}

TEST_F(CollectivesTest, AllToAllF32) {
  const size_t block = 3;
  const size_t n = block * size();
  std::vector<BufferPtr> owned;
  Call call;
  call.kind = PJRTX_Collective_ALL_TO_ALL;
  call.inputs = F32Inputs(n, &owned);
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  for (size_t r = 0; r < size(); ++r) {
    std::vector<float> expected;
    for (size_t q = 0; q < size(); ++q) {
      std::vector<float> input = F32Input(q, n);
      // Block r of rank q becomes block q of rank r.
      expected.insert(expected.end(), input.begin() + r * block,
                      input.begin() + (r + 1) * block);
    }
    EXPECT_EQ(Read<float>(call.outputs[r].get()), expected) << r;
  }
}

TEST_F(CollectivesTest, SendRecvShiftWithOneRankIdle) {
  // 0 -> 1 -> ... -> size-1; rank 0 receives nothing.
  std::vector<BufferPtr> owned;
  Call call;
  call.kind = PJRTX_Collective_SEND_RECV;
  call.inputs = F32Inputs(4, &owned);
  for (size_t r = 0; r < size(); ++r) {
    call.send_to.push_back(r + 1 < size() ? static_cast<int64_t>(r + 1) : -1);
    call.recv_from.push_back(static_cast<int64_t>(r) - 1);
  }
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  EXPECT_EQ(call.outputs[0], nullptr);
  for (size_t r = 1; r < size(); ++r) {
    EXPECT_EQ(Read<float>(call.outputs[r].get()), F32Input(r - 1, 4)) << r;
  }
}

TEST_F(CollectivesTest, WaitEventsAreHonouredAndDefineOutputs) {
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  call.wait_events = {gate.get()};
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));  // Does not block.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_FALSE(IsReady(call.events[r].get())) << r;
  }
  // Readers of an output wait for its definition, not the host.
  std::vector<float> host(8);
  EventPtr read;
  ASSERT_PJRTX_OK(StartToHost(call.outputs[0].get(), host.data(),
                              host.size() * sizeof(float), {}, &read));
  EXPECT_FALSE(IsReady(read.get()));
  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ExpectAllOk(call);
  ASSERT_TRUE(IsOk(AwaitEvent(read.get())));
  for (size_t i = 0; i < 8; ++i) {
    float expected = 0;
    for (size_t q = 0; q < size(); ++q) expected += F32Input(q, 8)[i];
    EXPECT_EQ(host[i], expected) << i;
  }
}

TEST_F(CollectivesTest, FailedWaitEventFailsEveryRank) {
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  call.wait_events = {gate.get()};
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ASSERT_PJRTX_OK(SetEvent(gate.get(), PJRTX_Error_Code_ABORTED, "gate"));
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_TRUE(IsError(AwaitEvent(call.events[r].get()),
                        PJRTX_Error_Code_ABORTED, {"gate"}))
        << r;
  }
  // The communicator still works afterwards.
  Call next;
  next.inputs = call.inputs;
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), next));
  ExpectAllOk(next);
}

TEST_F(CollectivesTest, DonatedInputsAreDeleted) {
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  call.donate.assign(size(), true);
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_TRUE(IsDeleted(owned[r].get())) << r;
    std::vector<float> got = Read<float>(call.outputs[r].get());
    float expected = 0;
    for (size_t q = 0; q < size(); ++q) expected += F32Input(q, 8)[3];
    ASSERT_EQ(got.size(), 8u);
    EXPECT_EQ(got[3], expected);
  }
}

TEST_F(CollectivesTest, IndivisibleDimensionIsInvalidArgument) {
  const int64_t n = static_cast<int64_t>(size()) + 1;
  for (PJRTX_CollectiveKind kind :
       {PJRTX_Collective_REDUCE_SCATTER, PJRTX_Collective_ALL_TO_ALL}) {
    std::vector<BufferPtr> owned;
    Call call;
    call.kind = kind;
    call.inputs = F32Inputs(n, &owned);
    EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                        PJRTX_Error_Code_INVALID_ARGUMENT,
                        {std::to_string(n), std::to_string(size())}));
  }
}

TEST_F(CollectivesTest, MismatchedShapesOrTypesAreInvalidArgument) {
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  BufferPtr shorter = Make(F32Input(1, 4), PJRTX_Buffer_Type_F32, 1);
  call.inputs[1] = shorter.get();
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"F32[4]", "F32[8]"}));
  std::vector<int32_t> ints(8, 1);
  BufferPtr other_type = Make(ints, PJRTX_Buffer_Type_S32, 1);
  call.inputs[1] = other_type.get();
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"S32[8]", "F32[8]"}));
}

TEST_F(CollectivesTest, UnknownOrRepeatedDeviceIdIsInvalidArgument) {
  CommunicatorPtr other;
  std::vector<int64_t> unknown = {ids_[0], 987654};
  EXPECT_TRUE(IsError(CreateCommunicator(client(), unknown, &other),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"987654"}));
  EXPECT_EQ(other, nullptr);
  std::vector<int64_t> repeated = {ids_[0], ids_[1], ids_[0]};
  EXPECT_TRUE(IsError(CreateCommunicator(client(), repeated, &other),
                      PJRTX_Error_Code_INVALID_ARGUMENT,
                      {std::to_string(ids_[0]), "twice"}));
  EXPECT_EQ(other, nullptr);
}

TEST_F(CollectivesTest, WrongNumberOfInputsIsInvalidArgument) {
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call, size() - 1),
                      PJRTX_Error_Code_INVALID_ARGUMENT,
                      {std::to_string(size() - 1), std::to_string(size())}));
}

TEST_F(CollectivesTest, BadEnumValuesAndPeersAreInvalidArgument) {
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  call.kind = 17;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"kind", "17"}));
  call.kind = PJRTX_Collective_ALL_REDUCE;
  call.op = 9;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"reduce_op", "9"}));
  call.op = PJRTX_ReduceOp_SUM;
  call.algorithm = 7;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"algorithm", "7"}));
  call.algorithm = PJRTX_CollectiveAlgorithm_AUTO;
  call.kind = PJRTX_Collective_BROADCAST;
  call.root = static_cast<int64_t>(size());
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT,
                      {"root", std::to_string(size())}));
  call.kind = PJRTX_Collective_SEND_RECV;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"send_to"}));
}

TEST_F(CollectivesTest, NullHandles) {
  auto create = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_CreateCommunicator_Args);
  create.device_ids = ids_.data();
  create.num_devices = ids_.size();
  EXPECT_TRUE(IsError(ScopedError(Api()->Client_CreateCommunicator(&create)),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"client"}));
  Call call;
  std::vector<BufferPtr> owned;
  call.inputs = F32Inputs(8, &owned);
  EXPECT_TRUE(IsError(RunCollective(nullptr, call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"communicator"}));
  call.inputs[0] = nullptr;
  EXPECT_TRUE(IsError(RunCollective(communicator_.get(), call),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"inputs[0]"}));
  auto destroy = PJRTX_CONFORMANCE_ARGS(PJRTX_Communicator_Destroy_Args);
  EXPECT_PJRTX_OK(Api()->Communicator_Destroy(&destroy));
}

TEST_F(CollectivesTest, DestroyWaitsForOperationsInFlight) {
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(8, &owned);
  call.wait_events = {gate.get()};
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_PJRTX_OK(SetEvent(gate.get()));
  });
  communicator_.reset();  // Waits for the operation.
  for (size_t r = 0; r < size(); ++r) {
    EXPECT_TRUE(IsReady(call.events[r].get())) << r;
  }
  opener.join();
  ExpectAllOk(call);
}

TEST_F(CollectivesTest, OneRankOperationsCompleteAwaitedOrNot) {
  // A plugin may run an operation on the thread that awaits it; the
  // operations nobody awaits (their events only polled) must complete all
  // the same, whether they follow awaited ones or not, and so must one
  // that a thread awaits before its wait event is set.
  CommunicatorPtr single;
  ASSERT_PJRTX_OK(CreateCommunicator(client(), {ids_[0]}, &single));
  BufferPtr input = Make(F32Input(0, 8), PJRTX_Buffer_Type_F32, 0);
  auto await = [](PJRTX_Event* event) {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Await_Args);
    args.event = event;
    return ScopedError(Api()->Event_Await(&args));
  };
  for (int round = 0; round < 9; ++round) {
    Call call;
    call.inputs = {input.get()};
    EventPtr gate;
    if (round % 3 == 2) {
      ASSERT_PJRTX_OK(CreateEvent(&gate));
      call.wait_events = {gate.get()};
    }
    ASSERT_PJRTX_OK(RunCollective(single.get(), call));
    switch (round % 3) {
      case 0:
        EXPECT_PJRTX_OK(await(call.events[0].get())) << round;
        break;
      case 1:
        EXPECT_TRUE(IsOk(AwaitEvent(call.events[0].get()))) << round;
        break;
      case 2: {
        std::thread waiter(
            [&] { EXPECT_PJRTX_OK(await(call.events[0].get())) << round; });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_FALSE(IsReady(call.events[0].get())) << round;
        ASSERT_PJRTX_OK(SetEvent(gate.get()));
        waiter.join();
        break;
      }
    }
    EXPECT_EQ(Read<float>(call.outputs[0].get()), F32Input(0, 8)) << round;
  }
}

TEST_F(CollectivesTest, RingAllReduceCountsIciBytes) {
  // M bytes over p chips: a ring sends 2 * (p-1)/p * M from every chip.
  const size_t n = 1024 * size();
  const int64_t m = static_cast<int64_t>(n * sizeof(float));
  std::vector<BufferPtr> owned;
  Call call;
  call.inputs = F32Inputs(n, &owned);
  for (PJRTX_Buffer* input : call.inputs)
    ASSERT_PJRTX_OK(AwaitBufferReady(input));
  std::vector<PJRTX_Device_TransferCounters_Args> before;
  for (size_t r = 0; r < size(); ++r) {
    before.push_back(TransferCounters(addressable_devices()[r]));
  }
  call.algorithm = PJRTX_CollectiveAlgorithm_RING;
  ASSERT_PJRTX_OK(RunCollective(communicator_.get(), call));
  ExpectAllOk(call);
  const int64_t p = static_cast<int64_t>(size());
  for (size_t r = 0; r < size(); ++r) {
    PJRTX_Device_TransferCounters_Args after =
        TransferCounters(addressable_devices()[r]);
    EXPECT_EQ(after.device_to_device_bytes - before[r].device_to_device_bytes,
              2 * (p - 1) * m / p)
        << "rank " << r;
    EXPECT_GT(after.device_to_device_ops, before[r].device_to_device_ops);
    EXPECT_EQ(after.dcn_sent_bytes, before[r].dcn_sent_bytes);
  }
}

// Plugins without the capability answer UNIMPLEMENTED.
class CollectivesUnsupportedTest : public ClientTest {};

TEST_F(CollectivesUnsupportedTest,
       CreateCommunicatorWithoutCollectivesIsUnimplemented) {
  if (Api()->struct_size < PJRTX_Api_STRUCT_SIZE_0_4) {
    GTEST_SKIP() << "plugin implements ABI < 0.4 (no communicators)";
  }
  if (HasCapability("collectives")) {
    GTEST_SKIP() << "plugin has the collectives capability";
  }
  std::vector<int64_t> ids = {DeviceId(device())};
  CommunicatorPtr communicator;
  EXPECT_TRUE(IsError(CreateCommunicator(client(), ids, &communicator),
                      PJRTX_Error_Code_UNIMPLEMENTED, {"collectives"}));
  EXPECT_EQ(communicator, nullptr);
}

}  // namespace
}  // namespace pjrtx::conformance
