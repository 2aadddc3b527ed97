// Each plugin driven through the OpenXLA PJRT C API front door
// (runtime/pjrt, DESIGN.md 3a) the way JAX drives a PJRT plugin: loaded with
// dlopen, GetPjrtApi, the version gate, then the calls of REFERENCE 1.11 in
// JAX's order (client set-up, jax.devices(), device_put, jit compile,
// execute, np.asarray), with the arguments JAX passes (memory set and device
// NULL, byte strides, a Profiler extension node on compile and execute,
// serialized CompileOptionsProto made by jaxlib, caller-allocated output
// lists). Where JAX aborts the process on an error (F in REFERENCE 1.11)
// the replay asserts success. Then the edges a framework hits: struct
// sizes of another header version, a program that does not verify, MLIR
// bytecode, donation, events that are already ready, deleted buffers.
//
// Plugins come from compile definitions (TPUEMU_PLUGIN, CUDA_PLUGIN); the
// CUDA one runs on the fake driver (tests/plugins/cuda/fake_cuda) in the
// `unit` entries, on the real one in the `gpu` entry, and without a driver
// in CudaWithoutDriver. Compile options written by jaxlib come from
// PJRT_REPLAY_TESTDATA (or the source tree's testdata/).
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/pjrt/pjrt_c_api.h"
#include "tests/runtime/pjrt/client_replay_support.h"

namespace pjrt_replay {
namespace {

using ::testing::ElementsAre;
using ::testing::ElementsAreArray;
using ::testing::HasSubstr;

constexpr auto kEventTimeout = std::chrono::seconds(60);

// ---------------------------------------------------------------- plugins

struct PluginCase {
  std::string name;  // the test name's suffix
  std::string path;
  std::string platform;  // what PJRT_Client_PlatformName must say
  std::vector<std::pair<std::string, std::string>> create_options;
  bool tpu = false;   // TPU device attributes (coords, core_on_chip, ...)
  bool cuda = false;  // the CUDA plugin: skipped without a GPU, see below
};

void PrintTo(const PluginCase& plugin, std::ostream* os) {
  *os << plugin.name << " (" << plugin.path << ")";
}

// The plugin at `built` unless the environment variable `variable` names
// another path (tests/gpu/bundle.sh moves the build tree; CTest then says
// where the plugin went).
std::string PluginPath(const char* variable, const char* built) {
  const char* path = std::getenv(variable);
  return path != nullptr && *path != '\0' ? path : built;
}

std::vector<PluginCase> Plugins() {
  std::vector<PluginCase> plugins;
  plugins.push_back({"tpuemu",
                     PluginPath("PJRT_REPLAY_TPUEMU_PLUGIN", TPUEMU_PLUGIN),
                     "tpuemu",
                     {{"topology", "v5e:2x4"}},
                     /*tpu=*/true,
                     /*cuda=*/false});
#ifdef CUDA_PLUGIN
  plugins.push_back({"cuda",
                     PluginPath("PJRT_REPLAY_CUDA_PLUGIN", CUDA_PLUGIN),
                     "pjrtx_cuda",
                     {},
                     /*tpu=*/false,
                     /*cuda=*/true});
#endif
  return plugins;
}

// A plugin loaded as JAX loads it (REFERENCE 1.11 "load"): dlopen with
// RTLD_LAZY | RTLD_LOCAL (| RTLD_DEEPBIND, which sanitizer runtimes
// refuse), GetPjrtApi, the version gate, PJRT_Plugin_Initialize exactly
// once per process. Never unloaded, as frameworks never unload plugins.
struct LoadedPlugin {
  void* handle = nullptr;
  const PJRT_Api* api = nullptr;
  std::string error;  // empty when every step succeeded
};

const LoadedPlugin& LoadPlugin(const std::string& path) {
  static std::mutex mu;
  static auto* loaded = new std::map<std::string, LoadedPlugin>();
  std::lock_guard<std::mutex> lock(mu);
  auto [it, inserted] = loaded->try_emplace(path);
  LoadedPlugin& plugin = it->second;
  if (!inserted) return plugin;

  int flags = RTLD_LAZY | RTLD_LOCAL;
  if (!SanitizerRuntimeLoaded()) flags |= RTLD_DEEPBIND;
  plugin.handle = dlopen(path.c_str(), flags);
  if (plugin.handle == nullptr) {
    const char* why = dlerror();
    plugin.error = "dlopen(" + path + "): " + (why ? why : "unknown error");
    return plugin;
  }
  using GetPjrtApiFn = const PJRT_Api* (*)();
  auto get = reinterpret_cast<GetPjrtApiFn>(dlsym(plugin.handle, "GetPjrtApi"));
  if (get == nullptr) {
    plugin.error = "GetPjrtApi not found in " + path;
    return plugin;
  }
  plugin.api = get();
  if (plugin.api == nullptr) {
    plugin.error = "GetPjrtApi returned NULL";
    return plugin;
  }
  const PJRT_Api_Version& version = plugin.api->pjrt_api_version;
  if (version.major_version != PJRT_API_MAJOR ||
      version.minor_version != PJRT_API_MINOR) {
    std::ostringstream message;
    message << "Mismatched PJRT plugin PJRT API version ("
            << version.major_version << "." << version.minor_version
            << ") and framework PJRT API version " << PJRT_API_MAJOR << "."
            << PJRT_API_MINOR;
    plugin.error = message.str();
    return plugin;
  }
  if (plugin.api->struct_size < PJRT_Api_STRUCT_SIZE) {
    plugin.error = "PJRT_Api.struct_size " +
                   std::to_string(plugin.api->struct_size) + " < " +
                   std::to_string(PJRT_Api_STRUCT_SIZE);
    return plugin;
  }
  auto args = PJRT_REPLAY_ARGS(PJRT_Plugin_Initialize_Args);
  Status status =
      TakeError(plugin.api, plugin.api->PJRT_Plugin_Initialize(&args));
  if (!status.ok()) {
    std::ostringstream message;
    message << "PJRT_Plugin_Initialize: " << status;
    plugin.error = message.str();
  }
  return plugin;
}

std::string TestdataPath(const std::string& name) {
  const char* dir = std::getenv("PJRT_REPLAY_TESTDATA");
  return std::string(
             dir != nullptr && *dir != '\0' ? dir : PJRT_REPLAY_TESTDATA_DIR) +
         "/" + name;
}

// The file's bytes, or nullopt when it cannot be read.
std::optional<std::string> ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// Whether `message` has a "<line>:<column>" position on `line`.
bool HasPosition(const std::string& message, int line) {
  const std::string prefix = std::to_string(line) + ":";
  for (size_t pos = message.find(prefix); pos != std::string::npos;
       pos = message.find(prefix, pos + 1)) {
    const size_t after = pos + prefix.size();
    if ((pos == 0 ||
         !std::isdigit(static_cast<unsigned char>(message[pos - 1]))) &&
        after < message.size() &&
        std::isdigit(static_cast<unsigned char>(message[after]))) {
      return true;
    }
  }
  return false;
}

template <typename T>
std::vector<T> As(const std::vector<uint8_t>& bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Upstream's PJRT_Profiler_Extension as JAX puts it on
// PJRT_Client_Compile_Args and PJRT_LoadedExecutable_Execute_Args: a node
// of type Profiler with no profiler API and a TraceMe context id.
struct ProfilerNode {
  PJRT_Extension_Base base;
  void* profiler_api;
  int64_t traceme_context_id;
};

ProfilerNode MakeProfilerNode() {
  ProfilerNode node;
  std::memset(static_cast<void*>(&node), 0, sizeof(node));
  node.base.struct_size = sizeof(ProfilerNode);
  node.base.type = PJRT_Extension_Type_Profiler;
  node.base.next = nullptr;
  node.profiler_api = nullptr;
  node.traceme_context_id = 7;
  return node;
}

// ---------------------------------------------------------------- programs

// jax.jit(lambda x, y: x * y + x) on f32[2,3], as JAX prints it.
constexpr char kOneOutput[] =
    R"(module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32> {mhlo.layout_mode = "default"}, %arg1: tensor<2x3xf32> {mhlo.layout_mode = "default"}) -> (tensor<2x3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.multiply %arg0, %arg1 : tensor<2x3xf32>
    %1 = stablehlo.add %0, %arg0 : tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
)";

// Four outputs of three shapes (one of rank 0) and two element types.
constexpr char kSeveralOutputs[] =
    R"(module @jit_g attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> (tensor<4xi32> {jax.result_info = "[0]"}, tensor<4xi32> {jax.result_info = "[1]"}, tensor<i32> {jax.result_info = "[2]"}, tensor<2x2xf32> {jax.result_info = "[3]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xi32>
    %1 = stablehlo.subtract %arg0, %arg1 : tensor<4xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %2 = stablehlo.reduce(%0 init: %c) applies stablehlo.add across dimensions = [0] : (tensor<4xi32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.convert %arg0 : (tensor<4xi32>) -> tensor<4xf32>
    %4 = stablehlo.reshape %3 : (tensor<4xf32>) -> tensor<2x2xf32>
    return %0, %1, %2, %4 : tensor<4xi32>, tensor<4xi32>, tensor<i32>, tensor<2x2xf32>
  }
}
)";

// Inputs of bool, bf16 and complex<f32>.
constexpr char kElementTypes[] =
    R"(module @jit_h attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xi1>, %arg1: tensor<4xbf16>, %arg2: tensor<3xcomplex<f32>>) -> (tensor<4xi1>, tensor<4xbf16>, tensor<3xcomplex<f32>>, tensor<3xf32>) {
    %0 = stablehlo.not %arg0 : tensor<4xi1>
    %1 = stablehlo.add %arg1, %arg1 : tensor<4xbf16>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<4xi1>, tensor<4xbf16>, tensor<4xbf16>) -> tensor<4xbf16>
    %3 = stablehlo.multiply %arg2, %arg2 : tensor<3xcomplex<f32>>
    %4 = stablehlo.real %arg2 : (tensor<3xcomplex<f32>>) -> tensor<3xf32>
    return %0, %2, %3, %4 : tensor<4xi1>, tensor<4xbf16>, tensor<3xcomplex<f32>>, tensor<3xf32>
  }
}
)";

// Two replicas, each doubling its own input.
constexpr char kTwoReplicas[] =
    R"(module @jit_r attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 2 : i32} {
  func.func public @main(%arg0: tensor<3xf32> {mhlo.layout_mode = "default"}) -> (tensor<3xf32> {jax.result_info = "", mhlo.layout_mode = "default"}) {
    %0 = stablehlo.add %arg0, %arg0 : tensor<3xf32>
    return %0 : tensor<3xf32>
  }
}
)";

// jax.jit(lambda x, y: x + y, donate_argnums=0): argument 0 aliases
// output 0.
constexpr char kDonating[] =
    R"(module @jit_d attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32> {tf.aliasing_output = 0 : i32}, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

// The same without aliasing.
constexpr char kNotDonating[] =
    R"(module @jit_e attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> (tensor<4xf32> {jax.result_info = ""}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
)";

// Parses, but stablehlo.add (line 2) does not verify: its operands'
// shapes differ.
constexpr char kNotVerifying[] =
    R"(func.func @main(%a: tensor<2xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = stablehlo.add %a, %b : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
)";

// ---------------------------------------------------------------- fixture

struct ExecutableInfo {
  std::vector<PJRT_Device*> devices;  // LoadedExecutable_AddressableDevices
  std::string device_assignment;      // serialized DeviceAssignmentProto
  size_t num_outputs = 0;
  std::vector<PJRT_Buffer_Type> output_types;
  std::vector<std::vector<int64_t>> output_dims;
  std::vector<std::string> output_memory_kinds;
  std::string name;
  size_t num_replicas = 0;
  size_t num_partitions = 0;
  Status fingerprint_status;
  std::string fingerprint;
};

// Outputs and completion events of one PJRT_LoadedExecutable_Execute.
struct Launch {
  std::vector<std::vector<BufferPtr>> outputs;  // [device][output]
  std::vector<EventPtr> done;                   // [device]
};

#define PJRT_ASSERT_OK(expr)                                 \
  do {                                                       \
    ::pjrt_replay::Status status_ = TakeError(api_, (expr)); \
    ASSERT_TRUE(status_.ok()) << #expr << ": " << status_;   \
  } while (false)
#define PJRT_EXPECT_OK(expr)                                 \
  do {                                                       \
    ::pjrt_replay::Status status_ = TakeError(api_, (expr)); \
    EXPECT_TRUE(status_.ok()) << #expr << ": " << status_;   \
  } while (false)

class ClientReplayTest : public ::testing::TestWithParam<PluginCase> {
 protected:
  void SetUp() override {
    const LoadedPlugin& plugin = LoadPlugin(GetParam().path);
    ASSERT_TRUE(plugin.error.empty()) << plugin.error;
    api_ = plugin.api;
  }

  void TearDown() override {
    // Client_Destroy, after the test's buffers and executables are gone.
    client_.reset();
    // Every zero-copy buffer is gone: each done_with_host_buffer fired.
    for (const auto& probe : zero_copy_done_) {
      EXPECT_TRUE(probe->WaitFor(kEventTimeout))
          << "kImmutableZeroCopy: done_with_host_buffer never fired, though "
             "its buffer was destroyed";
      EXPECT_TRUE(probe->status().ok()) << probe->status();
    }
  }

  PJRT_Client* client() const { return client_.get(); }
  EventPtr Own(PJRT_Event* event) const {
    return EventPtr(event, EventDeleter{api_});
  }
  BufferPtr Own(PJRT_Buffer* buffer) const {
    return BufferPtr(buffer, BufferDeleter{api_});
  }

