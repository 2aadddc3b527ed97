// The PJRT C API of the built libpjrt_tpuemu.so, driven the way a PJRT
// framework drives it: dlopen, GetPjrtApi, a client of 8 chips, devices and
// their attributes, memories, a buffer round trip, a StableHLO text program
// compiled and run.
#include <dlfcn.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "compiler_stub/bytecode/vhlo_ops.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "runtime/pjrt/compile_options.h"
#include "runtime/pjrt/pjrt_c_api.h"

#ifndef PJRTX_TPUEMU_PLUGIN
#error "PJRTX_TPUEMU_PLUGIN must name libpjrt_tpuemu.so"
#endif

namespace pjrtx::pjrt {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

template <typename Args>
Args MakeArgs(size_t struct_size) {
  Args args{};
  args.struct_size = struct_size;
  return args;
}
#define ARGS(Type) MakeArgs<Type>(Type##_STRUCT_SIZE)

// z = (x + y) * x on f32[4].
constexpr char kAddMul[] = R"(
func.func @main(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %sum = stablehlo.add %x, %y : tensor<4xf32>
  %z = stablehlo.multiply %sum, %x : tensor<4xf32>
  func.return %z : tensor<4xf32>
}
)";

// Protobuf wire format, enough for a CompileOptionsProto.
std::string Varint(uint64_t value) {
  std::string out;
  do {
    out.push_back(
        static_cast<char>((value & 0x7f) | (value > 0x7f ? 0x80 : 0)));
    value >>= 7;
  } while (value != 0);
  return out;
}
std::string LengthDelimited(int field, const std::string& payload) {
  return Varint(field << 3 | 2) + Varint(payload.size()) + payload;
}

// CompileOptionsProto{executable_build_options{device_assignment}}.
std::string CompileOptionsOn(const DeviceAssignment& assignment) {
  return LengthDelimited(
      3, LengthDelimited(9, SerializeDeviceAssignment(assignment)));
}

class PjrtApiTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    void* library = dlopen(PJRTX_TPUEMU_PLUGIN, RTLD_NOW | RTLD_LOCAL);
    ASSERT_NE(library, nullptr) << dlerror();
    using GetApi = const PJRT_Api* (*)();
    auto get_api = reinterpret_cast<GetApi>(dlsym(library, "GetPjrtApi"));
    ASSERT_NE(get_api, nullptr) << dlerror();
    api_ = get_api();
    auto init = ARGS(PJRT_Plugin_Initialize_Args);
    ASSERT_EQ(api_->PJRT_Plugin_Initialize(&init), nullptr);
  }

  void SetUp() override {
    ASSERT_NE(api_, nullptr);
    client_ = CreateClient({{"topology", "v5e:2x4"}});
    ASSERT_NE(client_, nullptr);
  }

  void TearDown() override {
    auto destroy = ARGS(PJRT_Client_Destroy_Args);
    destroy.client = client_;
    EXPECT_EQ(api_->PJRT_Client_Destroy(&destroy), nullptr);
  }

  // Frees `error` and returns "<code>: <message>", or "OK" for NULL.
  static std::string Describe(PJRT_Error* error) {
    if (error == nullptr) return "OK";
    auto code = ARGS(PJRT_Error_GetCode_Args);
    code.error = error;
    EXPECT_EQ(api_->PJRT_Error_GetCode(&code), nullptr);
    auto message = ARGS(PJRT_Error_Message_Args);
    message.error = error;
    api_->PJRT_Error_Message(&message);
    std::string text = std::to_string(code.code) + ": " +
                       std::string(message.message, message.message_size);
    auto destroy = ARGS(PJRT_Error_Destroy_Args);
    destroy.error = error;
    api_->PJRT_Error_Destroy(&destroy);
    return text;
  }

  PJRT_Client* CreateClient(
      const std::vector<std::pair<std::string, std::string>>& strings,
      std::string* error_text = nullptr) {
    std::vector<PJRT_NamedValue> options;
    for (const auto& [name, value] : strings) {
      PJRT_NamedValue option{};
      option.struct_size = PJRT_NamedValue_STRUCT_SIZE;
      option.name = name.data();
      option.name_size = name.size();
      option.type = PJRT_NamedValue_kString;
      option.string_value = value.data();
      option.value_size = value.size();
      options.push_back(option);
    }
    return CreateClient(options, error_text);
  }

  PJRT_Client* CreateClient(const std::vector<PJRT_NamedValue>& options,
                            std::string* error_text = nullptr) {
    auto create = ARGS(PJRT_Client_Create_Args);
    create.create_options = options.data();
    create.num_options = options.size();
    std::string text = Describe(api_->PJRT_Client_Create(&create));
    if (error_text != nullptr) *error_text = text;
    return create.client;
  }

  std::vector<PJRT_Device*> Devices() {
    auto devices = ARGS(PJRT_Client_Devices_Args);
    devices.client = client_;
    EXPECT_EQ(Describe(api_->PJRT_Client_Devices(&devices)), "OK");
    return {devices.devices, devices.devices + devices.num_devices};
  }

  PJRT_DeviceDescription* Description(PJRT_Device* device) {
    auto get = ARGS(PJRT_Device_GetDescription_Args);
    get.device = device;
    EXPECT_EQ(Describe(api_->PJRT_Device_GetDescription(&get)), "OK");
    return get.device_description;
  }

  int DeviceId(PJRT_Device* device) {
    auto id = ARGS(PJRT_DeviceDescription_Id_Args);
    id.device_description = Description(device);
    EXPECT_EQ(Describe(api_->PJRT_DeviceDescription_Id(&id)), "OK");
    return id.id;
  }

  std::vector<PJRT_Memory*> Memories(PJRT_Device* device) {
    auto memories = ARGS(PJRT_Device_AddressableMemories_Args);
    memories.device = device;
    EXPECT_EQ(Describe(api_->PJRT_Device_AddressableMemories(&memories)), "OK");
    return {memories.memories, memories.memories + memories.num_memories};
  }

  std::string Kind(PJRT_Memory* memory) {
    auto kind = ARGS(PJRT_Memory_Kind_Args);
    kind.memory = memory;
    EXPECT_EQ(Describe(api_->PJRT_Memory_Kind(&kind)), "OK");
    return std::string(kind.kind, kind.kind_size);
  }

  void Await(PJRT_Event* event) {
    ASSERT_NE(event, nullptr);
    auto await = ARGS(PJRT_Event_Await_Args);
    await.event = event;
    EXPECT_EQ(Describe(api_->PJRT_Event_Await(&await)), "OK");
    auto destroy = ARGS(PJRT_Event_Destroy_Args);
    destroy.event = event;
    EXPECT_EQ(Describe(api_->PJRT_Event_Destroy(&destroy)), "OK");
  }

  PJRT_Buffer* ToDevice(const std::vector<float>& data, PJRT_Device* device,
                        PJRT_Memory* memory = nullptr) {
    const int64_t dims[] = {static_cast<int64_t>(data.size())};
    auto from_host = ARGS(PJRT_Client_BufferFromHostBuffer_Args);
    // An extension node of a type no plugin knows: skipped.
    PJRT_Extension_Base unknown{PJRT_Extension_Base_STRUCT_SIZE,
                                static_cast<PJRT_Extension_Type>(4242),
                                nullptr};
    from_host.extension_start = &unknown;
    from_host.client = client_;
    from_host.data = data.data();
    from_host.type = PJRT_Buffer_Type_F32;
    from_host.dims = dims;
    from_host.num_dims = 1;
    from_host.host_buffer_semantics =
        PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes;
    from_host.device = memory == nullptr ? device : nullptr;
    from_host.memory = memory;
    EXPECT_EQ(Describe(api_->PJRT_Client_BufferFromHostBuffer(&from_host)),
              "OK");
    Await(from_host.done_with_host_buffer);
    return from_host.buffer;
  }

  std::vector<float> ToHost(PJRT_Buffer* buffer) {
    auto query = ARGS(PJRT_Buffer_ToHostBuffer_Args);
    query.src = buffer;
    EXPECT_EQ(Describe(api_->PJRT_Buffer_ToHostBuffer(&query)), "OK");
    std::vector<float> data(query.dst_size / sizeof(float));
    auto to_host = ARGS(PJRT_Buffer_ToHostBuffer_Args);
    to_host.src = buffer;
    to_host.dst = data.data();
    to_host.dst_size = query.dst_size;
    EXPECT_EQ(Describe(api_->PJRT_Buffer_ToHostBuffer(&to_host)), "OK");
    Await(to_host.event);
    return data;
  }

  PJRT_Device* BufferDevice(PJRT_Buffer* buffer) {
    auto device = ARGS(PJRT_Buffer_Device_Args);
    device.buffer = buffer;
    EXPECT_EQ(Describe(api_->PJRT_Buffer_Device(&device)), "OK");
    return device.device;
  }

  void DestroyBuffer(PJRT_Buffer* buffer) {
    auto destroy = ARGS(PJRT_Buffer_Destroy_Args);
    destroy.buffer = buffer;
    EXPECT_EQ(Describe(api_->PJRT_Buffer_Destroy(&destroy)), "OK");
  }

  std::string Compile(const std::string& code, const std::string& options,
                      PJRT_LoadedExecutable** executable,
                      const std::string& format = "mlir") {
    auto program = ARGS(PJRT_Program);
    std::string code_copy = code;
    program.code = code_copy.data();
    program.code_size = code_copy.size();
    program.format = format.data();
    program.format_size = format.size();
    auto compile = ARGS(PJRT_Client_Compile_Args);
    compile.client = client_;
    compile.program = &program;
    compile.compile_options = options.data();
    compile.compile_options_size = options.size();
    std::string result = Describe(api_->PJRT_Client_Compile(&compile));
    *executable = compile.executable;
    return result;
  }

  static const PJRT_Api* api_;
  PJRT_Client* client_ = nullptr;
};

