// Everything a client's operations share: the driver, one queue per
// addressable device, the memories, the transfer counters.
#ifndef PJRTX_RUNTIME_CORE_BASE_CLIENT_STATE_H_
#define PJRTX_RUNTIME_CORE_BASE_CLIENT_STATE_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/core/base/device_queue.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/key_value_store.h"
#include "runtime/core/base/launch_rendezvous.h"
#include "runtime/core/base/memory_space.h"
#include "runtime/core/base/thread_pool.h"
#include "runtime/core/base/transfer_counters.h"

namespace pjrtx {

// Shared by the client handle and every buffer it made, so buffers stay
// usable for deletion after the client handle is gone. Thread-safe.
class ClientState {
 public:
  // Describes the driver's topology, checks it (a malformed description is
  // INTERNAL naming the problem: it is a plugin bug) and starts the queues.
  // `key_value_store` (may be null) is kept alive as long as the driver.
  static absl::StatusOr<std::shared_ptr<ClientState>> Create(
      std::unique_ptr<Driver> driver,
      std::shared_ptr<KeyValueStore> key_value_store);

  // Waits for the work in flight, then stops the queues.
  ~ClientState();

  const TopologySpec& topology() const { return topology_; }
  Driver& driver() const { return *driver_; }
  // Null when the client was created without one.
  const std::shared_ptr<KeyValueStore>& key_value_store() const {
    return key_value_store_;
  }
  int num_devices() const { return static_cast<int>(topology_.devices.size()); }
  const DeviceSpec& device(int index) const { return topology_.devices[index]; }
  int default_memory(int device) const {
    return topology_.devices[device].memories.front();
  }
  bool DeviceAddressesMemory(int device, int memory) const;

  // Requires an addressable device.
  DeviceQueue& queue(int device) { return *queues_[device]; }
  TransferCounters& counters(int device) { return *counters_[device]; }
  MemorySpace& memory(int index) { return *memories_[index]; }
  int num_memories() const { return static_cast<int>(memories_.size()); }

  // Where the runs of a launch meet for the collectives in programs.
  LaunchRendezvous& launch_rendezvous() { return *launch_rendezvous_; }

  // Counts a completed copy of `bytes` between two memories (or the host,
  // memory -1) in the transfer counters of the device it touches.
  void CountCopy(int src_memory, int src_device, int dst_memory, int dst_device,
                 size_t bytes);

 private:
  ClientState() = default;

  // Declared before the driver so that it is destroyed after it.
  std::shared_ptr<KeyValueStore> key_value_store_;
  std::shared_ptr<Driver> driver_;
  std::unique_ptr<LaunchRendezvous> launch_rendezvous_;
  TopologySpec topology_;
  std::vector<std::shared_ptr<MemorySpace>> memories_;
  std::unique_ptr<ThreadPool> pool_;
  // Indexed by device; null for devices of other processes.
  std::vector<std::unique_ptr<DeviceQueue>> queues_;
  std::vector<std::unique_ptr<TransferCounters>> counters_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_CLIENT_STATE_H_