  // PJRT_Client_Create with the plugin's create options as NamedValues.
  // The CUDA plugin finds no GPU when the test runs outside CTest without
  // a driver: that skips (the `unit` entries name the fake driver, the
  // `gpu` entry runs only where require_gpu.sh found a GPU).
  void CreateClient() {
    std::vector<PJRT_NamedValue> options;
    for (const auto& [name, value] : GetParam().create_options) {
      auto option = PJRT_REPLAY_ARGS(PJRT_NamedValue);
      option.name = name.data();
      option.name_size = name.size();
      option.type = PJRT_NamedValue_kString;
      option.string_value = value.data();
      option.value_size = value.size();
      options.push_back(option);
    }
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_Create_Args);
    args.create_options = options.data();
    args.num_options = options.size();
    Status status = TakeError(api_, api_->PJRT_Client_Create(&args));
    if (!status.ok() && GetParam().cuda &&
        std::getenv("PJRTX_CUDA_DRIVER_PATH") == nullptr) {
      GTEST_SKIP() << "no usable CUDA GPU (run through CTest for the fake "
                      "driver): "
                   << status;
    }
    ASSERT_TRUE(status.ok()) << "PJRT_Client_Create: " << status;
    ASSERT_NE(args.client, nullptr);
    client_ = ClientPtr(args.client, ClientDeleter{api_});
  }

  // Plugin_Attributes: xla_version (int64), stablehlo_current_version and
  // stablehlo_minimum_version (int64 lists of 3), current >= 1.11.0.
  void CheckPluginAttributes() {
    auto args = PJRT_REPLAY_ARGS(PJRT_Plugin_Attributes_Args);
    PJRT_ASSERT_OK(api_->PJRT_Plugin_Attributes(&args));
    ASSERT_TRUE(args.num_attributes == 0 || args.attributes != nullptr);
    std::map<std::string, const PJRT_NamedValue*> by_name;
    for (size_t i = 0; i < args.num_attributes; ++i) {
      const PJRT_NamedValue& attribute = args.attributes[i];
      by_name[Str(attribute.name, attribute.name_size)] = &attribute;
    }
    const PJRT_NamedValue* xla_version = by_name["xla_version"];
    ASSERT_NE(xla_version, nullptr) << "no xla_version plugin attribute";
    EXPECT_EQ(xla_version->type, PJRT_NamedValue_kInt64);
    EXPECT_EQ(xla_version->value_size, 1u);
    std::vector<int64_t> versions[2];
    const char* const kVersionNames[] = {"stablehlo_current_version",
                                         "stablehlo_minimum_version"};
    for (int i = 0; i < 2; ++i) {
      const PJRT_NamedValue* version = by_name[kVersionNames[i]];
      ASSERT_NE(version, nullptr) << "no " << kVersionNames[i];
      // JAX reads these with std::get<std::vector<int64_t>>.
      ASSERT_EQ(version->type, PJRT_NamedValue_kInt64List) << kVersionNames[i];
      ASSERT_EQ(version->value_size, 3u) << kVersionNames[i];
      versions[i].assign(version->int64_array_value,
                         version->int64_array_value + 3);
    }
    EXPECT_GE(versions[0], (std::vector<int64_t>{1, 11, 0}))
        << "below 1.11.0 JAX may send MLIR bytecode without VHLO";
    EXPECT_LE(versions[1], versions[0]);
    if (first_attributes_ == nullptr) {
      first_attributes_ = args.attributes;
    } else {
      // They live for the process.
      EXPECT_EQ(args.attributes, first_attributes_);
    }
  }

  // The "client set-up" phase of REFERENCE 1.11, after Client_Create.
  void SetUpClient() {
    // Client_TopologyDescription may fail (S); when it succeeds its
    // PlatformVersion, PlatformName and Attributes are fatal (F).
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_TopologyDescription_Args);
      args.client = client();
      Status status =
          TakeError(api_, api_->PJRT_Client_TopologyDescription(&args));
      if (status.ok()) {
        ASSERT_NE(args.topology, nullptr);
        auto version =
            PJRT_REPLAY_ARGS(PJRT_TopologyDescription_PlatformVersion_Args);
        version.topology = args.topology;
        PJRT_ASSERT_OK(
            api_->PJRT_TopologyDescription_PlatformVersion(&version));
        auto name =
            PJRT_REPLAY_ARGS(PJRT_TopologyDescription_PlatformName_Args);
        name.topology = args.topology;
        PJRT_ASSERT_OK(api_->PJRT_TopologyDescription_PlatformName(&name));
        EXPECT_EQ(Str(name.platform_name, name.platform_name_size),
                  GetParam().platform);
        auto attributes =
            PJRT_REPLAY_ARGS(PJRT_TopologyDescription_Attributes_Args);
        attributes.topology = args.topology;
        PJRT_ASSERT_OK(api_->PJRT_TopologyDescription_Attributes(&attributes));
        for (size_t i = 0; i < attributes.num_attributes; ++i) {
          EXPECT_LE(static_cast<int>(attributes.attributes[i].type),
                    static_cast<int>(PJRT_NamedValue_kBool));
        }
        // jax.experimental.topologies reads the topology's devices.
        auto descriptions = PJRT_REPLAY_ARGS(
            PJRT_TopologyDescription_GetDeviceDescriptions_Args);
        descriptions.topology = args.topology;
        PJRT_EXPECT_OK(api_->PJRT_TopologyDescription_GetDeviceDescriptions(
            &descriptions));
        EXPECT_GT(descriptions.num_descriptions, 0u);
      } else {
        std::cout << "note: PJRT_Client_TopologyDescription: " << status
                  << " (tolerated)\n";
      }
    }
    // The extension chain: walked once, unknown types skipped.
    {
      int nodes = 0;
      for (const PJRT_Extension_Base* node = api_->extension_start;
           node != nullptr; node = node->next) {
        ASSERT_LT(++nodes, 64) << "the extension chain does not end";
        EXPECT_GE(node->struct_size,
                  static_cast<size_t>(PJRT_Extension_Base_STRUCT_SIZE));
      }
    }
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_PlatformVersion_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_PlatformVersion(&args));
      EXPECT_FALSE(
          Str(args.platform_version, args.platform_version_size).empty());
    }
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_PlatformName_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_PlatformName(&args));
      EXPECT_EQ(Str(args.platform_name, args.platform_name_size),
                GetParam().platform);
    }
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_Devices_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_Devices(&args));
      ASSERT_GT(args.num_devices, 0u);
      ASSERT_NE(args.devices, nullptr);
      devices_.assign(args.devices, args.devices + args.num_devices);
    }
    std::set<std::pair<std::vector<int64_t>, int64_t>> tpu_cores;
    for (PJRT_Device* device : devices_) {
      ASSERT_NE(device, nullptr);
      auto description = PJRT_REPLAY_ARGS(PJRT_Device_GetDescription_Args);
      description.device = device;
      PJRT_ASSERT_OK(api_->PJRT_Device_GetDescription(&description));
      ASSERT_NE(description.device_description, nullptr);
      descriptions_[device] = description.device_description;
      auto attributes =
          PJRT_REPLAY_ARGS(PJRT_DeviceDescription_Attributes_Args);
      attributes.device_description = description.device_description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_Attributes(&attributes));
      ASSERT_TRUE(attributes.num_attributes == 0 ||
                  attributes.attributes != nullptr);
      std::map<std::string, const PJRT_NamedValue*> by_name;
      for (size_t i = 0; i < attributes.num_attributes; ++i) {
        const PJRT_NamedValue& attribute = attributes.attributes[i];
        const std::string name = Str(attribute.name, attribute.name_size);
        by_name[name] = &attribute;
        // JAX's PjRtCApiDeviceDescription::InitAttributes aborts on any
        // other type.
        switch (attribute.type) {
          case PJRT_NamedValue_kString:
            EXPECT_TRUE(attribute.value_size == 0 ||
                        attribute.string_value != nullptr)
                << name;
            break;
          case PJRT_NamedValue_kInt64:
            EXPECT_EQ(attribute.value_size, 1u) << name;
            break;
          case PJRT_NamedValue_kInt64List:
            EXPECT_TRUE(attribute.value_size == 0 ||
                        attribute.int64_array_value != nullptr)
                << name;
            break;
          default:
            ADD_FAILURE() << "device attribute " << name << " has type "
                          << attribute.type
                          << ": JAX accepts only string, int64 and int64 "
                             "list (LOG(FATAL) otherwise)";
        }
      }
      if (GetParam().tpu) {
        const PJRT_NamedValue* coords = by_name["coords"];
        const PJRT_NamedValue* core = by_name["core_on_chip"];
        const PJRT_NamedValue* slice = by_name["slice_index"];
        ASSERT_NE(coords, nullptr) << "no coords attribute";
        ASSERT_NE(core, nullptr) << "no core_on_chip attribute";
        ASSERT_NE(slice, nullptr) << "no slice_index attribute";
        ASSERT_EQ(coords->type, PJRT_NamedValue_kInt64List);
        ASSERT_EQ(coords->value_size, 3u);
        ASSERT_EQ(core->type, PJRT_NamedValue_kInt64);
        ASSERT_EQ(slice->type, PJRT_NamedValue_kInt64);
        EXPECT_EQ(slice->int64_value, 0);
        // mesh_utils needs unique (coords, core_on_chip) pairs.
        EXPECT_TRUE(
            tpu_cores
                .insert({std::vector<int64_t>(coords->int64_array_value,
                                              coords->int64_array_value + 3),
                         core->int64_value})
                .second);
      }
    }
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_AddressableDevices_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_AddressableDevices(&args));
      ASSERT_GT(args.num_addressable_devices, 0u);
      addressable_.assign(
          args.addressable_devices,
          args.addressable_devices + args.num_addressable_devices);
      for (PJRT_Device* device : addressable_) {
        EXPECT_NE(std::find(devices_.begin(), devices_.end(), device),
                  devices_.end());
      }
      // One process: every device is addressable.
      EXPECT_EQ(addressable_.size(), devices_.size());
    }
    // Client_AddressableMemories and Device_AddressableMemories are
    // tolerated as UNIMPLEMENTED by JAX, but JAX >= 0.5.1 needs the memory
    // family to start (REFERENCE 1.7): required here.
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_AddressableMemories_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_AddressableMemories(&args));
      ASSERT_GT(args.num_addressable_memories, 0u);
      memories_.assign(
          args.addressable_memories,
          args.addressable_memories + args.num_addressable_memories);
    }
    std::map<PJRT_Memory*, std::set<PJRT_Device*>> device_memories;
    for (PJRT_Device* device : addressable_) {
      auto args = PJRT_REPLAY_ARGS(PJRT_Device_AddressableMemories_Args);
      args.device = device;
      PJRT_ASSERT_OK(api_->PJRT_Device_AddressableMemories(&args));
      ASSERT_GT(args.num_memories, 0u);
      for (size_t i = 0; i < args.num_memories; ++i) {
        PJRT_Memory* memory = args.memories[i];
        EXPECT_NE(std::find(memories_.begin(), memories_.end(), memory),
                  memories_.end())
            << "a device's memory is not among the client's";
        device_memories[memory].insert(device);
        memories_of_[device].push_back(memory);
      }
    }
    for (PJRT_Memory* memory : memories_) {
      auto args = PJRT_REPLAY_ARGS(PJRT_Memory_AddressableByDevices_Args);
      args.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_AddressableByDevices(&args));
      std::set<PJRT_Device*> devices(args.devices,
                                     args.devices + args.num_devices);
      EXPECT_EQ(devices, device_memories[memory])
          << "Memory_AddressableByDevices disagrees with "
             "Device_AddressableMemories";
      by_devices_[memory].assign(args.devices, args.devices + args.num_devices);
    }
    ASSERT_NO_FATAL_FAILURE(CheckPluginAttributes());
  }

  // The jax.devices() phase of REFERENCE 1.11.
  void QueryDevices() {
    std::set<int> ids;
    for (PJRT_Device* device : devices_) {
      PJRT_DeviceDescription* description = descriptions_[device];
      auto id = PJRT_REPLAY_ARGS(PJRT_DeviceDescription_Id_Args);
      id.device_description = description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_Id(&id));
      EXPECT_TRUE(ids.insert(id.id).second) << "device id " << id.id;
      device_id_[device] = id.id;
      auto process = PJRT_REPLAY_ARGS(PJRT_DeviceDescription_ProcessIndex_Args);
      process.device_description = description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_ProcessIndex(&process));
      EXPECT_EQ(process.process_index, 0);
      auto kind = PJRT_REPLAY_ARGS(PJRT_DeviceDescription_Kind_Args);
      kind.device_description = description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_Kind(&kind));
      EXPECT_FALSE(Str(kind.device_kind, kind.device_kind_size).empty());
      auto debug = PJRT_REPLAY_ARGS(PJRT_DeviceDescription_DebugString_Args);
      debug.device_description = description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_DebugString(&debug));
      EXPECT_FALSE(Str(debug.debug_string, debug.debug_string_size).empty());
      auto to_string = PJRT_REPLAY_ARGS(PJRT_DeviceDescription_ToString_Args);
      to_string.device_description = description;
      PJRT_ASSERT_OK(api_->PJRT_DeviceDescription_ToString(&to_string));
      EXPECT_FALSE(Str(to_string.to_string, to_string.to_string_size).empty());
      auto addressable = PJRT_REPLAY_ARGS(PJRT_Device_IsAddressable_Args);
      addressable.device = device;
      PJRT_ASSERT_OK(api_->PJRT_Device_IsAddressable(&addressable));
      EXPECT_TRUE(addressable.is_addressable);
      auto hardware = PJRT_REPLAY_ARGS(PJRT_Device_LocalHardwareId_Args);
      hardware.device = device;
      PJRT_ASSERT_OK(api_->PJRT_Device_LocalHardwareId(&hardware));
      EXPECT_GE(hardware.local_hardware_id, -1);
    }
    {
      auto args = PJRT_REPLAY_ARGS(PJRT_Client_ProcessIndex_Args);
      args.client = client();
      PJRT_ASSERT_OK(api_->PJRT_Client_ProcessIndex(&args));
      EXPECT_EQ(args.process_index, 0);
    }
    std::map<std::string, int> kind_ids;
    std::set<std::pair<int, int>> memory_ids;
    for (PJRT_Memory* memory : memories_) {
      auto id = PJRT_REPLAY_ARGS(PJRT_Memory_Id_Args);
      id.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_Id(&id));
      auto kind = PJRT_REPLAY_ARGS(PJRT_Memory_Kind_Args);
      kind.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_Kind(&kind));
      const std::string kind_name = Str(kind.kind, kind.kind_size);
      EXPECT_FALSE(kind_name.empty());
      memory_kind_[memory] = kind_name;
      auto kind_id_args = PJRT_REPLAY_ARGS(PJRT_Memory_Kind_Id_Args);
      kind_id_args.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_Kind_Id(&kind_id_args));
      auto [it, inserted] =
          kind_ids.try_emplace(kind_name, kind_id_args.kind_id);
      EXPECT_EQ(it->second, kind_id_args.kind_id)
          << "two kind ids for memory kind " << kind_name;
      EXPECT_TRUE(memory_ids.insert({kind_id_args.kind_id, id.id}).second)
          << "memory id " << id.id << " twice in kind " << kind_name;
      auto debug = PJRT_REPLAY_ARGS(PJRT_Memory_DebugString_Args);
      debug.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_DebugString(&debug));
      EXPECT_FALSE(Str(debug.debug_string, debug.debug_string_size).empty());
      auto to_string = PJRT_REPLAY_ARGS(PJRT_Memory_ToString_Args);
      to_string.memory = memory;
      PJRT_ASSERT_OK(api_->PJRT_Memory_ToString(&to_string));
      EXPECT_FALSE(Str(to_string.to_string, to_string.to_string_size).empty());
    }
    std::set<int> distinct_kind_ids;
    for (const auto& [name, id] : kind_ids) distinct_kind_ids.insert(id);
    EXPECT_EQ(distinct_kind_ids.size(), kind_ids.size())
        << "memory kinds share a kind id";
    for (PJRT_Device* device : addressable_) {
      auto args = PJRT_REPLAY_ARGS(PJRT_Device_DefaultMemory_Args);
      args.device = device;
      PJRT_ASSERT_OK(api_->PJRT_Device_DefaultMemory(&args));
      ASSERT_NE(args.memory, nullptr);
      const auto& own = memories_of_[device];
      EXPECT_NE(std::find(own.begin(), own.end(), args.memory), own.end())
          << "the default memory is not among the device's memories";
      default_memory_[device] = args.memory;
    }
  }

  // CreateClient, SetUpClient, QueryDevices.
  void StartClient() {
    ASSERT_NO_FATAL_FAILURE(CreateClient());
    if (IsSkipped()) return;
    ASSERT_NO_FATAL_FAILURE(SetUpClient());
    ASSERT_NO_FATAL_FAILURE(QueryDevices());
  }

  // Awaits `event` with PJRT_Event_Await; its status.
  Status Await(PJRT_Event* event) const {
    auto args = PJRT_REPLAY_ARGS(PJRT_Event_Await_Args);
    args.event = event;
    return TakeError(api_, api_->PJRT_Event_Await(&args));
  }

  // Watches `event` with PJRT_Event_OnReady until it fires; the status it
  // fired with. `destroy_in_callback`: the callback destroys the event, as
  // JAX's futures do (the caller has released it).
  void WaitReady(PJRT_Event* event, bool destroy_in_callback, Status* fired) {
    auto probe = std::make_shared<ReadyProbe>(api_);
    Status registered = ReadyProbe::Register(probe, event, destroy_in_callback);
    if (!registered.ok() && destroy_in_callback) EventDeleter{api_}(event);
    ASSERT_TRUE(registered.ok()) << "PJRT_Event_OnReady: " << registered;
    ASSERT_TRUE(probe->WaitFor(kEventTimeout))
        << "the OnReady callback never ran";
    EXPECT_EQ(probe->calls(), 1);
    *fired = probe->status();
  }

  // device_put: PJRT_Client_BufferFromHostBuffer with `memory` set and
  // `device` NULL, as JAX calls it. Unless `done` is given (the caller
  // then owns the done_with_host_buffer event), waits for the event as
  // JAX does: OnReady with a callback that destroys it.
  void Put(const void* data, PJRT_Buffer_Type type,
           const std::vector<int64_t>& dims, PJRT_Memory* memory,
           PJRT_HostBufferSemantics semantics, BufferPtr* buffer,
           const std::vector<int64_t>& byte_strides = {},
           EventPtr* done = nullptr) {
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_BufferFromHostBuffer_Args);
    args.client = client();
    args.data = data;
    args.type = type;
    args.dims = dims.data();
    args.num_dims = dims.size();
    args.byte_strides = byte_strides.empty() ? nullptr : byte_strides.data();
    args.num_byte_strides = byte_strides.size();
    args.host_buffer_semantics = semantics;
    args.device = nullptr;
    args.memory = memory;
    PJRT_ASSERT_OK(api_->PJRT_Client_BufferFromHostBuffer(&args));
    ASSERT_NE(args.buffer, nullptr);
    *buffer = Own(args.buffer);
    // JAX registers OnReady on it unconditionally.
    ASSERT_NE(args.done_with_host_buffer, nullptr)
        << "no done_with_host_buffer event";
    if (done != nullptr) {
      *done = Own(args.done_with_host_buffer);
      return;
    }
    if (semantics == PJRT_HostBufferSemantics_kImmutableZeroCopy) {
      // The event may fire only when the buffer is freed: JAX does not
      // wait, it keeps the host array alive until the callback runs. The
      // caller keeps `data` alive past the buffer; TearDown checks that
      // the callback ran.
      auto probe = std::make_shared<ReadyProbe>(api_);
      Status registered = ReadyProbe::Register(
          probe, args.done_with_host_buffer, /*destroy_event=*/true);
      if (!registered.ok()) EventDeleter{api_}(args.done_with_host_buffer);
      ASSERT_TRUE(registered.ok()) << "PJRT_Event_OnReady: " << registered;
      zero_copy_done_.push_back(probe);
      return;
    }
    Status fired;
    ASSERT_NO_FATAL_FAILURE(WaitReady(args.done_with_host_buffer,
                                      /*destroy_in_callback=*/true, &fired));
    ASSERT_TRUE(fired.ok()) << "done_with_host_buffer: " << fired;
  }

  // np.asarray: PJRT_Buffer_ToHostBuffer twice, first with dst NULL for
  // the size; the second must return an event (the client CHECKs it).
  void ToHost(PJRT_Buffer* buffer, std::vector<uint8_t>* bytes) {
    auto query = PJRT_REPLAY_ARGS(PJRT_Buffer_ToHostBuffer_Args);
    query.src = buffer;
    query.dst = nullptr;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ToHostBuffer(&query));
    EventPtr ignored = Own(query.event);
    bytes->assign(query.dst_size, 0xA5);
    auto copy = PJRT_REPLAY_ARGS(PJRT_Buffer_ToHostBuffer_Args);
    copy.src = buffer;
    copy.dst = bytes->data();
    copy.dst_size = bytes->size();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ToHostBuffer(&copy));
    ASSERT_NE(copy.event, nullptr)
        << "PJRT_Buffer_ToHostBuffer returned no event: JAX CHECK-fails";
    EventPtr event = Own(copy.event);
    Status status = Await(event.get());
    ASSERT_TRUE(status.ok()) << "ToHostBuffer's event: " << status;
  }

  template <typename T>
  void ToHostAs(PJRT_Buffer* buffer, std::vector<T>* values) {
    std::vector<uint8_t> bytes;
    ASSERT_NO_FATAL_FAILURE(ToHost(buffer, &bytes));
    ASSERT_EQ(bytes.size() % sizeof(T), 0u);
    *values = As<T>(bytes);
  }

  // np.asarray as jaxlib's PjRtCApiBuffer::ToLiteral does it: no size
  // query, dst_size from the shape, and `host_layout` set to the literal's
  // layout, a Tiled layout with `minor_to_major` and no tiles (descending
  // for NumPy's row-major arrays). Returns the call's or the event's
  // status.
  Status ToLiteral(PJRT_Buffer* buffer,
                   const std::vector<int64_t>& minor_to_major,
                   std::vector<uint8_t>* bytes) {
    auto layout = PJRT_REPLAY_ARGS(PJRT_Buffer_MemoryLayout);
    layout.type = PJRT_Buffer_MemoryLayout_Type_Tiled;
    layout.tiled = PJRT_REPLAY_ARGS(PJRT_Buffer_MemoryLayout_Tiled);
    layout.tiled.minor_to_major = minor_to_major.data();
    layout.tiled.minor_to_major_size = minor_to_major.size();
    layout.tiled.num_tiles = 0;
    auto args = PJRT_REPLAY_ARGS(PJRT_Buffer_ToHostBuffer_Args);
    args.src = buffer;
    args.host_layout = &layout;
    args.dst = bytes->data();
    args.dst_size = bytes->size();
    Status status = TakeError(api_, api_->PJRT_Buffer_ToHostBuffer(&args));
    if (!status.ok()) return status;
    if (args.event == nullptr) {
      ADD_FAILURE() << "PJRT_Buffer_ToHostBuffer returned no event: JAX "
                       "CHECK-fails";
      return status;
    }
    EventPtr event = Own(args.event);
    auto probe = std::make_shared<ReadyProbe>(api_);
    Status registered =
        ReadyProbe::Register(probe, event.release(), /*destroy_event=*/true);
    if (!registered.ok()) return registered;
    if (!probe->WaitFor(kEventTimeout)) {
      ADD_FAILURE() << "ToHostBuffer's event never fired";
      std::abort();  // `bytes` may still be written: no way to go on
    }
    return probe->status();
  }

  // The buffer queries of device_put (REFERENCE 1.11): ElementType and
  // Dimensions (F), DynamicDimensionIndices (U), Memory, Device (F),
  // ReadyEvent (F), then IsOnCpu.
  void CheckBuffer(PJRT_Buffer* buffer, PJRT_Buffer_Type type,
                   const std::vector<int64_t>& dims, PJRT_Memory* memory,
                   PJRT_Device* device) {
    auto element_type = PJRT_REPLAY_ARGS(PJRT_Buffer_ElementType_Args);
    element_type.buffer = buffer;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ElementType(&element_type));
    EXPECT_EQ(element_type.type, type);
    auto dimensions = PJRT_REPLAY_ARGS(PJRT_Buffer_Dimensions_Args);
    dimensions.buffer = buffer;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Dimensions(&dimensions));
    ASSERT_EQ(dimensions.num_dims, dims.size());
    EXPECT_THAT(std::vector<int64_t>(dimensions.dims,
                                     dimensions.dims + dimensions.num_dims),
                ElementsAreArray(dims));
    auto dynamic = PJRT_REPLAY_ARGS(PJRT_Buffer_DynamicDimensionIndices_Args);
    dynamic.buffer = buffer;
    Status status =
        TakeError(api_, api_->PJRT_Buffer_DynamicDimensionIndices(&dynamic));
    if (status.ok()) {
      EXPECT_EQ(dynamic.num_dynamic_dims, 0u);
    } else {
      EXPECT_EQ(status.code, PJRT_Error_Code_UNIMPLEMENTED) << status;
    }
    auto buffer_memory = PJRT_REPLAY_ARGS(PJRT_Buffer_Memory_Args);
    buffer_memory.buffer = buffer;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Memory(&buffer_memory));
    if (memory != nullptr) {
      EXPECT_EQ(buffer_memory.memory, memory);
    }
    auto buffer_device = PJRT_REPLAY_ARGS(PJRT_Buffer_Device_Args);
    buffer_device.buffer = buffer;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Device(&buffer_device));
    if (device != nullptr) {
      EXPECT_EQ(buffer_device.device, device);
    } else {
      const auto& allowed = by_devices_[buffer_memory.memory];
      EXPECT_NE(std::find(allowed.begin(), allowed.end(), buffer_device.device),
                allowed.end());
    }
    auto ready = PJRT_REPLAY_ARGS(PJRT_Buffer_ReadyEvent_Args);
    ready.buffer = buffer;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ReadyEvent(&ready));
    ASSERT_NE(ready.event, nullptr);
    Status fired;
    ASSERT_NO_FATAL_FAILURE(
        WaitReady(ready.event, /*destroy_in_callback=*/true, &fired));
    EXPECT_TRUE(fired.ok()) << "Buffer_ReadyEvent: " << fired;
    auto on_cpu = PJRT_REPLAY_ARGS(PJRT_Buffer_IsOnCpu_Args);
    on_cpu.buffer = buffer;
    PJRT_EXPECT_OK(api_->PJRT_Buffer_IsOnCpu(&on_cpu));
  }

  bool IsDeleted(PJRT_Buffer* buffer) {
    auto args = PJRT_REPLAY_ARGS(PJRT_Buffer_IsDeleted_Args);
    args.buffer = buffer;
    Status status = TakeError(api_, api_->PJRT_Buffer_IsDeleted(&args));
    EXPECT_TRUE(status.ok()) << "PJRT_Buffer_IsDeleted: " << status;
    return args.is_deleted;
  }

  // PJRT_Client_Compile as JAX calls it: a Profiler node in
  // extension_start, format "mlir".
  Status Compile(const std::string& code, const std::string& options,
                 LoadedExecutablePtr* executable,
                 const std::string& format = "mlir") {
    std::string code_copy = code;  // PJRT_Program.code is not const
    auto program = PJRT_REPLAY_ARGS(PJRT_Program);
    program.code = code_copy.data();
    program.code_size = code_copy.size();
    program.format = format.data();
    program.format_size = format.size();
    ProfilerNode profiler = MakeProfilerNode();
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_Compile_Args);
    args.extension_start = &profiler.base;
    args.client = client();
    args.program = &program;
    args.compile_options = options.data();
    args.compile_options_size = options.size();
    Status status = TakeError(api_, api_->PJRT_Client_Compile(&args));
    if (status.ok()) {
      EXPECT_NE(args.executable, nullptr);
      *executable =
          LoadedExecutablePtr(args.executable, LoadedExecutableDeleter{api_});
    }
    return status;
  }

  // What JAX asks of a compiled executable, in its order.
  void Describe(PJRT_LoadedExecutable* loaded, ExecutableInfo* info) {
    auto get = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_GetExecutable_Args);
    get.loaded_executable = loaded;
    PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_GetExecutable(&get));
    ASSERT_NE(get.executable, nullptr);
    // Destroyed separately from the loaded executable.
    ExecutablePtr executable(get.executable, ExecutableDeleter{api_});
    PJRT_Executable* exe = executable.get();

    auto devices =
        PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_AddressableDevices_Args);
    devices.executable = loaded;
    PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_AddressableDevices(&devices));
    // None for a portable executable (as upstream).
    info->devices.assign(
        devices.addressable_devices,
        devices.addressable_devices + devices.num_addressable_devices);

    auto assignment =
        PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args);
    assignment.executable = loaded;
    PJRT_ASSERT_OK(
        api_->PJRT_LoadedExecutable_GetDeviceAssignment(&assignment));
    info->device_assignment =
        Str(assignment.serialized_bytes, assignment.serialized_bytes_size);
    ASSERT_NE(assignment.serialized_device_assignment_deleter, nullptr);
    assignment.serialized_device_assignment_deleter(
        assignment.serialized_device_assignment);

    auto num_outputs = PJRT_REPLAY_ARGS(PJRT_Executable_NumOutputs_Args);
    num_outputs.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_NumOutputs(&num_outputs));
    info->num_outputs = num_outputs.num_outputs;

    auto types = PJRT_REPLAY_ARGS(PJRT_Executable_OutputElementTypes_Args);
    types.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_OutputElementTypes(&types));
    ASSERT_EQ(types.num_output_types, info->num_outputs);
    info->output_types.assign(types.output_types,
                              types.output_types + types.num_output_types);

    auto dims = PJRT_REPLAY_ARGS(PJRT_Executable_OutputDimensions_Args);
    dims.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_OutputDimensions(&dims));
    ASSERT_EQ(dims.num_outputs, info->num_outputs);
    size_t offset = 0;
    for (size_t i = 0; i < dims.num_outputs; ++i) {
      info->output_dims.emplace_back(dims.dims + offset,
                                     dims.dims + offset + dims.dim_sizes[i]);
      offset += dims.dim_sizes[i];
    }

    auto kinds = PJRT_REPLAY_ARGS(PJRT_Executable_OutputMemoryKinds_Args);
    kinds.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_OutputMemoryKinds(&kinds));
    ASSERT_EQ(kinds.num_outputs, info->num_outputs);
    for (size_t i = 0; i < kinds.num_outputs; ++i) {
      info->output_memory_kinds.push_back(
          Str(kinds.memory_kinds[i], kinds.memory_kind_sizes[i]));
    }

    auto name = PJRT_REPLAY_ARGS(PJRT_Executable_Name_Args);
    name.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_Name(&name));
    info->name = Str(name.executable_name, name.executable_name_size);

    auto replicas = PJRT_REPLAY_ARGS(PJRT_Executable_NumReplicas_Args);
    replicas.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_NumReplicas(&replicas));
    info->num_replicas = replicas.num_replicas;

    auto partitions = PJRT_REPLAY_ARGS(PJRT_Executable_NumPartitions_Args);
    partitions.executable = exe;
    PJRT_ASSERT_OK(api_->PJRT_Executable_NumPartitions(&partitions));
    info->num_partitions = partitions.num_partitions;

    auto fingerprint = PJRT_REPLAY_ARGS(PJRT_Executable_Fingerprint_Args);
    fingerprint.executable = exe;
    info->fingerprint_status =
        TakeError(api_, api_->PJRT_Executable_Fingerprint(&fingerprint));
    if (info->fingerprint_status.ok()) {
      info->fingerprint = Str(fingerprint.executable_fingerprint,
                              fingerprint.executable_fingerprint_size);
    }
  }

  // Checks what every executable here has: one replica and partition
  // unless said otherwise, outputs in the devices' default memory kind,
  // a name, a fingerprint or UNIMPLEMENTED.
  void CheckDescription(const ExecutableInfo& info, size_t replicas = 1) {
    EXPECT_FALSE(info.name.empty());
    EXPECT_EQ(info.num_replicas, replicas);
    EXPECT_EQ(info.num_partitions, 1u);
    ASSERT_EQ(info.devices.size(), replicas);
    EXPECT_EQ(info.output_types.size(), info.num_outputs);
    for (const std::string& kind : info.output_memory_kinds) {
      EXPECT_EQ(kind, memory_kind_[default_memory_[info.devices[0]]]);
    }
    if (info.fingerprint_status.ok()) {
      EXPECT_FALSE(info.fingerprint.empty());
    } else {
      EXPECT_EQ(info.fingerprint_status.code, PJRT_Error_Code_UNIMPLEMENTED)
          << info.fingerprint_status;
    }
  }

  // PJRT_LoadedExecutable_Execute as JAX calls it: a Profiler node,
  // argument_lists[num_devices][num_args], caller-allocated output lists,
  // device_complete_events asked for.
  Status Execute(PJRT_LoadedExecutable* executable,
                 const std::vector<std::vector<PJRT_Buffer*>>& arguments,
                 size_t num_outputs, Launch* run,
                 const std::vector<int64_t>& non_donatable = {},
                 PJRT_Device* execute_device = nullptr) {
    const size_t num_devices = arguments.size();
    std::vector<PJRT_Buffer* const*> argument_lists;
    for (const auto& list : arguments) argument_lists.push_back(list.data());
    std::vector<std::vector<PJRT_Buffer*>> outputs(
        num_devices, std::vector<PJRT_Buffer*>(num_outputs, nullptr));
    std::vector<PJRT_Buffer**> output_lists;
    for (auto& list : outputs) output_lists.push_back(list.data());
    std::vector<PJRT_Event*> events(num_devices, nullptr);

    auto options = PJRT_REPLAY_ARGS(PJRT_ExecuteOptions);
    options.non_donatable_input_indices =
        non_donatable.empty() ? nullptr : non_donatable.data();
    options.num_non_donatable_input_indices = non_donatable.size();
    ProfilerNode profiler = MakeProfilerNode();
    auto args = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_Execute_Args);
    args.extension_start = &profiler.base;
    args.executable = executable;
    args.options = &options;
    args.argument_lists = argument_lists.data();
    args.num_devices = num_devices;
    args.num_args = arguments.empty() ? 0 : arguments[0].size();
    args.output_lists = output_lists.data();
    args.device_complete_events = events.data();
    args.execute_device = execute_device;
    Status status = TakeError(api_, api_->PJRT_LoadedExecutable_Execute(&args));
    if (!status.ok()) return status;
    run->outputs.clear();
    run->done.clear();
    for (size_t d = 0; d < num_devices; ++d) {
      EXPECT_NE(events[d], nullptr) << "no device_complete_event " << d;
      run->done.push_back(Own(events[d]));
      run->outputs.emplace_back();
      for (size_t i = 0; i < num_outputs; ++i) {
        EXPECT_NE(outputs[d][i], nullptr) << "output " << i << " of " << d;
        run->outputs.back().push_back(Own(outputs[d][i]));
      }
    }
    return status;
  }

  // Waits for each device's completion: OnReady on the first (the
  // callback must fire), Await on the others.
  void AwaitRun(const Launch& run) {
    for (size_t d = 0; d < run.done.size(); ++d) {
      if (run.done[d] == nullptr) continue;
      Status status;
      if (d == 0) {
        ASSERT_NO_FATAL_FAILURE(WaitReady(run.done[d].get(),
                                          /*destroy_in_callback=*/false,
                                          &status));
      } else {
        status = Await(run.done[d].get());
      }
      ASSERT_TRUE(status.ok())
          << "device_complete_event " << d << ": " << status;
    }
  }

  // Compiles `program` for one device (with no device assignment when
  // `device` is NULL, else assigned to it), checks its description and
  // returns it.
  void CompileForOneDevice(const std::string& program, PJRT_Device* device,
                           LoadedExecutablePtr* executable,
                           ExecutableInfo* info) {
    const std::string options =
        device == nullptr ? CompileOptionsProto(1, 1, {})
                          : CompileOptionsProto(1, 1, {device_id_[device]});
    Status status = Compile(program, options, executable);
    ASSERT_TRUE(status.ok()) << "PJRT_Client_Compile: " << status;
    ASSERT_NO_FATAL_FAILURE(Describe(executable->get(), info));
    ASSERT_NO_FATAL_FAILURE(CheckDescription(*info));
    if (device != nullptr) {
      EXPECT_EQ(info->devices[0], device) << "the device assignment";
    }
    std::optional<DeviceAssignment> assignment =
        ParseDeviceAssignment(info->device_assignment);
    ASSERT_TRUE(assignment.has_value()) << "an unreadable device assignment";
    EXPECT_EQ(assignment->replica_count, 1);
    EXPECT_EQ(assignment->computation_count, 1);
    ASSERT_EQ(assignment->computations.size(), 1u);
    EXPECT_THAT(assignment->computations[0],
                ElementsAre(device_id_[info->devices[0]]));
  }

  const PJRT_Api* api_ = nullptr;
  ClientPtr client_;
  const PJRT_NamedValue* first_attributes_ = nullptr;
  std::vector<PJRT_Device*> devices_;
  std::vector<PJRT_Device*> addressable_;
  std::vector<PJRT_Memory*> memories_;
  std::map<PJRT_Device*, PJRT_DeviceDescription*> descriptions_;
  std::map<PJRT_Device*, int> device_id_;
  std::map<PJRT_Device*, std::vector<PJRT_Memory*>> memories_of_;
  std::map<PJRT_Memory*, std::vector<PJRT_Device*>> by_devices_;
  std::map<PJRT_Memory*, std::string> memory_kind_;
  std::map<PJRT_Device*, PJRT_Memory*> default_memory_;
  std::vector<std::shared_ptr<ReadyProbe>> zero_copy_done_;
};

