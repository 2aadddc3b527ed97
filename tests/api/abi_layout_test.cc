// Freezes the layout of every ABI minor so far: the offset of every slot of
// PJRTX_Api and the size of every argument struct. A change here breaks every
// plugin and framework built against them; new fields are appended (next
// minor), never inserted.
#include <cstddef>

#include "gtest/gtest.h"
#include "pjrtx/pjrtx_c_api.h"

namespace {

TEST(AbiLayoutTest, ApiTableSlotOffsets) {
  EXPECT_EQ(offsetof(PJRTX_Api, pjrtx_api_version), 16u);
  EXPECT_EQ(offsetof(PJRTX_Api, Error_Destroy), 40u);
  EXPECT_EQ(offsetof(PJRTX_Api, Error_Message), 48u);
  EXPECT_EQ(offsetof(PJRTX_Api, Error_GetCode), 56u);
  EXPECT_EQ(offsetof(PJRTX_Api, Plugin_Initialize), 64u);
  EXPECT_EQ(offsetof(PJRTX_Api, Plugin_Attributes), 72u);
  EXPECT_EQ(offsetof(PJRTX_Api, Plugin_OptionSchema), 80u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_Destroy), 88u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_IsReady), 96u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_Error), 104u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_Await), 112u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_OnReady), 120u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_Create), 128u);
  EXPECT_EQ(offsetof(PJRTX_Api, Event_Set), 136u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Create), 144u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Destroy), 152u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Platform), 160u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_ProcessIndex), 168u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Attributes), 176u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Devices), 184u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_AddressableDevices), 192u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_LookupDevice), 200u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_AddressableMemories), 208u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_TopologyDescription), 216u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_BufferFromHostBuffer), 224u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_GetDescription), 232u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_IsAddressable), 240u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_LocalHardwareId), 248u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_AddressableMemories), 256u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_DefaultMemory), 264u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_MemoryStats), 272u);
  EXPECT_EQ(offsetof(PJRTX_Api, Device_TransferCounters), 280u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_Id), 288u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_ProcessIndex), 296u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_Kind), 304u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_Attributes), 312u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_ToString), 320u);
  EXPECT_EQ(offsetof(PJRTX_Api, DeviceDescription_DebugString), 328u);
  EXPECT_EQ(offsetof(PJRTX_Api, Memory_Id), 336u);
  EXPECT_EQ(offsetof(PJRTX_Api, Memory_Kind), 344u);
  EXPECT_EQ(offsetof(PJRTX_Api, Memory_ToString), 352u);
  EXPECT_EQ(offsetof(PJRTX_Api, Memory_AddressableByDevices), 360u);
  EXPECT_EQ(offsetof(PJRTX_Api, TopologyDescription_PlatformName), 368u);
  EXPECT_EQ(offsetof(PJRTX_Api, TopologyDescription_GetDeviceDescriptions),
            376u);
  EXPECT_EQ(offsetof(PJRTX_Api, TopologyDescription_Attributes), 384u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_Destroy), 392u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_ElementType), 400u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_Dimensions), 408u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_OnDeviceSizeInBytes), 416u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_Device), 424u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_Memory), 432u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_Delete), 440u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_IsDeleted), 448u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_ReadyEvent), 456u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_ToHostBuffer), 464u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_CopyToDevice), 472u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_CopyToMemory), 480u);
  EXPECT_EQ(offsetof(PJRTX_Api, Buffer_ToDLPack), 488u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_BufferFromDLPack), 496u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_Compile), 504u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_DeserializeAndLoad), 512u);
  EXPECT_EQ(offsetof(PJRTX_Api, LoadedExecutable_Destroy), 520u);
  EXPECT_EQ(offsetof(PJRTX_Api, LoadedExecutable_Metadata), 528u);
  EXPECT_EQ(offsetof(PJRTX_Api, LoadedExecutable_Execute), 536u);
  EXPECT_EQ(offsetof(PJRTX_Api, LoadedExecutable_Serialize), 544u);
  EXPECT_EQ(offsetof(PJRTX_Api, Client_CreateCommunicator), 552u);
  EXPECT_EQ(offsetof(PJRTX_Api, Communicator_Destroy), 560u);
  EXPECT_EQ(offsetof(PJRTX_Api, Communicator_Collective), 568u);
  EXPECT_EQ(offsetof(PJRTX_Api, LoadedExecutable_InputAliases), 576u);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE_0_1, 488u);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE_0_2, 504u);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE_0_3, 552u);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE_0_4, 576u);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE_0_6, 584u);
}

