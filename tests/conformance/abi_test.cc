// The function table, exported symbols, plugin attributes and NULL destroys:
// what a framework relies on before it creates a client.

#include <dlfcn.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "elf_dynamic_symbols.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;

// Slot names of version 0.1 in table order, for messages.
constexpr const char* kSlotNames[] = {
    "Error_Destroy",
    "Error_Message",
    "Error_GetCode",
    "Plugin_Initialize",
    "Plugin_Attributes",
    "Plugin_OptionSchema",
    "Event_Destroy",
    "Event_IsReady",
    "Event_Error",
    "Event_Await",
    "Event_OnReady",
    "Event_Create",
    "Event_Set",
    "Client_Create",
    "Client_Destroy",
    "Client_Platform",
    "Client_ProcessIndex",
    "Client_Attributes",
    "Client_Devices",
    "Client_AddressableDevices",
    "Client_LookupDevice",
    "Client_AddressableMemories",
    "Client_TopologyDescription",
    "Client_BufferFromHostBuffer",
    "Device_GetDescription",
    "Device_IsAddressable",
    "Device_LocalHardwareId",
    "Device_AddressableMemories",
    "Device_DefaultMemory",
    "Device_MemoryStats",
    "Device_TransferCounters",
    "DeviceDescription_Id",
    "DeviceDescription_ProcessIndex",
    "DeviceDescription_Kind",
    "DeviceDescription_Attributes",
    "DeviceDescription_ToString",
    "DeviceDescription_DebugString",
    "Memory_Id",
    "Memory_Kind",
    "Memory_ToString",
    "Memory_AddressableByDevices",
    "TopologyDescription_PlatformName",
    "TopologyDescription_GetDeviceDescriptions",
    "TopologyDescription_Attributes",
    "Buffer_Destroy",
    "Buffer_ElementType",
    "Buffer_Dimensions",
    "Buffer_OnDeviceSizeInBytes",
    "Buffer_Device",
    "Buffer_Memory",
    "Buffer_Delete",
    "Buffer_IsDeleted",
    "Buffer_ReadyEvent",
    "Buffer_ToHostBuffer",
    "Buffer_CopyToDevice",
    "Buffer_CopyToMemory",
    "Buffer_ToDLPack",
    "Client_BufferFromDLPack",
    "Client_Compile",
    "Client_DeserializeAndLoad",
    "LoadedExecutable_Destroy",
    "LoadedExecutable_Metadata",
    "LoadedExecutable_Execute",
    "LoadedExecutable_Serialize",
    "Client_CreateCommunicator",
    "Communicator_Destroy",
    "Communicator_Collective",
    "LoadedExecutable_InputAliases"};

using Slot = void (*)(void);
constexpr size_t kFirstSlotOffset = offsetof(PJRTX_Api, Error_Destroy);
static_assert(std::size(kSlotNames) ==
                  (sizeof(PJRTX_Api) - kFirstSlotOffset) / sizeof(Slot),
              "kSlotNames must name every slot of PJRTX_Api");
static_assert(offsetof(PJRTX_Api, LoadedExecutable_InputAliases) ==
                  kFirstSlotOffset + (std::size(kSlotNames) - 1) * sizeof(Slot),
              "PJRTX_Api slots must be contiguous function pointers");

// The version test must run (and say what is wrong) even when the table is
// unusable, so it only honours the known-gaps file.
class ApiTableTest : public ::testing::Test {
 protected:
  void SetUp() override { SkipIfKnownGap(); }
};

TEST_F(ApiTableTest, GetPjrtxApiReturnsATableOfThisMajorVersion) {
  const PJRTX_Api* api = Plugin().opened.api;
  ASSERT_NE(api, nullptr) << "GetPjrtxApi returned NULL";
  EXPECT_GE(api->struct_size, PJRTX_Api_STRUCT_SIZE_0_1);
  EXPECT_GE(api->pjrtx_api_version.struct_size,
            static_cast<size_t>(PJRTX_Api_Version_STRUCT_SIZE));
  EXPECT_EQ(api->pjrtx_api_version.major_version, PJRTX_API_MAJOR);
  EXPECT_GE(api->pjrtx_api_version.minor_version, 1);
}

TEST_F(ApiTableTest, GetPjrtxApiIsSafeFromManyThreads) {
  auto get_api = reinterpret_cast<PJRTX_GetApiFn>(
      dlsym(Plugin().opened.handle, "GetPjrtxApi"));
  ASSERT_NE(get_api, nullptr);
  constexpr int kThreads = 8;
  std::vector<const PJRTX_Api*> tables(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&tables, get_api, i] { tables[i] = get_api(); });
  }
  for (std::thread& thread : threads) thread.join();
  for (const PJRTX_Api* table : tables) {
    ASSERT_NE(table, nullptr);
    EXPECT_EQ(table->pjrtx_api_version.major_version, PJRTX_API_MAJOR);
    EXPECT_EQ(table->pjrtx_api_version.minor_version,
              Plugin().opened.api->pjrtx_api_version.minor_version);
  }
}

