// PJRT entry points of compilation, loaded executables and executables.
//
// A program compiles through pjrtx's PJRTX_Client_Compile. The serialized
// CompileOptionsProto supplies the replica and partition counts and the
// device assignment (pjrtx's compile options `num_replicas`,
// `num_partitions` and `device_assignment`, global ids replica-major), or
// says the executable is portable: compiled for any one addressable device,
// named by `execute_device` at each execution.
//
// Donation: under PJRT an argument is donated when the program declares it
// may be (tf.aliasing_output or jax.buffer_donor, which
// PJRTX_LoadedExecutable_InputAliases reports) and it is not in
// non_donatable_input_indices. The donated buffer is deleted and its memory
// becomes an output.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "runtime/pjrt/api_support.h"
#include "runtime/pjrt/client_views.h"
#include "runtime/pjrt/compile_options.h"
#include "runtime/pjrt/handles.h"
#include "support/status_macros.h"

// Storage behind PJRT's serialized outputs.
struct PJRT_SerializedExecutable {
  void* pjrtx_bytes;
  void (*pjrtx_deleter)(void*);
};
struct PJRT_DeviceAssignmentSerialized {
  std::string bytes;
};

namespace pjrtx::pjrt {
namespace {

constexpr absl::string_view kMlirFormat = "mlir";
// The magic number that starts MLIR bytecode.

// A stable 64-bit FNV-1a hash of `parts`, in hex: equal inputs give equal
// fingerprints in every process.
std::string Fingerprint(std::initializer_list<absl::string_view> parts) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (absl::string_view part : parts) {
    for (unsigned char c : part) {
      hash = (hash ^ c) * 0x100000001b3ull;
    }
    hash = (hash ^ 0xff) * 0x100000001b3ull;  // Separates the parts.
  }
  return absl::StrFormat("%016x", hash);
}

PJRTX_NamedValue Int64Option(absl::string_view name, int64_t value) {
  PJRTX_NamedValue v{};
  v.struct_size = PJRTX_NamedValue_STRUCT_SIZE;
  v.name = name.data();
  v.name_size = name.size();
  v.type = PJRTX_NamedValue_kInt64;
  v.value.int64_value = value;
  v.value_size = 1;
  return v;
}

PJRTX_NamedValue Int64ListOption(absl::string_view name,
                                 const std::vector<int64_t>& list) {
  PJRTX_NamedValue v = Int64Option(name, 0);
  v.type = PJRTX_NamedValue_kInt64List;
  v.value.int64_array_value = list.data();
  v.value_size = list.size();
  return v;
}

// Where and how often an executable runs.
struct Placement {
  bool portable = false;
  int num_replicas = 1;
  int num_partitions = 1;
  std::vector<int64_t> device_ids;  // Replica-major; empty when portable.
};

absl::StatusOr<Placement> PlacementOf(const PJRT_Client& client,
                                      const CompileOptions& options) {
  Placement placement;
  if (options.compile_portable_executable) {
    placement.portable = true;
    return placement;
  }
  placement.num_replicas = options.num_replicas;
  placement.num_partitions = options.num_partitions;
  if (options.device_assignment.has_value()) {
    placement.device_ids = options.device_assignment->device_ids;
    return placement;
  }
  PJRTX_ASSIGN_OR_RETURN(placement.device_ids,
                         DefaultDeviceAssignment(client, options.num_replicas,
                                                 options.num_partitions));
  return placement;
}

// The PJRT view of a pjrtx executable just made.
absl::StatusOr<std::shared_ptr<CompiledExecutable>> Describe(
    PJRT_Client& client, PJRTX_LoadedExecutable* executable,
    Placement placement, std::string fingerprint) {
  auto compiled = std::make_shared<CompiledExecutable>();
  compiled->client = &client;
  compiled->executable.reset(executable);
  compiled->portable = placement.portable;
  compiled->num_replicas = placement.num_replicas;
  compiled->num_partitions = placement.num_partitions;
  compiled->device_assignment = std::move(placement.device_ids);
  compiled->fingerprint = std::move(fingerprint);

  auto& metadata = compiled->metadata;
  metadata = PJRTX_ARGS(PJRTX_LoadedExecutable_Metadata_Args);
  metadata.executable = executable;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().LoadedExecutable_Metadata, metadata));
  auto aliases = PJRTX_ARGS(PJRTX_LoadedExecutable_InputAliases_Args);
  aliases.executable = executable;
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().LoadedExecutable_InputAliases, aliases));
  for (size_t i = 0; i < aliases.num_inputs; ++i) {
    compiled->donatable.push_back(aliases.aliases[i] !=
                                  PJRTX_INPUT_NOT_DONATABLE);
  }
  if (!compiled->portable) {
    for (size_t d = 0; d < metadata.num_devices; ++d) {
      PJRTX_ASSIGN_OR_RETURN(PJRT_Device * device,
                             DeviceOf(client, metadata.devices[d]));
      compiled->addressable_devices.push_back(device);
    }
  }
  // Outputs are made in the default memory of the device that runs.
  absl::string_view output_kind = "device";
  if (!client.addressable_devices.empty() &&
      !client.addressable_devices.front()->memories.empty()) {
    output_kind = client.addressable_devices.front()->memories.front()->kind;
  }
  for (size_t o = 0; o < metadata.num_outputs; ++o) {
    compiled->output_types.push_back(
        static_cast<PJRT_Buffer_Type>(metadata.output_types[o]));
    compiled->output_memory_kinds.push_back(output_kind.data());
    compiled->output_memory_kind_sizes.push_back(output_kind.size());
  }
  return compiled;
}

