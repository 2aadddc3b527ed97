#include "runtime/core/base/executable.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "flatbuffers/flatbuffers.h"
#include "runtime/core/base/element_type.h"
#include "runtime/core/base/executable_file_generated.h"
#include "runtime/core/base/trace_recorder.h"
#include "support/status_macros.h"

namespace pjrtx {
namespace {

// Bumped whenever ExecutableFile changes meaning.
constexpr uint32_t kFormatVersion = 1;

absl::StatusOr<std::vector<int>> ResolveDevices(
    const ClientState& client, const std::vector<int64_t>& assignment) {
  std::vector<int> devices;
  if (assignment.empty()) {
    for (int d = 0; d < client.num_devices(); ++d) {
      if (client.device(d).addressable) devices.push_back(d);
    }
    return devices;
  }
  for (int64_t id : assignment) {
    int found = -1;
    for (int d = 0; d < client.num_devices(); ++d) {
      if (client.device(d).global_id == id) found = d;
    }
    if (found < 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "device_assignment names device ", id, ", which does not exist"));
    }
    if (std::count(devices.begin(), devices.end(), found)) {
      return absl::InvalidArgumentError(
          absl::StrCat("device_assignment names device ", id, " twice"));
    }
    // Devices of other processes run their own copy of the program.
    if (client.device(found).addressable) devices.push_back(found);
  }
  return devices;
}

size_t SignatureBytes(const ArraySignature& signature) {
  absl::StatusOr<size_t> element = SupportedElementSize(signature.type);
  size_t n = element.ok() ? *element : 0;
  for (int64_t d : signature.dims) n *= d;
  return n;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Executable>> Executable::Compile(
    std::shared_ptr<ClientState> client, std::string_view format,
    std::string_view code, const ExecutableOptions& options) {
  PJRTX_ASSIGN_OR_RETURN(std::vector<int> devices,
                         ResolveDevices(*client, options.device_assignment));
  PJRTX_ASSIGN_OR_RETURN(
      CompiledProgram compiled,
      client->driver().Compile(format, code, options.program));
  for (const auto* list : {&compiled.inputs, &compiled.outputs}) {
    for (const ArraySignature& signature : *list) {
      PJRTX_RETURN_IF_ERROR(SupportedElementSize(signature.type).status());
    }
  }
  std::unique_ptr<Executable> executable(new Executable());
  if (compiled.has_collectives) {
    PJRTX_RETURN_IF_ERROR(
        executable->LayOutProcesses(*client, options, compiled));
  }
  executable->client_ = std::move(client);
  executable->compiled_ =
      std::make_shared<CompiledProgram>(std::move(compiled));
  executable->devices_ = std::move(devices);
  executable->format_ = std::string(format);
  executable->code_ = std::string(code);
  executable->options_ = options;
  return executable;
}

absl::Status Executable::LayOutProcesses(const ClientState& client,
                                         const ExecutableOptions& options,
                                         const CompiledProgram& compiled) {
  std::vector<int64_t> ids = options.device_assignment;
  if (ids.empty()) {
    for (int d = 0; d < client.num_devices(); ++d) {
      if (client.device(d).addressable)
        ids.push_back(client.device(d).global_id);
    }
  }
  int64_t replicas = compiled.num_replicas,
          partitions = compiled.num_partitions;
  // A program that states no counts runs one replica per device.
  if (replicas * partitions == 1) replicas = static_cast<int64_t>(ids.size());
  if (replicas * partitions != static_cast<int64_t>(ids.size())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", compiled.name, "' runs as ", replicas, " replica(s) x ",
        partitions, " partition(s) = ", replicas * partitions,
        " processes, but its device assignment has ", ids.size(),
        " device(s); give one device per process (option "
        "device_assignment, row-major over replicas then partitions)"));
  }
  auto is_remote = std::make_shared<std::vector<bool>>();
  for (int64_t id : ids) {
    bool remote = true;
    for (int d = 0; d < client.num_devices(); ++d) {
      if (client.device(d).global_id == id)
        remote = !client.device(d).addressable;
    }
    is_remote->push_back(remote);
  }
  process_devices_ =
      std::make_shared<const std::vector<int64_t>>(std::move(ids));
  process_is_remote_ = std::move(is_remote);
  num_replicas_ = replicas;
  num_partitions_ = partitions;
  return absl::OkStatus();
}

