// Collectives inside programs, for plugins with both the `execute` and the
// `collectives` capabilities: a program's all_reduce over two devices,
// replica ids, programs of two executables meeting on a channel under one
// launch id (MPMD), and a launch whose process count does not match its
// device assignment.

#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "execute_fixture.h"
#include "gtest/gtest.h"
#include "named_value_list.h"

namespace pjrtx::conformance {
namespace {

// Sums x over the launch's replicas and returns it with the replica id.
constexpr char kAllReduce[] = R"(
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<ui32>) {
  %sum = "stablehlo.all_reduce"(%x) ({
    ^bb0(%a: tensor<f32>, %b: tensor<f32>):
      %s = stablehlo.add %a, %b : tensor<f32>
      stablehlo.return %s : tensor<f32>
  }) {replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}
      : (tensor<4xf32>) -> tensor<4xf32>
  %id = stablehlo.replica_id : tensor<ui32>
  func.return %sum, %id : tensor<4xf32>, tensor<ui32>
}
)";

// Replica 0 runs @producer, replica 1 @consumer: what one sends on channel
// 7 the other receives.
constexpr char kChannel[] = R"(
func.func @producer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %doubled = stablehlo.add %x, %x : tensor<4xf32>
  %sent = "stablehlo.send"(%doubled, %t) {
    channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
  } : (tensor<4xf32>, !stablehlo.token) -> !stablehlo.token
  func.return %x : tensor<4xf32>
}
func.func @consumer(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = stablehlo.after_all : !stablehlo.token
  %got, %done = "stablehlo.recv"(%t) {
    channel_handle = #stablehlo.channel_handle<handle = 7, type = 1>
  } : (!stablehlo.token) -> (tensor<4xf32>, !stablehlo.token)
  func.return %got : tensor<4xf32>
}
)";

class CompiledCollectivesTest : public ExecuteTest {
 protected:
  void SetUp() override {
    ExecuteTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    if (!HasCapability("program_collectives")) {
      GTEST_SKIP() << "no program_collectives capability";
    }
    if (addressable_devices().size() < 2) {
      GTEST_SKIP() << "needs two addressable devices";
    }
  }

  // Compile options placing the launch on the first two devices.
  NamedValueList TwoReplicas(const std::string& entry = "") {
    NamedValueList options;
    options.SetInt64List("device_assignment",
                         {DeviceId(addressable_devices()[0]),
                          DeviceId(addressable_devices()[1])});
    options.SetInt64("num_replicas", 2);
    if (!entry.empty()) options.SetString("entry", entry);
    return options;
  }
};

TEST_F(CompiledCollectivesTest, AllReduceSumsOverTheLaunch) {
  ExecutablePtr executable;
  const NamedValueList options = TwoReplicas();
  ASSERT_PJRTX_OK(Compile(kAllReduce, &executable, "mlir", options.View()));
  std::vector<BufferPtr> inputs;
  std::vector<std::vector<BufferPtr>> outputs(2);
  std::vector<EventPtr> done(2);
  for (int r = 0; r < 2; ++r) {
    const float k = static_cast<float>(r + 1);
    inputs.push_back(F32({k, 2 * k, 3 * k, 4 * k}, addressable_devices()[r]));
    ASSERT_PJRTX_OK(Run(executable.get(), addressable_devices()[r],
                        {inputs.back().get()}, 2, &outputs[r], &done[r], {},
                        nullptr, /*launch_id=*/11));
  }
  for (int r = 0; r < 2; ++r) {
    ASSERT_PJRTX_OK(AwaitEvent(done[r].get()));
    EXPECT_EQ(ReadF32(outputs[r][0].get()), (std::vector<float>{3, 6, 9, 12}));
    std::vector<uint8_t> id;
    ASSERT_PJRTX_OK(ToHost(outputs[r][1].get(), &id));
    ASSERT_EQ(id.size(), 4u);
    EXPECT_EQ(id[0], r);
  }
}

TEST_F(CompiledCollectivesTest, ExecutablesSharingALaunchIdMeet) {
  ExecutablePtr producer, consumer;
  const NamedValueList producer_options = TwoReplicas("producer");
  const NamedValueList consumer_options = TwoReplicas("consumer");
  ASSERT_PJRTX_OK(
      Compile(kChannel, &producer, "mlir", producer_options.View()));
  ASSERT_PJRTX_OK(
      Compile(kChannel, &consumer, "mlir", consumer_options.View()));
  BufferPtr x = F32({1, 2, 3, 4}, addressable_devices()[0]);
  BufferPtr y = F32({0, 0, 0, 0}, addressable_devices()[1]);
  std::vector<BufferPtr> sent, received;
  EventPtr sent_done, received_done;
  // The receiver first: it waits for the sender, which then arrives.
  ASSERT_PJRTX_OK(Run(consumer.get(), addressable_devices()[1], {y.get()}, 1,
                      &received, &received_done, {}, nullptr, 12));
  ASSERT_PJRTX_OK(Run(producer.get(), addressable_devices()[0], {x.get()}, 1,
                      &sent, &sent_done, {}, nullptr, 12));
  ASSERT_PJRTX_OK(AwaitEvent(sent_done.get()));
  ASSERT_PJRTX_OK(AwaitEvent(received_done.get()));
  EXPECT_EQ(ReadF32(received[0].get()), (std::vector<float>{2, 4, 6, 8}));
}

TEST_F(CompiledCollectivesTest, ProcessCountMustMatchTheAssignment) {
  NamedValueList options = TwoReplicas();
  options.SetInt64("num_replicas", 3);
  ExecutablePtr executable;
  EXPECT_TRUE(IsError(Compile(kAllReduce, &executable, "mlir", options.View()),
                      PJRTX_Error_Code_INVALID_ARGUMENT,
                      {"3 replica(s)", "2 device(s)"}));
}

}  // namespace
}  // namespace pjrtx::conformance