absl::Status ClientCompile(PJRT_Client_Compile_Args& args) {
  args.executable = nullptr;
  const PJRT_Program* program = args.program;
  PJRTX_RETURN_IF_ERROR(CheckStructSize(
      "PJRT_Program", program, program == nullptr ? 0 : program->struct_size,
      PJRT_Program_STRUCT_SIZE));
  const absl::string_view format(program->format, program->format_size);
  const absl::string_view code(program->code, program->code_size);
  if (format != kMlirFormat) {
    return absl::InvalidArgumentError(
        absl::StrCat("Unknown program format '", format, "'."));
  }
  const absl::string_view serialized_options(args.compile_options,
                                             args.compile_options_size);
  PJRTX_ASSIGN_OR_RETURN(
      CompileOptions options,
      ParseCompileOptions(absl::MakeConstSpan(
          reinterpret_cast<const uint8_t*>(serialized_options.data()),
          serialized_options.size())));
  PJRTX_ASSIGN_OR_RETURN(Placement placement,
                         PlacementOf(*args.client, options));

  std::vector<PJRTX_NamedValue> compile_options;
  if (!placement.portable) {
    compile_options = {
        Int64Option("num_replicas", placement.num_replicas),
        Int64Option("num_partitions", placement.num_partitions),
        Int64ListOption("device_assignment", placement.device_ids)};
  }
  auto pjrtx_program = PJRTX_ARGS(PJRTX_Program);
  pjrtx_program.code = code.data();
  pjrtx_program.code_size = code.size();
  pjrtx_program.format = format.data();
  pjrtx_program.format_size = format.size();
  auto compile = PJRTX_ARGS(PJRTX_Client_Compile_Args);
  compile.client = args.client->client.get();
  compile.program = &pjrtx_program;
  compile.compile_options = compile_options.data();
  compile.num_compile_options = compile_options.size();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Client_Compile, compile));
  PJRTX_ASSIGN_OR_RETURN(
      std::shared_ptr<CompiledExecutable> compiled,
      Describe(*args.client, compile.executable, std::move(placement),
               Fingerprint({args.client->platform_version, format, code,
                            serialized_options})));
  args.executable = new PJRT_LoadedExecutable{std::move(compiled)};
  return absl::OkStatus();
}

