// A compiled program bound to devices, and its asynchronous execution.
#ifndef PJRTX_RUNTIME_CORE_BASE_EXECUTABLE_H_
#define PJRTX_RUNTIME_CORE_BASE_EXECUTABLE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "runtime/core/base/buffer.h"
#include "runtime/core/base/client_state.h"
#include "runtime/core/base/driver.h"
#include "runtime/core/base/event.h"

namespace pjrtx {

// Per-run bookkeeping stored inline: a run over a few devices, arguments
// and outputs allocates nothing for it.
template <typename T>
using SmallVector = absl::InlinedVector<T, 8>;

struct ExecutableOptions {
  ProgramOptions program;
  // Global device ids to run on; empty: every addressable device.
  std::vector<int64_t> device_assignment;
};

// Thread-safe. Executions hold references to what they use, so the
// executable may be destroyed while they are in flight.
class Executable {
 public:
  static absl::StatusOr<std::unique_ptr<Executable>> Compile(
      std::shared_ptr<ClientState> client, std::string_view format,
      std::string_view code, const ExecutableOptions& options);

  // Loads what Serialize wrote; INVALID_ARGUMENT naming what is wrong with
  // foreign, truncated or corrupt bytes.
  static absl::StatusOr<std::unique_ptr<Executable>> Deserialize(
      std::shared_ptr<ClientState> client, std::string_view bytes);
  std::string Serialize() const;

  struct Run {
    SmallVector<std::unique_ptr<Buffer>> outputs;
    EventRef done;
  };
  using Runs = absl::InlinedVector<Run, 1>;
  // One run per device of `devices` (indices into the topology), each with
  // its `arguments[d]`. Never blocks. `donate[i]` (if given) hands argument
  // i's memory to the run (the buffers become deleted); the output the
  // program aliases it to, else one of the same signature, reuses it.
  absl::StatusOr<Runs> Execute(
      absl::Span<const int> devices,
      absl::Span<const absl::Span<Buffer* const>> arguments,
      absl::Span<const bool> donate, absl::Span<const EventRef> wait_for,
      int64_t launch_id);

  const std::string& name() const { return compiled_->name; }
  const std::vector<ArraySignature>& inputs() const {
    return compiled_->inputs;
  }
  const std::vector<ArraySignature>& outputs() const {
    return compiled_->outputs;
  }
  // See CompiledProgram::input_output_aliases.
  const std::vector<int64_t>& input_output_aliases() const {
    return compiled_->input_output_aliases;
  }
  // Devices (indices into the topology) the executable runs on.
  const std::vector<int>& devices() const { return devices_; }

 private:
  Executable() = default;
  absl::Status LayOutProcesses(const ClientState& client,
                               const ExecutableOptions& options,
                               const CompiledProgram& compiled);
  LaunchContext MakeLaunchContext(int64_t global_id, int64_t launch_id) const;
  // Memory for one run's outputs in `memory`: donated inputs' memory where
  // the signature allows (see Execute), fresh allocations otherwise.
  absl::StatusOr<SmallVector<std::shared_ptr<DeviceAllocation>>>
  OutputAllocations(
      int memory, absl::Span<const bool> donated,
      absl::Span<const std::shared_ptr<DeviceAllocation>> held_inputs) const;

  std::shared_ptr<ClientState> client_;
  // Shared with the runs in flight.
  std::shared_ptr<CompiledProgram> compiled_;
  std::vector<int> devices_;
  // Programs with collectives: the launch's processes as global device
  // ids (row-major replica x partition), whether each is in another
  // process, and the counts.
  std::shared_ptr<const std::vector<int64_t>> process_devices_;
  std::shared_ptr<const std::vector<bool>> process_is_remote_;
  int64_t num_replicas_ = 1;
  int64_t num_partitions_ = 1;
  std::string format_;
  std::string code_;
  ExecutableOptions options_;
};

}  // namespace pjrtx

#endif  // PJRTX_RUNTIME_CORE_BASE_EXECUTABLE_H_
