// libpjrt_cuda.so through the C ABI on the fake driver (fake_cuda/): GPUs
// as devices, transfers through the pinned staging pool (larger than the
// pool too), copies between GPUs, PTX programs run by the fake's PTX
// interpreter (control flow included, with its predicate read-backs
// counted), and the errors a demanding user meets. The fault tests run
// only in the ctest entries that inject the fault (FAKE_CUDA_* variables).
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_replace.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/client/client.h"
#include "runtime/client/event_future.h"
#include "runtime/client/executable.h"
#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"
#include "tests/compiler_stub/nested_loop_program.h"

namespace {

using ::pjrtx::client::Buffer;
using ::pjrtx::client::Client;
using ::pjrtx::client::Device;
using ::pjrtx::client::Executable;
using ::pjrtx::client::MemoryInfo;
using ::pjrtx::client::NamedValue;
using ::pjrtx::client::PluginLibrary;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

absl::StatusOr<Client> MakeClient() {
  PJRTX_ASSIGN_OR_RETURN(auto library, PluginLibrary::Load(CUDA_PLUGIN));
  return Client::Create(library, {});
}

template <typename T>
T Attribute(const std::vector<NamedValue>& attributes,
            const std::string& name) {
  for (const NamedValue& a : attributes) {
    if (a.name == name) return std::get<T>(a.value);
  }
  ADD_FAILURE() << "no attribute " << name;
  return T();
}

std::vector<float> Iota(size_t n, float scale) {
  std::vector<float> values(n);
  for (size_t i = 0; i < n; ++i) {
    values[i] =
        scale * static_cast<float>(static_cast<int64_t>(i % 1000) - 500);
  }
  return values;
}

std::vector<float> AsFloats(const std::vector<uint8_t>& bytes) {
  std::vector<float> values(bytes.size() / sizeof(float));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(float));
  return values;
}

bool FaultInjected(const char* variable) {
  const char* value = std::getenv(variable);
  return value != nullptr && *value != '\0';
}

class CudaPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto client = MakeClient();
    ASSERT_TRUE(client.ok()) << client.status();
    client_ = std::make_unique<Client>(*std::move(client));
    devices_ = client_->addressable_devices();
    ASSERT_EQ(devices_.size(), 2u) << "the fake driver lists two GPUs";
  }

  absl::StatusOr<Buffer> Upload(const std::vector<float>& values,
                                const Device& device) {
    const int64_t dims[] = {static_cast<int64_t>(values.size())};
    return client_->BufferFromHost(values.data(), PJRTX_Buffer_Type_F32, dims,
                                   device);
  }

  // A buffer made from `host` with `semantics` (in `memory`, or device 0's
  // default memory when null) once `wait_for` are ready, with its
  // done-with-host-buffer event.
  absl::StatusOr<std::pair<Buffer, pjrtx::client::EventFuture>> FromHostBuffer(
      const std::vector<float>& host, PJRTX_HostBufferSemantics semantics,
      PJRTX_Memory* memory, std::vector<PJRTX_Event*> wait_for = {}) {
    const int64_t dims[] = {static_cast<int64_t>(host.size())};
    const PJRTX_Api* api = client_->api();
    PJRTX_CLIENT_ARGS(PJRTX_Client_BufferFromHostBuffer_Args, args);
    args.client = client_->handle();
    args.data = host.data();
    args.type = PJRTX_Buffer_Type_F32;
    args.dims = dims;
    args.num_dims = 1;
    args.host_buffer_semantics = semantics;
    args.memory = memory;
    if (memory == nullptr) args.device = devices_[0].handle();
    args.wait_events = wait_for.data();
    args.num_wait_events = wait_for.size();
    PJRTX_RETURN_IF_ERROR(pjrtx::client::TakeStatus(
        api, api->Client_BufferFromHostBuffer(&args)));
    return std::make_pair(
        Buffer(api, args.buffer),
        pjrtx::client::EventFuture(api, args.done_with_host_buffer));
  }

  std::unique_ptr<Client> client_;
  std::vector<Device> devices_;
};

// The fake driver's count of host<->GPU copies whose host side was memory
// registered with cuMemHostRegister (private_api.h), read from the copy of
// the fake the plugin loaded.
struct RegisteredHostCopies {
  uint64_t uploads = 0;
  uint64_t downloads = 0;
};

absl::StatusOr<RegisteredHostCopies> CountRegisteredHostCopies() {
  const char* path = std::getenv("PJRTX_CUDA_DRIVER_PATH");
  void* fake = path == nullptr ? nullptr : dlopen(path, RTLD_NOW | RTLD_NOLOAD);
  if (fake == nullptr) {
    return absl::FailedPreconditionError("the fake driver is not loaded");
  }
  // cuGetProcAddress_v2, spelled without cuda.h.
  using GetProcAddress =
      int (*)(const char*, void**, int, unsigned long long, int*);
  using Counts = int (*)(uint64_t*, uint64_t*);
  auto get =
      reinterpret_cast<GetProcAddress>(dlsym(fake, "cuGetProcAddress_v2"));
  void* function = nullptr;
  int found = 0;
  RegisteredHostCopies counts;
  const bool ok =
      get != nullptr &&
      get("fakeCudaRegisteredHostCopies", &function, 12000, 0, &found) == 0 &&
      function != nullptr &&
      reinterpret_cast<Counts>(function)(&counts.uploads, &counts.downloads) ==
          0;
  dlclose(fake);
  if (!ok) return absl::InternalError("fakeCudaRegisteredHostCopies failed");
  return counts;
}

TEST_F(CudaPluginTest, FakeGpusAreDevicesWithTheirAttributesAndMemories) {
  for (size_t i = 0; i < devices_.size(); ++i) {
    const Device& device = devices_[i];
    EXPECT_EQ(device.id(), static_cast<int64_t>(i));
    EXPECT_EQ(device.kind(), "Fake H100 " + std::to_string(i));
    const std::vector<NamedValue> attributes = device.attributes();
    EXPECT_EQ(Attribute<std::string>(attributes, "compute_capability"), "9.0");
    EXPECT_EQ(Attribute<int64_t>(attributes, "core_count"), 132);
    EXPECT_THAT(Attribute<std::vector<int64_t>>(attributes, "coords"),
                ElementsAre(static_cast<int64_t>(i)));
    auto memories = device.memories();
    ASSERT_TRUE(memories.ok()) << memories.status();
    std::vector<std::string> kinds;
    for (const MemoryInfo& memory : *memories) kinds.push_back(memory.kind);
    EXPECT_THAT(kinds, ElementsAre("device", "pinned_host"));
  }
  EXPECT_THAT(client_->platform_version(), HasSubstr("CUDA driver 13.0"));
}