// Loads what PJRT_Executable_Serialize wrote. The replica and partition
// counts come from `overridden_serialized_compile_options` when given;
// otherwise the executable runs as one replica per device it was compiled
// for.
absl::Status ExecutableDeserializeAndLoad(
    PJRT_Executable_DeserializeAndLoad_Args& args) {
  args.loaded_executable = nullptr;
  auto load = PJRTX_ARGS(PJRTX_Client_DeserializeAndLoad_Args);
  load.client = args.client->client.get();
  load.serialized_executable = args.serialized_executable;
  load.serialized_executable_size = args.serialized_executable_size;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().Client_DeserializeAndLoad, load));
  PjrtxPtr<PJRTX_LoadedExecutable> owned(load.executable);
  auto metadata = PJRTX_ARGS(PJRTX_LoadedExecutable_Metadata_Args);
  metadata.executable = load.executable;
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().LoadedExecutable_Metadata, metadata));
  Placement placement;
  placement.num_replicas = static_cast<int>(metadata.num_devices);
  if (args.overridden_serialized_compile_options != nullptr) {
    PJRTX_ASSIGN_OR_RETURN(
        CompileOptions options,
        ParseCompileOptions(absl::MakeConstSpan(
            reinterpret_cast<const uint8_t*>(
                args.overridden_serialized_compile_options),
            args.overridden_serialized_compile_options_size)));
    placement.portable = options.compile_portable_executable;
    placement.num_replicas = options.num_replicas;
    placement.num_partitions = options.num_partitions;
  }
  if (!placement.portable) {
    for (size_t d = 0; d < metadata.num_devices; ++d) {
      PJRTX_ASSIGN_OR_RETURN(PJRT_Device * device,
                             DeviceOf(*args.client, metadata.devices[d]));
      placement.device_ids.push_back(GlobalId(*device));
    }
  }
  PJRTX_ASSIGN_OR_RETURN(
      std::shared_ptr<CompiledExecutable> compiled,
      Describe(
          *args.client, owned.release(), std::move(placement),
          Fingerprint({args.client->platform_version,
                       absl::string_view(args.serialized_executable,
                                         args.serialized_executable_size)})));
  args.loaded_executable = new PJRT_LoadedExecutable{std::move(compiled)};
  return absl::OkStatus();
}

absl::Status LoadedExecutableDestroy(PJRT_LoadedExecutable_Destroy_Args& args) {
  delete args.executable;
  return absl::OkStatus();
}

absl::Status LoadedExecutableGetExecutable(
    PJRT_LoadedExecutable_GetExecutable_Args& args) {
  args.executable = new PJRT_Executable{args.loaded_executable->compiled};
  return absl::OkStatus();
}

absl::Status LoadedExecutableAddressableDevices(
    PJRT_LoadedExecutable_AddressableDevices_Args& args) {
  const CompiledExecutable& compiled = *args.executable->compiled;
  args.addressable_devices = compiled.addressable_devices.data();
  args.num_addressable_devices = compiled.addressable_devices.size();
  return absl::OkStatus();
}

// The program stays loaded until the last handle is destroyed (executions
// in flight and PJRT_Executable handles use it); a deleted executable runs
// no more.
absl::Status LoadedExecutableDelete(PJRT_LoadedExecutable_Delete_Args& args) {
  args.executable->compiled->deleted = true;
  return absl::OkStatus();
}

absl::Status LoadedExecutableIsDeleted(
    PJRT_LoadedExecutable_IsDeleted_Args& args) {
  args.is_deleted = args.executable->compiled->deleted;
  return absl::OkStatus();
}

absl::Status LoadedExecutableFingerprint(
    PJRT_LoadedExecutable_Fingerprint_Args& args) {
  const std::string& fingerprint = args.executable->compiled->fingerprint;
  args.executable_fingerprint = fingerprint.data();
  args.executable_fingerprint_size = fingerprint.size();
  return absl::OkStatus();
}

absl::Status LoadedExecutableGetDeviceAssignment(
    PJRT_LoadedExecutable_GetDeviceAssignment_Args& args) {
  const CompiledExecutable& compiled = *args.executable->compiled;
  auto serialized = std::make_unique<PJRT_DeviceAssignmentSerialized>();
  // Empty for a portable executable, which has no assignment.
  if (!compiled.portable) {
    serialized->bytes = SerializeDeviceAssignment(
        DeviceAssignment{compiled.num_replicas, compiled.num_partitions,
                         compiled.device_assignment});
  }
  args.serialized_bytes = serialized->bytes.data();
  args.serialized_bytes_size = serialized->bytes.size();
  args.serialized_device_assignment = serialized.release();
  args.serialized_device_assignment_deleter =
      [](PJRT_DeviceAssignmentSerialized* da) { delete da; };
  return absl::OkStatus();
}