const PJRT_Api* PjrtApiTest::api_ = nullptr;

TEST_F(PjrtApiTest, EverySlotIsFilledAtMinor81) {
  EXPECT_EQ(api_->pjrt_api_version.major_version, 0);
  EXPECT_EQ(api_->pjrt_api_version.minor_version, 81);
  EXPECT_EQ(api_->struct_size, PJRT_Api_STRUCT_SIZE);
  const size_t first = offsetof(PJRT_Api, PJRT_Error_Destroy);
  for (size_t offset = first; offset < api_->struct_size;
       offset += sizeof(void*)) {
    void* slot;
    std::memcpy(&slot, reinterpret_cast<const char*>(api_) + offset,
                sizeof(slot));
    EXPECT_NE(slot, nullptr) << "slot " << (offset - first) / sizeof(void*);
  }
}

TEST_F(PjrtApiTest, ArgumentStructsFollowTheStructSizeRule) {
  auto devices = ARGS(PJRT_Client_Devices_Args);
  devices.client = client_;
  devices.struct_size -= 1;
  EXPECT_EQ(Describe(api_->PJRT_Client_Devices(&devices)),
            "3: Unexpected PJRT_Client_Devices_Args size: expected 40, got "
            "39. The plugin is likely built with a later version than the "
            "framework. This plugin is built with PJRT API version 0.81.");
  devices.struct_size += 16;  // A newer framework's larger struct.
  EXPECT_EQ(Describe(api_->PJRT_Client_Devices(&devices)), "OK");
  EXPECT_EQ(devices.num_devices, 8);
}

TEST_F(PjrtApiTest, UnsupportedCallsNameThemselves) {
  auto view = ARGS(PJRT_Client_CreateViewOfDeviceBuffer_Args);
  view.client = client_;
  EXPECT_EQ(Describe(api_->PJRT_Client_CreateViewOfDeviceBuffer(&view)),
            "12: PJRT_Client_CreateViewOfDeviceBuffer is not implemented by "
            "pjrtx");
}

