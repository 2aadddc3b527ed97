#include "runtime/core/base/client_state.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "runtime/core/base/host_queue.h"
#include "runtime/core/base/trace_recorder.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

// Long enough for a peer busy with a large program, short enough that a
// launch missing a participant fails rather than hangs.
constexpr std::chrono::milliseconds kLaunchRendezvousTimeout{60000};

absl::Status CheckTopology(const TopologySpec& topology) {
  const int num_devices = static_cast<int>(topology.devices.size());
  const int num_memories = static_cast<int>(topology.memories.size());
  std::set<int64_t> ids;
  for (int d = 0; d < num_devices; ++d) {
    const DeviceSpec& device = topology.devices[d];
    if (!ids.insert(device.global_id).second) {
      return absl::InternalError(absl::StrCat(
          "Plugin bug: device global id ", device.global_id, " is repeated"));
    }
    if (device.addressable && device.memories.empty()) {
      return absl::InternalError(absl::StrCat("Plugin bug: addressable device ",
                                              device.global_id,
                                              " has no memory"));
    }
    for (int m : device.memories) {
      if (m < 0 || m >= num_memories) {
        return absl::InternalError(
            absl::StrCat("Plugin bug: device ", device.global_id,
                         " names memory ", m, " of ", num_memories));
      }
    }
  }
  for (int m = 0; m < num_memories; ++m) {
    for (int d : topology.memories[m].devices) {
      if (d < 0 || d >= num_devices || !topology.devices[d].addressable) {
        return absl::InternalError(
            absl::StrCat("Plugin bug: memory ", m, " names device index ", d,
                         " which is not an addressable device"));
      }
    }
  }
  return absl::OkStatus();
}

bool IsDeviceKind(const MemorySpec& memory) {
  return memory.kind_code == MemoryKindCode::kDevice;
}

}  // namespace

absl::StatusOr<std::shared_ptr<ClientState>> ClientState::Create(
    std::unique_ptr<Driver> driver,
    std::shared_ptr<KeyValueStore> key_value_store) {
  std::shared_ptr<ClientState> state(new ClientState());
  state->key_value_store_ = std::move(key_value_store);
  state->launch_rendezvous_ = std::make_unique<LaunchRendezvous>(
      state->key_value_store_.get(), kLaunchRendezvousTimeout);
  state->driver_ = std::move(driver);
  state->topology_ = state->driver_->Describe();
  PJRTX_RETURN_IF_ERROR(CheckTopology(state->topology_));
  if (TraceRecorder* trace = TraceRecorder::Get(); trace != nullptr) {
    // One track group per process, so the traces of a job's processes can
    // be loaded together.
    trace->set_process_index(state->topology_.process_index);
  }
  for (size_t m = 0; m < state->topology_.memories.size(); ++m) {
    state->memories_.push_back(std::make_shared<MemorySpace>(
        state->driver_, static_cast<int>(m), state->topology_.memories[m]));
  }
  state->pool_ =
      std::make_unique<ThreadPool>(state->driver_->NumWorkerThreads());
  for (int d = 0; d < state->num_devices(); ++d) {
    std::unique_ptr<DeviceQueue> queue;
    if (state->topology_.devices[d].addressable) {
      queue = state->driver_->CreateNativeQueue(d);
      if (queue == nullptr)
        queue = std::make_unique<HostQueue>(state->pool_.get());
    }
    state->queues_.push_back(std::move(queue));
    state->counters_.push_back(std::make_unique<TransferCounters>());
  }
  return state;
}

ClientState::~ClientState() {
  for (auto& queue : queues_) {
    if (queue != nullptr) queue->WaitIdle();
  }
  queues_.clear();
  pool_.reset();
  // Every program has finished, so the trace is complete for this client.
  // A destructor cannot fail, and losing the trace must not stop the
  // framework: warn only.
  if (TraceRecorder* trace = TraceRecorder::Get(); trace != nullptr) {
    absl::Status flushed = trace->Flush();
    if (!flushed.ok()) {
      std::fprintf(stderr, "pjrtx: warning: trace not written: %s\n",
                   flushed.ToString().c_str());
    }
  }
}

bool ClientState::DeviceAddressesMemory(int device, int memory) const {
  const std::vector<int>& memories = topology_.devices[device].memories;
  return std::find(memories.begin(), memories.end(), memory) != memories.end();
}

void ClientState::CountCopy(int src_memory, int src_device, int dst_memory,
                            int dst_device, size_t bytes) {
  const int64_t n = static_cast<int64_t>(bytes);
  const bool src_on_device =
      src_memory >= 0 && IsDeviceKind(topology_.memories[src_memory]);
  const bool dst_on_device =
      dst_memory >= 0 && IsDeviceKind(topology_.memories[dst_memory]);
  if (src_on_device && dst_on_device) {
    counters_[dst_device]->device_to_device.Add(n);
  } else if (dst_on_device) {
    counters_[dst_device]->host_to_device.Add(n);
  } else if (src_on_device) {
    counters_[src_device]->device_to_host.Add(n);
  }
}

}  // namespace pjrtx