// The pjrtx handles of one device's arguments, per device.
absl::StatusOr<std::vector<std::vector<PJRTX_Buffer*>>> ArgumentLists(
    const PJRT_LoadedExecutable_Execute_Args& args) {
  if (args.num_args > 0 && args.argument_lists == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("argument_lists is NULL but num_args is ", args.num_args));
  }
  std::vector<std::vector<PJRTX_Buffer*>> lists(args.num_devices);
  for (size_t d = 0; d < args.num_devices; ++d) {
    if (args.num_args > 0 && args.argument_lists[d] == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("argument_lists[", d, "] is NULL"));
    }
    for (size_t i = 0; i < args.num_args; ++i) {
      const PJRT_Buffer* buffer = args.argument_lists[d][i];
      lists[d].push_back(buffer == nullptr ? nullptr : buffer->buffer.get());
    }
  }
  return lists;
}

// The devices of one execution.
absl::StatusOr<std::vector<PJRTX_Device*>> ExecutionDevices(
    const CompiledExecutable& compiled,
    const PJRT_LoadedExecutable_Execute_Args& args) {
  if (args.execute_device != nullptr) {
    if (args.num_devices != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("execute_device is set, so num_devices must be 1; got ",
                       args.num_devices));
    }
    return std::vector<PJRTX_Device*>{args.execute_device->device};
  }
  if (compiled.portable) {
    return absl::InvalidArgumentError(
        "A portable executable runs on the device execute_device names; it "
        "is NULL");
  }
  if (args.num_devices != compiled.addressable_devices.size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "The executable runs on ", compiled.addressable_devices.size(),
        " addressable device(s); got argument lists for ", args.num_devices));
  }
  std::vector<PJRTX_Device*> devices;
  for (const PJRT_Device* device : compiled.addressable_devices) {
    devices.push_back(device->device);
  }
  return devices;
}

// One flag per argument, stored inline for the usual few arguments.
using DonationFlags = absl::InlinedVector<bool, 8>;

// Per argument, whether this run is handed its memory: the program declares
// it donatable and the caller did not exclude it.
absl::StatusOr<DonationFlags> DonatedArguments(
    const CompiledExecutable& compiled,
    const PJRT_LoadedExecutable_Execute_Args& args) {
  DonationFlags donate(args.num_args, false);
  for (size_t i = 0; i < args.num_args && i < compiled.donatable.size(); ++i) {
    donate[i] = compiled.donatable[i];
  }
  if (args.options == nullptr) return donate;
  const PJRT_ExecuteOptions& options = *args.options;
  if (options.num_non_donatable_input_indices > 0 &&
      options.non_donatable_input_indices == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("non_donatable_input_indices is NULL but "
                     "num_non_donatable_input_indices is ",
                     options.num_non_donatable_input_indices));
  }
  for (size_t k = 0; k < options.num_non_donatable_input_indices; ++k) {
    const int64_t index = options.non_donatable_input_indices[k];
    if (index < 0 || static_cast<size_t>(index) >= args.num_args) {
      return absl::InvalidArgumentError(absl::StrCat(
          "non_donatable_input_indices[", k, "] is ", index,
          "; the executable takes ", args.num_args, " argument(s)"));
    }
    donate[index] = false;
  }
  return donate;
}