TEST_F(PjrtApiTest, PluginAttributesGiveTheStableHloVersions) {
  auto attributes = ARGS(PJRT_Plugin_Attributes_Args);
  ASSERT_EQ(Describe(api_->PJRT_Plugin_Attributes(&attributes)), "OK");
  std::map<std::string, std::vector<int64_t>> lists;
  std::map<std::string, int64_t> ints;
  for (size_t i = 0; i < attributes.num_attributes; ++i) {
    const PJRT_NamedValue& v = attributes.attributes[i];
    const std::string name(v.name, v.name_size);
    ASSERT_TRUE(v.type == PJRT_NamedValue_kString ||
                v.type == PJRT_NamedValue_kInt64 ||
                v.type == PJRT_NamedValue_kInt64List)
        << name;
    if (v.type == PJRT_NamedValue_kInt64) ints[name] = v.int64_value;
    if (v.type == PJRT_NamedValue_kInt64List) {
      lists[name].assign(v.int64_array_value,
                         v.int64_array_value + v.value_size);
    }
  }
  EXPECT_EQ(ints["xla_version"], 2);
  // The newest VHLO the bytecode reader handles, so JAX serializes for it.
  const pjrtx::bytecode::VhloVersion newest =
      pjrtx::bytecode::kNewestVhloVersion;
  EXPECT_THAT(lists["stablehlo_current_version"],
              ElementsAre(newest.major, newest.minor, newest.patch));
  EXPECT_THAT(lists["stablehlo_minimum_version"], ElementsAre(0, 9, 0));
  EXPECT_THAT(lists["pjrtx.api_version"], testing::SizeIs(2));
}

TEST_F(PjrtApiTest, ClientNamesItselfForJax) {
  auto name = ARGS(PJRT_Client_PlatformName_Args);
  name.client = client_;
  ASSERT_EQ(Describe(api_->PJRT_Client_PlatformName(&name)), "OK");
  EXPECT_EQ(absl::string_view(name.platform_name, name.platform_name_size),
            "tpuemu");
  auto version = ARGS(PJRT_Client_PlatformVersion_Args);
  version.client = client_;
  ASSERT_EQ(Describe(api_->PJRT_Client_PlatformVersion(&version)), "OK");
  EXPECT_THAT(
      std::string(version.platform_version, version.platform_version_size),
      HasSubstr("pjrtx"));
}

TEST_F(PjrtApiTest, CreateOptionsAreTypedAndChecked) {
  std::string error;
  PJRT_Client* client = CreateClient({{"topolgy", "v5e:2x2"}}, &error);
  EXPECT_EQ(client, nullptr);
  EXPECT_THAT(error, HasSubstr("topolgy"));

  // An int64 where the schema has a float (dcn_gbps) is taken.
  PJRT_NamedValue dcn{};
  dcn.struct_size = PJRT_NamedValue_STRUCT_SIZE;
  dcn.name = "dcn_gbps";
  dcn.name_size = 8;
  dcn.type = PJRT_NamedValue_kInt64;
  dcn.int64_value = 100;
  dcn.value_size = 1;
  // So are the options JAX adds under jax.distributed, which tpu_emu's
  // schema does not declare (it places processes by slice and host).
  PJRT_NamedValue node_id = dcn;
  node_id.name = "node_id";
  node_id.name_size = 7;
  node_id.int64_value = 0;
  PJRT_NamedValue num_nodes = node_id;
  num_nodes.name = "num_nodes";
  num_nodes.name_size = 9;
  num_nodes.int64_value = 1;
  client = CreateClient({dcn, node_id, num_nodes}, &error);
  ASSERT_NE(client, nullptr) << error;
  auto destroy = ARGS(PJRT_Client_Destroy_Args);
  destroy.client = client;
  EXPECT_EQ(Describe(api_->PJRT_Client_Destroy(&destroy)), "OK");
}