TEST(CudaJobOptionsTest, BadProcessIndexOrMissingStoreIsNamed) {
  auto library = PluginLibrary::Load(CUDA_PLUGIN);
  ASSERT_TRUE(library.ok()) << library.status();
  absl::StatusOr<Client> outside = Client::Create(
      *library, {{"num_processes", int64_t{2}}, {"process_index", int64_t{2}}});
  EXPECT_EQ(outside.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(outside.status().message(),
              AllOf(HasSubstr("process_index 2"),
                    HasSubstr("0 <= process_index < num_processes")));
  // Several processes meet through the key-value store, which is missing.
  absl::StatusOr<Client> alone = Client::Create(
      *library, {{"num_processes", int64_t{2}}, {"process_index", int64_t{1}}});
  EXPECT_EQ(alone.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(alone.status().message(), HasSubstr("key-value callbacks"));
}

TEST(CudaCompletionWaitTest, EveryWayOfWaitingRunsWorkAndABadOneIsNamed) {
  auto library = PluginLibrary::Load(CUDA_PLUGIN);
  ASSERT_TRUE(library.ok()) << library.status();
  absl::StatusOr<Client> bad =
      Client::Create(*library, {{"completion_wait", std::string("sleep")}});
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(),
              AllOf(HasSubstr("'sleep'"), HasSubstr("'spin' or 'backoff'")));
  for (const char* wait : {"spin", "backoff", "auto"}) {
    absl::StatusOr<Client> client =
        Client::Create(*library, {{"completion_wait", std::string(wait)}});
    ASSERT_TRUE(client.ok()) << wait << ": " << client.status();
    ASSERT_FALSE(client->addressable_devices().empty());
    const std::vector<float> values = Iota(1 << 16, 0.5f);
    const int64_t dims[] = {1 << 16};
    auto buffer =
        client->BufferFromHost(values.data(), PJRTX_Buffer_Type_F32, dims,
                               client->addressable_devices()[0]);
    ASSERT_TRUE(buffer.ok()) << wait << ": " << buffer.status();
    auto back = buffer->ToHostSync();
    ASSERT_TRUE(back.ok()) << wait << ": " << back.status();
    EXPECT_TRUE(AsFloats(*back) == values) << wait;
  }
}

TEST_F(CudaPluginTest, RoundTripsSmallAndLargerThanTheStagingPool) {
  // 72 MiB passes through the 64 MiB staging pool, so chunks must be
  // recycled while the transfer is in flight.
  for (size_t n : {size_t{1}, size_t{1000}, size_t{18} << 20}) {
    const std::vector<float> values = Iota(n, 0.25f);
    auto buffer = Upload(values, devices_[0]);
    ASSERT_TRUE(buffer.ok()) << buffer.status();
    auto back = buffer->ToHostSync();
    ASSERT_TRUE(back.ok()) << back.status();
    EXPECT_TRUE(AsFloats(*back) == values) << n << " elements differ";
  }
}

TEST_F(CudaPluginTest, CopiesBetweenGpus) {
  const std::vector<float> values = Iota(4096, 1.5f);
  auto buffer = Upload(values, devices_[0]);
  ASSERT_TRUE(buffer.ok()) << buffer.status();
  auto copy = buffer->CopyToDevice(devices_[1]);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(copy->device().id(), 1);
  auto back = copy->ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_THAT(AsFloats(*back), ::testing::ElementsAreArray(values));
}

TEST_F(CudaPluginTest, ZeroCopyPinnedHostBufferAliasesRegisteredCallerMemory) {
  auto memories = devices_[0].memories();
  ASSERT_TRUE(memories.ok()) << memories.status();
  ASSERT_EQ((*memories)[1].kind, "pinned_host");
  std::vector<float> host = Iota(4096, 1.0f);
  auto made = FromHostBuffer(host, PJRTX_HostBufferSemantics_kMutableZeroCopy,
                             (*memories)[1].handle);
  ASSERT_TRUE(made.ok()) << made.status();
  auto& [buffer, done_with_host] = *made;
  // Aliased, not copied: a change the caller makes is what the GPU reads.
  host[7] = 4242.0f;
  auto on_gpu = buffer.CopyToDevice(devices_[0]);
  ASSERT_TRUE(on_gpu.ok()) << on_gpu.status();
  auto back = on_gpu->ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(AsFloats(*back)[7], 4242.0f);
  EXPECT_EQ(AsFloats(*back)[8], host[8]);
  // The caller's memory is released (and unregistered) with the buffer.
  EXPECT_FALSE(done_with_host.IsReady());
  ASSERT_TRUE(buffer.Delete().ok());
  EXPECT_TRUE(done_with_host.Await().ok());
}

TEST_F(CudaPluginTest, PageLockedCallerMemoryIsCopiedInPlaceNotStaged) {
  auto memories = devices_[0].memories();
  ASSERT_TRUE(memories.ok()) << memories.status();
  // Registering the caller's memory (a zero-copy pinned_host buffer) makes
  // it page-locked for as long as that buffer lives.
  std::vector<float> host = Iota(4096, 1.0f);
  auto alias = FromHostBuffer(host, PJRTX_HostBufferSemantics_kMutableZeroCopy,
                              (*memories)[1].handle);
  ASSERT_TRUE(alias.ok()) << alias.status();
  auto before = CountRegisteredHostCopies();
  ASSERT_TRUE(before.ok()) << before.status();

  // Upload from it: one copy straight from the caller's memory, and the
  // memory is released only once that copy is done.
  auto uploaded = FromHostBuffer(
      host, PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes,
      nullptr);
  ASSERT_TRUE(uploaded.ok()) << uploaded.status();
  ASSERT_TRUE(uploaded->second.Await().ok());
  auto back = uploaded->first.ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(AsFloats(*back) == host);
  auto after_upload = CountRegisteredHostCopies();
  ASSERT_TRUE(after_upload.ok()) << after_upload.status();
  EXPECT_EQ(after_upload->uploads, before->uploads + 1);

  // Pageable memory still goes through the staging pool.
  const std::vector<float> other = Iota(4096, -3.0f);
  auto pageable = FromHostBuffer(
      other, PJRTX_HostBufferSemantics_kImmutableUntilTransferCompletes,
      nullptr);
  ASSERT_TRUE(pageable.ok()) << pageable.status();
  ASSERT_TRUE(pageable->second.Await().ok());

  // Download into it: one copy straight into the caller's memory.
  auto read = pageable->first.ToHost(host.data(), host.size() * sizeof(float));
  ASSERT_TRUE(read.ok()) << read.status();
  ASSERT_TRUE(read->Await().ok());
  EXPECT_TRUE(host == other);
  auto after = CountRegisteredHostCopies();
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_EQ(after->uploads, after_upload->uploads);
  EXPECT_EQ(after->downloads, before->downloads + 1);
}

TEST_F(CudaPluginTest, AFailedTaskFailsOnlyItsOwnResults) {
  // A transfer waiting for an event that fails never runs and fails its
  // buffer; the next, independent transfer on the same GPU's queue works.
  const PJRTX_Api* api = client_->api();
  PJRTX_CLIENT_ARGS(PJRTX_Event_Create_Args, create);
  ASSERT_TRUE(pjrtx::client::TakeStatus(api, api->Event_Create(&create)).ok());
  pjrtx::client::EventFuture gate(api, create.event);
  const std::vector<float> values = Iota(64, 2.0f);
  auto made =
      FromHostBuffer(values, PJRTX_HostBufferSemantics_kImmutableOnlyDuringCall,
                     nullptr, {create.event});
  ASSERT_TRUE(made.ok()) << made.status();
  auto& [failed, done_with_host] = *made;
  PJRTX_CLIENT_ARGS(PJRTX_Event_Set_Args, set);
  set.event = create.event;
  set.error_code = PJRTX_Error_Code_ABORTED;
  set.error_message = "upstream failed";
  set.error_message_size = std::strlen(set.error_message);
  ASSERT_TRUE(pjrtx::client::TakeStatus(api, api->Event_Set(&set)).ok());
  auto failed_back = failed.ToHostSync();
  EXPECT_FALSE(failed_back.ok());
  EXPECT_THAT(failed_back.status().message(), HasSubstr("upstream failed"));

  auto next = Upload(values, devices_[0]);
  ASSERT_TRUE(next.ok()) << next.status();
  auto next_back = next->ToHostSync();
  ASSERT_TRUE(next_back.ok()) << next_back.status();
  EXPECT_TRUE(AsFloats(*next_back) == values);
}

constexpr char kChain[] = R"(
func.func @main(%x: tensor<10000xf32>, %s: tensor<f32>) -> tensor<10000xf32> {
  %two = stablehlo.constant dense<2.0> : tensor<10000xf32>
  %sb = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<10000xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<10000xf32>
  %0 = stablehlo.multiply %x, %two : tensor<10000xf32>
  %1 = stablehlo.add %0, %sb : tensor<10000xf32>
  %2 = stablehlo.maximum %1, %zero : tensor<10000xf32>
  %3 = stablehlo.negate %2 : tensor<10000xf32>
  %4 = stablehlo.exponential %3 : tensor<10000xf32>
  func.return %4 : tensor<10000xf32>
}
)";