// ------------------------------------------------------------------ tests

// What the loader checks before any client: the table's version and size,
// every slot filled (unsupported calls answer UNIMPLEMENTED instead of
// crashing), the plugin attributes.
TEST_P(ClientReplayTest, LoadsAsJaxLoadsIt) {
  const PJRT_Api& api = *api_;
  EXPECT_EQ(api.pjrt_api_version.major_version, 0);
  EXPECT_EQ(api.pjrt_api_version.minor_version, 81);
  EXPECT_EQ(api.struct_size, static_cast<size_t>(PJRT_Api_STRUCT_SIZE));
  EXPECT_EQ(api.pjrt_api_version.struct_size,
            static_cast<size_t>(PJRT_Api_Version_STRUCT_SIZE));
  const size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy);
  for (size_t offset = first; offset < PJRT_Api_STRUCT_SIZE;
       offset += sizeof(void*)) {
    void* slot;
    std::memcpy(&slot, reinterpret_cast<const char*>(&api) + offset,
                sizeof(slot));
    EXPECT_NE(slot, nullptr) << "PJRT_Api slot " << (offset - first) / 8
                             << " (offset " << offset << ") is NULL";
  }
  ASSERT_NO_FATAL_FAILURE(CheckPluginAttributes());
  // Destroying NULL does nothing.
  auto event = PJRT_REPLAY_ARGS(PJRT_Event_Destroy_Args);
  PJRT_EXPECT_OK(api_->PJRT_Event_Destroy(&event));
  auto buffer = PJRT_REPLAY_ARGS(PJRT_Buffer_Destroy_Args);
  PJRT_EXPECT_OK(api_->PJRT_Buffer_Destroy(&buffer));
  auto client = PJRT_REPLAY_ARGS(PJRT_Client_Destroy_Args);
  PJRT_EXPECT_OK(api_->PJRT_Client_Destroy(&client));
  auto error = PJRT_REPLAY_ARGS(PJRT_Error_Destroy_Args);
  api_->PJRT_Error_Destroy(&error);
}

