// Programs as JAX prints them (jax.jit(f).lower(x).as_text()) compile and
// run on the TPU emulator through the C ABI.
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "runtime/client/executable.h"

namespace {

using ::pjrtx::client::Buffer;
using ::pjrtx::client::Client;
using ::pjrtx::client::Executable;
using ::pjrtx::client::PluginLibrary;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

// f(x) = -(sum(x, axis=1) * 2^3), the doubling done by a fori_loop, the
// negation by a private helper.
constexpr char kJaxModule[] =
    R"(module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32> {mhlo.layout_mode = "default", mhlo.sharding = "{replicated}"}) -> (tensor<4xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %0) : tensor<i32>, tensor<4xf32>
     cond {
      %c_1 = stablehlo.constant dense<3> : tensor<i32>
      %2 = stablehlo.compare  LT, %iterArg, %c_1,  SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %2 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %2 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %cst_2 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %3 = stablehlo.broadcast_in_dim %cst_2, dims = [] : (tensor<f32>) -> tensor<4xf32>
      %4 = stablehlo.multiply %iterArg_0, %3 : tensor<4xf32>
      stablehlo.return %2, %4 : tensor<i32>, tensor<4xf32>
    }
    %5 = call @negate(%1#1) : (tensor<4xf32>) -> tensor<4xf32>
    return %5 : tensor<4xf32>
  }
  func.func private @negate(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = stablehlo.negate %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

class JaxProgramTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto library = PluginLibrary::Load(TPU_EMU_PLUGIN);
    ASSERT_TRUE(library.ok()) << library.status();
    auto client = Client::Create(*library, {});
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::make_unique<Client>(*std::move(client));
  }

  std::vector<float> Run(const Executable& executable) {
    std::vector<float> x(12);
    std::iota(x.begin(), x.end(), 0.0f);
    auto device = client_->addressable_devices()[0];
    auto input = client_->BufferFromHost(x.data(), PJRTX_Buffer_Type_F32,
                                         {4, 3}, device);
    EXPECT_TRUE(input.ok()) << input.status();
    auto run = executable.Execute(device, {&*input});
    EXPECT_TRUE(run.ok()) << run.status();
    EXPECT_TRUE(run->done.Await().ok());
    auto bytes = run->outputs[0].ToHostSync();
    EXPECT_TRUE(bytes.ok()) << bytes.status();
    std::vector<float> out(4);
    std::memcpy(out.data(), bytes->data(), 16);
    return out;
  }

  std::unique_ptr<Client> client_;
};

TEST_F(JaxProgramTest, CompilesAndRuns) {
  auto executable = Executable::Compile(*client_, kJaxModule);
  ASSERT_TRUE(executable.ok()) << executable.status();
  EXPECT_EQ(executable->name(), "main");
  // Row sums 3, 12, 21, 30, doubled three times, negated.
  EXPECT_THAT(Run(*executable), ElementsAre(-24, -96, -168, -240));
}

TEST_F(JaxProgramTest, SerializedExecutableRunsIdentically) {
  auto executable = Executable::Compile(*client_, kJaxModule);
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto bytes = executable->Serialize();
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto loaded = Executable::Deserialize(*client_, *bytes);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(Run(*loaded), Run(*executable));
}

TEST_F(JaxProgramTest, TypeErrorsNameTheOpWithLineAndColumn) {
  std::string bad = kJaxModule;
  // The reduce now claims a result of the wrong length.
  bad.replace(bad.find("-> tensor<4xf32>\n    %c ="), 16, "-> tensor<5xf32>");
  auto executable = Executable::Compile(*client_, bad);
  ASSERT_EQ(executable.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(executable.status().message(), HasSubstr("4:"));
  EXPECT_THAT(executable.status().message(), HasSubstr("stablehlo.reduce"));
  EXPECT_THAT(executable.status().message(), HasSubstr("tensor<4xf32>"));
}

}  // namespace

namespace {

// 1 + 2^-10 is exact in f32 and rounds to 1 in bf16 (8 mantissa bits).
constexpr char kDot[] = R"(
func.func @main(%a: tensor<1x2xf32>, %b: tensor<2x1xf32>) -> tensor<1x1xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2xf32>, tensor<2x1xf32>) -> tensor<1x1xf32>
  func.return %0 : tensor<1x1xf32>
}
)";

float DotWithPrecision(const std::string& precision) {
  auto library = PluginLibrary::Load(TPU_EMU_PLUGIN);
  EXPECT_TRUE(library.ok());
  auto client = Client::Create(*library, {{"matmul_precision", precision}});
  EXPECT_TRUE(client.ok()) << client.status();
  auto executable = Executable::Compile(*client, kDot);
  EXPECT_TRUE(executable.ok()) << executable.status();
  const float a[2] = {1.0f + 1.0f / 1024, 1.0f};
  const float b[2] = {1.0f, 1.0f};
  auto device = client->addressable_devices()[0];
  auto lhs = client->BufferFromHost(a, PJRTX_Buffer_Type_F32, {1, 2}, device);
  auto rhs = client->BufferFromHost(b, PJRTX_Buffer_Type_F32, {2, 1}, device);
  auto run = executable->Execute(device, {&*lhs, &*rhs});
  EXPECT_TRUE(run.ok()) << run.status();
  auto bytes = run->outputs[0].ToHostSync();
  float out;
  std::memcpy(&out, bytes->data(), 4);
  return out;
}

TEST(MatmulPrecisionTest, HighestIsExactF32AndTpuIsOneBf16Pass) {
  EXPECT_EQ(DotWithPrecision("highest"), 2.0f + 1.0f / 1024);
  EXPECT_EQ(DotWithPrecision("tpu"), 2.0f);
}

}  // namespace