TEST_F(CudaPluginTest, RunsAFusedChainOnEveryGpu) {
  auto executable = Executable::Compile(*client_, kChain);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::vector<float> x = Iota(10000, 0.01f);
  const std::vector<float> s = {0.5f};
  for (const Device& device : devices_) {
    auto x_buffer = Upload(x, device);
    ASSERT_TRUE(x_buffer.ok()) << x_buffer.status();
    auto s_buffer =
        client_->BufferFromHost(s.data(), PJRTX_Buffer_Type_F32, {}, device);
    ASSERT_TRUE(s_buffer.ok()) << s_buffer.status();
    auto run = executable->Execute(device, {&*x_buffer, &*s_buffer});
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->done.Await().ok()) << run->done.Await();
    ASSERT_EQ(run->outputs.size(), 1u);
    auto bytes = run->outputs[0].ToHostSync();
    ASSERT_TRUE(bytes.ok()) << bytes.status();
    const std::vector<float> y = AsFloats(*bytes);
    ASSERT_EQ(y.size(), x.size());
    int wrong = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      const float want = std::exp(-std::max(x[i] * 2.0f + 0.5f, 0.0f));
      // ex2.approx: a few ulp.
      if (std::fabs(y[i] - want) > 1e-6f + 1e-5f * want) ++wrong;
    }
    EXPECT_EQ(wrong, 0) << "of " << x.size() << " on device " << device.id();
  }
}

TEST_F(CudaPluginTest, ReturnsArgumentsAndConstantsUnchanged) {
  constexpr char kPassThrough[] = R"(
func.func @main(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<2xf32>) {
  %c = stablehlo.constant dense<[7.0, 8.0]> : tensor<2xf32>
  func.return %x, %c : tensor<3xf32>, tensor<2xf32>
}
)";
  auto executable = Executable::Compile(*client_, kPassThrough);
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto x = Upload({1, 2, 3}, devices_[1]);
  ASSERT_TRUE(x.ok()) << x.status();
  auto run = executable->Execute(devices_[1], {&*x});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_EQ(run->outputs.size(), 2u);
  auto first = run->outputs[0].ToHostSync();
  auto second = run->outputs[1].ToHostSync();
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_THAT(AsFloats(*first), ElementsAre(1, 2, 3));
  EXPECT_THAT(AsFloats(*second), ElementsAre(7, 8));
}

TEST_F(CudaPluginTest, UnsupportedOpIsUnimplementedNamingItsPosition) {
  // A tuple as a loop's state (tuples live only inside one computation).
  constexpr char kTupleState[] = R"(
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %t = stablehlo.tuple %a : tuple<tensor<8xf32>>
  %r = "stablehlo.while"(%t) ({
  ^bb0(%s: tuple<tensor<8xf32>>):
    %c = stablehlo.constant dense<false> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  }, {
  ^bb0(%s: tuple<tensor<8xf32>>):
    stablehlo.return %s : tuple<tensor<8xf32>>
  }) : (tuple<tensor<8xf32>>) -> tuple<tensor<8xf32>>
  %0 = stablehlo.get_tuple_element %r[0] : (tuple<tensor<8xf32>>) -> tensor<8xf32>
  func.return %0 : tensor<8xf32>
}
)";
  auto executable = Executable::Compile(*client_, kTupleState);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kUnimplemented)
      << executable.status();
  EXPECT_THAT(executable.status().message(),
              HasSubstr("4:8: stablehlo.while on tuples or tokens"));
}

TEST_F(CudaPluginTest, RunsADotAndAReductionAsKernels) {
  constexpr char kDotSum[] = R"(
func.func @main(%a: tensor<3x4xf32>, %b: tensor<4x2xf32>) -> (tensor<3x2xf32>, tensor<3xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %1 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<3x2xf32>, tensor<f32>) -> tensor<3xf32>
  func.return %0, %1 : tensor<3x2xf32>, tensor<3xf32>
}
)";
  auto executable = Executable::Compile(*client_, kDotSum);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const std::vector<float> a = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  const std::vector<float> b = {1, 0, 0, 1, 1, 1, 2, -1};
  const int64_t a_dims[] = {3, 4};
  const int64_t b_dims[] = {4, 2};
  auto a_buffer = client_->BufferFromHost(a.data(), PJRTX_Buffer_Type_F32,
                                          a_dims, devices_[1]);
  auto b_buffer = client_->BufferFromHost(b.data(), PJRTX_Buffer_Type_F32,
                                          b_dims, devices_[1]);
  ASSERT_TRUE(a_buffer.ok() && b_buffer.ok());
  auto run = executable->Execute(devices_[1], {&*a_buffer, &*b_buffer});
  ASSERT_TRUE(run.ok()) << run.status();
  auto product = run->outputs[0].ToHostSync();
  auto sums = run->outputs[1].ToHostSync();
  ASSERT_TRUE(product.ok() && sums.ok());
  // Row i of a times b: (a0 + a2 + 2 a3, a1 + a2 - a3).
  EXPECT_THAT(AsFloats(*product), ElementsAre(12, 1, 28, 5, 44, 9));
  EXPECT_THAT(AsFloats(*sums), ElementsAre(13, 33, 53));
}