std::string Executable::Serialize() const {
  flatbuffers::FlatBufferBuilder builder;
  const std::string& platform = client_->topology().platform_version;
  auto platform_offset = builder.CreateString(platform);
  auto format_offset = builder.CreateString(format_);
  auto code_offset = builder.CreateVector(
      reinterpret_cast<const uint8_t*>(code_.data()), code_.size());
  auto entry_offset = builder.CreateString(options_.program.entry);
  auto assignment_offset = builder.CreateVector(options_.device_assignment);
  fb::ExecutableFileBuilder file_builder(builder);
  file_builder.add_format_version(kFormatVersion);
  file_builder.add_platform(platform_offset);
  file_builder.add_program_format(format_offset);
  file_builder.add_code(code_offset);
  file_builder.add_entry(entry_offset);
  file_builder.add_checks_as_outputs(options_.program.checks_as_outputs);
  file_builder.add_fusion(options_.program.fusion);
  file_builder.add_device_assignment(assignment_offset);
  file_builder.add_num_replicas(options_.program.num_replicas);
  file_builder.add_num_partitions(options_.program.num_partitions);
  builder.Finish(file_builder.Finish(), fb::ExecutableFileIdentifier());
  return std::string(reinterpret_cast<const char*>(builder.GetBufferPointer()),
                     builder.GetSize());
}

absl::StatusOr<std::unique_ptr<Executable>> Executable::Deserialize(
    std::shared_ptr<ClientState> client, std::string_view bytes) {
  const auto* data = reinterpret_cast<const uint8_t*>(bytes.data());
  if (bytes.size() < 8 ||
      !flatbuffers::BufferHasIdentifier(data, fb::ExecutableFileIdentifier())) {
    return absl::InvalidArgumentError(
        absl::StrCat("Not a pjrtx executable: ", bytes.size(),
                     " bytes without the file "
                     "identifier '",
                     fb::ExecutableFileIdentifier(), "'"));
  }
  flatbuffers::Verifier verifier(data, bytes.size());
  if (!fb::VerifyExecutableFileBuffer(verifier)) {
    return absl::InvalidArgumentError(
        absl::StrCat("Serialized executable of ", bytes.size(),
                     " bytes is truncated or corrupt"));
  }
  const fb::ExecutableFile* file = fb::GetExecutableFile(data);
  if (file->format_version() != kFormatVersion) {
    return absl::InvalidArgumentError(absl::StrCat(
        "Serialized executable has format version ", file->format_version(),
        "; this runtime reads version ", kFormatVersion));
  }
  const std::string platform =
      file->platform() != nullptr ? file->platform()->str() : "";
  if (platform != client->topology().platform_version) {
    return absl::InvalidArgumentError(
        absl::StrCat("Serialized executable was made for '", platform,
                     "', not for this client's '",
                     client->topology().platform_version, "'"));
  }
  if (file->code() == nullptr || file->program_format() == nullptr) {
    return absl::InvalidArgumentError("Serialized executable has no program");
  }
  ExecutableOptions options;
  if (file->entry() != nullptr) options.program.entry = file->entry()->str();
  options.program.checks_as_outputs = file->checks_as_outputs();
  options.program.fusion = file->fusion();
  options.program.num_replicas = file->num_replicas();
  options.program.num_partitions = file->num_partitions();
  if (file->device_assignment() != nullptr) {
    options.device_assignment.assign(file->device_assignment()->begin(),
                                     file->device_assignment()->end());
  }
  std::string_view code(reinterpret_cast<const char*>(file->code()->data()),
                        file->code()->size());
  return Compile(std::move(client), file->program_format()->str(), code,
                 options);
}

LaunchContext Executable::MakeLaunchContext(int64_t global_id,
                                            int64_t launch_id) const {
  LaunchContext launch;
  launch.launch_id = launch_id;
  launch.rendezvous = &client_->launch_rendezvous();
  launch.ordinal = launch.rendezvous->NextOrdinal(global_id, launch_id);
  launch.process_devices = process_devices_;
  launch.process_is_remote = process_is_remote_;
  launch.num_replicas = num_replicas_;
  launch.num_partitions = num_partitions_;
  const std::vector<int64_t>& ids = *process_devices_;
  launch.process_index =
      std::find(ids.begin(), ids.end(), global_id) - ids.begin();
  return launch;
}