// One JAX session, start to end: client set-up, jax.devices(), device_put,
// jit compile, execute, np.asarray, then everything freed.
TEST_P(ClientReplayTest, JaxSession) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Device* device = addressable_[0];
  PJRT_Memory* memory = default_memory_[device];

  // device_put of both arguments.
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  const std::vector<float> y = {0.5f, -1, 2, 3, -0.25f, 10};
  BufferPtr x_buffer, y_buffer;
  ASSERT_NO_FATAL_FAILURE(
      Put(x.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &x_buffer,
          /*byte_strides=*/{12, 4}));
  ASSERT_NO_FATAL_FAILURE(CheckBuffer(x_buffer.get(), PJRT_Buffer_Type_F32,
                                      {2, 3}, memory, device));
  ASSERT_NO_FATAL_FAILURE(
      Put(y.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &y_buffer,
          /*byte_strides=*/{12, 4}));
  ASSERT_NO_FATAL_FAILURE(CheckBuffer(y_buffer.get(), PJRT_Buffer_Type_F32,
                                      {2, 3}, memory, device));

  // jit: compiled for the device JAX assigns (1 replica, 1 partition).
  LoadedExecutablePtr executable;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kOneOutput, device, &executable, &info));
  EXPECT_EQ(info.num_outputs, 1u);
  EXPECT_THAT(info.output_types, ElementsAre(PJRT_Buffer_Type_F32));
  EXPECT_THAT(info.output_dims, ElementsAre(ElementsAre(2, 3)));

  Launch run;
  Status status = Execute(executable.get(), {{x_buffer.get(), y_buffer.get()}},
                          info.num_outputs, &run);
  ASSERT_TRUE(status.ok()) << "PJRT_LoadedExecutable_Execute: " << status;
  {  // block_until_ready at once: the output's ReadyEvent, as a future.
    auto ready = PJRT_REPLAY_ARGS(PJRT_Buffer_ReadyEvent_Args);
    ready.buffer = run.outputs[0][0].get();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ReadyEvent(&ready));
    ASSERT_NE(ready.event, nullptr);
    Status fired;
    ASSERT_NO_FATAL_FAILURE(
        WaitReady(ready.event, /*destroy_in_callback=*/true, &fired));
    EXPECT_TRUE(fired.ok()) << "the output's ReadyEvent: " << fired;
  }
  ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
  ASSERT_NO_FATAL_FAILURE(CheckBuffer(
      run.outputs[0][0].get(), PJRT_Buffer_Type_F32, {2, 3}, memory, device));
  std::vector<float> expected;
  for (size_t i = 0; i < x.size(); ++i) expected.push_back(x[i] * y[i] + x[i]);
  // np.asarray: ToLiteral with the row-major host layout.
  std::vector<uint8_t> literal(6 * sizeof(float), 0xA5);
  status = ToLiteral(run.outputs[0][0].get(), {1, 0}, &literal);
  EXPECT_TRUE(status.ok())
      << "ToHostBuffer with host_layout {minor_to_major = {1, 0}}, as "
         "jaxlib's ToLiteral passes it: "
      << status;
  if (status.ok()) {
    EXPECT_THAT(As<float>(literal), ElementsAreArray(expected));
  }
  // And with the two-call size query.
  std::vector<float> result;
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &result));
  EXPECT_THAT(result, ElementsAreArray(expected));
  // Without aliasing in the program nothing is donated.
  EXPECT_FALSE(IsDeleted(x_buffer.get()));
  EXPECT_FALSE(IsDeleted(y_buffer.get()));

  // The loaded executable outlives the PJRT_Executable Describe destroyed;
  // a second run gives the same.
  Launch again;
  status = Execute(executable.get(), {{x_buffer.get(), y_buffer.get()}},
                   info.num_outputs, &again);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_NO_FATAL_FAILURE(AwaitRun(again));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(again.outputs[0][0].get(), &result));
  EXPECT_THAT(result, ElementsAreArray(expected));

  // LoadedExecutable Delete and IsDeleted (F).
  auto is_deleted = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_IsDeleted_Args);
  is_deleted.executable = executable.get();
  PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_IsDeleted(&is_deleted));
  EXPECT_FALSE(is_deleted.is_deleted);
  auto remove = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_Delete_Args);
  remove.executable = executable.get();
  PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_Delete(&remove));
  PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_IsDeleted(&is_deleted));
  EXPECT_TRUE(is_deleted.is_deleted);
  Launch after;
  status = Execute(executable.get(), {{x_buffer.get(), y_buffer.get()}},
                   info.num_outputs, &after);
  EXPECT_FALSE(status.ok()) << "ran a deleted executable";
}