// Integer division, remainder and power where PTX leaves the result open
// (division by zero, INT_MIN / -1, negative exponents), on full-width and
// narrow types, against the CPU target's definitions.
constexpr char kIntegerDivision[] = R"(
func.func @main(%a: tensor<6xi32>, %b: tensor<6xi32>, %c: tensor<4xi8>, %d: tensor<4xi8>, %e: tensor<3xui16>, %f: tensor<3xui16>) -> (tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<3xui16>, tensor<3xui16>, tensor<3xui16>) {
  %0 = stablehlo.divide %a, %b : tensor<6xi32>
  %1 = stablehlo.remainder %a, %b : tensor<6xi32>
  %2 = stablehlo.power %a, %b : tensor<6xi32>
  %3 = stablehlo.divide %c, %d : tensor<4xi8>
  %4 = stablehlo.remainder %c, %d : tensor<4xi8>
  %5 = stablehlo.power %c, %d : tensor<4xi8>
  %6 = stablehlo.divide %e, %f : tensor<3xui16>
  %7 = stablehlo.remainder %e, %f : tensor<3xui16>
  %8 = stablehlo.power %e, %f : tensor<3xui16>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8 : tensor<6xi32>, tensor<6xi32>, tensor<6xi32>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<3xui16>, tensor<3xui16>, tensor<3xui16>
}
)";

template <typename T>
std::vector<T> AsValues(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(T));
  return values;
}

// A 1-D input of `count` elements at `data`.
struct VectorInput {
  const void* data;
  PJRTX_Buffer_Type type;
  int64_t count;
};

// Compiles `program`, runs it on `device` over `inputs` and returns the
// bytes of each output.
absl::StatusOr<std::vector<std::vector<uint8_t>>> RunOnVectors(
    Client& client, const Device& device, const char* program,
    const std::vector<VectorInput>& inputs) {
  PJRTX_ASSIGN_OR_RETURN(Executable executable,
                         Executable::Compile(client, program));
  std::vector<Buffer> buffers;
  for (const VectorInput& input : inputs) {
    const int64_t dims[] = {input.count};
    PJRTX_ASSIGN_OR_RETURN(
        Buffer buffer,
        client.BufferFromHost(input.data, input.type, dims, device));
    buffers.push_back(std::move(buffer));
  }
  std::vector<const Buffer*> arguments;
  for (const Buffer& buffer : buffers) arguments.push_back(&buffer);
  PJRTX_ASSIGN_OR_RETURN(auto run, executable.Execute(device, arguments));
  if (absl::Status done = run.done.Await(); !done.ok()) return done;
  std::vector<std::vector<uint8_t>> outputs;
  for (const Buffer& output : run.outputs) {
    PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, output.ToHostSync());
    outputs.push_back(std::move(bytes));
  }
  return outputs;
}

TEST_F(CudaPluginTest, IntegerDivisionEdgesMatchTheCpuTarget) {
  constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
  const std::vector<int32_t> a = {7, -7, kMin, kMin, 5, -3};
  const std::vector<int32_t> b = {0, 2, -1, 0, -1, 3};
  const std::vector<int8_t> c = {-128, -128, 100, 7};
  const std::vector<int8_t> d = {-1, 0, 0, 2};
  const std::vector<uint16_t> e = {65535, 9, 3};
  const std::vector<uint16_t> f = {0, 0, 2};
  auto out = RunOnVectors(*client_, devices_[0], kIntegerDivision,
                          {{a.data(), PJRTX_Buffer_Type_S32, 6},
                           {b.data(), PJRTX_Buffer_Type_S32, 6},
                           {c.data(), PJRTX_Buffer_Type_S8, 4},
                           {d.data(), PJRTX_Buffer_Type_S8, 4},
                           {e.data(), PJRTX_Buffer_Type_U16, 3},
                           {f.data(), PJRTX_Buffer_Type_U16, 3}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 9u);
  // x / 0 is all ones, x % 0 is x, x / -1 wraps, x % -1 is 0; a negative
  // exponent gives 0 unless the base is 1 or -1.
  EXPECT_THAT(AsValues<int32_t>((*out)[0]),
              ElementsAre(-1, -3, kMin, -1, -5, -1));
  EXPECT_THAT(AsValues<int32_t>((*out)[1]), ElementsAre(7, -1, 0, kMin, 0, 0));
  EXPECT_THAT(AsValues<int32_t>((*out)[2]), ElementsAre(1, 49, 0, 1, 0, -27));
  EXPECT_THAT(AsValues<int8_t>((*out)[3]), ElementsAre(-128, -1, -1, 3));
  EXPECT_THAT(AsValues<int8_t>((*out)[4]), ElementsAre(0, -128, 100, 1));
  EXPECT_THAT(AsValues<int8_t>((*out)[5]), ElementsAre(0, 1, 1, 49));
  EXPECT_THAT(AsValues<uint16_t>((*out)[6]), ElementsAre(65535, 65535, 1));
  EXPECT_THAT(AsValues<uint16_t>((*out)[7]), ElementsAre(65535, 9, 1));
  EXPECT_THAT(AsValues<uint16_t>((*out)[8]), ElementsAre(1, 1, 9));
}

// sign, popcnt and count_leading_zeros over the whole width (narrow
// negative values are extended in registers), and sign of floats keeping
// zeros and NaN.
constexpr char kBitCounts[] = R"(
func.func @main(%a: tensor<5xi64>, %b: tensor<4xi8>, %x: tensor<6xf32>) -> (tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<6xf32>) {
  %0 = stablehlo.sign %a : tensor<5xi64>
  %1 = stablehlo.popcnt %a : tensor<5xi64>
  %2 = stablehlo.count_leading_zeros %a : tensor<5xi64>
  %3 = stablehlo.sign %b : tensor<4xi8>
  %4 = stablehlo.popcnt %b : tensor<4xi8>
  %5 = stablehlo.count_leading_zeros %b : tensor<4xi8>
  %6 = stablehlo.sign %x : tensor<6xf32>
  func.return %0, %1, %2, %3, %4, %5, %6 : tensor<5xi64>, tensor<5xi64>, tensor<5xi64>, tensor<4xi8>, tensor<4xi8>, tensor<4xi8>, tensor<6xf32>
}
)";

TEST_F(CudaPluginTest, SignAndBitCountsCoverTheWholeWidth) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  const std::vector<int64_t> a = {0, 1, -1, kMin, 12345};
  const std::vector<int8_t> b = {-1, 1, 0, -128};
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {-0.0f, 0.0f, nan, -3.5f, 2.0f, -inf};
  auto out = RunOnVectors(*client_, devices_[1], kBitCounts,
                          {{a.data(), PJRTX_Buffer_Type_S64, 5},
                           {b.data(), PJRTX_Buffer_Type_S8, 4},
                           {x.data(), PJRTX_Buffer_Type_F32, 6}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 7u);
  EXPECT_THAT(AsValues<int64_t>((*out)[0]), ElementsAre(0, 1, -1, -1, 1));
  EXPECT_THAT(AsValues<int64_t>((*out)[1]), ElementsAre(0, 1, 64, 1, 6));
  EXPECT_THAT(AsValues<int64_t>((*out)[2]), ElementsAre(64, 63, 0, 0, 50));
  EXPECT_THAT(AsValues<int8_t>((*out)[3]), ElementsAre(-1, 1, 0, -1));
  EXPECT_THAT(AsValues<int8_t>((*out)[4]), ElementsAre(8, 1, 0, 1));
  EXPECT_THAT(AsValues<int8_t>((*out)[5]), ElementsAre(0, 7, 8, 0));
  const std::vector<float> signs = AsValues<float>((*out)[6]);
  ASSERT_EQ(signs.size(), 6u);
  EXPECT_TRUE(signs[0] == 0.0f && std::signbit(signs[0])) << signs[0];
  EXPECT_TRUE(signs[1] == 0.0f && !std::signbit(signs[1])) << signs[1];
  EXPECT_TRUE(std::isnan(signs[2])) << signs[2];
  EXPECT_EQ(signs[3], -1.0f);
  EXPECT_EQ(signs[4], 1.0f);
  EXPECT_EQ(signs[5], -1.0f);
}