TEST(AbiLayoutTest, ArgumentStructSizes) {
  EXPECT_EQ(PJRTX_Extension_Base_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Error_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Error_Message_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Error_GetCode_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_NamedValue_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Plugin_Initialize_Args_STRUCT_SIZE, 16);
  EXPECT_EQ(PJRTX_Plugin_Attributes_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Plugin_OptionSchema_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Event_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Event_IsReady_Args_STRUCT_SIZE, 25);
  EXPECT_EQ(PJRTX_Event_Error_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Event_Await_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Event_OnReady_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Event_Create_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Event_Set_Args_STRUCT_SIZE, 48);
  EXPECT_EQ(PJRTX_KeyValueGetCallback_Args_STRUCT_SIZE, 80);
  EXPECT_EQ(PJRTX_KeyValuePutCallback_Args_STRUCT_SIZE, 64);
  EXPECT_EQ(PJRTX_Client_Create_Args_STRUCT_SIZE, 72);
  EXPECT_EQ(PJRTX_Client_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Client_Platform_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Client_ProcessIndex_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_Client_Attributes_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Client_Devices_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Client_LookupDevice_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Client_AddressableMemories_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Client_TopologyDescription_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Device_GetDescription_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_DeviceDescription_Id_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_DeviceDescription_ProcessIndex_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_DeviceDescription_Kind_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_DeviceDescription_Attributes_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_DeviceDescription_String_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Device_IsAddressable_Args_STRUCT_SIZE, 25);
  EXPECT_EQ(PJRTX_Device_LocalHardwareId_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_Device_AddressableMemories_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Device_DefaultMemory_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Device_MemoryStats_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Device_TransferCounters_Args_STRUCT_SIZE, 120);
  EXPECT_EQ(PJRTX_Memory_Id_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_Memory_Kind_Args_STRUCT_SIZE, 44);
  EXPECT_EQ(PJRTX_Memory_String_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Memory_AddressableByDevices_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_TopologyDescription_PlatformName_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_TopologyDescription_GetDeviceDescriptions_Args_STRUCT_SIZE,
            40);
  EXPECT_EQ(PJRTX_TopologyDescription_Attributes_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Client_BufferFromHostBuffer_Args_STRUCT_SIZE, 128);
  EXPECT_EQ(PJRTX_Buffer_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Buffer_ElementType_Args_STRUCT_SIZE, 28);
  EXPECT_EQ(PJRTX_Buffer_Dimensions_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_Buffer_OnDeviceSizeInBytes_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Buffer_Device_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Buffer_Memory_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Buffer_Delete_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Buffer_IsDeleted_Args_STRUCT_SIZE, 25);
  EXPECT_EQ(PJRTX_Buffer_ReadyEvent_Args_STRUCT_SIZE, 32);
  EXPECT_EQ(PJRTX_Buffer_ToHostBuffer_Args_STRUCT_SIZE, 64);
  EXPECT_EQ(PJRTX_Buffer_CopyToDevice_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Buffer_CopyToMemory_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Buffer_ToDLPack_Args_STRUCT_SIZE, 48);
  EXPECT_EQ(PJRTX_Client_BufferFromDLPack_Args_STRUCT_SIZE, 48);
  EXPECT_EQ(PJRTX_Program_STRUCT_SIZE, 48);
  EXPECT_EQ(PJRTX_Client_Compile_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_LoadedExecutable_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_LoadedExecutable_Metadata_Args_STRUCT_SIZE, 136);
  EXPECT_EQ(PJRTX_LoadedExecutable_InputAliases_Args_STRUCT_SIZE, 40);
  EXPECT_EQ(PJRTX_LoadedExecutable_Execute_Args_STRUCT_SIZE, 104);
  EXPECT_EQ(PJRTX_LoadedExecutable_Serialize_Args_STRUCT_SIZE, 56);
  EXPECT_EQ(PJRTX_Client_DeserializeAndLoad_Args_STRUCT_SIZE, 48);
  EXPECT_EQ(PJRTX_Client_CreateCommunicator_Args_STRUCT_SIZE, 72);
  EXPECT_EQ(PJRTX_Communicator_Destroy_Args_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Communicator_Collective_Args_STRUCT_SIZE, 128);
  EXPECT_EQ(PJRTX_Api_Version_STRUCT_SIZE, 24);
  EXPECT_EQ(PJRTX_Api_STRUCT_SIZE, 584);
}

TEST(AbiLayoutTest, ArgumentStructsStartWithSizeAndExtension) {
  EXPECT_EQ(offsetof(PJRTX_Client_Create_Args, struct_size), 0u);
  EXPECT_EQ(offsetof(PJRTX_Client_Create_Args, extension_start),
            sizeof(size_t));
  EXPECT_EQ(sizeof(PJRTX_NamedValue), 56u);
}

}  // namespace