// device_put with each semantics JAX uses, explicit and non-contiguous
// byte strides, into a memory other than the default one.
TEST_P(ClientReplayTest, DevicePut) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Device* device = addressable_.back();
  PJRT_Memory* memory = default_memory_[device];
  const std::vector<float> values = {1.5f, -2, 3, 4.25f, 5, -6};

  {  // kImmutableUntilTransferCompletes, dense, no strides.
    std::vector<float> host = values;
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(Put(
        host.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
    ASSERT_NO_FATAL_FAILURE(CheckBuffer(buffer.get(), PJRT_Buffer_Type_F32,
                                        {2, 3}, memory, device));
    std::fill(host.begin(), host.end(), -1.0f);  // done with it
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAreArray(values));
  }
  {  // kImmutableOnlyDuringCall: the event fires before the call returns;
     // the host data may change right after.
    std::vector<float> host = values;
    BufferPtr buffer;
    EventPtr done;
    ASSERT_NO_FATAL_FAILURE(Put(
        host.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
        PJRT_HostBufferSemantics_kImmutableOnlyDuringCall, &buffer, {}, &done));
    auto ready = PJRT_REPLAY_ARGS(PJRT_Event_IsReady_Args);
    ready.event = done.get();
    PJRT_ASSERT_OK(api_->PJRT_Event_IsReady(&ready));
    EXPECT_TRUE(ready.is_ready)
        << "kImmutableOnlyDuringCall: done_with_host_buffer not ready when "
           "BufferFromHostBuffer returned";
    std::fill(host.begin(), host.end(), 99.0f);
    Status status = Await(done.get());
    EXPECT_TRUE(status.ok()) << status;
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAreArray(values));
  }
  {  // kImmutableZeroCopy: the host data stays untouched and alive until
     // the event fires, which is at the latest when the buffer is freed.
    auto host = std::make_unique<std::vector<float>>(values);
    BufferPtr buffer;
    EventPtr done;
    ASSERT_NO_FATAL_FAILURE(Put(
        host->data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
        PJRT_HostBufferSemantics_kImmutableZeroCopy, &buffer, {12, 4}, &done));
    auto probe = std::make_shared<ReadyProbe>(api_);
    Status registered =
        ReadyProbe::Register(probe, done.release(), /*destroy_event=*/true);
    ASSERT_TRUE(registered.ok()) << registered;
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAreArray(values));
    EXPECT_THAT(*host, ElementsAreArray(values)) << "the runtime wrote it";
    buffer.reset();
    if (!probe->WaitFor(kEventTimeout)) {
      host.release();  // the plugin may still read it: leak, do not free
      FAIL() << "kImmutableZeroCopy: done_with_host_buffer never fired "
                "after the buffer was destroyed";
    }
    EXPECT_TRUE(probe->status().ok()) << probe->status();
  }
  {  // Byte strides: padded rows (a 2x3 block of a 2x4 array) ...
    const std::vector<float> padded = {1, 2, 3, -1, 4, 5, 6, -1};
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(padded.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer,
            {16, 4}));
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAre(1, 2, 3, 4, 5, 6));
  }
  {  // ... and a transposed (column-major) 2x3 view of a row-major 3x2.
    const std::vector<int32_t> columns = {1, 4, 2, 5, 3, 6};
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(columns.data(), PJRT_Buffer_Type_S32, {2, 3}, memory,
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer,
            {4, 8}));
    ASSERT_NO_FATAL_FAILURE(CheckBuffer(buffer.get(), PJRT_Buffer_Type_S32,
                                        {2, 3}, memory, device));
    std::vector<int32_t> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAre(1, 2, 3, 4, 5, 6));
  }
  {  // A rank-0 array.
    const double scalar = -0.125;
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(&scalar, PJRT_Buffer_Type_F64, {}, memory,
            PJRT_HostBufferSemantics_kImmutableOnlyDuringCall, &buffer));
    ASSERT_NO_FATAL_FAILURE(
        CheckBuffer(buffer.get(), PJRT_Buffer_Type_F64, {}, memory, device));
    std::vector<double> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAre(-0.125));
  }
  {  // Host layouts on the way back (ToLiteral): row-major of ranks 0, 1
     // and 2 must work; column-major transposes or fails cleanly.
    const std::vector<float> matrix = {1, 2, 3, 4, 5, 6};
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(Put(
        matrix.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
    std::vector<uint8_t> bytes(6 * sizeof(float));
    Status status = ToLiteral(buffer.get(), {1, 0}, &bytes);
    EXPECT_TRUE(status.ok()) << "row-major host layout, rank 2: " << status;
    if (status.ok()) {
      EXPECT_THAT(As<float>(bytes), ElementsAreArray(matrix));
    }
    std::fill(bytes.begin(), bytes.end(), 0);
    status = ToLiteral(buffer.get(), {0, 1}, &bytes);
    if (status.ok()) {
      EXPECT_THAT(As<float>(bytes), ElementsAre(1, 4, 2, 5, 3, 6))
          << "column-major host layout";
    } else {
      EXPECT_TRUE(status.code == PJRT_Error_Code_UNIMPLEMENTED ||
                  status.code == PJRT_Error_Code_INVALID_ARGUMENT)
          << "column-major host layout: " << status;
    }
    const std::vector<float> vector = {7, 8, 9};
    BufferPtr vector_buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(vector.data(), PJRT_Buffer_Type_F32, {3}, memory,
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes,
            &vector_buffer));
    std::vector<uint8_t> vector_bytes(3 * sizeof(float));
    status = ToLiteral(vector_buffer.get(), {0}, &vector_bytes);
    EXPECT_TRUE(status.ok()) << "host layout, rank 1: " << status;
    if (status.ok()) {
      EXPECT_THAT(As<float>(vector_bytes), ElementsAreArray(vector));
    }
    const int32_t scalar = 42;
    BufferPtr scalar_buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(&scalar, PJRT_Buffer_Type_S32, {}, memory,
            PJRT_HostBufferSemantics_kImmutableOnlyDuringCall, &scalar_buffer));
    std::vector<uint8_t> scalar_bytes(sizeof(int32_t));
    status = ToLiteral(scalar_buffer.get(), {}, &scalar_bytes);
    EXPECT_TRUE(status.ok()) << "host layout, rank 0: " << status;
    if (status.ok()) {
      EXPECT_THAT(As<int32_t>(scalar_bytes), ElementsAre(42));
    }
  }
  {  // The older way: `device` set, `memory` NULL.
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_BufferFromHostBuffer_Args);
    args.client = client();
    args.data = values.data();
    args.type = PJRT_Buffer_Type_F32;
    const int64_t dims[] = {6};
    args.dims = dims;
    args.num_dims = 1;
    args.host_buffer_semantics =
        PJRT_HostBufferSemantics_kImmutableOnlyDuringCall;
    args.device = device;
    PJRT_ASSERT_OK(api_->PJRT_Client_BufferFromHostBuffer(&args));
    BufferPtr buffer = Own(args.buffer);
    EventPtr done = Own(args.done_with_host_buffer);
    if (done != nullptr) {
      EXPECT_TRUE(Await(done.get()).ok());
    }
    ASSERT_NO_FATAL_FAILURE(
        CheckBuffer(buffer.get(), PJRT_Buffer_Type_F32, {6}, memory, device));
  }
  // Every other memory of the device (jax.device_put(x, memory_kind=...)).
  for (PJRT_Memory* other : memories_of_[device]) {
    if (other == memory) continue;
    SCOPED_TRACE("memory kind " + memory_kind_[other]);
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(Put(
        values.data(), PJRT_Buffer_Type_F32, {6}, other,
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
    ASSERT_NO_FATAL_FAILURE(
        CheckBuffer(buffer.get(), PJRT_Buffer_Type_F32, {6}, other, nullptr));
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(buffer.get(), &back));
    EXPECT_THAT(back, ElementsAreArray(values));
  }
}

// Several outputs of several shapes; compiled with no device assignment
// (a hand-made 1x1 CompileOptionsProto), as the minimal options read.
TEST_P(ClientReplayTest, SeveralOutputs) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  LoadedExecutablePtr executable;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kSeveralOutputs, nullptr, &executable, &info));
  ASSERT_EQ(info.num_outputs, 4u);
  EXPECT_THAT(info.output_types,
              ElementsAre(PJRT_Buffer_Type_S32, PJRT_Buffer_Type_S32,
                          PJRT_Buffer_Type_S32, PJRT_Buffer_Type_F32));
  EXPECT_THAT(info.output_dims, ElementsAre(ElementsAre(4), ElementsAre(4),
                                            ElementsAre(), ElementsAre(2, 2)));
  PJRT_Device* device = info.devices[0];
  PJRT_Memory* memory = default_memory_[device];
  const std::vector<int32_t> x = {1, -2, 30, 7};
  const std::vector<int32_t> y = {5, 6, -7, 100};
  BufferPtr x_buffer, y_buffer;
  ASSERT_NO_FATAL_FAILURE(Put(
      x.data(), PJRT_Buffer_Type_S32, {4}, memory,
      PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &x_buffer));
  ASSERT_NO_FATAL_FAILURE(Put(y.data(), PJRT_Buffer_Type_S32, {4}, memory,
                              PJRT_HostBufferSemantics_kImmutableOnlyDuringCall,
                              &y_buffer));
  Launch run;
  Status status = Execute(executable.get(), {{x_buffer.get(), y_buffer.get()}},
                          info.num_outputs, &run);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
  std::vector<int32_t> sum, difference, total;
  std::vector<float> reshaped;
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &sum));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][1].get(), &difference));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][2].get(), &total));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][3].get(), &reshaped));
  EXPECT_THAT(sum, ElementsAre(6, 4, 23, 107));
  EXPECT_THAT(difference, ElementsAre(-4, -8, 37, -93));
  EXPECT_THAT(total, ElementsAre(140));
  EXPECT_THAT(reshaped, ElementsAre(1, -2, 30, 7));
  ASSERT_NO_FATAL_FAILURE(CheckBuffer(
      run.outputs[0][2].get(), PJRT_Buffer_Type_S32, {}, memory, device));
  ASSERT_NO_FATAL_FAILURE(CheckBuffer(
      run.outputs[0][3].get(), PJRT_Buffer_Type_F32, {2, 2}, memory, device));
}

// Inputs and outputs of bool (PRED, one byte each), bf16 and
// complex<f32>, on the last device by device assignment.
TEST_P(ClientReplayTest, BoolBf16ComplexInputs) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Device* device = addressable_.back();
  LoadedExecutablePtr executable;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kElementTypes, device, &executable, &info));
  EXPECT_THAT(info.output_types,
              ElementsAre(PJRT_Buffer_Type_PRED, PJRT_Buffer_Type_BF16,
                          PJRT_Buffer_Type_C64, PJRT_Buffer_Type_F32));
  PJRT_Memory* memory = default_memory_[device];
  const std::vector<uint8_t> p = {1, 0, 1, 0};
  std::vector<uint16_t> a;
  for (float v : {1.5f, -2.0f, 0.25f, 3.0f}) a.push_back(ToBf16(v));
  const std::vector<std::complex<float>> z = {{1, 2}, {-3, 0.5f}, {0, -1}};
  BufferPtr p_buffer, a_buffer, z_buffer;
  ASSERT_NO_FATAL_FAILURE(Put(
      p.data(), PJRT_Buffer_Type_PRED, {4}, memory,
      PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &p_buffer));
  ASSERT_NO_FATAL_FAILURE(
      Put(a.data(), PJRT_Buffer_Type_BF16, {4}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &a_buffer,
          {2}));
  ASSERT_NO_FATAL_FAILURE(
      Put(z.data(), PJRT_Buffer_Type_C64, {3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &z_buffer,
          {8}));
  ASSERT_NO_FATAL_FAILURE(
      CheckBuffer(p_buffer.get(), PJRT_Buffer_Type_PRED, {4}, memory, device));
  ASSERT_NO_FATAL_FAILURE(
      CheckBuffer(z_buffer.get(), PJRT_Buffer_Type_C64, {3}, memory, device));
  Launch run;
  Status status = Execute(executable.get(),
                          {{p_buffer.get(), a_buffer.get(), z_buffer.get()}},
                          info.num_outputs, &run);
  ASSERT_TRUE(status.ok()) << status;
  ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
  std::vector<uint8_t> not_p;
  std::vector<uint16_t> selected;
  std::vector<std::complex<float>> squared;
  std::vector<float> real;
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &not_p));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][1].get(), &selected));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][2].get(), &squared));
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][3].get(), &real));
  EXPECT_THAT(not_p, ElementsAre(0, 1, 0, 1));
  std::vector<float> selected_values;
  for (uint16_t v : selected) selected_values.push_back(FromBf16(v));
  EXPECT_THAT(selected_values, ElementsAre(1.5f, -4.0f, 0.25f, 6.0f));
  EXPECT_THAT(squared, ElementsAre(std::complex<float>(-3, 4),
                                   std::complex<float>(8.75f, -3),
                                   std::complex<float>(-1, 0)));
  EXPECT_THAT(real, ElementsAre(1, -3, 0));
  for (const auto& outputs : run.outputs) {
    for (const BufferPtr& output : outputs) {
      auto output_device = PJRT_REPLAY_ARGS(PJRT_Buffer_Device_Args);
      output_device.buffer = output.get();
      PJRT_ASSERT_OK(api_->PJRT_Buffer_Device(&output_device));
      EXPECT_EQ(output_device.device, device);
    }
  }
}

// Equal programs and options give equal fingerprints, different programs
// different ones (when the plugin has fingerprints at all).
TEST_P(ClientReplayTest, Fingerprints) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  LoadedExecutablePtr first, second, other;
  ExecutableInfo first_info, second_info, other_info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kOneOutput, addressable_[0], &first, &first_info));
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kOneOutput, addressable_[0], &second, &second_info));
  ASSERT_NO_FATAL_FAILURE(CompileForOneDevice(kSeveralOutputs, addressable_[0],
                                              &other, &other_info));
  if (!first_info.fingerprint_status.ok()) {
    GTEST_SKIP() << "no fingerprints: " << first_info.fingerprint_status;
  }
  EXPECT_EQ(first_info.fingerprint, second_info.fingerprint);
  EXPECT_NE(first_info.fingerprint, other_info.fingerprint);
}