class AbiTest : public ConformanceTest {};

TEST_F(AbiTest, EverySlotIsFilled) {
  // Slots beyond this header's table are the plugin's newer ones; the suite
  // does not know their types, so it checks only the ones it knows.
  const size_t end = std::min(api()->struct_size, sizeof(PJRTX_Api));
  const auto* table = reinterpret_cast<const unsigned char*>(api());
  for (size_t offset = kFirstSlotOffset; offset + sizeof(Slot) <= end;
       offset += sizeof(Slot)) {
    Slot slot;
    std::memcpy(&slot, table + offset, sizeof(slot));
    EXPECT_NE(slot, nullptr)
        << "PJRTX_Api."
        << kSlotNames[(offset - kFirstSlotOffset) / sizeof(Slot)]
        << " is NULL; an unsupported call must return UNIMPLEMENTED instead";
  }
}

TEST_F(AbiTest, PluginInitializeIsIdempotent) {
  EXPECT_EQ(InitializePlugin(api()), "");
  EXPECT_EQ(InitializePlugin(api()), "");
}

TEST_F(AbiTest, DestroyingNullIsANoOp) {
  auto error = PJRTX_CONFORMANCE_ARGS(PJRTX_Error_Destroy_Args);
  api()->Error_Destroy(&error);
  auto event = PJRTX_CONFORMANCE_ARGS(PJRTX_Event_Destroy_Args);
  EXPECT_PJRTX_OK(api()->Event_Destroy(&event));
  auto client = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Destroy_Args);
  EXPECT_PJRTX_OK(api()->Client_Destroy(&client));
  auto buffer = PJRTX_CONFORMANCE_ARGS(PJRTX_Buffer_Destroy_Args);
  EXPECT_PJRTX_OK(api()->Buffer_Destroy(&buffer));
}

TEST_F(AbiTest, ExportsOnlyTheTwoEntryPoints) {
  std::vector<std::string> symbols;
  std::string error;
  ASSERT_TRUE(ReadDefinedDynamicSymbols(Plugin().path, &symbols, &error))
      << error;
  EXPECT_THAT(symbols, UnorderedElementsAre("GetPjrtApi", "GetPjrtxApi"))
      << "a plugin exports GetPjrtxApi and PJRT's GetPjrtApi and nothing "
         "else; other symbols clash with the host process (build with "
         "-fvisibility=hidden and a version script)";
}

TEST_F(AbiTest, PluginAttributesHoldTheRequiredEntries) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Attributes_Args);
  ASSERT_PJRTX_OK(api()->Plugin_Attributes(&args));
  ASSERT_TRUE(args.attributes != nullptr || args.num_attributes == 0);
  const NamedValueList attributes =
      NamedValueList::Copy(args.attributes, args.num_attributes);

  for (std::string_view name : {kPlatformNameAttribute, kPluginVersionAttribute,
                                kCapabilitiesAttribute}) {
    const OwnedNamedValue* value = attributes.Find(name);
    ASSERT_NE(value, nullptr) << "missing attribute " << name;
    EXPECT_EQ(value->type, PJRTX_NamedValue_kString) << name;
  }
  EXPECT_FALSE(attributes.Find(kPlatformNameAttribute)->string_value.empty());
  EXPECT_FALSE(attributes.Find(kPluginVersionAttribute)->string_value.empty());

  const OwnedNamedValue* version = attributes.Find(kApiVersionAttribute);
  ASSERT_NE(version, nullptr) << "missing attribute " << kApiVersionAttribute;
  ASSERT_EQ(version->type, PJRTX_NamedValue_kInt64List);
  EXPECT_THAT(version->int64_list_value,
              ElementsAre(api()->pjrtx_api_version.major_version,
                          api()->pjrtx_api_version.minor_version));

  const OwnedNamedValue* reason = attributes.Find(kUnavailableReasonAttribute);
  if (reason != nullptr) {
    EXPECT_EQ(reason->type, PJRTX_NamedValue_kString);
    EXPECT_FALSE(reason->string_value.empty());
  }
}

TEST_F(AbiTest, PluginAttributesAreStable) {
  // They live for the life of the process, so two calls agree.
  auto first = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Attributes_Args);
  ASSERT_PJRTX_OK(api()->Plugin_Attributes(&first));
  auto second = PJRTX_CONFORMANCE_ARGS(PJRTX_Plugin_Attributes_Args);
  ASSERT_PJRTX_OK(api()->Plugin_Attributes(&second));
  ASSERT_EQ(first.num_attributes, second.num_attributes);
  const NamedValueList a =
      NamedValueList::Copy(first.attributes, first.num_attributes);
  const NamedValueList b =
      NamedValueList::Copy(second.attributes, second.num_attributes);
  for (size_t i = 0; i < a.entries().size(); ++i) {
    EXPECT_EQ(a.entries()[i].name, b.entries()[i].name);
    EXPECT_EQ(a.entries()[i].ValueToString(), b.entries()[i].ValueToString());
  }
}

}  // namespace
}  // namespace pjrtx::conformance
