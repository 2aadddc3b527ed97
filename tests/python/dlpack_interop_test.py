"""Zero-copy exchange between tpu_emu buffers and NumPy / PyTorch.

Loads libpjrt_tpuemu.so with ctypes, exports a device buffer through
PJRTX_Buffer_ToDLPack and reads it with np.from_dlpack and
torch.utils.dlpack.from_dlpack; imports a torch tensor through
PJRTX_Client_BufferFromDLPack. Each direction must move zero bytes: the
transfer counters are unchanged and the consumers see the same address.

  python3 dlpack_interop_test.py PATH/TO/libpjrt_tpuemu.so
"""
import ctypes as C
import sys
import unittest

import pjrtx_ctypes as P

try:
    import numpy as np
    import torch
    import torch.utils.dlpack
except ImportError as e:  # The test command installs both; say so if not.
    print(f"SKIP: {e} (install python3-numpy python3-torch)")
    sys.exit(77)

PLUGIN = sys.argv.pop(1)

C.pythonapi.PyCapsule_New.restype = C.py_object
C.pythonapi.PyCapsule_New.argtypes = [C.c_void_p, C.c_char_p, C.c_void_p]
C.pythonapi.PyCapsule_GetPointer.restype = C.c_void_p
C.pythonapi.PyCapsule_GetPointer.argtypes = [C.py_object, C.c_char_p]
C.pythonapi.PyCapsule_SetName.argtypes = [C.py_object, C.c_char_p]


class Exported:
    """Implements the DLPack Python protocol over an exported tensor."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack__(self, stream=None):
        return C.pythonapi.PyCapsule_New(self.tensor, b"dltensor", None)

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU


class DLPackInteropTest(unittest.TestCase):

    def setUp(self):
        self.api = P.Api(PLUGIN)
        self.assertGreaterEqual(self.api.minor, 2)
        options = (P.NamedValue * 1)()
        name, value = b"topology", b"v5e:2x2"
        options[0] = P.NamedValue(name=name, name_size=len(name),
                                  type=P.NAMED_VALUE_STRING, value_size=len(value))
        options[0].struct_size = C.sizeof(P.NamedValue)
        self.keep = C.create_string_buffer(value)
        options[0].value = C.cast(self.keep, C.c_void_p).value
        args = self.api.call("Client_Create", P.ClientCreateArgs(
            create_options=options, num_options=1))
        self.client = args.client
        devices = self.api.call("Client_AddressableDevices",
                                P.ClientDevicesArgs(client=self.client))
        self.devices = [devices.devices[i] for i in range(devices.num_devices)]

    def tearDown(self):
        self.api.call("Client_Destroy", P.ClientDestroyArgs(client=self.client))

    def bytes_moved(self):
        total = 0
        for device in self.devices:
            c = self.api.call("Device_TransferCounters",
                              P.TransferCountersArgs(device=device))
            total += (c.host_to_device_bytes + c.device_to_host_bytes +
                      c.device_to_device_bytes + c.staging_bytes)
        return total

    def await_and_destroy(self, event):
        self.api.call("Event_Await", P.EventArgs(event=event))
        self.api.call("Event_Destroy", P.EventArgs(event=event))

    def make_buffer(self, values):
        host = np.ascontiguousarray(values, dtype=np.float32)
        dims = (C.c_int64 * host.ndim)(*host.shape)
        args = self.api.call("Client_BufferFromHostBuffer", P.BufferFromHostArgs(
            client=self.client, data=host.ctypes.data, type=P.F32, dims=dims,
            num_dims=host.ndim,
            host_buffer_semantics=P.SEMANTICS_IMMUTABLE_UNTIL_TRANSFER_COMPLETES,
            device=self.devices[1]))
        self.await_and_destroy(args.done_with_host_buffer)
        return args.buffer

    def export(self, buffer):
        args = self.api.call("Buffer_ToDLPack", P.ToDLPackArgs(buffer=buffer))
        self.await_and_destroy(args.ready_event)
        return args.dl_managed_tensor

    def read_back(self, buffer, n):
        out = np.zeros(n, dtype=np.float32)
        args = self.api.call("Buffer_ToHostBuffer", P.ToHostArgs(
            src=buffer, dst=out.ctypes.data, dst_size=out.nbytes))
        self.await_and_destroy(args.event)
        return out

    def test_numpy_reads_device_buffer_without_copy(self):
        expected = np.arange(24, dtype=np.float32).reshape(4, 6) * 0.5
        buffer = self.make_buffer(expected)
        moved = self.bytes_moved()
        tensor = self.export(buffer)
        data_pointer = C.c_void_p.from_address(tensor).value  # dl_tensor.data
        array = np.from_dlpack(Exported(tensor))
        self.assertEqual(array.__array_interface__["data"][0], data_pointer)
        self.assertEqual(array.shape, (4, 6))
        self.assertEqual(array.dtype, np.float32)
        np.testing.assert_array_equal(array, expected)
        self.assertEqual(self.bytes_moved() - moved, 0)
        # The array keeps the memory alive after the buffer is gone.
        self.api.call("Buffer_Destroy", P.BufferArgs(buffer=buffer))
        self.assertEqual(float(array[3, 5]), 11.5)
        del array

    def test_torch_reads_device_buffer_without_copy(self):
        expected = np.linspace(-1, 1, 100, dtype=np.float32)
        buffer = self.make_buffer(expected)
        moved = self.bytes_moved()
        tensor = self.export(buffer)
        data_pointer = C.c_void_p.from_address(tensor).value
        capsule = C.pythonapi.PyCapsule_New(tensor, b"dltensor", None)
        t = torch.utils.dlpack.from_dlpack(capsule)
        self.assertEqual(t.data_ptr(), data_pointer)
        self.assertTrue(torch.equal(t, torch.from_numpy(expected)))
        self.assertEqual(self.bytes_moved() - moved, 0)
        # The tensor is the device memory: a write through it is what the
        # device holds (read back through the runtime).
        t[0] = 42.0
        self.assertEqual(self.read_back(buffer, 100)[0], 42.0)
        self.api.call("Buffer_Destroy", P.BufferArgs(buffer=buffer))
        self.assertAlmostEqual(float(t[-1]), 1.0)
        del t

    def test_torch_tensor_imports_without_copy(self):
        source = torch.arange(50, dtype=torch.float32) * 2
        capsule = torch.utils.dlpack.to_dlpack(source)
        managed = C.pythonapi.PyCapsule_GetPointer(capsule, b"dltensor")
        moved = self.bytes_moved()
        args = self.api.call("Client_BufferFromDLPack", P.FromDLPackArgs(
            client=self.client, dl_managed_tensor=managed, device=self.devices[0]))
        # The runtime owns the tensor now; the capsule must not free it.
        C.pythonapi.PyCapsule_SetName(capsule, b"used_dltensor")
        self.assertEqual(self.bytes_moved() - moved, 0)
        # Re-exporting the imported buffer gives torch's own memory back.
        tensor = self.export(args.buffer)
        self.assertEqual(C.c_void_p.from_address(tensor).value, source.data_ptr())
        C.CFUNCTYPE(None, C.c_void_p)(C.c_void_p.from_address(tensor + 56).value)(tensor)
        np.testing.assert_array_equal(self.read_back(args.buffer, 50), source.numpy())
        self.api.call("Buffer_Destroy", P.BufferArgs(buffer=args.buffer))


if __name__ == "__main__":
    unittest.main(verbosity=2)