absl::StatusOr<SmallVector<std::shared_ptr<DeviceAllocation>>>
Executable::OutputAllocations(
    int memory, absl::Span<const bool> donated,
    absl::Span<const std::shared_ptr<DeviceAllocation>> held_inputs) const {
  const std::vector<ArraySignature>& inputs = compiled_->inputs;
  const std::vector<ArraySignature>& outputs = compiled_->outputs;
  const std::vector<int64_t>& aliases = compiled_->input_output_aliases;
  // Memory the runtime does not own (the caller's array, aliased by a
  // zero-copy transfer) is never written: its donation only deletes the
  // buffer.
  auto reusable = [&](size_t i, size_t o) {
    return donated[i] && compiled_->outputs_may_alias_inputs &&
           held_inputs[i] != nullptr && !held_inputs[i]->external() &&
           inputs[i].type == outputs[o].type &&
           inputs[i].dims == outputs[o].dims;
  };
  SmallVector<std::shared_ptr<DeviceAllocation>> allocations(outputs.size());
  SmallVector<bool> reused(inputs.size(), false);
  // The output the program aliases a donated input to takes its memory
  // first, so results land where the program's author said they would.
  for (size_t i = 0; i < inputs.size() && i < aliases.size(); ++i) {
    const int64_t o = aliases[i];
    if (o < 0 || static_cast<size_t>(o) >= outputs.size() ||
        allocations[o] != nullptr || !reusable(i, o)) {
      continue;
    }
    allocations[o] = held_inputs[i];
    reused[i] = true;
  }
  // Other outputs reuse any remaining donated input of their signature.
  for (size_t o = 0; o < outputs.size(); ++o) {
    if (allocations[o] != nullptr) continue;
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!reused[i] && reusable(i, o)) {
        reused[i] = true;
        allocations[o] = held_inputs[i];
        break;
      }
    }
    if (allocations[o] == nullptr) {
      PJRTX_ASSIGN_OR_RETURN(allocations[o], client_->memory(memory).Allocate(
                                                 SignatureBytes(outputs[o])));
    }
  }
  return allocations;
}

