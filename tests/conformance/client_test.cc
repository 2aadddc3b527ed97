// Client, device, memory and topology queries.

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "api_helpers.h"
#include "conformance_test.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "named_value_list.h"
#include "pjrtx/pjrtx_c_api.h"
#include "plugin_under_test.h"

namespace pjrtx::conformance {
namespace {

using ::testing::Contains;
using ::testing::UnorderedElementsAreArray;

class ClientQueryTest : public ClientTest {};

TEST_F(ClientQueryTest, PlatformHasAName) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Platform_Args);
  args.client = client();
  ASSERT_PJRTX_OK(api()->Client_Platform(&args));
  ASSERT_NE(args.platform_name, nullptr);
  EXPECT_GT(args.platform_name_size, 0u);
  EXPECT_TRUE(args.platform_version != nullptr ||
              args.platform_version_size == 0);
}

TEST_F(ClientQueryTest, ClientAttributesIncludeThePluginAttributes) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Attributes_Args);
  args.client = client();
  ASSERT_PJRTX_OK(api()->Client_Attributes(&args));
  const NamedValueList attributes =
      NamedValueList::Copy(args.attributes, args.num_attributes);
  for (const OwnedNamedValue& expected : Plugin().attributes.entries()) {
    const OwnedNamedValue* found = attributes.Find(expected.name);
    ASSERT_NE(found, nullptr) << "client attributes lack " << expected.name;
    EXPECT_EQ(found->ValueToString(), expected.ValueToString())
        << expected.name;
  }
}

TEST_F(ClientQueryTest, AddressableDevicesAreDevicesOfThisProcess) {
  const int process_index = ProcessIndex(client());
  for (PJRTX_Device* device : addressable_devices()) {
    EXPECT_THAT(devices(), Contains(device));
    EXPECT_TRUE(IsAddressable(device));
    PJRTX_DeviceDescription* description = Description(device);
    ASSERT_NE(description, nullptr);
    EXPECT_EQ(DescriptionProcessIndex(description), process_index);
  }
  for (PJRTX_Device* device : devices()) {
    const bool listed =
        std::find(addressable_devices().begin(), addressable_devices().end(),
                  device) != addressable_devices().end();
    EXPECT_EQ(IsAddressable(device), listed) << "device " << DeviceId(device);
  }
}

TEST_F(ClientQueryTest, LocalHardwareIdsAreDistinctIndices) {
  std::set<int> ids;
  for (PJRTX_Device* device : addressable_devices()) {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_LocalHardwareId_Args);
    args.device = device;
    ASSERT_PJRTX_OK(api()->Device_LocalHardwareId(&args));
    EXPECT_GE(args.local_hardware_id, 0);
    EXPECT_TRUE(ids.insert(args.local_hardware_id).second)
        << "local hardware id " << args.local_hardware_id << " repeats";
  }
  for (PJRTX_Device* device : devices()) {
    if (IsAddressable(device)) continue;
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_LocalHardwareId_Args);
    args.device = device;
    EXPECT_TRUE(IsError(ScopedError(api()->Device_LocalHardwareId(&args)),
                        PJRTX_Error_Code_FAILED_PRECONDITION));
  }
}

TEST_F(ClientQueryTest, DeviceDescriptionsAreComplete) {
  std::set<int64_t> ids;
  for (PJRTX_Device* device : devices()) {
    PJRTX_DeviceDescription* description = Description(device);
    ASSERT_NE(description, nullptr);
    const int64_t id = DescriptionId(description);
    EXPECT_TRUE(ids.insert(id).second) << "device id " << id << " repeats";
    EXPECT_GE(DescriptionProcessIndex(description), 0) << "device " << id;
    EXPECT_FALSE(DescriptionKind(description).empty()) << "device " << id;

    auto attributes =
        PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_Attributes_Args);
    attributes.device_description = description;
    EXPECT_PJRTX_OK(api()->DeviceDescription_Attributes(&attributes));
    auto text = PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_String_Args);
    text.device_description = description;
    EXPECT_PJRTX_OK(api()->DeviceDescription_ToString(&text));
    text = PJRTX_CONFORMANCE_ARGS(PJRTX_DeviceDescription_String_Args);
    text.device_description = description;
    EXPECT_PJRTX_OK(api()->DeviceDescription_DebugString(&text));
  }
}

TEST_F(ClientQueryTest, LookupDeviceFindsEveryDevice) {
  for (PJRTX_Device* device : devices()) {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_LookupDevice_Args);
    args.client = client();
    args.id = DeviceId(device);
    ASSERT_PJRTX_OK(api()->Client_LookupDevice(&args));
    EXPECT_EQ(args.device, device) << "id " << args.id;
  }
}

TEST_F(ClientQueryTest, LookupDeviceRejectsUnknownIdsNamingThem) {
  int64_t max_id = -1;
  for (PJRTX_Device* device : devices()) {
    max_id = std::max(max_id, DeviceId(device));
  }
  for (int64_t id : {int64_t{-1}, max_id + 1}) {
    auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_LookupDevice_Args);
    args.client = client();
    args.id = id;
    // The header says NOT_FOUND; INVALID_ARGUMENT is tolerated for now.
    EXPECT_TRUE(IsErrorOneOf(
        ScopedError(api()->Client_LookupDevice(&args)),
        {PJRTX_Error_Code_NOT_FOUND, PJRTX_Error_Code_INVALID_ARGUMENT},
        {std::to_string(id)}));
    EXPECT_EQ(args.device, nullptr);
  }
}

TEST_F(ClientQueryTest, DefaultMemoryIsAddressableByItsDevice) {
  for (PJRTX_Device* device : addressable_devices()) {
    PJRTX_Memory* memory = DefaultMemory(device);
    ASSERT_NE(memory, nullptr);
    EXPECT_THAT(DeviceMemories(device), Contains(memory));
    EXPECT_THAT(MemoryDevices(memory), Contains(device));
  }
}