// The math functions PTX has no accurate instruction for, computed in f64
// (math_functions.cc), against the host's libm: within a few f64 ulp over
// ordinary, tiny, large and special arguments.
constexpr char kMathF64[] = R"(
func.func @main(%x: tensor<$Nxf64>, %y: tensor<$Nxf64>) -> (tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>) {
  %0 = stablehlo.sine %x : tensor<$Nxf64>
  %1 = stablehlo.cosine %x : tensor<$Nxf64>
  %2 = stablehlo.tan %x : tensor<$Nxf64>
  %3 = stablehlo.tanh %x : tensor<$Nxf64>
  %4 = stablehlo.logistic %x : tensor<$Nxf64>
  %5 = stablehlo.exponential %x : tensor<$Nxf64>
  %6 = stablehlo.exponential_minus_one %x : tensor<$Nxf64>
  %7 = stablehlo.log %x : tensor<$Nxf64>
  %8 = stablehlo.log_plus_one %x : tensor<$Nxf64>
  %9 = stablehlo.cbrt %x : tensor<$Nxf64>
  %10 = stablehlo.power %x, %y : tensor<$Nxf64>
  %11 = stablehlo.round_nearest_afz %x : tensor<$Nxf64>
  %12 = stablehlo.atan2 %x, %y : tensor<$Nxf64>
  %13 = stablehlo.remainder %x, %y : tensor<$Nxf64>
  func.return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13 : tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>, tensor<$Nxf64>
}
)";

// Distance in f64 ulps, 0 for two NaNs or equal values (zeros of the same
// sign), huge for NaN against a number or zeros of different signs.
double UlpDistance(double got, double want) {
  if (std::isnan(got) || std::isnan(want)) {
    return std::isnan(got) && std::isnan(want) ? 0 : 1e300;
  }
  if (got == want) return std::signbit(got) == std::signbit(want) ? 0 : 1e300;
  if (std::isinf(got) || std::isinf(want)) return 1e300;
  const double ulp =
      std::nextafter(std::fabs(want), std::numeric_limits<double>::infinity()) -
      std::fabs(want);
  return std::fabs(got - want) / ulp;
}

TEST_F(CudaPluginTest, MathFunctionsAreWithinAFewUlpOfLibm) {
  std::vector<double> x = {0.0,
                           -0.0,
                           0.5,
                           -0.5,
                           1.5,
                           2.5,
                           -2.5,
                           1e-300,
                           -1e-300,
                           5e-324,
                           1e-12,
                           -1e-12,
                           1e-5,
                           700.0,
                           709.7,
                           -708.0,
                           -745.0,
                           1e6,
                           -123456.789,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()};
  for (int i = -400; i <= 400; ++i) x.push_back(i * 0.0503);
  for (int i = 0; i < 60; ++i) x.push_back(std::ldexp(1.37, i - 30));
  std::vector<double> y(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    if (i < 22) {
      // The specials of x meet zeros, infinities and NaN in y.
      const double specials[] = {0.0,
                                 -0.0,
                                 std::numeric_limits<double>::infinity(),
                                 -std::numeric_limits<double>::infinity(),
                                 std::numeric_limits<double>::quiet_NaN(),
                                 -2.0};
      y[i] = specials[i % 6];
      continue;
    }
    // Integral and fractional exponents, some negative.
    y[i] = i % 3 == 0 ? static_cast<double>(static_cast<int>(i % 7) - 3)
                      : 0.37 * static_cast<double>(i % 11) - 1.1;
  }
  // Exponents far apart, subnormals: the remainder's long division.
  for (const auto& [a, b] : std::vector<std::pair<double, double>>{
           {1e300, 3e-300},
           {-1.7976931348623157e308, 4.9e-324},
           {5e-324, 1e-310},
           {1e-310, 3e-320},
           {123456789.0, 1e-5}}) {
    x.push_back(a);
    y.push_back(b);
  }
  const std::string n = std::to_string(x.size());
  const std::string program = absl::StrReplaceAll(kMathF64, {{"$N", n}});
  auto out = RunOnVectors(
      *client_, devices_[0], program.c_str(),
      {{x.data(), PJRTX_Buffer_Type_F64, static_cast<int64_t>(x.size())},
       {y.data(), PJRTX_Buffer_Type_F64, static_cast<int64_t>(y.size())}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 14u);
  struct Function {
    const char* name;
    double (*reference)(double, double);
    double max_ulp;
    double below;  // Arguments with |x| at or above this are not checked.
  };
  const Function functions[] = {
      {"sine", [](double a, double) { return std::sin(a); }, 2, 1e7},
      {"cosine", [](double a, double) { return std::cos(a); }, 2, 1e7},
      {"tan", [](double a, double) { return std::tan(a); }, 3, 1e7},
      {"tanh", [](double a, double) { return std::tanh(a); }, 4, 1e300},
      {"logistic", [](double a, double) { return 1 / (1 + std::exp(-a)); }, 4,
       1e300},
      {"exponential", [](double a, double) { return std::exp(a); }, 4, 1e300},
      {"exponential_minus_one", [](double a, double) { return std::expm1(a); },
       4, 1e300},
      {"log", [](double a, double) { return std::log(a); }, 4, 1e300},
      {"log_plus_one", [](double a, double) { return std::log1p(a); }, 4,
       1e300},
      {"cbrt", [](double a, double) { return std::cbrt(a); }, 4, 1e300},
      {"power", [](double a, double b) { return std::pow(a, b); }, 64, 1e300},
      {"round_nearest_afz", [](double a, double) { return std::round(a); }, 0,
       1e300},
      {"atan2", [](double a, double b) { return std::atan2(a, b); }, 3, 1e300},
      // Exact, so bit for bit.
      {"remainder", [](double a, double b) { return std::fmod(a, b); }, 0,
       1e300},
  };
  for (size_t f = 0; f < 14; ++f) {
    const std::vector<double> got = AsValues<double>((*out)[f]);
    ASSERT_EQ(got.size(), x.size());
    double worst = 0;
    size_t at = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (std::fabs(x[i]) >= functions[f].below) continue;
      const double error =
          UlpDistance(got[i], functions[f].reference(x[i], y[i]));
      if (error > worst) {
        worst = error;
        at = i;
      }
    }
    std::printf("%s: at most %.2f ulp from libm\n", functions[f].name, worst);
    EXPECT_LE(worst, functions[f].max_ulp)
        << functions[f].name << "(" << x[at] << ", " << y[at] << ") is "
        << got[at] << ", libm says " << functions[f].reference(x[at], y[at]);
  }
}

