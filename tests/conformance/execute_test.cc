// Compilation and execution (ABI 0.3), for plugins with the `execute`
// capability: results, asynchrony, failures reaching outputs, donation,
// serialization, and bad programs.

#include <complex>
#include <cstring>
#include <regex>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "execute_fixture.h"
#include "gtest/gtest.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

// z = (x + y) * x on f32[4].
constexpr char kAddMul[] = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %sum = stablehlo.add %x, %y : tensor<4xf32>
  %z = stablehlo.multiply %sum, %x : tensor<4xf32>
  func.return %z : tensor<4xf32>
}
)";

TEST_F(ExecuteTest, MetadataDescribesTheEntryFunction) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  auto meta = PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Metadata_Args);
  meta.executable = executable.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_Metadata(&meta));
  EXPECT_EQ(std::string(meta.name, meta.name_size), "main");
  EXPECT_EQ(meta.num_devices, addressable_devices().size());
  ASSERT_EQ(meta.num_inputs, 2u);
  ASSERT_EQ(meta.num_outputs, 1u);
  EXPECT_EQ(meta.output_types[0], PJRTX_Buffer_Type_F32);
  ASSERT_EQ(meta.output_ranks[0], 1u);
  EXPECT_EQ(meta.output_dims[meta.output_dims_offsets[0]], 4);
}

TEST_F(ExecuteTest, RunsOnEveryDeviceWithItsOwnArguments) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  for (size_t d = 0; d < addressable_devices().size(); ++d) {
    PJRTX_Device* device = addressable_devices()[d];
    const float k = static_cast<float>(d + 1);
    BufferPtr x = F32({1 * k, 2 * k, 3 * k, 4 * k}, device);
    BufferPtr y = F32({1, 1, 1, 1}, device);
    std::vector<BufferPtr> outputs;
    EventPtr done;
    ASSERT_PJRTX_OK(
        Run(executable.get(), device, {x.get(), y.get()}, 1, &outputs, &done));
    ASSERT_PJRTX_OK(AwaitEvent(done.get()));
    EXPECT_EQ(BufferDevice(outputs[0].get()), device);
    std::vector<float> expected;
    for (float v : {1 * k, 2 * k, 3 * k, 4 * k})
      expected.push_back((v + 1) * v);
    EXPECT_EQ(ReadF32(outputs[0].get()), expected);
  }
}

TEST_F(ExecuteTest, ExecuteReturnsBeforeItsWaitEventsAreReady) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  BufferPtr x = F32({1, 2, 3, 4}, device());
  BufferPtr y = F32({4, 3, 2, 1}, device());
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  std::vector<BufferPtr> outputs;
  EventPtr done;
  ASSERT_PJRTX_OK(Run(executable.get(), device(), {x.get(), y.get()}, 1,
                      &outputs, &done, {gate.get()}));
  EXPECT_FALSE(IsReady(done.get()));
  ASSERT_PJRTX_OK(SetEvent(gate.get()));
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  EXPECT_EQ(ReadF32(outputs[0].get()), (std::vector<float>{5, 10, 15, 20}));
}

TEST_F(ExecuteTest, AFailedWaitReachesOutputsAndCompletion) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  BufferPtr x = F32({1, 2, 3, 4}, device());
  BufferPtr y = F32({1, 2, 3, 4}, device());
  EventPtr gate;
  ASSERT_PJRTX_OK(CreateEvent(&gate));
  std::vector<BufferPtr> outputs;
  EventPtr done;
  ASSERT_PJRTX_OK(Run(executable.get(), device(), {x.get(), y.get()}, 1,
                      &outputs, &done, {gate.get()}));
  ASSERT_PJRTX_OK(
      SetEvent(gate.get(), PJRTX_Error_Code_ABORTED, "upstream failed"));
  EXPECT_TRUE(IsError(AwaitEvent(done.get()), PJRTX_Error_Code_ABORTED,
                      {"upstream failed"}));
  EXPECT_TRUE(IsError(AwaitBufferReady(outputs[0].get()),
                      PJRTX_Error_Code_ABORTED, {"upstream failed"}));
}

TEST_F(ExecuteTest, DonatedArgumentsAreDeletedAndResultsCorrect) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  BufferPtr x = F32({1, 2, 3, 4}, device());
  BufferPtr y = F32({2, 2, 2, 2}, device());
  const bool donate[2] = {true, false};
  std::vector<BufferPtr> outputs;
  EventPtr done;
  ASSERT_PJRTX_OK(Run(executable.get(), device(), {x.get(), y.get()}, 1,
                      &outputs, &done, {}, donate));
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  EXPECT_TRUE(IsDeleted(x.get()));
  EXPECT_FALSE(IsDeleted(y.get()));
  EXPECT_EQ(ReadF32(outputs[0].get()), (std::vector<float>{3, 8, 15, 24}));
  // A donated buffer cannot be passed again.
  std::vector<BufferPtr> again;
  EventPtr again_done;
  EXPECT_TRUE(IsError(Run(executable.get(), device(), {x.get(), y.get()}, 1,
                          &again, &again_done),
                      PJRTX_Error_Code_FAILED_PRECONDITION));
}