TEST_F(PjrtApiTest, EightChipsWithTpuAttributes) {
  std::vector<PJRT_Device*> devices = Devices();
  ASSERT_EQ(devices.size(), 8);
  std::set<std::vector<int64_t>> coords;
  for (size_t d = 0; d < devices.size(); ++d) {
    EXPECT_EQ(DeviceId(devices[d]), static_cast<int>(d));
    auto attributes = ARGS(PJRT_DeviceDescription_Attributes_Args);
    attributes.device_description = Description(devices[d]);
    ASSERT_EQ(Describe(api_->PJRT_DeviceDescription_Attributes(&attributes)),
              "OK");
    std::map<std::string, const PJRT_NamedValue*> by_name;
    for (size_t i = 0; i < attributes.num_attributes; ++i) {
      const PJRT_NamedValue& v = attributes.attributes[i];
      EXPECT_TRUE(v.type == PJRT_NamedValue_kString ||
                  v.type == PJRT_NamedValue_kInt64 ||
                  v.type == PJRT_NamedValue_kInt64List);
      by_name[std::string(v.name, v.name_size)] = &v;
    }
    ASSERT_TRUE(by_name.count("coords"));
    ASSERT_EQ(by_name["coords"]->type, PJRT_NamedValue_kInt64List);
    ASSERT_EQ(by_name["coords"]->value_size, 3);
    coords.insert({by_name["coords"]->int64_array_value,
                   by_name["coords"]->int64_array_value + 3});
    ASSERT_TRUE(by_name.count("core_on_chip"));
    EXPECT_EQ(by_name["core_on_chip"]->int64_value, 0);
    ASSERT_TRUE(by_name.count("slice_index"));
    EXPECT_EQ(by_name["slice_index"]->int64_value, 0);

    auto hardware_id = ARGS(PJRT_Device_LocalHardwareId_Args);
    hardware_id.device = devices[d];
    ASSERT_EQ(Describe(api_->PJRT_Device_LocalHardwareId(&hardware_id)), "OK");
    EXPECT_EQ(hardware_id.local_hardware_id, static_cast<int>(d));
  }
  EXPECT_EQ(coords.size(), 8);
}

TEST_F(PjrtApiTest, EachChipHasItsOwnDeviceAndPinnedHostMemory) {
  std::set<PJRT_Memory*> all;
  for (PJRT_Device* device : Devices()) {
    std::vector<PJRT_Memory*> memories = Memories(device);
    ASSERT_GE(memories.size(), 2);
    EXPECT_EQ(Kind(memories[0]), "device");
    std::set<std::string> kinds;
    for (PJRT_Memory* memory : memories) {
      kinds.insert(Kind(memory));
      EXPECT_TRUE(all.insert(memory).second) << "shared between devices";
      auto by = ARGS(PJRT_Memory_AddressableByDevices_Args);
      by.memory = memory;
      ASSERT_EQ(Describe(api_->PJRT_Memory_AddressableByDevices(&by)), "OK");
      EXPECT_THAT(
          std::vector<PJRT_Device*>(by.devices, by.devices + by.num_devices),
          ElementsAre(device));
    }
    EXPECT_TRUE(kinds.count("pinned_host"));
  }
  auto client_memories = ARGS(PJRT_Client_AddressableMemories_Args);
  client_memories.client = client_;
  ASSERT_EQ(Describe(api_->PJRT_Client_AddressableMemories(&client_memories)),
            "OK");
  EXPECT_EQ(client_memories.num_addressable_memories, all.size());
}