absl::Status LoadedExecutableExecute(PJRT_LoadedExecutable_Execute_Args& args) {
  CompiledExecutable& compiled = *args.executable->compiled;
  if (compiled.deleted) {
    return absl::FailedPreconditionError(
        "PJRT_LoadedExecutable_Execute: the executable was deleted");
  }
  int64_t launch_id = 0;
  if (args.options != nullptr) {
    const PJRT_ExecuteOptions& options = *args.options;
    PJRTX_RETURN_IF_ERROR(CheckStructSize("PJRT_ExecuteOptions", &options,
                                          options.struct_size,
                                          PJRT_ExecuteOptions_STRUCT_SIZE));
    if (options.num_send_ops > 0 || options.num_recv_ops > 0) {
      return absl::UnimplementedError(
          "PJRT_LoadedExecutable_Execute: host send/recv callbacks are not "
          "implemented by pjrtx");
    }
    launch_id = options.launch_id;
  }
  if (args.output_lists == nullptr) {
    return absl::InvalidArgumentError("output_lists is NULL");
  }
  PJRTX_ASSIGN_OR_RETURN(std::vector<PJRTX_Device*> devices,
                         ExecutionDevices(compiled, args));
  PJRTX_ASSIGN_OR_RETURN(std::vector<std::vector<PJRTX_Buffer*>> arguments,
                         ArgumentLists(args));
  std::vector<PJRTX_Buffer* const*> argument_lists;
  for (const auto& list : arguments) argument_lists.push_back(list.data());
  const size_t num_outputs = compiled.metadata.num_outputs;
  std::vector<std::vector<PJRTX_Buffer*>> outputs(
      devices.size(), std::vector<PJRTX_Buffer*>(num_outputs));
  std::vector<PJRTX_Buffer**> output_lists;
  for (auto& list : outputs) output_lists.push_back(list.data());
  std::vector<PJRTX_Event*> events(devices.size());
  PJRTX_ASSIGN_OR_RETURN(DonationFlags donate,
                         DonatedArguments(compiled, args));

  auto execute = PJRTX_ARGS(PJRTX_LoadedExecutable_Execute_Args);
  execute.executable = compiled.executable.get();
  execute.devices = devices.data();
  execute.num_devices = devices.size();
  execute.argument_lists = argument_lists.data();
  execute.num_args = args.num_args;
  execute.donate_arguments = donate.data();
  execute.launch_id = launch_id;
  execute.output_lists = output_lists.data();
  execute.device_complete_events =
      args.device_complete_events == nullptr ? nullptr : events.data();
  PJRTX_RETURN_IF_ERROR(CallPjrtx(Pjrtx().LoadedExecutable_Execute, execute));
  for (size_t d = 0; d < devices.size(); ++d) {
    for (size_t o = 0; o < num_outputs; ++o) {
      args.output_lists[d][o] = WrapBuffer(compiled.client, outputs[d][o]);
    }
    if (args.device_complete_events != nullptr) {
      args.device_complete_events[d] = WrapEvent(events[d]);
    }
  }
  return absl::OkStatus();
}

absl::Status ExecutableDestroy(PJRT_Executable_Destroy_Args& args) {
  delete args.executable;
  return absl::OkStatus();
}

absl::Status ExecutableName(PJRT_Executable_Name_Args& args) {
  const auto& metadata = args.executable->compiled->metadata;
  args.executable_name = metadata.name;
  args.executable_name_size = metadata.name_size;
  return absl::OkStatus();
}

absl::Status ExecutableNumReplicas(PJRT_Executable_NumReplicas_Args& args) {
  args.num_replicas = args.executable->compiled->num_replicas;
  return absl::OkStatus();
}

absl::Status ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args& args) {
  args.num_partitions = args.executable->compiled->num_partitions;
  return absl::OkStatus();
}

absl::Status ExecutableNumOutputs(PJRT_Executable_NumOutputs_Args& args) {
  args.num_outputs = args.executable->compiled->metadata.num_outputs;
  return absl::OkStatus();
}

// Programs run on the runtime's own engines; no machine code is generated
// apart from them.
absl::Status ExecutableSizeOfGeneratedCodeInBytes(
    PJRT_Executable_SizeOfGeneratedCodeInBytes_Args& args) {
  args.size_in_bytes = 0;
  return absl::OkStatus();
}

absl::Status ExecutableOutputElementTypes(
    PJRT_Executable_OutputElementTypes_Args& args) {
  const CompiledExecutable& compiled = *args.executable->compiled;
  // PJRT declares the array non-const; the caller only reads it.
  args.output_types =
      const_cast<PJRT_Buffer_Type*>(compiled.output_types.data());
  args.num_output_types = compiled.output_types.size();
  return absl::OkStatus();
}

// pjrtx lists the outputs' dimensions one after another, as PJRT does.
absl::Status ExecutableOutputDimensions(
    PJRT_Executable_OutputDimensions_Args& args) {
  const auto& metadata = args.executable->compiled->metadata;
  args.num_outputs = metadata.num_outputs;
  args.dims = metadata.output_dims;
  args.dim_sizes = metadata.output_ranks;
  return absl::OkStatus();
}

