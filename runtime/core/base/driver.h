// The C++ interface a device plugin implements. The core turns it into the
// whole C ABI: queues, events, buffers, accounting, handle checks.
#ifndef PJRTX_RUNTIME_CORE_BASE_DRIVER_H_
#define PJRTX_RUNTIME_CORE_BASE_DRIVER_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "pjrtx/pjrtx_c_api.h"
#include "runtime/core/base/device_queue.h"
#include "runtime/core/base/launch_rendezvous.h"
#include "runtime/core/base/transfer_counters.h"
#include "runtime/core/base/value.h"

namespace pjrtx {

// An address in a driver's memory. Opaque to the core, which never
// dereferences it: only the driver knows what it means.
struct DeviceAddress {
  uintptr_t value = 0;
};

// The numeric code of a memory kind (PJRTX_Memory_Kind_Args::kind_code):
// the standard kinds have these; a plugin-specific kind takes
// kFirstPluginSpecific or more.
enum class MemoryKindCode : int {
  kDevice = 0,
  kPinnedHost = 1,
  kUnpinnedHost = 2,
  kFirstPluginSpecific = 100,
};

// Where DLPack consumers find a memory's addresses: the DLDeviceType values
// of dlpack.h this runtime exchanges through (kNone: not exchangeable).
enum class DlpackDeviceType : int {
  kNone = 0,
  kCpu = 1,       // kDLCPU
  kCuda = 2,      // kDLCUDA
  kCudaHost = 3,  // kDLCUDAHost (pinned host memory)
};

// A memory a driver exposes (PJRTX_Memory).
struct MemorySpec {
  std::string kind;  // "device", "pinned_host", "unpinned_host", ...
  MemoryKindCode kind_code = MemoryKindCode::kDevice;
  // Indices (into TopologySpec::devices) of the devices that address it.
  std::vector<int> devices;
  // Accounting limit in bytes; allocations past it are RESOURCE_EXHAUSTED.
  // 0 means no limit.
  int64_t bytes_limit = 0;
  // True when addresses in this memory are plain host pointers, so the core
  // may alias a zero-copy host buffer instead of copying it.
  bool host_addressable = false;
  // The DLDeviceType under which addresses of this memory are valid DLPack
  // data pointers, and the DLDevice id; kNone when the memory cannot be
  // exchanged through DLPack.
  DlpackDeviceType dlpack_device_type = DlpackDeviceType::kNone;
  int dlpack_device_id = 0;
};

// A device (PJRTX_Device) as the driver describes it.
struct DeviceSpec {
  int64_t global_id = 0;  // Unique across the processes of the job.
  int process_index = 0;
  std::string kind;       // e.g. "TPU v5 lite (emulated)".
  std::string to_string;  // Short, e.g. "TpuEmuDevice(id=3)".
  std::string debug_string;
  std::vector<Attribute> attributes;
  bool addressable = true;
  // Indices into TopologySpec::memories; the first is the default memory.
  // Empty for a device of another process.
  std::vector<int> memories;
};

struct TopologySpec {
  std::string platform_version;
  int process_index = 0;
  std::vector<DeviceSpec> devices;   // All devices of the job.
  std::vector<MemorySpec> memories;  // Memories of this process.
  std::vector<Attribute> attributes;
};

// The type and dimensions of a program input or output.
struct ArraySignature {
  PJRTX_Buffer_Type type = PJRTX_Buffer_Type_F32;
  std::vector<int64_t> dims;
};

// Where one run of a program with collectives sits in its launch.
struct LaunchContext {
  int64_t launch_id = 0;
  // Runs with this launch id on this device before this one.
  int64_t ordinal = 0;
  // The launch's processes as global device ids, row-major over
  // (replica, partition); this run is process `process_index`.
  std::shared_ptr<const std::vector<int64_t>> process_devices;
  // Per process: whether its device belongs to another process.
  std::shared_ptr<const std::vector<bool>> process_is_remote;
  int64_t process_index = 0;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  LaunchRendezvous* rendezvous = nullptr;
};

struct RunContext {
  int device = 0;  // Addressable device (index into the topology).
  int64_t global_id = 0;
  // Null unless the program has collectives (CompiledProgram).
  const LaunchContext* launch = nullptr;
  // The device's transfer counters, for data a run itself moves between
  // the device and the host (the CUDA plugin reads back the predicates of
  // data-dependent control flow and counts them as device-to-host
  // transfers). Null when nothing counts them; valid during Run.
  TransferCounters* counters = nullptr;
};

// A program compiled for a driver's devices. Run is called from a device
// queue, once the arguments are defined; it may run concurrently on
// different devices.
class DeviceProgram {
 public:
  virtual ~DeviceProgram() = default;
  // Reads `arguments` and writes `outputs` (allocated by the core with the
  // sizes of the output signatures) on addressable device
  // `context.device`.
  virtual absl::Status Run(const RunContext& context,
                           absl::Span<const DeviceAddress> arguments,
                           absl::Span<const DeviceAddress> outputs) = 0;
};

struct ProgramOptions {
  std::string entry;               // Function to run; empty: the default.
  bool checks_as_outputs = false;  // Test-corpus check ops become outputs.
  bool fusion = true;              // Fuse elementwise chains.
  // Overrides of the program's own process counts; 0 keeps them.
  int64_t num_replicas = 0;
  int64_t num_partitions = 0;
};

inline constexpr int64_t kInputNotDonatable = -1;

struct CompiledProgram {
  std::string name;
  std::vector<ArraySignature> inputs;
  std::vector<ArraySignature> outputs;
  // Per input: the index of the output its memory becomes when a run is
  // handed it, or kInputNotDonatable. Empty: no input is donatable.
  std::vector<int64_t> input_output_aliases;
  std::unique_ptr<DeviceProgram> program;
  // The program computes correctly when an output's memory is an input's
  // (a donated input reused): only then does the core hand a run donated
  // memory as an output; otherwise donation deletes the input and its
  // memory is freed once the run is done.
  bool outputs_may_alias_inputs = false;
  // Small enough (no loops, a few thousand elements of work) that running
  // it costs less than handing it to a worker thread: the core runs it on
  // the calling thread when its device has nothing else to do.
  bool quick_to_run = false;
  // Programs with collectives run as one process of a launch of
  // num_replicas x num_partitions processes.
  bool has_collectives = false;
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
};

// Synchronous device primitives. The core calls them from its device queues
// (one task at a time per device, possibly concurrently across devices), and
// CopyFromHost also from a framework thread into a fresh allocation no
// queued task can see yet; so implementations must be thread-safe. Memory
// indices refer to TopologySpec::memories.
class Driver {
 public:
  virtual ~Driver() = default;