absl::StatusOr<Executable::Runs> Executable::Execute(
    absl::Span<const int> devices,
    absl::Span<const absl::Span<Buffer* const>> arguments,
    absl::Span<const bool> donate, absl::Span<const EventRef> wait_for,
    int64_t launch_id) {
  const std::vector<ArraySignature>& inputs = compiled_->inputs;
  const std::vector<ArraySignature>& outputs = compiled_->outputs;
  // Check everything before anything is enqueued, so that an error leaves
  // no run behind.
  for (size_t d = 0; d < devices.size(); ++d) {
    if (std::find(devices_.begin(), devices_.end(), devices[d]) ==
        devices_.end()) {
      return absl::InvalidArgumentError(
          absl::StrCat("Device ", client_->device(devices[d]).global_id,
                       " is not one of the executable's devices"));
    }
    if (arguments[d].size() != inputs.size()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", name(), "' takes ", inputs.size(),
                       " argument(s), got ", arguments[d].size(),
                       " for device ", client_->device(devices[d]).global_id));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      const Buffer* arg = arguments[d][i];
      if (arg->type() != inputs[i].type || arg->dims() != inputs[i].dims) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument ", i, " on device ",
            client_->device(devices[d]).global_id, " is ",
            ElementTypeName(arg->type()), "[", absl::StrJoin(arg->dims(), ","),
            "], expected ", ElementTypeName(inputs[i].type), "[",
            absl::StrJoin(inputs[i].dims, ","), "]"));
      }
      if (arg->device() != devices[d]) {
        return absl::InvalidArgumentError(absl::StrCat(
            "Argument ", i, " for device ",
            client_->device(devices[d]).global_id, " lives on device ",
            client_->device(arg->device()).global_id));
      }
      if (arg->IsDeleted()) {
        return absl::FailedPreconditionError(
            absl::StrCat("Argument ", i, " was deleted or donated"));
      }
      // A run handed a buffer's memory may overwrite it: nothing else of
      // the same call may read it.
      for (size_t j = 0; j < i; ++j) {
        const bool donated_i = i < donate.size() && donate[i];
        const bool donated_j = j < donate.size() && donate[j];
        if (arguments[d][j] == arg && (donated_i || donated_j)) {
          return absl::InvalidArgumentError(absl::StrCat(
              "Arguments ", j, " and ", i, " on device ",
              client_->device(devices[d]).global_id,
              " are the same buffer and argument ", donated_j ? j : i,
              " is donated; a donated buffer may appear once in a call"));
        }
      }
    }
  }

  // Bookkeeping lives inline (SmallVector) so that dispatching a program
  // with a few arguments allocates only what it hands back.
  Runs runs;
  for (size_t d = 0; d < devices.size(); ++d) {
    const int device = devices[d];
    const int memory = client_->default_memory(device);
    SmallVector<EventRef> deps(wait_for.begin(), wait_for.end());
    SmallVector<std::shared_ptr<DeviceAllocation>> held_inputs;
    SmallVector<bool> donated(inputs.size(), false);
    for (size_t i = 0; i < inputs.size(); ++i) {
      Buffer* arg = arguments[d][i];
      PJRTX_ASSIGN_OR_RETURN(std::shared_ptr<DeviceAllocation> allocation,
                             arg->AcquireForUse("Execute"));
      held_inputs.push_back(std::move(allocation));
      deps.push_back(arg->definition_event());
      donated[i] = i < donate.size() && donate[i];
      if (donated[i]) {
        // Writers to donated memory must wait for every earlier reader.
        std::vector<EventRef> readers = arg->TakeUsageEvents();
        deps.insert(deps.end(), readers.begin(), readers.end());
      }
    }
    PJRTX_ASSIGN_OR_RETURN(
        SmallVector<std::shared_ptr<DeviceAllocation>> out_allocations,
        OutputAllocations(memory, donated, held_inputs));
    std::shared_ptr<CompiledProgram> compiled = compiled_;
    const int64_t global_id = client_->device(device).global_id;
    // The client state outlives the tasks of its queues.
    TransferCounters* counters = &client_->counters(device);
    // Numbered at enqueue time: runs of a device start in this order.
    std::optional<LaunchContext> launch;
    if (process_devices_ != nullptr) {
      launch = MakeLaunchContext(global_id, launch_id);
    }
    auto task = [compiled = std::move(compiled), device, global_id, launch,
                 counters, held_inputs = std::move(held_inputs),
                 out_allocations]() {
      SmallVector<DeviceAddress> in, out;
      for (const auto& a : held_inputs) in.push_back(a->address());
      for (const auto& a : out_allocations) out.push_back(a->address());
      // Covers the run only, not the wait for dependencies, so gaps on
      // the device's track are time the device sat idle.
      ScopedTraceInterval trace(global_id, "compute", [&compiled] {
        return compiled->name.empty() ? std::string("execute") : compiled->name;
      });
      RunContext context;
      context.device = device;
      context.global_id = global_id;
      context.launch = launch ? &*launch : nullptr;
      context.counters = counters;
      return compiled->program->Run(context, in, out);
    };
    // A quick program on one device costs less to run here than to hand
    // to a worker and wait for; the queue does so only when it is idle.
    DeviceQueue& queue = client_->queue(device);
    EventRef done =
        compiled_->quick_to_run && devices.size() == 1 && !launch.has_value()
            ? queue.EnqueueOrRun(deps, std::move(task))
            : queue.Enqueue(deps, std::move(task));
    Run run;
    run.done = done;
    for (size_t o = 0; o < outputs.size(); ++o) {
      run.outputs.push_back(
          Buffer::FromAllocation(client_, device, memory, outputs[o].type,
                                 outputs[o].dims, out_allocations[o], done));
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
      Buffer* arg = arguments[d][i];
      if (donated[i]) {
        arg->Delete();
      } else {
        arg->AddUsage(done);
      }
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

}  // namespace pjrtx
