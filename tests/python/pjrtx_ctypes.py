"""The parts of the pjrtx C ABI the Python tests use, through ctypes.

Mirrors api/include/pjrtx/pjrtx_c_api.h: argument structs start with
struct_size and extension_start; the function table's slots are listed in
ABI order (PJRTX_Api starts with 40 bytes of header).
"""
import ctypes as C

# Slots of PJRTX_Api in order (0.1, 0.2, 0.3).
SLOTS = """Error_Destroy Error_Message Error_GetCode Plugin_Initialize
Plugin_Attributes Plugin_OptionSchema Event_Destroy Event_IsReady Event_Error
Event_Await Event_OnReady Event_Create Event_Set Client_Create Client_Destroy
Client_Platform Client_ProcessIndex Client_Attributes Client_Devices
Client_AddressableDevices Client_LookupDevice Client_AddressableMemories
Client_TopologyDescription Client_BufferFromHostBuffer Device_GetDescription
Device_IsAddressable Device_LocalHardwareId Device_AddressableMemories
Device_DefaultMemory Device_MemoryStats Device_TransferCounters
DeviceDescription_Id DeviceDescription_ProcessIndex DeviceDescription_Kind
DeviceDescription_Attributes DeviceDescription_ToString
DeviceDescription_DebugString Memory_Id Memory_Kind Memory_ToString
Memory_AddressableByDevices TopologyDescription_PlatformName
TopologyDescription_GetDeviceDescriptions TopologyDescription_Attributes
Buffer_Destroy Buffer_ElementType Buffer_Dimensions Buffer_OnDeviceSizeInBytes
Buffer_Device Buffer_Memory Buffer_Delete Buffer_IsDeleted Buffer_ReadyEvent
Buffer_ToHostBuffer Buffer_CopyToDevice Buffer_CopyToMemory Buffer_ToDLPack
Client_BufferFromDLPack Client_Compile Client_DeserializeAndLoad
LoadedExecutable_Destroy LoadedExecutable_Metadata LoadedExecutable_Execute
LoadedExecutable_Serialize""".split()

_HEADER = [("struct_size", C.c_size_t), ("extension_start", C.c_void_p)]


def _args(name, fields):
    return type(name, (C.Structure,), {"_fields_": _HEADER + fields})


ErrorDestroyArgs = _args("ErrorDestroyArgs", [("error", C.c_void_p)])
ErrorMessageArgs = _args("ErrorMessageArgs", [
    ("error", C.c_void_p), ("message", C.c_char_p), ("message_size", C.c_size_t)])
PluginInitializeArgs = _args("PluginInitializeArgs", [])


class NamedValue(C.Structure):
    _fields_ = _HEADER + [
        ("name", C.c_char_p), ("name_size", C.c_size_t), ("type", C.c_int),
        ("value", C.c_int64), ("value_size", C.c_size_t)]


ClientCreateArgs = _args("ClientCreateArgs", [
    ("create_options", C.POINTER(NamedValue)), ("num_options", C.c_size_t),
    ("kv_get_callback", C.c_void_p), ("kv_get_user_arg", C.c_void_p),
    ("kv_put_callback", C.c_void_p), ("kv_put_user_arg", C.c_void_p),
    ("client", C.c_void_p)])
ClientDestroyArgs = _args("ClientDestroyArgs", [("client", C.c_void_p)])
ClientDevicesArgs = _args("ClientDevicesArgs", [
    ("client", C.c_void_p), ("devices", C.POINTER(C.c_void_p)),
    ("num_devices", C.c_size_t)])
BufferFromHostArgs = _args("BufferFromHostArgs", [
    ("client", C.c_void_p), ("data", C.c_void_p), ("type", C.c_int),
    ("dims", C.POINTER(C.c_int64)), ("num_dims", C.c_size_t),
    ("byte_strides", C.POINTER(C.c_int64)), ("num_byte_strides", C.c_size_t),
    ("host_buffer_semantics", C.c_int), ("device", C.c_void_p),
    ("memory", C.c_void_p), ("wait_events", C.c_void_p),
    ("num_wait_events", C.c_size_t), ("done_with_host_buffer", C.c_void_p),
    ("buffer", C.c_void_p)])
EventArgs = _args("EventArgs", [("event", C.c_void_p)])
BufferArgs = _args("BufferArgs", [("buffer", C.c_void_p)])
ToHostArgs = _args("ToHostArgs", [
    ("src", C.c_void_p), ("dst", C.c_void_p), ("dst_size", C.c_size_t),
    ("wait_events", C.c_void_p), ("num_wait_events", C.c_size_t),
    ("event", C.c_void_p)])
ToDLPackArgs = _args("ToDLPackArgs", [
    ("buffer", C.c_void_p), ("consumer_stream", C.c_ssize_t),
    ("dl_managed_tensor", C.c_void_p), ("ready_event", C.c_void_p)])
FromDLPackArgs = _args("FromDLPackArgs", [
    ("client", C.c_void_p), ("dl_managed_tensor", C.c_void_p),
    ("device", C.c_void_p), ("buffer", C.c_void_p)])
COUNTERS = ["host_to_device_bytes", "host_to_device_ops", "device_to_host_bytes",
            "device_to_host_ops", "device_to_device_bytes", "device_to_device_ops",
            "staging_bytes", "staging_ops", "dcn_sent_bytes", "dcn_sent_ops",
            "dcn_received_bytes", "dcn_received_ops"]
TransferCountersArgs = _args(
    "TransferCountersArgs", [("device", C.c_void_p)] + [(n, C.c_int64) for n in COUNTERS])

F32 = 11
SEMANTICS_IMMUTABLE_UNTIL_TRANSFER_COMPLETES = 1
NAMED_VALUE_STRING = 0


class DLPackError(RuntimeError):
    pass


class Api:
    """A loaded plugin: call(slot, args) with error checking."""

    def __init__(self, path):
        self.lib = C.CDLL(path, mode=C.RTLD_LOCAL)
        self.lib.GetPjrtxApi.restype = C.c_void_p
        self.table = self.lib.GetPjrtxApi()
        size = C.c_size_t.from_address(self.table).value
        self.minor = C.c_int.from_address(self.table + 36).value
        self.slots = {}
        for i, name in enumerate(SLOTS):
            offset = 40 + 8 * i
            if offset + 8 > size:
                break
            address = C.c_void_p.from_address(self.table + offset).value
            self.slots[name] = address
        self.call("Plugin_Initialize", PluginInitializeArgs())

    def _fn(self, name, args_type):
        proto = C.CFUNCTYPE(C.c_void_p, C.POINTER(args_type))
        return proto(self.slots[name])

    def call(self, name, args):
        args.struct_size = C.sizeof(args)
        error = self._fn(name, type(args))(C.byref(args))
        if error:
            message = ErrorMessageArgs(error=error)
            message.struct_size = C.sizeof(message)
            C.CFUNCTYPE(None, C.POINTER(ErrorMessageArgs))(
                self.slots["Error_Message"])(C.byref(message))
            text = message.message[:message.message_size].decode()
            destroy = ErrorDestroyArgs(error=error)
            destroy.struct_size = C.sizeof(destroy)
            C.CFUNCTYPE(None, C.POINTER(ErrorDestroyArgs))(
                self.slots["Error_Destroy"])(C.byref(destroy))
            raise RuntimeError(f"{name}: {text}")
        return args