// Two replicas: by a hand-made device assignment on the first two
// devices, and by jaxlib's serialized options (devices 3 and 5).
TEST_P(ClientReplayTest, TwoReplicas) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  if (addressable_.size() < 2) GTEST_SKIP() << "one device only";

  struct Case {
    std::string what;
    std::string options;
    std::vector<int64_t> ids;
  };
  std::vector<Case> cases;
  cases.push_back(
      {"hand-made, devices 0 and 1",
       CompileOptionsProto(
           2, 1, {device_id_[addressable_[0]], device_id_[addressable_[1]]}),
       {device_id_[addressable_[0]], device_id_[addressable_[1]]}});
  const std::string jaxlib_path = TestdataPath("compile_options_2replicas.pb");
  std::optional<std::string> jaxlib = ReadFile(jaxlib_path);
  std::set<int> ids;
  for (const auto& [device, id] : device_id_) ids.insert(id);
  if (!jaxlib.has_value()) {
    std::cout << "note: " << jaxlib_path << " not found; jaxlib's options "
              << "not replayed\n";
  } else if (ids.count(3) == 0 || ids.count(5) == 0) {
    std::cout << "note: no devices 3 and 5 here; "
              << "compile_options_2replicas.pb not replayed\n";
  } else {
    cases.push_back({"jaxlib's compile_options_2replicas.pb", *jaxlib, {3, 5}});
  }

  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    LoadedExecutablePtr executable;
    Status status = Compile(kTwoReplicas, c.options, &executable);
    ASSERT_TRUE(status.ok()) << "PJRT_Client_Compile: " << status;
    ExecutableInfo info;
    ASSERT_NO_FATAL_FAILURE(Describe(executable.get(), &info));
    ASSERT_NO_FATAL_FAILURE(CheckDescription(info, /*replicas=*/2));
    ASSERT_EQ(info.devices.size(), 2u);
    EXPECT_EQ(device_id_[info.devices[0]], c.ids[0]);
    EXPECT_EQ(device_id_[info.devices[1]], c.ids[1]);
    std::optional<DeviceAssignment> assignment =
        ParseDeviceAssignment(info.device_assignment);
    ASSERT_TRUE(assignment.has_value());
    EXPECT_EQ(assignment->replica_count, 2);
    EXPECT_EQ(assignment->computation_count, 1);
    ASSERT_EQ(assignment->computations.size(), 1u);
    EXPECT_THAT(assignment->computations[0], ElementsAreArray(c.ids));

    std::vector<BufferPtr> inputs;
    std::vector<std::vector<PJRT_Buffer*>> arguments;
    for (size_t r = 0; r < 2; ++r) {
      const float base = static_cast<float>(r + 1);
      const std::vector<float> x = {base, 10 * base, -base};
      BufferPtr buffer;
      ASSERT_NO_FATAL_FAILURE(Put(
          x.data(), PJRT_Buffer_Type_F32, {3}, default_memory_[info.devices[r]],
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
      arguments.push_back({buffer.get()});
      inputs.push_back(std::move(buffer));
    }
    Launch run;
    status = Execute(executable.get(), arguments, info.num_outputs, &run);
    ASSERT_TRUE(status.ok()) << "PJRT_LoadedExecutable_Execute: " << status;
    ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
    ASSERT_EQ(run.outputs.size(), 2u);
    for (size_t r = 0; r < 2; ++r) {
      const float base = static_cast<float>(r + 1);
      std::vector<float> back;
      ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[r][0].get(), &back));
      EXPECT_THAT(back, ElementsAre(2 * base, 20 * base, -2 * base))
          << "replica " << r;
      auto output_device = PJRT_REPLAY_ARGS(PJRT_Buffer_Device_Args);
      output_device.buffer = run.outputs[r][0].get();
      PJRT_ASSERT_OK(api_->PJRT_Buffer_Device(&output_device));
      EXPECT_EQ(output_device.device, info.devices[r]);
    }
    if (&c != &cases.front()) continue;

    // execute_device on a non-portable executable is upstream's
    // ExecuteSharded: that device's replica alone.
    Launch one;
    status = Execute(executable.get(), {arguments[1]}, info.num_outputs, &one,
                     {}, info.devices[1]);
    ASSERT_TRUE(status.ok())
        << "execute_device = the second replica's: " << status;
    ASSERT_NO_FATAL_FAILURE(AwaitRun(one));
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(one.outputs[0][0].get(), &back));
    EXPECT_THAT(back, ElementsAre(4, 40, -4));
    auto output_device = PJRT_REPLAY_ARGS(PJRT_Buffer_Device_Args);
    output_device.buffer = one.outputs[0][0].get();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Device(&output_device));
    EXPECT_EQ(output_device.device, info.devices[1]);
    // num_devices must then be 1.
    Launch two;
    status = Execute(executable.get(), arguments, info.num_outputs, &two, {},
                     info.devices[1]);
    EXPECT_FALSE(status.ok()) << "execute_device with num_devices 2";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
    // A device the executable does not run on.
    if (addressable_.size() > 2) {
      PJRT_Device* outside = addressable_[2];
      BufferPtr buffer;
      const std::vector<float> x = {1, 2, 3};
      ASSERT_NO_FATAL_FAILURE(Put(
          x.data(), PJRT_Buffer_Type_F32, {3}, default_memory_[outside],
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
      Launch elsewhere;
      status = Execute(executable.get(), {{buffer.get()}}, info.num_outputs,
                       &elsewhere, {}, outside);
      EXPECT_FALSE(status.ok())
          << "ran on execute_device " << device_id_[outside]
          << ", which is not among the executable's devices";
      EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
    }
  }
}

// A portable executable (compile_portable_executable, no device
// assignment) runs on the device given as execute_device.
TEST_P(ClientReplayTest, PortableExecutable) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  std::optional<std::string> options =
      ReadFile(TestdataPath("compile_options_portable.pb"));
  if (!options.has_value()) options = CompileOptionsProto(1, 1, {}, true);
  LoadedExecutablePtr executable;
  Status status = Compile(kOneOutput, *options, &executable);
  ASSERT_TRUE(status.ok()) << "PJRT_Client_Compile (portable): " << status;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(Describe(executable.get(), &info));
  EXPECT_TRUE(info.device_assignment.empty())
      << "a portable executable's device assignment has size 0";
  EXPECT_TRUE(info.devices.empty())
      << "a portable executable has no addressable devices of its own";
  EXPECT_EQ(info.num_replicas, 1u);
  EXPECT_EQ(info.num_partitions, 1u);
  PJRT_Device* device = addressable_.back();
  PJRT_Memory* memory = default_memory_[device];
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  BufferPtr x_buffer;
  ASSERT_NO_FATAL_FAILURE(Put(
      x.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
      PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &x_buffer));
  Launch run;
  status = Execute(executable.get(), {{x_buffer.get(), x_buffer.get()}},
                   info.num_outputs, &run, {}, device);
  ASSERT_TRUE(status.ok()) << "Execute with execute_device: " << status;
  ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
  auto output_device = PJRT_REPLAY_ARGS(PJRT_Buffer_Device_Args);
  output_device.buffer = run.outputs[0][0].get();
  PJRT_ASSERT_OK(api_->PJRT_Buffer_Device(&output_device));
  EXPECT_EQ(output_device.device, device);
  std::vector<float> back;
  ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &back));
  EXPECT_THAT(back, ElementsAre(2, 6, 12, 20, 30, 42));
}

// Donation. An argument is donated only where the program aliases it to
// an output (tf.aliasing_output, jax's donate_argnums) and the caller did
// not list it in non_donatable_input_indices; every other argument stays
// alive, as JAX reuses it.
TEST_P(ClientReplayTest, Donation) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Device* device = addressable_[0];
  PJRT_Memory* memory = default_memory_[device];
  const std::vector<float> x = {1, 2, 3, 4};
  const std::vector<float> y = {10, 20, 30, 40};
  auto put = [&](const std::vector<float>& values, BufferPtr* buffer) {
    Put(values.data(), PJRT_Buffer_Type_F32, {4}, memory,
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, buffer);
  };

  {  // No aliasing: nothing is donated, listed or not.
    LoadedExecutablePtr executable;
    ExecutableInfo info;
    ASSERT_NO_FATAL_FAILURE(
        CompileForOneDevice(kNotDonating, device, &executable, &info));
    BufferPtr a, b;
    ASSERT_NO_FATAL_FAILURE(put(x, &a));
    ASSERT_NO_FATAL_FAILURE(put(y, &b));
    for (const std::vector<int64_t>& non_donatable :
         {std::vector<int64_t>{}, std::vector<int64_t>{1}}) {
      Launch run;
      Status status = Execute(executable.get(), {{a.get(), b.get()}},
                              info.num_outputs, &run, non_donatable);
      ASSERT_TRUE(status.ok()) << status;
      ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
      std::vector<float> back;
      ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &back));
      EXPECT_THAT(back, ElementsAre(11, 22, 33, 44));
      EXPECT_FALSE(IsDeleted(a.get())) << "donated without aliasing";
      EXPECT_FALSE(IsDeleted(b.get())) << "donated without aliasing";
    }
  }

  // Aliasing argument 0 to output 0.
  LoadedExecutablePtr executable;
  Status status = Compile(
      kDonating, CompileOptionsProto(1, 1, {device_id_[device]}), &executable);
  if (!status.ok()) {
    // Aliasing is optional in a front door; it must then say so cleanly.
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
    GTEST_SKIP() << "programs with tf.aliasing_output: " << status;
  }
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(Describe(executable.get(), &info));
  {  // Listed as non-donatable: kept.
    BufferPtr a, b;
    ASSERT_NO_FATAL_FAILURE(put(x, &a));
    ASSERT_NO_FATAL_FAILURE(put(y, &b));
    Launch run;
    status = Execute(executable.get(), {{a.get(), b.get()}}, info.num_outputs,
                     &run, {0});
    ASSERT_TRUE(status.ok()) << status;
    ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &back));
    EXPECT_THAT(back, ElementsAre(11, 22, 33, 44));
    EXPECT_FALSE(IsDeleted(a.get())) << "donated though non-donatable";
    EXPECT_FALSE(IsDeleted(b.get()));
    ASSERT_NO_FATAL_FAILURE(ToHostAs(a.get(), &back));
    EXPECT_THAT(back, ElementsAreArray(x));
  }
  {  // Not listed: donated (or, where the runtime ignores aliasing, kept
     // intact); never both alive and reused.
    BufferPtr a, b;
    ASSERT_NO_FATAL_FAILURE(put(x, &a));
    ASSERT_NO_FATAL_FAILURE(put(y, &b));
    Launch run;
    status =
        Execute(executable.get(), {{a.get(), b.get()}}, info.num_outputs, &run);
    ASSERT_TRUE(status.ok()) << status;
    ASSERT_NO_FATAL_FAILURE(AwaitRun(run));
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &back));
    EXPECT_THAT(back, ElementsAre(11, 22, 33, 44));
    EXPECT_FALSE(IsDeleted(b.get())) << "the argument without aliasing";
    if (IsDeleted(a.get())) {
      std::cout << "note: aliased argument donated\n";
      auto ready = PJRT_REPLAY_ARGS(PJRT_Buffer_ReadyEvent_Args);
      ready.buffer = a.get();
      PJRT_ASSERT_OK(api_->PJRT_Buffer_ReadyEvent(&ready));
      EventPtr event = Own(ready.event);
      EXPECT_FALSE(Await(event.get()).ok())
          << "a donated buffer's ReadyEvent fires with an error";
    } else {
      std::cout << "note: aliased argument kept (donation not done)\n";
      ASSERT_NO_FATAL_FAILURE(ToHostAs(a.get(), &back));
      EXPECT_THAT(back, ElementsAreArray(x))
          << "kept alive but overwritten by the output";
    }
  }
}