// %a's memory may become result 1 (tf.aliasing_output); %b's the first
// other result of its signature (jax.buffer_donor); %c declares nothing.
constexpr char kAliased[] = R"(
func.func @main(%a: tensor<256xf32> {tf.aliasing_output = 1 : i32},
                %b: tensor<256xf32> {jax.buffer_donor = true},
                %c: tensor<256xf32>) -> (tensor<256xf32>, tensor<256xf32>) {
  %s = stablehlo.add %a, %b : tensor<256xf32>
  %p = stablehlo.multiply %a, %c : tensor<256xf32>
  func.return %s, %p : tensor<256xf32>, tensor<256xf32>
}
)";

TEST_F(ExecuteTest, InputAliasesFollowTheProgramsDeclarations) {
  if (api()->pjrtx_api_version.minor_version < 6) {
    GTEST_SKIP() << "plugin implements ABI < 0.6 (no InputAliases)";
  }
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAliased, &executable));
  auto aliases =
      PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_InputAliases_Args);
  aliases.executable = executable.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_InputAliases(&aliases));
  ASSERT_EQ(aliases.num_inputs, 3u);
  EXPECT_EQ(aliases.aliases[0], 1);
  EXPECT_EQ(aliases.aliases[1], 0);  // The first result it fits.
  EXPECT_EQ(aliases.aliases[2], PJRTX_INPUT_NOT_DONATABLE);

  // Programs declaring nothing donate nothing.
  ExecutablePtr plain;
  ASSERT_PJRTX_OK(Compile(kAddMul, &plain));
  aliases.executable = plain.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_InputAliases(&aliases));
  ASSERT_EQ(aliases.num_inputs, 2u);
  EXPECT_EQ(aliases.aliases[0], PJRTX_INPUT_NOT_DONATABLE);
  EXPECT_EQ(aliases.aliases[1], PJRTX_INPUT_NOT_DONATABLE);
}

TEST_F(ExecuteTest, DonatedArgumentsMemoryBecomesTheOutputs) {
  if (api()->pjrtx_api_version.minor_version < 6) {
    GTEST_SKIP() << "plugin implements ABI < 0.6 (no InputAliases)";
  }
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAliased, &executable));
  std::vector<float> a(256), b(256), c(256);
  for (int i = 0; i < 256; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 1.0f;
    c[i] = 2.0f;
  }
  BufferPtr x = F32(a, device());
  BufferPtr y = F32(b, device());
  BufferPtr z = F32(c, device());
  const int64_t before = MemoryStats(device()).bytes_in_use;
  const bool donate[3] = {true, true, false};
  std::vector<BufferPtr> outputs;
  EventPtr done;
  ASSERT_PJRTX_OK(Run(executable.get(), device(), {x.get(), y.get(), z.get()},
                      2, &outputs, &done, {}, donate));
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  EXPECT_TRUE(IsDeleted(x.get()));
  EXPECT_TRUE(IsDeleted(y.get()));
  EXPECT_FALSE(IsDeleted(z.get()));
  // Both outputs live in the donated inputs' memory: nothing was allocated.
  EXPECT_EQ(MemoryStats(device()).bytes_in_use, before);
  std::vector<float> sum(256), product(256);
  for (int i = 0; i < 256; ++i) {
    sum[i] = a[i] + b[i];
    product[i] = a[i] * c[i];
  }
  EXPECT_EQ(ReadF32(outputs[0].get()), sum);
  EXPECT_EQ(ReadF32(outputs[1].get()), product);
}

TEST_F(ExecuteTest, SerializedExecutableGivesIdenticalResults) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  auto serialize =
      PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Serialize_Args);
  serialize.executable = executable.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_Serialize(&serialize));
  std::string bytes(serialize.serialized_bytes,
                    serialize.serialized_bytes_size);
  serialize.serialized_executable_deleter(serialize.serialized_executable);

  auto load = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_DeserializeAndLoad_Args);
  load.client = client();
  load.serialized_executable = bytes.data();
  load.serialized_executable_size = bytes.size();
  ASSERT_PJRTX_OK(Api()->Client_DeserializeAndLoad(&load));
  ExecutablePtr loaded(load.executable);

  BufferPtr x = F32({0.5f, -1, 3, 1e10f}, device());
  BufferPtr y = F32({2, 7, -3, 1}, device());
  std::vector<BufferPtr> a, b;
  EventPtr done_a, done_b;
  ASSERT_PJRTX_OK(
      Run(executable.get(), device(), {x.get(), y.get()}, 1, &a, &done_a));
  ASSERT_PJRTX_OK(
      Run(loaded.get(), device(), {x.get(), y.get()}, 1, &b, &done_b));
  EXPECT_EQ(ReadF32(a[0].get()), ReadF32(b[0].get()));
}