  // Called once, right after creation.
  virtual TopologySpec Describe() = 0;

  // Allocates `size` (> 0) bytes. The core does the limit accounting.
  virtual absl::StatusOr<DeviceAddress> Allocate(int memory, size_t size) = 0;
  virtual void Free(int memory, DeviceAddress address, size_t size) = 0;

  // Copies host memory into `memory` and back.
  virtual absl::Status CopyFromHost(int memory, DeviceAddress dst,
                                    const void* src, size_t size) = 0;
  virtual absl::Status CopyToHost(int memory, void* dst, DeviceAddress src,
                                  size_t size) = 0;
  // Copies between two memories (possibly of different devices).
  virtual absl::Status CopyBetween(int dst_memory, DeviceAddress dst,
                                   int src_memory, DeviceAddress src,
                                   size_t size) = 0;

  // Optional: makes `size` (> 0) bytes of caller memory at `host` usable in
  // place as memory `memory` (host_addressable), for a zero-copy buffer;
  // e.g. by page-locking it for a device's DMA. An error makes the core
  // copy the data instead. Default: OK (host memory serves as it is).
  virtual absl::Status AdoptHostMemory(int memory, void* host, size_t size) {
    (void)memory;
    (void)host;
    (void)size;
    return absl::OkStatus();
  }
  // Undoes AdoptHostMemory once nothing uses the memory any more.
  virtual void ReleaseHostMemory(int memory, void* host, size_t size) {
    (void)memory;
    (void)host;
    (void)size;
  }

  // Optional: compiles `code` in `format` (e.g. "mlir"). Errors keep the
  // compiler's "line:column" positions. Default: UNIMPLEMENTED.
  virtual absl::StatusOr<CompiledProgram> Compile(
      std::string_view format, std::string_view code,
      const ProgramOptions& options);

  // Optional: threads for the core's host queues (0: one per hardware
  // thread; 1 makes all devices run cooperatively on one thread).
  virtual int NumWorkerThreads() const { return 0; }

  // Optional: a native in-order queue for addressable device `device`
  // (index into TopologySpec::devices). nullptr makes the core use a
  // HostQueue on its thread pool.
  virtual std::unique_ptr<DeviceQueue> CreateNativeQueue(int device) {
    (void)device;
    return nullptr;
  }
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_DRIVER_H_