// Events: OnReady fires, and runs inline when the event is already ready
// (JAX's futures rely on both); Await and Error; an event that fails.
TEST_P(ClientReplayTest, Events) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Memory* memory = default_memory_[addressable_[0]];
  const std::vector<float> values = {1, 2, 3};
  BufferPtr buffer;
  ASSERT_NO_FATAL_FAILURE(
      Put(values.data(), PJRT_Buffer_Type_F32, {3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
  auto ready_event = [&](PJRT_Buffer* b, EventPtr* event) {
    auto args = PJRT_REPLAY_ARGS(PJRT_Buffer_ReadyEvent_Args);
    args.buffer = b;
    PJRT_ASSERT_OK(api_->PJRT_Buffer_ReadyEvent(&args));
    ASSERT_NE(args.event, nullptr);
    *event = Own(args.event);
  };

  {  // Await, IsReady, Error on a ready event.
    EventPtr event;
    ASSERT_NO_FATAL_FAILURE(ready_event(buffer.get(), &event));
    Status status = Await(event.get());
    ASSERT_TRUE(status.ok()) << status;
    auto is_ready = PJRT_REPLAY_ARGS(PJRT_Event_IsReady_Args);
    is_ready.event = event.get();
    PJRT_ASSERT_OK(api_->PJRT_Event_IsReady(&is_ready));
    EXPECT_TRUE(is_ready.is_ready);
    auto error = PJRT_REPLAY_ARGS(PJRT_Event_Error_Args);
    error.event = event.get();
    PJRT_EXPECT_OK(api_->PJRT_Event_Error(&error));
    // Awaiting twice is fine.
    EXPECT_TRUE(Await(event.get()).ok());
  }
  {  // OnReady on a ready event: the callback runs inside OnReady, on
     // this thread; here it destroys the event, as JAX's callback does.
    EventPtr event;
    ASSERT_NO_FATAL_FAILURE(ready_event(buffer.get(), &event));
    ASSERT_TRUE(Await(event.get()).ok());
    auto probe = std::make_shared<ReadyProbe>(api_);
    Status registered =
        ReadyProbe::Register(probe, event.release(), /*destroy_event=*/true);
    ASSERT_TRUE(registered.ok()) << registered;
    EXPECT_EQ(probe->calls(), 1)
        << "OnReady on a ready event did not run the callback inline";
    ASSERT_TRUE(probe->WaitFor(kEventTimeout));
    EXPECT_EQ(probe->thread(), std::this_thread::get_id());
    EXPECT_TRUE(probe->status().ok()) << probe->status();
  }
  {  // Two callbacks on one event each run once.
    EventPtr event;
    ASSERT_NO_FATAL_FAILURE(ready_event(buffer.get(), &event));
    auto first = std::make_shared<ReadyProbe>(api_);
    auto second = std::make_shared<ReadyProbe>(api_);
    ASSERT_TRUE(ReadyProbe::Register(first, event.get(), false).ok());
    ASSERT_TRUE(ReadyProbe::Register(second, event.get(), false).ok());
    ASSERT_TRUE(first->WaitFor(kEventTimeout));
    ASSERT_TRUE(second->WaitFor(kEventTimeout));
    EXPECT_EQ(first->calls(), 1);
    EXPECT_EQ(second->calls(), 1);
  }
  {  // A failed event: the ReadyEvent of a deleted buffer fires with an
     // error, which Await, Error (a new error each call) and OnReady give.
    BufferPtr doomed;
    ASSERT_NO_FATAL_FAILURE(Put(
        values.data(), PJRT_Buffer_Type_F32, {3}, memory,
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &doomed));
    auto remove = PJRT_REPLAY_ARGS(PJRT_Buffer_Delete_Args);
    remove.buffer = doomed.get();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Delete(&remove));
    EventPtr event;
    ASSERT_NO_FATAL_FAILURE(ready_event(doomed.get(), &event));
    Status awaited = Await(event.get());
    EXPECT_FALSE(awaited.ok()) << "ReadyEvent of a deleted buffer";
    EXPECT_FALSE(awaited.message.empty());
    auto error = PJRT_REPLAY_ARGS(PJRT_Event_Error_Args);
    error.event = event.get();
    PJRT_Error* first_error = api_->PJRT_Event_Error(&error);
    PJRT_Error* second_error = api_->PJRT_Event_Error(&error);
    EXPECT_NE(first_error, nullptr);
    EXPECT_NE(second_error, nullptr);
    if (first_error != nullptr && second_error != nullptr) {
      EXPECT_NE(first_error, second_error) << "one error returned twice";
    }
    Status first_status = TakeError(api_, first_error);
    Status second_status =
        second_error == first_error ? Status() : TakeError(api_, second_error);
    EXPECT_EQ(first_status.code, awaited.code);
    Status fired;
    ASSERT_NO_FATAL_FAILURE(
        WaitReady(event.get(), /*destroy_in_callback=*/false, &fired));
    EXPECT_FALSE(fired.ok()) << "OnReady of a failed event";
  }
}

// Buffer Delete / IsDeleted / Destroy; reading a deleted buffer fails
// cleanly (an error, or an event with one), never crashes.
TEST_P(ClientReplayTest, DeleteBuffer) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Memory* memory = default_memory_[addressable_[0]];
  const std::vector<int32_t> values = {7, 8};
  BufferPtr buffer;
  ASSERT_NO_FATAL_FAILURE(
      Put(values.data(), PJRT_Buffer_Type_S32, {2}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
  EXPECT_FALSE(IsDeleted(buffer.get()));
  auto remove = PJRT_REPLAY_ARGS(PJRT_Buffer_Delete_Args);
  remove.buffer = buffer.get();
  PJRT_ASSERT_OK(api_->PJRT_Buffer_Delete(&remove));
  EXPECT_TRUE(IsDeleted(buffer.get()));
  // Deleting twice is harmless.
  PJRT_EXPECT_OK(api_->PJRT_Buffer_Delete(&remove));
  // Metadata stays readable.
  auto dimensions = PJRT_REPLAY_ARGS(PJRT_Buffer_Dimensions_Args);
  dimensions.buffer = buffer.get();
  PJRT_EXPECT_OK(api_->PJRT_Buffer_Dimensions(&dimensions));
  std::vector<int32_t> out(2, -1);
  auto copy = PJRT_REPLAY_ARGS(PJRT_Buffer_ToHostBuffer_Args);
  copy.src = buffer.get();
  copy.dst = out.data();
  copy.dst_size = out.size() * sizeof(int32_t);
  Status status = TakeError(api_, api_->PJRT_Buffer_ToHostBuffer(&copy));
  if (status.ok()) {
    ASSERT_NE(copy.event, nullptr);
    EventPtr event = Own(copy.event);
    status = Await(event.get());
  }
  EXPECT_FALSE(status.ok()) << "ToHostBuffer of a deleted buffer";
  EXPECT_FALSE(status.message.empty());
}

// PJRT's struct-size rule: a larger struct (a newer framework) is
// accepted; a smaller one (an older framework) is INVALID_ARGUMENT naming
// both sizes, and nothing is written.
TEST_P(ClientReplayTest, StructSizes) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  {
    struct {
      PJRT_Client_PlatformName_Args args;
      uint64_t newer_fields[2];
    } larger;
    std::memset(static_cast<void*>(&larger), 0, sizeof(larger));
    larger.args.struct_size = PJRT_Client_PlatformName_Args_STRUCT_SIZE + 8;
    larger.args.client = client();
    PJRT_ASSERT_OK(api_->PJRT_Client_PlatformName(&larger.args));
    EXPECT_EQ(Str(larger.args.platform_name, larger.args.platform_name_size),
              GetParam().platform);
  }
  auto check_smaller = [&](const std::string& struct_name, size_t size,
                           PJRT_Error* error) {
    Status status = TakeError(api_, error);
    ASSERT_FALSE(status.ok())
        << struct_name << " with struct_size " << size - 8 << " was accepted";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
    EXPECT_THAT(status.message, HasSubstr("expected " + std::to_string(size) +
                                          ", got " + std::to_string(size - 8)));
    EXPECT_THAT(status.message, HasSubstr(struct_name));
  };
  {
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_PlatformName_Args);
    args.struct_size -= 8;
    args.client = client();
    args.platform_name_size = 12345;  // beyond the caller's struct
    check_smaller("PJRT_Client_PlatformName_Args",
                  PJRT_Client_PlatformName_Args_STRUCT_SIZE,
                  api_->PJRT_Client_PlatformName(&args));
    EXPECT_EQ(args.platform_name, nullptr) << "a rejected struct was written";
    EXPECT_EQ(args.platform_name_size, 12345u)
        << "written beyond the caller's struct_size";
  }
  {
    const std::vector<float> values = {1, 2};
    BufferPtr buffer;
    ASSERT_NO_FATAL_FAILURE(
        Put(values.data(), PJRT_Buffer_Type_F32, {2},
            default_memory_[addressable_[0]],
            PJRT_HostBufferSemantics_kImmutableOnlyDuringCall, &buffer));
    struct {
      PJRT_Buffer_Dimensions_Args args;
      uint64_t newer_fields[2];
    } larger;
    std::memset(static_cast<void*>(&larger), 0, sizeof(larger));
    larger.args.struct_size = PJRT_Buffer_Dimensions_Args_STRUCT_SIZE + 8;
    larger.args.buffer = buffer.get();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Dimensions(&larger.args));
    ASSERT_EQ(larger.args.num_dims, 1u);
    EXPECT_EQ(larger.args.dims[0], 2);
    auto args = PJRT_REPLAY_ARGS(PJRT_Buffer_Dimensions_Args);
    args.struct_size -= 8;
    args.buffer = buffer.get();
    args.num_dims = 777;
    check_smaller("PJRT_Buffer_Dimensions_Args",
                  PJRT_Buffer_Dimensions_Args_STRUCT_SIZE,
                  api_->PJRT_Buffer_Dimensions(&args));
    EXPECT_EQ(args.num_dims, 777u) << "written beyond the caller's struct_size";
  }
  {  // The skew users hit most (REFERENCE 1.2): "expected 32, got 24".
    auto args = PJRT_REPLAY_ARGS(PJRT_Plugin_Attributes_Args);
    args.struct_size -= 8;
    check_smaller("PJRT_Plugin_Attributes_Args",
                  PJRT_Plugin_Attributes_Args_STRUCT_SIZE,
                  api_->PJRT_Plugin_Attributes(&args));
  }
}

// A text program that parses but does not verify: INVALID_ARGUMENT naming
// the op and its line:column.
TEST_P(ClientReplayTest, ProgramThatDoesNotVerify) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  LoadedExecutablePtr executable;
  Status status =
      Compile(kNotVerifying, CompileOptionsProto(1, 1, {}), &executable);
  ASSERT_FALSE(status.ok()) << "compiled a program that does not verify";
  EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  EXPECT_THAT(status.message, HasSubstr("stablehlo.add"));
  EXPECT_TRUE(HasPosition(status.message, 2))
      << "no line:column on line 2 in: " << status.message;
}

// MLIR bytecode (what JAX sends) and unknown formats fail cleanly.
TEST_P(ClientReplayTest, BytecodeAndUnknownFormats) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  {  // A bytecode header (version 6, StableHLO producer) with junk after.
    std::string bytecode(
        "ML\xef"
        "R",
        4);
    bytecode += '\x06';
    bytecode += "StableHLO_v1.11.0";
    bytecode += '\0';
    bytecode += std::string("\x00\x05\x81\x01\xff\xff\x7f", 7);
    LoadedExecutablePtr executable;
    Status status =
        Compile(bytecode, CompileOptionsProto(1, 1, {}), &executable);
    ASSERT_FALSE(status.ok()) << "compiled a truncated bytecode module";
    EXPECT_THAT(status.message, HasSubstr("bytecode"));
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
    EXPECT_FALSE(status.message.empty());
  }
  {  // Only the magic.
    LoadedExecutablePtr executable;
    Status status = Compile(std::string("ML\xef"
                                        "R",
                                        4),
                            CompileOptionsProto(1, 1, {}), &executable);
    ASSERT_FALSE(status.ok());
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {  // An unknown program format (upstream's CompileInvalidProgramFormat).
    LoadedExecutablePtr executable;
    Status status = Compile(kOneOutput, CompileOptionsProto(1, 1, {}),
                            &executable, "invalid");
    ASSERT_FALSE(status.ok()) << "compiled format 'invalid'";
    EXPECT_THAT(status.message, HasSubstr("invalid"));
  }
}

// Lookups, default assignments and buffer queries JAX makes outside the
// main path.
TEST_P(ClientReplayTest, ClientAndBufferQueries) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  for (PJRT_Device* device : devices_) {
    auto lookup = PJRT_REPLAY_ARGS(PJRT_Client_LookupDevice_Args);
    lookup.client = client();
    lookup.id = device_id_[device];
    PJRT_ASSERT_OK(api_->PJRT_Client_LookupDevice(&lookup));
    EXPECT_EQ(lookup.device, device);
    auto hardware = PJRT_REPLAY_ARGS(PJRT_Device_LocalHardwareId_Args);
    hardware.device = device;
    PJRT_ASSERT_OK(api_->PJRT_Device_LocalHardwareId(&hardware));
    if (hardware.local_hardware_id >= 0) {
      auto local = PJRT_REPLAY_ARGS(PJRT_Client_LookupAddressableDevice_Args);
      local.client = client();
      local.local_hardware_id = hardware.local_hardware_id;
      PJRT_ASSERT_OK(api_->PJRT_Client_LookupAddressableDevice(&local));
      EXPECT_EQ(local.addressable_device, device);
    }
  }
  // Upstream's LookupDeviceNegativeId / OutOfRangeId.
  for (int bad_id : {-1, 1 << 20}) {
    auto lookup = PJRT_REPLAY_ARGS(PJRT_Client_LookupDevice_Args);
    lookup.client = client();
    lookup.id = bad_id;
    Status status = TakeError(api_, api_->PJRT_Client_LookupDevice(&lookup));
    EXPECT_FALSE(status.ok()) << "device id " << bad_id;
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {
    const int replicas = addressable_.size() >= 2 ? 2 : 1;
    std::vector<int> assignment(static_cast<size_t>(replicas), -1);
    auto args = PJRT_REPLAY_ARGS(PJRT_Client_DefaultDeviceAssignment_Args);
    args.client = client();
    args.num_replicas = replicas;
    args.num_partitions = 1;
    args.default_assignment_size = assignment.size();
    args.default_assignment = assignment.data();
    PJRT_ASSERT_OK(api_->PJRT_Client_DefaultDeviceAssignment(&args));
    std::set<int> distinct(assignment.begin(), assignment.end());
    EXPECT_EQ(distinct.size(), assignment.size());
    for (int id : assignment) {
      EXPECT_TRUE(
          std::any_of(device_id_.begin(), device_id_.end(),
                      [id](const auto& entry) { return entry.second == id; }))
          << "default assignment names device " << id;
    }
    // Upstream's GetDefaultDeviceAssignmentBufferTooSmall: that exact code
    // and message.
    args.num_replicas = replicas + 1;
    Status status =
        TakeError(api_, api_->PJRT_Client_DefaultDeviceAssignment(&args));
    EXPECT_FALSE(status.ok()) << "an assignment larger than the buffer";
    EXPECT_EQ(status.code, PJRT_Error_Code_FAILED_PRECONDITION) << status;
    EXPECT_EQ(
        status.message,
        "PJRT_Client_DefaultDeviceAssignment: `default_assignment_size` " +
            std::to_string(replicas) + " < `num_replicas * num_partitions`, " +
            std::to_string(replicas + 1) +
            " * 1 = " + std::to_string(replicas + 1));
  }
  const std::vector<int16_t> values = {1, 2, 3, 4, 5, 6};
  BufferPtr buffer;
  ASSERT_NO_FATAL_FAILURE(
      Put(values.data(), PJRT_Buffer_Type_S16, {3, 2},
          default_memory_[addressable_[0]],
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &buffer));
  auto size = PJRT_REPLAY_ARGS(PJRT_Buffer_OnDeviceSizeInBytes_Args);
  size.buffer = buffer.get();
  PJRT_ASSERT_OK(api_->PJRT_Buffer_OnDeviceSizeInBytes(&size));
  EXPECT_GE(size.on_device_size_in_bytes, 12u);
  auto unpadded = PJRT_REPLAY_ARGS(PJRT_Buffer_UnpaddedDimensions_Args);
  unpadded.buffer = buffer.get();
  PJRT_ASSERT_OK(api_->PJRT_Buffer_UnpaddedDimensions(&unpadded));
  EXPECT_THAT(std::vector<int64_t>(unpadded.unpadded_dims,
                                   unpadded.unpadded_dims + unpadded.num_dims),
              ElementsAre(3, 2));
  auto layout = PJRT_REPLAY_ARGS(PJRT_Buffer_GetMemoryLayout_Args);
  layout.buffer = buffer.get();
  Status status = TakeError(api_, api_->PJRT_Buffer_GetMemoryLayout(&layout));
  if (status.ok()) {
    // The default layout: row-major, minor_to_major {1, 0}.
    ASSERT_EQ(layout.layout.type, PJRT_Buffer_MemoryLayout_Type_Tiled);
    EXPECT_THAT(
        std::vector<int64_t>(layout.layout.tiled.minor_to_major,
                             layout.layout.tiled.minor_to_major +
                                 layout.layout.tiled.minor_to_major_size),
        ElementsAre(1, 0));
  } else {
    EXPECT_EQ(status.code, PJRT_Error_Code_UNIMPLEMENTED) << status;
  }
  // ToHostBuffer into too small a destination: an error, no overflow.
  std::vector<uint8_t> small(5);
  auto copy = PJRT_REPLAY_ARGS(PJRT_Buffer_ToHostBuffer_Args);
  copy.src = buffer.get();
  copy.dst = small.data();
  copy.dst_size = small.size();
  status = TakeError(api_, api_->PJRT_Buffer_ToHostBuffer(&copy));
  if (status.ok()) {
    EventPtr event = Own(copy.event);
    status = event != nullptr ? Await(event.get()) : status;
  }
  EXPECT_FALSE(status.ok()) << "ToHostBuffer into 5 bytes of 12";
  // GetExecutable twice: two handles, each destroyed on its own.
  LoadedExecutablePtr loaded;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kOneOutput, addressable_[0], &loaded, &info));
  ExecutablePtr first, second;
  for (ExecutablePtr* executable : {&first, &second}) {
    auto get = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_GetExecutable_Args);
    get.loaded_executable = loaded.get();
    PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_GetExecutable(&get));
    *executable = ExecutablePtr(get.executable, ExecutableDeleter{api_});
  }
  loaded.reset();  // the executables outlive the loaded one
  auto outputs = PJRT_REPLAY_ARGS(PJRT_Executable_NumOutputs_Args);
  outputs.executable = second.get();
  PJRT_ASSERT_OK(api_->PJRT_Executable_NumOutputs(&outputs));
  EXPECT_EQ(outputs.num_outputs, 1u);
}