// sort of keys with a payload: both move together, and equal keys keep
// their order (stable), as std::stable_sort has it.
constexpr char kSortWithPayload[] = R"(
func.func @main(%k: tensor<120xi32>, %v: tensor<120xf32>) -> (tensor<120xi32>, tensor<120xf32>) {
  %0, %1 = "stablehlo.sort"(%k, %v) ({
  ^bb0(%a: tensor<i32>, %b: tensor<i32>, %c: tensor<f32>, %d: tensor<f32>):
    %gt = stablehlo.compare GT, %a, %b : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %gt : tensor<i1>
  }) {dimension = 0 : i64, is_stable = true} : (tensor<120xi32>, tensor<120xf32>) -> (tensor<120xi32>, tensor<120xf32>)
  func.return %0, %1 : tensor<120xi32>, tensor<120xf32>
}
)";

TEST_F(CudaPluginTest, SortMovesPayloadsWithTheirKeysStably) {
  std::vector<int32_t> keys(120);
  std::vector<float> payload(120);
  std::vector<std::pair<int32_t, float>> expected;
  for (int i = 0; i < 120; ++i) {
    keys[i] = (i * 37 + 11) % 9 - 4;  // Many duplicates.
    payload[i] = static_cast<float>(i);
    expected.emplace_back(keys[i], payload[i]);
  }
  std::stable_sort(
      expected.begin(), expected.end(),
      [](const auto& a, const auto& b) { return a.first > b.first; });
  auto out = RunOnVectors(*client_, devices_[0], kSortWithPayload,
                          {{keys.data(), PJRTX_Buffer_Type_S32, 120},
                           {payload.data(), PJRTX_Buffer_Type_F32, 120}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  const std::vector<int32_t> sorted_keys = AsValues<int32_t>((*out)[0]);
  const std::vector<float> sorted_payload = AsValues<float>((*out)[1]);
  ASSERT_EQ(sorted_keys.size(), 120u);
  ASSERT_EQ(sorted_payload.size(), 120u);
  for (int i = 0; i < 120; ++i) {
    EXPECT_EQ(sorted_keys[i], expected[i].first) << "position " << i;
    EXPECT_EQ(sorted_payload[i], expected[i].second) << "position " << i;
  }
}

// argmax as JAX lowers it: one reduce over the values and their indices,
// its body comparing and selecting both; ties keep the first index.
constexpr char kArgmax[] = R"(
func.func @main(%x: tensor<60xf32>) -> (tensor<4xf32>, tensor<4xi32>) {
  %v = stablehlo.reshape %x : (tensor<60xf32>) -> tensor<4x15xf32>
  %i = stablehlo.iota dim = 1 : tensor<4x15xi32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %r:2 = stablehlo.reduce(%v init: %ninf), (%i init: %zero) across dimensions = [1] : (tensor<4x15xf32>, tensor<4x15xi32>, tensor<f32>, tensor<i32>) -> (tensor<4xf32>, tensor<4xi32>)
   reducer(%a: tensor<f32>, %c: tensor<f32>) (%b: tensor<i32>, %d: tensor<i32>) {
    %gt = stablehlo.compare GT, %c, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %val = stablehlo.select %gt, %c, %a : tensor<i1>, tensor<f32>
    %idx = stablehlo.select %gt, %d, %b : tensor<i1>, tensor<i32>
    stablehlo.return %val, %idx : tensor<f32>, tensor<i32>
  }
  func.return %r#0, %r#1 : tensor<4xf32>, tensor<4xi32>
}
)";

TEST_F(CudaPluginTest, ArgmaxReducesValuesAndIndicesTogether) {
  std::vector<float> x(60);
  for (int i = 0; i < 60; ++i) x[i] = static_cast<float>((i * 23) % 17);
  x[15 + 9] = 100;  // Row 1: a clear maximum at 9.
  x[30 + 2] = 50;   // Row 2: ties at 2 and 11 keep 2.
  x[30 + 11] = 50;
  auto out = RunOnVectors(*client_, devices_[0], kArgmax,
                          {{x.data(), PJRTX_Buffer_Type_F32, 60}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  std::vector<float> want_values;
  std::vector<int32_t> want_indices;
  for (int row = 0; row < 4; ++row) {
    int best = 0;
    for (int j = 1; j < 15; ++j) {
      if (x[row * 15 + j] > x[row * 15 + best]) best = j;
    }
    want_values.push_back(x[row * 15 + best]);
    want_indices.push_back(best);
  }
  EXPECT_EQ(want_indices[1], 9);
  EXPECT_EQ(want_indices[2], 2);
  EXPECT_THAT(AsValues<float>((*out)[0]), ElementsAreArray(want_values));
  EXPECT_THAT(AsValues<int32_t>((*out)[1]), ElementsAreArray(want_indices));
}

TEST_F(CudaPluginTest, TuplesInsideAProgramAreTheirElements) {
  constexpr char kTuple[] = R"(
func.func @main(%a: tensor<3xf32>, %b: tensor<2xi32>) -> (tensor<2xi32>, tensor<3xf32>) {
  %t = stablehlo.tuple %a, %b : tuple<tensor<3xf32>, tensor<2xi32>>
  %n = stablehlo.tuple %t, %a : tuple<tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>>
  %inner = stablehlo.get_tuple_element %n[0] : (tuple<tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>>) -> tuple<tensor<3xf32>, tensor<2xi32>>
  %0 = stablehlo.get_tuple_element %inner[1] : (tuple<tensor<3xf32>, tensor<2xi32>>) -> tensor<2xi32>
  %1 = stablehlo.get_tuple_element %n[1] : (tuple<tuple<tensor<3xf32>, tensor<2xi32>>, tensor<3xf32>>) -> tensor<3xf32>
  %2 = stablehlo.add %1, %1 : tensor<3xf32>
  func.return %0, %2 : tensor<2xi32>, tensor<3xf32>
}
)";
  const std::vector<float> a = {1, 2, 3};
  const std::vector<int32_t> b = {7, -8};
  auto out = RunOnVectors(*client_, devices_[1], kTuple,
                          {{a.data(), PJRTX_Buffer_Type_F32, 3},
                           {b.data(), PJRTX_Buffer_Type_S32, 2}});
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  EXPECT_THAT(AsValues<int32_t>((*out)[0]), ElementsAre(7, -8));
  EXPECT_THAT(AsValues<float>((*out)[1]), ElementsAre(2, 4, 6));
}

// Control flow: the predicate of each while condition or if, and the
// index of each case, is read back to the host, one device-to-host
// transfer each.

// The device-to-host operations counted on `device` so far.
int64_t DeviceToHostOps(const Device& device) {
  auto counters = device.transfer_counters();
  EXPECT_TRUE(counters.ok()) << counters.status();
  return counters.ok() ? counters->device_to_host_ops : -1;
}

std::vector<int32_t> AsInts(const std::vector<uint8_t>& bytes) {
  std::vector<int32_t> values(bytes.size() / sizeof(int32_t));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(int32_t));
  return values;
}

// Counts to %n, adding %v (read from the enclosing function) to an
// accumulator each time round.
constexpr char kSumNTimes[] = R"(
func.func @main(%v: tensor<1000xf32>, %n: tensor<i32>) -> (tensor<i32>, tensor<1000xf32>) {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %empty = stablehlo.constant dense<0.0> : tensor<1000xf32>
  %count, %sum = stablehlo.while(%i = %zero, %acc = %empty) : tensor<i32>, tensor<1000xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %next = stablehlo.add %i, %one : tensor<i32>
    %more = stablehlo.add %acc, %v : tensor<1000xf32>
    stablehlo.return %next, %more : tensor<i32>, tensor<1000xf32>
  }
  func.return %count, %sum : tensor<i32>, tensor<1000xf32>
}
)";