TEST_F(ExecuteTest, CorruptOrForeignSerializedBytesAreRejected) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  auto serialize =
      PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Serialize_Args);
  serialize.executable = executable.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_Serialize(&serialize));
  const std::string good(serialize.serialized_bytes,
                         serialize.serialized_bytes_size);
  serialize.serialized_executable_deleter(serialize.serialized_executable);
  std::vector<std::string> bad = {"", "garbage", std::string(64, '\0')};
  for (size_t cut : {size_t{4}, size_t{8}, good.size() / 2, good.size() - 1}) {
    bad.push_back(good.substr(0, cut));
  }
  for (size_t i = 0; i < good.size(); i += 7) {
    std::string flipped = good;
    flipped[i] ^= 0x5a;
    bad.push_back(flipped);
  }
  for (const std::string& bytes : bad) {
    // A copy in its own allocation, so that ASan sees any read past it.
    std::vector<char> exact(bytes.begin(), bytes.end());
    auto load = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_DeserializeAndLoad_Args);
    load.client = client();
    load.serialized_executable = exact.data();
    load.serialized_executable_size = exact.size();
    ScopedError error(Api()->Client_DeserializeAndLoad(&load));
    ExecutablePtr loaded(load.executable);
    // A flipped byte may land in a string the verifier cannot judge; then
    // the program still compiles or fails to. Never a crash.
    if (!error.ok()) {
      EXPECT_TRUE(IsErrorOneOf(error, {PJRTX_Error_Code_INVALID_ARGUMENT,
                                       PJRTX_Error_Code_UNIMPLEMENTED}))
          << error.ToString();
    }
  }
  // Structural damage is always caught.
  std::string truncated = good.substr(0, good.size() / 2);
  auto load = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_DeserializeAndLoad_Args);
  load.client = client();
  load.serialized_executable = truncated.data();
  load.serialized_executable_size = truncated.size();
  EXPECT_TRUE(IsError(ScopedError(Api()->Client_DeserializeAndLoad(&load)),
                      PJRTX_Error_Code_INVALID_ARGUMENT));
}

TEST_F(ExecuteTest, BadProgramsAndOptionsAreRejectedWithPositions) {
  ExecutablePtr executable;
  ScopedError error =
      Compile("func.func @main() {\n  %0 = stablehlo.add\n}", &executable);
  EXPECT_TRUE(IsError(error, PJRTX_Error_Code_INVALID_ARGUMENT));
  EXPECT_TRUE(std::regex_search(error.message(), std::regex(R"(^\d+:\d+: )")))
      << "no line:column in " << error.ToString();

  // A portable artifact cut short: the bytecode reader names where.
  error = Compile(std::string("ML\xefR\x00\x01", 6), &executable);
  EXPECT_TRUE(
      IsError(error, PJRTX_Error_Code_INVALID_ARGUMENT, {"bytecode offset"}));

  error = Compile(kAddMul, &executable, "hlo");
  EXPECT_TRUE(IsError(error, PJRTX_Error_Code_INVALID_ARGUMENT, {"hlo"}));

  PJRTX_NamedValue option{};
  option.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
  option.name = "optimize_harder";
  option.name_size = 15;
  option.type = PJRTX_NamedValue_kBool;
  option.value.bool_value = true;
  option.value_size = 1;
  error = Compile(kAddMul, &executable, "mlir", {option});
  EXPECT_TRUE(
      IsError(error, PJRTX_Error_Code_INVALID_ARGUMENT, {"optimize_harder"}));
}

TEST_F(ExecuteTest, WrongArgumentsAreRejectedBeforeAnythingRuns) {
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kAddMul, &executable));
  BufferPtr x = F32({1, 2, 3, 4}, device());
  BufferPtr short_y = F32({1, 2, 3}, device());
  std::vector<BufferPtr> outputs;
  EventPtr done;
  EXPECT_TRUE(IsError(Run(executable.get(), device(), {x.get(), short_y.get()},
                          1, &outputs, &done),
                      PJRTX_Error_Code_INVALID_ARGUMENT, {"Argument"}));
  EXPECT_TRUE(
      IsError(Run(executable.get(), device(), {x.get()}, 1, &outputs, &done),
              PJRTX_Error_Code_INVALID_ARGUMENT));
}