// Execute's edges: no completion events asked for, wrong argument counts
// and devices, deleted arguments; each a clean error, never a crash.
TEST_P(ClientReplayTest, ExecuteEdges) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  PJRT_Device* device = addressable_[0];
  PJRT_Memory* memory = default_memory_[device];
  LoadedExecutablePtr executable;
  ExecutableInfo info;
  ASSERT_NO_FATAL_FAILURE(
      CompileForOneDevice(kOneOutput, device, &executable, &info));
  const std::vector<float> x = {1, 2, 3, 4, 5, 6};
  BufferPtr a, b;
  ASSERT_NO_FATAL_FAILURE(
      Put(x.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &a));
  ASSERT_NO_FATAL_FAILURE(
      Put(x.data(), PJRT_Buffer_Type_F32, {2, 3}, memory,
          PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &b));

  {  // device_complete_events NULL: the outputs still become ready.
    std::vector<PJRT_Buffer*> arguments = {a.get(), b.get()};
    PJRT_Buffer* const* argument_lists[] = {arguments.data()};
    PJRT_Buffer* output = nullptr;
    PJRT_Buffer** output_lists[] = {&output};
    auto options = PJRT_REPLAY_ARGS(PJRT_ExecuteOptions);
    auto args = PJRT_REPLAY_ARGS(PJRT_LoadedExecutable_Execute_Args);
    args.executable = executable.get();
    args.options = &options;
    args.argument_lists = argument_lists;
    args.num_devices = 1;
    args.num_args = 2;
    args.output_lists = output_lists;
    args.device_complete_events = nullptr;
    PJRT_ASSERT_OK(api_->PJRT_LoadedExecutable_Execute(&args));
    ASSERT_NE(output, nullptr);
    BufferPtr result = Own(output);
    std::vector<float> back;
    ASSERT_NO_FATAL_FAILURE(ToHostAs(result.get(), &back));
    EXPECT_THAT(back, ElementsAre(2, 6, 12, 20, 30, 42));
  }
  if (addressable_.size() >= 2) {  // execute_device not the executable's.
    BufferPtr c, d;
    ASSERT_NO_FATAL_FAILURE(
        Put(x.data(), PJRT_Buffer_Type_F32, {2, 3},
            default_memory_[addressable_[1]],
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &c));
    ASSERT_NO_FATAL_FAILURE(
        Put(x.data(), PJRT_Buffer_Type_F32, {2, 3},
            default_memory_[addressable_[1]],
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &d));
    Launch run;
    Status status = Execute(executable.get(), {{c.get(), d.get()}}, 1, &run, {},
                            addressable_[1]);
    EXPECT_FALSE(status.ok())
        << "an executable assigned to device " << device_id_[device]
        << " ran on execute_device " << device_id_[addressable_[1]];
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {  // Inputs freed right after dispatch (a Python temporary), outputs
     // and events dropped unread: the run still completes, nothing is
     // used after it is freed. Zero-copy, as JAX puts a NumPy array: the
     // host data (static here) must outlive the runs reading it.
    static const float kTwos[6] = {2, 2, 2, 2, 2, 2};
    for (int i = 0; i < 3; ++i) {
      BufferPtr temporary;
      ASSERT_NO_FATAL_FAILURE(Put(kTwos, PJRT_Buffer_Type_F32, {2, 3}, memory,
                                  PJRT_HostBufferSemantics_kImmutableZeroCopy,
                                  &temporary));
      Launch run;
      Status status =
          Execute(executable.get(), {{a.get(), temporary.get()}}, 1, &run);
      ASSERT_TRUE(status.ok()) << status;
      temporary.reset();
      if (i == 0) {
        std::vector<float> back;
        ASSERT_NO_FATAL_FAILURE(ToHostAs(run.outputs[0][0].get(), &back));
        EXPECT_THAT(back, ElementsAre(3, 6, 9, 12, 15, 18))
            << "an input destroyed before its run ended";
      }
      // The rest of `run` is dropped here, likely before it completes.
    }
  }
  {  // One argument too few.
    Launch run;
    Status status = Execute(executable.get(), {{a.get()}}, 1, &run);
    EXPECT_FALSE(status.ok()) << "ran with 1 argument of 2";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  if (addressable_.size() >= 2) {  // An argument on another device.
    BufferPtr elsewhere;
    ASSERT_NO_FATAL_FAILURE(Put(
        x.data(), PJRT_Buffer_Type_F32, {2, 3},
        default_memory_[addressable_[1]],
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes, &elsewhere));
    Launch run;
    Status status =
        Execute(executable.get(), {{a.get(), elsewhere.get()}}, 1, &run);
    EXPECT_FALSE(status.ok()) << "ran with an argument on another device";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {  // A deleted argument: the call or the run fails.
    auto remove = PJRT_REPLAY_ARGS(PJRT_Buffer_Delete_Args);
    remove.buffer = b.get();
    PJRT_ASSERT_OK(api_->PJRT_Buffer_Delete(&remove));
    Launch run;
    Status status = Execute(executable.get(), {{a.get(), b.get()}}, 1, &run);
    if (status.ok()) {
      Status done = Await(run.done[0].get());
      std::vector<uint8_t> out(6 * sizeof(float));
      Status read = ToLiteral(run.outputs[0][0].get(), {1, 0}, &out);
      EXPECT_FALSE(done.ok() && read.ok()) << "ran on a deleted argument";
    } else {
      EXPECT_FALSE(status.message.empty());
    }
  }
}

// Client_Create with options the plugin cannot take: a clean error and
// no client (JAX reports it and skips the plugin).
TEST_P(ClientReplayTest, BadCreateOptions) {
  if (!GetParam().tpu) GTEST_SKIP() << "the TPU emulator's topology option";
  const std::string name = "topology";
  const std::string value = "v5e:3x3x3x3";
  auto option = PJRT_REPLAY_ARGS(PJRT_NamedValue);
  option.name = name.data();
  option.name_size = name.size();
  option.type = PJRT_NamedValue_kString;
  option.string_value = value.data();
  option.value_size = value.size();
  auto args = PJRT_REPLAY_ARGS(PJRT_Client_Create_Args);
  args.create_options = &option;
  args.num_options = 1;
  Status status = TakeError(api_, api_->PJRT_Client_Create(&args));
  EXPECT_FALSE(status.ok()) << "topology " << value << " accepted";
  EXPECT_EQ(args.client, nullptr);
  EXPECT_THAT(status.message, HasSubstr(value));
  if (args.client != nullptr) ClientDeleter{api_}(args.client);
  // The plugin still makes a good client afterwards.
  ASSERT_NO_FATAL_FAILURE(StartClient());
}

// Compile options a reader must reject (or, for partitions, at least not
// crash on).
TEST_P(ClientReplayTest, CompileOptionEdges) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  {  // Not a CompileOptionsProto: a length past the end.
    LoadedExecutablePtr executable;
    Status status =
        Compile(kOneOutput, std::string("\x1a\x7f\x20", 3), &executable);
    EXPECT_FALSE(status.ok()) << "malformed compile options accepted";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {  // A device assignment naming a device that does not exist.
    LoadedExecutablePtr executable;
    Status status =
        Compile(kOneOutput, CompileOptionsProto(1, 1, {4242}), &executable);
    EXPECT_FALSE(status.ok()) << "assigned to device 4242";
    EXPECT_EQ(status.code, PJRT_Error_Code_INVALID_ARGUMENT) << status;
  }
  {  // Two replicas on one device.
    LoadedExecutablePtr executable;
    const int64_t id = device_id_[addressable_[0]];
    Status status =
        Compile(kTwoReplicas, CompileOptionsProto(2, 1, {id, id}), &executable);
    EXPECT_FALSE(status.ok()) << "two replicas on device " << id;
  }
  if (std::optional<std::string> options =
          ReadFile(TestdataPath("compile_options_2partitions.pb"))) {
    // jaxlib's 1 replica x 2 partitions on devices 2 and 7, for a program
    // without shardings: compiled for both devices, or refused cleanly.
    LoadedExecutablePtr executable;
    Status status = Compile(kOneOutput, *options, &executable);
    if (status.ok()) {
      ExecutableInfo info;
      ASSERT_NO_FATAL_FAILURE(Describe(executable.get(), &info));
      EXPECT_EQ(info.num_partitions, 2u);
      EXPECT_EQ(info.devices.size(), 2u);
    } else {
      EXPECT_NE(status.code, PJRT_Error_Code_INTERNAL) << status;
      EXPECT_NE(status.code, PJRT_Error_Code_UNKNOWN) << status;
      std::cout << "note: 2 partitions: " << status << "\n";
    }
  }
}

// JAX is multi-threaded: device_put, compile, execute and np.asarray from
// several threads at once, each on its own device.
TEST_P(ClientReplayTest, ConcurrentThreads) {
  ASSERT_NO_FATAL_FAILURE(StartClient());
  if (IsSkipped()) return;
  constexpr int kThreads = 4;
  constexpr int kIterations = 5;
  std::vector<std::thread> threads;
  std::mutex mu;
  std::vector<std::string> failures;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      auto fail = [&](const std::string& what, const Status& status) {
        std::ostringstream message;
        message << "thread " << t << ": " << what << ": " << status;
        std::lock_guard<std::mutex> lock(mu);
        failures.push_back(message.str());
      };
      PJRT_Device* device =
          addressable_[static_cast<size_t>(t) % addressable_.size()];
      LoadedExecutablePtr executable;
      Status status = Compile(
          kOneOutput, CompileOptionsProto(1, 1, {device_id_.at(device)}),
          &executable);
      if (!status.ok()) return fail("compile", status);
      for (int i = 0; i < kIterations; ++i) {
        const float base = static_cast<float>(t * 100 + i);
        const std::vector<float> x = {base, 1, 2, 3, 4, 5};
        auto put = PJRT_REPLAY_ARGS(PJRT_Client_BufferFromHostBuffer_Args);
        put.client = client();
        put.data = x.data();
        put.type = PJRT_Buffer_Type_F32;
        const int64_t dims[] = {2, 3};
        put.dims = dims;
        put.num_dims = 2;
        put.host_buffer_semantics =
            PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
        put.memory = default_memory_.at(device);
        status = TakeError(api_, api_->PJRT_Client_BufferFromHostBuffer(&put));
        if (!status.ok()) return fail("put", status);
        BufferPtr input = Own(put.buffer);
        EventPtr done = Own(put.done_with_host_buffer);
        if (done != nullptr && !(status = Await(done.get())).ok()) {
          return fail("done_with_host_buffer", status);
        }
        Launch run;
        status =
            Execute(executable.get(), {{input.get(), input.get()}}, 1, &run);
        if (!status.ok()) return fail("execute", status);
        std::vector<uint8_t> bytes(6 * sizeof(float));
        status = ToLiteral(run.outputs[0][0].get(), {1, 0}, &bytes);
        if (!status.ok()) return fail("to host", status);
        const std::vector<float> back = As<float>(bytes);
        for (size_t k = 0; k < x.size(); ++k) {
          if (back[k] != x[k] * x[k] + x[k]) {
            return fail("value " + std::to_string(k), Status());
          }
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  EXPECT_THAT(failures, ::testing::IsEmpty());
}

INSTANTIATE_TEST_SUITE_P(Plugins, ClientReplayTest,
                         ::testing::ValuesIn(Plugins()),
                         [](const ::testing::TestParamInfo<PluginCase>& info) {
                           return info.param.name;
                         });

#ifdef CUDA_PLUGIN
// The CUDA plugin with no driver (PJRTX_CUDA_DRIVER_PATH names a missing
// file; CTest entry pjrt.client_replay_cuda_no_driver): it loads and
// initializes, and PJRT_Client_Create fails with the plugin's unavailable
// reason as its message, so JAX reports the reason and skips the plugin.
TEST(CudaWithoutDriver, ClientCreateFailsWithTheUnavailableReason) {
  const char* driver = std::getenv("PJRTX_CUDA_DRIVER_PATH");
  if (driver == nullptr || access(driver, F_OK) == 0) {
    GTEST_SKIP() << "needs PJRTX_CUDA_DRIVER_PATH naming a missing file";
  }
  const LoadedPlugin& plugin =
      LoadPlugin(PluginPath("PJRT_REPLAY_CUDA_PLUGIN", CUDA_PLUGIN));
  ASSERT_TRUE(plugin.error.empty()) << plugin.error;
  const PJRT_Api* api = plugin.api;

  // The reason, as the plugin's own ABI reports it.
  std::string reason;
  using GetPjrtxApiFn = const PJRTX_Api* (*)();
  auto get_pjrtx =
      reinterpret_cast<GetPjrtxApiFn>(dlsym(plugin.handle, "GetPjrtxApi"));
  ASSERT_NE(get_pjrtx, nullptr) << "no GetPjrtxApi beside GetPjrtApi";
  const PJRTX_Api* pjrtx = get_pjrtx();
  auto destroy_pjrtx_error = [pjrtx](PJRTX_Error* error) {
    if (error == nullptr) return true;
    PJRTX_Error_Destroy_Args args{};
    args.struct_size = PJRTX_Error_Destroy_Args_STRUCT_SIZE;
    args.error = error;
    pjrtx->Error_Destroy(&args);
    return false;
  };
  PJRTX_Plugin_Initialize_Args initialize{};
  initialize.struct_size = PJRTX_Plugin_Initialize_Args_STRUCT_SIZE;
  ASSERT_TRUE(destroy_pjrtx_error(pjrtx->Plugin_Initialize(&initialize)));
  PJRTX_Plugin_Attributes_Args attributes{};
  attributes.struct_size = PJRTX_Plugin_Attributes_Args_STRUCT_SIZE;
  ASSERT_TRUE(destroy_pjrtx_error(pjrtx->Plugin_Attributes(&attributes)));
  for (size_t i = 0; i < attributes.num_attributes; ++i) {
    const PJRTX_NamedValue& attribute = attributes.attributes[i];
    if (Str(attribute.name, attribute.name_size) ==
            "pjrtx.unavailable_reason" &&
        attribute.type == PJRTX_NamedValue_kString) {
      reason = Str(attribute.value.string_value, attribute.value_size);
    }
  }
  ASSERT_FALSE(reason.empty()) << "no pjrtx.unavailable_reason";
  EXPECT_THAT(reason, HasSubstr(driver));

  // JAX's calls up to the failure: the plugin attributes still answer.
  auto plugin_attributes = PJRT_REPLAY_ARGS(PJRT_Plugin_Attributes_Args);
  Status status =
      TakeError(api, api->PJRT_Plugin_Attributes(&plugin_attributes));
  EXPECT_TRUE(status.ok()) << "PJRT_Plugin_Attributes: " << status;

  auto create = PJRT_REPLAY_ARGS(PJRT_Client_Create_Args);
  status = TakeError(api, api->PJRT_Client_Create(&create));
  ASSERT_FALSE(status.ok()) << "a client without a driver";
  EXPECT_EQ(create.client, nullptr);
  EXPECT_THAT(status.message, HasSubstr(reason));
  std::cout << "PJRT_Client_Create: " << status << "\n";
}
#endif  // CUDA_PLUGIN

}  // namespace
}  // namespace pjrt_replay