TEST_F(CudaPluginTest, RunsAWhileLoopReadingEachConditionBackOnce) {
  auto executable = Executable::Compile(*client_, kSumNTimes);
  ASSERT_TRUE(executable.ok()) << executable.status();
  std::vector<float> v(1000);
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f * static_cast<float>(i);
  for (int32_t n : {7, 0}) {
    SCOPED_TRACE(n);
    const Device& device = devices_[1];
    auto v_buffer = Upload(v, device);
    auto n_buffer =
        client_->BufferFromHost(&n, PJRTX_Buffer_Type_S32, {}, device);
    ASSERT_TRUE(v_buffer.ok() && n_buffer.ok());
    ASSERT_TRUE(v_buffer->ToHostSync().ok());  // Uploaded before counting.
    const int64_t before = DeviceToHostOps(device);
    auto run = executable->Execute(device, {&*v_buffer, &*n_buffer});
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->done.Await().ok()) << run->done.Await();
    // n + 1 conditions, n of them true.
    EXPECT_EQ(DeviceToHostOps(device) - before, n + 1);
    auto count = run->outputs[0].ToHostSync();
    auto sum = run->outputs[1].ToHostSync();
    ASSERT_TRUE(count.ok() && sum.ok());
    EXPECT_THAT(AsInts(*count), ElementsAre(n));
    const std::vector<float> sums = AsFloats(*sum);
    ASSERT_EQ(sums.size(), v.size());
    int wrong = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      // Exact: multiples of 0.5 below 2^24 / 8.
      if (sums[i] != static_cast<float>(n) * v[i]) ++wrong;
    }
    EXPECT_EQ(wrong, 0);
  }
}

TEST_F(CudaPluginTest, NestedLoopsReadBackEveryCondition) {
  // The loop runs n (n - 1) / 2 inner iterations.
  auto executable = Executable::Compile(
      *client_, ::pjrtx::test_programs::kNestedWhileTriangle);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int32_t n = 5;
  auto n_buffer =
      client_->BufferFromHost(&n, PJRTX_Buffer_Type_S32, {}, devices_[0]);
  ASSERT_TRUE(n_buffer.ok()) << n_buffer.status();
  ASSERT_TRUE(n_buffer->ToHostSync().ok());
  const int64_t before = DeviceToHostOps(devices_[0]);
  auto run = executable->Execute(devices_[0], {&*n_buffer});
  ASSERT_TRUE(run.ok()) << run.status();
  ASSERT_TRUE(run->done.Await().ok()) << run->done.Await();
  // The outer condition n + 1 times; the inner one i + 1 times for each
  // i < n.
  EXPECT_EQ(DeviceToHostOps(devices_[0]) - before, (n + 1) + n * (n + 1) / 2);
  auto total = run->outputs[0].ToHostSync();
  ASSERT_TRUE(total.ok()) << total.status();
  EXPECT_THAT(AsInts(*total), ElementsAre(n * (n - 1) / 2));
}

TEST_F(CudaPluginTest, IfAndCaseRunTheBranchTheirSelectorPicks) {
  constexpr char kIf[] = R"(
func.func @main(%p: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "stablehlo.if"(%p) ({
    %twice = stablehlo.add %x, %x : tensor<4xf32>
    stablehlo.return %twice : tensor<4xf32>
  }, {
    %negated = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %negated : tensor<4xf32>
  }) : (tensor<i1>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
)";
  constexpr char kCase[] = R"(
func.func @main(%k: tensor<i32>, %x: tensor<4xf32>) -> (tensor<4xf32>, tensor<i32>) {
  %ten = stablehlo.constant dense<10> : tensor<i32>
  %r, %tag = "stablehlo.case"(%k) ({
    %a = stablehlo.multiply %x, %x : tensor<4xf32>
    %c0 = stablehlo.constant dense<0> : tensor<i32>
    stablehlo.return %a, %c0 : tensor<4xf32>, tensor<i32>
  }, {
    %c1 = stablehlo.constant dense<1> : tensor<i32>
    stablehlo.return %x, %c1 : tensor<4xf32>, tensor<i32>
  }, {
    %b = stablehlo.negate %x : tensor<4xf32>
    stablehlo.return %b, %ten : tensor<4xf32>, tensor<i32>
  }) : (tensor<i32>) -> (tensor<4xf32>, tensor<i32>)
  func.return %r, %tag : tensor<4xf32>, tensor<i32>
}
)";
  auto if_program = Executable::Compile(*client_, kIf);
  ASSERT_TRUE(if_program.ok()) << if_program.status();
  auto case_program = Executable::Compile(*client_, kCase);
  ASSERT_TRUE(case_program.ok()) << case_program.status();
  const Device& device = devices_[0];
  auto x = Upload({1, -2, 3, 0.5f}, device);
  ASSERT_TRUE(x.ok()) << x.status();
  ASSERT_TRUE(x->ToHostSync().ok());

  for (bool p : {true, false}) {
    SCOPED_TRACE(p);
    const uint8_t predicate = p ? 1 : 0;
    auto p_buffer =
        client_->BufferFromHost(&predicate, PJRTX_Buffer_Type_PRED, {}, device);
    ASSERT_TRUE(p_buffer.ok()) << p_buffer.status();
    ASSERT_TRUE(p_buffer->ToHostSync().ok());
    const int64_t before = DeviceToHostOps(device);
    auto run = if_program->Execute(device, {&*p_buffer, &*x});
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->done.Await().ok()) << run->done.Await();
    EXPECT_EQ(DeviceToHostOps(device) - before, 1);
    auto y = run->outputs[0].ToHostSync();
    ASSERT_TRUE(y.ok()) << y.status();
    if (p) {
      EXPECT_THAT(AsFloats(*y), ElementsAre(2, -4, 6, 1));
    } else {
      EXPECT_THAT(AsFloats(*y), ElementsAre(-1, 2, -3, -0.5f));
    }
  }

  // Indices out of range, either way, run the last branch.
  for (int32_t k : {0, 1, 2, 3, -1}) {
    SCOPED_TRACE(k);
    auto k_buffer =
        client_->BufferFromHost(&k, PJRTX_Buffer_Type_S32, {}, device);
    ASSERT_TRUE(k_buffer.ok()) << k_buffer.status();
    ASSERT_TRUE(k_buffer->ToHostSync().ok());
    const int64_t before = DeviceToHostOps(device);
    auto run = case_program->Execute(device, {&*k_buffer, &*x});
    ASSERT_TRUE(run.ok()) << run.status();
    ASSERT_TRUE(run->done.Await().ok()) << run->done.Await();
    EXPECT_EQ(DeviceToHostOps(device) - before, 1);
    auto y = run->outputs[0].ToHostSync();
    auto tag = run->outputs[1].ToHostSync();
    ASSERT_TRUE(y.ok() && tag.ok());
    switch (k) {
      case 0:
        EXPECT_THAT(AsFloats(*y), ElementsAre(1, 4, 9, 0.25f));
        EXPECT_THAT(AsInts(*tag), ElementsAre(0));
        break;
      case 1:
        EXPECT_THAT(AsFloats(*y), ElementsAre(1, -2, 3, 0.5f));
        EXPECT_THAT(AsInts(*tag), ElementsAre(1));
        break;
      default:
        EXPECT_THAT(AsFloats(*y), ElementsAre(-1, 2, -3, -0.5f));
        EXPECT_THAT(AsInts(*tag), ElementsAre(10));
        break;
    }
  }
}