TEST_F(PjrtApiTest, BuffersRoundTripBetweenChipsAndMemories) {
  const std::vector<float> data = {1.5f, -2, 3, 4.25f, 5};
  std::vector<PJRT_Device*> devices = Devices();
  PJRT_Buffer* on_3 = ToDevice(data, devices[3]);
  EXPECT_EQ(BufferDevice(on_3), devices[3]);
  EXPECT_EQ(ToHost(on_3), data);

  auto copy = ARGS(PJRT_Buffer_CopyToDevice_Args);
  copy.buffer = on_3;
  copy.dst_device = devices[6];
  ASSERT_EQ(Describe(api_->PJRT_Buffer_CopyToDevice(&copy)), "OK");
  EXPECT_EQ(BufferDevice(copy.dst_buffer), devices[6]);
  EXPECT_EQ(ToHost(copy.dst_buffer), data);

  // Device 5's pinned host memory, from device 3's buffer and from host.
  PJRT_Memory* pinned_5 = Memories(devices[5])[1];
  ASSERT_EQ(Kind(pinned_5), "pinned_host");
  auto to_memory = ARGS(PJRT_Buffer_CopyToMemory_Args);
  to_memory.buffer = on_3;
  to_memory.dst_memory = pinned_5;
  ASSERT_EQ(Describe(api_->PJRT_Buffer_CopyToMemory(&to_memory)), "OK");
  PJRT_Buffer* from_host = ToDevice(data, nullptr, pinned_5);
  for (PJRT_Buffer* buffer : {to_memory.dst_buffer, from_host}) {
    EXPECT_EQ(BufferDevice(buffer), devices[5]);
    auto memory = ARGS(PJRT_Buffer_Memory_Args);
    memory.buffer = buffer;
    ASSERT_EQ(Describe(api_->PJRT_Buffer_Memory(&memory)), "OK");
    EXPECT_EQ(memory.memory, pinned_5);
    EXPECT_EQ(ToHost(buffer), data);
  }

  auto del = ARGS(PJRT_Buffer_Delete_Args);
  del.buffer = on_3;
  ASSERT_EQ(Describe(api_->PJRT_Buffer_Delete(&del)), "OK");
  auto deleted = ARGS(PJRT_Buffer_IsDeleted_Args);
  deleted.buffer = on_3;
  ASSERT_EQ(Describe(api_->PJRT_Buffer_IsDeleted(&deleted)), "OK");
  EXPECT_TRUE(deleted.is_deleted);
  for (PJRT_Buffer* buffer :
       {on_3, copy.dst_buffer, to_memory.dst_buffer, from_host}) {
    DestroyBuffer(buffer);
  }
}

TEST_F(PjrtApiTest, OnReadyCallbackMayDestroyTheEvent) {
  PJRT_Buffer* buffer = ToDevice({1, 2}, Devices()[0]);
  auto ready = ARGS(PJRT_Buffer_ReadyEvent_Args);
  ready.buffer = buffer;
  ASSERT_EQ(Describe(api_->PJRT_Buffer_ReadyEvent(&ready)), "OK");
  struct Seen {
    PJRT_Event* event;
    std::atomic<bool> done{false};
  } seen{ready.event};
  auto on_ready = ARGS(PJRT_Event_OnReady_Args);
  on_ready.event = ready.event;
  on_ready.user_arg = &seen;
  on_ready.callback = [](PJRT_Error* error, void* arg) {
    auto* seen = static_cast<Seen*>(arg);
    EXPECT_EQ(error, nullptr);
    auto destroy = ARGS(PJRT_Event_Destroy_Args);
    destroy.event = seen->event;
    EXPECT_EQ(api_->PJRT_Event_Destroy(&destroy), nullptr);
    seen->done = true;
  };
  ASSERT_EQ(Describe(api_->PJRT_Event_OnReady(&on_ready)), "OK");
  while (!seen.done) std::this_thread::yield();
  DestroyBuffer(buffer);
}

TEST_F(PjrtApiTest, DefaultDeviceAssignmentBufferTooSmall) {
  std::vector<int> ids(7);
  auto assignment = ARGS(PJRT_Client_DefaultDeviceAssignment_Args);
  assignment.client = client_;
  assignment.num_replicas = 4;
  assignment.num_partitions = 2;
  assignment.default_assignment_size = ids.size();
  assignment.default_assignment = ids.data();
  EXPECT_EQ(Describe(api_->PJRT_Client_DefaultDeviceAssignment(&assignment)),
            "9: PJRT_Client_DefaultDeviceAssignment: `default_assignment_size` "
            "7 < `num_replicas * num_partitions`, 4 * 2 = 8");
  ids.resize(8);
  assignment.default_assignment_size = ids.size();
  assignment.default_assignment = ids.data();
  EXPECT_EQ(Describe(api_->PJRT_Client_DefaultDeviceAssignment(&assignment)),
            "OK");
  EXPECT_THAT(ids, ElementsAre(0, 4, 1, 5, 2, 6, 3, 7));
}

