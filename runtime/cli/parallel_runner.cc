#include "runtime/cli/parallel_runner.h"

#include <map>
#include <memory>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "runtime/client/buffer.h"
#include "runtime/client/event_future.h"
#include "runtime/client/executable.h"
#include "runtime/client/status_from_error.h"
#include "support/status_macros.h"

namespace pjrtx::cli {

absl::StatusOr<std::string> RunParallelCase(
    const client::Client& client, const std::string& text,
    const ParallelCase& parallel, int64_t launch_id,
    std::chrono::steady_clock::duration deadline, bool* timed_out) {
  const PJRTX_Api* api = client.api();
  const int64_t processes = parallel.num_replicas * parallel.num_partitions;
  std::vector<client::Device> devices = client.addressable_devices();
  if (static_cast<int64_t>(devices.size()) < processes) {
    return absl::UnimplementedError(absl::StrCat(
        "the launch has ", processes, " processes; the client has ",
        devices.size(), " addressable devices"));
  }
  devices.erase(devices.begin() + processes, devices.end());
  std::vector<int64_t> assignment;
  for (const client::Device& d : devices) assignment.push_back(d.id());

  // One executable per distinct program, over the whole launch.
  std::map<std::string, client::Executable> executables;
  for (const std::string& program : parallel.programs) {
    if (executables.count(program)) continue;
    PJRTX_ASSIGN_OR_RETURN(client::Executable executable,
                           client::Executable::Compile(
                               client, text,
                               {{"entry", program},
                                {"num_replicas", parallel.num_replicas},
                                {"num_partitions", parallel.num_partitions},
                                {"device_assignment", assignment}}));
    executables.emplace(program, std::move(executable));
  }

  // Every process's run, started before any is awaited: they meet.
  std::vector<client::Buffer> owned;
  std::vector<std::vector<PJRTX_Buffer*>> outputs(processes);
  std::vector<client::EventFuture> done;
  for (int64_t p = 0; p < processes; ++p) {
    const client::Executable& executable = executables.at(parallel.programs[p]);
    PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Metadata_Args, metadata);
    metadata.executable = executable.handle();
    if (absl::Status status =
            client::TakeStatus(api, api->LoadedExecutable_Metadata(&metadata));
        !status.ok()) {
      return status;
    }
    const std::vector<ParallelInput>& inputs = parallel.arguments[p];
    if (metadata.num_inputs != inputs.size()) {
      return absl::InternalError(absl::StrCat(
          "@", parallel.programs[p], " takes ", metadata.num_inputs,
          " arguments, the case gives ", inputs.size()));
    }
    std::vector<PJRTX_Buffer*> arguments;
    for (size_t i = 0; i < inputs.size(); ++i) {
      PJRTX_ASSIGN_OR_RETURN(
          client::Buffer buffer,
          client.BufferFromHost(inputs[i].bytes.data(), metadata.input_types[i],
                                inputs[i].shape.dims, devices[p]));
      arguments.push_back(buffer.handle());
      owned.push_back(std::move(buffer));
    }
    outputs[p].resize(metadata.num_outputs);
    PJRTX_Buffer* const* argument_list = arguments.data();
    PJRTX_Buffer** output_list = outputs[p].data();
    PJRTX_Device* device = devices[p].handle();
    PJRTX_Event* event = nullptr;
    PJRTX_CLIENT_ARGS(PJRTX_LoadedExecutable_Execute_Args, execute);
    execute.executable = executable.handle();
    execute.devices = &device;
    execute.num_devices = 1;
    execute.argument_lists = &argument_list;
    execute.num_args = arguments.size();
    execute.launch_id = launch_id;
    execute.output_lists = &output_list;
    execute.device_complete_events = &event;
    if (absl::Status status =
            client::TakeStatus(api, api->LoadedExecutable_Execute(&execute));
        !status.ok()) {
      return status;
    }
    done.emplace_back(api, event);
  }
  std::vector<client::Buffer> results;
  for (auto& list : outputs) {
    for (PJRTX_Buffer* b : list) results.emplace_back(api, b);
  }
  const auto start = std::chrono::steady_clock::now();
  for (const client::EventFuture& event : done) {
    while (!event.IsReady()) {
      if (std::chrono::steady_clock::now() - start > deadline) {
        *timed_out = true;
        return absl::DeadlineExceededError("the launch did not finish in time");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  for (const client::EventFuture& event : done) {
    PJRTX_RETURN_IF_ERROR(event.Await());
  }
  for (size_t c = 0; c < parallel.checks.size(); ++c) {
    std::vector<std::vector<uint8_t>> values;
    for (int index : parallel.checked_results[c]) {
      PJRTX_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes,
                             results[index].ToHostSync());
      values.push_back(std::move(bytes));
    }
    std::string mismatch = Compare(parallel.checks[c], values);
    if (!mismatch.empty()) return mismatch;
  }
  return std::string();
}

}  // namespace pjrtx::cli