absl::Status ExecutableOutputMemoryKinds(
    PJRT_Executable_OutputMemoryKinds_Args& args) {
  const CompiledExecutable& compiled = *args.executable->compiled;
  args.num_outputs = compiled.output_memory_kinds.size();
  args.memory_kinds = compiled.output_memory_kinds.data();
  args.memory_kind_sizes = compiled.output_memory_kind_sizes.data();
  return absl::OkStatus();
}

absl::Status ExecutableFingerprint(PJRT_Executable_Fingerprint_Args& args) {
  const std::string& fingerprint = args.executable->compiled->fingerprint;
  args.executable_fingerprint = fingerprint.data();
  args.executable_fingerprint_size = fingerprint.size();
  return absl::OkStatus();
}

absl::Status ExecutableSerialize(PJRT_Executable_Serialize_Args& args) {
  auto serialize = PJRTX_ARGS(PJRTX_LoadedExecutable_Serialize_Args);
  serialize.executable = args.executable->compiled->executable.get();
  PJRTX_RETURN_IF_ERROR(
      CallPjrtx(Pjrtx().LoadedExecutable_Serialize, serialize));
  args.serialized_bytes = serialize.serialized_bytes;
  args.serialized_bytes_size = serialize.serialized_bytes_size;
  args.serialized_executable = new PJRT_SerializedExecutable{
      serialize.serialized_executable, serialize.serialized_executable_deleter};
  args.serialized_executable_deleter = [](PJRT_SerializedExecutable* exec) {
    exec->pjrtx_deleter(exec->pjrtx_bytes);
    delete exec;
  };
  return absl::OkStatus();
}

absl::Status ExecuteContextCreate(PJRT_ExecuteContext_Create_Args& args) {
  args.context = new PJRT_ExecuteContext();
  return absl::OkStatus();
}

absl::Status ExecuteContextDestroy(PJRT_ExecuteContext_Destroy_Args& args) {
  delete args.context;
  return absl::OkStatus();
}

}  // namespace

void FillExecutableSlots(PJRT_Api& api) {
  PJRTX_PJRT_SLOT(api, PJRT_Client_Compile, ClientCompile);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_DeserializeAndLoad,
                  ExecutableDeserializeAndLoad);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_Destroy, LoadedExecutableDestroy);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_GetExecutable,
                  LoadedExecutableGetExecutable);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_AddressableDevices,
                  LoadedExecutableAddressableDevices);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_Delete, LoadedExecutableDelete);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_IsDeleted,
                  LoadedExecutableIsDeleted);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_Execute, LoadedExecutableExecute);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_Fingerprint,
                  LoadedExecutableFingerprint);
  PJRTX_PJRT_SLOT(api, PJRT_LoadedExecutable_GetDeviceAssignment,
                  LoadedExecutableGetDeviceAssignment);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_Destroy, ExecutableDestroy);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_Name, ExecutableName);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_NumReplicas, ExecutableNumReplicas);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_NumPartitions, ExecutableNumPartitions);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_NumOutputs, ExecutableNumOutputs);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_SizeOfGeneratedCodeInBytes,
                  ExecutableSizeOfGeneratedCodeInBytes);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_OutputElementTypes,
                  ExecutableOutputElementTypes);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_OutputDimensions,
                  ExecutableOutputDimensions);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_OutputMemoryKinds,
                  ExecutableOutputMemoryKinds);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_Fingerprint, ExecutableFingerprint);
  PJRTX_PJRT_SLOT(api, PJRT_Executable_Serialize, ExecutableSerialize);
  PJRTX_PJRT_SLOT(api, PJRT_ExecuteContext_Create, ExecuteContextCreate);
  PJRTX_PJRT_SLOT(api, PJRT_ExecuteContext_Destroy, ExecuteContextDestroy);
  // Compilation without a client, and what only XLA's compiler reports.
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Compile);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Executable_OptimizedProgram);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Executable_GetCostAnalysis);
  PJRTX_PJRT_UNIMPLEMENTED_SLOT(api, PJRT_Executable_GetCompiledMemoryStats);
}

}  // namespace pjrtx::pjrt