TEST_F(PjrtApiTest, CompilesStableHloTextAndRunsIt) {
  std::vector<PJRT_Device*> devices = Devices();
  PJRT_LoadedExecutable* loaded = nullptr;
  ASSERT_EQ(Compile(kAddMul, CompileOptionsOn({1, 1, {2}}), &loaded), "OK");

  auto get = ARGS(PJRT_LoadedExecutable_GetExecutable_Args);
  get.loaded_executable = loaded;
  ASSERT_EQ(Describe(api_->PJRT_LoadedExecutable_GetExecutable(&get)), "OK");
  auto name = ARGS(PJRT_Executable_Name_Args);
  name.executable = get.executable;
  ASSERT_EQ(Describe(api_->PJRT_Executable_Name(&name)), "OK");
  EXPECT_EQ(absl::string_view(name.executable_name, name.executable_name_size),
            "main");
  auto outputs = ARGS(PJRT_Executable_NumOutputs_Args);
  outputs.executable = get.executable;
  ASSERT_EQ(Describe(api_->PJRT_Executable_NumOutputs(&outputs)), "OK");
  EXPECT_EQ(outputs.num_outputs, 1);
  auto dims = ARGS(PJRT_Executable_OutputDimensions_Args);
  dims.executable = get.executable;
  ASSERT_EQ(Describe(api_->PJRT_Executable_OutputDimensions(&dims)), "OK");
  ASSERT_EQ(dims.num_outputs, 1);
  EXPECT_EQ(dims.dim_sizes[0], 1);
  EXPECT_EQ(dims.dims[0], 4);
  auto destroy_executable = ARGS(PJRT_Executable_Destroy_Args);
  destroy_executable.executable = get.executable;
  EXPECT_EQ(Describe(api_->PJRT_Executable_Destroy(&destroy_executable)), "OK");

  auto on = ARGS(PJRT_LoadedExecutable_AddressableDevices_Args);
  on.executable = loaded;
  ASSERT_EQ(Describe(api_->PJRT_LoadedExecutable_AddressableDevices(&on)),
            "OK");
  ASSERT_EQ(on.num_addressable_devices, 1);
  EXPECT_EQ(on.addressable_devices[0], devices[2]);

  auto assignment = ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args);
  assignment.executable = loaded;
  ASSERT_EQ(
      Describe(api_->PJRT_LoadedExecutable_GetDeviceAssignment(&assignment)),
      "OK");
  absl::StatusOr<DeviceAssignment> parsed =
      ParseDeviceAssignment(absl::MakeConstSpan(
          reinterpret_cast<const uint8_t*>(assignment.serialized_bytes),
          assignment.serialized_bytes_size));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_THAT(parsed->device_ids, ElementsAre(2));
  assignment.serialized_device_assignment_deleter(
      assignment.serialized_device_assignment);

  PJRT_Buffer* x = ToDevice({1, 2, 3, 4}, devices[2]);
  PJRT_Buffer* y = ToDevice({10, 20, 30, 40}, devices[2]);
  PJRT_Buffer* const arguments[] = {x, y};
  PJRT_Buffer* const* argument_lists[] = {arguments};
  PJRT_Buffer* results[1] = {};
  PJRT_Buffer** output_lists[] = {results};
  PJRT_Event* done[1] = {};
  auto options = ARGS(PJRT_ExecuteOptions);
  auto execute = ARGS(PJRT_LoadedExecutable_Execute_Args);
  PJRT_Extension_Base profiler{PJRT_Extension_Base_STRUCT_SIZE,
                               PJRT_Extension_Type_Profiler, nullptr};
  execute.extension_start = &profiler;
  execute.executable = loaded;
  execute.options = &options;
  execute.argument_lists = argument_lists;
  execute.num_devices = 1;
  execute.num_args = 2;
  execute.output_lists = output_lists;
  execute.device_complete_events = done;
  ASSERT_EQ(Describe(api_->PJRT_LoadedExecutable_Execute(&execute)), "OK");
  Await(done[0]);
  EXPECT_EQ(BufferDevice(results[0]), devices[2]);
  EXPECT_THAT(ToHost(results[0]), ElementsAre(11, 44, 99, 176));
  for (PJRT_Buffer* buffer : {x, y, results[0]}) DestroyBuffer(buffer);

  auto destroy = ARGS(PJRT_LoadedExecutable_Destroy_Args);
  destroy.executable = loaded;
  EXPECT_EQ(Describe(api_->PJRT_LoadedExecutable_Destroy(&destroy)), "OK");
}