TEST_F(ClientQueryTest, MemoriesHaveKindsAndDistinctIds) {
  const std::vector<PJRTX_Memory*> memories = AddressableMemories(client());
  ASSERT_FALSE(memories.empty());
  std::set<int> ids;
  for (PJRTX_Memory* memory : memories) {
    const int id = MemoryId(memory);
    EXPECT_TRUE(ids.insert(id).second) << "memory id " << id << " repeats";
    auto kind = PJRTX_CONFORMANCE_ARGS(PJRTX_Memory_Kind_Args);
    kind.memory = memory;
    ASSERT_PJRTX_OK(api()->Memory_Kind(&kind));
    ASSERT_NE(kind.kind, nullptr);
    const std::string name(kind.kind, kind.kind_size);
    EXPECT_FALSE(name.empty()) << "memory " << id;
    // The codes the header fixes for the standard kinds.
    if (name == "device") {
      EXPECT_EQ(kind.kind_code, PJRTX_MemoryKind_Device);
    } else if (name == "pinned_host") {
      EXPECT_EQ(kind.kind_code, PJRTX_MemoryKind_PinnedHost);
    } else if (name == "unpinned_host") {
      EXPECT_EQ(kind.kind_code, PJRTX_MemoryKind_UnpinnedHost);
    } else {
      EXPECT_GE(kind.kind_code, PJRTX_MemoryKind_FirstPluginSpecific)
          << "plugin-specific kind " << name;
    }
    auto text = PJRTX_CONFORMANCE_ARGS(PJRTX_Memory_String_Args);
    text.memory = memory;
    EXPECT_PJRTX_OK(api()->Memory_ToString(&text));
    // Every device that addresses it is one of this process's devices.
    for (PJRTX_Device* device : MemoryDevices(memory)) {
      EXPECT_THAT(addressable_devices(), Contains(device));
    }
  }
  for (PJRTX_Device* device : addressable_devices()) {
    for (PJRTX_Memory* memory : DeviceMemories(device)) {
      EXPECT_THAT(memories, Contains(memory));
    }
  }
}

TEST_F(ClientQueryTest, TopologyDescribesEveryDevice) {
  auto args = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_TopologyDescription_Args);
  args.client = client();
  ASSERT_PJRTX_OK(api()->Client_TopologyDescription(&args));
  ASSERT_NE(args.topology, nullptr);

  auto name =
      PJRTX_CONFORMANCE_ARGS(PJRTX_TopologyDescription_PlatformName_Args);
  name.topology = args.topology;
  ASSERT_PJRTX_OK(api()->TopologyDescription_PlatformName(&name));
  EXPECT_GT(name.platform_name_size, 0u);

  auto descriptions = PJRTX_CONFORMANCE_ARGS(
      PJRTX_TopologyDescription_GetDeviceDescriptions_Args);
  descriptions.topology = args.topology;
  ASSERT_PJRTX_OK(
      api()->TopologyDescription_GetDeviceDescriptions(&descriptions));
  ASSERT_EQ(descriptions.num_descriptions, devices().size());
  std::vector<int64_t> topology_ids;
  for (size_t i = 0; i < descriptions.num_descriptions; ++i) {
    topology_ids.push_back(DescriptionId(descriptions.descriptions[i]));
  }
  std::vector<int64_t> device_ids;
  for (PJRTX_Device* device : devices()) device_ids.push_back(DeviceId(device));
  EXPECT_THAT(topology_ids, UnorderedElementsAreArray(device_ids));

  auto attributes =
      PJRTX_CONFORMANCE_ARGS(PJRTX_TopologyDescription_Attributes_Args);
  attributes.topology = args.topology;
  EXPECT_PJRTX_OK(api()->TopologyDescription_Attributes(&attributes));
}

TEST_F(ClientQueryTest, MemoryStatsAndTransferCountersAreSane) {
  for (PJRTX_Device* device : addressable_devices()) {
    const PJRTX_Device_MemoryStats_Args stats = MemoryStats(device);
    EXPECT_GE(stats.bytes_in_use, 0);
    EXPECT_GE(stats.peak_bytes_in_use, stats.bytes_in_use);
    EXPECT_GE(stats.num_allocs, 0);
    EXPECT_GE(stats.bytes_limit, 0);
    const PJRTX_Device_TransferCounters_Args counters =
        TransferCounters(device);
    for (int64_t counter :
         {counters.host_to_device_bytes, counters.host_to_device_ops,
          counters.device_to_host_bytes, counters.device_to_host_ops,
          counters.device_to_device_bytes, counters.device_to_device_ops,
          counters.staging_bytes, counters.staging_ops, counters.dcn_sent_bytes,
          counters.dcn_sent_ops, counters.dcn_received_bytes,
          counters.dcn_received_ops}) {
      EXPECT_GE(counter, 0);
    }
  }
}

TEST_F(ClientQueryTest, NullHandlesAreRejected) {
  auto devices = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_Devices_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Client_Devices(&devices)),
                      PJRTX_Error_Code_INVALID_ARGUMENT));
  auto lookup = PJRTX_CONFORMANCE_ARGS(PJRTX_Client_LookupDevice_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Client_LookupDevice(&lookup)),
                      PJRTX_Error_Code_INVALID_ARGUMENT));
  auto stats = PJRTX_CONFORMANCE_ARGS(PJRTX_Device_MemoryStats_Args);
  EXPECT_TRUE(IsError(ScopedError(api()->Device_MemoryStats(&stats)),
                      PJRTX_Error_Code_INVALID_ARGUMENT));
}

}  // namespace
}  // namespace pjrtx::conformance