TEST_F(CudaPluginTest, UnsupportedOpInALoopBodyIsNamed) {
  constexpr char kCaptureInLoop[] = R"(
func.func @main(%x: tensor<8xf32>, %n: tensor<i32>) -> tensor<8xf32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %one = stablehlo.constant dense<1> : tensor<i32>
  %i_end, %y = stablehlo.while(%i = %zero, %v = %x) : tensor<i32>, tensor<8xf32>
  cond {
    %lt = stablehlo.compare LT, %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %k = stablehlo.convert %i : (tensor<i32>) -> tensor<f32>
    %fzero = stablehlo.constant dense<0.0> : tensor<f32>
    %r = stablehlo.reduce(%v init: %fzero) across dimensions = [0] : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
     reducer(%a: tensor<f32>, %b: tensor<f32>) {
      %s = stablehlo.add %a, %b : tensor<f32>
      %t = stablehlo.multiply %s, %k : tensor<f32>
      stablehlo.return %t : tensor<f32>
    }
    %w = stablehlo.broadcast_in_dim %r, dims = [] : (tensor<f32>) -> tensor<8xf32>
    %i1 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i1, %w : tensor<i32>, tensor<8xf32>
  }
  func.return %y : tensor<8xf32>
}
)";
  auto executable = Executable::Compile(*client_, kCaptureInLoop);
  ASSERT_FALSE(executable.ok());
  EXPECT_EQ(executable.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(executable.status().message()),
              HasSubstr("12:10: stablehlo.reduce with a region that reads "
                        "values from outside it is not supported"));
}

// ctest entry cuda.fault_in_loop: FAKE_CUDA_FAIL_AFTER=cuLaunchKernel:5,
// so the sixth launch, in the loop's third iteration, fails.
TEST_F(CudaPluginTest, LoopFailingMidwayReturnsTheErrorNotAHang) {
  if (!FaultInjected("FAKE_CUDA_FAIL_AFTER")) {
    GTEST_SKIP() << "runs with FAKE_CUDA_FAIL_AFTER set";
  }
  auto executable = Executable::Compile(*client_, kSumNTimes);
  ASSERT_TRUE(executable.ok()) << executable.status();
  const int32_t n = 10;
  auto v = Upload(Iota(1000, 1.0f), devices_[0]);
  auto n_buffer =
      client_->BufferFromHost(&n, PJRTX_Buffer_Type_S32, {}, devices_[0]);
  ASSERT_TRUE(v.ok() && n_buffer.ok());
  auto run = executable->Execute(devices_[0], {&*v, &*n_buffer});
  const absl::Status status = run.ok() ? run->done.Await() : run.status();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("CUDA_ERROR_UNKNOWN"));
  EXPECT_THAT(status.message(), HasSubstr("6:18: stablehlo.while"));
  if (run.ok()) {
    auto out = run->outputs[1].ToHostSync();
    EXPECT_FALSE(out.ok());
  }
  // The failure is the run's, not the GPU's: transfers go on working.
  auto back = v->ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(AsFloats(*back) == Iota(1000, 1.0f));
}

// ctest entry cuda.fault_allocation: FAKE_CUDA_FAIL_ALLOC_AFTER=2.
TEST_F(CudaPluginTest, AllocationFailureIsResourceExhaustedNotACrash) {
  if (!FaultInjected("FAKE_CUDA_FAIL_ALLOC_AFTER")) {
    GTEST_SKIP() << "runs with FAKE_CUDA_FAIL_ALLOC_AFTER set";
  }
  absl::Status failure;
  std::vector<Buffer> kept;
  for (int i = 0; i < 8 && failure.ok(); ++i) {
    auto buffer = Upload(Iota(256, 1.0f), devices_[0]);
    if (buffer.ok()) {
      kept.push_back(*std::move(buffer));
    } else {
      failure = buffer.status();
    }
  }
  EXPECT_EQ(failure.code(), absl::StatusCode::kResourceExhausted) << failure;
  EXPECT_THAT(failure.message(), HasSubstr("CUDA_ERROR_OUT_OF_MEMORY"));
  // What was allocated before still works.
  ASSERT_FALSE(kept.empty());
  auto back = kept.front().ToHostSync();
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(AsFloats(*back) == Iota(256, 1.0f));
}

// ctest entry cuda.fault_launch: FAKE_CUDA_FAIL_LAUNCH=1.
TEST_F(CudaPluginTest, LaunchFailureFailsTheRunAndItsGpuNotTheProcess) {
  if (!FaultInjected("FAKE_CUDA_FAIL_LAUNCH")) {
    GTEST_SKIP() << "runs with FAKE_CUDA_FAIL_LAUNCH set";
  }
  auto executable = Executable::Compile(*client_, kChain);
  ASSERT_TRUE(executable.ok()) << executable.status();
  auto x = Upload(Iota(10000, 1.0f), devices_[0]);
  ASSERT_TRUE(x.ok()) << x.status();
  const float scalar = 1.0f;
  auto s0 =
      client_->BufferFromHost(&scalar, PJRTX_Buffer_Type_F32, {}, devices_[0]);
  ASSERT_TRUE(s0.ok()) << s0.status();
  auto run = executable->Execute(devices_[0], {&*x, &*s0});
  absl::Status status = run.ok() ? run->done.Await() : run.status();
  EXPECT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("CUDA_ERROR_LAUNCH_FAILED"));
  // A launch failure is sticky, as on a real GPU: later work on that GPU
  // fails with it instead of hanging or crashing...
  auto back = x->ToHostSync();
  EXPECT_FALSE(back.ok());
  EXPECT_THAT(back.status().message(), HasSubstr("CUDA_ERROR_LAUNCH_FAILED"));
  // ...while the other GPU goes on working.
  auto other = Upload(Iota(100, 1.0f), devices_[1]);
  ASSERT_TRUE(other.ok()) << other.status();
  auto other_back = other->ToHostSync();
  ASSERT_TRUE(other_back.ok()) << other_back.status();
  EXPECT_TRUE(AsFloats(*other_back) == Iota(100, 1.0f));
}

}  // namespace