// A portable executable lists no devices and no device assignment (IFRT,
// under JAX, tells it apart by exactly that) and runs where execute_device
// says.
TEST_F(PjrtApiTest, PortableExecutablesRunOnTheDeviceNamedAtExecution) {
  std::vector<PJRT_Device*> devices = Devices();
  PJRT_LoadedExecutable* loaded = nullptr;
  // CompileOptionsProto{compile_portable_executable: true}.
  ASSERT_EQ(Compile(kAddMul, std::string("\x20\x01", 2), &loaded), "OK");
  auto on = ARGS(PJRT_LoadedExecutable_AddressableDevices_Args);
  on.executable = loaded;
  ASSERT_EQ(Describe(api_->PJRT_LoadedExecutable_AddressableDevices(&on)),
            "OK");
  EXPECT_EQ(on.num_addressable_devices, 0);
  auto assignment = ARGS(PJRT_LoadedExecutable_GetDeviceAssignment_Args);
  assignment.executable = loaded;
  ASSERT_EQ(
      Describe(api_->PJRT_LoadedExecutable_GetDeviceAssignment(&assignment)),
      "OK");
  EXPECT_EQ(assignment.serialized_bytes_size, 0);
  assignment.serialized_device_assignment_deleter(
      assignment.serialized_device_assignment);

  PJRT_Buffer* x = ToDevice({1, 2, 3, 4}, devices[7]);
  PJRT_Buffer* const arguments[] = {x, x};
  PJRT_Buffer* const* argument_lists[] = {arguments};
  PJRT_Buffer* results[1] = {};
  PJRT_Buffer** output_lists[] = {results};
  auto execute = ARGS(PJRT_LoadedExecutable_Execute_Args);
  execute.executable = loaded;
  execute.argument_lists = argument_lists;
  execute.num_devices = 1;
  execute.num_args = 2;
  execute.output_lists = output_lists;
  execute.execute_device = devices[7];
  ASSERT_EQ(Describe(api_->PJRT_LoadedExecutable_Execute(&execute)), "OK");
  EXPECT_EQ(BufferDevice(results[0]), devices[7]);
  EXPECT_THAT(ToHost(results[0]), ElementsAre(2, 8, 18, 32));
  for (PJRT_Buffer* buffer : {x, results[0]}) DestroyBuffer(buffer);
  auto destroy = ARGS(PJRT_LoadedExecutable_Destroy_Args);
  destroy.executable = loaded;
  EXPECT_EQ(Describe(api_->PJRT_LoadedExecutable_Destroy(&destroy)), "OK");
}

TEST_F(PjrtApiTest, UnknownFormatsAndMalformedProgramsAreRefused) {
  PJRT_LoadedExecutable* loaded = nullptr;
  EXPECT_EQ(Compile(kAddMul, "", &loaded, "hlo"),
            "3: Unknown program format 'hlo'.");
  EXPECT_THAT(Compile(std::string("ML\xefR\x00\x06", 6), "", &loaded),
              HasSubstr("3: bytecode offset 5: truncated"));
  EXPECT_THAT(
      Compile("func.func @main() {\n  %0 = stablehlo.add\n}", "", &loaded),
      testing::MatchesRegex("3: [0-9]+:[0-9]+: .*"));
  EXPECT_EQ(loaded, nullptr);
}

}  // namespace
}  // namespace pjrtx::pjrt