// Complex buffers (ABI 0.5) in and out: z * w and |z| for C64 z, w, and
// the FFT of a C128 vector.
constexpr char kComplex[] = R"(
func.func @main(%z: tensor<3xcomplex<f32>>, %w: tensor<3xcomplex<f32>>,
                %v: tensor<4xcomplex<f64>>)
    -> (tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<4xcomplex<f64>>) {
  %p = stablehlo.multiply %z, %w : tensor<3xcomplex<f32>>
  %a = stablehlo.abs %z : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
  %f = stablehlo.fft %v, type = FFT, length = [4] : (tensor<4xcomplex<f64>>) -> tensor<4xcomplex<f64>>
  func.return %p, %a, %f : tensor<3xcomplex<f32>>, tensor<3xf32>, tensor<4xcomplex<f64>>
}
)";

TEST_F(ExecuteTest, ComplexArgumentsAndResultsAreComplexBuffers) {
  if (api()->pjrtx_api_version.minor_version < 5) {
    GTEST_SKIP() << "plugin implements ABI < 0.5 (no complex buffers)";
  }
  ExecutablePtr executable;
  ASSERT_PJRTX_OK(Compile(kComplex, &executable));
  auto meta = PJRTX_CONFORMANCE_ARGS(PJRTX_LoadedExecutable_Metadata_Args);
  meta.executable = executable.get();
  ASSERT_PJRTX_OK(Api()->LoadedExecutable_Metadata(&meta));
  ASSERT_EQ(meta.num_outputs, 3u);
  EXPECT_EQ(meta.output_types[0], PJRTX_Buffer_Type_C64);
  EXPECT_EQ(meta.output_types[1], PJRTX_Buffer_Type_F32);
  EXPECT_EQ(meta.output_types[2], PJRTX_Buffer_Type_C128);
  ASSERT_EQ(meta.output_ranks[0], 1u);
  EXPECT_EQ(meta.output_dims[meta.output_dims_offsets[0]], 3);

  using C64 = std::complex<float>;
  using C128 = std::complex<double>;
  const std::vector<C64> z = {{1, 2}, {-3, 0.5f}, {0, -4}};
  const std::vector<C64> w = {{0.5f, -1}, {2, 2}, {-1, 0}};
  const std::vector<C128> v = {{1, 0}, {0, 1}, {-1, 0.5}, {2, -2}};
  PJRTX_Device* device = addressable_devices()[0];
  BufferPtr z_buffer, w_buffer, v_buffer;
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(z.data(), PJRTX_Buffer_Type_C64, {3}, device),
      &z_buffer));
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(w.data(), PJRTX_Buffer_Type_C64, {3}, device),
      &w_buffer));
  ASSERT_PJRTX_OK(BufferFromHost(
      client(), DenseSpec(v.data(), PJRTX_Buffer_Type_C128, {4}, device),
      &v_buffer));
  std::vector<BufferPtr> outputs;
  EventPtr done;
  ASSERT_PJRTX_OK(Run(executable.get(), device,
                      {z_buffer.get(), w_buffer.get(), v_buffer.get()}, 3,
                      &outputs, &done));
  ASSERT_PJRTX_OK(AwaitEvent(done.get()));
  EXPECT_EQ(BufferElementType(outputs[0].get()), PJRTX_Buffer_Type_C64);
  EXPECT_EQ(BufferElementType(outputs[2].get()), PJRTX_Buffer_Type_C128);

  std::vector<uint8_t> bytes;
  ASSERT_PJRTX_OK(ToHost(outputs[0].get(), &bytes));
  ASSERT_EQ(bytes.size(), 3 * sizeof(C64));
  std::vector<C64> product(3);
  std::memcpy(product.data(), bytes.data(), bytes.size());
  std::vector<float> magnitude = ReadF32(outputs[1].get());
  ASSERT_EQ(magnitude.size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(product[i].real(), (z[i] * w[i]).real(), 1e-5) << i;
    EXPECT_NEAR(product[i].imag(), (z[i] * w[i]).imag(), 1e-5) << i;
    EXPECT_NEAR(magnitude[i], std::abs(z[i]), 1e-5) << i;
  }
  ASSERT_PJRTX_OK(ToHost(outputs[2].get(), &bytes));
  ASSERT_EQ(bytes.size(), 4 * sizeof(C128));
  std::vector<C128> spectrum(4);
  std::memcpy(spectrum.data(), bytes.data(), bytes.size());
  for (int k = 0; k < 4; ++k) {
    C128 expected = 0;
    for (int j = 0; j < 4; ++j) {
      expected += v[j] * std::polar(1.0, -2 * M_PI * ((j * k) % 4) / 4);
    }
    EXPECT_NEAR(spectrum[k].real(), expected.real(), 1e-12) << k;
    EXPECT_NEAR(spectrum[k].imag(), expected.imag(), 1e-12) << k;
  }
}

}  // namespace
}  // namespace pjrtx::conformance
